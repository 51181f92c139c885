//! Reading the four files of a lazytools bundle (docs/FORMATS.md §2.2–2.4) into plain records, with
//! every problem turned into a [`Problem`] naming the file (and 1-based line) instead of an
//! error. No corpus nodes are made here; see [`super::load`].

use std::collections::HashMap;
use std::path::Path;

use super::pyjson::{self as json, Json};
use crate::model::{BundleStats, NodeId};

/// Manifest fields (docs/FORMATS.md §2.2). Missing or malformed fields are reported and replaced by
/// the fallback noted on each field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifest {
    /// `name` (raw skill name); fallback: the bundle folder's name.
    pub name: String,
    /// `description`; fallback: empty.
    pub description: String,
    /// `source_dirs` (absolute input roots at build time); fallback: empty.
    pub source_dirs: Vec<String>,
    /// `indexed_files` (absolute paths); fallback: empty.
    pub indexed_files: Vec<String>,
    /// `total_chunks`; fallback: the number of chunks read.
    pub total_chunks: u64,
    /// `avgdl` (mean `doc_len`, tokens); fallback (missing, not a number, or ≤ 0): the mean
    /// `doc_len` of the chunks read, or 1.0 without chunks.
    pub avgdl: f64,
    /// `extensions`; fallback: empty.
    pub extensions: Vec<String>,
    /// `version` (default `"3.0.0"`, as lazytools' dataclass).
    pub version: String,
    /// `created_by` (default `"lazybridge.external_tools.doc_skills"`).
    pub created_by: String,
}

/// One chunks.jsonl record (docs/FORMATS.md §2.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkRecord {
    /// Absolute source path at build time.
    pub path: String,
    /// Document title.
    pub title: String,
    /// Section heading (or `"<h> [k]"`, or the title).
    pub heading: String,
    /// Chunk text.
    pub text: String,
    /// lazytools tokens of `text`.
    pub tokens: Vec<String>,
    /// `len(tokens)` as stored (lazytools scores with this value).
    pub doc_len: u64,
    /// Index of the chunk within its file.
    pub ordinal: u64,
    /// 1-based line in chunks.jsonl.
    pub line: u32,
}

/// A load problem: the bundle file it concerns (`manifest.json`, …), 1-based line, message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// File name inside the bundle folder.
    pub file: &'static str,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// One-line message.
    pub message: String,
}

/// Everything read from one bundle folder.
#[derive(Clone, Debug, Default)]
pub struct BundleFiles {
    /// manifest.json (with fallbacks).
    pub manifest: Manifest,
    /// vocab.json: token → IDF (empty when missing: lazytools then scores every term 0.5).
    pub idf: HashMap<String, f64>,
    /// Valid chunks.jsonl records in file order.
    pub chunks: Vec<ChunkRecord>,
    /// SKILL.md as lazytools reads it (UTF-8, universal newlines: CRLF/CR → LF).
    pub skill_md: Option<String>,
    /// SKILL.md raw bytes (for the corpus source, whose offsets are file offsets).
    pub skill_md_bytes: Option<Vec<u8>>,
    /// Problems found, in discovery order.
    pub problems: Vec<Problem>,
}

impl BundleFiles {
    /// The scoring data of this bundle, with `chunk_nodes[i]` the node of `chunks[i]`
    /// (pass an empty vector when there are no nodes; [`crate::index::lazytools::rank`]
    /// works on indices).
    pub fn stats(&self, chunk_nodes: Vec<NodeId>) -> BundleStats {
        BundleStats {
            name: self.manifest.name.clone(),
            avgdl: self.manifest.avgdl,
            idf: self.idf.clone(),
            skill_md: self.skill_md.clone(),
            chunks: chunk_nodes,
            chunk_tokens: self.chunks.iter().map(|c| c.tokens.clone()).collect(),
            chunk_paths: self.chunks.iter().map(|c| c.path.clone()).collect(),
            chunk_headings: self.chunks.iter().map(|c| c.heading.clone()).collect(),
            chunk_texts: self.chunks.iter().map(|c| c.text.clone()).collect(),
            chunk_doc_lens: self.chunks.iter().map(|c| c.doc_len).collect(),
        }
    }
}

/// Python's universal-newline translation (`read_text`): CRLF and lone CR become LF.
pub fn universal_newlines(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

fn read_text(
    dir: &Path,
    file: &'static str,
    problems: &mut Vec<Problem>,
) -> Option<(String, Vec<u8>)> {
    let path = dir.join(file);
    match crate::formats::walk::inputs::read(&path) {
        Ok(bytes) => {
            let text = match std::str::from_utf8(&bytes) {
                Ok(s) => s.to_string(),
                Err(e) => {
                    problems.push(Problem {
                        file,
                        line: None,
                        message: format!(
                            "not valid UTF-8 (byte {}); invalid bytes replaced",
                            e.valid_up_to()
                        ),
                    });
                    String::from_utf8_lossy(&bytes).into_owned()
                }
            };
            Some((text, bytes))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            problems.push(Problem {
                file,
                line: None,
                message: format!("cannot read: {e}"),
            });
            None
        }
    }
}

/// Read the bundle in `dir`. Never fails: problems are collected in
/// [`BundleFiles::problems`]. Missing manifest.json/vocab.json/chunks.jsonl are problems;
/// a missing SKILL.md is not (it is optional).
pub fn read_bundle(dir: &Path) -> BundleFiles {
    let mut out = BundleFiles::default();
    let probs = &mut out.problems;

    let chunks_text = read_text(dir, "chunks.jsonl", probs);
    if chunks_text.is_none() && !probs.iter().any(|p| p.file == "chunks.jsonl") {
        probs.push(Problem {
            file: "chunks.jsonl",
            line: None,
            message: "missing: the bundle has no chunks".into(),
        });
    }
    if let Some((text, _)) = &chunks_text {
        out.chunks = parse_chunks(text, probs);
    }

    let folder = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let manifest_text = read_text(dir, "manifest.json", probs);
    if manifest_text.is_none() && !probs.iter().any(|p| p.file == "manifest.json") {
        probs.push(Problem {
            file: "manifest.json",
            line: None,
            message:
                "missing: name and avgdl fall back to the folder name and the chunks' mean doc_len"
                    .into(),
        });
    }
    out.manifest = parse_manifest(
        manifest_text.as_ref().map(|t| t.0.as_str()),
        &folder,
        &out.chunks,
        probs,
    );

    match read_text(dir, "vocab.json", probs) {
        Some((text, _)) => out.idf = parse_vocab(&text, probs),
        None if !probs.iter().any(|p| p.file == "vocab.json") => probs.push(Problem {
            file: "vocab.json",
            line: None,
            message: "missing: every term scores with IDF 0.5, as lazytools does".into(),
        }),
        None => {}
    }

    if let Some((text, bytes)) = read_text(dir, "SKILL.md", probs) {
        out.skill_md = Some(universal_newlines(&text));
        out.skill_md_bytes = Some(bytes);
    }
    out
}

/// Parse chunks.jsonl: one JSON object per line with exactly the keys `path`, `title`,
/// `heading`, `text`, `tokens`, `doc_len`, `ordinal`. A malformed line is reported with its
/// 1-based line number and skipped; unknown extra keys are reported and ignored.
pub fn parse_chunks(text: &str, problems: &mut Vec<Problem>) -> Vec<ChunkRecord> {
    let mut out = Vec::new();
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    for (i, raw) in lines.iter().enumerate() {
        let line = (i + 1) as u32;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let mut bad = |message: String| {
            problems.push(Problem {
                file: "chunks.jsonl",
                line: Some(line),
                message,
            });
        };
        if raw.trim().is_empty() {
            bad("blank line skipped".into());
            continue;
        }
        match json::parse(raw)
            .map_err(|e| format!("malformed JSON: {e}"))
            .and_then(|v| chunk_from_json(&v, line))
        {
            Ok((rec, extra)) => {
                for k in extra {
                    bad(format!("unknown key `{k}` ignored"));
                }
                out.push(rec);
            }
            Err(msg) => bad(format!("{msg}; line skipped")),
        }
    }
    out
}

const CHUNK_KEYS: [&str; 7] = [
    "path", "title", "heading", "text", "tokens", "doc_len", "ordinal",
];

fn chunk_from_json(v: &Json, line: u32) -> Result<(ChunkRecord, Vec<String>), String> {
    let Json::Obj(kv) = v else {
        return Err(format!("expected an object, found {}", v.type_name()));
    };
    let s = |k: &str| -> Result<String, String> {
        match v.get(k) {
            Some(Json::Str(s)) => Ok(s.clone()),
            Some(o) => Err(format!("`{k}` must be a string, found {}", o.type_name())),
            None => Err(format!("missing key `{k}`")),
        }
    };
    let n = |k: &str| -> Result<u64, String> {
        match v.get(k) {
            Some(j) => j
                .as_u64()
                .ok_or_else(|| format!("`{k}` must be a non-negative integer")),
            None => Err(format!("missing key `{k}`")),
        }
    };
    let tokens = match v.get("tokens") {
        Some(Json::Arr(items)) => items
            .iter()
            .map(|t| t.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| "`tokens` must be an array of strings".to_string())?,
        Some(o) => {
            return Err(format!(
                "`tokens` must be an array, found {}",
                o.type_name()
            ));
        }
        None => return Err("missing key `tokens`".into()),
    };
    let rec = ChunkRecord {
        path: s("path")?,
        title: s("title")?,
        heading: s("heading")?,
        text: s("text")?,
        tokens,
        doc_len: n("doc_len")?,
        ordinal: n("ordinal")?,
        line,
    };
    let extra = kv
        .iter()
        .filter(|(k, _)| !CHUNK_KEYS.contains(&k.as_str()))
        .map(|(k, _)| k.clone())
        .collect();
    Ok((rec, extra))
}

/// Parse vocab.json: one flat object token → IDF number. Non-number values are reported
/// and skipped.
pub fn parse_vocab(text: &str, problems: &mut Vec<Problem>) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    match json::parse(text) {
        Ok(Json::Obj(kv)) => {
            let mut bad = 0usize;
            for (k, v) in kv {
                match v.as_f64() {
                    Some(x) => {
                        out.insert(k, x);
                    }
                    None => bad += 1,
                }
            }
            if bad > 0 {
                problems.push(Problem {
                    file: "vocab.json",
                    line: None,
                    message: format!("{bad} entries without a number IDF skipped"),
                });
            }
        }
        Ok(other) => problems.push(Problem {
            file: "vocab.json",
            line: None,
            message: format!(
                "expected an object token → IDF, found {}",
                other.type_name()
            ),
        }),
        Err(e) => {
            problems.push(Problem {
                file: "vocab.json",
                line: None,
                message: format!("malformed JSON: {e}"),
            });
        }
    }
    out
}

const MANIFEST_KEYS: [&str; 9] = [
    "name",
    "description",
    "source_dirs",
    "indexed_files",
    "total_chunks",
    "avgdl",
    "extensions",
    "version",
    "created_by",
];

/// Parse manifest.json (strict keys, docs/FORMATS.md §2.2) with fallbacks; `text` is `None` when
/// the file is missing (already reported).
pub fn parse_manifest(
    text: Option<&str>,
    folder: &str,
    chunks: &[ChunkRecord],
    problems: &mut Vec<Problem>,
) -> Manifest {
    let mean = mean_doc_len(chunks);
    let mut m = Manifest {
        name: folder.to_string(),
        total_chunks: chunks.len() as u64,
        avgdl: mean,
        version: "3.0.0".into(),
        created_by: "lazybridge.external_tools.doc_skills".into(),
        ..Manifest::default()
    };
    let Some(text) = text else { return m };
    let mut warn = |message: String| {
        problems.push(Problem {
            file: "manifest.json",
            line: None,
            message,
        });
    };
    let Some(v) = manifest_object(text, &mut warn) else {
        return m;
    };
    warn_unknown_manifest_keys(&v, &mut warn);
    read_manifest_strings(&v, &mut m, &mut warn);
    read_manifest_lists(&v, &mut m, &mut warn);
    read_total_chunks(&v, &mut m, chunks.len(), &mut warn);
    read_avgdl(&v, &mut m, mean, &mut warn);
    m
}

/// The mean `doc_len` of `chunks` (tokens), or 1.0 without chunks.
fn mean_doc_len(chunks: &[ChunkRecord]) -> f64 {
    if chunks.is_empty() {
        1.0
    } else {
        chunks.iter().map(|c| c.doc_len).sum::<u64>() as f64 / chunks.len() as f64
    }
}

/// The manifest's JSON object; `None` (after a warning) when `text` is malformed JSON or
/// holds something else than an object.
fn manifest_object(text: &str, warn: &mut dyn FnMut(String)) -> Option<Json> {
    match json::parse(text) {
        Ok(v @ Json::Obj(_)) => Some(v),
        Ok(other) => {
            warn(format!("expected an object, found {}", other.type_name()));
            None
        }
        Err(e) => {
            warn(format!("malformed JSON: {e}"));
            None
        }
    }
}

/// Warn about each key of the manifest object `v` that lazytools does not know.
fn warn_unknown_manifest_keys(v: &Json, warn: &mut dyn FnMut(String)) {
    if let Json::Obj(kv) = v {
        for (k, _) in kv
            .iter()
            .filter(|(k, _)| !MANIFEST_KEYS.contains(&k.as_str()))
        {
            warn(format!(
                "unknown key `{k}` (lazytools refuses such a manifest)"
            ));
        }
    }
}

/// Read the string fields (`name`, `description` required; `version`, `created_by`
/// optional) of `v` into `m`, warning about a missing required one or a non-string.
fn read_manifest_strings(v: &Json, m: &mut Manifest, warn: &mut dyn FnMut(String)) {
    let string =
        |k: &str, dst: &mut String, required: bool, warn: &mut dyn FnMut(String)| match v.get(k) {
            Some(Json::Str(s)) => *dst = s.clone(),
            Some(o) => warn(format!("`{k}` must be a string, found {}", o.type_name())),
            None if required => warn(format!("missing key `{k}`")),
            None => {}
        };
    string("name", &mut m.name, true, warn);
    string("description", &mut m.description, true, warn);
    string("version", &mut m.version, false, warn);
    string("created_by", &mut m.created_by, false, warn);
}

/// Read the string-array fields (`source_dirs`, `indexed_files`, `extensions`) of `v` into
/// `m`, warning about a missing one or one that is not an array of strings.
fn read_manifest_lists(v: &Json, m: &mut Manifest, warn: &mut dyn FnMut(String)) {
    let list = |k: &str, dst: &mut Vec<String>, warn: &mut dyn FnMut(String)| match v.get(k) {
        Some(Json::Arr(items)) => match items
            .iter()
            .map(|t| t.as_str().map(str::to_string))
            .collect()
        {
            Some(l) => *dst = l,
            None => warn(format!("`{k}` must be an array of strings")),
        },
        Some(o) => warn(format!("`{k}` must be an array, found {}", o.type_name())),
        None => warn(format!("missing key `{k}`")),
    };
    list("source_dirs", &mut m.source_dirs, warn);
    list("indexed_files", &mut m.indexed_files, warn);
    list("extensions", &mut m.extensions, warn);
}

/// Read `total_chunks` of `v` into `m`, warning when it is missing, not a non-negative
/// integer, or differs from the `valid` chunks read.
fn read_total_chunks(v: &Json, m: &mut Manifest, valid: usize, warn: &mut dyn FnMut(String)) {
    match v.get("total_chunks").map(|j| j.as_u64()) {
        Some(Some(n)) => {
            m.total_chunks = n;
            if n != valid as u64 {
                warn(format!(
                    "total_chunks is {n} but chunks.jsonl has {valid} valid chunks"
                ));
            }
        }
        Some(None) => warn("`total_chunks` must be a non-negative integer".into()),
        None => warn("missing key `total_chunks`".into()),
    }
}

/// Read `avgdl` of `v` into `m` when it is a positive number; else warn that the chunks'
/// `mean` (already in `m`) is used.
fn read_avgdl(v: &Json, m: &mut Manifest, mean: f64, warn: &mut dyn FnMut(String)) {
    match v.get("avgdl").map(|j| j.as_f64()) {
        Some(Some(x)) if x.is_finite() && x > 0.0 => m.avgdl = x,
        Some(Some(x)) => {
            warn(format!(
                "`avgdl` is {x}, not a positive number; using the chunks' mean {mean}"
            ));
        }
        Some(None) => warn(format!(
            "`avgdl` must be a number; using the chunks' mean {mean}"
        )),
        None => warn(format!(
            "missing key `avgdl`; using the chunks' mean {mean}"
        )),
    }
}
