//! Brief modes: how much of each section a brief carries (answer, extract, locate,
//! summarize) and how `auto` picks one from the query's wording (lazytools' intent rules,
//! docs/FORMATS.md §2.8). Shared by the curated layouts and lazytools' `query_skill`.

use std::fmt;

/// A `query_skill` mode (docs/FORMATS.md §2.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Detect the intent from the task wording ([`resolve_mode`]).
    #[default]
    Auto,
    /// Evidence bullets (+ full excerpts with `include_quotes`).
    Answer,
    /// Every selected chunk as an excerpt.
    Extract,
    /// The distinct source paths.
    Locate,
    /// Condensed bullets of the first 6 chunks.
    Summarize,
}

impl Mode {
    /// The lower-case name lazytools prints in `[mode]`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::Answer => "answer",
            Mode::Extract => "extract",
            Mode::Locate => "locate",
            Mode::Summarize => "summarize",
        }
    }

    /// Parse `auto|answer|extract|locate|summarize` (exact, lower-case).
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "auto" => Mode::Auto,
            "answer" => Mode::Answer,
            "extract" => Mode::Extract,
            "locate" => Mode::Locate,
            "summarize" => Mode::Summarize,
            _ => return None,
        })
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// lazytools' `_auto_mode` (docs/FORMATS.md §2.8): plain substring tests on the lower-cased task,
/// first match wins — locate (`where`, `find`, `locate`, `which file`, `in quale`, `dove`,
/// `trova`), then extract (`extract`, `list all`, `enumerate`, `all examples`, `estrai`,
/// `elenca`), then summarize (`summarize`, `summarise`, `overview`, `brief`, `riassumi`,
/// `panoramica`), else answer. Never returns [`Mode::Auto`].
pub fn resolve_mode(task: &str) -> Mode {
    let t = task.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| t.contains(w));
    if any(&[
        "where",
        "find",
        "locate",
        "which file",
        "in quale",
        "dove",
        "trova",
    ]) {
        Mode::Locate
    } else if any(&[
        "extract",
        "list all",
        "enumerate",
        "all examples",
        "estrai",
        "elenca",
    ]) {
        Mode::Extract
    } else if any(&[
        "summarize",
        "summarise",
        "overview",
        "brief",
        "riassumi",
        "panoramica",
    ]) {
        Mode::Summarize
    } else {
        Mode::Answer
    }
}

/// The mode a request resolves to: an explicit mode as is; `Auto` → [`resolve_mode`] on the
/// query (lazytools' intent rules, docs/FORMATS.md §2.8), or `Answer` without a query.
pub fn effective_mode(mode: Mode, query: Option<&str>) -> Mode {
    match (mode, query) {
        (Mode::Auto, Some(q)) => resolve_mode(q),
        (Mode::Auto, None) => Mode::Answer,
        (m, _) => m,
    }
}
