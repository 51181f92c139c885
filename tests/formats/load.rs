//! Loading plain doc trees, single files, bad bytes, duplicates, symlinks and ignore rules
//! (docs/DESIGN.md §2, §9). None of these inputs has frontmatter.

use skillnav::formats::{LoadOptions, RootSpec, load_root};
use skillnav::model::{Flag, Format, NodeKind};

use super::fixture;
use crate::support::corpus::*;
use crate::support::fs::{size, tempdir, write};

/// A loaded root keeps no spare capacity in its node arena or source list: the loader grows
/// them by doubling, and the unused half would stay allocated for the whole session.
#[test]
fn loaded_root_holds_no_spare_node_capacity() {
    let c = load(&fixture("handmade/docs"));
    assert_eq!(c.nodes.len(), 15);
    assert_eq!(c.nodes.capacity(), c.nodes.len());
    assert_eq!(c.sources.capacity(), c.sources.len());
}

#[test]
fn handmade_doc_tree_exact_nodes() {
    let c = load(&fixture("handmade/docs"));
    assert_eq!(
        dump(&c),
        vec![
            "docs root markdown",
            "docs/fences.md file markdown",
            "docs/fences.md#fenced-code section markdown L1-21",
            "docs/fences.md#fenced-code/after-the-fences section markdown L19-21",
            "docs/guide dir markdown",
            "docs/guide/cjk.md file markdown",
            "docs/guide/cjk.md#概要 section markdown L1-7",
            "docs/guide/cjk.md#概要/使用方法 section markdown L5-7",
            "docs/guide/data.json file text",
            "docs/guide/empty.md file markdown",
            "docs/notes.txt file text",
            "docs/rules.md file markdown",
            "docs/rules.md#rules section markdown L1-13",
            "docs/rules.md#rules/second section markdown L10-11",
            "docs/rules.md#rules/setext-title section markdown L12-13",
        ]
    );
    // Sizes: files are their size on disk; containers sum their children (the
    // non-markdown `data.json` is a text file of its own, so the root is the real size).
    let mut total = 0;
    for rel in [
        "fences.md",
        "guide/cjk.md",
        "guide/data.json",
        "guide/empty.md",
        "notes.txt",
        "rules.md",
    ] {
        let n = c.node(get(&c, &format!("docs/{rel}")));
        assert_eq!(n.bytes, size(&fixture("handmade/docs").join(rel)), "{rel}");
        total += n.bytes;
    }
    assert_eq!(c.node(c.roots[0]).bytes, total);
    assert_eq!(
        c.node(get(&c, "docs/guide")).bytes,
        size(&fixture("handmade/docs/guide/cjk.md")) + 15
    );
    // Not JSON ("not a document"): a text file without meta.
    let data = c.node(get(&c, "docs/guide/data.json"));
    assert_eq!((data.bytes, data.meta.len()), (15, 0));
    // Summaries: first sentence of the body, CJK full stop included.
    let cjk_id = get(&c, "docs/guide/cjk.md#概要");
    let cjk = c.node(cjk_id);
    assert_eq!(c.summary(cjk_id), "这是第一句话。");
    assert_eq!(cjk.level, 1);
    assert_eq!(
        c.summary(get(&c, "docs/fences.md#fenced-code")),
        "Shell comments inside fences are not headings."
    );
    // A .txt file is its own text.
    let notes = get(&c, "docs/notes.txt");
    assert_eq!(c.own_text(notes), "Plain notes.\nSecond line.\n");
    assert_eq!(c.node(notes).own_bytes, 26);
    // The section's text runs from its heading line to the next same-level heading.
    assert_eq!(
        c.text(get(&c, "docs/rules.md#rules/second")),
        "## Second\n\n"
    );
    assert!(c.node(c.roots[0]).warnings.is_empty());
}

#[test]
fn single_file_root_holds_that_file() {
    let path = fixture("handmade/docs/rules.md");
    let c = load(&path);
    assert_eq!(
        dump(&c),
        vec![
            "rules.md root markdown",
            "rules.md/rules.md file markdown",
            "rules.md/rules.md#rules section markdown L1-13",
            "rules.md/rules.md#rules/second section markdown L10-11",
            "rules.md/rules.md#rules/setext-title section markdown L12-13",
        ]
    );
    assert_eq!(c.node(c.roots[0]).bytes, size(&path));
}

#[test]
fn prelude_before_first_heading_is_titled_preamble_and_keeps_the_file_id() {
    let t = tempdir();
    write(
        t.path(),
        "intro.md",
        b"Some intro. More words.\n\n# Title\nbody\n",
    );
    let c = load_as(t.path(), "r");
    assert_eq!(
        dump(&c),
        vec![
            "r root markdown",
            "r/intro.md file markdown",
            "r/intro.md#intromd section markdown L1-2",
            "r/intro.md#title section markdown L3-4",
        ]
    );
    assert_eq!(c.node(get(&c, "r/intro.md#intromd")).title, "(preamble)");
    assert_eq!(c.summary(get(&c, "r/intro.md#intromd")), "Some intro.");
    assert_eq!(c.node(get(&c, "r/intro.md#intromd")).level, 0);
}

#[test]
fn sibling_heading_collisions_get_numbered_ids() {
    let t = tempdir();
    write(t.path(), "a.md", b"# Usage\nx\n# Usage\ny\n## Usage\nz\n");
    let c = load_as(t.path(), "r");
    assert_eq!(
        dump(&c),
        vec![
            "r root markdown",
            "r/a.md file markdown",
            "r/a.md#usage section markdown L1-2",
            "r/a.md#usage-2 section markdown L3-6",
            "r/a.md#usage-2/usage section markdown L5-6",
        ]
    );
}

#[test]
fn natural_order_puts_4_10_after_4_9() {
    let t = tempdir();
    for n in ["4-10.md", "4-9.md", "10.md", "2.md"] {
        write(t.path(), n, b"text\n");
    }
    let c = load_as(t.path(), "r");
    let names: Vec<String> = c
        .node(c.roots[0])
        .children
        .iter()
        .map(|k| c.node(*k).title.clone())
        .collect();
    assert_eq!(names, vec!["2.md", "4-9.md", "4-10.md", "10.md"]);
}

#[test]
fn invalid_utf8_binary_empty_and_truncated_files() {
    let t = tempdir();
    write(t.path(), "bad.md", b"# Caf\xff\n\ntext\n");
    write(t.path(), "bin.md", b"# x\0y\n");
    write(t.path(), "empty.md", b"");
    let mut huge = b"# Huge\n".to_vec();
    huge.resize(16 * 1024 * 1024 + 100, b'a');
    write(t.path(), "huge.txt", &huge);
    let c = load_as(t.path(), "r");
    assert_eq!(
        dump(&c),
        vec![
            "r root markdown",
            "r/bad.md file markdown [invalid-utf8]",
            "r/bad.md#caf section markdown L1-3",
            "r/bin.md file markdown [binary]",
            "r/empty.md file markdown",
            "r/huge.txt file text [truncated]",
        ]
    );
    // Offsets stay true: the invalid byte is one placeholder byte.
    let bad = get(&c, "r/bad.md#caf");
    assert_eq!(c.node(bad).title, "Caf\u{1a}");
    assert_eq!(c.node(bad).bytes, 13);
    assert_eq!(
        warnings(&c, "r/bad.md"),
        vec!["bad.md: invalid UTF-8 bytes (shown as U+FFFD)"]
    );
    assert_eq!(
        warnings(&c, "r/bin.md"),
        vec!["bin.md: binary content (NUL byte); not parsed"]
    );
    assert_eq!(c.node(get(&c, "r/bin.md")).bytes, 6);
    assert_eq!(c.node(get(&c, "r/empty.md")).bytes, 0);
    let h = get(&c, "r/huge.txt");
    assert_eq!(c.node(h).bytes, 16 * 1024 * 1024 + 100);
    assert_eq!(c.text(h).len(), 16 * 1024 * 1024);
    assert_eq!(
        warnings(&c, "r/huge.txt"),
        vec!["huge.txt: larger than 16 MiB; only the start was read"]
    );
}

#[test]
fn empty_corpus_and_empty_folders() {
    let t = tempdir();
    std::fs::create_dir_all(t.path().join("a/b")).unwrap_or_else(|e| panic!("{e}"));
    let c = load_as(t.path(), "r");
    assert_eq!(dump(&c), vec!["r root markdown"]);
    assert_eq!(c.len(), 1, "pruned folders leave no orphan nodes");
    assert_eq!(
        c.node(c.roots[0]).warnings[0].message,
        format!("no documents found in {}", t.path().display())
    );
    // A folder whose only file is code keeps it (a text file); its empty sibling is pruned.
    write(t.path(), "a/script.py", b"print()\n");
    let c = load_as(t.path(), "r");
    assert_eq!(
        dump(&c),
        vec![
            "r root markdown",
            "r/a dir markdown",
            "r/a/script.py file text"
        ]
    );
    assert_eq!(c.node(c.roots[0]).bytes, 8);
    let missing = load_as(&t.path().join("nope"), "x");
    assert!(
        missing.node(missing.roots[0]).warnings[0]
            .message
            .starts_with("cannot open ")
    );
}

#[test]
fn duplicate_files_and_all_duplicate_folder() {
    let t = tempdir();
    write(t.path(), "guide.md", b"# Guide\nsame\n");
    write(t.path(), "mirror/deep/guide.md", b"# Guide\nsame\n");
    write(t.path(), "mirror/copy.md", b"# Guide\nsame\n");
    write(
        t.path(),
        "mirror/README.md",
        b"# Mirror\n- [copy](copy.md)\n",
    );
    write(t.path(), "other/guide.md", b"# Guide\nsame\n");
    write(t.path(), "other/own.md", b"# Own\n");
    write(t.path(), "e1.md", b"");
    write(t.path(), "e2.md", b"");
    let c = load_as(t.path(), "r");
    assert_eq!(
        dump(&c)
            .into_iter()
            .filter(|l| !l.contains('#'))
            .collect::<Vec<_>>(),
        vec![
            "r root markdown",
            "r/e1.md file markdown",
            "r/e2.md file markdown",
            "r/guide.md file markdown",
            "r/mirror dir markdown [duplicate]",
            "r/mirror/copy.md file markdown [duplicate]",
            "r/mirror/deep dir markdown [duplicate]",
            "r/mirror/deep/guide.md file markdown [duplicate]",
            "r/mirror/README.md file markdown",
            "r/other dir markdown",
            "r/other/guide.md file markdown [duplicate]",
            "r/other/own.md file markdown",
        ]
    );
    assert_eq!(
        warnings(&c, "r/mirror/deep/guide.md"),
        vec!["mirror/deep/guide.md: same content as guide.md"]
    );
    // Containers leave copies out of their sums.
    assert_eq!(c.node(c.roots[0]).bytes, 13 + 6);
    assert_eq!(c.node(get(&c, "r/other")).bytes, 6);
}

#[test]
fn gitignore_respected_in_repos_and_hidden_folders_walked() {
    let t = tempdir();
    std::fs::create_dir_all(t.path().join(".git")).unwrap_or_else(|e| panic!("{e}"));
    write(t.path(), ".git/HEAD.md", b"# not walked\n");
    write(t.path(), ".gitignore", b"ignored.md\n");
    write(t.path(), "ignored.md", b"# Ignored\n");
    write(t.path(), "kept.md", b"# Kept\n");
    write(t.path(), ".claude/notes.md", b"# Notes\n");
    let c = load_as(t.path(), "r");
    let files: Vec<String> = dump(&c)
        .into_iter()
        .filter(|l| l.contains(" file ") || l.contains(" dir "))
        .collect();
    assert_eq!(
        files,
        vec![
            "r/.claude dir markdown",
            "r/.claude/notes.md file markdown",
            "r/.gitignore file text",
            "r/kept.md file markdown"
        ]
    );
    // What was left out on purpose is said on the root.
    let root = c.node(c.roots[0]);
    assert_eq!(
        warnings(&c, "r"),
        vec!["left out on purpose: 1 entry ignored by .gitignore, 1 .git folder (never entered)"]
    );
    assert_eq!(
        root.meta.get("skipped"),
        Some(
            &serde_json::json!({"gitignored": 1, "git_dirs": 1, "over_size_cap": 0, "special": 0})
        )
    );
}

#[cfg(unix)]
#[test]
fn symlinks_alias_loop_external_and_followed_skill() {
    use std::os::unix::fs::symlink;
    let outside = tempdir();
    write(outside.path(), "ext.md", b"# External\n");
    write(
        outside.path(),
        "linked-skill/SKILL.md",
        b"# No frontmatter\nbody\n",
    );
    let t = tempdir();
    let root = t.path();
    write(root, "real.md", b"# Real\n");
    let ok = |r: std::io::Result<()>| r.unwrap_or_else(|e| panic!("symlink: {e}"));
    ok(symlink(root.join("real.md"), root.join("alias.md")));
    std::fs::create_dir_all(root.join("sub")).unwrap_or_else(|e| panic!("{e}"));
    ok(symlink("..", root.join("sub/loop")));
    ok(symlink(outside.path().join("ext.md"), root.join("ext.md")));
    ok(symlink(
        outside.path().join("linked-skill"),
        root.join("my-skill"),
    ));
    let c = load_as(root, "r");
    assert_eq!(
        dump(&c),
        vec![
            "r root skills_dir",
            "r/alias.md file markdown [alias]",
            "r/ext.md file markdown [external-link]",
            "r/my-skill skill skill",
            "r/my-skill/SKILL.md file markdown",
            "r/my-skill/SKILL.md#no-frontmatter section markdown L1-2",
            "r/real.md file markdown",
            "r/real.md#real section markdown L1-1",
            "r/sub dir markdown",
            "r/sub/loop dir markdown [alias]",
        ]
    );
    assert_eq!(c.node(get(&c, "r/alias.md")).meta["alias_of"], "real.md");
    assert_eq!(
        c.node(get(&c, "r/sub/loop")).meta["note"],
        "symlink loop: points to its ancestor ."
    );
    let ext = get(&c, "r/ext.md");
    assert!(c.node(ext).span.is_none(), "external links are not read");
    assert_eq!(c.node(ext).bytes, 0);
    assert_eq!(c.node(ext).meta["target_bytes"], 11);
    assert!(
        warnings(&c, "r/ext.md")[0]
            .starts_with("ext.md: symbolic link leaves the opened root (to ")
    );
    assert_eq!(
        warnings(&c, "r/my-skill/SKILL.md"),
        vec!["my-skill/SKILL.md:1: no frontmatter (the file must start with a `---` line)"]
    );
    assert!(
        warnings(&c, "r/my-skill").is_empty(),
        "the warning is shown once, on SKILL.md"
    );
    // Aliases and external links are not counted: root = real.md + the skill's SKILL.md.
    assert_eq!(c.node(c.roots[0]).bytes, 7 + 22);

    // With --follow-links the external file is read.
    let spec = RootSpec {
        path: root.to_path_buf(),
        label: "r".into(),
    };
    let c = load_root(
        &spec,
        &LoadOptions {
            follow_links: true,
            ..Default::default()
        },
        &mut |_| {},
    );
    let ext = get(&c, "r/ext.md");
    assert!(!c.node(ext).flags.has(Flag::ExternalLink));
    assert_eq!(c.text(get(&c, "r/ext.md#external")), "# External\n");
}

#[test]
fn progress_is_reported_every_32_files_and_at_the_end() {
    let t = tempdir();
    for i in 0..70 {
        write(
            t.path(),
            &format!("f{i}.md"),
            format!("# F{i}\n").as_bytes(),
        );
    }
    let mut calls = Vec::new();
    let spec = RootSpec {
        path: t.path().to_path_buf(),
        label: "r".into(),
    };
    let c = load_root(&spec, &LoadOptions::default(), &mut |n| calls.push(n));
    assert_eq!(calls, vec![32, 64, 70]);
    assert_eq!(c.node(c.roots[0]).children.len(), 70);
    assert_eq!(c.node(c.roots[0]).kind, NodeKind::Root);
    assert_eq!(c.node(c.roots[0]).format, Format::Markdown);
}

#[cfg(unix)]
#[test]
fn skill_linked_from_inside_the_root_is_loaded_once() {
    let t = tempdir();
    let root = t.path();
    write(root, "src/kit/SKILL.md", b"# Kit\n");
    std::fs::create_dir_all(root.join("skills")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(root.join("src/kit"), root.join("skills/kit"))
        .unwrap_or_else(|e| panic!("{e}"));
    let c = load_as(root, "r");
    assert_eq!(
        dump(&c),
        vec![
            "r root skills_dir",
            "r/skills dir skills_dir",
            "r/skills/kit skill skill",
            "r/skills/kit/SKILL.md file markdown",
            "r/skills/kit/SKILL.md#kit section markdown L1-1",
            "r/src dir markdown",
            "r/src/kit dir markdown [alias]",
        ]
    );
    assert_eq!(c.node(c.roots[0]).bytes, 6);
}

#[test]
fn large_markdown_roots_are_sectioned_on_worker_threads_in_file_order() {
    // Over the parallel threshold (256 KiB of markdown): same result as one thread.
    let t = tempdir();
    for i in 0..6 {
        let mut text = String::new();
        for j in 0..1500 {
            text.push_str(&format!(
                "## Part {j}\nBody of part {j} in file {i}. More.\n\n"
            ));
        }
        write(t.path(), &format!("f{i}.md"), text.as_bytes());
    }
    let c = load_as(t.path(), "r");
    for i in 0..6 {
        let file = c.node(get(&c, &format!("r/f{i}.md")));
        assert_eq!(file.children.len(), 1500);
        let id = get(&c, &format!("r/f{i}.md#part-1499"));
        let n = c.node(id);
        assert_eq!((n.line_start, n.line_end), (Some(4498), Some(4500)));
        assert_eq!(c.summary(id), format!("Body of part 1499 in file {i}."));
    }
}

/// Regression: `skillnav tree a/docs a/docs/x.md` counted x.md twice. Both roots stay, the
/// second occurrence is flagged `alias` (listed, not counted) once the roots are merged.
#[test]
fn folder_and_file_inside_it_count_the_file_once() {
    let t = tempdir();
    let docs = t.path().join("docs");
    write(&docs, "x.md", b"# X\n\nhello world\n");
    write(&docs, "y.md", b"# Y\n\nyy\n");
    let mut c = load_as(&docs, "docs");
    c.append(load_as(&docs.join("x.md"), "x.md"));
    skillnav::formats::resolve_scopes(&mut c, false);
    let first = get(&c, "docs/x.md");
    let second = get(&c, "x.md/x.md");
    assert!(!c.node(first).flags.has(Flag::Alias));
    assert!(c.node(second).flags.has(Flag::Alias));
    assert_eq!(c.node(second).meta["alias_of"], "docs/x.md");
    assert_eq!(c.node(second).bytes, 17, "the alias still shows its size");
    assert_eq!(c.node(c.roots[0]).bytes, 17 + 8);
    assert_eq!(c.node(c.roots[1]).bytes, 0, "not counted in its root");
    // Idempotent: the scope pass may run again after a reload.
    assert_eq!(
        skillnav::formats::mark_cross_root_aliases(&mut c),
        Vec::new()
    );
    assert_eq!(c.node(c.roots[1]).bytes, 0);
}

#[test]
fn summaries_are_made_on_first_read_and_warming_makes_those_of_big_files() {
    let t = tempdir();
    let mut big = String::new();
    for j in 0..2000 {
        big.push_str(&format!("## Part {j}\nBody of part {j}. More.\n\n"));
    }
    assert!(big.len() > 64 * 1024);
    write(t.path(), "big.md", big.as_bytes());
    write(t.path(), "small.md", b"# Small\nA short body. More.\n");
    let c = load_as(t.path(), "r");
    let lazy = |rel: &str| {
        c.node(get(&c, rel))
            .lazy_summary
            .clone()
            .expect("a walked markdown section's summary is made on first read")
    };
    let (big_lazy, small_lazy) = (lazy("r/big.md#part-7"), lazy("r/small.md#small"));
    assert!(!big_lazy.is_made() && !small_lazy.is_made());
    c.warm_summaries(64 * 1024);
    assert!(big_lazy.is_made(), "a big file is warmed");
    assert!(
        !small_lazy.is_made(),
        "a small file waits for its first read"
    );
    assert_eq!(c.summary(get(&c, "r/big.md#part-7")), "Body of part 7.");
    assert_eq!(c.summary(get(&c, "r/small.md#small")), "A short body.");
    assert!(small_lazy.is_made());
}

#[test]
fn the_cli_shows_a_preamble_as_preamble_in_tree_search_and_brief() {
    let dir = crate::support::fs::fixture_path("preview/notes");
    let home = tempdir();
    let run = |args: &[&str]| {
        let out = crate::support::child::skillnav_command()
            .args(args)
            .arg(&dir)
            .env("HOME", home.path())
            .output()
            .expect("run skillnav");
        assert!(out.status.success());
        String::from_utf8(out.stdout).expect("utf-8")
    };
    assert_eq!(
        run(&["tree"]),
        "◆ notes  473 B · Σ158 tok\n  · README.md  101 B · Σ24 tok\n    \
         # (preamble)  65 B · 14 tok\n    # Pages  36 B · 10 tok\n  \
         · summary.json  372 B · 134 tok\ntokens: o200k_base\n"
    );
    assert_eq!(
        run(&["search", "notes"]),
        "Content (BM25): 1 hits\n     1.413  (preamble)  notes/README.md#readmemd:1\n\
         Titles (fuzzy): 0 hits\n"
    );
    assert_eq!(
        run(&["brief", "-q", "notes", "--format", "xml"]),
        "<context_brief mode=\"answer\" encoding=\"o200k_base\" sections=\"1\" tokens=\"14\" \
         query=\"notes\">\n<document id=\"notes/README.md#readmemd\" title=\"(preamble)\" \
         path=\"README.md\" lines=\"1-2\" score=\"1.413\" origin=\"retrieved\" \
         exposure=\"on-demand\">\nNotes kept while reading the Hono docs. Start with the \
         summary.\n</document>\n</context_brief>\n"
    );
}

/// Two links that point at each other are named as a loop, not as a link to a missing
/// file; a link to a missing file is still "broken".
#[cfg(unix)]
#[test]
fn links_pointing_at_each_other_are_a_loop_not_a_broken_link() {
    use std::os::unix::fs::symlink;
    let t = tempdir();
    let root = t.path();
    write(root, "a.md", b"# A\n");
    let ok = |r: std::io::Result<()>| r.unwrap_or_else(|e| panic!("symlink: {e}"));
    ok(symlink("loopb", root.join("loopa")));
    ok(symlink("loopa", root.join("loopb")));
    ok(symlink("missing.md", root.join("gone.md")));
    let c = load_as(root, "r");
    assert_eq!(
        warnings(&c, "r/loopa"),
        ["loopa: symbolic link loop to loopb"]
    );
    assert_eq!(
        warnings(&c, "r/loopb"),
        ["loopb: symbolic link loop to loopa"]
    );
    assert_eq!(
        warnings(&c, "r/gone.md"),
        ["gone.md: broken symbolic link to missing.md"]
    );
}
