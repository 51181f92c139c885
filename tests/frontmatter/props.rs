//! Property tests: the frontmatter parser never panics on arbitrary input, and every span
//! it reports lies within the text on char boundaries (docs/DESIGN.md §9 "never crash on input").

use proptest::prelude::*;
use skillnav::error::Error;
use skillnav::frontmatter;

fn check(text: &str) {
    let Some(p) = frontmatter::parse_tree(text) else {
        return;
    };
    let ok = |r: &std::ops::Range<usize>| {
        r.start <= r.end
            && r.end <= text.len()
            && text.is_char_boundary(r.start)
            && text.is_char_boundary(r.end)
    };
    assert!(ok(&p.fm.block) && ok(&p.fm.yaml));
    fn walk(nodes: &[frontmatter::KeyNode], ok: &dyn Fn(&std::ops::Range<usize>) -> bool) {
        for n in nodes {
            assert!(ok(&n.span) && ok(&n.value_span) && ok(&n.key_span), "{n:?}");
            assert!(
                n.span.start <= n.value_span.start && n.value_span.end <= n.span.end,
                "{n:?}"
            );
            assert!(n.lines.start < n.lines.end);
            walk(&n.children, ok);
        }
    }
    walk(&p.nodes, &ok);
    for e in &p.fm.entries {
        assert!(!e.key.contains('\r'));
        if e.style == frontmatter::ValueStyle::Plain || e.style == frontmatter::ValueStyle::Literal
        {
            assert!(!e.value.as_text().contains('\r'), "{e:?}");
        }
    }
}

/// Lines drawn from YAML-ish pieces so the structural paths are exercised, not just the
/// "no fence" exit.
fn yamlish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("key: value".to_string()),
        Just("  nested: x".to_string()),
        Just("- item".to_string()),
        Just("  - item".to_string()),
        Just("d: |-".to_string()),
        Just("d: >+2".to_string()),
        Just("q: \"a\\".to_string()),
        Just("q: 'it''s".to_string()),
        Just("l: [a, \"b, c\"".to_string()),
        Just("m: {a: b".to_string()),
        Just("\t tab: x".to_string()),
        Just("# c".to_string()),
        Just(String::new()),
        Just("---".to_string()),
        Just("   ".to_string()),
        Just("é: ü\u{feff}".to_string()),
        "[ -~\t]{0,12}",
        any::<String>(),
    ];
    (
        prop::collection::vec(piece, 0..14),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, bom)| {
            let nl = if crlf { "\r\n" } else { "\n" };
            let mut s = String::new();
            if bom {
                s.push('\u{feff}');
            }
            s.push_str("---");
            s.push_str(nl);
            for l in lines {
                s.push_str(&l);
                s.push_str(nl);
            }
            s.push_str("---");
            s.push_str(nl);
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        check(&s);
        check(&format!("---\n{s}"));
        check(&format!("---\n{s}\n---\n"));
    }

    #[test]
    fn arbitrary_bytes_as_lossy_utf8_never_panic(b in prop::collection::vec(any::<u8>(), 0..400)) {
        let s = String::from_utf8_lossy(&b);
        check(&s);
        check(&format!("---\n{s}\n---\n"));
    }

    #[test]
    fn yamlish_frontmatter_spans_are_in_bounds(s in yamlish()) {
        check(&s);
    }
}

const EDIT_FIXTURES: [&str; 8] = [
    "---\nname: a\ndescription: old # c\nlicense: MIT\n---\nbody\n",
    "\u{feff}---\r\nname: a\r\ndescription: >-\r\n  folded\r\n  text\r\nz: 1\r\n---\r\n",
    "---\nname: a\ndescription: |\n  lit\n\n  eral\n\nz: 1\n---\n",
    "---\nname: a\ndescription: 'single'\n---\n",
    "---\nmetadata:\n  description: \"dq\"\n  other: x\ndescription:\n---\n",
    "---\ndescription: Use when: x\ntags:\n- a\n---\n",
    // CR-only line endings (classic Mac OS).
    "---\rname: a\rdescription: >-\r  folded\r  text\rz: 1\r---\rbody\r",
    // A `---` line inside a literal block is content.
    "---\ndescription: |\n  x\n  ---\n  y\nname: t\nallowed-tools: Read\n---\nbody\n",
];

/// Index of the CR-only fixture: an edit of it must not write a single LF.
const CR_FIXTURE: usize = 6;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Any string value is written so that it reads back exactly, and every byte before
    /// and after the edited entry is unchanged.
    #[test]
    fn set_reads_back_and_keeps_other_bytes(v in any::<String>(), which in 0usize..EDIT_FIXTURES.len()) {
        let old = EDIT_FIXTURES[which];
        let before = frontmatter::parse(old).unwrap();
        let e = before.get("description").unwrap();
        let out = frontmatter::set(old.as_bytes(), "description", &frontmatter::EditValue::Str(v.clone())).unwrap();
        let text = String::from_utf8(out).unwrap();
        let after = frontmatter::parse(&text).unwrap();
        prop_assert_eq!(after.description(), Some(v.clone()));
        prop_assert_eq!(&text[..e.span.start], &old[..e.span.start]);
        let tail = &old[e.span.end..];
        prop_assert!(text.ends_with(tail));
        let others = |f: &frontmatter::Frontmatter| {
            f.entries.iter().filter(|x| x.key != "description").map(|x| (x.key.clone(), x.value.clone())).collect::<Vec<_>>()
        };
        prop_assert_eq!(others(&before), others(&after));
        if which == CR_FIXTURE {
            prop_assert!(!text.contains('\n'), "mixed line endings: {:?}", text);
        }
    }

    #[test]
    fn set_list_items_read_back(items in prop::collection::vec(any::<String>(), 0..5)) {
        let old = EDIT_FIXTURES[5];
        let out = frontmatter::set(old.as_bytes(), "tags", &frontmatter::EditValue::List(items.clone())).unwrap();
        let text = String::from_utf8(out).unwrap();
        let after = frontmatter::parse(&text).unwrap();
        prop_assert_eq!(&after.get("tags").unwrap().value, &frontmatter::Value::List(items));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Arbitrary key paths and fixtures: `set`/`unset` never panic, and a successful `set`
    /// reads back through `edit::get`.
    #[test]
    fn arbitrary_keys_never_panic_and_read_back(key in "[a-z.:# \"'\\-\n\r]{0,12}", v in any::<String>(), which in 0usize..EDIT_FIXTURES.len()) {
        let old = EDIT_FIXTURES[which].as_bytes();
        if let Ok(out) = frontmatter::set(old, &key, &frontmatter::EditValue::Str(v.clone())) {
            let node = frontmatter::edit::get(&out, &key).unwrap().unwrap();
            prop_assert_eq!(node.value, frontmatter::Value::Str(v));
        }
        let _ = frontmatter::unset(old, &key);
        let _ = frontmatter::repair(old);
    }
}

/// Keys drawn from what real frontmatter uses plus the characters that need quoting.
fn key_strategy() -> impl Strategy<Value = String> {
    "[a-z][a-z_:# '\"-]{0,8}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// `set` on a file WITHOUT frontmatter: either the value reads back exactly under the
    /// key and every old byte follows the new block unchanged, or it is refused.
    #[test]
    fn set_without_frontmatter_reads_back_or_refuses(
        key in key_strategy(),
        v in any::<String>(),
        items in prop::collection::vec(any::<String>(), 0..4),
        body in "[ -~\n\r]{0,40}",
        list in any::<bool>(),
    ) {
        prop_assume!(!body.starts_with("---"));
        let value = if list { frontmatter::EditValue::List(items) } else { frontmatter::EditValue::Str(v) };
        match frontmatter::set(body.as_bytes(), &key, &value) {
            Ok(out) => {
                let text = String::from_utf8(out).unwrap();
                let f = frontmatter::parse(&text).unwrap();
                prop_assert_eq!(&text[f.block.end..], body.as_str());
                let node = frontmatter::edit::get(text.as_bytes(), &key).unwrap().unwrap();
                let want = match &value {
                    frontmatter::EditValue::Str(s) => frontmatter::Value::Str(s.clone()),
                    frontmatter::EditValue::List(l) => frontmatter::Value::List(l.clone()),
                };
                prop_assert_eq!(node.value, want);
            }
            Err(e) => prop_assert!(matches!(e, Error::Refused(_) | Error::Usage(_)), "{e:?}"),
        }
    }

    /// `unset` of a key that is not there changes nothing: a `Usage` error, no bytes.
    #[test]
    fn unset_of_a_missing_key_changes_nothing(key in "[a-z]{1,8}", which in 0usize..EDIT_FIXTURES.len()) {
        let old = EDIT_FIXTURES[which];
        let f = frontmatter::parse(old).unwrap();
        prop_assume!(f.get(&key).is_none());
        let e = frontmatter::unset(old.as_bytes(), &key).unwrap_err();
        prop_assert_eq!(e.to_string(), format!("no key `{key}` in the frontmatter"));
    }

    /// A successful `unset` removes exactly the key's lines and leaves every other key's
    /// value as it was.
    #[test]
    fn unset_keeps_every_other_value(which in 0usize..EDIT_FIXTURES.len(), pick in 0usize..8) {
        let old = EDIT_FIXTURES[which];
        let before = frontmatter::parse(old).unwrap();
        let e = &before.entries[pick % before.entries.len()];
        if let Ok(out) = frontmatter::unset(old.as_bytes(), &e.key) {
            let text = String::from_utf8(out).unwrap();
            let after = frontmatter::parse(&text).unwrap();
            let mut want: Vec<_> = before.entries.iter().map(|x| (x.key.clone(), x.value.clone())).collect();
            let at = want.iter().rposition(|(k, _)| *k == e.key).unwrap();
            want.remove(at);
            let got: Vec<_> = after.entries.iter().map(|x| (x.key.clone(), x.value.clone())).collect();
            prop_assert_eq!(got, want);
            prop_assert_eq!(&text[..e.span.start], &old[..e.span.start]);
            prop_assert_eq!(&text[e.span.start..], &old[e.span.end..]);
        }
    }
}

/// `fm unset` of a missing key leaves the file's bytes as they were.
#[test]
fn fm_unset_of_a_missing_key_leaves_the_file_untouched() {
    let dir = tempfile::tempdir().unwrap();
    for old in EDIT_FIXTURES {
        let p = dir.path().join("SKILL.md");
        std::fs::write(&p, old).unwrap();
        assert!(frontmatter::fm_unset(&p, "absent").is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), old);
    }
}
