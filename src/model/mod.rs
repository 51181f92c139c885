//! The corpus model: an arena of [`Node`]s with kinds, sizes, flags and stable ids, the
//! [`Source`] texts they point into, the user's [`Selection`], and [`splice`] (swap one root
//! for a reloaded one). No I/O, no terminal.

mod corpus;
pub mod id;
mod ids;
mod lazy_summary;
mod meta;
mod node;
mod selection;
mod source;
pub mod splice;
mod stored;
#[cfg(test)]
pub(crate) mod testing;

pub use corpus::{BundleStats, Corpus};
pub use lazy_summary::{LazySummary, MakeSummaries};
pub use meta::{Meta, MetaMap};
pub use node::{
    FETCH_FAILED, Flag, Flags, Format, Node, NodeId, NodeKind, PREAMBLE_TITLE, SourceId, TextSpan,
    Warning,
};
pub use selection::{Mark, Selection};
pub use source::{
    BINARY_SNIFF_BYTES, INVALID_BYTE_PLACEHOLDER, RECENT_WRITE, SPILL_MAX_BYTES, Source,
    StoredText, lossless_len_utf8, read_at,
};
