//! The `skillnav` binary: the TUI by default, subcommands otherwise (see `skillnav --help`).

fn main() {
    // Hidden helper mode: keep the clipboard served after the parent exits (Linux/X11).
    if std::env::args().nth(1).as_deref() == Some("__clipboard-serve") {
        std::process::exit(skillnav::clipboard::serve_main());
    }
    std::process::exit(skillnav::cli::main());
}
