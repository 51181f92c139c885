//! The `skillnav` binary: the TUI by default, subcommands otherwise (see `skillnav --help`).
//! The only place that wires the CLI to the terminal UI.

fn main() {
    // Hidden helper mode: keep the clipboard served after the parent exits (Linux/X11).
    if std::env::args().nth(1).as_deref() == Some("__clipboard-serve") {
        std::process::exit(skillnav::clipboard::serve_main());
    }
    std::process::exit(skillnav::cli::main(&launch_tui));
}

/// Start the TUI for what the command line asked (no subcommand).
#[cfg(feature = "tui")]
fn launch_tui(req: skillnav::cli::TuiRequest) -> anyhow::Result<()> {
    use skillnav::cli::RecipeRef;
    use skillnav::tui::{RecipeArg, TuiOptions};
    let opts = TuiOptions {
        encoding: req.encoding,
        load: req.load,
        theme: req.theme,
        recipe: req.recipe.map(|r| match r {
            RecipeRef::File(path) => RecipeArg::File(path),
            RecipeRef::Name(name) => RecipeArg::Name(name),
        }),
    };
    skillnav::tui::run(req.specs, opts, req.pending)
}

/// This build has no TUI: say so and point at the subcommands.
#[cfg(not(feature = "tui"))]
fn launch_tui(_req: skillnav::cli::TuiRequest) -> anyhow::Result<()> {
    anyhow::bail!(
        "this build has no TUI (built without the `tui` feature); use a subcommand, see --help"
    )
}
