//! Property tests: the frontmatter parser never panics on arbitrary input, and every span
//! it reports lies within the text on char boundaries (docs/DESIGN.md §9 "never crash on input").

use proptest::prelude::*;
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

const EDIT_FIXTURES: [&str; 6] = [
    "---\nname: a\ndescription: old # c\nlicense: MIT\n---\nbody\n",
    "\u{feff}---\r\nname: a\r\ndescription: >-\r\n  folded\r\n  text\r\nz: 1\r\n---\r\n",
    "---\nname: a\ndescription: |\n  lit\n\n  eral\n\nz: 1\n---\n",
    "---\nname: a\ndescription: 'single'\n---\n",
    "---\nmetadata:\n  description: \"dq\"\n  other: x\ndescription:\n---\n",
    "---\ndescription: Use when: x\ntags:\n- a\n---\n",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Any string value is written so that it reads back exactly, and every byte before
    /// and after the edited entry is unchanged.
    #[test]
    fn set_reads_back_and_keeps_other_bytes(v in any::<String>(), which in 0usize..6) {
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
    fn arbitrary_keys_never_panic_and_read_back(key in "[a-z.:# \"'\\-\n]{0,12}", v in any::<String>(), which in 0usize..6) {
        let old = EDIT_FIXTURES[which].as_bytes();
        if let Ok(out) = frontmatter::set(old, &key, &frontmatter::EditValue::Str(v.clone())) {
            let node = frontmatter::edit::get(&out, &key).unwrap().unwrap();
            prop_assert_eq!(node.value, frontmatter::Value::Str(v));
        }
        let _ = frontmatter::unset(old, &key);
        let _ = frontmatter::repair(old);
    }
}
