//! Verification of frontmatter YAML with a strict YAML reader (serde-saphyr), as docs/DESIGN.md §10
//! asks: the lenient parser reads what real skills ship; this says whether a strict reader
//! would accept it, and where it first fails. Values are never taken from here: a serde
//! `untagged` enum of `String`/`Vec<String>`/map cannot be used (saphyr's inference turns
//! `1.10` into a float that matches no variant), so `StrictValue` has its own visitor that
//! accepts any scalar, reads list items as `String`, and recurses into maps.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// A frontmatter value as a strict reader sees it: a scalar, a list of scalars, or a
/// nested map. Only used to decide acceptance; values are never read back from it (the
/// lenient parser keeps the text exactly as written, so `1.10` never becomes `1.1`).
#[derive(Debug)]
enum StrictValue {
    /// A scalar (string, or any scalar the reader typed on its own).
    Str,
    /// A list of scalars.
    List,
    /// A nested map.
    Map,
}

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = StrictValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string, a list of strings or a map")
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<StrictValue, E> {
        Ok(StrictValue::Str)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<StrictValue, E> {
        Ok(StrictValue::Str)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<StrictValue, E> {
        Ok(StrictValue::Str)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<StrictValue, E> {
        Ok(StrictValue::Str)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<StrictValue, E> {
        Ok(StrictValue::Str)
    }
    fn visit_unit<E: de::Error>(self) -> Result<StrictValue, E> {
        Ok(StrictValue::Str)
    }
    fn visit_none<E: de::Error>(self) -> Result<StrictValue, E> {
        Ok(StrictValue::Str)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StrictValue, A::Error> {
        // Items are read as `String` (typed, so `1.10` stays text); a nested list or map
        // inside a list is rejected, matching the frontmatter model (lists of scalars).
        while seq.next_element::<String>()?.is_some() {}
        Ok(StrictValue::List)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StrictValue, A::Error> {
        while map.next_key::<String>()?.is_some() {
            map.next_value::<StrictValue>()?;
        }
        Ok(StrictValue::Map)
    }
}

/// Check `yaml` (the text between the fences, `Frontmatter::yaml`) with serde-saphyr into
/// `BTreeMap<String, StrictValue>` (string keys; values are scalars, lists of scalars, or
/// nested maps). Empty or comment-only YAML is accepted.
///
/// Errors: `(line, message)` of the first problem, where `line` is 1-based RELATIVE TO THE
/// START OF `yaml` (add the opening fence's line, i.e. `+ 1`, for a file line), or 0 when
/// the reader gives no location. The invalid-UTF-8 placeholder U+001A is read as U+FFFD.
pub fn verify_strict(yaml: &str) -> Result<(), (u32, String)> {
    let yaml = prepared(yaml);
    let yaml = yaml.as_ref();
    if yaml.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    }) {
        return Ok(());
    }
    match serde_saphyr::from_str::<BTreeMap<String, StrictValue>>(yaml) {
        Ok(_) => Ok(()),
        Err(e) => {
            let line = e
                .location()
                .map_or(0, |l| u32::try_from(l.line()).unwrap_or(u32::MAX));
            let msg = e.to_string();
            let first = msg.lines().next().unwrap_or("invalid YAML");
            Err((line, super::typed::reader_message(first)))
        }
    }
}

/// `yaml` as the strict reader is given it: a lone `\r` read as `\n`, the placeholder
/// U+001A as U+FFFD.
fn prepared(yaml: &str) -> std::borrow::Cow<'_, str> {
    // A lone `\r` (classic Mac OS) is a YAML line break; give the reader `\n` there (same
    // length, same lines) so its messages and line numbers match the LF twin's.
    let mut yaml: std::borrow::Cow<str> = if has_lone_cr(yaml) {
        lone_cr_to_lf(yaml).into()
    } else {
        yaml.into()
    };
    // The loader's invalid-UTF-8 placeholder (U+001A, which YAML forbids) reads as U+FFFD,
    // as in the lenient parser's values (docs/FORMATS.md §9.1); `validate` reports the bytes
    // themselves as `invalid-utf8`.
    if yaml.contains('\u{1A}') {
        yaml = yaml.replace('\u{1A}', "\u{FFFD}").into();
    }
    yaml
}

/// True when `yaml` (the text between the fences) holds something other than comments and
/// a strict reader reads it as a list or a scalar, not a map of keys: a key added to it
/// would make it invalid YAML (docs/DESIGN.md §9 "Never lose data").
pub(crate) fn not_a_mapping(yaml: &str) -> bool {
    let yaml = prepared(yaml);
    let blank = yaml.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    });
    !blank && matches!(serde_saphyr::from_str::<Shape>(&yaml), Ok(Shape::Other))
}

/// Whether a YAML document is a map ([`not_a_mapping`]); its contents are skipped.
#[derive(Debug, PartialEq, Eq)]
enum Shape {
    Map,
    Other,
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ShapeVisitor)
    }
}

struct ShapeVisitor;

impl<'de> Visitor<'de> for ShapeVisitor {
    type Value = Shape;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_none<E: de::Error>(self) -> Result<Shape, E> {
        Ok(Shape::Other)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Shape::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Shape, A::Error> {
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Shape::Map)
    }
}

fn has_lone_cr(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter()
        .enumerate()
        .any(|(i, &c)| c == b'\r' && b.get(i + 1) != Some(&b'\n'))
}

/// `s` with every `\r` not followed by `\n` replaced by `\n`.
fn lone_cr_to_lf(s: &str) -> String {
    let b = s.as_bytes();
    s.char_indices()
        .map(|(i, c)| {
            if c == '\r' && b.get(i + 1) != Some(&b'\n') {
                '\n'
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cr_only_yaml_fails_at_the_line_of_its_lf_twin() {
        let lf = verify_strict("name: a\nx: 1\ndescription: a: b\n");
        let cr = verify_strict("name: a\rx: 1\rdescription: a: b\r");
        assert_eq!(cr, lf);
        assert_eq!(cr.map_err(|e| e.0), Err(3));
        assert_eq!(verify_strict("a: 1\rb: 2\r\nc: 3\r"), Ok(()));
    }

    #[test]
    fn accepts_versions_lists_and_nested_maps() {
        let y = "name: x\nversion: 1.10\nok: yes\ntools: [Read, Bash]\nmetadata:\n  author: a\n  version: \"1.0\"\n";
        assert_eq!(verify_strict(y), Ok(()));
        assert_eq!(verify_strict(""), Ok(()));
    }

    /// Why `StrictValue` has its own visitor: a `#[serde(untagged)]` enum of `String` /
    /// `Vec<String>` / map goes through serde-saphyr's type inference, sees the float 1.1
    /// for `1.10`, matches no variant, and would reject valid frontmatter.
    #[test]
    fn untagged_string_enum_rejects_plain_numbers_so_a_visitor_is_used() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(untagged)]
        #[allow(dead_code)]
        enum Untagged {
            S(String),
            L(Vec<String>),
            M(BTreeMap<String, Untagged>),
        }
        let y = "version: 1.10\n";
        let r = serde_saphyr::from_str::<BTreeMap<String, Untagged>>(y);
        assert!(
            r.unwrap_err()
                .to_string()
                .contains("did not match any variant")
        );
        assert_eq!(verify_strict(y), Ok(()));
    }

    #[test]
    fn rejects_unquoted_colon_space_with_line() {
        let r = verify_strict("name: x\ndescription: Use when: you need X\n");
        let (line, _msg) = r.expect_err("strict YAML rejects `: ` in a plain value");
        assert_eq!(line, 2);
    }
}
