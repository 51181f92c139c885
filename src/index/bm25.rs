//! The BM25 inverted index of one root (docs/DESIGN.md §3): a sorted, interned vocabulary,
//! compact postings (CSR: per term a run of `(document, tf)`), document lengths, N and
//! avgdl, and the scoring loop.
//!
//! score(D, Q) = Σ_{q ∈ Q} idf(q) · tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl)),
//! idf(q) = ln(1 + (N − df + 0.5)/(df + 0.5)), with [`K1`] = 1.5 and [`B`] = 0.75; `dl` and
//! `avgdl` count tokens of our tokenizer ([`crate::index::tokenize`](mod@crate::index::tokenize)).

use std::ops::Range;
use std::sync::Mutex;

use crate::model::NodeId;

/// BM25 term-frequency saturation (docs/DESIGN.md §3).
pub const K1: f64 = 1.5;
/// BM25 length normalisation (docs/DESIGN.md §3).
pub const B: f64 = 0.75;

/// BM25 IDF of a term with document frequency `df` among `n` documents:
/// `ln(1 + (n − df + 0.5)/(df + 0.5))` (always > 0 for `df <= n`).
pub fn idf(n: usize, df: usize) -> f64 {
    let (n, df) = (n as f64, df as f64);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// The BM25 contribution of one term to one document.
pub fn term_score(idf: f64, tf: u32, dl: u32, avgdl: f64) -> f64 {
    let tf = f64::from(tf);
    idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * f64::from(dl) / avgdl))
}

/// Sorted vocabulary of interned terms: term id `i` is the i-th term in byte order.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Vocab {
    buf: String,
    #[serde(with = "crate::util::pod_vec")]
    off: Vec<usize>,
}

impl Vocab {
    /// Build from terms already sorted and deduplicated.
    pub fn from_sorted<'a>(terms: impl Iterator<Item = &'a str>) -> Self {
        let mut v = Vocab {
            buf: String::new(),
            off: vec![0],
        };
        for t in terms {
            v.buf.push_str(t);
            v.off.push(v.buf.len());
        }
        v
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.off.len().saturating_sub(1)
    }

    /// Term `id`.
    pub fn term(&self, id: u32) -> &str {
        let i = id as usize;
        self.buf.get(self.off[i]..self.off[i + 1]).unwrap_or("")
    }

    /// Id of `term`, by binary search.
    pub fn find(&self, term: &str) -> Option<u32> {
        let (mut lo, mut hi) = (0usize, self.len());
        while lo < hi {
            let mid = usize::midpoint(lo, hi);
            match self.term(mid as u32).cmp(term) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid as u32),
            }
        }
        None
    }

    /// Ids of all terms starting with `prefix` (a contiguous run in sorted order).
    pub fn prefix_range(&self, prefix: &str) -> Range<u32> {
        let lower = self.partition(|t| t < prefix);
        let upper = self.partition(|t| t < prefix || t.starts_with(prefix));
        lower as u32..upper.max(lower) as u32
    }

    fn partition(&self, pred: impl Fn(&str) -> bool) -> usize {
        let (mut lo, mut hi) = (0usize, self.len());
        while lo < hi {
            let mid = usize::midpoint(lo, hi);
            if pred(self.term(mid as u32)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.buf.capacity() + self.off.capacity() * std::mem::size_of::<usize>()
    }
}

/// The inverted index of one root.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct RootIndex {
    /// The root node.
    pub root: NodeId,
    /// Document `d` is node `docs[d]`; documents are in document order (pre-order).
    pub docs: Vec<NodeId>,
    /// Length of document `d` in tokens.
    #[serde(with = "crate::util::pod_vec")]
    pub doc_len: Vec<u32>,
    /// Nodes folded into document `d` (identical own text), sorted by `d`.
    pub copies: Vec<(u32, Vec<NodeId>)>,
    /// Mean document length in tokens (0 when there are no tokens at all).
    pub avgdl: f64,
    /// Sorted vocabulary.
    pub vocab: Vocab,
    /// Postings of term `t` are `post_doc[post_off[t]..post_off[t+1]]` (ascending documents)
    /// with frequencies in `post_tf` at the same positions: a frequency below [`TF_BIG`] is
    /// the byte itself; [`TF_BIG`] says it is in `tf_big` (a byte per posting instead of a
    /// `u32`: nearly every frequency is small).
    #[serde(with = "crate::util::pod_vec")]
    pub post_off: Vec<usize>,
    #[serde(with = "crate::util::pod_vec")]
    pub post_doc: Vec<u32>,
    #[serde(with = "crate::util::pod_vec")]
    pub post_tf: Vec<u8>,
    /// `(posting position, frequency)` of every frequency of [`TF_BIG`] or more, by position.
    pub tf_big: Vec<(usize, u32)>,
    /// Term ids grouped by length in chars (alphabetical within a length), for "did you
    /// mean": terms of `l` chars are `by_len[len_start[l]..len_start[l + 1]]`; the last group
    /// holds every longer term.
    #[serde(with = "crate::util::pod_vec")]
    pub by_len: Vec<u32>,
    #[serde(with = "crate::util::pod_vec")]
    pub len_start: Vec<usize>,
    /// Per term id: the set of its chars hashed into 64 bits (`1 << (c mod 64)`), a cheap
    /// lower bound on edit distance for "did you mean" ([`crate::index::distance`]).
    #[serde(with = "crate::util::pod_vec")]
    pub sig: Vec<u64>,
    /// Reusable query scratch (dense accumulators are large; allocating them per query
    /// costs page faults). A query takes one and puts it back.
    #[serde(skip)]
    pub pool: Mutex<Vec<Scratch>>,
}

/// The `post_tf` byte that stands for a frequency of this or more, kept in `tf_big`.
pub(crate) const TF_BIG: u8 = u8::MAX;

/// Most scratch buffers kept per root (one per concurrent query).
const POOL_MAX: usize = 4;

/// Per-query scratch space of one root (dense accumulators over its documents, all zero
/// between queries).
#[derive(Debug)]
pub(crate) struct Scratch {
    acc: Vec<f64>,
    best: Vec<f64>,
    touched: Vec<u32>,
    group_touched: Vec<u32>,
}

impl RootIndex {
    /// Number of documents (N).
    pub fn n(&self) -> usize {
        self.docs.len()
    }

    /// Document frequency of term `t`.
    pub fn df(&self, t: u32) -> usize {
        let t = t as usize;
        self.post_off[t + 1] - self.post_off[t]
    }

    /// Where the postings of term `t` start, their documents and their frequency bytes.
    pub(crate) fn postings(&self, t: u32) -> (usize, &[u32], &[u8]) {
        let r = self.post_off[t as usize]..self.post_off[t as usize + 1];
        (r.start, &self.post_doc[r.clone()], &self.post_tf[r])
    }

    /// The frequency of the posting at `pos`, whose `post_tf` byte is `tf`.
    pub fn tf_at(&self, pos: usize, tf: u8) -> u32 {
        if tf < TF_BIG {
            return u32::from(tf);
        }
        match self.tf_big.binary_search_by_key(&pos, |(p, _)| *p) {
            Ok(i) => self.tf_big[i].1,
            Err(_) => u32::from(tf),
        }
    }

    /// Folded copies of document `d`.
    pub fn copies_of(&self, d: u32) -> &[NodeId] {
        match self.copies.binary_search_by_key(&d, |(k, _)| *k) {
            Ok(i) => &self.copies[i].1,
            Err(_) => &[],
        }
    }

    /// Scratch space for [`RootIndex::score`]: a pooled one, or a fresh one.
    pub fn take_scratch(&self) -> Scratch {
        let pooled = self.pool.lock().ok().and_then(|mut p| p.pop());
        pooled.unwrap_or_else(|| Scratch {
            acc: vec![0.0; self.n()],
            best: vec![0.0; self.n()],
            touched: Vec::new(),
            group_touched: Vec::new(),
        })
    }

    /// Return scratch space taken with [`RootIndex::take_scratch`] (all zero again).
    pub fn put_scratch(&self, s: Scratch) {
        if let Ok(mut p) = self.pool.lock()
            && p.len() < POOL_MAX
        {
            p.push(s);
        }
    }

    /// Score all documents for `groups` (each group is one query word: its `(term id, weight)`
    /// pairs, whose contribution per document is the MAX over the group of weight × the term's
    /// BM25 score) and return the best `top_k` `(document, score)` pairs, score descending,
    /// ties by document order.
    pub fn score(
        &self,
        groups: &[Vec<(u32, f64)>],
        top_k: usize,
        s: &mut Scratch,
    ) -> Vec<(u32, f64)> {
        if top_k == 0 || self.avgdl <= 0.0 || !self.avgdl.is_finite() {
            return Vec::new();
        }
        let n = self.n();
        for group in groups {
            match group.as_slice() {
                [] => {}
                [(t, weight)] => {
                    let w = idf(n, self.df(*t)) * weight;
                    let (start, docs, tfs) = self.postings(*t);
                    for (k, (&d, &tf)) in docs.iter().zip(tfs).enumerate() {
                        let tf = self.tf_at(start + k, tf);
                        let v = term_score(w, tf, self.doc_len[d as usize], self.avgdl);
                        let a = &mut s.acc[d as usize];
                        if *a == 0.0 {
                            s.touched.push(d);
                        }
                        *a += v;
                    }
                }
                many => {
                    for &(t, weight) in many {
                        let w = idf(n, self.df(t)) * weight;
                        let (start, docs, tfs) = self.postings(t);
                        for (k, (&d, &tf)) in docs.iter().zip(tfs).enumerate() {
                            let tf = self.tf_at(start + k, tf);
                            let v = term_score(w, tf, self.doc_len[d as usize], self.avgdl);
                            let b = &mut s.best[d as usize];
                            if *b == 0.0 {
                                s.group_touched.push(d);
                            }
                            if v > *b {
                                *b = v;
                            }
                        }
                    }
                    for &d in &s.group_touched {
                        let a = &mut s.acc[d as usize];
                        if *a == 0.0 {
                            s.touched.push(d);
                        }
                        *a += std::mem::take(&mut s.best[d as usize]);
                    }
                    s.group_touched.clear();
                }
            }
        }
        let mut hits: Vec<(u32, f64)> = s
            .touched
            .iter()
            .map(|&d| (d, std::mem::take(&mut s.acc[d as usize])))
            .collect();
        s.touched.clear();
        let cmp = |a: &(u32, f64), b: &(u32, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        if hits.len() > top_k {
            hits.select_nth_unstable_by(top_k - 1, cmp);
            hits.truncate(top_k);
        }
        hits.sort_unstable_by(cmp);
        hits
    }

    /// Term ids of `chars` chars (terms longer than the last group are all in it).
    pub fn terms_of_len(&self, chars: usize) -> &[u32] {
        let l = chars.min(self.len_start.len().saturating_sub(2));
        match (self.len_start.get(l), self.len_start.get(l + 1)) {
            (Some(&a), Some(&b)) => &self.by_len[a..b],
            _ => &[],
        }
    }

    /// Approximate heap bytes of this index.
    pub fn heap_bytes(&self) -> usize {
        self.vocab.heap_bytes()
            + self.docs.capacity() * 4
            + self.doc_len.capacity() * 4
            + self.post_off.capacity() * std::mem::size_of::<usize>()
            + self.post_doc.capacity() * 4
            + self.post_tf.capacity()
            + self.tf_big.capacity() * 16
            + self.by_len.capacity() * 4
            + self.sig.capacity() * 8
            + self
                .copies
                .iter()
                .map(|(_, v)| 32 + v.capacity() * 4)
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idf_matches_formula() {
        assert!((idf(3, 1) - (1.0f64 + 2.5 / 1.5).ln()).abs() < 1e-15);
        assert!(idf(1, 1) > 0.0);
    }

    #[test]
    fn vocab_find_and_prefix() {
        let v = Vocab::from_sorted(["app", "app.get", "apple", "bar", "baz"].into_iter());
        assert_eq!(v.len(), 5);
        assert_eq!(v.find("apple"), Some(2));
        assert_eq!(v.find("ap"), None);
        assert_eq!(v.prefix_range("app"), 0..3);
        assert_eq!(v.prefix_range("ba"), 3..5);
        assert_eq!(v.prefix_range("c"), 5..5);
        assert_eq!(v.prefix_range("0"), 0..0);
        assert_eq!(v.term(4), "baz");
    }
}
