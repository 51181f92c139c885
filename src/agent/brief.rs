//! The brief request as `skillnav brief` and the MCP `brief` tool name it (lazytools'
//! `query_skill` parameters): [`prepare`] resolves the recipe, the ids, the query, the mode
//! and the levels once into the core's [`Request`], which [`Prepared::build`] hands to the
//! one pipeline, [`crate::brief::build`]. The CLI and the MCP `brief` tool both go through
//! here, so the same arguments give the same bytes (and the TUI builds the same
//! [`Request`] from its selection).

use std::path::Path;

use crate::brief::{self, BriefFormat, Mode, NothingToBrief, Request};
use crate::curate::exposure::ExposureMap;
use crate::curate::recipe::{Recipe, Store};
use crate::index::Index;
use crate::model::{Corpus, Selection};
use crate::tokens::TokenCounter;

use super::error::{AgentError, AgentResult, err};

/// The arguments of `skillnav brief` (without delivery options), by name: ids or titles, a
/// recipe name or file, a mode name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BriefArgs {
    /// Retrieve sections for this query.
    pub query: Option<String>,
    /// Include these ids (or exact titles), after the recipe's selection.
    pub ids: Vec<String>,
    /// A saved recipe: a name in the store or a JSON file path.
    pub recipe: Option<String>,
    /// `auto`, `answer`, `extract`, `locate` or `summarize`.
    pub mode: String,
    /// Output format; `None`: the recipe's (its `format`, as the TUI saved it), else md.
    pub format: Option<BriefFormat>,
    /// Retrieved sections at most; `None`: 8, or, with a token budget (given or the
    /// recipe's), ranked sections until the budget is full.
    pub top_k: Option<usize>,
    /// Token budget of the whole brief (`--max-tokens`, the MCP `max_tokens`).
    pub budget: Option<u64>,
    /// Character budget (lazytools format; 10000 there by default).
    pub max_chars: Option<usize>,
    /// lazytools answer mode without the full excerpts.
    pub no_quotes: bool,
}

impl Default for BriefArgs {
    fn default() -> Self {
        Self {
            query: None,
            ids: Vec::new(),
            recipe: None,
            mode: "auto".into(),
            format: None,
            top_k: None,
            budget: None,
            max_chars: None,
            no_quotes: false,
        }
    }
}

/// A brief's text and size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BriefOut {
    /// The brief.
    pub text: String,
    /// `text.len()`.
    pub bytes: usize,
    /// Tokens of `text`.
    pub tokens: u64,
    /// Ids left out over the budget (the brief names them too).
    pub left_out: Vec<String>,
}

/// A resolved brief request.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The core's request.
    pub request: Request,
    /// The recipe's changed/missing ids (`changed since the recipe was saved: <id>`, …),
    /// prefixed by nothing: callers name the recipe.
    pub warnings: Vec<String>,
    /// The recipe's name, when one was used.
    pub recipe_name: Option<String>,
}

/// Whether `r` names a file rather than a stored recipe: it exists as a file, contains a
/// path separator, or ends in `.json`.
pub fn is_file_ref(r: &str) -> bool {
    Path::new(r).is_file()
        || r.contains('/')
        || r.contains(std::path::MAIN_SEPARATOR)
        || r.ends_with(".json")
}

/// Read recipe `r`: a file ([`is_file_ref`]) or a name in `store`.
pub fn resolve_recipe(r: &str, store: Option<&Store>) -> AgentResult<Recipe> {
    let got = if is_file_ref(r) {
        Recipe::read(Path::new(r))
    } else {
        match store {
            Some(s) if !s.list().iter().any(|n| n == r) => return err(no_such_recipe(r, s)),
            Some(s) => s.load(r),
            None => return err("no user data directory on this system; use a recipe FILE path"),
        }
    };
    got.map_err(|e| AgentError(e.to_string()))
}

/// The error for a recipe name `store` does not hold: the names it does hold, or how to
/// save one.
fn no_such_recipe(r: &str, store: &Store) -> String {
    let names = store.list();
    if names.is_empty() {
        format!(
            "no recipe named {r:?}: none is saved (save one from the TUI, or pass a recipe FILE path)"
        )
    } else {
        format!("no recipe named {r:?}; saved recipes: {}", names.join(", "))
    }
}

/// Resolve `a` against `corpus`. Levels: the recipe's (on top of the corpus's own), else the
/// corpus's own; `overlay` (a server's levels) is set on top of either. Errors, with the
/// CLI's messages: an empty or whitespace-only query
/// ([`super::limits::check_query_has_words`], as the MCP tools), an unknown id, an unknown
/// mode, an unreadable recipe, the lazytools format without a query or a bundle, and
/// nothing to brief ([`Request::check`]).
pub fn prepare(
    corpus: &Corpus,
    a: &BriefArgs,
    store: Option<&Store>,
    overlay: Option<&ExposureMap>,
) -> AgentResult<Prepared> {
    if let Some(q) = &a.query {
        super::limits::check_query_has_words(q)?;
    }
    if a.format == Some(BriefFormat::Lazytools) {
        return prepare_lazytools(corpus, a);
    }
    let mut base_levels = ExposureMap::from_corpus(corpus);
    set_levels(&mut base_levels, overlay);
    let recipe = match &a.recipe {
        Some(r) => Some(resolve_recipe(r, store)?),
        None => None,
    };
    let (sel, exposure, warnings) = selection(corpus, a, recipe.as_ref(), base_levels, overlay)?;
    let budget = a.budget.or(recipe.as_ref().and_then(|r| r.max_tokens));
    let request = Request {
        units: crate::curate::units::selection_units(corpus, &sel, &exposure),
        query: a
            .query
            .clone()
            .or_else(|| recipe.as_ref().and_then(|r| r.query.clone())),
        top_k: a.top_k.unwrap_or(Request::default_top_k(budget)),
        mode: brief_mode(recipe.as_ref(), &a.mode)?,
        format: a
            .format
            .or_else(|| {
                let r = recipe.as_ref()?;
                BriefFormat::parse_layout(r.format.as_deref()?)
            })
            .unwrap_or_default(),
        budget,
        exposure,
        from_recipe: recipe.is_some(),
        ..Request::new(&[], None)
    };
    checked(corpus, &request)?;
    Ok(Prepared {
        request,
        warnings,
        recipe_name: recipe.map(|r| r.name),
    })
}

/// [`Request::check`], with the way out a caller of [`prepare`] has.
fn checked(corpus: &Corpus, request: &Request) -> AgentResult<()> {
    request.check(corpus).map_err(|nothing| {
        let way_out = match nothing {
            NothingToBrief::NoSections => "pass a query or ids (or a recipe with a selection)",
            NothingToBrief::AllHidden(_) => {
                "pass a query, or ids that are not hidden (a recipe's or the server's exposure levels hide them)"
            }
        };
        AgentError(format!("{nothing}; {way_out}"))
    })
}

/// Set the levels of `overlay` (a server's), if any, on top of `levels`.
fn set_levels(levels: &mut ExposureMap, overlay: Option<&ExposureMap>) {
    if let Some(o) = overlay {
        for (id, level) in o.entries() {
            levels.set(id, Some(level));
        }
    }
}

/// The lazytools format: the query run over the bundles by lazytools' own rules (a query,
/// a bundle and a known mode needed).
fn prepare_lazytools(corpus: &Corpus, a: &BriefArgs) -> AgentResult<Prepared> {
    let Some(task) = &a.query else {
        return err("--format lazytools needs --query");
    };
    if corpus.bundles.is_empty() {
        return err(
            "--format lazytools needs a lazytools bundle (manifest.json + vocab.json + chunks.jsonl)",
        );
    }
    let Some(mode) = Mode::parse(&a.mode) else {
        return err(format!(
            "unknown --mode {:?} (auto, answer, extract, locate, summarize)",
            a.mode
        ));
    };
    let request = Request {
        top_k: a.top_k.unwrap_or(brief::request::DEFAULT_TOP_K),
        mode,
        format: BriefFormat::Lazytools,
        max_chars: a.max_chars,
        quotes: !a.no_quotes,
        ..Request::new(&[], Some(task))
    };
    Ok(Prepared {
        request,
        warnings: Vec::new(),
        recipe_name: None,
    })
}

/// The selection and levels to brief: the recipe's (its levels under `overlay`'s, its
/// warnings) or none and `base_levels`, then the ids of `a` selected too (an unknown one
/// is an error).
fn selection(
    corpus: &Corpus,
    a: &BriefArgs,
    recipe: Option<&Recipe>,
    base_levels: ExposureMap,
    overlay: Option<&ExposureMap>,
) -> AgentResult<(Selection, ExposureMap, Vec<String>)> {
    let mut warnings = Vec::new();
    let (mut sel, exposure) = match recipe {
        Some(r) => {
            let applied = r.apply(corpus);
            warnings = applied.warnings();
            let mut levels = applied.exposure;
            set_levels(&mut levels, overlay);
            (applied.selection, levels)
        }
        None => (Selection::new(), base_levels),
    };
    for key in &a.ids {
        let Some(id) = super::lookup::resolve(corpus, key) else {
            return err(format!("no node with id or title {key:?}"));
        };
        sel.select(corpus, id);
    }
    Ok((sel, exposure, warnings))
}

/// The brief mode: `mode` (`--mode`), or a recipe's own when `mode` is `auto`.
fn brief_mode(recipe: Option<&Recipe>, mode: &str) -> AgentResult<Mode> {
    let mode_name = match (recipe, mode) {
        (Some(r), "auto") => r.mode.clone().unwrap_or_else(|| "auto".into()),
        (_, m) => m.to_string(),
    };
    let Some(mode) = Mode::parse(&mode_name) else {
        return err(format!(
            "unknown --mode {mode_name:?} (auto, answer, extract, locate, summarize)"
        ));
    };
    Ok(mode)
}

impl Prepared {
    /// Whether [`Prepared::build`] needs the BM25 index ([`Request::needs_index`]).
    pub fn needs_index(&self) -> bool {
        self.request.needs_index()
    }

    /// The token budget the brief will be packed under.
    pub fn budget(&self) -> Option<u64> {
        self.request.budget
    }

    /// Lower the token budget to `cap` (a server's result cap; the lazytools format has
    /// none).
    pub fn cap_budget(&mut self, cap: u64) {
        if self.request.format != BriefFormat::Lazytools {
            self.request.budget = Some(self.request.budget.map_or(cap, |m| m.min(cap)));
        }
    }

    /// Build the brief with [`crate::brief::build`]. `index` is needed when
    /// [`Prepared::needs_index`].
    pub fn build(&self, corpus: &Corpus, index: Option<&Index>, counter: TokenCounter) -> BriefOut {
        let b = brief::build(corpus, index, &self.request, counter);
        BriefOut {
            bytes: b.bytes,
            tokens: b.tokens,
            left_out: b.left_out,
            text: b.text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing::one_file_root;

    #[test]
    fn an_unknown_recipe_name_lists_the_saved_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path());
        let none = resolve_recipe("r1", Some(&store)).unwrap_err();
        assert!(
            none.0.starts_with("no recipe named \"r1\": none is saved"),
            "{}",
            none.0
        );
        std::fs::write(tmp.path().join("kept.json"), "{}").unwrap();
        let some = resolve_recipe("r1", Some(&store)).unwrap_err();
        assert_eq!(some.0, "no recipe named \"r1\"; saved recipes: kept");
    }

    #[test]
    fn an_empty_or_blank_query_is_refused_as_by_the_mcp_tools() {
        let corpus = one_file_root("docs", "# Routing\n\nRoutes map paths to handlers.\n");
        for q in ["", "   ", "\t\n"] {
            for format in [BriefFormat::Md, BriefFormat::Lazytools] {
                let a = BriefArgs {
                    query: Some(q.to_string()),
                    format: Some(format),
                    ..BriefArgs::default()
                };
                let got = prepare(&corpus, &a, None, None).map(|_| ());
                assert_eq!(
                    got,
                    crate::agent::limits::check_query(q),
                    "{q:?} {format:?}"
                );
                assert_eq!(
                    got,
                    err("query is empty: pass a few words to search for"),
                    "{q:?} {format:?}"
                );
            }
        }
        // With ids too: a blank query is still an error, not "no query".
        let a = BriefArgs {
            query: Some(" ".into()),
            ids: vec!["docs/a.md#routing".into()],
            ..BriefArgs::default()
        };
        assert!(prepare(&corpus, &a, None, None).is_err());
        let a = BriefArgs {
            query: Some("routing".into()),
            ..BriefArgs::default()
        };
        assert!(prepare(&corpus, &a, None, None).is_ok());
    }
}
