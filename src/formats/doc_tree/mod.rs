//! Progressive-exposure doc trees (the PTX-ISA `doc-crawl` layout): every folder has a
//! `README.md` whose bullets describe its children and leaves hold a `doc.md`.
//!
//! Owns: reading such a tree into the corpus (`load`: README parsing, detection, the
//! loader) and reorganising one on disk ([`reshape`]: the crawl pipeline's collapse and merge
//! steps, planned then applied).

mod load;
pub mod reshape;

pub use load::{
    Bullet, Readme, cmp_names, detect, is_placeholder, load, load_into, merged_parts,
    numeric_prefix, parse_readme,
};
pub(crate) use load::{detect_dir, load_dir};
