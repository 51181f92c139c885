//! The loader machinery shared by every format: the loading context (`loader`: `Loader`,
//! listing modes, the format-row shape, path helpers), the folder walker (`contents`,
//! `links`), directory listing with `.gitignore` rules ([`list`]), reading one file
//! ([`read`]), what a load read, for the persisted index ([`inputs`]), the per-folder `README.md` and listing cache (`probe`), what the walker knows of skill
//! files ([`skill_file`]), unclaimed text and binary files ([`text_file`]), what was left
//! out on purpose ([`skipped`]), background sectioning (`section_pool`), letting sectioned texts go ([`spill`])
//! and duplicate flags (`dupes`, run once per root after every loader).

mod contents;
pub(crate) mod dupes;
pub mod inputs;
pub mod list;
pub(crate) mod loader;
mod meta_pool;
pub(crate) mod probe;
pub mod read;
mod section_pool;
pub mod skill_file;
pub mod skipped;
pub mod spill;
mod symlinks;
pub use symlinks::link_target;
pub mod text_file;

pub use list::{
    Entry, EntryKind, IgnoreStack, file_names, list_dir, natural_cmp, natural_path_cmp,
};
