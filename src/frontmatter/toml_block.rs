//! TOML front matter (Hugo's `+++` fences, docs/FORMATS.md §9.1): found at the start of a
//! markdown file, read with the `toml` crate into JSON metadata, and kept out of the body
//! (sections, summaries, retrieved brief text) while its bytes still count in the file.
//! Read only: `fm set`/`unset` and the editor form edit YAML frontmatter alone.

use std::ops::Range;

use serde_json::{Map, Value as Json};

use super::lines::{next_break, split_until};

/// A `+++` front matter block.
#[derive(Clone, Debug, PartialEq)]
pub struct TomlFrontmatter {
    /// Bytes from the opening `+++` through the closing `+++` line (including its line
    /// break); the body starts at `block.end`. Offsets into the whole text (BOM included).
    pub block: Range<usize>,
    /// Bytes of the TOML between the fences.
    pub toml: Range<usize>,
    /// The top-level keys (a JSON map: sorted by key): strings, numbers and booleans as JSON scalars,
    /// dates and times as their TOML text (`2024-05-01T10:00:00Z`), arrays and tables as
    /// JSON arrays and objects. Empty when the TOML does not parse.
    pub meta: Map<String, Json>,
    /// Problems as (1-based file line, message): a TOML syntax error, at its line.
    pub warnings: Vec<(u32, String)>,
}

/// A fence line: `+++` at column 0, trailing spaces and tabs allowed.
fn is_fence(line: &str) -> bool {
    line.trim_end_matches([' ', '\t']) == "+++"
}

/// The TOML front matter at the start of `text` (after an optional BOM), or `None` when the
/// first line is not `+++` or no later `+++` line closes it (an unclosed block stays body
/// text). Line breaks are `\n`, `\r\n` or a lone `\r`. Never panics; a TOML syntax error
/// keeps the block (it is still front matter, not prose) with a warning and no keys.
pub fn parse_toml(text: &str) -> Option<TomlFrontmatter> {
    let from = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let first_end = next_break(text.as_bytes(), from).unwrap_or(text.len());
    if !is_fence(&text[from..first_end]) {
        return None;
    }
    let (lines, closed) = split_until(text, from, is_fence);
    if !closed || lines.len() < 2 {
        return None;
    }
    let close = lines[lines.len() - 1];
    let toml = lines[1].start.min(close.start)..close.start;
    let mut meta = Map::new();
    let mut warnings = Vec::new();
    // TOML knows only `\n` and `\r\n`: in a text with a lone `\r` (classic Mac OS) every
    // `\r` becomes `\n` (a CRLF then reads as a blank line), which keeps every byte offset.
    let raw = &text[toml.clone()];
    let src: std::borrow::Cow<str> = if lone_cr(raw) {
        raw.replace('\r', "\n").into()
    } else {
        raw.into()
    };
    match toml::from_str::<toml::Table>(&src) {
        Ok(table) => {
            for (k, v) in table {
                meta.insert(k, to_json(v));
            }
        }
        Err(e) => {
            let at = e.span().map_or(toml.start, |s| toml.start + s.start);
            let line = 1 + lines.iter().take_while(|l| l.end <= at).count();
            let msg = e
                .message()
                .lines()
                .next()
                .unwrap_or("invalid TOML")
                .to_string();
            warnings.push((
                u32::try_from(line).unwrap_or(u32::MAX),
                format!("TOML front matter does not parse: {msg}; its keys are not read"),
            ));
        }
    }
    Some(TomlFrontmatter {
        block: from..close.end,
        toml,
        meta,
        warnings,
    })
}

/// True when `s` holds a `\r` that is not followed by `\n`.
fn lone_cr(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter()
        .enumerate()
        .any(|(i, &c)| c == b'\r' && b.get(i + 1) != Some(&b'\n'))
}

fn to_json(v: toml::Value) -> Json {
    match v {
        toml::Value::String(s) => Json::String(s),
        toml::Value::Integer(i) => Json::from(i),
        toml::Value::Float(f) => serde_json::Number::from_f64(f)
            .map_or_else(|| Json::String(f.to_string()), Json::Number),
        toml::Value::Boolean(b) => Json::Bool(b),
        toml::Value::Datetime(d) => Json::String(d.to_string()),
        toml::Value::Array(a) => Json::Array(a.into_iter().map(to_json).collect()),
        toml::Value::Table(t) => {
            Json::Object(t.into_iter().map(|(k, v)| (k, to_json(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugo_block_reads_title_date_tags() {
        let t = "+++\ntitle = \"Deploy\"\ndate = 2024-05-01T10:00:00Z\ntags = [\"a\", \"b\"]\n+++\n# Deploy\n";
        let f = parse_toml(t).unwrap();
        assert_eq!(f.block, 0..t.find("# Deploy").unwrap());
        assert_eq!(
            serde_json::Value::Object(f.meta).to_string(),
            r#"{"date":"2024-05-01T10:00:00Z","tags":["a","b"],"title":"Deploy"}"#
        );
        assert!(f.warnings.is_empty());
    }

    #[test]
    fn unclosed_or_indented_fence_is_not_front_matter() {
        assert_eq!(parse_toml("+++\ntitle = \"x\"\n# A\n"), None);
        assert_eq!(parse_toml("+++\ntitle = \"x\"\n  +++\n"), None);
        assert_eq!(parse_toml("# A\n+++\n+++\n"), None);
    }

    #[test]
    fn bad_toml_keeps_the_block_with_a_warning_on_its_line() {
        let f = parse_toml("+++\r\ntitle = \"x\"\r\nbroken line\r\n+++\r\nbody").unwrap();
        assert_eq!(f.block.end, 36);
        assert!(f.meta.is_empty());
        assert_eq!(f.warnings.len(), 1);
        assert_eq!(f.warnings[0].0, 3, "{:?}", f.warnings);
    }

    #[test]
    fn cr_only_block_is_read() {
        let f = parse_toml("+++\rtitle = \"x\"\r+++\rbody").unwrap();
        assert_eq!(f.block, 0..20);
        assert_eq!(f.meta["title"], "x");
    }
}
