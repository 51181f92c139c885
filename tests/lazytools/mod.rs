//! lazytools bundles: loading, building, BM25 scores and brief parity.

mod briefs;
mod build;
mod load;
mod scores;
