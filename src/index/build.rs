//! Building a root's [`RootIndex`] from its documents: tokenization in parallel shards
//! (contiguous runs of documents, balanced by bytes), each with a local term map, then one
//! merge into a sorted vocabulary and CSR postings. Terms are interned as `u32` ids; a
//! posting is `(document: u32, tf: u32)`, stored as a document and a frequency byte (see
//! [`RootIndex::post_tf`]).

use std::sync::atomic::{AtomicUsize, Ordering};

use super::bm25::{RootIndex, TF_BIG, Vocab};
use super::doc_text::{DocReader, DocText};
use super::fold::RootDocs;
use super::intern::Interner;
use super::tokenize::scan;
use crate::model::{Corpus, NodeId};

/// Roots smaller than this many bytes of text are tokenized on the calling thread only.
const PARALLEL_MIN_BYTES: usize = 512 * 1024;
/// Most worker threads used for one root.
const MAX_SHARDS: usize = 4;
/// Progress is reported every this many documents.
const PROGRESS_EVERY: usize = 256;

/// Tokenized documents of one shard, with shard-local term ids.
#[derive(Default)]
struct Shard {
    /// Local id → term.
    terms: Interner,
    /// The local term of every `(term, tf)` pair of every document, documents one after
    /// the other (the pairs are the shard's postings: about one per 12 bytes of text).
    pair_terms: Vec<u32>,
    /// The pairs' frequencies as bytes, as the postings keep them: [`TF_BIG`] says the
    /// frequency is in `pair_big` (5 bytes a pair instead of 8).
    pair_tfs: Vec<u8>,
    /// `(pair, tf)` of every frequency of [`TF_BIG`] or more, by pair.
    pair_big: Vec<(usize, u32)>,
    /// End of each document's run of pairs.
    doc_end: Vec<usize>,
    /// Token count of each document.
    doc_len: Vec<u32>,
    /// Documents of this shard each local term occurs in (its postings here).
    df: Vec<u32>,
}

impl Shard {
    /// Add the pair `(term, tf)`.
    fn push_pair(&mut self, term: u32, tf: u32) {
        let byte = match u8::try_from(tf) {
            Ok(small) if small < TF_BIG => small,
            _ => {
                self.pair_big.push((self.pair_terms.len(), tf));
                TF_BIG
            }
        };
        self.pair_terms.push(term);
        self.pair_tfs.push(byte);
    }

    /// The frequencies of every pair, in order (for tests).
    #[cfg(test)]
    fn tfs(&self) -> Vec<u32> {
        let mut big = self.pair_big.iter().peekable();
        (0..self.pair_tfs.len())
            .map(|i| match big.next_if(|(at, _)| *at == i) {
                Some(&(_, tf)) => tf,
                None => u32::from(self.pair_tfs[i]),
            })
            .collect()
    }
}

/// Tokenize the documents `feed` hands over, in order (`hint`: how many and their bytes,
/// for the first allocations); each token of document `i` counts `weights[i]` times (a
/// missing weight counts 1).
fn tokenize_shard(
    feed: impl FnOnce(&mut dyn FnMut(&str)),
    hint: (usize, usize),
    weights: &[u32],
    tick: &mut dyn FnMut(usize),
) -> Shard {
    let mut sh = Shard::default();
    // About one distinct term per 12 bytes of markdown (measured on corpus/large).
    sh.pair_terms.reserve(hint.1 / 12);
    sh.pair_tfs.reserve(hint.1 / 12);
    sh.doc_end.reserve(hint.0);
    sh.doc_len.reserve(hint.0);
    let mut counts: Vec<u32> = Vec::new();
    let mut touched: Vec<u32> = Vec::new();
    let mut i = 0usize;
    feed(&mut |text| {
        let mut len = 0u32;
        let w = weights.get(i).copied().unwrap_or(1);
        scan(text, &mut |t| {
            if t.stop {
                return;
            }
            len = len.saturating_add(w);
            let id = sh.terms.intern_packed(t.term, t.key);
            if id as usize >= counts.len() {
                counts.push(0);
                sh.df.push(0);
            }
            let c = &mut counts[id as usize];
            if *c == 0 {
                touched.push(id);
            }
            *c = c.saturating_add(w);
        });
        for &t in &touched {
            sh.push_pair(t, std::mem::take(&mut counts[t as usize]));
            sh.df[t as usize] += 1;
        }
        touched.clear();
        sh.doc_end.push(sh.pair_terms.len());
        sh.doc_len.push(len);
        i += 1;
        if i.is_multiple_of(PROGRESS_EVERY) {
            tick(PROGRESS_EVERY);
        }
    });
    tick(i % PROGRESS_EVERY);
    sh
}

/// [`tokenize_shard`] of `docs`, their texts read by a [`DocReader`] of `corpus` (a source
/// that is not held is read for its documents and let go again).
fn tokenize_docs(
    corpus: &Corpus,
    docs: &[(NodeId, DocText<'_>)],
    weights: &[u32],
    tick: &mut dyn FnMut(usize),
) -> Shard {
    let bytes = docs.iter().map(|(_, d)| d.len()).sum();
    let feed = |f: &mut dyn FnMut(&str)| {
        let mut reader = DocReader::new(corpus);
        for (_, d) in docs {
            reader.with(d, &mut *f);
        }
    };
    tokenize_shard(feed, (docs.len(), bytes), weights, tick)
}

/// [`tokenize_shard`] of texts in memory.
#[cfg(test)]
fn tokenize_texts(texts: &[&str], weights: &[u32], tick: &mut dyn FnMut(usize)) -> Shard {
    let bytes = texts.iter().map(|t| t.len()).sum();
    let feed = |f: &mut dyn FnMut(&str)| texts.iter().for_each(|t| f(t));
    tokenize_shard(feed, (texts.len(), bytes), weights, tick)
}

/// Split documents of byte lengths `lens` into at most `n` contiguous runs of roughly equal
/// bytes.
fn shard_bounds(lens: &[usize], n: usize) -> Vec<std::ops::Range<usize>> {
    let total: usize = lens.iter().sum();
    let per = total.div_ceil(n.max(1)).max(1);
    let mut out = Vec::new();
    let (mut start, mut acc) = (0, 0);
    for (i, len) in lens.iter().enumerate() {
        acc += len;
        if acc >= per && out.len() + 1 < n {
            out.push(start..i + 1);
            start = i + 1;
            acc = 0;
        }
    }
    if start < lens.len() || out.is_empty() {
        out.push(start..lens.len());
    }
    out
}

/// Build the index of one root of `corpus`. `done` counts indexed documents (shared
/// across roots); `progress(done)` is called on the calling thread.
pub(crate) fn build_root(
    corpus: &Corpus,
    rd: RootDocs<'_>,
    done: &AtomicUsize,
    progress: &mut dyn FnMut(usize),
) -> RootIndex {
    let lens: Vec<usize> = rd.docs.iter().map(|(_, d)| d.len()).collect();
    let weights = &rd.weights;
    let bytes: usize = lens.iter().sum();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_SHARDS);
    let n_shards = if bytes >= PARALLEL_MIN_BYTES {
        threads
    } else {
        1
    };
    let bounds = shard_bounds(&lens, n_shards);
    let docs = &rd.docs;
    let shards: Vec<Shard> = std::thread::scope(|s| {
        let workers: Vec<_> = bounds[1..]
            .iter()
            .map(|r| {
                let part = &docs[r.clone()];
                let part_w = &weights[r.clone()];
                let spawned = std::thread::Builder::new()
                    .name("skillnav-index".into())
                    .spawn_scoped(s, move || {
                        tokenize_docs(corpus, part, part_w, &mut |k| {
                            done.fetch_add(k, Ordering::Relaxed);
                        })
                    });
                (r.clone(), spawned)
            })
            .collect();
        let first = tokenize_docs(
            corpus,
            &docs[bounds[0].clone()],
            &weights[bounds[0].clone()],
            &mut |k| {
                let now = done.fetch_add(k, Ordering::Relaxed) + k;
                progress(now);
            },
        );
        let mut all = vec![first];
        for (r, w) in workers {
            let shard = match w {
                // A worker fails only by panicking inside the tokenizer (a bug): its documents
                // are then indexed as empty rather than bringing search down.
                Ok(handle) => handle.join().unwrap_or_default(),
                // No thread available: tokenize this shard here.
                Err(_) => tokenize_docs(corpus, &docs[r.clone()], &weights[r], &mut |k| {
                    done.fetch_add(k, Ordering::Relaxed);
                }),
            };
            all.push(shard);
        }
        all
    });
    progress(done.load(Ordering::Relaxed));
    merge(rd, shards, &bounds)
}

/// The index of root `rd` from its tokenized `shards` (shard `i` holds the documents
/// `bounds[i]`): one sorted vocabulary, CSR postings and the per-term side tables.
fn merge(rd: RootDocs<'_>, shards: Vec<Shard>, bounds: &[std::ops::Range<usize>]) -> RootIndex {
    let mut shards = shards;
    let (vocab, maps) = global_vocab(&mut shards);
    let post_off = posting_offsets(&shards, &maps, vocab.len());
    let total = post_off[vocab.len()];
    let scatter = || scatter(shards, &maps, bounds, &post_off, rd.docs.len());
    let ((by_len, len_start, sig), postings) = side_tables_and_postings(&vocab, total, scatter);
    let Postings {
        doc: post_doc,
        tf: post_tf,
        tf_big,
        doc_len,
    } = postings;
    let avgdl = mean_doc_len(&doc_len);
    RootIndex {
        root: rd.root,
        docs: rd.docs.iter().map(|(n, _)| *n).collect(),
        doc_len,
        copies: rd.copies,
        avgdl,
        vocab,
        post_off,
        post_doc,
        post_tf,
        tf_big,
        by_len,
        len_start,
        sig,
        pool: Default::default(),
    }
}

/// The global vocabulary of `shards` (shard 0's interner, emptied, absorbs the others'
/// terms, then is sorted) and, per shard, its local term id → global (sorted) id map.
fn global_vocab(shards: &mut [Shard]) -> (Vocab, Vec<Vec<u32>>) {
    let mut global = std::mem::take(&mut shards[0].terms);
    let mut maps: Vec<Vec<u32>> = vec![(0..global.len() as u32).collect()];
    for s in &shards[1..] {
        maps.push(
            (0..s.terms.len() as u32)
                .map(|t| global.intern(s.terms.get(t)))
                .collect(),
        );
    }
    let sorted = global.sorted_ids();
    let mut rank = vec![0u32; sorted.len()];
    for (r, &id) in sorted.iter().enumerate() {
        rank[id as usize] = r as u32;
    }
    for m in &mut maps {
        for g in m.iter_mut() {
            *g = rank[*g as usize];
        }
    }
    let vocab = Vocab::from_sorted(sorted.iter().map(|&id| global.get(id)));
    (vocab, maps)
}

/// The CSR offsets of the postings of `v` global terms (`v + 1` entries, the last the
/// total): the shards counted their terms' documents, mapped to global ids by `maps`.
fn posting_offsets(shards: &[Shard], maps: &[Vec<u32>], v: usize) -> Vec<usize> {
    let mut post_off = vec![0usize; v + 1];
    for (s, m) in shards.iter().zip(maps) {
        for (&g, &df) in m.iter().zip(&s.df) {
            post_off[g as usize + 1] += df as usize;
        }
    }
    for i in 0..v {
        post_off[i + 1] += post_off[i];
    }
    post_off
}

/// The per-term side tables of a vocabulary: terms grouped by length, the groups' starts
/// and each term's character signature.
type SideTables = (Vec<u32>, Vec<usize>, Vec<u64>);

/// The side tables of `vocab` (they need only the vocabulary).
fn side_tables(vocab: &Vocab) -> SideTables {
    let (by_len, len_start) = group_by_len(vocab);
    let sig = (0..vocab.len() as u32)
        .map(|t| char_signature(vocab.term(t)))
        .collect();
    (by_len, len_start, sig)
}

/// The side tables of `vocab` and the postings `scatter` makes: with `total` postings of at
/// least [`PARALLEL_SIDE_MIN`] the tables are built on a second thread while this one
/// scatters.
fn side_tables_and_postings(
    vocab: &Vocab,
    total: usize,
    scatter: impl FnOnce() -> Postings,
) -> (SideTables, Postings) {
    if total >= PARALLEL_SIDE_MIN {
        std::thread::scope(|sc| {
            let job = std::thread::Builder::new()
                .name("skillnav-index".into())
                .spawn_scoped(sc, || side_tables(vocab));
            let postings = scatter();
            let tables = match job {
                // A panic there is a bug: raise it here, as building them here would.
                Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                Err(_) => side_tables(vocab),
            };
            (tables, postings)
        })
    } else {
        (side_tables(vocab), scatter())
    }
}

/// The mean of the documents' token counts `doc_len`; 0 without documents.
fn mean_doc_len(doc_len: &[u32]) -> f64 {
    let sum: u64 = doc_len.iter().map(|&l| u64::from(l)).sum();
    if doc_len.is_empty() {
        0.0
    } else {
        sum as f64 / doc_len.len() as f64
    }
}

/// Roots with at least this many postings build their side tables on a second thread.
const PARALLEL_SIDE_MIN: usize = 256 * 1024;

/// The postings of one root as [`RootIndex`] stores them.
struct Postings {
    /// Document of each posting slot.
    doc: Vec<u32>,
    /// Term frequency of each slot, [`TF_BIG`] for 255 and more.
    tf: Vec<u8>,
    /// `(slot, tf)` of the slots holding [`TF_BIG`], sorted by slot.
    tf_big: Vec<(usize, u32)>,
    /// Token count of each document.
    doc_len: Vec<u32>,
}

/// CSR postings, scattered in document order, from the shards' pairs, their local → global
/// term maps, their document ranges and the CSR offsets `post_off` (`n_docs` documents).
fn scatter(
    shards: Vec<Shard>,
    maps: &[Vec<u32>],
    bounds: &[std::ops::Range<usize>],
    post_off: &[usize],
    n_docs: usize,
) -> Postings {
    let total = post_off.last().copied().unwrap_or(0);
    let mut fill = post_off.to_vec();
    let mut post_doc = vec![0u32; total];
    let mut post_tf = vec![0u8; total];
    let mut tf_big = Vec::new();
    let mut doc_len = vec![0u32; n_docs];
    // Each shard is let go once scattered: its pairs and the postings are not all held at
    // once.
    for ((s, m), r) in shards.into_iter().zip(maps).zip(bounds) {
        let mut big = s.pair_big.iter().peekable();
        let mut begin = 0;
        for (local_d, &end) in s.doc_end.iter().enumerate().take(r.len()) {
            let d = (r.start + local_d) as u32;
            for i in begin..end {
                let g = m[s.pair_terms[i] as usize] as usize;
                post_doc[fill[g]] = d;
                post_tf[fill[g]] = s.pair_tfs[i];
                if let Some(&(_, tf)) = big.next_if(|(at, _)| *at == i) {
                    tf_big.push((fill[g], tf));
                }
                fill[g] += 1;
            }
            begin = end;
        }
        for (slot, &l) in doc_len[r.clone()].iter_mut().zip(&s.doc_len) {
            *slot = l;
        }
    }
    tf_big.sort_unstable();
    Postings {
        doc: post_doc,
        tf: post_tf,
        tf_big,
        doc_len,
    }
}

/// The set of `term`'s chars hashed into 64 bits: bit `c mod 64` for each char `c`.
pub(crate) fn char_signature(term: &str) -> u64 {
    term.chars().fold(0u64, |s, c| s | 1u64 << (c as u32 % 64))
}

/// Longest term length (in chars) with its own group in [`RootIndex::by_len`].
const LEN_GROUPS: usize = 64;

/// Term ids of `vocab` grouped by char length (counting sort; stable, so alphabetical within
/// a group), with group starts.
fn group_by_len(vocab: &Vocab) -> (Vec<u32>, Vec<usize>) {
    let n = vocab.len();
    let lens: Vec<usize> = (0..n as u32)
        .map(|t| vocab.term(t).chars().count().min(LEN_GROUPS))
        .collect();
    let mut start = vec![0usize; LEN_GROUPS + 2];
    for &l in &lens {
        start[l + 1] += 1;
    }
    for i in 0..=LEN_GROUPS {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut by_len = vec![0u32; n];
    for (t, &l) in lens.iter().enumerate() {
        by_len[fill[l]] = t as u32;
        fill[l] += 1;
    }
    (by_len, start)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `texts` as the documents of one root, node ids in order.
    fn docs_of<'a>(texts: &[&'a str]) -> Vec<(NodeId, DocText<'a>)> {
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| (NodeId(i as u32), DocText::Text((*t).into())))
            .collect()
    }

    #[test]
    fn shard_bounds_cover_all_documents() {
        let docs: Vec<usize> = vec![10; 10];
        let b = |n: usize, docs: &[usize]| -> Vec<(usize, usize)> {
            shard_bounds(docs, n)
                .into_iter()
                .map(|r| (r.start, r.end))
                .collect()
        };
        assert_eq!(b(1, &docs), [(0, 10)]);
        assert_eq!(b(2, &docs), [(0, 5), (5, 10)]);
        assert_eq!(b(3, &docs), [(0, 4), (4, 8), (8, 10)]);
        assert_eq!(b(2, &[]), [(0, 0)]);
    }

    #[test]
    fn sharded_build_equals_single_build() {
        let texts = [
            "alpha beta",
            "beta gamma gamma",
            "delta alpha",
            "epsilon",
            "beta beta zeta",
        ];
        let docs = docs_of(&texts);
        let one = tokenize_texts(&texts, &[], &mut |_| {});
        let single = merge(
            RootDocs {
                docs: docs_of(&texts),
                ..RootDocs::empty(NodeId(0))
            },
            vec![one],
            std::slice::from_ref(&(0..5)),
        );
        let a = tokenize_texts(&texts[..2], &[], &mut |_| {});
        let b = tokenize_texts(&texts[2..], &[], &mut |_| {});
        let split = merge(
            RootDocs {
                docs,
                ..RootDocs::empty(NodeId(0))
            },
            vec![a, b],
            &[0..2, 2..5],
        );
        assert_eq!(single.post_off, split.post_off);
        assert_eq!(single.post_doc, split.post_doc);
        assert_eq!(single.post_tf, split.post_tf);
        assert_eq!(single.tf_big, split.tf_big);
        assert_eq!(split.doc_len, [2, 3, 2, 1, 3]);
        let beta = split.vocab.find("beta").unwrap_or(u32::MAX);
        assert_eq!(split.df(beta), 3);
        assert!((split.avgdl - 11.0 / 5.0).abs() < 1e-15);
    }

    #[test]
    fn side_tables_built_beside_the_scatter_equal_serial_ones() {
        // Over PARALLEL_SIDE_MIN postings, so the side tables come from the second thread.
        let texts: Vec<String> = (0..3000)
            .map(|d| {
                (0..100)
                    .map(|k| format!("t{}x{}", (d * 7 + k * 13) % 5000, "é".repeat(k % 3)))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let docs = docs_of(&texts);
        let a = tokenize_texts(&texts[..1500], &[], &mut |_| {});
        let b = tokenize_texts(&texts[1500..], &[], &mut |_| {});
        let ix = merge(
            RootDocs {
                docs,
                ..RootDocs::empty(NodeId(0))
            },
            vec![a, b],
            &[0..1500, 1500..3000],
        );
        assert!(
            ix.post_doc.len() >= PARALLEL_SIDE_MIN,
            "{}",
            ix.post_doc.len()
        );
        let (by_len, len_start) = group_by_len(&ix.vocab);
        let sig: Vec<u64> = (0..ix.vocab.len() as u32)
            .map(|t| char_signature(ix.vocab.term(t)))
            .collect();
        assert_eq!(ix.by_len, by_len);
        assert_eq!(ix.len_start, len_start);
        assert_eq!(ix.sig, sig);
        // Postings per term equal its document frequency, counted directly.
        let t = ix.vocab.find("t7x").unwrap_or(u32::MAX);
        let df = texts
            .iter()
            .filter(|x| x.split(' ').any(|w| w == "t7x"))
            .count();
        assert_eq!(ix.df(t) as usize, df);
    }

    #[test]
    fn frequencies_of_a_byte_and_more_keep_their_exact_value() {
        let texts: Vec<String> = [254usize, 255, 256, 70_000, 1]
            .iter()
            .map(|&k| "alpha ".repeat(k))
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let docs = docs_of(&texts);
        let shard = tokenize_texts(&texts, &[], &mut |_| {});
        let ix = merge(
            RootDocs {
                docs,
                ..RootDocs::empty(NodeId(0))
            },
            vec![shard],
            std::slice::from_ref(&(0..5)),
        );
        let (start, _, tfs) = ix.postings(ix.vocab.find("alpha").unwrap_or(u32::MAX));
        let tf: Vec<u32> = tfs
            .iter()
            .enumerate()
            .map(|(k, &b)| ix.tf_at(start + k, b))
            .collect();
        assert_eq!(tf, [254, 255, 256, 70_000, 1]);
        assert_eq!(ix.post_tf, [254, TF_BIG, TF_BIG, TF_BIG, 1]);
        assert_eq!(ix.tf_big, [(1, 255), (2, 256), (3, 70_000)]);
    }

    #[test]
    fn weighted_document_counts_each_token_weight_times() {
        let sh = tokenize_texts(&["alpha beta alpha", "alpha"], &[2, 1], &mut |_| {});
        assert_eq!(sh.doc_len, [6, 1]);
        assert_eq!(sh.tfs(), [4, 2, 1]);
    }
}
