//! A loaded [`Workspace`]: the roots an agent server keeps in memory (corpus, BM25 and fuzzy
//! indexes, exposure levels, token counts) and how it is reloaded when files change.

use std::path::PathBuf;

use crate::curate::exposure::ExposureMap;
use crate::curate::recipe::{Recipe, Store};
use crate::formats::{self, LoadOptions, RootSpec};
use crate::index::{FuzzyIndex, Index, SemanticIndex};
use crate::model::{Corpus, NodeId};
use crate::tokens::{TokenCounter, TokenTable};

use super::limits::Limits;

/// What a workspace opens: the roots and options of the command line.
#[derive(Clone, Debug)]
pub struct WorkspaceConfig {
    /// The roots, as `formats::root_specs` or `discover_roots` give them.
    pub specs: Vec<RootSpec>,
    /// Loader options (`--first-wins`, `--follow-links`, `--namespace`).
    pub load: LoadOptions,
    /// Token counter (one encoding) of every size.
    pub counter: TokenCounter,
    /// A recipe whose exposure levels apply on top of the corpus's own (`meta.exposure`).
    pub recipe: Option<Recipe>,
    /// Where saved recipes live (served as prompts, resolved by name in `brief`).
    pub recipes_dir: Option<PathBuf>,
    /// Result size caps.
    pub limits: Limits,
}

impl WorkspaceConfig {
    /// Absolute folders of the roots (what a file watcher watches), known before a load.
    pub fn watched_paths(&self) -> Vec<PathBuf> {
        self.specs
            .iter()
            .map(|s| std::fs::canonicalize(&s.path).unwrap_or_else(|_| s.path.clone()))
            .collect()
    }
}

/// The corpus of `specs`, loaded the way every subcommand loads it: each root with
/// `formats::load_root`, then [`finish_corpus`].
pub fn load_corpus(specs: &[RootSpec], opts: &LoadOptions) -> Corpus {
    let mut corpus = Corpus::new();
    for spec in specs {
        corpus.append(formats::load_root(spec, opts, &mut |_| {}));
    }
    finish_corpus(&mut corpus, opts);
    corpus
}

/// What follows the roots' loads, the same in every front end (the TUI calls it once its
/// roots are in): namespaced skill names when asked, scopes resolved, lints attached as
/// warnings. A persisted index holds the corpus after this step.
pub fn finish_corpus(corpus: &mut Corpus, opts: &LoadOptions) {
    // Namespaced names (`project:pdf`) no longer collide, so nothing is shadowed then.
    if opts.namespace {
        formats::namespace_skills(corpus);
    }
    formats::resolve_scopes_for(corpus, opts.effective_precedence(), opts.agent.is_some());
    crate::skill::lints::mark(corpus);
}

/// The persisted-index request for `specs` loaded with `opts` (docs/DESIGN.md §8
/// "Persisted index"): the same for every front end, so `skillnav search`, the MCP server
/// and the TUI share one file per set of roots.
pub fn index_request(specs: &[RootSpec], opts: &LoadOptions) -> crate::store::Request {
    let roots: Vec<(PathBuf, String)> = specs
        .iter()
        .map(|s| (s.path.clone(), s.label.clone()))
        .collect();
    crate::store::Request::new(&roots, &format!("{opts:?}"), crate::store::dir())
}

/// The corpus of `config`'s roots with its BM25 and fuzzy indexes, through the persisted
/// index when [`crate::store::enable_disk`] was called (docs/DESIGN.md §8 "Persisted
/// index"): unchanged files are not read again, and the new state is written before the
/// workspace is returned. Its warnings go to stderr.
fn load_indexed(config: &WorkspaceConfig) -> (Corpus, Index, FuzzyIndex) {
    let req = index_request(&config.specs, &config.load);
    let mut indexed = crate::store::open(&req, || load_corpus(&config.specs, &config.load));
    let saved = indexed.save_and_let_texts_go();
    for w in indexed.warnings.iter().chain(&saved) {
        eprintln!("skillnav: {}", crate::util::sanitize::sanitize_line(w));
    }
    (indexed.corpus, indexed.index, indexed.fuzzy)
}

/// The loaded roots with everything a request needs. Built synchronously by
/// [`Workspace::open`]; token counts may be added later ([`Workspace::set_tokens`]) because
/// counting a large corpus takes longer than the first answer may.
#[derive(Debug)]
pub struct Workspace {
    /// What was opened.
    pub config: WorkspaceConfig,
    /// The nodes and texts.
    pub corpus: Corpus,
    /// BM25 over the text units.
    pub index: Index,
    /// Fuzzy titles.
    pub fuzzy: FuzzyIndex,
    /// Effective levels: the corpus's own, then the recipe's.
    pub exposure: ExposureMap,
    /// Counts of every node, once counted (set once, from any thread).
    tokens: std::sync::OnceLock<TokenTable>,
    /// Bumped on every reload; a continuation cursor names the generation it was made in.
    pub generation: u64,
    /// Recipe ids that were not found or changed when its levels were applied.
    pub warnings: Vec<String>,
}

impl Workspace {
    /// Load the roots of `config`, build both indexes and apply the exposure levels.
    pub fn open(config: WorkspaceConfig) -> Self {
        Self::open_reusing(config, None)
    }

    /// [`Workspace::open`]; with the `[search] semantic` setting `on`, the index gets its
    /// static semantic vectors, reusing the rows of `previous` whose text is unchanged; unless
    /// it is `off`, the installed re-rank model is attached (docs/DESIGN.md §3 "Re-rank").
    fn open_reusing(config: WorkspaceConfig, previous: Option<&SemanticIndex>) -> Self {
        let (corpus, index, fuzzy) = load_indexed(&config);
        let search = crate::config::load().0.search;
        if search.semantic.table() {
            index.embed(&corpus, previous);
        }
        let tier = crate::rerank::tier(&search, search.semantic);
        if let crate::rerank::Tier::Broken(_) = &tier
            && let Some(note) = tier.notice()
        {
            eprintln!("skillnav: {note}");
        }
        if let Some(r) = tier.ready() {
            index.attach_reranker(r);
        }
        Self::with_fuzzy(config, corpus, index, fuzzy)
    }

    /// A workspace over `corpus` with `index` already built on it (the caller chose its
    /// semantic and re-rank signals): fuzzy titles built, the exposure levels of the corpus
    /// (and of `config.recipe`) applied, generation 0, no token counts yet. A reload opens
    /// `config.specs` again.
    pub fn from_parts(config: WorkspaceConfig, corpus: Corpus, index: Index) -> Self {
        let fuzzy = FuzzyIndex::build(&corpus);
        Self::with_fuzzy(config, corpus, index, fuzzy)
    }

    /// [`Workspace::from_parts`] with the fuzzy index already built.
    fn with_fuzzy(
        config: WorkspaceConfig,
        corpus: Corpus,
        index: Index,
        fuzzy: FuzzyIndex,
    ) -> Self {
        let (exposure, warnings) = match &config.recipe {
            Some(r) => {
                let applied = r.apply(&corpus);
                let w = applied.warnings();
                (applied.exposure, w)
            }
            None => (ExposureMap::from_corpus(&corpus), Vec::new()),
        };
        Self {
            config,
            corpus,
            index,
            fuzzy,
            exposure,
            tokens: std::sync::OnceLock::new(),
            generation: 0,
            warnings,
        }
    }

    /// Load everything again from disk (same roots and options) into a new workspace one
    /// generation up, without token counts until [`Workspace::set_tokens`] gives them.
    pub fn reopen(&self) -> Workspace {
        let previous = self.index.semantic().map(|s| &**s);
        let mut ws = Self::open_reusing(self.config.clone(), previous);
        ws.generation = self.generation + 1;
        ws
    }

    /// The token counter of every size.
    pub fn counter(&self) -> TokenCounter {
        self.config.counter
    }

    /// The result size caps.
    pub fn limits(&self) -> Limits {
        self.config.limits
    }

    /// The recipe store of this workspace, if it has one.
    pub fn store(&self) -> Option<Store> {
        self.config.recipes_dir.clone().map(Store::new)
    }

    /// Count every node now (on all cores, through the count cache); pass the table to [`Workspace::set_tokens`].
    pub fn count_tokens(&self) -> TokenTable {
        let table = TokenTable::count_all(&self.corpus, self.counter());
        // Persist the new counts now: a server runs long (docs/DESIGN.md §4).
        crate::tokens::cache::flush();
        table
    }

    /// Use `table` (from [`Workspace::count_tokens`] on this workspace) for sizes from now
    /// on; a second table is ignored.
    pub fn set_tokens(&self, table: TokenTable) {
        let _ = self.tokens.set(table);
    }

    /// Tokens of `id` as `tree --json` gives them (own text plus non-copy descendants):
    /// from the table when counted, else counted now for this subtree.
    pub fn tokens_of(&self, id: NodeId) -> u64 {
        match self.tokens.get().and_then(|t| t.total(id)) {
            Some(n) => n,
            None => crate::tokens::subtree_total(&self.corpus, self.counter(), id),
        }
    }

    /// The full table: the counted one, or a fresh count of everything.
    pub fn table(&self) -> std::borrow::Cow<'_, TokenTable> {
        match self.tokens.get() {
            Some(t) => std::borrow::Cow::Borrowed(t),
            None => std::borrow::Cow::Owned(self.count_tokens()),
        }
    }

    /// Whether a file behind any of `ids` changed on disk since it was loaded (size or
    /// modification time differ, the bytes of one written in the last seconds differ, or it
    /// is gone: [`crate::model::Source::unchanged_on_disk`]), so serving its text now would
    /// be stale.
    pub fn changed_on_disk(&self, ids: &[NodeId]) -> bool {
        let mut seen = std::collections::HashSet::new();
        ids.iter()
            .filter(|id| id.ix() < self.corpus.len())
            .any(|id| {
                let Some(span) = self.corpus.node(*id).span else {
                    return false;
                };
                if !seen.insert(span.source.0) {
                    return false;
                }
                let src = &self.corpus.sources[span.source.0 as usize];
                let Some(path) = &src.abs_path else {
                    return false;
                };
                !src.unchanged_on_disk(path)
            })
    }

    /// Absolute folders of the opened roots (what a file watcher watches).
    pub fn watched_paths(&self) -> Vec<PathBuf> {
        self.config.watched_paths()
    }
}
