//! Token counting: `OpenAI`'s `o200k_base` (default) or `cl100k_base` with GitHub's `bpe`
//! counter (the same counts as tiktoken, pinned by a test over real files), or
//! the `bytes/4` estimate, and the [`TokenTable`] that holds per-node counts for one encoding.
//!
//! There is no public Claude or Gemini tokenizer, so every count is labelled with the
//! encoding that produced it. The BPE tables are embedded (offline): count-only tables built
//! from `bpe-openai`'s dictionary (`tables`) over tiktoken's pre-tokenizer (`pretokenize`),
//! loaded on first use or ahead of it, held process-wide and freed on request (`resident`);
//! a batch that comes while they load splits its texts meanwhile (`staged`). Counts of node
//! texts go through the count cache ([`cache`], docs/DESIGN.md §4).

pub mod cache;
mod pretokenize;
mod resident;
mod staged;
mod tables;

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::model::{Corpus, NodeId, SourceId};

/// A token encoding.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Encoding {
    /// `OpenAI` `o200k_base` (GPT-4o and later): the default.
    #[default]
    O200kBase,
    /// `OpenAI` `cl100k_base` (GPT-4, GPT-3.5).
    Cl100kBase,
    /// `ceil(bytes / 4)`: a quick estimate, not a tokenizer.
    Bytes4,
}

impl Encoding {
    /// Name as used on the command line, in JSON and in the UI.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::O200kBase => "o200k_base",
            Self::Cl100kBase => "cl100k_base",
            Self::Bytes4 => "bytes4",
        }
    }

    /// Short label for the status bar (`o200k`, `cl100k`, `bytes/4`).
    pub fn short(self) -> &'static str {
        match self {
            Self::O200kBase => "o200k",
            Self::Cl100kBase => "cl100k",
            Self::Bytes4 => "bytes/4",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "o200k_base" | "o200k" => Ok(Self::O200kBase),
            "cl100k_base" | "cl100k" => Ok(Self::Cl100kBase),
            "bytes4" | "bytes/4" => Ok(Self::Bytes4),
            _ => Err(format!(
                "unknown encoding {s:?} (expected o200k_base, cl100k_base or bytes4)"
            )),
        }
    }
}

/// Counts tokens of text in one [`Encoding`]. Cheap to copy: the BPE tables are process-wide,
/// loaded on the first count that needs them (or ahead of it by
/// [`TokenCounter::prefetch`]) and freed by [`TokenCounter::release`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenCounter {
    encoding: Encoding,
}

impl TokenCounter {
    /// A counter for `encoding`.
    pub fn new(encoding: Encoding) -> Self {
        Self { encoding }
    }

    /// The encoding.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Load the BPE tables now (call from a worker so the UI thread never waits for it).
    pub fn warm_up(&self) {
        drop(resident::get(self.encoding));
    }

    /// Start loading the BPE tables on a background thread, so the load overlaps work that
    /// comes before the first count (walking and parsing a tree). No-op for `bytes4` or when
    /// loaded.
    pub fn prefetch(&self) {
        resident::prefetch(self.encoding);
    }

    /// [`TokenCounter::prefetch`] unless the count cache is persisted and already holds counts
    /// in this encoding: then most texts are probably cached, and the tables load only if a
    /// text misses ([`count_nodes`] looks the cache up first).
    pub fn prefetch_if_cold(&self) {
        if !cache::has_counts(self.encoding) {
            self.prefetch();
        }
    }

    /// Free the BPE tables of this encoding once the counts under way finish (about 30 MB for
    /// `o200k_base`); a later count loads them again.
    pub fn release(&self) {
        resident::release(self.encoding);
    }

    /// Number of tokens in `text` (ordinary encoding: special-token text counts as text).
    pub fn count(&self, text: &str) -> u64 {
        if text.is_empty() {
            return 0;
        }
        match self.encoding {
            Encoding::Bytes4 => (text.len() as u64).div_ceil(4),
            bpe => match resident::get(bpe) {
                Some(t) => t.count(text),
                None => fallback_count(bpe, text),
            },
        }
    }
}

/// The `bytes/4` estimate, for when the embedded tables do not load: never expected (a unit
/// test loads both; it would be a broken build), so the first use says so on stderr once.
fn fallback_count(encoding: Encoding, text: &str) -> u64 {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        eprintln!(
            "skillnav: the embedded {encoding} tables did not load (a broken build); \
             token counts are bytes/4 estimates"
        );
    });
    (text.len() as u64).div_ceil(4)
}

/// Tokens of each of `texts` in `counter`'s encoding, in order, on all cores (no count cache:
/// [`count_nodes`] is the cached path). The same numbers as [`TokenCounter::count`] of each.
pub fn count_batch(counter: TokenCounter, texts: &[&str]) -> Vec<u64> {
    match counter.encoding() {
        Encoding::Bytes4 => texts.iter().map(|t| counter.count(t)).collect(),
        bpe => count_texts(bpe, texts),
    }
}

/// Tokens of each of `texts` in `encoding` (a BPE encoding), on all cores: longest texts
/// first, each worker with its own search cache and piece memo.
fn count_texts(encoding: Encoding, texts: &[&str]) -> Vec<u64> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_unstable_by_key(|i| std::cmp::Reverse(texts[*i].len()));
    let counted = count_in_order(encoding, texts, &order);
    let mut out = vec![0; texts.len()];
    for (i, n) in order.into_iter().zip(counted) {
        out[i] = n;
    }
    out
}

/// Tokens of `texts[order[0]]`, `texts[order[1]]`, … in that order. When the tables are not
/// loaded yet, this thread splits texts into pieces while they load (`staged`) and the
/// distinct pieces are counted once they are; the rest is counted as usual.
fn count_in_order(encoding: Encoding, texts: &[&str], order: &[usize]) -> Vec<u64> {
    let fallback = || parallel(order, || (), |(), i| fallback_count(encoding, texts[*i]));
    match resident::now(encoding) {
        resident::Now::Ready(t) => return count_with(&t, texts, order),
        resident::Now::Failed => return fallback(),
        resident::Now::NotYet => resident::prefetch(encoding),
    }
    let staged = resident::pre(encoding).map(|pre| {
        staged::Staged::split_while(&pre, texts, order, staged::Limits::DEFAULT, || {
            matches!(resident::now(encoding), resident::Now::NotYet)
        })
    });
    let Some(t) = resident::get(encoding) else {
        return fallback();
    };
    match staged {
        Some(staged) => count_staged(&t, &staged, texts, order),
        None => count_with(&t, texts, order),
    }
}

/// [`count_with`] for an order whose first texts `staged` has split: its distinct pieces
/// are counted on all cores and summed per text, the texts after them counted as usual.
fn count_staged(
    tables: &tables::Tables,
    staged: &staged::Staged<'_>,
    texts: &[&str],
    order: &[usize],
) -> Vec<u64> {
    let piece_counts = parallel(staged.pieces(), || (), |(), p| tables.piece(p));
    let mut out = staged.sums(&piece_counts);
    out.extend(count_with(
        tables,
        texts,
        order.get(staged.done()..).unwrap_or_default(),
    ));
    out
}

/// Tokens of `texts[order[0]]`, … in that order with loaded `tables`, on all cores.
fn count_with(tables: &tables::Tables, texts: &[&str], order: &[usize]) -> Vec<u64> {
    parallel(
        order,
        || tables.session(),
        |s, i| tables.count_in(s, texts[*i]),
    )
}

/// Per-node token counts for one encoding: `own` counts of each node's own text and
/// `total` sums (own + non-`duplicate`/`alias` children; containers are Σ of parts).
#[derive(Clone, Debug, Default)]
pub struct TokenTable {
    /// The encoding of every count in this table.
    pub encoding: Encoding,
    own: Counts,
    total: Counts,
}

/// One count per node, `None` (uncounted) stored as `u64::MAX`: 8 bytes a node instead of
/// the 16 of an `Option<u64>` (no text has that many tokens).
#[derive(Clone, Debug, Default)]
struct Counts(Vec<u64>);

impl Counts {
    const NONE: u64 = u64::MAX;

    fn uncounted(len: usize) -> Self {
        Self(vec![Self::NONE; len])
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn get(&self, i: usize) -> Option<u64> {
        self.0.get(i).copied().filter(|n| *n != Self::NONE)
    }
    fn set(&mut self, i: usize, n: Option<u64>) {
        if let Some(slot) = self.0.get_mut(i) {
            *slot = n.map_or(Self::NONE, |n| n.min(Self::NONE - 1));
        }
    }
    fn resize(&mut self, len: usize) {
        self.0.resize(len, Self::NONE);
    }
}

impl TokenTable {
    /// Σ tokens of `units` (e.g. `Selection::units`), and whether every unit was counted
    /// (`false` while counting is still under way for some of them).
    pub fn sum_units(&self, units: &[crate::model::NodeId]) -> (u64, bool) {
        let mut sum = 0;
        let mut complete = true;
        for u in units {
            match self.total(*u) {
                Some(t) => sum += t,
                None => complete = false,
            }
        }
        (sum, complete)
    }

    /// An empty table (nothing counted) sized for `corpus`.
    pub fn empty(encoding: Encoding, corpus: &Corpus) -> Self {
        Self {
            encoding,
            own: Counts::uncounted(corpus.len()),
            total: Counts::uncounted(corpus.len()),
        }
    }

    /// Count every node of `corpus` now, on all cores (`std::thread::available_parallelism`).
    pub fn count_all(corpus: &Corpus, counter: TokenCounter) -> Self {
        let mut t = Self::empty(counter.encoding(), corpus);
        let ids: Vec<NodeId> = (0..corpus.len() as u32).map(NodeId).collect();
        for (id, n) in count_nodes(corpus, counter, &ids) {
            t.set_own(id, n);
        }
        t.aggregate(corpus);
        t
    }

    /// Total tokens of `id` (Σ for containers), `None` while not yet counted.
    pub fn total(&self, id: NodeId) -> Option<u64> {
        self.total.get(id.ix())
    }

    /// Own-text tokens of `id`.
    pub fn own(&self, id: NodeId) -> Option<u64> {
        self.own.get(id.ix())
    }

    /// Record the own-text count of `id` (call [`TokenTable::aggregate`] afterwards).
    pub fn set_own(&mut self, id: NodeId, n: u64) {
        if id.ix() >= self.own.len() {
            self.own.resize(id.ix() + 1);
            self.total.resize(id.ix() + 1);
        }
        self.own.set(id.ix(), Some(n));
    }

    /// Grow to cover a corpus that gained nodes (after [`Corpus::append`]).
    pub fn resize(&mut self, corpus: &Corpus) {
        self.own.resize(corpus.len());
        self.total.resize(corpus.len());
    }

    /// Recompute totals bottom-up. Nodes without text count 0 of their own; a total is
    /// `None` while any part of it is uncounted. Containers skip `duplicate`/`alias`/`variant`
    /// children, except a container that is itself such a copy (it shows its copies' Σ).
    pub fn aggregate(&mut self, corpus: &Corpus) {
        self.resize(corpus);
        for r in &corpus.roots {
            for n in corpus.preorder(*r).into_iter().rev() {
                let node = corpus.node(n);
                let own = if node.span.is_some() {
                    self.own.get(n.ix())
                } else {
                    Some(0)
                };
                let mut total = own;
                let keep_copies = node.flags.is_copy();
                for c in &node.children {
                    if !keep_copies && corpus.node(*c).flags.is_copy() {
                        continue;
                    }
                    total = match (total, self.total.get(c.ix())) {
                        (Some(a), Some(b)) => Some(a + b),
                        _ => None,
                    };
                }
                self.total.set(n.ix(), total);
            }
        }
    }

    /// How many text-bearing nodes are counted, out of how many.
    pub fn progress(&self, corpus: &Corpus) -> (usize, usize) {
        let mut done = 0;
        let mut all = 0;
        for (i, n) in corpus.nodes.iter().enumerate() {
            if n.span.is_some() {
                all += 1;
                if self.own.get(i).is_some() {
                    done += 1;
                }
            }
        }
        (done, all)
    }
}

/// Total tokens of the subtree at `id` by the rule of [`TokenTable::aggregate`] (own text plus
/// the totals of children that are not copies, unless `id` itself is a copy), counted now
/// for this subtree only: the same number a fully counted table gives for `id`.
pub fn subtree_total(corpus: &Corpus, counter: TokenCounter, id: NodeId) -> u64 {
    let ids = corpus.preorder(id);
    let own: HashMap<NodeId, u64> = count_nodes(corpus, counter, &ids).into_iter().collect();
    fn total(corpus: &Corpus, own: &HashMap<NodeId, u64>, n: NodeId) -> u64 {
        let node = corpus.node(n);
        let keep_copies = node.flags.is_copy();
        let kids: u64 = node
            .children
            .iter()
            .filter(|c| keep_copies || !corpus.node(**c).flags.is_copy())
            .map(|c| total(corpus, own, *c))
            .sum();
        own.get(&n).copied().unwrap_or(0) + kids
    }
    total(corpus, &own, id)
}

/// Count the own text of each node in `ids` (nodes without text are skipped), splitting the
/// work over the available cores (at most 8). Each text is looked up in the count cache by
/// its content hash first ([`cache`]); only the texts missing there are BPE-counted, once per
/// distinct text, and the new counts are added to the cache ([`cache::flush`] persists them).
/// When every text is cached the BPE tables are not loaded. A source whose text is still in
/// a persisted index file ([`crate::model::StoredText`]) is read for its nodes and let go
/// again, so counting a restored corpus does not hold every text. Results come in no
/// particular order.
pub fn count_nodes(corpus: &Corpus, counter: TokenCounter, ids: &[NodeId]) -> Vec<(NodeId, u64)> {
    let mut work: Vec<NodeId> = Vec::new();
    let mut stored: HashMap<SourceId, Vec<NodeId>> = HashMap::new();
    for &id in ids {
        let Some(span) = corpus.node(id).span else {
            continue;
        };
        match corpus.sources.get(span.source.0 as usize) {
            Some(s) if !s.is_held() => stored.entry(span.source).or_default().push(id),
            _ => work.push(id),
        }
    }
    let mut out = count_held(corpus, counter, &work);
    let groups: Vec<(SourceId, Vec<NodeId>)> = stored.into_iter().collect();
    for counted in parallel(&groups, || (), |(), g| count_stored(corpus, counter, g)) {
        out.extend(counted);
    }
    out
}

/// [`count_nodes`] of the nodes of one stored source: its text read once, not held.
fn count_stored(
    corpus: &Corpus,
    counter: TokenCounter,
    (source, ids): &(SourceId, Vec<NodeId>),
) -> Vec<(NodeId, u64)> {
    let text = corpus.sources[source.0 as usize].read_text();
    let slices: Vec<&str> = ids
        .iter()
        .map(|id| {
            corpus.node(*id).span.map_or("", |s| {
                text.get(s.start..s.own_end.min(text.len())).unwrap_or("")
            })
        })
        .collect();
    // One source's sections: keys on this thread (the sources are spread over the cores).
    let keys = || slices.iter().map(|t| cache::key(t)).collect();
    count_texts_cached(counter, ids, &slices, keys)
}

/// [`count_nodes`] of nodes whose texts are held (`work`: nodes with a span).
fn count_held(corpus: &Corpus, counter: TokenCounter, work: &[NodeId]) -> Vec<(NodeId, u64)> {
    let texts: Vec<&str> = work.iter().map(|i| corpus.own_text(*i)).collect();
    let keys = || parallel(&texts, || (), |(), t| cache::key(t));
    count_texts_cached(counter, work, &texts, keys)
}

/// `(ids[i], tokens of texts[i])`: `bytes4` counted directly; otherwise each text looked up
/// in the count cache by its content key (`keys()` makes them, in order), the missing ones
/// BPE-counted once per distinct text and added to the cache.
fn count_texts_cached(
    counter: TokenCounter,
    ids: &[NodeId],
    texts: &[&str],
    keys: impl FnOnce() -> Vec<cache::Key>,
) -> Vec<(NodeId, u64)> {
    let encoding = counter.encoding();
    if encoding == Encoding::Bytes4 {
        return ids
            .iter()
            .zip(texts)
            .map(|(id, t)| (*id, counter.count(t)))
            .collect();
    }
    let keys = keys();
    let cached = cache::lookup(encoding, &keys);
    // Distinct texts not in the cache (indices into `texts`), each counted once.
    let mut first: HashMap<cache::Key, usize> = HashMap::new();
    let mut missing: Vec<usize> = Vec::new();
    for (ix, c) in cached.iter().enumerate() {
        if c.is_none() && !first.contains_key(&keys[ix]) {
            first.insert(keys[ix], missing.len());
            missing.push(ix);
        }
    }
    let todo: Vec<&str> = missing.iter().map(|ix| texts[*ix]).collect();
    let counted = if todo.is_empty() {
        Vec::new()
    } else {
        count_texts(encoding, &todo)
    };
    let fresh: Vec<(cache::Key, u64)> = missing
        .iter()
        .zip(&counted)
        .map(|(ix, n)| (keys[*ix], *n))
        .collect();
    cache::insert(encoding, &fresh);
    ids.iter()
        .zip(cached)
        .zip(&keys)
        .map(|((id, c), k)| {
            let n = c.unwrap_or_else(|| first.get(k).map_or(0, |m| counted[*m]));
            (*id, n)
        })
        .collect()
}

/// `f` of every item, in order, on up to 8 threads (the calling thread is one of them); each
/// thread takes the next unclaimed item, so a few large items do not leave a core idle.
/// `init` makes a thread's state. Fewer than 64 items run on the calling thread.
fn parallel<T: Sync, S, R: Send>(
    items: &[T],
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    if items.len() < 64 || threads == 1 {
        let mut state = init();
        return items.iter().map(|it| f(&mut state, it)).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut state = init();
        let mut done = Vec::new();
        loop {
            let ix = next.fetch_add(1, Ordering::Relaxed);
            let Some(it) = items.get(ix) else { break };
            done.push((ix, f(&mut state, it)));
        }
        done
    };
    let mut out: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mut parts = vec![work()];
        // A panicking worker loses its items; they are done below on this thread.
        parts.extend(handles.into_iter().filter_map(|h| h.join().ok()));
        for (ix, r) in parts.into_iter().flatten() {
            out[ix] = Some(r);
        }
    });
    let mut state = None;
    out.into_iter()
        .zip(items)
        .map(|(r, it)| r.unwrap_or_else(|| f(state.get_or_insert_with(&init), it)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_gets_real_counts() {
        // A 182-byte Chinese paragraph: ~43 o200k tokens, far from the ~46 of bytes/4 or
        // the ~16 of a chars/4 guess.
        let text = "渐进式披露让智能体只在需要时读取文档的相应部分。技能的元数据总是被加载，正文在触发时加载，参考文件只在任务需要时才读取。这样可以节省上下文。";
        let n = TokenCounter::new(Encoding::O200kBase).count(text);
        assert!(text.len() > 150);
        assert!((25..=70).contains(&n), "o200k count {n}");
        assert_ne!(n, (text.chars().count() as u64).div_ceil(4));
    }

    /// Every markdown file under `tests/fixtures`, whole.
    fn fixture_markdown() -> Vec<String> {
        let mut stack =
            vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")];
        let mut texts = Vec::new();
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "md")
                    && let Ok(s) = std::fs::read_to_string(&p)
                {
                    texts.push(s);
                }
            }
        }
        texts
    }

    #[test]
    fn texts_split_while_the_tables_load_count_as_texts_counted_after() {
        let texts = fixture_markdown();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        assert!(refs.len() > 200, "only {} files", refs.len());
        let order: Vec<usize> = (0..refs.len()).collect();
        for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
            let t = resident::get(encoding).unwrap();
            let pre = resident::pre(encoding).unwrap();
            let direct = count_with(&t, &refs, &order);
            // None, half and all of the texts split before the tables are there.
            for split in [0, refs.len() / 2, refs.len()] {
                let mut asked = 0;
                let all = staged::Limits {
                    bytes: usize::MAX,
                    pieces: usize::MAX,
                };
                let staged = staged::Staged::split_while(&pre, &refs, &order, all, || {
                    asked += 1;
                    asked <= split
                });
                assert_eq!(staged.done(), split);
                let counted = count_staged(&t, &staged, &refs, &order);
                assert_eq!(counted, direct, "{encoding}, {split} split");
            }
            let reference = match encoding {
                Encoding::O200kBase => bpe_openai::o200k_base().count(refs[0]),
                _ => bpe_openai::cl100k_base().count(refs[0]),
            };
            assert_eq!(direct[0], reference as u64, "{encoding}");
        }
    }

    #[test]
    fn encodings_differ_and_parse() {
        let s = "fn parse_frontmatter(text: &str) -> Option<Frontmatter> { todo() }";
        let a = TokenCounter::new(Encoding::O200kBase).count(s);
        let b = TokenCounter::new(Encoding::Bytes4).count(s);
        assert_eq!(b, (s.len() as u64).div_ceil(4));
        assert!(a > 5);
        assert_eq!("cl100k_base".parse::<Encoding>(), Ok(Encoding::Cl100kBase));
        assert!("gpt2".parse::<Encoding>().is_err());
        assert_eq!(TokenCounter::new(Encoding::O200kBase).count(""), 0);
    }
}
