//! The real `skillnav` binary: subcommands, JSON shapes and exit codes.

mod agents;
mod commands;
mod curate;
mod layering;
mod shell;
mod unicode;
