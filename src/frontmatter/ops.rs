//! `skillnav fm get|set|unset` as core functions: read a SKILL.md, edit one key
//! (dotted for nested maps), repair values strict YAML rejects, save atomically, and report
//! the changed lines. The CLI wiring (clap, exit codes: 2 for `Error::Refused`) lives in
//! the binary.

use std::path::{Path, PathBuf};

use super::diff::{self, DiffLine};
use super::edit::{self, EditValue};
use super::entry::{Value, ValueStyle};
use super::save::{self, SaveReport};
use crate::error::{Error, Result};

/// Output form of `fm get`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GetMode {
    /// The value as text: a scalar as read (blocks folded per YAML), a list one item per
    /// line, a map as `key: value` lines (nested maps indented two spaces per level).
    Text,
    /// The value as JSON: a string, an array of strings, or an object in file order.
    Json,
    /// The value exactly as written in the file (quotes, block header and indentation).
    Raw,
}

/// What `fm set` / `fm unset` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetReport {
    /// The file as given.
    pub path: PathBuf,
    /// The changed lines (empty when the value was already set; nothing was written then).
    pub diff: Vec<DiffLine>,
    /// 1-based lines of values quoted so the frontmatter parses as strict YAML.
    pub repaired: Vec<u32>,
    /// The save (None when nothing changed); holds the previous bytes for undo.
    pub save: Option<SaveReport>,
}

/// `fm get`: the value of `key_path` in the SKILL.md at `path`.
/// Errors: `Io` when unreadable; `Refused` when not a regular file, over 16 MiB or binary
/// ([`save::load`]); `Usage` when there is no frontmatter or no such key.
pub fn fm_get(path: &Path, key_path: &str, mode: GetMode) -> Result<String> {
    let bytes = save::load(path)?.bytes;
    let shown = path.display();
    let node = edit::get(&bytes, key_path)
        .map_err(|e| Error::Usage(format!("{shown}: {e}")))?
        .ok_or_else(|| Error::Usage(format!("{shown}: no key `{key_path}` in the frontmatter")))?;
    Ok(match mode {
        GetMode::Text => text_of(&node.value),
        GetMode::Json => json_of(&node.value),
        GetMode::Raw => String::from_utf8_lossy(&bytes[node.value_span.clone()]).into_owned(),
    })
}

/// `v` as `fm get` prints it ([`GetMode::Text`]), written into one buffer so a deeply
/// nested map costs its output size, not its size times its depth.
fn text_of(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Map(m) => map_text(&mut out, m, 0),
        Value::List(l) => out.push_str(&l.join("\n")),
        Value::Str(t) => out.push_str(t),
    }
    out
}

fn map_text(out: &mut String, m: &[(String, Value)], depth: usize) {
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for _ in 0..depth {
            out.push_str("  ");
        }
        out.push_str(k);
        out.push(':');
        match v {
            Value::Map(inner) => {
                out.push('\n');
                map_text(out, inner, depth + 1);
            }
            other => {
                out.push(' ');
                out.push_str(&other.as_text());
            }
        }
    }
}

/// `v` as JSON ([`GetMode::Json`]): compact, object keys in file order, one buffer.
fn json_of(v: &Value) -> String {
    let mut out = String::new();
    push_json(&mut out, v);
    out
}

fn push_json(out: &mut String, v: &Value) {
    let s = |out: &mut String, t: &str| {
        out.push_str(&serde_json::Value::String(t.to_string()).to_string());
    };
    match v {
        Value::Str(t) => s(out, t),
        Value::List(l) => {
            out.push('[');
            for (i, t) in l.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                s(out, t);
            }
            out.push(']');
        }
        Value::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                s(out, k);
                out.push(':');
                push_json(out, v);
            }
            out.push('}');
        }
    }
}

/// `fm set`: set `key_path` to `value` and save. When the key is currently a list (flow or
/// `- item` lines), `value` is split on commas into items (trimmed, empty items dropped);
/// otherwise it is a string (a `\n` makes it a block scalar). A set value or item is quoted
/// whenever a YAML 1.1 or 1.2 reader would not read it back as that exact string (`2.10`,
/// `no`, `~`, `2024-01-01`, `-x` → `'2.10'` …; [`super::quote::plain_safe`]). Values
/// elsewhere that strict YAML rejects (unquoted `: `) are quoted in the same save and listed
/// in `repaired`; other untouched values are never re-quoted (`version: 1.10` stays).
///
/// Errors: `Refused` (file changed while editing, read-only, permission denied, binary file
/// — a NUL byte in its first 8 KiB, unclosed frontmatter, value cannot be written
/// faithfully) — nothing is written; `Usage` for a bad
/// key path; `Io` for other I/O failures.
pub fn fm_set(path: &Path, key_path: &str, value: &str) -> Result<SetReport> {
    let file = save::load(path)?;
    let is_list = edit::get(&file.bytes, key_path)
        .map_err(|e| prefix(path, e))?
        .is_some_and(|n| matches!(n.style, ValueStyle::FlowList | ValueStyle::BlockList));
    let ev = if is_list {
        EditValue::List(
            value
                .split(',')
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .collect(),
        )
    } else {
        EditValue::Str(value.to_string())
    };
    let edited = edit::set(&file.bytes, key_path, &ev).map_err(|e| prefix(path, e))?;
    finish(&file, edited)
}

/// `fm unset`: remove `key_path` and save. Errors as [`fm_set`]; `Usage` when the key is
/// absent.
pub fn fm_unset(path: &Path, key_path: &str) -> Result<SetReport> {
    let file = save::load(path)?;
    let edited = edit::unset(&file.bytes, key_path).map_err(|e| prefix(path, e))?;
    finish(&file, edited)
}

fn prefix(path: &Path, e: Error) -> Error {
    let shown = path.display();
    match e {
        Error::Refused(m) => Error::Refused(format!("{shown}: {m}")),
        Error::Usage(m) => Error::Usage(format!("{shown}: {m}")),
        other => other,
    }
}

fn finish(file: &save::LoadedFile, edited: Vec<u8>) -> Result<SetReport> {
    let (new_bytes, repaired) = edit::repair(&edited);
    let diff = diff::line_diff(&file.bytes, &new_bytes);
    let save = if new_bytes == file.bytes {
        None
    } else {
        Some(save::save(file, &new_bytes)?)
    };
    Ok(SetReport {
        path: file.path.clone(),
        diff,
        repaired,
        save,
    })
}
