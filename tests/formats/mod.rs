//! Loaders of every input format, on fixtures and arbitrary bytes.

mod catalog;
mod doc_tree;
mod git_adr;
mod llms;
mod load;
mod plain_files;
mod props;
mod robust;
mod seekers;
mod skills;

/// `tests/fixtures/formats/<rel>`.
fn fixture(rel: &str) -> std::path::PathBuf {
    crate::support::fs::fixture_path("formats").join(rel)
}
