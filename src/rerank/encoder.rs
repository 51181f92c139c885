//! The sentence encoder (all-MiniLM-L6-v2 as sentence-transformers runs it): a text becomes
//! `[CLS]`, its first [`DEFAULT_PIECES`] word pieces (skillnav's `WordPiece` over the same
//! vocabulary, `crate::embed::wordpiece`), `[SEP]` — the model takes 256 positions at most,
//! its `max_seq_length` — then the encoder's states are mean-pooled over every position and
//! L2-normalised, so cosine similarity is a dot product. A long section is cut into
//! passages of that many pieces each, at most [`MAX_PASSAGES`] ([`Encoder::passage_ids`]).
//! Vectors are cached per content key (per passage) in memory and, once persistence is on,
//! in the vector file (`super::store`).
//!
//! [`Reranker`] is the [`Rerank`] the index calls: the query and each candidate's text (its
//! heading path then its own text, [`crate::index::semantic::embedded_text`]) are encoded,
//! each candidate by the one of its passages that shares the most word pieces with the
//! query ([`best_passage`]; one encoder run per candidate, on every core), and the hits
//! re-ordered by [`super::fuse`] (docs/DESIGN.md §3 "Re-rank").

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::RerankError;
use super::bert::{Bert, Scratch};
use super::store::{self, Key, ModelId};
use crate::embed::wordpiece::WordPiece;
use crate::index::semantic::embedded_text;
use crate::index::{Hit, Rerank, RerankRun};
use crate::model::Corpus;

/// The most word pieces of a text the model can encode (its 256 positions less `[CLS]` and
/// `[SEP]`).
pub const MAX_PIECES: usize = 254;

/// Word pieces of a text that are encoded by default; the rest of a long section is not
/// seen. 128 rather than [`MAX_PIECES`]: on the dev set it gives the same recall@1/@5 and
/// brief containment at 0.65–0.87× the cold encode time (docs/DESIGN.md §3 "Re-rank").
pub const DEFAULT_PIECES: usize = 128;

/// Most passages a section is cut into: with [`DEFAULT_PIECES`] per passage, the first
/// 512 word pieces of a section (about 380 words) are seen; the rest is not. Each passage
/// costs one encoder run on a cold cache, so this bounds a cold re-rank at 4× the cost of
/// encoding openings only (docs/DESIGN.md §3 "Re-rank").
pub const MAX_PASSAGES: usize = 4;

/// Vectors kept in memory before the least useful are dropped (1.5 KiB each: about 24 MiB);
/// the same as the vector file's bound, [`store::MAX_ENTRIES`].
const CACHE_ENTRIES: usize = store::MAX_ENTRIES;

/// A long-running process (the TUI, the MCP server, `eval`) writes new vectors to the file
/// at most this often; every CLI command writes once more when it ends.
const FLUSH_EVERY: Duration = Duration::from_secs(10);

/// One cached vector.
#[derive(Debug)]
struct Entry {
    v: Arc<[f32]>,
    /// Written to the vector file (section texts; queries stay in memory).
    keep: bool,
    /// Used or made by this process (written first, so kept longest).
    used: bool,
    /// Position in the vector file it was read from (`usize::MAX` for a new vector).
    rank: usize,
}

/// The in-memory cache and its link to the vector file.
#[derive(Debug)]
struct Memo {
    map: HashMap<Key, Entry>,
    /// The vector file was read (or must not be: the cache was cleared).
    read: bool,
    /// Vectors to write were added since the last write.
    dirty: bool,
    last_flush: Instant,
}

/// The loaded encoder with its vector cache (in memory, and in the user cache dir once
/// [`store::enable_disk`] ran). `Send + Sync`.
#[derive(Debug)]
pub struct Encoder {
    bert: Bert,
    cls: u32,
    sep: u32,
    max_pieces: usize,
    id: ModelId,
    memo: Mutex<Memo>,
}

impl Encoder {
    /// Read the model folder `dir` (`config.json`, `vocab.txt`, `model.safetensors`,
    /// optionally `1_Pooling/config.json`), encoding the first [`DEFAULT_PIECES`] pieces of
    /// a text. Errors: a missing file (named), an unreadable or malformed one, a vocabulary
    /// other than skillnav's.
    pub fn open(dir: &Path) -> Result<Self, RerankError> {
        Self::open_with(dir, DEFAULT_PIECES)
    }

    /// [`Encoder::open`] encoding the first `max_pieces` pieces of a text (1 to
    /// [`MAX_PIECES`]; the benchmark compares limits with it). Errors: as [`Encoder::open`].
    pub fn open_with(dir: &Path, max_pieces: usize) -> Result<Self, RerankError> {
        let max_pieces = max_pieces.clamp(1, MAX_PIECES);
        super::weights::check_vocab(dir)?;
        let (bert, id) = super::weights::load(dir, max_pieces)?;
        let row = |tok: &str| {
            crate::embed::VOCAB_TEXT
                .lines()
                .position(|l| l == tok)
                .map(|i| i as u32)
                .ok_or_else(|| RerankError::Bad {
                    path: dir.join("vocab.txt"),
                    what: format!("no {tok} token"),
                })
        };
        Ok(Self {
            bert,
            cls: row("[CLS]")?,
            sep: row("[SEP]")?,
            max_pieces,
            id,
            memo: Mutex::new(Memo {
                map: HashMap::new(),
                read: false,
                dirty: false,
                last_flush: Instant::now(),
            }),
        })
    }

    /// Forget every cached vector, and do not read the vector file afterwards (the
    /// benchmark's cold runs).
    pub fn clear_cache(&self) {
        let mut m = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
        m.map.clear();
        m.read = true;
    }

    /// Hidden size: the length of every vector.
    pub fn dims(&self) -> usize {
        self.bert.shape.hidden
    }

    /// The identity the vector file is keyed by ([`store::model_id`]).
    pub fn model_id(&self) -> ModelId {
        self.id
    }

    /// The model's input ids of `text`: `[CLS]`, up to the encoder's piece limit
    /// ([`DEFAULT_PIECES`] unless opened with another), `[SEP]`.
    pub fn input_ids(&self, text: &str) -> Vec<u32> {
        let mut ids = vec![self.cls];
        if let Some(m) = crate::embed::model() {
            let vocab: &WordPiece = &m.vocab;
            vocab.encode_into(
                text,
                self.max_pieces + 1,
                &mut ids,
                &mut crate::embed::wordpiece::Scratch::default(),
            );
        }
        ids.truncate(self.max_pieces + 1);
        ids.push(self.sep);
        ids
    }

    /// The model's input ids of each passage of `text`: its word pieces cut into runs of the
    /// encoder's piece limit ([`DEFAULT_PIECES`] unless opened with another), at most
    /// [`MAX_PASSAGES`] of them, each run between `[CLS]` and `[SEP]`. A text without pieces
    /// is one passage of `[CLS]`, `[SEP]`; the first passage is [`Encoder::input_ids`].
    pub fn passage_ids(&self, text: &str) -> Vec<Vec<u32>> {
        let mut pieces = Vec::new();
        if let Some(m) = crate::embed::model() {
            m.vocab.encode_into(
                text,
                self.max_pieces * MAX_PASSAGES,
                &mut pieces,
                &mut crate::embed::wordpiece::Scratch::default(),
            );
        }
        pieces.truncate(self.max_pieces * MAX_PASSAGES);
        if pieces.is_empty() {
            return vec![vec![self.cls, self.sep]];
        }
        pieces
            .chunks(self.max_pieces)
            .map(|run| {
                let mut ids = Vec::with_capacity(run.len() + 2);
                ids.push(self.cls);
                ids.extend_from_slice(run);
                ids.push(self.sep);
                ids
            })
            .collect()
    }

    /// The unit vector of `text` (never cached). A text without pieces still has `[CLS]`
    /// and `[SEP]`, so every text has a vector; `None` only for a degenerate model whose
    /// pooled states are all zero.
    pub fn embed_uncached(&self, text: &str) -> Option<Vec<f32>> {
        self.bert
            .pooled(&self.input_ids(text), &mut Scratch::default())
    }

    /// [`Encoder::embed`] with every text kept in the vector file.
    pub fn embed_all(&self, texts: &[String], threads: usize) -> (Vec<Option<Arc<[f32]>>>, usize) {
        self.embed(texts, 0, threads)
    }

    /// The unit vectors of `texts` in order, from the cache (memory, then the vector file)
    /// or encoded on up to `threads` threads, longest first, each thread taking the next
    /// text when done (then cached; `texts[keep_from..]` also go to the vector file). The
    /// second value counts the texts encoded.
    pub fn embed(
        &self,
        texts: &[String],
        keep_from: usize,
        threads: usize,
    ) -> (Vec<Option<Arc<[f32]>>>, usize) {
        let keys: Vec<Key> = texts.iter().map(|t| store::key(t)).collect();
        self.embed_units(&keys, &|i| self.input_ids(&texts[i]), keep_from, threads)
    }

    /// The unit vector of each of `texts` as the re-rank scores it: of its passages
    /// ([`Encoder::passage_ids`]), the one [`best_passage`] picks for `query`, cached per
    /// passage (a passage's key names its text and its place, so another query picking
    /// another passage of the same text encodes only that one; every passage is kept in the
    /// vector file) — one encoder run per text on a cold cache, not one per passage. The
    /// second value counts the passages encoded.
    pub fn embed_best_passages(
        &self,
        texts: &[String],
        query: &str,
        threads: usize,
    ) -> (Vec<Option<Arc<[f32]>>>, usize) {
        let query_ids = self.input_ids(query);
        let mut keys = Vec::with_capacity(texts.len());
        let mut ids = Vec::with_capacity(texts.len());
        for text in texts {
            let mut passages = self.passage_ids(text);
            let n = best_passage(&passages, &query_ids);
            keys.push(store::passage_key(store::key(text), n));
            ids.push(passages.swap_remove(n));
        }
        self.embed_units(&keys, &|i| ids[i].clone(), 0, threads)
    }

    /// The vectors of the units keyed `keys` (unit `i` encodes `ids_of(i)`), from the cache
    /// or encoded on up to `threads` threads, longest first (then cached; units from
    /// `keep_from` on also go to the vector file); the second value counts units encoded.
    fn embed_units(
        &self,
        keys: &[Key],
        ids_of: &dyn Fn(usize) -> Vec<u32>,
        keep_from: usize,
        threads: usize,
    ) -> (Vec<Option<Arc<[f32]>>>, usize) {
        let mut out: Vec<Option<Arc<[f32]>>> = {
            let mut m = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
            self.read_file(&mut m);
            keys.iter()
                .map(|k| {
                    m.map.get_mut(k).map(|e| {
                        e.used = true;
                        Arc::clone(&e.v)
                    })
                })
                .collect()
        };
        // The same unit twice is encoded once.
        let mut seen = HashMap::new();
        let mut todo: Vec<(usize, Vec<u32>)> = (0..keys.len())
            .filter(|&i| out[i].is_none() && seen.insert(keys[i], i).is_none())
            .map(|i| (i, ids_of(i)))
            .collect();
        todo.sort_by_key(|(i, ids)| (std::cmp::Reverse(ids.len()), *i));
        let done = self.encode_all(&todo, threads);
        let encoded = done.len();
        let mut m = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
        if m.map.len() + encoded > CACHE_ENTRIES {
            m.map.retain(|_, e| e.used);
            if m.map.len() + encoded > CACHE_ENTRIES {
                m.map.clear();
            }
        }
        for (i, v) in done {
            let Some(v) = v.map(Arc::<[f32]>::from) else {
                continue;
            };
            let keep = i >= keep_from;
            m.dirty |= keep;
            m.map.insert(
                keys[i],
                Entry {
                    v: Arc::clone(&v),
                    keep,
                    used: true,
                    rank: usize::MAX,
                },
            );
            out[i] = Some(v);
        }
        for (i, k) in keys.iter().enumerate() {
            if out[i].is_none() {
                out[i] = m.map.get(k).map(|e| Arc::clone(&e.v));
            }
        }
        (out, encoded)
    }

    /// Encode every `(unit, ids)` of `todo` on up to `threads` threads, each taking the next
    /// one when done; `(unit, vector)` pairs in no particular order.
    fn encode_all(
        &self,
        todo: &[(usize, Vec<u32>)],
        threads: usize,
    ) -> Vec<(usize, Option<Vec<f32>>)> {
        let threads = threads.clamp(1, 8).min(todo.len().max(1));
        let next = AtomicUsize::new(0);
        let mut done: Vec<(usize, Option<Vec<f32>>)> = Vec::with_capacity(todo.len());
        std::thread::scope(|s| {
            let work = || {
                let mut sc = Scratch::default();
                let mut part = Vec::new();
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some((i, ids)) = todo.get(j) else { break };
                    part.push((*i, self.bert.pooled(ids, &mut sc)));
                }
                part
            };
            let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            done.extend(work());
            for h in handles {
                if let Ok(part) = h.join() {
                    done.extend(part);
                }
            }
        });
        done
    }

    /// Read the vector file into the cache once, when persistence is on.
    fn read_file(&self, m: &mut Memo) {
        if m.read {
            return;
        }
        m.read = true;
        let Some(dir) = store::dir() else { return };
        for (rank, (k, v)) in store::read(&dir, &self.id, self.dims())
            .into_iter()
            .enumerate()
            .take(CACHE_ENTRIES)
        {
            m.map.entry(k).or_insert(Entry {
                v: v.into(),
                keep: true,
                used: false,
                rank,
            });
        }
    }

    /// Write the vectors this process made to the vector file when persistence is on and
    /// there are new ones: most recently used first, then the file's others in their order,
    /// at most [`store::MAX_ENTRIES`]. Errors leave the old file in place.
    pub fn flush(&self) {
        let Some(dir) = store::dir() else { return };
        let mut m = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
        if !m.dirty {
            return;
        }
        let dims = self.dims();
        let mut ours: Vec<(bool, usize, Key, Arc<[f32]>)> = m
            .map
            .iter()
            .filter(|(_, e)| e.keep && e.v.len() == dims)
            .map(|(k, e)| (!e.used, e.rank, *k, Arc::clone(&e.v)))
            .collect();
        ours.sort_unstable_by_key(|e| (e.0, e.1, e.2));
        let on_disk = store::read(&dir, &self.id, dims);
        let mut entries: Vec<(Key, &[f32])> = ours.iter().map(|e| (e.2, &*e.3)).collect();
        for (k, v) in &on_disk {
            if entries.len() >= store::MAX_ENTRIES {
                break;
            }
            if !m.map.get(k).is_some_and(|e| e.keep) {
                entries.push((*k, v));
            }
        }
        entries.truncate(store::MAX_ENTRIES);
        let bytes = store::encode(&self.id, dims, &entries);
        m.last_flush = Instant::now();
        if store::write_atomic(&dir, &bytes).is_ok() {
            m.dirty = false;
        }
    }

    /// [`Encoder::flush`] when the last write is [`FLUSH_EVERY`] old.
    fn flush_if_due(&self) {
        let due = {
            let m = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
            m.dirty && m.last_flush.elapsed() >= FLUSH_EVERY
        };
        if due {
            self.flush();
        }
    }
}

/// The [`Rerank`] over an [`Encoder`]: depth and fusion weight fixed at load.
#[derive(Debug)]
pub struct Reranker {
    encoder: Arc<Encoder>,
    depth: usize,
    weight: f64,
}

/// Which of `passages` (input ids, as [`Encoder::passage_ids`] gives them) a text is scored
/// by for a query of input ids `query`: the one holding the most distinct word pieces of the
/// query (`[CLS]` and `[SEP]` count in every passage alike), ties to the earliest; 0 for one
/// passage. Lexical on purpose: it picks before any encoder run, so a cold re-rank encodes
/// one passage per candidate (docs/DESIGN.md §3 "Re-rank").
pub fn best_passage(passages: &[Vec<u32>], query: &[u32]) -> usize {
    if passages.len() <= 1 {
        return 0;
    }
    let mut wanted: Vec<u32> = query.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    // At most ~130 pieces a side: a scan per query piece is cheaper than any set.
    let shared = |p: &Vec<u32>| wanted.iter().filter(|w| p.contains(w)).count();
    let mut best = (0, shared(&passages[0]));
    for (n, p) in passages.iter().enumerate().skip(1) {
        let s = shared(p);
        if s > best.1 {
            best = (n, s);
        }
    }
    best.0
}

impl Reranker {
    /// Re-rank the first `depth` hits with weight `weight` on the cosine (see
    /// [`super::fuse::fused`]).
    pub fn new(encoder: Arc<Encoder>, depth: usize, weight: f64) -> Self {
        Self {
            encoder,
            depth,
            weight: weight.clamp(0.0, 1.0),
        }
    }
}

impl Rerank for Reranker {
    fn depth(&self) -> usize {
        self.depth
    }

    fn rerank(&self, corpus: &Corpus, query: &str, hits: &mut [Hit]) -> RerankRun {
        let start = Instant::now();
        let texts: Vec<String> = hits
            .iter()
            .map(|h| {
                let mut t = String::new();
                if h.node.ix() < corpus.len() {
                    embedded_text(corpus, h.node, &mut t);
                }
                t
            })
            .collect();
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        // The query's vector stays in memory; the sections' passages go to the vector file.
        let (q, q_encoded) = self.encoder.embed(&[query.to_string()], 1, 1);
        // A section scores by the passage that shares the most word pieces with the query.
        let (passages, embedded) = self.encoder.embed_best_passages(&texts, query, threads);
        let cosines: Vec<f64> = match q.first() {
            Some(Some(q)) => passages
                .iter()
                .map(|v| v.as_ref().map_or(0.0, |v| super::fuse::dot(q, v)))
                .collect(),
            _ => vec![0.0; hits.len()],
        };
        super::fuse::reorder(hits, &cosines, self.weight);
        let run = RerankRun {
            candidates: hits.len(),
            embedded: embedded + q_encoded,
            micros: start.elapsed().as_micros() as u64,
        };
        self.encoder.flush_if_due();
        run
    }
}

#[cfg(test)]
mod best_passage_tests {
    use super::best_passage;

    #[test]
    fn the_passage_with_the_most_distinct_query_pieces_wins_and_ties_go_to_the_earliest() {
        // [CLS] = 1, [SEP] = 2 in every passage; the query asks for 10, 11, 12.
        let query = [1, 10, 11, 12, 2];
        let passages = vec![
            vec![1, 10, 10, 10, 10, 2], // one distinct piece, repeated
            vec![1, 10, 11, 5, 2],      // two
            vec![1, 11, 12, 6, 2],      // two, later
            vec![1, 7, 8, 2],
        ];
        assert_eq!(best_passage(&passages, &query), 1);
        assert_eq!(best_passage(&passages[2..], &query), 0);
        assert_eq!(best_passage(&passages[3..], &query), 0);
        assert_eq!(best_passage(&[], &query), 0);
        // No query piece anywhere: the opening.
        assert_eq!(best_passage(&passages, &[1, 99, 2]), 0);
    }
}
