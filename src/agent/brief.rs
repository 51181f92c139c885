//! The brief request with `skillnav brief`'s arguments (lazytools' `query_skill`
//! parameters): [`prepare`] resolves the recipe, the ids, the query, the mode and the
//! levels once, and [`Prepared::build`] runs the one pipeline, [`crate::brief::build`].
//! The CLI and the MCP `brief` tool both go through here, so the same arguments give the
//! same bytes.

use std::path::Path;

use crate::brief::lazytools::{QuerySkillOptions, query_skill};
use crate::brief::{self, BriefRequest, Mode};
use crate::curate::exposure::ExposureMap;
use crate::curate::recipe::{Recipe, Store};
use crate::index::Index;
use crate::model::{Corpus, NodeId, Selection};
use crate::tokens::TokenCounter;

use super::error::{AgentError, AgentResult, err};

/// Retrieved sections of a query brief without `top_k` and without a token budget.
const DEFAULT_TOP_K: usize = 8;

/// Output formats of a brief.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Markdown.
    #[default]
    Md,
    /// Claude-style XML.
    Xml,
    /// JSON.
    Json,
    /// lazytools' `query_skill` text (bundles only; needs a query).
    Lazytools,
}

impl Format {
    /// `md`, `xml`, `json` or `lazytools` (any case).
    pub fn parse(s: &str) -> Option<Format> {
        match s.trim().to_ascii_lowercase().as_str() {
            "md" | "markdown" => Some(Format::Md),
            "xml" => Some(Format::Xml),
            "json" => Some(Format::Json),
            "lazytools" => Some(Format::Lazytools),
            _ => None,
        }
    }
}

/// The arguments of `skillnav brief` (without delivery options).
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
    /// Output format.
    pub format: Format,
    /// Retrieved sections at most; `None`: 8, or, with a token budget (given or the
    /// recipe's), ranked sections until the budget is full.
    pub top_k: Option<usize>,
    /// Token budget of the whole brief.
    pub max_tokens: Option<u64>,
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
            format: Format::Md,
            top_k: None,
            max_tokens: None,
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
    /// What to build.
    what: What,
    /// The recipe's changed/missing ids (`changed since the recipe was saved: <id>`, …),
    /// prefixed by nothing: callers name the recipe.
    pub warnings: Vec<String>,
    /// The recipe's name, when one was used.
    pub recipe_name: Option<String>,
}

#[derive(Clone, Debug)]
enum What {
    Lazytools {
        task: String,
        opts: QuerySkillOptions,
    },
    Brief {
        units: Vec<NodeId>,
        query: Option<String>,
        top_k: usize,
        mode: Mode,
        format: brief::BriefFormat,
        max_tokens: Option<u64>,
        exposure: ExposureMap,
        from_recipe: bool,
    },
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
            Some(s) => s.load(r),
            None => return err("no user data directory on this system; use a recipe FILE path"),
        }
    };
    got.map_err(|e| AgentError(e.to_string()))
}

/// Resolve `a` against `corpus`. Levels: the recipe's (on top of the corpus's own), else the
/// corpus's own; `overlay` (a server's levels) is set on top of either. Errors, with the
/// CLI's messages: an empty or whitespace-only query
/// ([`super::limits::check_query_has_words`], as the MCP tools), nothing to brief, an
/// unknown id, an unknown mode, an unreadable recipe, the lazytools format without a query
/// or a bundle.
pub fn prepare(
    corpus: &Corpus,
    a: &BriefArgs,
    store: Option<&Store>,
    overlay: Option<&ExposureMap>,
) -> AgentResult<Prepared> {
    if let Some(q) = &a.query {
        super::limits::check_query_has_words(q)?;
    }
    let mut base_levels = ExposureMap::from_corpus(corpus);
    set_levels(&mut base_levels, overlay);
    let plain_args = a.recipe.is_none() && base_levels.is_empty();
    if a.query.is_none() && a.ids.is_empty() && (plain_args || a.format == Format::Lazytools) {
        return err("brief needs --query Q or --select ID");
    }
    if a.format == Format::Lazytools {
        return prepare_lazytools(corpus, a);
    }
    let recipe = match &a.recipe {
        Some(r) => Some(resolve_recipe(r, store)?),
        None => None,
    };
    let (sel, exposure, warnings) = selection(corpus, a, recipe.as_ref(), base_levels, overlay)?;
    let query = a
        .query
        .clone()
        .or_else(|| recipe.as_ref().and_then(|r| r.query.clone()));
    if query.is_none() && sel.is_empty() && exposure.always_units(corpus).is_empty() {
        return err("brief needs --query Q, --select ID or a --recipe with a selection");
    }
    let mode = brief_mode(recipe.as_ref(), &a.mode)?;
    let format = match a.format {
        Format::Xml => brief::BriefFormat::Xml,
        Format::Json => brief::BriefFormat::Json,
        _ => brief::BriefFormat::Md,
    };
    let max_tokens = a.max_tokens.or(recipe.as_ref().and_then(|r| r.max_tokens));
    let fill = if max_tokens.is_some() {
        brief::select::UNTIL_FULL
    } else {
        DEFAULT_TOP_K
    };
    Ok(Prepared {
        what: What::Brief {
            units: crate::curate::units::selection_units(corpus, &sel, &exposure),
            query,
            top_k: a.top_k.unwrap_or(fill),
            mode,
            format,
            max_tokens,
            exposure,
            from_recipe: recipe.is_some(),
        },
        warnings,
        recipe_name: recipe.map(|r| r.name),
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
    let defaults = QuerySkillOptions::default();
    let opts = QuerySkillOptions {
        mode,
        top_k: a.top_k.unwrap_or(DEFAULT_TOP_K),
        max_chars: a.max_chars.unwrap_or(defaults.max_chars),
        include_quotes: !a.no_quotes,
    };
    Ok(Prepared {
        what: What::Lazytools {
            task: task.clone(),
            opts,
        },
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
    /// Whether [`Prepared::build`] needs the BM25 index (the request has a query).
    pub fn needs_index(&self) -> bool {
        matches!(&self.what, What::Brief { query: Some(_), .. })
    }

    /// The token budget the brief will be packed under.
    pub fn max_tokens(&self) -> Option<u64> {
        match &self.what {
            What::Brief { max_tokens, .. } => *max_tokens,
            What::Lazytools { .. } => None,
        }
    }

    /// Lower the token budget to `cap` (a server's result cap).
    pub fn cap_tokens(&mut self, cap: u64) {
        if let What::Brief { max_tokens, .. } = &mut self.what {
            *max_tokens = Some(max_tokens.map_or(cap, |m| m.min(cap)));
        }
    }

    /// Build the brief with [`crate::brief::build`] (or lazytools' `query_skill` on the first
    /// bundle). `index` is needed when [`Prepared::needs_index`].
    pub fn build(&self, corpus: &Corpus, index: Option<&Index>, counter: TokenCounter) -> BriefOut {
        match &self.what {
            What::Lazytools { task, opts } => {
                let text = match corpus.bundles.first() {
                    Some((_, stats)) => query_skill(stats, task, opts),
                    None => String::new(),
                };
                let tokens = counter.count(&text);
                BriefOut {
                    bytes: text.len(),
                    text,
                    tokens,
                    left_out: Vec::new(),
                }
            }
            What::Brief {
                units,
                query,
                top_k,
                mode,
                format,
                max_tokens,
                exposure,
                from_recipe,
            } => {
                let req = BriefRequest {
                    selected: units,
                    query: query.as_deref(),
                    top_k: *top_k,
                    mode: *mode,
                    format: *format,
                    max_tokens: *max_tokens,
                    exposure: Some(exposure),
                    from_recipe: *from_recipe,
                };
                let b = brief::build(corpus, index, &req, counter);
                BriefOut {
                    bytes: b.bytes,
                    tokens: b.tokens,
                    left_out: b.left_out,
                    text: b.text,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing::one_file_root;

    #[test]
    fn an_empty_or_blank_query_is_refused_as_by_the_mcp_tools() {
        let corpus = one_file_root("docs", "# Routing\n\nRoutes map paths to handlers.\n");
        for q in ["", "   ", "\t\n"] {
            for format in [Format::Md, Format::Lazytools] {
                let a = BriefArgs {
                    query: Some(q.to_string()),
                    format,
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
