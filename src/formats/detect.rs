//! Per-folder format detection (DESIGN.md §2: "paths → `formats::detect` (per folder) →
//! loader").
//!
//! [`detect`] looks only at the folder itself (a few `stat`s, the heads of its `.md` files and
//! its `README.md`) and returns the
//! [`Format`] whose loader should take the folder over; [`super::load::Loader::load_folder`]
//! dispatches on it. To add a format: add a rule here (more specific formats first — a
//! Skill_Seekers output or a git-adr skill also holds a `SKILL.md`, so their rules go above
//! the skill rule), then add a match arm in `Loader::load_folder` calling the new loader
//! with `(corpus, parent, dir, rel)`.

use std::path::Path;

use crate::model::Format;

/// The format of folder `dir`, checked in this order:
/// 1. [`Format::Lazytools`]: `manifest.json` + `vocab.json` + `chunks.jsonl` (FORMATS §2);
/// 2. [`Format::Seekers`]: a skill whose `references/` holds `index.md` or llms variants
///    (FORMATS §1; [`super::seekers::detect`]);
/// 3. [`Format::Skill`]: holds a `SKILL.md` (or `skill.md`) file (FORMATS §3.1);
/// 4. [`Format::GitAdr`]: exported ADR notes (FORMATS §4; [`super::git_adr::detect`]);
/// 5. [`Format::DocTree`]: a progressive-exposure README/doc.md tree (FORMATS §6;
///    [`super::doc_tree::detect`]);
/// 6. [`Format::Markdown`]: anything else — walked folder by folder, each sub-folder
///    detected again (a folder of skills, a plain doc tree, or a mix).
pub fn detect(dir: &Path) -> Format {
    detect_with(dir, &mut Readme::default())
}

/// The bytes of a folder's `README.md`, read at most once while detecting (the git-adr and
/// doc-tree rules both look at it) and handed on to the walker, which would read it again.
#[derive(Debug, Default)]
pub(crate) struct Readme {
    read: bool,
    bytes: Option<Vec<u8>>,
}

impl Readme {
    /// The bytes of `dir/README.md` (read on first use); `None` when it cannot be read.
    pub fn get(&mut self, dir: &Path) -> Option<&[u8]> {
        if !self.read {
            self.read = true;
            self.bytes = std::fs::read(dir.join("README.md")).ok();
        }
        self.bytes.as_deref()
    }

    /// The bytes, if they were read.
    pub fn take(self) -> Option<Vec<u8>> {
        self.bytes
    }
}

/// [`detect`], keeping `README.md` in `readme` if a rule read it.
pub(crate) fn detect_with(dir: &Path, readme: &mut Readme) -> Format {
    if super::lazytools::is_bundle(dir) {
        Format::Lazytools
    } else if super::seekers::detect(dir) {
        Format::Seekers
    } else if super::skill::skill_md_in(dir).is_some() {
        Format::Skill
    } else if super::git_adr::detect_with(dir, readme) {
        Format::GitAdr
    } else if super::doc_tree::detect_with(dir, readme) {
        Format::DocTree
    } else {
        Format::Markdown
    }
}

/// Extensions parsed as markdown (lower-case, without the dot).
pub const MARKDOWN_EXTS: [&str; 3] = ["md", "mdx", "markdown"];

/// How a file is treated by name: markdown, plain text (`.txt`) or an asset (anything
/// else: listed with its size, never parsed).
pub fn file_format(name: &str) -> Format {
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    if MARKDOWN_EXTS.contains(&ext.as_str()) {
        Format::Markdown
    } else if ext == "txt" {
        Format::Text
    } else {
        Format::Asset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_formats_by_extension() {
        assert_eq!(file_format("a.MD"), Format::Markdown);
        assert_eq!(file_format("x.mdx"), Format::Markdown);
        assert_eq!(file_format("LICENSE.txt"), Format::Text);
        assert_eq!(file_format("run.py"), Format::Asset);
        assert_eq!(file_format("Makefile"), Format::Asset);
    }
}
