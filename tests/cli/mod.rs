//! The real `skillnav` binary: subcommands, JSON shapes and exit codes.

mod agents;
mod commands;
mod curate;
mod shell;
mod unicode;
