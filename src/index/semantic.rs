//! The semantic signal of a search (docs/DESIGN.md §3 "Semantic signal"): one unit vector
//! per BM25 document ([`crate::embed`]: its heading path then its own text, first 512
//! word-piece tokens), stored int8 with a per-document scale, and the fusion of cosine
//! similarity with BM25 on finished queries.
//!
//! Fusion rule (fixed before any measurement): the candidates are each root's BM25 top
//! [`BM25_CANDIDATES`] plus the [`COSINE_CANDIDATES`] documents of highest cosine; each
//! scores `0.5 · bm25 / max + 0.5 · cosine`, `max` being the best BM25 score of the query
//! (over roots and lazytools bundles) and `bm25` 0 for a candidate outside the BM25 lists.
//! A lazytools hit keeps its scorer and has no semantic part (`0.5 · score / max`).

#[cfg(test)]
mod top_tests;

use super::fold;
use super::hash::{FxHashMap, FxHasher};
use crate::embed::wordpiece::Scratch;
use crate::embed::{DIMS, MAX_TOKENS, StaticModel};
use crate::model::{Corpus, NodeId, NodeKind};

/// BM25 hits per root that join the fusion.
pub const BM25_CANDIDATES: usize = 100;

/// Documents of highest cosine that join the fusion.
pub const COSINE_CANDIDATES: usize = 50;

/// Weight of each signal in the fused score.
pub const FUSION_WEIGHT: f64 = 0.5;

/// One int8 vector per BM25 document of an [`super::Index`], roots in the index's order
/// (built by [`super::Index::build_semantic`]).
#[derive(Debug, Default)]
pub struct SemanticIndex {
    /// Document `d` of root `r` is row `root_start[r] + d`.
    root_start: Vec<usize>,
    /// `DIMS` int8 components per row.
    rows: Vec<i8>,
    /// Scale of each row (0 for a document without tokens: cosine 0).
    scales: Vec<f32>,
    /// Hash of each row's embedded text (the key rows are reused by after a rebuild).
    hashes: Vec<u64>,
}

/// A query's vector, quantised like the rows.
pub(crate) struct QueryVector {
    /// The int8 components, widened once so each row's dot product reads them directly.
    q: [i16; DIMS],
    scale: f32,
}

impl SemanticIndex {
    /// Embed the documents `roots` (each root's documents in index order, nodes of
    /// `corpus`) with `model`, on up to `threads` threads. Rows whose text hash matches a row
    /// of `previous` (an earlier build, e.g. before a reload) are copied from it instead of
    /// being embedded again.
    pub(crate) fn from_docs(
        corpus: &Corpus,
        roots: &[&[NodeId]],
        model: &StaticModel,
        previous: Option<&SemanticIndex>,
        threads: usize,
    ) -> Self {
        let docs: Vec<NodeId> = roots.iter().flat_map(|r| r.iter().copied()).collect();
        let mut root_start = Vec::with_capacity(roots.len());
        let mut at = 0;
        for r in roots {
            root_start.push(at);
            at += r.len();
        }
        let reuse: FxHashMap<u64, usize> = previous
            .map(|p| p.hashes.iter().enumerate().map(|(i, h)| (*h, i)).collect())
            .unwrap_or_default();
        let n = docs.len();
        let mut rows = vec![0i8; n * DIMS];
        let mut scales = vec![0f32; n];
        let mut hashes = vec![0u64; n];
        let threads = threads.clamp(1, 8);
        let per = n.div_ceil(threads).max(64);
        std::thread::scope(|s| {
            for (((chunk, rows), scales), hashes) in docs
                .chunks(per)
                .zip(rows.chunks_mut(per * DIMS))
                .zip(scales.chunks_mut(per))
                .zip(hashes.chunks_mut(per))
            {
                let reuse = &reuse;
                s.spawn(move || {
                    let mut ids = Vec::with_capacity(MAX_TOKENS);
                    let mut scratch = Scratch::default();
                    let mut text = String::new();
                    for (i, &node) in chunk.iter().enumerate() {
                        embedded_text(corpus, node, &mut text);
                        let h = hash_text(&text);
                        hashes[i] = h;
                        let row = &mut rows[i * DIMS..(i + 1) * DIMS];
                        if let (Some(&j), Some(p)) = (reuse.get(&h), previous) {
                            row.copy_from_slice(&p.rows[j * DIMS..(j + 1) * DIMS]);
                            scales[i] = p.scales[j];
                            continue;
                        }
                        if let Some(v) = model.embed_with(&text, &mut ids, &mut scratch) {
                            scales[i] = quantize(&v, row);
                        }
                    }
                });
            }
        });
        Self {
            root_start,
            rows,
            scales,
            hashes,
        }
    }

    /// Number of rows (documents).
    pub fn len(&self) -> usize {
        self.scales.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.scales.is_empty()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.rows.capacity() + self.scales.capacity() * 4 + self.hashes.capacity() * 8
    }

    /// The query vector of `text`; `None` when it has no tokens.
    pub(crate) fn query(model: &StaticModel, text: &str) -> Option<QueryVector> {
        let v = model.embed(text)?;
        let mut q = [0i8; DIMS];
        let scale = quantize(&v, &mut q);
        Some(QueryVector {
            q: q.map(i16::from),
            scale,
        })
    }

    /// Cosine of document `d` of root `r` with `qv` (0 when unknown).
    pub(crate) fn cosine(&self, r: usize, d: u32, qv: &QueryVector) -> f64 {
        self.root_start
            .get(r)
            .map_or(0.0, |s| self.cosine_row(s + d as usize, qv))
    }

    fn cosine_row(&self, i: usize, qv: &QueryVector) -> f64 {
        let (Some(row), Some(&s)) = (self.rows.get(i * DIMS..(i + 1) * DIMS), self.scales.get(i))
        else {
            return 0.0;
        };
        let Ok(row) = <&[i8; DIMS]>::try_from(row) else {
            return 0.0;
        };
        cosine_value(dot(row, &qv.q), s, qv.scale)
    }

    /// The `k` documents of highest cosine with `qv`, as `(root, document, cosine)`, best
    /// first (ties by row order); documents without tokens are left out. One pass over the
    /// rows keeping the best `k` so far (a row enters only when it beats the worst kept).
    pub(crate) fn top(&self, qv: &QueryVector, k: usize) -> Vec<(usize, u32, f64)> {
        let cmp = |a: &(usize, f64), b: &(usize, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        let mut best: Vec<(usize, f64)> = Vec::with_capacity(k);
        // Index in `best` of its worst entry, once `best` holds `k`.
        let mut worst = 0;
        if k > 0 {
            for (i, (row, &s)) in self.rows.chunks_exact(DIMS).zip(&self.scales).enumerate() {
                if s <= 0.0 {
                    continue;
                }
                let Ok(row) = <&[i8; DIMS]>::try_from(row) else {
                    continue;
                };
                let c = (i, cosine_value(dot(row, &qv.q), s, qv.scale));
                if best.len() < k {
                    best.push(c);
                    if best.len() == k {
                        worst = worst_of(&best, cmp);
                    }
                } else if cmp(&c, &best[worst]).is_lt() {
                    best[worst] = c;
                    worst = worst_of(&best, cmp);
                }
            }
        }
        best.sort_unstable_by(cmp);
        best.into_iter()
            .map(|(i, c)| {
                let r = self
                    .root_start
                    .partition_point(|&s| s <= i)
                    .saturating_sub(1);
                (
                    r,
                    (i - self.root_start.get(r).copied().unwrap_or(0)) as u32,
                    c,
                )
            })
            .collect()
    }
}

/// Index of the entry of `best` (not empty) that ranks last by `cmp`.
fn worst_of(
    best: &[(usize, f64)],
    cmp: impl Fn(&(usize, f64), &(usize, f64)) -> std::cmp::Ordering,
) -> usize {
    let mut w = 0;
    for (i, e) in best.iter().enumerate().skip(1) {
        if cmp(e, &best[w]).is_gt() {
            w = i;
        }
    }
    w
}

/// The cosine of an int8 dot product `dot` of a row of scale `row_scale` with a query of
/// scale `query_scale`.
fn cosine_value(dot: i32, row_scale: f32, query_scale: f32) -> f64 {
    f64::from(dot as f32 * row_scale * query_scale)
}

/// Integer dot product of an int8 row with a widened query (fixed length, so the loop
/// vectorises into pairwise multiply-adds).
fn dot(a: &[i8; DIMS], b: &[i16; DIMS]) -> i32 {
    let mut acc = [0i32; 16];
    for (ca, cb) in a.chunks_exact(16).zip(b.chunks_exact(16)) {
        for k in 0..16 {
            acc[k] += i32::from(ca[k]) * i32::from(cb[k]);
        }
    }
    acc.iter().sum()
}

/// Write `v` (unit length) as int8 into `out`; returns the scale (`max |v| / 127`).
fn quantize(v: &[f32], out: &mut [i8]) -> f32 {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max <= 0.0 {
        return 0.0;
    }
    let scale = max / 127.0;
    for (o, x) in out.iter_mut().zip(v) {
        *o = (x / scale).round().clamp(-127.0, 127.0) as i8;
    }
    scale
}

fn hash_text(text: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = FxHasher::default();
    h.write(text.as_bytes());
    h.write_usize(text.len());
    h.finish()
}

/// The text embedded for `node`: its heading path (the titles of its ancestors below the
/// root, then its own title), one per line, then its own text (a skill: its routing text; a
/// doc-tree README or page: its text as BM25 indexes it, `tree_docs::indexed_text`).
pub fn embedded_text(corpus: &Corpus, node: NodeId, out: &mut String) {
    out.clear();
    let mut path: Vec<NodeId> = corpus
        .ancestors(node)
        .filter(|a| corpus.node(*a).kind != NodeKind::Root)
        .collect();
    path.reverse();
    path.push(node);
    for a in path {
        out.push_str(&corpus.node(a).title);
        out.push('\n');
    }
    if corpus.node(node).kind == NodeKind::Skill {
        if let Some(t) = fold::routing_text(corpus, node) {
            out.push_str(&t);
        }
    } else {
        match super::tree_docs::indexed_text(corpus, node) {
            Some(text) => out.push_str(&text),
            None => out.push_str(corpus.own_text(node)),
        }
    }
}
