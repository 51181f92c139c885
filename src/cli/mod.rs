//! Command-line interface: clap definitions and the subcommand printers.

/// Run the command line; returns the exit code (0 ok, 1 findings, 2 usage or I/O error).
pub fn main() -> i32 {
    todo!("cli")
}
