//! skillnav: a terminal navigator for agent skills and documentation trees.
//!
//! Data flow: paths → [`formats`] (detect per folder, one loader per format) → a
//! [`model::Corpus`] (an arena of nodes with byte ranges into source texts) → [`index`]
//! (BM25 per root + fuzzy titles) → the TUI ([`tui`], behind the `tui` feature), the CLI
//! ([`cli`]), [`brief`] and [`clipboard`], which all read the same corpus and index.
//! Token sizes come from [`tokens`]; markdown is turned into styled text by [`render`].
//!
//! Everything outside `tui` is free of terminal dependencies
//! (`cargo check --lib --no-default-features`).

pub mod assets;
pub mod brief;
pub mod cli;
pub mod clipboard;
pub mod curate;
pub mod error;
pub mod eval;
pub mod formats;
pub mod frontmatter;
pub mod index;
pub mod model;
pub mod render;
pub mod skill;
pub mod tokens;
#[cfg(feature = "tui")]
pub mod tui;
pub mod util;
