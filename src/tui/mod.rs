//! The terminal UI (docs/DESIGN.md §6): a drillable tree with sizes and selection marks, a preview
//! of rendered markdown, live search (BM25 + fuzzy), a running token total and brief copy.
//!
//! Architecture, by role: [`input`] turns keys into an [`input::action::Action`];
//! [`state`] is plain data ([`state::app::App`]); [`update`] holds the only mutators (one
//! handler per feature; features ask each other for work only through follow-up messages
//! that `update` routes); [`effects`] runs the work `update` queued (one body per job, on
//! worker threads or inline for tests) and reports [`effects::worker_msg::WorkerMsg`]s; [`view`]
//! draws from `&App`; [`runtime`] multiplexes input and results and draws once per batch;
//! [`bridge`] is the one converter from the core's styled text to ratatui.

#![warn(missing_docs)]

pub mod bridge;
pub mod config;
pub mod effect;
pub mod effects;
pub mod glyphs;
pub mod input;
pub mod runtime;
pub mod state;
pub mod terminal;
pub mod theme;
pub mod update;
pub mod view;

use crate::model::Corpus;

/// Options of a TUI session (from the command line).
#[derive(Clone, Debug, Default)]
pub struct TuiOptions {
    /// Token encoding for sizes and the selection total.
    pub encoding: crate::tokens::Encoding,
    /// Loader options.
    pub load: crate::formats::LoadOptions,
    /// `"dark"`, `"light"` or a theme TOML path; `None` uses the config (default dark).
    pub theme: Option<String>,
    /// `--recipe`: a saved selection to load once the roots are loaded.
    pub recipe: Option<RecipeArg>,
}

/// The `--recipe` argument of a TUI session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecipeArg {
    /// A recipe file: loaded at start (when it exists); saving under its name writes it.
    File(std::path::PathBuf),
    /// The name of a recipe in the user data folder.
    Name(String),
}

/// Build the app for a session: settings, keymap and theme from the config (problems
/// become warnings in the status bar), an empty corpus that fills as roots load.
pub fn new_app(opts: &TuiOptions, roots: usize) -> state::app::App {
    let (settings, keymap, mut warnings) = config::load();
    let spec = opts
        .theme
        .clone()
        .unwrap_or_else(|| settings.ui.theme.clone());
    let (theme, tw) = theme::UiTheme::load(&spec, crate::render::no_color());
    warnings.extend(tw);
    let mut app = state::app::App::new(Corpus::new(), opts.encoding, keymap, settings, theme);
    app.progress.loading = Some((0, 0, roots));
    match &opts.recipe {
        Some(RecipeArg::File(f)) => {
            app.curate.recipe_file = Some(f.clone());
            app.curate.recipe_pending = true;
        }
        Some(RecipeArg::Name(n)) => {
            app.curate.recipe_pending = true;
            app.curate.recipe_file = None;
            app.curate.pending_name = Some(n.clone());
        }
        None => {}
    }
    if let Some(w) = warnings.first() {
        app.status = w.clone();
    }
    app.warnings = warnings;
    app
}

/// Run the TUI on `specs` until the user quits. The first frame shows at once; roots load
/// in the background, and so do the `pending` linked pages of remote roots. The terminal is restored on every exit path (return, error, panic).
///
/// Errors: the terminal cannot be set up (stdout is not a terminal) or drawing failed.
pub fn run(
    specs: Vec<crate::formats::RootSpec>,
    opts: TuiOptions,
    pending: Vec<crate::remote::Pending>,
) -> anyhow::Result<()> {
    terminal::install_panic_hook();
    let mut app = new_app(&opts, specs.len());
    let mut session = terminal::Session::enter(app.settings.ui.mouse)?;
    let size = session.terminal.size()?;
    update::update(
        &mut app,
        input::action::Action::Resize(size.width, size.height),
    );
    let workers = runtime::Workers::start();
    if specs.is_empty() {
        app.progress.loading = None;
        app.status = "Nothing to open".into();
    } else {
        app.specs = specs.clone();
        app.load_opts = opts.load.clone();
        effects::workers::start(
            &workers.tx,
            effects::jobs::Job::Load {
                specs,
                opts: opts.load.clone(),
            },
        );
    }
    effects::workers::fetch_pages(&workers.tx, pending);
    let result = runtime::run_loop(&mut session, &mut app, &workers);
    drop(session);
    // A persisted index still being written when the user quit is not finished: its
    // temporary file goes (the next start writes the index again).
    crate::store::abandon_writes();
    result
}
