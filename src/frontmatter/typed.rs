//! The frontmatter's values as a YAML 1.2 core-schema reader types them, as JSON: what an
//! SEP-2640 server must serve as a skill's `frontmatter` (the SEP: the served frontmatter
//! equals the `SKILL.md` file's YAML values, and a host refuses a skill whose listing
//! differs; docs/MCP.md "Skills"). The lenient parser keeps every scalar as text (`1.10`
//! stays `"1.10"`); here `1.10` is the number 1.1, `true` a boolean, an empty value `null`,
//! and a block scalar keeps the line break its chomping keeps.
//!
//! The reader is serde-saphyr (as in [`super::verify_strict`]) with the core schema's
//! spellings: booleans only `true`/`false` in three cases (not YAML 1.1's `yes`/`on`), a
//! plain scalar with `_` stays text (`1_000`), and `.inf`/`.nan` are refused (JSON has no
//! such numbers). Duplicate keys are refused, as every strict reader refuses them. One
//! known difference from a core-schema reader: serde-saphyr reads YAML 1.1's binary
//! `0b101` as 5 where the core schema keeps the text (no skill seen in the wild has one).

use serde_json::{Map, Value as Json};

/// The frontmatter values of `yaml` (the text between the fences, `Frontmatter::yaml`) as
/// JSON, keys sorted. Empty or comment-only YAML gives an empty map.
///
/// Errors: `(line, message)` when the YAML is not a map of string keys, a strict reader
/// rejects it, or a value has no JSON form (`.inf`, `.nan`); `line` is 1-based relative to
/// the start of `yaml`, 0 when unknown.
pub fn typed_values(yaml: &str) -> Result<Map<String, Json>, (u32, String)> {
    let blank = yaml.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    });
    if blank {
        return Ok(Map::new());
    }
    let options = serde_saphyr::options! {
        strict_booleans: true,
        underscored_numbers_as_strings: true,
        non_finite_float_policy: serde_saphyr::NonFiniteFloatPolicy::Reject,
    };
    let map: Map<String, Json> =
        serde_saphyr::from_str_with_options(yaml, options).map_err(|e| {
            let line = e
                .location()
                .map_or(0, |l| u32::try_from(l.line()).unwrap_or(u32::MAX));
            let msg = e.to_string();
            (
                line,
                reader_message(msg.lines().next().unwrap_or("invalid YAML")),
            )
        })?;
    Ok(map)
}

/// The YAML reader's message in a user's words: its advice about the reader's own settings
/// (`set DuplicateKeyPolicy in Options …`) is replaced by what to do with the file.
pub(crate) fn reader_message(msg: &str) -> String {
    match msg.split_once(", set DuplicateKeyPolicy") {
        Some((head, _)) => format!("{head} (a key appears twice: keep one)"),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn value(yaml: &str) -> Json {
        match typed_values(yaml) {
            Ok(m) => m.get("a").cloned().unwrap_or(Json::Bool(false)),
            Err(e) => json!(format!("ERR {}", e.1)),
        }
    }

    #[test]
    fn plain_scalars_are_typed_by_the_core_schema() {
        assert_eq!(value("a: 1.10"), json!(1.1));
        assert_eq!(value("a: 0x1F"), json!(31));
        assert_eq!(value("a: True"), json!(true));
        assert_eq!(value("a: ~"), Json::Null);
        assert_eq!(value("a:"), Json::Null);
        assert_eq!(value("a: [1, \"2\", true]"), json!([1, "2", true]));
        assert_eq!(value("a: {b: 1, c: [x]}"), json!({"b": 1, "c": ["x"]}));
    }

    #[test]
    fn yaml_1_1_spellings_and_versions_stay_text() {
        for (yaml, text) in [
            ("a: yes", "yes"),
            ("a: on", "on"),
            ("a: 1_000", "1_000"),
            ("a: 2.1.0", "2.1.0"),
            ("a: 2024-01-01", "2024-01-01"),
            ("a: 1:30", "1:30"),
            ("a: \"1.10\"", "1.10"),
        ] {
            assert_eq!(value(yaml), json!(text), "{yaml}");
        }
    }

    #[test]
    fn block_scalars_keep_what_their_chomping_keeps() {
        assert_eq!(value("a: >\n  folded\n  text\n"), json!("folded text\n"));
        assert_eq!(value("a: |\n  lit\n\n"), json!("lit\n"));
        assert_eq!(value("a: |-\n  lit\n"), json!("lit"));
        assert_eq!(value("a: |+\n  lit\n\n"), json!("lit\n\n"));
    }

    #[test]
    fn non_finite_numbers_and_duplicate_keys_are_refused() {
        assert_eq!(typed_values("a: .inf").map_err(|e| e.0), Err(1));
        assert_eq!(typed_values("a: 1\na: 2").map_err(|e| e.0), Err(2));
        let msg = typed_values("a: 1\na: 2").map_err(|e| e.1).unwrap_err();
        assert!(
            msg.ends_with("duplicate mapping key: a (a key appears twice: keep one)"),
            "{msg}"
        );
    }

    #[test]
    fn comment_only_yaml_is_an_empty_map() {
        assert_eq!(typed_values("# nothing\n\n"), Ok(Map::new()));
    }

    /// The one documented difference from a YAML 1.2 core-schema reader (the module header).
    #[test]
    fn binary_spelling_is_read_as_a_number() {
        assert_eq!(value("a: 0b101"), json!(5));
    }
}
