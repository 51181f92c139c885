//! The offline semantic signal's model (docs/DESIGN.md §3 "Semantic signal"): a static
//! embedding table in model2vec's layout, distilled from all-MiniLM-L6-v2 (Apache-2.0) by
//! `tools/make_embeddings.py` and vendored in `assets/embed/` (its NOTICE there). A text's
//! vector is the mean of its word-piece tokens' rows (first [`MAX_TOKENS`] tokens),
//! L2-normalised; cosine similarity is then a dot product.
//!
//! Modules: [`wordpiece`] (the tokenizer), `table` (the int8 rows with per-row scales, read
//! from the embedded safetensors file).

mod table;
#[cfg(test)]
mod tests;
pub mod wordpiece;

use std::sync::OnceLock;

pub use table::Table;
use wordpiece::{Scratch, WordPiece};

/// Dimensions of a vector.
pub const DIMS: usize = 256;

/// Tokens of a text that count (model2vec's default `max_length`).
pub const MAX_TOKENS: usize = 512;

/// The embedded table (`assets/embed/model.safetensors`: `embeddings` I8 `[V, 256]` and
/// `scales` F32 `[V]`).
pub static MODEL_BYTES: &[u8] = include_bytes!("../../assets/embed/model.safetensors");

/// The embedded vocabulary (`assets/embed/vocab.txt`, one token a line, line = row).
pub static VOCAB_TEXT: &str = include_str!("../../assets/embed/vocab.txt");

/// sha256 (lower-case hex) of [`MODEL_BYTES`] as `tools/make_embeddings.py` wrote it (also
/// in `assets/embed/golden.json`); a test checks the embedded bytes against it.
pub const MODEL_SHA256: &str = "2919ca3bde04052953ba27090eb5d17d53357c91144ff74fb80c4b25816d8591";

/// The static model: tokenizer and table.
#[derive(Debug)]
pub struct StaticModel {
    /// The tokenizer.
    pub vocab: WordPiece,
    /// The rows.
    pub table: Table,
}

/// The embedded model, parsed on first use; `None` when the embedded files do not parse
/// (a broken build: the asset test catches it).
pub fn model() -> Option<&'static StaticModel> {
    static MODEL: OnceLock<Option<StaticModel>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let vocab = WordPiece::new(VOCAB_TEXT)?;
            let table = Table::parse(MODEL_BYTES, DIMS)?;
            (table.rows() == vocab.len()).then_some(StaticModel { vocab, table })
        })
        .as_ref()
}

impl StaticModel {
    /// The unit vector of `text` (mean of the rows of its first [`MAX_TOKENS`] tokens,
    /// normalised), or `None` for a text without tokens. `ids` and `scratch` are reusable
    /// buffers.
    pub fn embed_with(
        &self,
        text: &str,
        ids: &mut Vec<u32>,
        scratch: &mut Scratch,
    ) -> Option<[f32; DIMS]> {
        ids.clear();
        self.vocab.encode_into(text, MAX_TOKENS, ids, scratch);
        self.pool(ids)
    }

    /// [`Self::embed_with`] with fresh buffers.
    pub fn embed(&self, text: &str) -> Option<[f32; DIMS]> {
        self.embed_with(text, &mut Vec::new(), &mut Scratch::default())
    }

    /// The normalised mean of rows `ids`; `None` when empty or all zero.
    pub fn pool(&self, ids: &[u32]) -> Option<[f32; DIMS]> {
        if ids.is_empty() {
            return None;
        }
        let mut acc = [0f32; DIMS];
        for &id in ids {
            self.table.add_row(id as usize, &mut acc);
        }
        normalize(&mut acc).then_some(acc)
    }
}

/// Scale `v` to unit length; false (and `v` unchanged) when its norm is zero.
pub fn normalize(v: &mut [f32]) -> bool {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm <= 0.0 || !norm.is_finite() {
        return false;
    }
    for x in v.iter_mut() {
        *x /= norm;
    }
    true
}
