//! Serialising a bundle exactly as lazytools writes it (docs/FORMATS.md §2.2–2.4, §2.10):
//! `json.dumps(…, ensure_ascii=False, indent=2)` for manifest.json and vocab.json (no final
//! newline), one `json.dumps(…, ensure_ascii=False)` line per chunk (separators `", "` and
//! `": "`), and the SKILL.md template.

use super::chunk::DocChunk;
use crate::formats::lazytools::pystr::{float_repr, json_str, strip};
use crate::index::lazytools::{B, K1};

/// Manifest fields in lazytools' key order (docs/FORMATS.md §2.2).
#[derive(Clone, Debug, PartialEq)]
pub struct ManifestOut<'a> {
    /// Skill name as given.
    pub name: &'a str,
    /// Description (already defaulted).
    pub description: &'a str,
    /// Absolute input roots.
    pub source_dirs: &'a [String],
    /// Absolute paths of files that gave ≥ 1 chunk.
    pub indexed_files: &'a [String],
    /// Number of chunks.
    pub total_chunks: usize,
    /// Mean `doc_len`.
    pub avgdl: f64,
    /// Eligible extensions as given.
    pub extensions: &'a [String],
    /// Bundle format version (`"3.0.0"`).
    pub version: &'a str,
    /// Writer id.
    pub created_by: &'a str,
}

fn str_list(items: &[String], out: &mut String) {
    if items.is_empty() {
        out.push_str("[]");
        return;
    }
    out.push_str("[\n");
    for (i, s) in items.iter().enumerate() {
        out.push_str("    ");
        json_str(s, out);
        out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
    }
    out.push_str("  ]");
}

/// manifest.json text (indent 2, no trailing newline).
pub fn manifest_json(m: &ManifestOut<'_>) -> String {
    let mut o = String::from("{\n");
    let key = |k: &str, o: &mut String| {
        o.push_str("  ");
        json_str(k, o);
        o.push_str(": ");
    };
    key("name", &mut o);
    json_str(m.name, &mut o);
    o.push_str(",\n");
    key("description", &mut o);
    json_str(m.description, &mut o);
    o.push_str(",\n");
    key("source_dirs", &mut o);
    str_list(m.source_dirs, &mut o);
    o.push_str(",\n");
    key("indexed_files", &mut o);
    str_list(m.indexed_files, &mut o);
    o.push_str(",\n");
    key("total_chunks", &mut o);
    o.push_str(&m.total_chunks.to_string());
    o.push_str(",\n");
    key("avgdl", &mut o);
    o.push_str(&float_repr(m.avgdl));
    o.push_str(",\n");
    key("extensions", &mut o);
    str_list(m.extensions, &mut o);
    o.push_str(",\n");
    key("version", &mut o);
    json_str(m.version, &mut o);
    o.push_str(",\n");
    key("created_by", &mut o);
    json_str(m.created_by, &mut o);
    o.push_str("\n}");
    o
}

/// vocab.json text: `{token: idf}` in the given order (indent 2, no trailing newline).
pub fn vocab_json(idf: &[(String, f64)]) -> String {
    if idf.is_empty() {
        return "{}".into();
    }
    let mut o = String::from("{\n");
    for (i, (k, v)) in idf.iter().enumerate() {
        o.push_str("  ");
        json_str(k, &mut o);
        o.push_str(": ");
        o.push_str(&float_repr(*v));
        o.push_str(if i + 1 < idf.len() { ",\n" } else { "\n" });
    }
    o.push('}');
    o
}

/// One chunks.jsonl line (with its `\n`).
pub fn chunk_line(c: &DocChunk, o: &mut String) {
    o.push_str("{\"path\": ");
    json_str(&c.path, o);
    o.push_str(", \"title\": ");
    json_str(&c.title, o);
    o.push_str(", \"heading\": ");
    json_str(&c.heading, o);
    o.push_str(", \"text\": ");
    json_str(&c.text, o);
    o.push_str(", \"tokens\": [");
    for (i, t) in c.tokens.iter().enumerate() {
        if i > 0 {
            o.push_str(", ");
        }
        json_str(t, o);
    }
    o.push_str("], \"doc_len\": ");
    o.push_str(&c.doc_len.to_string());
    o.push_str(", \"ordinal\": ");
    o.push_str(&c.ordinal.to_string());
    o.push_str("}\n");
}

/// Inputs of the SKILL.md template.
#[derive(Clone, Debug)]
pub struct SkillMdIn<'a> {
    /// Skill name as given.
    pub name: &'a str,
    /// Description (already defaulted).
    pub description: &'a str,
    /// Extra notes; blank → `No additional notes.`.
    pub usage_notes: &'a str,
    /// Number of indexed files.
    pub file_count: usize,
    /// Number of chunks.
    pub total_chunks: usize,
    /// Absolute input roots.
    pub source_dirs: &'a [String],
}

/// SKILL.md as lazytools writes it (docs/FORMATS.md §2.10): frontmatter `name`, `description`,
/// `retrieval`, then Purpose, Scope, Operating rules, Retrieval, Task modes, Additional notes.
pub fn skill_md(s: &SkillMdIn<'_>) -> String {
    let roots: Vec<String> = s.source_dirs.iter().map(|p| format!("- {p}")).collect();
    let (k1, b) = (float_repr(K1), float_repr(B));
    let notes = strip(s.usage_notes);
    let notes = if notes.is_empty() {
        "No additional notes."
    } else {
        notes
    };
    format!(
        "---
name: {name}
description: {description}
retrieval: BM25 (Robertson IDF, k1={k1}, b={b})
---

# {name}

## Purpose
{description}

## Scope
Grounded only in the documentation indexed from:
{roots}

## Operating rules
1. Classify the task intent before answering (answer / extract / locate / summarize).
2. Retrieve only the most relevant chunks — do not pad with peripheral material.
3. Answer exclusively from retrieved evidence.
4. Include source file paths in every answer.
5. If evidence is absent or weak, say so explicitly.
6. Do not invent APIs, parameters, classes, or behaviour not present in the indexed docs.

## Retrieval
- Algorithm : BM25 (Robertson IDF, k1={k1}, b={b})
- Chunking  : heading-aware for Markdown/RST, character-based fallback
- Indexed files  : {files}
- Indexed chunks : {chunks}

## Task modes
| Mode      | When to use                              | Output shape                      |
|-----------|------------------------------------------|-----------------------------------|
| answer    | Default — synthesise an answer           | Evidence bullets + source paths   |
| extract   | Need raw quotes from the docs            | Direct excerpts grouped by source |
| locate    | Just need the relevant file paths        | Ranked file list                  |
| summarize | High-level overview of a topic           | Compact bullets from top chunks   |

## Additional notes
{notes}
",
        name = s.name,
        description = s.description,
        roots = roots.join("\n"),
        files = s.file_count,
        chunks = s.total_chunks,
    )
}
