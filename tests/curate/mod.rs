//! Curation in the core: doc-tree operations, export, exposure levels, recipes.

mod doctree;
mod export;
mod export_text;
mod exposure;
mod recipe;
