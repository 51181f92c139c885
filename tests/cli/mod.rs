//! The real `skillnav` binary: subcommands, JSON shapes and exit codes.

mod agents;
mod clients;
mod commands;
mod curate;
mod layering;
mod shell;
mod triggers;
mod unicode;
