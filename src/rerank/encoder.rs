//! The sentence encoder (all-MiniLM-L6-v2 as sentence-transformers runs it): a text becomes
//! `[CLS]`, its first [`MAX_PIECES`] word pieces (skillnav's `WordPiece` over the same
//! vocabulary, `crate::embed::wordpiece`), `[SEP]` — 256 positions at most, the model's
//! `max_seq_length` — then the encoder's states are mean-pooled over every position and
//! L2-normalised, so cosine similarity is a dot product. Vectors are cached per text hash.
//!
//! [`Reranker`] is the [`Rerank`] the index calls: the query and each candidate's text (its
//! heading path then its own text, [`crate::index::semantic::embedded_text`]) are encoded,
//! candidates on every core, and the hits re-ordered by [`super::fuse`].

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use super::RerankError;
use super::bert::Bert;
use crate::embed::wordpiece::WordPiece;
use crate::index::hash::{FxHashMap, FxHasher};
use crate::index::semantic::embedded_text;
use crate::index::{Hit, Rerank, RerankRun};
use crate::model::Corpus;

/// Word pieces of a text that are encoded (the model's 256 positions less `[CLS]` and
/// `[SEP]`); the rest of a long section is not seen.
pub const MAX_PIECES: usize = 254;

/// Cached vectors kept before the cache is emptied (1.5 KiB each: about 24 MiB).
const CACHE_ENTRIES: usize = 16_384;

/// The loaded encoder with its vector cache. `Send + Sync`.
#[derive(Debug)]
pub struct Encoder {
    bert: Bert,
    cls: u32,
    sep: u32,
    cache: Mutex<FxHashMap<u64, Arc<[f32]>>>,
}

impl Encoder {
    /// Read the model folder `dir` (`config.json`, `vocab.txt`, `model.safetensors`,
    /// optionally `1_Pooling/config.json`). Errors: a missing file (named), an unreadable or
    /// malformed one, a vocabulary other than skillnav's.
    pub fn open(dir: &Path) -> Result<Self, RerankError> {
        super::weights::check_vocab(dir)?;
        let bert = super::weights::load(dir)?;
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
            cache: Mutex::new(FxHashMap::default()),
        })
    }

    /// Forget every cached vector.
    pub fn clear_cache(&self) {
        self.cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// Hidden size: the length of every vector.
    pub fn dims(&self) -> usize {
        self.bert.shape.hidden
    }

    /// The model's input ids of `text`: `[CLS]`, up to [`MAX_PIECES`] pieces, `[SEP]`.
    pub fn input_ids(&self, text: &str) -> Vec<u32> {
        let mut ids = vec![self.cls];
        if let Some(m) = crate::embed::model() {
            let vocab: &WordPiece = &m.vocab;
            vocab.encode_into(
                text,
                MAX_PIECES + 1,
                &mut ids,
                &mut crate::embed::wordpiece::Scratch::default(),
            );
        }
        ids.truncate(MAX_PIECES + 1);
        ids.push(self.sep);
        ids
    }

    /// The unit vector of `text` (never cached). A text without pieces still has `[CLS]`
    /// and `[SEP]`, so every text has a vector; `None` only for a degenerate model whose
    /// pooled states are all zero.
    pub fn embed_uncached(&self, text: &str) -> Option<Vec<f32>> {
        self.bert.pooled(&self.input_ids(text))
    }

    /// The unit vectors of `texts` in order, from the cache or encoded on up to `threads`
    /// threads (then cached); the second value counts the texts encoded.
    pub fn embed_all(&self, texts: &[String], threads: usize) -> (Vec<Option<Arc<[f32]>>>, usize) {
        let keys: Vec<u64> = texts.iter().map(|t| hash_text(t)).collect();
        let mut out: Vec<Option<Arc<[f32]>>> = {
            let cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
            keys.iter().map(|k| cache.get(k).cloned()).collect()
        };
        let mut todo: Vec<usize> = (0..texts.len()).filter(|&i| out[i].is_none()).collect();
        // The same text twice is encoded once.
        let mut seen = FxHashMap::default();
        todo.retain(|&i| seen.insert(keys[i], i).is_none());
        let threads = threads.clamp(1, 8).min(todo.len().max(1));
        let per = todo.len().div_ceil(threads).max(1);
        let mut done: Vec<(usize, Option<Vec<f32>>)> = Vec::with_capacity(todo.len());
        std::thread::scope(|s| {
            let handles: Vec<_> = todo
                .chunks(per)
                .map(|chunk| {
                    s.spawn(move || {
                        chunk
                            .iter()
                            .map(|&i| (i, self.embed_uncached(&texts[i])))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                if let Ok(part) = h.join() {
                    done.extend(part);
                }
            }
        });
        let encoded = done.len();
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() + encoded > CACHE_ENTRIES {
            cache.clear();
        }
        for (i, v) in done {
            let v: Option<Arc<[f32]>> = v.map(Into::into);
            if let Some(v) = &v {
                cache.insert(keys[i], Arc::clone(v));
            }
            out[i] = v;
        }
        for (i, k) in keys.iter().enumerate() {
            if out[i].is_none() {
                out[i] = cache.get(k).cloned();
            }
        }
        (out, encoded)
    }
}

fn hash_text(text: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = FxHasher::default();
    h.write(text.as_bytes());
    h.write_usize(text.len());
    h.finish()
}

/// The [`Rerank`] over an [`Encoder`]: depth and fusion weight fixed at load.
#[derive(Debug)]
pub struct Reranker {
    encoder: Arc<Encoder>,
    depth: usize,
    weight: f64,
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
        let mut texts = Vec::with_capacity(hits.len() + 1);
        texts.push(query.to_string());
        for h in hits.iter() {
            let mut t = String::new();
            if h.node.ix() < corpus.len() {
                embedded_text(corpus, h.node, &mut t);
            }
            texts.push(t);
        }
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let (vectors, embedded) = self.encoder.embed_all(&texts, threads);
        let cosines: Vec<f64> = match vectors.split_first() {
            Some((Some(q), rest)) => rest
                .iter()
                .map(|v| v.as_ref().map_or(0.0, |v| super::fuse::dot(q, v)))
                .collect(),
            _ => vec![0.0; hits.len()],
        };
        super::fuse::reorder(hits, &cosines, self.weight);
        RerankRun {
            candidates: hits.len(),
            embedded,
            micros: start.elapsed().as_micros() as u64,
        }
    }
}
