//! The real `skillnav` binary: subcommands, JSON shapes and exit codes.

mod commands;
mod curate;
