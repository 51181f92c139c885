//! Frontmatter `set` and `unset` (docs/FUZZING.md): the input is `key\nvalue\nfile`. A `set`
//! that succeeds reads back exactly and keeps the body after the frontmatter; an `unset` of
//! a key the file does not have changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::frontmatter::{self, EditValue, Value};

/// The text after the frontmatter block (the whole text when there is none).
fn body(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let end = frontmatter::parse(&text).map_or(0, |fm| fm.block.end);
    text.get(end..).unwrap_or("").as_bytes().to_vec()
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
    }
    if matches!(frontmatter::edit::get(file, &key), Ok(None)) {
        if let Ok(out) = frontmatter::unset(file, &key) {
            assert_eq!(out, file, "unset of a missing key changed the file");
        }
    }
});
