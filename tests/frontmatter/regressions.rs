//! Regressions found by testing `skillnav fm` (`frontmatter::{fm_get`, `fm_set`, `fm_unset})`:
//! set values a YAML reader would coerce were written plain; `fm set` edited binary files;
//! `fm get` dropped the `[` of a value whose bracket never closes. Inputs are hand-made and
//! inline (no fixture files); files are written to temp folders.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use skillnav::error::Error;
use skillnav::frontmatter::{self, GetMode, Value, ValueStyle, fm_get, fm_set, fm_unset, save};

fn temp_file(dir: &Path, bytes: &[u8]) -> PathBuf {
    let p = dir.join("SKILL.md");
    fs::write(&p, bytes).unwrap();
    p
}

/// The frontmatter of `text` as a YAML 1.2 reader with implicit typing (serde-saphyr into
/// JSON values) sees it.
fn typed_read(text: &str) -> serde_json::Value {
    let yaml = text
        .strip_prefix("---\n")
        .and_then(|t| t.split_once("---\n"))
        .map(|(y, _)| y)
        .unwrap();
    let map: BTreeMap<String, serde_json::Value> = serde_saphyr::from_str(yaml).unwrap();
    serde_json::to_value(map).unwrap()
}

#[test]
fn fm_set_version_2_10_keep_no_metadata_version_1_0_are_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(dir.path(), b"---\nname: a\n---\nbody\n");
    fm_set(&p, "version", "2.10").unwrap();
    fm_set(&p, "keep", "no").unwrap();
    fm_set(&p, "metadata.version", "1.0").unwrap();
    let text = fs::read_to_string(&p).unwrap();
    assert_eq!(
        text,
        "---\nname: a\nversion: '2.10'\nkeep: 'no'\nmetadata:\n  version: '1.0'\n---\nbody\n"
    );
    assert_eq!(
        typed_read(&text),
        serde_json::json!({"name": "a", "version": "2.10", "keep": "no", "metadata": {"version": "1.0"}})
    );
    assert_eq!(fm_get(&p, "version", GetMode::Text).unwrap(), "2.10");
    // What the plain spelling would have meant to the same reader.
    assert_eq!(
        typed_read("---\nversion: 2.10\nm: 1.0\n---\n"),
        serde_json::json!({"version": 2.1, "m": 1.0})
    );
}

#[test]
fn fm_set_quotes_numbers_bools_nulls_dates_and_indicator_starts() {
    let quoted = [
        "0",
        "42",
        "-3",
        "+1",
        "1_000",
        "0x1F",
        "0o7",
        "0b101",
        "017",
        "1:30",
        "2.10",
        "1.0",
        ".5",
        "1e3",
        "1E+3",
        ".inf",
        "-.Inf",
        ".nan",
        "1.2.3",
        "yes",
        "No",
        "ON",
        "off",
        "y",
        "N",
        "true",
        "False",
        "null",
        "Null",
        "NULL",
        "~",
        "2024-01-01",
        "2001-12-14t21:59:43.10-05:00",
        "<<",
        "=",
        "-x",
        "?x",
        ":x",
        "@x",
        "`x",
        "%x",
        "!x",
        "&x",
        "*x",
        "|x",
        ">x",
    ];
    let dir = tempfile::tempdir().unwrap();
    for v in quoted {
        let p = temp_file(dir.path(), b"---\nname: a\nv: old\n---\n");
        fm_set(&p, "v", v).unwrap();
        let text = fs::read_to_string(&p).unwrap();
        assert_eq!(text, format!("---\nname: a\nv: '{v}'\n---\n"), "{v}");
        assert_eq!(typed_read(&text)["v"], serde_json::json!(v), "{v}");
    }
    for v in [
        "hello",
        "v1.0",
        "1.0-beta",
        "Read",
        "my-skill",
        "Use when asked",
        "x:y",
        "yesterday",
        "none",
    ] {
        let p = temp_file(dir.path(), b"---\nname: a\nv: old\n---\n");
        fm_set(&p, "v", v).unwrap();
        assert_eq!(
            fs::read_to_string(&p).unwrap(),
            format!("---\nname: a\nv: {v}\n---\n"),
            "{v}"
        );
    }
}

#[test]
fn fm_set_empty_value_is_quoted_not_null() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(dir.path(), b"---\nname: a\nv: old\n---\n");
    fm_set(&p, "v", "").unwrap();
    let text = fs::read_to_string(&p).unwrap();
    assert_eq!(text, "---\nname: a\nv: ''\n---\n");
    assert_eq!(typed_read(&text)["v"], serde_json::json!(""));
}

#[test]
fn fm_set_list_items_that_look_typed_are_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(dir.path(), b"---\ntags: [a]\nsteps:\n  - a\n---\n");
    fm_set(&p, "tags", "Read, 1.0, no").unwrap();
    fm_set(&p, "steps", "first, 2").unwrap();
    let text = fs::read_to_string(&p).unwrap();
    assert_eq!(
        text,
        "---\ntags: [Read, '1.0', 'no']\nsteps:\n  - first\n  - '2'\n---\n"
    );
    assert_eq!(
        typed_read(&text),
        serde_json::json!({"tags": ["Read", "1.0", "no"], "steps": ["first", "2"]})
    );
}

#[test]
fn fm_set_new_key_that_yaml_1_1_types_is_quoted() {
    let out = frontmatter::set(
        b"---\nname: a\n---\n",
        "on",
        &frontmatter::EditValue::Str("x".into()),
    )
    .unwrap();
    assert_eq!(out, b"---\nname: a\n'on': x\n---\n");
}

#[test]
fn fm_set_leaves_unedited_typed_looking_values_plain() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(
        dir.path(),
        b"---\nname: a\nversion: 1.10\nok: yes\nnothing: ~\n---\n",
    );
    fm_set(&p, "name", "b").unwrap();
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        "---\nname: b\nversion: 1.10\nok: yes\nnothing: ~\n---\n"
    );
}

/// Deterministic pseudo-random bytes (xorshift64*), with NUL bytes among them.
fn random_bytes(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

#[test]
fn fm_set_binary_blob_with_nul_bytes_is_refused_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let blob = random_bytes(20_000);
    assert!(blob[..8192].contains(&0));
    let p = dir.path().join("blob.md");
    fs::write(&p, &blob).unwrap();
    let want = format!("{} looks binary (NUL byte); not edited", p.display());
    let e = fm_set(&p, "name", "x").unwrap_err();
    assert!(matches!(e, Error::Refused(_)));
    assert_eq!(e.to_string(), want);
    let e = fm_unset(&p, "name").unwrap_err();
    assert!(matches!(e, Error::Refused(_)));
    assert_eq!(e.to_string(), want);
    // The TUI editor opens files through the same load.
    assert_eq!(save::load(&p).unwrap_err().to_string(), want);
    assert_eq!(fs::read(&p).unwrap(), blob);
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn fm_set_nul_byte_within_first_8_kib_refuses_and_after_it_edits() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"---\nname: a\n---\n".to_vec();
    bytes.resize(8191, b'x');
    bytes.push(0); // byte 8191: the last one sniffed
    let p = temp_file(dir.path(), &bytes);
    assert!(matches!(fm_set(&p, "name", "b"), Err(Error::Refused(_))));
    assert_eq!(fs::read(&p).unwrap(), bytes);

    let mut later = b"---\nname: a\n---\n".to_vec();
    later.resize(8192, b'x');
    later.push(0); // byte 8192: past the sniffed prefix, so the file is text
    let p = temp_file(dir.path(), &later);
    fm_set(&p, "name", "b").unwrap();
    let mut want = later.clone();
    want[10] = b'b';
    assert_eq!(fs::read(&p).unwrap(), want);
}

#[test]
fn fm_get_unclosed_bracket_keeps_the_bracket() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(
        dir.path(),
        b"---\nname: a\ndescription: [unclosed\nmap: {k: v  # c\n---\n",
    );
    assert_eq!(
        fm_get(&p, "description", GetMode::Text).unwrap(),
        "[unclosed"
    );
    assert_eq!(
        fm_get(&p, "description", GetMode::Raw).unwrap(),
        "[unclosed"
    );
    assert_eq!(
        fm_get(&p, "description", GetMode::Json).unwrap(),
        "\"[unclosed\""
    );
    assert_eq!(fm_get(&p, "map", GetMode::Text).unwrap(), "{k: v");
    let text = fs::read_to_string(&p).unwrap();
    let fm = frontmatter::parse(&text).unwrap();
    let d = fm.get("description").unwrap();
    assert_eq!(d.value, Value::Str("[unclosed".into()));
    assert_eq!(d.style, ValueStyle::Plain);
    assert_eq!(&text[d.value_span.clone()], "[unclosed");
    assert_eq!(
        fm.warnings,
        [
            (
                3,
                "unclosed bracket in value of `description`; value taken to end of line"
                    .to_string()
            ),
            (
                4,
                "unclosed bracket in value of `map`; value taken to end of line".to_string()
            ),
        ]
    );
}

#[test]
fn fm_set_elsewhere_quotes_an_unclosed_bracket_value_keeping_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(dir.path(), b"---\nname: a\ndescription: [unclosed\n---\n");
    let r = fm_set(&p, "name", "b").unwrap();
    assert_eq!(r.repaired, [3]);
    let text = fs::read_to_string(&p).unwrap();
    assert_eq!(text, "---\nname: b\ndescription: '[unclosed'\n---\n");
    assert_eq!(
        fm_get(&p, "description", GetMode::Text).unwrap(),
        "[unclosed"
    );
    assert_eq!(
        typed_read(&text)["description"],
        serde_json::json!("[unclosed")
    );
}

proptest! {
    /// Whatever number-, bool-, null- or date-like text is set, a typed YAML reader reads
    /// it back as exactly that string.
    #[test]
    fn fm_set_value_reads_back_as_the_same_string_in_a_typed_reader(
        v in "[-+.~]?[0-9a-fA-FxobeEnNulLyYsStTrRiI_:.+-]{0,8}|[0-9]{4}-[0-9]{2}-[0-9]{2}"
    ) {
        let out = frontmatter::set(b"---\nname: a\n---\n", "v", &frontmatter::EditValue::Str(v.clone()))
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        prop_assert_eq!(&typed_read(&text)["v"], &serde_json::json!(v));
    }
}
