//! Command-line interface: clap definitions and the subcommand printers.
