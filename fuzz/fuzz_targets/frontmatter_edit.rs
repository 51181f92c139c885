//! Frontmatter `set` and `unset` (docs/FUZZING.md): the input is `key\nvalue\nfile`. A `set`
//! that succeeds reads back exactly and keeps the body after the frontmatter, and every
//! other key's anchor, alias or tag (`&a x`, `*a`, `!t x`) survives it and the save's
//! quoting repair byte for byte; an `unset` of a key the file does not have changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::frontmatter::{self, EditValue, Value};

/// The text after the frontmatter block (the whole text when there is none).
fn body(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let end = frontmatter::parse(&text).map_or(0, |fm| fm.block.end);
    text.get(end..).unwrap_or("").as_bytes().to_vec()
}

/// The raw values of top-level keys other than `key` that start with an anchor, an alias
/// or a tag, in file order.
fn properties(bytes: &[u8], key: &str) -> Vec<(String, Vec<u8>)> {
    let text = String::from_utf8_lossy(bytes);
    let Some(p) = frontmatter::parse_tree(&text) else {
        return Vec::new();
    };
    p.nodes
        .iter()
        .filter(|n| n.key != key)
        .filter_map(|n| {
            let raw = text.get(n.value_span.clone())?;
            raw.starts_with(['&', '*', '!'])
                .then(|| (n.key.clone(), raw.as_bytes().to_vec()))
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == b'\n');
    let (Some(key), Some(value), Some(file)) = (parts.next(), parts.next(), parts.next()) else {
        return;
    };
    // Keys as a user types them: a short simple name.
    let key: String = key
        .iter()
        .filter(|b| b.is_ascii_lowercase() || **b == b'-' || **b == b'_')
        .take(16)
        .map(|&b| char::from(b))
        .collect();
    if key.is_empty() || std::str::from_utf8(file).is_err() {
        return;
    }
    let Ok(value) = std::str::from_utf8(value) else {
        return;
    };
    let value = value.replace('\u{1}', "\n");
    if let Ok(out) = frontmatter::set(file, &key, &EditValue::Str(value.clone())) {
        let got = frontmatter::edit::get(&out, &key);
        match got {
            Ok(Some(node)) => assert_eq!(
                node.value,
                Value::Str(value.clone()),
                "set did not read back"
            ),
            other => panic!("set key {key:?} is not found again: {other:?}"),
        }
        if frontmatter::parse(&String::from_utf8_lossy(file)).is_some() {
            assert_eq!(body(&out), body(file), "set changed the body");
        }
        let (saved, _) = frontmatter::repair(&out);
        assert_eq!(
            properties(&saved, &key),
            properties(file, &key),
            "an anchor, alias or tag of another key changed"
        );
    }
    if matches!(frontmatter::edit::get(file, &key), Ok(None)) {
        if let Ok(out) = frontmatter::unset(file, &key) {
            assert_eq!(out, file, "unset of a missing key changed the file");
        }
    }
});
