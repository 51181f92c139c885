//! Curation in the TUI (issue 5): exposure levels set in the tree, the token budget, brief
//! and rendered-skill settings, saved selections (recipes), and the popups that act on them
//! (brief preview, recipe list, one-line prompt, question). State lives in [`Curate`]; the
//! handlers in [`actions`] are called by `update` only; the text is built on a worker
//! ([`job`]).

pub mod actions;
pub mod export;
pub mod job;
pub mod preview;
pub mod prompt;
pub mod recipes;

use std::path::PathBuf;
use std::sync::Arc;

use ratatui_textarea::TextArea;

use crate::brief::BriefFormat;
use crate::brief::Mode as BriefMode;
use crate::curate::exposure::{Exposure, ExposureMap};
use crate::model::{Corpus, NodeId, Selection};
use crate::skill::listing::ListingFormat;
use crate::tokens::TokenTable;

use super::config::Settings;
use super::keymap::Mode;
use job::BuiltText;

/// What the preview popup shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreviewKind {
    /// A brief of the selection.
    Brief,
    /// The rendered skill(s).
    Skill,
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
    /// Mode to return to.
    pub back: Mode,
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
    /// Mode to return to.
    pub back: Mode,
}

/// Curation state of the app.
#[derive(Debug)]
pub struct Curate {
    /// Exposure levels: node metadata (`meta.exposure`) plus the user's.
    pub exposure: ExposureMap,
    /// Token budget; `None` = none.
    pub budget: Option<u64>,
    /// Budgets `b` cycles through.
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
    /// Bumped for every text job; results of older ones are dropped.
    pub generation: u64,
    /// The preview popup (mode [`Mode::Brief`]).
    pub preview: Option<PreviewPopup>,
    /// The recipe list (mode [`Mode::Recipes`]).
    pub recipes: Option<RecipeList>,
    /// The prompt (mode [`Mode::Input`]).
    pub input: Option<InputBox>,
    /// The question (mode [`Mode::Ask`]).
    pub ask: Option<Ask>,
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
            format: BriefFormat::parse(&b.format).unwrap_or_default(),
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
            generation: 0,
            preview: None,
            recipes: None,
            input: None,
            ask: None,
        }
    }
}

/// The text units a brief of `selection` holds: the selected units whose level admits a
/// selected node (not `hidden`), then the `always` units outside them.
pub fn brief_units(corpus: &Corpus, selection: &Selection, exposure: &ExposureMap) -> Vec<NodeId> {
    let mut units: Vec<NodeId> = selection
        .units(corpus)
        .into_iter()
        .filter(|u| exposure.level(corpus, *u).admits(true, false))
        .collect();
    let always: Vec<NodeId> = exposure
        .always_units(corpus)
        .into_iter()
        .filter(|a| !units.iter().any(|u| corpus.is_within(*a, *u)))
        .collect();
    units.extend(always);
    units
}

/// Σ tokens of [`brief_units`] from `table` (minus `hidden` sub-sections of a unit, which a
/// brief cuts out), and whether all of it is counted. The number beside the budget.
pub fn brief_tokens(
    corpus: &Corpus,
    selection: &Selection,
    exposure: &ExposureMap,
    table: &TokenTable,
) -> (u64, bool) {
    let hidden: Vec<NodeId> = exposure
        .entries()
        .into_iter()
        .filter(|(n, e)| {
            *e == Exposure::Hidden
                && corpus.node(*n).parent.is_none_or(|p| exposure.level(corpus, p) != Exposure::Hidden)
        })
        .map(|(n, _)| n)
        .collect();
    let (mut sum, mut complete) = (0u64, true);
    for u in brief_units(corpus, selection, exposure) {
        match table.total(u) {
            Some(t) => {
                let cut: u64 = hidden
                    .iter()
                    .filter(|h| **h != u && corpus.is_within(**h, u))
                    .filter_map(|h| table.total(*h))
                    .sum();
                sum += t.saturating_sub(cut);
            }
            None => complete = false,
        }
    }
    (sum, complete)
}

/// Parse a budget typed by the user: `12000`, `12k`, `1.5k`, `2m`, `1g`, `12,000`; `0`
/// (`0k`, …), `none` or `off` mean no budget (`Ok(None)`). Errors: a message naming the
/// input (not a number, negative, or between 0 and 1 token).
pub fn parse_budget(s: &str) -> Result<Option<u64>, String> {
    let t = s.trim().to_ascii_lowercase().replace([',', '_', ' '], "");
    if t.is_empty() || t == "none" || t == "off" {
        return Ok(None);
    }
    let (num, mult) = match t.char_indices().last() {
        Some((i, 'k')) => (&t[..i], 1e3),
        Some((i, 'm')) => (&t[..i], 1e6),
        Some((i, 'g')) => (&t[..i], 1e9),
        _ => (t.as_str(), 1.0),
    };
    let bad = || format!("not a token budget: {:?} (e.g. 12000, 12k, 0 for none)", s.trim());
    match num.parse::<f64>() {
        Ok(0.0) => Ok(None),
        Ok(v) if v.is_finite() && v * mult >= 1e15 => {
            Err(format!("a budget is at most 10¹⁵ tokens: {:?}", s.trim()))
        }
        Ok(v) if v.is_finite() && v * mult >= 1.0 => Ok(Some((v * mult).round() as u64)),
        Ok(v) if v.is_finite() && v > 0.0 => Err(format!("a budget is at least 1 token: {:?}", s.trim())),
        _ => Err(bad()),
    }
}

/// Parse `NAME=value` pairs separated by whitespace; a `"…"` or `'…'` run anywhere in an
/// item is taken literally (quotes removed), so `TITLE="Q3 report"` holds a space.
/// Errors: a message naming the first item that is not `NAME=value` with an identifier name
/// (`[A-Za-z_][A-Za-z0-9_]*`, FORMATS §5.3), or an unclosed quote.
pub fn parse_vars(s: &str) -> Result<std::collections::BTreeMap<String, String>, String> {
    let mut items: Vec<String> = Vec::new();
    let (mut cur, mut quote, mut started) = (String::new(), None::<char>, false);
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started {
                    items.push(std::mem::take(&mut cur));
                    started = false;
                }
            }
            (None, c) => {
                cur.push(c);
                started = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("unclosed {q} in {:?}", s.trim()));
    }
    if started {
        items.push(cur);
    }
    let mut out = std::collections::BTreeMap::new();
    for item in items {
        let ok = item.split_once('=').filter(|(k, _)| {
            let mut cs = k.chars();
            cs.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        match ok {
            Some((k, v)) => {
                out.insert(k.to_string(), v.to_string());
            }
            None => return Err(format!("not NAME=value: {item:?}")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vars_parse_quoted_values_and_refuse_bad_names() {
        let v = parse_vars(r#"OUT_DIR=/tmp/x TITLE="Q3 report" EMPTY="#).unwrap();
        assert_eq!(v.get("OUT_DIR").map(String::as_str), Some("/tmp/x"));
        assert_eq!(v.get("TITLE").map(String::as_str), Some("Q3 report"));
        assert_eq!(v.get("EMPTY").map(String::as_str), Some(""));
        assert!(parse_vars("").unwrap().is_empty());
        assert_eq!(parse_vars("1X=2").unwrap_err(), "not NAME=value: \"1X=2\"");
        assert!(parse_vars("novalue").is_err());
        assert_eq!(parse_vars("A='x").unwrap_err(), "unclosed ' in \"A='x\"");
    }

    #[test]
    fn budgets_parse_with_suffixes_and_none() {
        assert_eq!(parse_budget("12000"), Ok(Some(12_000)));
        assert_eq!(parse_budget(" 12k "), Ok(Some(12_000)));
        assert_eq!(parse_budget("1.5k"), Ok(Some(1_500)));
        assert_eq!(parse_budget("2M"), Ok(Some(2_000_000)));
        assert_eq!(parse_budget("12,000"), Ok(Some(12_000)));
        assert_eq!(parse_budget("0"), Ok(None));
        assert_eq!(parse_budget("0k"), Ok(None));
        assert_eq!(parse_budget("1g"), Ok(Some(1_000_000_000)));
        assert_eq!(parse_budget("0.4").unwrap_err(), "a budget is at least 1 token: \"0.4\"");
        assert!(parse_budget("99999999999999999999").unwrap_err().starts_with("a budget is at most"));
        assert_eq!(parse_budget("off"), Ok(None));
        assert!(parse_budget("twelve").unwrap_err().contains("twelve"));
        assert!(parse_budget("-5").is_err());
    }
}
