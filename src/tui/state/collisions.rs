//! The collision map popup (`C`, docs/AGENTS.md "Description overlap"): the pairs of skills
//! whose descriptions compete for the same requests, most similar first, with the phrases
//! they share; `Enter` opens the first skill's editor, `Tab` the second's. State only; the
//! keys are in `update/collisions.rs`, drawing in `view/collisions.rs`.

use crate::model::NodeId;

/// One flagged pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The first skill node and its name.
    pub a: (NodeId, String),
    /// The second skill node and its name.
    pub b: (NodeId, String),
    /// Cosine similarity of the two entries, 0–1.
    pub similarity: f64,
    /// The trigger phrases both hold.
    pub phrases: Vec<String>,
}

/// The open collision map.
#[derive(Clone, Debug, PartialEq)]
pub struct Collisions {
    /// Flagged pairs, most similar first.
    pub pairs: Vec<Pair>,
    /// Cursor (index into `pairs`).
    pub cursor: usize,
    /// First pair drawn.
    pub offset: usize,
}
