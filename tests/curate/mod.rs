//! Curation in the core: doc-tree operations, export, exposure levels, recipes.

mod doctree;
mod export;
mod exposure;
mod recipe;
