//! skillnav: a terminal navigator for agent skills and documentation trees.
//!
//! Data flow: paths → [`formats`] (the format registry detects each folder; one loader per
//! format) → a [`model::Corpus`] (an arena of nodes with byte ranges into source texts) →
//! [`index`] (BM25 per root + fuzzy titles) and [`tokens`] (sizes) → what the user picks
//! ([`curate`], [`skill`]) → [`brief::build`], the one brief pipeline → the CLI ([`cli`]),
//! the TUI (module `tui`, behind the `tui` feature) and [`clipboard`], which all read the
//! same corpus and index. Markdown becomes styled text in [`render`]; [`util`] holds the
//! small helpers every layer uses. [`store`] keeps a search's corpus and indexes between
//! runs (the persisted index). `docs/ARCHITECTURE.md` maps the modules and says where
//! to add a format, a search rule, a key or a view.
//!
//! Everything outside `tui` is free of terminal dependencies
//! (`cargo check --lib --no-default-features`).

pub mod agent;
pub mod assets;
pub mod brief;
pub mod cli;
pub mod clipboard;
pub mod config;
pub mod curate;
pub mod embed;
pub mod error;
pub mod eval;
pub mod formats;
pub mod frontmatter;
pub mod index;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod model;
pub mod remote;
pub mod render;
pub mod rerank;
pub mod skill;
pub mod store;
pub mod tokens;
#[cfg(feature = "tui")]
pub mod tui;
pub mod util;
