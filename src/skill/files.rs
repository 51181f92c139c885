//! The files of one skill folder on disk, for the lints that read more than `SKILL.md`
//! (`safety`, `broken-link`; docs/AGENTS.md "Lints"): every regular file below the folder,
//! with its path relative to the folder, its executable bits and, for text files, its
//! text. Hidden folders and `.git` are not entered (hidden files are listed), files
//! ignored by `.gitignore` inside a git repository are left out, symbolic links are not
//! followed, a folder holding its own `SKILL.md` is another skill and is not entered, and
//! the walk stops at [`MAX_FILES`] files and [`MAX_DEPTH`] levels; files over
//! [`MAX_TEXT_BYTES`] or holding a NUL byte keep no text.

use std::path::{Path, PathBuf};

use crate::formats::walk::skill_file::SKILL_FILE_NAMES;
use crate::formats::walk::{EntryKind, IgnoreStack, list_dir};
use crate::util::regular_file::{open_regular, read_regular};

/// Most files listed per skill.
pub const MAX_FILES: usize = 5_000;
/// Deepest folder level entered below the skill folder.
pub const MAX_DEPTH: usize = 16;
/// Largest file whose text is read (bytes); larger files are listed without text.
pub const MAX_TEXT_BYTES: u64 = 4 * 1024 * 1024;

/// One file of a skill folder.
#[derive(Clone, Debug)]
pub struct SkillFile {
    /// Path relative to the skill folder, `/`-separated (`references/api.md`).
    pub rel: String,
    /// Absolute path.
    pub path: PathBuf,
    /// Whether any of the owner, group or other execute bits is set (always false off Unix).
    pub executable: bool,
    /// Whether the file starts like a native executable (ELF, Mach-O or a Windows `MZ`
    /// image).
    pub native_executable: bool,
    /// The text (invalid UTF-8 replaced by U+FFFD) of a file of at most
    /// [`MAX_TEXT_BYTES`] bytes without a NUL byte; `None` for binary, large or unreadable
    /// files.
    pub text: Option<String>,
}

impl SkillFile {
    /// Whether the file is markdown by its extension (`.md`, `.markdown`, `.mdx`, any case).
    pub fn is_markdown(&self) -> bool {
        let l = self.rel.to_ascii_lowercase();
        l.ends_with(".md") || l.ends_with(".markdown") || l.ends_with(".mdx")
    }

    /// Whether this is the skill's own `SKILL.md` (or lower-case `skill.md`) at the top.
    pub fn is_skill_md(&self) -> bool {
        SKILL_FILE_NAMES.contains(&self.rel.as_str())
    }

    /// The folder part of [`SkillFile::rel`] (`""` at the top).
    pub fn rel_dir(&self) -> &str {
        self.rel.rfind('/').map_or("", |i| &self.rel[..i])
    }
}

/// Every file of the skill folder `dir`, in natural order, folder by folder (see the module
/// doc for what is left out). An unreadable `dir` gives no files.
pub fn skill_files(dir: &Path) -> Vec<SkillFile> {
    let mut out = Vec::new();
    let mut ignores = IgnoreStack::for_root(dir);
    walk(dir, "", 0, &mut ignores, &mut out);
    out
}

fn walk(dir: &Path, rel: &str, depth: usize, ignores: &mut IgnoreStack, out: &mut Vec<SkillFile>) {
    let Ok(listing) = list_dir(dir, ignores) else {
        return;
    };
    for e in &listing.entries {
        if out.len() >= MAX_FILES {
            break;
        }
        let child = if rel.is_empty() {
            e.name.clone()
        } else {
            format!("{rel}/{}", e.name)
        };
        match e.kind {
            EntryKind::File => out.push(read_one(&e.path, child)),
            EntryKind::Dir if depth < MAX_DEPTH && !e.name.starts_with('.') => {
                let nested_skill = SKILL_FILE_NAMES.iter().any(|n| e.path.join(n).is_file());
                if !nested_skill {
                    walk(&e.path, &child, depth + 1, ignores, out);
                }
            }
            _ => {}
        }
    }
    if listing.pushed {
        ignores.pop();
    }
}

fn read_one(path: &Path, rel: String) -> SkillFile {
    let (text, executable, native_executable) =
        if let Ok((bytes, meta)) = read_regular(path, MAX_TEXT_BYTES) {
            let binary = bytes.contains(&0);
            let text = (!binary).then(|| String::from_utf8_lossy(&bytes).into_owned());
            (text, exec_bits(&meta), binary && is_native(&bytes))
        } else {
            // Over the cap (or unreadable): its first bytes still tell a native program.
            let head = open_regular(path, None).ok().and_then(|(mut f, _)| {
                let mut b = [0u8; 4];
                std::io::Read::read_exact(&mut f, &mut b).ok().map(|()| b)
            });
            let exec = std::fs::metadata(path).is_ok_and(|m| exec_bits(&m));
            (None, exec, head.is_some_and(|b| is_native(&b)))
        };
    SkillFile {
        rel,
        path: path.to_path_buf(),
        executable,
        native_executable,
        text,
    }
}

/// ELF, Mach-O (32/64-bit, either byte order, fat) or `MZ` magic at the start of `b`.
fn is_native(b: &[u8]) -> bool {
    const MAGICS: [&[u8]; 7] = [
        b"\x7fELF",
        &[0xfe, 0xed, 0xfa, 0xce],
        &[0xfe, 0xed, 0xfa, 0xcf],
        &[0xce, 0xfa, 0xed, 0xfe],
        &[0xcf, 0xfa, 0xed, 0xfe],
        &[0xca, 0xfe, 0xba, 0xbe],
        b"MZ",
    ];
    MAGICS.iter().any(|m| b.starts_with(m))
}

#[cfg(unix)]
fn exec_bits(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn exec_bits(_meta: &std::fs::Metadata) -> bool {
    false
}

/// The 1-based line of byte offset `at` in `text` (line breaks `\n`, `\r\n` and a lone
/// `\r`, docs/FORMATS.md §9.1).
pub fn line_of(text: &str, at: usize) -> u32 {
    let b = &text.as_bytes()[..at.min(text.len())];
    let breaks = b
        .iter()
        .enumerate()
        .filter(|&(i, &c)| c == b'\n' || (c == b'\r' && text.as_bytes().get(i + 1) != Some(&b'\n')))
        .count();
    (breaks + 1) as u32
}

/// The lines of `text` with their 1-based numbers (breaks as in [`line_of`]).
pub fn numbered_lines(text: &str) -> impl Iterator<Item = (u32, &str)> {
    let mut rest = text;
    let mut n = 0u32;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        n += 1;
        let Some(i) = rest.find(['\n', '\r']) else {
            return Some((n, std::mem::take(&mut rest)));
        };
        let line = &rest[..i];
        let width = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[i + width..];
        Some((n, line))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_lf_crlf_and_lone_cr() {
        let t = "a\nb\r\nc\rd";
        assert_eq!(line_of(t, 0), 1);
        assert_eq!(line_of(t, t.find('b').unwrap_or(0)), 2);
        assert_eq!(line_of(t, t.find('c').unwrap_or(0)), 3);
        assert_eq!(line_of(t, t.find('d').unwrap_or(0)), 4);
        let v: Vec<(u32, &str)> = numbered_lines(t).collect();
        assert_eq!(v, [(1, "a"), (2, "b"), (3, "c"), (4, "d")]);
    }
}
