//! Files of a plain folder that no format claims and that are not markdown or `.txt`
//! (docs/FORMATS.md §8): YAML, JSON, TOML, code, `Makefile`, … become one text node each
//! (one search document, bytes and tokens); binaries become sized leaves (bytes counted,
//! never read, no tokens); a text file over `UNCLAIMED_TEXT_MAX_BYTES` (1 MiB) is listed with its
//! size only and counted among the files left out on purpose (`super::skipped`). A structured
//! file (YAML, JSON, TOML) whose top level is a mapping exposes its top-level scalar values
//! (and lists of scalars) as `meta`, so `status:implementable` filters them like ADRs.

use std::path::Path;

use serde_json::{Map, Value};

use super::loader::{Loader, file_size, merge_meta};
use super::meta_pool::{MetaPool, StructuredMeta};
use super::skipped::UNCLAIMED_TEXT_MAX_BYTES;
use crate::model::{Flag, Format, NodeId};

/// At most this many top-level keys of a structured file become `meta`.
const MAX_META_KEYS: usize = 32;

/// A `meta` string value longer than this (in chars) is left out.
const MAX_META_CHARS: usize = 200;

/// `meta` keys the walker or a format sets itself; a file's own key of that name is left
/// out so it cannot pose as one.
const RESERVED_META: [&str; 7] = [
    "alias_of",
    "note",
    "link_target",
    "target_bytes",
    "shadowed_by",
    "kind",
    "skipped",
];

/// Extensions (lower case) of formats that are binary by definition: listed with their
/// size without being opened.
const BINARY_EXTS: [&str; 44] = [
    "png", "jpg", "jpeg", "gif", "webp", "ico", "bmp", "tif", "tiff", "psd", "pdf", "zip", "gz",
    "tgz", "bz2", "xz", "zst", "7z", "tar", "rar", "jar", "war", "class", "so", "dylib", "dll",
    "exe", "o", "a", "wasm", "woff", "woff2", "ttf", "otf", "eot", "mp3", "mp4", "wav", "ogg",
    "mov", "webm", "pyc", "sqlite", "db",
];

/// Whether `name` has an extension of a binary format.
fn binary_by_name(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, e)| BINARY_EXTS.contains(&e.to_ascii_lowercase().as_str()))
}

impl Loader<'_> {
    /// An unclaimed, non-doc file of a plain folder (see the module docs): a text node, a
    /// binary leaf or, over the size cap, a leaf listed unread.
    pub(super) fn add_unclaimed_file(
        &mut self,
        parent: NodeId,
        name: &str,
        real: &Path,
        rel: &str,
    ) -> NodeId {
        let size = file_size(real);
        if binary_by_name(name) {
            return self.add_binary(parent, name, rel, size);
        }
        if size > UNCLAIMED_TEXT_MAX_BYTES {
            self.skipped.over_size_cap += 1;
            let id = self.add_asset(parent, name, rel, size);
            let n = self.corpus.node_mut(id);
            n.meta.insert(
                "note".into(),
                format!(
                    "not read: larger than {} MiB",
                    UNCLAIMED_TEXT_MAX_BYTES >> 20
                )
                .into(),
            );
            return id;
        }
        let id = self.add_doc_file(parent, name, real, rel, Format::Text);
        let corpus = &mut self.corpus;
        if corpus.node(id).flags.has(Flag::Binary) {
            // A NUL byte: a binary leaf, not a text file with a problem.
            let n = corpus.node_mut(id);
            n.format = Format::Asset;
            n.flags.set(Flag::Asset);
            n.warnings.clear();
            return id;
        }
        if let Some(ext) = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())
            && matches!(ext.as_str(), "json" | "yaml" | "yml" | "toml")
            && corpus.node(id).span.is_some()
        {
            self.queue_meta(id, ext);
        }
        id
    }

    /// Give file node `file` the structured `meta` of its text (extension `ext`, lower
    /// case; see [`structured_meta`]), keeping keys the node already has. Parsed on a
    /// [`MetaPool`] in a large root (the section pool was started), merged by
    /// `Loader::finish_sections`; else here.
    fn queue_meta(&mut self, file: NodeId, ext: String) {
        if self.pool.is_some() && self.meta_pool.is_none() {
            self.meta_pool = MetaPool::start(structured_meta);
        }
        let text = self.corpus.text(file);
        if let Some(pool) = &mut self.meta_pool {
            pool.push(file, ext, text.to_string());
        } else {
            let meta = structured_meta(&ext, text);
            merge_meta(&mut self.corpus, file, &ext, meta);
        }
    }

    /// A binary leaf: bytes counted, never read, no tokens.
    fn add_binary(&mut self, parent: NodeId, name: &str, rel: &str, size: u64) -> NodeId {
        let id = self.add_asset(parent, name, rel, size);
        self.corpus.node_mut(id).flags.set(Flag::Binary);
        id
    }
}

/// The top-level scalar values (and lists of scalars) of a YAML, JSON or TOML text whose
/// top level is a mapping, as `meta` entries; empty for other extensions and other shapes.
/// A text that does not parse (a syntax error, a duplicate key, several YAML documents, an
/// alias bomb past serde-saphyr's budget) gives no entries and the parser's reason; a
/// blank one gives neither. Numbers and booleans keep their JSON type.
pub fn structured_meta(ext: &str, text: &str) -> StructuredMeta {
    let parsed: Result<Value, String> = match ext {
        _ if text.trim().is_empty() => return (Map::new(), None),
        "json" => serde_json::from_str(text).map_err(|e| e.to_string()),
        "yaml" | "yml" => serde_saphyr::from_str::<Value>(text).map_err(|e| e.to_string()),
        "toml" => toml::from_str::<toml::Table>(text)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::to_value(t).map_err(|e| e.to_string())),
        _ => return (Map::new(), None),
    };
    let mut out = Map::new();
    let top = match parsed {
        Ok(Value::Object(top)) => top,
        Ok(_) => return (out, None),
        Err(e) => {
            let first = e.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            let reason = crate::formats::sections::truncate_chars(first.trim(), MAX_META_CHARS);
            return (out, Some(reason));
        }
    };
    for (k, v) in top {
        if out.len() >= MAX_META_KEYS {
            break;
        }
        if RESERVED_META.contains(&k.as_str()) || k.contains(char::is_whitespace) {
            continue;
        }
        let keep = match &v {
            Value::String(s) => s.chars().count() <= MAX_META_CHARS && !s.contains('\n'),
            Value::Number(_) | Value::Bool(_) => true,
            Value::Array(items) => {
                !items.is_empty()
                    && items.iter().all(|i| match i {
                        Value::String(s) => s.chars().count() <= MAX_META_CHARS,
                        Value::Number(_) | Value::Bool(_) => true,
                        _ => false,
                    })
            }
            Value::Null | Value::Object(_) => false,
        };
        if keep {
            out.insert(k, v);
        }
    }
    (out, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kep_yaml_top_level_scalars_become_meta() {
        let kep = "title: SLSA Compliance in the Kubernetes Release Process\n\
                   kep-number: 3027\nauthors:\n  - \"@puerco\"\nowning-sig: sig-release\n\
                   status: implemented\nmilestone:\n  alpha: \"v1.23\"\n";
        let (m, why) = structured_meta("yaml", kep);
        assert_eq!(why, None);
        assert_eq!(
            Value::Object(m),
            serde_json::json!({
                "title": "SLSA Compliance in the Kubernetes Release Process",
                "kep-number": 3027,
                "authors": ["@puerco"],
                "owning-sig": "sig-release",
                "status": "implemented",
            })
        );
    }

    #[test]
    fn json_and_toml_top_levels_and_non_mappings() {
        let (j, _) = structured_meta(
            "json",
            r#"{"name": "pkg", "private": true, "deps": {"a": 1}, "note": "x"}"#,
        );
        assert_eq!(
            Value::Object(j),
            serde_json::json!({"name": "pkg", "private": true})
        );
        let (t, _) = structured_meta(
            "toml",
            "name = \"crate\"\nedition = \"2024\"\n[deps]\na = 1\n",
        );
        assert_eq!(
            Value::Object(t),
            serde_json::json!({"name": "crate", "edition": "2024"})
        );
        assert_eq!(structured_meta("json", "[1, 2]"), (Map::new(), None));
        assert_eq!(structured_meta("py", "x = 1"), (Map::new(), None));
        assert_eq!(structured_meta("yaml", "  \n"), (Map::new(), None));
    }

    #[test]
    fn malformed_yaml_gives_no_meta_and_says_why() {
        for bad in [
            "key: [unclosed",
            "title: First\ntitle: Second\n",
            "title: one\n---\ntitle: two\n",
        ] {
            let (m, why) = structured_meta("yaml", bad);
            assert!(m.is_empty(), "{bad:?}");
            let why = why.unwrap_or_default();
            assert!(!why.is_empty() && !why.contains('\n'), "{bad:?}: {why:?}");
            assert!(why.chars().count() <= MAX_META_CHARS, "{why}");
        }
        let (_, why) = structured_meta("json", "{\"a\": ");
        assert!(why.is_some());
    }
}
