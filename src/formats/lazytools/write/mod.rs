//! `skillnav build`: write a lazytools-format bundle (docs/FORMATS.md §2, version 3.0.0) that
//! equals what lazybridge 0.7.9 `build_skill` writes for the same inputs — same chunks, tokens, IDF
//! and avgdl — apart from `created_by` (and vocab.json's key order, which in lazytools
//! follows Python's per-process string hashing; ours is first occurrence).
//!
//! Pieces: [`chunk`] (normalise + chunk), [`walk`] (file
//! order), [`serialize`] (byte-exact JSON and SKILL.md), and
//! [`super::pystr`] (Python string semantics, also used by `brief::lazytools`).

pub mod chunk;
pub mod serialize;
pub mod walk;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::pystr;
use crate::error::Error;
use chunk::{DocChunk, make_chunks};

/// lazytools' default eligible extensions (docs/FORMATS.md §2.6).
pub const DEFAULT_EXTENSIONS: [&str; 10] = [
    ".md", ".mdx", ".txt", ".rst", ".adoc", ".py", ".json", ".yaml", ".yml", ".toml",
];

/// Bundle format version written to manifest.json.
pub const BUNDLE_VERSION: &str = "3.0.0";

/// `created_by` written by skillnav (lazytools writes `lazybridge.external_tools.doc_skills`).
pub const CREATED_BY: &str = concat!("skillnav ", env!("CARGO_PKG_VERSION"));

/// Options of [`build_bundle`] (lazytools' `build_skill` arguments).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Skill name: written raw to manifest/SKILL.md; its [`slug`] names the folder.
    pub name: String,
    /// Description; `None` or empty → `Documentation skill built from N files.`.
    pub description: Option<String>,
    /// Maximum characters per chunk (default 1800).
    pub chunk_size: usize,
    /// Overlap of char-mode windows, in characters (default 180).
    pub overlap: usize,
    /// Eligible extensions with the dot, matched case-insensitively (default
    /// [`DEFAULT_EXTENSIONS`]); written to the manifest as given.
    pub extensions: Vec<String>,
    /// Copy each indexed file to `sources/<root name>/<relative path>` in the bundle.
    pub copy_sources: bool,
    /// Extra notes for SKILL.md's "Additional notes".
    pub usage_notes: Option<String>,
    /// Replace an existing bundle folder (otherwise [`Error::Refused`]).
    pub force: bool,
    /// Characters read per file, the rest ignored (default 200 000).
    pub max_chars_per_file: usize,
}

impl BuildOptions {
    /// lazytools' defaults for skill `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: None,
            chunk_size: 1800,
            overlap: 180,
            extensions: DEFAULT_EXTENSIONS.iter().map(|e| e.to_string()).collect(),
            copy_sources: false,
            usage_notes: None,
            force: false,
            max_chars_per_file: 200_000,
        }
    }
}

/// lazytools' `_slugify` (docs/FORMATS.md §2.1): strip, lower-case, runs of non-`[a-z0-9]` → `-`,
/// trim `-`; empty → `skill`.
pub fn slug(name: &str) -> String {
    let lower = pystr::strip(name).to_lowercase();
    let mut out = String::new();
    for c in lower.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let s = out.trim_matches('-');
    if s.is_empty() {
        "skill".into()
    } else {
        s.to_string()
    }
}

/// Robertson IDF of every token (docs/FORMATS.md §2.7): `ln((N − df + 0.5)/(df + 0.5) + 1)` with df
/// the number of chunks whose token set contains it; tokens in order of first occurrence.
pub fn build_idf(chunks: &[DocChunk]) -> Vec<(String, f64)> {
    let mut order: Vec<&str> = Vec::new();
    let mut df: HashMap<&str, u64> = HashMap::new();
    for c in chunks {
        let mut seen = std::collections::HashSet::new();
        for t in &c.tokens {
            if seen.insert(t.as_str()) {
                let e = df.entry(t.as_str()).or_insert(0);
                if *e == 0 {
                    order.push(t.as_str());
                }
                *e += 1;
            }
        }
    }
    let n = chunks.len() as u64;
    order
        .into_iter()
        .map(|t| {
            let f = df.get(t).copied().unwrap_or(0);
            (
                t.to_string(),
                ((n - f) as f64 + 0.5) / (f as f64 + 0.5) + 1.0,
            )
        })
        .map(|(t, x)| (t, x.ln()))
        .collect()
}

/// Read a file as lazytools does: UTF-8 with invalid bytes dropped, universal newlines
/// (CRLF/CR → LF), first `max_chars` characters.
pub fn read_doc(path: &Path, max_chars: usize) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    let mut text = String::with_capacity(bytes.len());
    for piece in bytes.utf8_chunks() {
        text.push_str(piece.valid());
    }
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    Ok(pystr::take_chars(&text, max_chars).to_string())
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |e| Error::io(path, e)
}

/// Build a lazytools bundle from the folders `inputs` into `output_root/<slug(name)>/` and
/// return that folder. Writes `SKILL.md`, `manifest.json`, `vocab.json`, `chunks.jsonl` (and
/// `sources/` with `copy_sources`) exactly as lazytools does (docs/FORMATS.md §2.1–2.7, §2.10).
///
/// Errors: [`Error::Usage`] when an input is not a folder or nothing indexable is found (an
/// existing bundle has then already been removed, as in lazytools); [`Error::Refused`] when
/// the bundle folder exists and `force` is off; [`Error::Io`] on write failures. Unreadable
/// input files are skipped, as lazytools does.
pub fn build_bundle(
    inputs: &[PathBuf],
    output_root: &Path,
    opts: &BuildOptions,
) -> Result<PathBuf, Error> {
    let roots = input_roots(inputs)?;
    let dir = clear_bundle_dir(output_root, opts)?;
    let (indexed, chunks) = collect_chunks(&roots, opts);
    if chunks.is_empty() {
        return Err(Error::Usage(
            "no indexable documentation found in the provided folders".into(),
        ));
    }
    write_bundle(&dir, &roots, &indexed, &chunks, opts)?;
    if opts.copy_sources {
        copy_sources(&dir, &roots, &indexed)?;
    }
    Ok(dir)
}

/// The input folders, canonical; an input that is not a folder, or none, is a usage error.
fn input_roots(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut roots = Vec::new();
    for p in inputs {
        match std::fs::canonicalize(p) {
            Ok(r) if r.is_dir() => roots.push(r),
            _ => return Err(Error::Usage(format!("not a directory: {}", p.display()))),
        }
    }
    if roots.is_empty() {
        return Err(Error::Usage("no input folders given".into()));
    }
    Ok(roots)
}

/// The bundle's folder `<output_root>/<slug(name)>` (the root created), an existing one
/// removed with `force`, refused without.
fn clear_bundle_dir(output_root: &Path, opts: &BuildOptions) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(output_root).map_err(io(output_root))?;
    let out_root = std::fs::canonicalize(output_root).map_err(io(output_root))?;
    let dir = out_root.join(slug(&opts.name));
    if std::fs::symlink_metadata(&dir).is_ok() {
        if !opts.force {
            return Err(Error::Refused(format!(
                "{} already exists; use --force to replace it",
                dir.display()
            )));
        }
        let meta = std::fs::symlink_metadata(&dir).map_err(io(&dir))?;
        if meta.is_dir() {
            std::fs::remove_dir_all(&dir).map_err(io(&dir))?;
        } else {
            std::fs::remove_file(&dir).map_err(io(&dir))?;
        }
    }
    Ok(dir)
}

/// The chunks of every readable document of `roots`, and each indexed file with the
/// index of its root (unreadable files and files without chunks are skipped).
fn collect_chunks(
    roots: &[PathBuf],
    opts: &BuildOptions,
) -> (Vec<(PathBuf, usize)>, Vec<DocChunk>) {
    let mut indexed: Vec<(PathBuf, usize)> = Vec::new();
    let mut chunks: Vec<DocChunk> = Vec::new();
    for (ri, root) in roots.iter().enumerate() {
        for path in walk::iter_docs(root, &opts.extensions) {
            let Ok(text) = read_doc(&path, opts.max_chars_per_file) else {
                continue;
            };
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let got = make_chunks(
                &path.to_string_lossy(),
                &name,
                &text,
                opts.chunk_size,
                opts.overlap,
            );
            if got.is_empty() {
                continue;
            }
            chunks.extend(got);
            indexed.push((path, ri));
        }
    }
    (indexed, chunks)
}

/// Write `SKILL.md`, `manifest.json`, `vocab.json` and `chunks.jsonl` into `dir`.
fn write_bundle(
    dir: &Path,
    roots: &[PathBuf],
    indexed: &[(PathBuf, usize)],
    chunks: &[DocChunk],
    opts: &BuildOptions,
) -> Result<(), Error> {
    let indexed_files: Vec<String> = indexed
        .iter()
        .map(|(p, _)| p.to_string_lossy().into_owned())
        .collect();
    let source_dirs: Vec<String> = roots
        .iter()
        .map(|r| r.to_string_lossy().into_owned())
        .collect();
    let description = match opts.description.as_deref() {
        Some(d) if !d.is_empty() => d.to_string(),
        _ => format!(
            "Documentation skill built from {} files.",
            indexed_files.len()
        ),
    };
    let total: u64 = chunks.iter().map(|c| c.doc_len as u64).sum();
    let avgdl = total as f64 / chunks.len() as f64;
    let idf = build_idf(chunks);

    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let skill = serialize::skill_md(&serialize::SkillMdIn {
        name: &opts.name,
        description: &description,
        usage_notes: opts.usage_notes.as_deref().unwrap_or(""),
        file_count: indexed_files.len(),
        total_chunks: chunks.len(),
        source_dirs: &source_dirs,
    });
    let manifest = serialize::manifest_json(&serialize::ManifestOut {
        name: &opts.name,
        description: &description,
        source_dirs: &source_dirs,
        indexed_files: &indexed_files,
        total_chunks: chunks.len(),
        avgdl,
        extensions: &opts.extensions,
        version: BUNDLE_VERSION,
        created_by: CREATED_BY,
    });
    let mut lines = String::new();
    for c in chunks {
        serialize::chunk_line(c, &mut lines);
    }
    for (file, text) in [
        ("SKILL.md", skill),
        ("manifest.json", manifest),
        ("vocab.json", serialize::vocab_json(&idf)),
        ("chunks.jsonl", lines),
    ] {
        let p = dir.join(file);
        std::fs::write(&p, text).map_err(io(&p))?;
    }
    Ok(())
}

/// Copy each indexed file to `sources/<root folder name>/<path below the root>`.
fn copy_sources(dir: &Path, roots: &[PathBuf], indexed: &[(PathBuf, usize)]) -> Result<(), Error> {
    let base = dir.join("sources");
    std::fs::create_dir_all(&base).map_err(io(&base))?;
    for (path, ri) in indexed {
        let root = &roots[*ri];
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let root_name = root.file_name().map(PathBuf::from).unwrap_or_default();
        let dest = base.join(root_name).join(rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        std::fs::copy(path, &dest).map_err(io(&dest))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_like_lazytools() {
        assert_eq!(slug("Hono Docs"), "hono-docs");
        assert_eq!(slug("  --Über API v2!! "), "ber-api-v2");
        assert_eq!(slug("***"), "skill");
    }

    #[test]
    fn idf_is_robertson_plus_one() {
        let c = |toks: &[&str]| DocChunk {
            path: String::new(),
            title: String::new(),
            heading: String::new(),
            text: String::new(),
            tokens: toks.iter().map(|t| t.to_string()).collect(),
            doc_len: toks.len(),
            ordinal: 0,
        };
        let idf = build_idf(&[c(&["a", "b", "a"]), c(&["b"])]);
        assert_eq!(
            idf[0],
            ("a".to_string(), ((2.0 - 1.0 + 0.5) / 1.5 + 1.0_f64).ln())
        );
        assert_eq!(
            idf[1],
            ("b".to_string(), ((0.0 + 0.5) / 2.5 + 1.0_f64).ln())
        );
    }
}
