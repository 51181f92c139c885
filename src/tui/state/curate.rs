//! Curation state in the TUI: exposure levels set in the tree, the token budget,
//! brief and rendered-skill settings, saved selections (recipes), and the popups that act on
//! them (brief preview, recipe list, one-line prompt, question). The handlers are in
//! [`crate::tui::update`]; the text is built on a worker ([`crate::tui::effects::text_job`]).

use std::path::PathBuf;
use std::sync::Arc;

use ratatui_textarea::TextArea;

use crate::brief::BriefFormat;
use crate::brief::Mode as BriefMode;
use crate::curate::exposure::ExposureMap;
use crate::skill::listing::ListingFormat;

use crate::tui::config::Settings;
use crate::tui::state::built_text::BuiltText;

/// What the preview popup shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreviewKind {
    /// A brief of the selection.
    Brief,
    /// The rendered skill(s).
    Skill,
    /// The effective set: the listing Claude Code sends, under the listing budget.
    Agent,
}

/// The brief / rendered-skill preview popup.
#[derive(Clone, Debug)]
pub struct PreviewPopup {
    /// What it shows.
    pub kind: PreviewKind,
    /// Generation of the text asked for; older results are dropped.
    pub generation: u64,
    /// The text, once built (`Err`: why there is none).
    pub built: Option<Result<Arc<BuiltText>, String>>,
    /// The text cut into lines of at most `wrap_width` cells (done in `update`, not in draw).
    pub wrapped: Vec<String>,
    /// Width `wrapped` was made for.
    pub wrap_width: u16,
    /// First line shown.
    pub scroll: usize,
}

/// One entry of the recipe list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeEntry {
    /// Name shown (recipe name, or the file name of `--recipe FILE`).
    pub label: String,
    /// Its file.
    pub path: PathBuf,
}

/// The recipe list popup.
#[derive(Clone, Debug, Default)]
pub struct RecipeList {
    /// Entries: the `--recipe FILE` first (if any), then the saved recipes by name.
    pub entries: Vec<RecipeEntry>,
    /// Cursor.
    pub cursor: usize,
}

/// What a one-line prompt is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputPurpose {
    /// Name to save the recipe under.
    RecipeName,
    /// A custom token budget (`12000`, `12k`, `0` = none).
    Budget,
    /// Folder to export the selection to (its name is the skill name).
    ExportDir,
    /// The exported skill's description (prefilled from its sources), for the folder typed
    /// before.
    ExportDescription(String),
    /// Arguments of the rendered skill.
    SkillArgs,
    /// `${NAME}` values of the rendered skill (`NAME=value …`, quotes allowed).
    SkillVars,
}

/// A one-line prompt.
#[derive(Debug)]
pub struct InputBox {
    /// What it is for.
    pub purpose: InputPurpose,
    /// The text.
    pub area: TextArea<'static>,
}

/// What a question is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Delete this recipe file?
    DeleteRecipe(RecipeEntry),
    /// The system clipboard failed and the text is over the OSC 52 limit: send anyway,
    /// save to a file, or cancel?
    Oversize(Arc<BuiltText>),
    /// The export folder exists and is not empty: replace it?
    ReplaceFolder(PathBuf),
}

/// A question popup.
#[derive(Clone, Debug)]
pub struct Ask {
    /// The question.
    pub question: Question,
}

/// Curation state of the app.
#[derive(Debug)]
pub struct Curate {
    /// Exposure levels: node metadata (`meta.exposure`) plus the user's.
    pub exposure: ExposureMap,
    /// Token budget; `None` = none.
    pub budget: Option<u64>,
    /// Budgets `b` steps down through (largest first, then none).
    pub presets: Vec<u64>,
    /// Brief layout.
    pub format: BriefFormat,
    /// Brief mode.
    pub mode: BriefMode,
    /// Add the search query's hits to briefs.
    pub with_query: bool,
    /// Listing before several rendered skills.
    pub listing: ListingFormat,
    /// Arguments for rendered skills (`None`: placeholders untouched).
    pub args: Option<String>,
    /// `${NAME}` values for rendered skills.
    pub vars: std::collections::BTreeMap<String, String>,
    /// Prepend `Base directory for this skill: <dir>` to rendered skills.
    pub include_base_dir: bool,
    /// Name of the recipe last loaded or saved.
    pub recipe_name: Option<String>,
    /// `--recipe FILE`: loaded when loading finishes; saving under its name writes it.
    pub recipe_file: Option<PathBuf>,
    /// Load `recipe_file` (or the stored recipe `pending_name`) once loading is done.
    pub recipe_pending: bool,
    /// `--recipe NAME`: a stored recipe to load once loading is done.
    pub pending_name: Option<String>,
    /// Folder of saved recipes (`None`: no user data dir).
    pub store: Option<crate::curate::recipe::Store>,
    /// Said after the next copy's status (e.g. selected items `Y` left out).
    pub copy_note: String,
    /// The description typed for the export under way (kept for the replace question).
    pub export_description: Option<String>,
    /// Bumped for every text job; results of older ones are dropped.
    pub generation: u64,
}

impl Curate {
    /// Curation state from the settings (budget, presets, format, mode, listing) with no
    /// exposure levels; recipes are kept in [`crate::curate::recipe::default_dir`].
    pub fn new(settings: &Settings) -> Curate {
        let b = &settings.brief;
        Curate {
            exposure: ExposureMap::new(),
            budget: (b.budget > 0).then_some(b.budget),
            presets: b.presets.iter().copied().filter(|p| *p > 0).collect(),
            format: BriefFormat::parse_layout(&b.format).unwrap_or_default(),
            mode: BriefMode::parse(&b.mode).unwrap_or_default(),
            with_query: false,
            listing: ListingFormat::parse(&b.listing).unwrap_or(ListingFormat::AvailableSkills),
            args: None,
            vars: std::collections::BTreeMap::new(),
            include_base_dir: false,
            recipe_name: None,
            recipe_file: None,
            recipe_pending: false,
            pending_name: None,
            store: crate::curate::recipe::default_dir().map(crate::curate::recipe::Store::new),
            copy_note: String::new(),
            export_description: None,
            generation: 0,
        }
    }
}
