//! Edits never lose what the lenient parser reads as text or cannot see (docs/DESIGN.md §9
//! "Never lose data"): anchors, aliases, tags and merged maps survive an edit of another
//! key byte for byte; a quoted value continued past a column-0 `#` line is read whole;
//! a file that moved while being saved is not replaced; nested maps are shared, not copied
//! per level. Inputs are hand-made and inline.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use proptest::prelude::*;
use skillnav::error::Error;
use skillnav::frontmatter::{self, EditValue, GetMode, Value, fm_get, fm_set, fm_unset, save};

fn temp_file(dir: &Path, bytes: &[u8]) -> PathBuf {
    let p = dir.join("SKILL.md");
    fs::write(&p, bytes).unwrap();
    p
}

const ANCHORED: &str = "---\nname: s1\ndescription: x\nbase: &b anchored\nref: *b\n\
tagged: !custom value\ndefaults: &d\n  a: 1\n  b: 2\nmerged:\n  <<: *d\n  c: 3\n---\nbody\n";

#[test]
fn fm_set_description_keeps_anchor_alias_tag_and_merged_map_lines_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(dir.path(), ANCHORED.as_bytes());
    let r = fm_set(&p, "description", "changed").unwrap();
    assert_eq!(r.repaired, Vec::<u32>::new());
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        ANCHORED.replace("description: x\n", "description: changed\n")
    );
}

#[test]
fn fm_set_or_unset_of_a_key_that_defines_an_anchor_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(dir.path(), ANCHORED.as_bytes());
    let e = fm_set(&p, "base", "z").unwrap_err();
    let shown = p.display();
    assert_eq!(
        e.to_string(),
        format!(
            "{shown}: `base` defines the YAML anchor `&b`, which other keys may use; \
             edit it in a text editor; nothing written"
        )
    );
    let e = fm_unset(&p, "defaults").unwrap_err();
    assert!(matches!(e, Error::Refused(_)), "{e:?}");
    assert_eq!(fs::read_to_string(&p).unwrap(), ANCHORED);
    // An alias is a value like any other: replacing it loses nothing.
    fm_set(&p, "ref", "plain").unwrap();
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        ANCHORED.replace("ref: *b\n", "ref: plain\n")
    );
}

#[test]
fn repair_of_a_strict_invalid_file_leaves_anchors_aliases_and_tags_unquoted() {
    let text = "---\nname: s\ndescription: Use when: x\nbase: &b v\nref: *b\nt: !t w\n---\n";
    let (out, lines) = frontmatter::repair(text.as_bytes());
    assert_eq!(lines, [3]);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "---\nname: s\ndescription: 'Use when: x'\nbase: &b v\nref: *b\nt: !t w\n---\n"
    );
}

/// Found by the `frontmatter_edit` fuzz target: a key written with a tag (`!this: …`) whose
/// value holds NUL bytes (so a strict reader rejects the file) had its value quoted by the
/// repair; a tagged key is YAML structure and its line stays as written.
#[test]
fn repair_leaves_a_tagged_key_line_holding_nul_bytes_as_written() {
    let text = "---\nname: s\ndescription: Use when: x\nti:\n !this: drq\0\0\n---\n";
    let (out, lines) = frontmatter::repair(text.as_bytes());
    assert_eq!(lines, [3]);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "---\nname: s\ndescription: 'Use when: x'\nti:\n !this: drq\0\0\n---\n"
    );
}

const HASH_LINE: &str = "---\nname: s2\ndescription: \"a\n# b\n  c\"\nother: x\n---\nbody\n";

#[test]
fn quoted_value_continued_after_a_column_0_hash_line_reads_as_pyyaml_and_survives_a_set() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(dir.path(), HASH_LINE.as_bytes());
    // PyYAML's BaseLoader: {'name': 's2', 'description': 'a # b c', 'other': 'x'}.
    assert_eq!(fm_get(&p, "description", GetMode::Text).unwrap(), "a # b c");
    let f = frontmatter::parse(HASH_LINE).unwrap();
    assert_eq!(
        f.warnings,
        [(
            4,
            "line inside the quoted value of `description` is not indented; read as part of it, \
             as PyYAML does"
                .to_string()
        )]
    );
    fm_set(&p, "other", "y").unwrap();
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        HASH_LINE.replace("other: x\n", "other: 'y'\n")
    );
}

#[test]
fn save_refuses_when_another_process_appends_while_the_temp_file_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(dir.path(), b"---\nname: a\n---\nlog\n");
    let file = save::load(&p).unwrap();
    let e = save::save_with_hook(&file, b"---\nname: b\n---\nlog\n", |_| {
        let mut f = fs::OpenOptions::new().append(true).open(&p)?;
        std::io::Write::write_all(&mut f, b"appended\n")
    })
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{} changed on disk while it was being saved; nothing written; reload",
            p.display()
        )
    );
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        "---\nname: a\n---\nlog\nappended\n"
    );
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["SKILL.md"], "no temp file left");
}

#[test]
fn nested_map_values_are_shared_with_their_keys_not_copied_per_level() {
    let text = "---\nm0:\n  m1:\n    m2:\n      leaf: x\n---\n";
    let p = frontmatter::parse_tree(text).unwrap();
    let m0 = &p.nodes[0];
    let m1 = &m0.children[0];
    let (Value::Map(outer), Value::Map(inner)) = (&m0.value, &m1.value) else {
        panic!("maps expected: {m0:?}");
    };
    let Value::Map(in_outer) = &outer[0].1 else {
        panic!("m1 is a map");
    };
    assert!(Arc::ptr_eq(in_outer, inner), "m1's pairs stored once");
    let Value::Map(entry_m0) = &p.fm.entries[0].value else {
        panic!("entry m0 is a map");
    };
    assert!(
        Arc::ptr_eq(entry_m0, outer),
        "the entry shares the key tree's pairs"
    );
}

#[test]
fn map_nested_past_the_depth_bound_is_one_text_value_that_an_edit_keeps() {
    let depth = frontmatter::parse::MAX_NESTING + 2;
    let mut text = String::from("---\nname: d\n");
    for i in 0..depth {
        text.push_str(&format!("{}m{i}:\n", " ".repeat(i)));
    }
    text.push_str(&format!("{}leaf: x\n---\n", " ".repeat(depth)));
    let f = frontmatter::parse(&text).unwrap();
    assert_eq!(f.warnings.len(), 1, "{:?}", f.warnings);
    assert_eq!(
        f.warnings[0],
        (
            516,
            format!(
                "maps nested more than {} levels deep in `m512`; read as text",
                frontmatter::parse::MAX_NESTING
            )
        )
    );
    let out = frontmatter::set(text.as_bytes(), "name", &EditValue::Str("e".into())).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        text.replace("name: d\n", "name: e\n")
    );
}

/// One frontmatter line (or block) with YAML structure the lenient parser reads as text.
fn structural(i: usize, kind: u8) -> String {
    match kind % 6 {
        0 => format!("a{i}: &x{i} anchored {i}\n"),
        1 => format!("r{i}: *x0\n"),
        2 => format!("t{i}: !tag{i} tagged\n"),
        3 => format!("m{i}: &m{i}\n  k: v\n  k2: v2\n"),
        4 => format!("g{i}:\n  <<: *m0\n  z: {i}\n"),
        _ => format!("s{i}: !!str {i}.10\n"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// `fm set` of `description` (through the file, with the save's repair) either is
    /// refused or changes nothing but the description's own lines: every anchor, alias,
    /// tag and merged map before and after it stays byte for byte, also when another
    /// value needs repair (which then changes only that value's line).
    #[test]
    fn fm_set_keeps_anchors_aliases_and_tags_of_other_keys(
        kinds in prop::collection::vec(any::<u8>(), 0..8),
        v in any::<String>(),
        broken in any::<bool>(),
    ) {
        let mut text = String::from("---\nname: p\na0: &x0 first\nm0: &m0\n  k: v\n");
        for (i, k) in kinds.iter().enumerate() {
            text.push_str(&structural(i + 1, *k));
        }
        text.push_str("description: old\n");
        if broken {
            text.push_str("bad: Use when: x\n");
        }
        text.push_str("---\nbody\n");
        let dir = tempfile::tempdir().unwrap();
        let p = temp_file(dir.path(), text.as_bytes());
        let before = frontmatter::parse(&text).unwrap();
        let e = before.get("description").unwrap().span.clone();
        match fm_set(&p, "description", &v) {
            Ok(_) => {
                let out = fs::read_to_string(&p).unwrap();
                prop_assert_eq!(&out[..e.start], &text[..e.start]);
                let tail = &text[e.end..];
                let want_tail = if broken { tail.replace("bad: Use when: x", "bad: 'Use when: x'") } else { tail.to_string() };
                prop_assert!(out.ends_with(&want_tail), "{out:?}");
            }
            Err(err) => {
                prop_assert!(matches!(err, Error::Refused(_)), "{err:?}");
                prop_assert_eq!(fs::read_to_string(&p).unwrap(), text);
            }
        }
    }
}

/// The inode number of `p`.
#[cfg(unix)]
fn inode(p: &Path) -> u64 {
    std::os::unix::fs::MetadataExt::ino(&fs::metadata(p).unwrap())
}

#[cfg(unix)]
#[test]
fn save_keeps_a_line_appended_through_a_descriptor_opened_before_the_rename() {
    let dir = tempfile::tempdir().unwrap();
    let p = temp_file(dir.path(), b"---\nname: a\n---\nlog\n");
    let file = save::load(&p).unwrap();
    let before = inode(&p);
    let mut writer = None;
    let r = save::save_with_hook(&file, b"---\nname: b\n---\nlog\n", |_| {
        // A writer that opened the file before the rename and writes just after it: its
        // bytes reach the replaced inode (they were lost).
        let mut f = fs::OpenOptions::new().append(true).open(&p)?;
        let path = p.clone();
        writer = Some(std::thread::spawn(move || {
            let start = std::time::Instant::now();
            while inode(&path) == before && start.elapsed() < std::time::Duration::from_secs(5) {
                std::thread::yield_now();
            }
            std::io::Write::write_all(&mut f, b"appended\n").unwrap();
        }));
        Ok(())
    });
    writer.unwrap().join().unwrap();
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        "---\nname: b\n---\nlog\nappended\n"
    );
}

#[test]
fn saves_racing_an_appending_writer_never_lose_an_appended_line() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("---\nname: race\ndescription: d0\n---\n");
    for i in 0..2000 {
        text.push_str(&format!("line {i}\n"));
    }
    let p = temp_file(dir.path(), text.as_bytes());
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (p, stop) = (p.clone(), Arc::clone(&stop));
        std::thread::spawn(move || {
            let (mut n, mut seed) = (0u32, 0x2545_f491_u32);
            while !stop.load(Ordering::Relaxed) && n < 100_000 {
                let mut f = fs::OpenOptions::new().append(true).open(&p).unwrap();
                std::io::Write::write_all(&mut f, format!("AP-{n}\n").as_bytes()).unwrap();
                drop(f);
                n += 1;
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                std::thread::sleep(std::time::Duration::from_micros(u64::from(seed % 3000)));
            }
            n
        })
    };
    let start = std::time::Instant::now();
    let mut saved = 0;
    for i in 0..200 {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            break;
        }
        let Ok(file) = save::load(&p) else { continue };
        let old = String::from_utf8_lossy(&file.bytes).into_owned();
        let Some(cur) = old.lines().find(|l| l.starts_with("description: ")) else {
            panic!("description line kept: {old}");
        };
        let new = old.replacen(cur, &format!("description: d{}", i + 1), 1);
        saved += usize::from(save::save(&file, new.as_bytes()).is_ok());
    }
    stop.store(true, Ordering::Relaxed);
    let written = writer.join().unwrap();
    let end = fs::read_to_string(&p).unwrap();
    let lost: Vec<u32> = (0..written)
        .filter(|n| !end.lines().any(|l| l == format!("AP-{n}")))
        .collect();
    assert_eq!(lost, Vec::<u32>::new(), "after {saved} saves");
    assert!(end.starts_with("---\nname: race\ndescription: d"), "{end}");
}

#[test]
fn fm_set_on_a_frontmatter_that_is_a_list_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for text in [
        "---\n- list\n---\nbody\n",
        "---\n- name: x\n---\n",
        "---\njust text\n---\n",
    ] {
        let p = temp_file(dir.path(), text.as_bytes());
        let e = fm_set(&p, "description", "new").unwrap_err();
        assert!(matches!(e, Error::Refused(_)), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "{}: the frontmatter is not a mapping of keys; not edited",
                p.display()
            )
        );
        assert_eq!(fs::read_to_string(&p).unwrap(), text);
    }
    let p = temp_file(dir.path(), b"---\n# only a comment\n---\n");
    fm_set(&p, "name", "x").unwrap();
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        "---\n# only a comment\nname: x\n---\n"
    );
}
