//! The format table: every format skillnav loads, in detection order. This
//! is the only list of formats; the walker and [`super::load_root`] find every folder's and
//! every special file's loader here (through the rows held in the loading context).
//!
//! A row is `(Format, detect, load)`:
//! - a **folder row** (`Detect::Folder`) takes a whole folder. Its rule looks only at the
//!   folder itself (a few `stat`s, file heads, its `README.md` read once for all rules),
//!   and the first row whose rule holds loads the folder, so a more specific format sits
//!   above a more general one (a `Skill_Seekers` output also holds a `SKILL.md`: its row is
//!   above the skill row). A folder no row takes is a plain folder: the walker lists it and
//!   detects each sub-folder again;
//! - a **file row** (`Detect::File`) takes one file met by the walk (or opened alone),
//!   from its name and head. A file no row takes is a markdown or text document by its
//!   extension, or an asset.
//!
//! Every loader has the one signature `LoadFn` (`walk::loader` says what `parent` and
//! `rel` are, and how the opened root is handled). Rows reach the walker through the
//! loading context, so no loader imports this file or the walker.
//!
//! Adding a format: docs/ARCHITECTURE.md "A new format".

use std::path::Path;

use super::walk::loader::{Detect, FormatRow, LoadFn, folder_row};
use super::walk::probe::FolderProbe;
use super::{catalog, doc_tree, git_adr, lazytools, llms_txt, seekers, skill};
use crate::model::Format;

/// A folder row.
const fn folder(
    format: Format,
    detect: fn(&Path, &mut FolderProbe) -> bool,
    load: LoadFn,
) -> FormatRow {
    FormatRow {
        format,
        detect: Detect::Folder(detect),
        load,
    }
}

/// A file row.
const fn file(format: Format, detect: fn(&str, &Path) -> bool, load: LoadFn) -> FormatRow {
    FormatRow {
        format,
        detect: Detect::File(detect),
        load,
    }
}

/// Every format, in detection order (the first row whose rule holds wins).
///
/// Folders: a lazytools bundle (`manifest.json` + `vocab.json` + `chunks.jsonl`), a
/// `Skill_Seekers` output skill (a skill whose `references/` holds `index.md` or llms
/// variants), a skill (a `SKILL.md` or `skill.md`), exported git-adr notes, a
/// progressive-exposure doc tree. Files: the llms.txt family, `catalog.json`, a
/// `Skill_Seekers` config JSON.
pub(crate) static FORMATS: &[FormatRow] = &[
    folder(
        Format::Lazytools,
        lazytools::detect_dir,
        lazytools::load_dir,
    ),
    folder(Format::Seekers, seekers::detect_dir, seekers::load_dir),
    folder(Format::Skill, skill::detect_dir, skill::load_dir),
    folder(Format::GitAdr, git_adr::detect_dir, git_adr::load_dir),
    folder(Format::DocTree, doc_tree::detect_dir, doc_tree::load_dir),
    file(
        Format::LlmsTxt,
        llms_txt::detect_walk_file,
        llms_txt::load_walk_file,
    ),
    file(
        Format::Catalog,
        catalog::detect_walk_file,
        catalog::load_walk_file,
    ),
    file(
        Format::Seekers,
        seekers::detect_walk_file,
        seekers::load_walk_file,
    ),
];

/// The format of folder `dir` by the folder rows of `FORMATS`; [`Format::Markdown`] when
/// no row takes it (a plain folder, walked folder by folder).
pub fn detect(dir: &Path) -> Format {
    folder_row(FORMATS, dir, &mut FolderProbe::default()).map_or(Format::Markdown, |row| row.format)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_takes_the_first_matching_row() {
        let d = tempfile::tempdir().expect("temp dir");
        let dir = d.path();
        assert_eq!(detect(dir), Format::Markdown);
        std::fs::write(dir.join("SKILL.md"), "---\nname: x\n---\n").expect("write");
        assert_eq!(detect(dir), Format::Skill);
        std::fs::create_dir(dir.join("references")).expect("mkdir");
        std::fs::write(dir.join("references/index.md"), "# Index\n").expect("write");
        assert_eq!(detect(dir), Format::Seekers);
        for f in ["manifest.json", "vocab.json", "chunks.jsonl"] {
            std::fs::write(dir.join(f), "").expect("write");
        }
        assert_eq!(detect(dir), Format::Lazytools);
    }
}
