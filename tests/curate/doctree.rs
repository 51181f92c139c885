//! Doc-tree collapse and merge (`src/formats/doc_tree/reshape.rs`) on a hand-made tree built in a temp dir.

use std::path::Path;

use skillnav::formats::doc_tree::reshape::{
    MergeOptions, Step, apply, group_name, name_suffix, plan_collapse, plan_merge, prefix_str,
};

fn words(n: usize, tag: &str) -> String {
    format!("# {tag}\n\n{}\n", vec!["w"; n.saturating_sub(2)].join(" "))
}

fn leaf(top: &Path, rel: &str, n: usize) {
    let d = top.join(rel);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("doc.md"), words(n, rel)).unwrap();
    std::fs::write(d.join("README.md"), format!("# {rel}\n\nSummary.\n")).unwrap();
}

fn tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let top = t.path();
    std::fs::write(top.join("README.md"), "# Top\n\n- **1-Intro** — intro\n").unwrap();
    leaf(top, "1-Intro", 50);
    leaf(top, "2-Directives/2-1-Perf-Tuning/2-1-1-maxnreg", 80);
    leaf(top, "2-Directives/2-1-Perf-Tuning/2-1-2-maxntid", 95);
    leaf(top, "2-Directives/2-1-Perf-Tuning/2-1-10-reqntid", 70);
    leaf(top, "2-Directives/2-2-Linking/2-2-1-extern-Directive", 45);
    leaf(top, "2-Directives/2-2-Linking/2-2-2-visible-Directive", 40);
    leaf(top, "2-Directives/2-2-Linking/2-2-3-big", 400);
    leaf(top, "2-Directives/2-2-Linking/2-2-4-weak-Directive", 30);
    leaf(top, "2-Directives/2-2-Linking/2-2-5-weak-Directive-Alt", 30);
    for (i, n) in ["a", "b", "c", "d"].iter().enumerate() {
        leaf(top, &format!("3-Big/3-{}-Part-{n}", i + 1), 250);
    }
    std::fs::create_dir_all(top.join("3-Big/3-1-Part-a/img")).unwrap();
    std::fs::write(top.join("3-Big/3-1-Part-a/img/fig.png"), b"png").unwrap();
    leaf(top, "4-Solo/4-1-Only", 20);
    t
}

#[test]
fn name_rules_follow_merge_py() {
    assert_eq!(
        name_suffix("10-1-Special-Registerstid"),
        "Special-Registerstid"
    );
    assert_eq!(name_suffix("4-10-2"), "2");
    assert_eq!(name_suffix("Key-Concepts"), "Key-Concepts");
    assert_eq!(prefix_str("11-4-Performance"), Some("11-4"));
    assert_eq!(prefix_str("Key"), None);
    let g = |v: &[&str]| {
        group_name(
            &v.iter()
                .map(std::string::ToString::to_string)
                .collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        g(&["2-2-4-weak-Directive", "2-2-5-weak-Directive-Alt"]),
        (
            "2-2-4-to-2-2-5-weak-Directive".into(),
            "weak-Directive".into()
        )
    );
    assert_eq!(
        g(&["2-2-1-extern-Directive", "2-2-2-visible-Directive"]),
        (
            "2-2-1-to-2-2-2-extern-Directive".into(),
            "extern-Directive".into()
        )
    );
    assert_eq!(g(&["5-a-x", "5-b-x"]), ("5-a-x".into(), "a-x".into()));
}

#[test]
fn merge_dry_run_plans_exactly_the_rule_merges() {
    let t = tree();
    let steps = plan_merge(
        t.path(),
        MergeOptions {
            min_words: 300,
            max_words: 600,
        },
    )
    .unwrap();
    let lines: Vec<String> = steps.iter().map(std::string::ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "merge into 2-Directives/2-1-Perf-Tuning <- 2-1-1-maxnreg, 2-1-2-maxntid, 2-1-10-reqntid (247 words)",
            "merge into 2-Directives/2-2-Linking/2-2-1-to-2-2-2-extern-Directive <- 2-2-1-extern-Directive, 2-2-2-visible-Directive (86 words)",
            "merge into 2-Directives/2-2-Linking/2-2-4-to-2-2-5-weak-Directive <- 2-2-4-weak-Directive, 2-2-5-weak-Directive-Alt (61 words)",
            "rewrite 2-Directives/2-2-Linking/README.md",
            "merge into 3-Big/3-1-to-3-2-Part <- 3-1-Part-a, 3-2-Part-b (501 words)",
            "merge into 3-Big/3-3-to-3-4-Part <- 3-3-Part-c, 3-4-Part-d (501 words)",
            "rewrite 3-Big/README.md",
        ]
    );
    // Dry run: nothing changed on disk.
    assert!(t.path().join("3-Big/3-1-Part-a/doc.md").is_file());
}

#[test]
fn merge_applies_the_plan_with_placeholders() {
    let t = tree();
    let top = t.path();
    let steps = plan_merge(
        top,
        MergeOptions {
            min_words: 300,
            max_words: 600,
        },
    )
    .unwrap();
    apply(top, &steps).unwrap();
    let doc = std::fs::read_to_string(top.join("2-Directives/2-1-Perf-Tuning/doc.md")).unwrap();
    assert!(doc.starts_with("# 2-Directives/2-1-Perf-Tuning/2-1-1-maxnreg\n"));
    assert_eq!(doc.matches("\n\n---\n\n").count(), 2);
    assert!(doc.ends_with("w\n"));
    assert_eq!(doc.split_whitespace().count(), 247);
    assert!(
        !top.join("2-Directives/2-1-Perf-Tuning/2-1-1-maxnreg")
            .exists()
    );
    assert_eq!(
        std::fs::read_to_string(top.join("2-Directives/2-1-Perf-Tuning/README.md")).unwrap(),
        "# Perf Tuning\n\nMerged from: 2-1-1-maxnreg to 2-1-10-reqntid\n\n(placeholder - 50-word summary goes here)\n"
    );
    // A group is titled by every page it holds (their README titles), not the first one.
    assert_eq!(
        std::fs::read_to_string(top.join("3-Big/3-1-to-3-2-Part/README.md")).unwrap(),
        "# 3-Big/3-1-Part-a and 3-Big/3-2-Part-b\n\nMerged from: 3-1-Part-a to 3-2-Part-b\n\n(placeholder - 50-word summary goes here)\n"
    );
    assert_eq!(
        std::fs::read(top.join("3-Big/3-1-to-3-2-Part/img/fig.png")).unwrap(),
        b"png"
    );
    // Bullets name the folders whole, as the loader reads them (docs/FORMATS.md §6).
    assert_eq!(
        std::fs::read_to_string(top.join("3-Big/README.md")).unwrap(),
        "# Big\n\n- **3-1-to-3-2-Part** — (placeholder - 20-word summary goes here)\n- **3-3-to-3-4-Part** — (placeholder - 20-word summary goes here)\n"
    );
    // Nothing is left to merge, so a second plan is empty: no README is rewritten again.
    let again = plan_merge(
        top,
        MergeOptions {
            min_words: 300,
            max_words: 600,
        },
    )
    .unwrap();
    assert_eq!(again, []);
}

#[test]
fn merging_into_a_parent_keeps_its_own_page_first_and_its_title() {
    let t = tempfile::tempdir().unwrap();
    let top = t.path();
    std::fs::write(
        top.join("README.md"),
        "# Top\n\n- **13-Memory-model** — bytes and values\n",
    )
    .unwrap();
    let parent = top.join("13-Memory-model");
    std::fs::create_dir_all(&parent).unwrap();
    std::fs::write(
        parent.join("doc.md"),
        "# Memory model\n\nThe parent page.\n",
    )
    .unwrap();
    std::fs::write(
        parent.join("README.md"),
        "# 13. Memory model\n\n- **13-1-Allocation** — heap\n- **13-2-Variables** — locals\n",
    )
    .unwrap();
    leaf(top, "13-Memory-model/13-1-Allocation", 40);
    leaf(top, "13-Memory-model/13-2-Variables", 30);
    let steps = plan_merge(top, MergeOptions::default()).unwrap();
    let lines: Vec<String> = steps.iter().map(std::string::ToString::to_string).collect();
    assert_eq!(
        lines,
        ["merge into 13-Memory-model <- its doc.md, 13-1-Allocation, 13-2-Variables (78 words)"]
    );
    apply(top, &steps).unwrap();
    let doc = std::fs::read_to_string(parent.join("doc.md")).unwrap();
    assert!(
        doc.starts_with(
            "# Memory model\n\nThe parent page.\n\n---\n\n# 13-Memory-model/13-1-Allocation\n"
        ),
        "{doc}"
    );
    assert_eq!(doc.matches("\n\n---\n\n").count(), 2);
    assert_eq!(
        std::fs::read_to_string(parent.join("README.md")).unwrap(),
        "# 13. Memory model\n\nMerged from: 13-Memory-model (its own page), 13-1-Allocation to 13-2-Variables\n\n(placeholder - 50-word summary goes here)\n"
    );
    // The loader splits the merged doc into its three parts.
    let c = crate::support::corpus::load(top);
    let doc_md = c
        .find(&format!(
            "{}/13-Memory-model/doc.md",
            top.file_name().unwrap().to_string_lossy()
        ))
        .unwrap();
    assert_eq!(c.node(doc_md).children.len(), 3);
}

#[test]
fn a_rewritten_readme_keeps_the_summaries_already_written_and_the_tree_loads_clean() {
    let t = tempfile::tempdir().unwrap();
    let top = t.path();
    std::fs::write(
        top.join("README.md"),
        "# Top\n\n- **2-Linking** — linking directives\n",
    )
    .unwrap();
    std::fs::create_dir_all(top.join("2-Linking")).unwrap();
    std::fs::write(
        top.join("2-Linking/README.md"),
        "# 2. Linking\n\nHow modules link.\n\n- **2-1-extern** — extern\n- **2-2-visible** — visible\n- **2-3-big** — The big page, summarised by hand.\n\nSee also the spec.\n",
    )
    .unwrap();
    leaf(top, "2-Linking/2-1-extern", 45);
    leaf(top, "2-Linking/2-2-visible", 40);
    leaf(top, "2-Linking/2-3-big", 400);
    let steps = plan_merge(top, MergeOptions::default()).unwrap();
    apply(top, &steps).unwrap();
    assert_eq!(
        std::fs::read_to_string(top.join("2-Linking/README.md")).unwrap(),
        "# 2. Linking\n\nHow modules link.\n\n- **2-1-to-2-2-extern** — (placeholder - 20-word summary goes here)\n- **2-3-big** — The big page, summarised by hand.\n\nSee also the spec.\n"
    );
    let c = crate::support::corpus::load(top);
    let warnings: Vec<&str> = c
        .nodes
        .iter()
        .flat_map(|n| n.warnings.iter().map(|w| w.message.as_str()))
        .filter(|w| !w.contains("placeholder"))
        .collect();
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn collapse_pulls_a_single_child_up() {
    let t = tree();
    let top = t.path();
    let steps = plan_collapse(top).unwrap();
    assert_eq!(
        steps,
        [Step::Collapse {
            dir: "4-Solo".into(),
            child: "4-1-Only".into()
        }]
    );
    assert_eq!(steps[0].to_string(), "collapse 4-Solo <- 4-1-Only");
    apply(top, &steps).unwrap();
    assert!(top.join("4-Solo/doc.md").is_file());
    assert!(!top.join("4-Solo/4-1-Only").exists());
    assert_eq!(
        std::fs::read_to_string(top.join("4-Solo/README.md")).unwrap(),
        "# 4-Solo/4-1-Only\n\nSummary.\n"
    );
}

/// A tree `G` of short leaves with the given README under it, in a temp dir.
fn short_leaves(readme: &str, leaves: &[(&str, usize)]) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("G")).unwrap();
    std::fs::write(t.path().join("G/README.md"), readme).unwrap();
    for (name, n) in leaves {
        leaf(t.path(), &format!("G/{name}"), *n);
    }
    t
}

fn plan_lines(top: &Path) -> Vec<String> {
    plan_merge(top, MergeOptions::default())
        .unwrap()
        .iter()
        .map(std::string::ToString::to_string)
        .collect()
}

#[test]
fn a_leaf_with_files_merge_cannot_move_or_a_clashing_image_is_never_merged_into_loss() {
    let t = short_leaves(
        "# G\n",
        &[
            ("1-A", 20),
            ("2-B", 20),
            ("3-C", 20),
            ("4-D", 20),
            ("5-E", 900),
        ],
    );
    let g = t.path().join("G");
    // 2-B holds a data file; 3-C and 4-D both have img/fig.png.
    std::fs::write(g.join("2-B/data.csv"), "a,b\n").unwrap();
    for (l, bytes) in [("3-C", "CCC"), ("4-D", "DDD")] {
        std::fs::create_dir_all(g.join(l).join("img")).unwrap();
        std::fs::write(g.join(l).join("img/fig.png"), bytes).unwrap();
    }
    // Nothing to merge: 1-A is alone before 2-B, and 3-C and 4-D cannot share img/.
    assert_eq!(plan_lines(t.path()), Vec::<String>::new());
    std::fs::rename(g.join("4-D/img/fig.png"), g.join("4-D/img/fig-d.png")).unwrap();
    let steps = plan_merge(t.path(), MergeOptions::default()).unwrap();
    apply(t.path(), &steps).unwrap();
    assert_eq!(std::fs::read(g.join("2-B/data.csv")).unwrap(), b"a,b\n");
    assert_eq!(
        std::fs::read(g.join("3-to-4-C/img/fig.png")).unwrap(),
        b"CCC"
    );
    assert_eq!(
        std::fs::read(g.join("3-to-4-C/img/fig-d.png")).unwrap(),
        b"DDD"
    );
}

#[test]
fn a_rewritten_readme_keeps_its_headings_and_every_bullet_in_place() {
    let readme = "# G\n\n## Basics\n\n- **1-A** — summary A\n  more about A\n- **2-B** — summary B\n\n\
                  ## Advanced\n\n- **3-C** — summary C\n- **9-Gone** — an old bullet\n";
    let t = short_leaves(readme, &[("1-A", 20), ("2-B", 20), ("3-C", 900)]);
    let steps = plan_merge(t.path(), MergeOptions::default()).unwrap();
    apply(t.path(), &steps).unwrap();
    assert_eq!(
        std::fs::read_to_string(t.path().join("G/README.md")).unwrap(),
        "# G\n\n## Basics\n\n- **1-to-2-A** — (placeholder - 20-word summary goes here)\n\n\
         ## Advanced\n\n- **3-C** — summary C\n- **9-Gone** — an old bullet\n"
    );
}

#[test]
fn group_names_never_say_none_nor_reuse_a_folder_and_a_group_merges_again_cleanly() {
    let t = short_leaves("# G\n", &[("Alpha", 20), ("Beta", 20), ("Gamma", 900)]);
    assert_eq!(
        plan_lines(t.path()),
        [
            "merge into G/Alpha-to-Beta <- Alpha, Beta (41 words)",
            "rewrite G/README.md"
        ]
    );
    // A folder of the name the group would take is not reused, not even a member's (the
    // merged doc would be deleted with the member).
    let t = short_leaves("# G\n", &[("5-a-x", 20), ("5-b-x", 20)]);
    assert_eq!(
        plan_lines(t.path()),
        ["merge into G <- 5-a-x, 5-b-x (41 words)"]
    );
    let t = short_leaves("# G\n", &[("5-a-x", 20), ("5-b-x", 20), ("6-big", 900)]);
    assert_eq!(
        plan_lines(t.path())[0],
        "merge into G/5-a-x-2 <- 5-a-x, 5-b-x (41 words)"
    );
    let steps = plan_merge(t.path(), MergeOptions::default()).unwrap();
    apply(t.path(), &steps).unwrap();
    let doc = std::fs::read_to_string(t.path().join("G/5-a-x-2/doc.md")).unwrap();
    assert_eq!(doc.split_whitespace().count(), 41);
    // A group merged again keeps its number range and name.
    assert_eq!(
        group_name(&["1-to-2-A".to_string(), "3-C".to_string()]).0,
        "1-to-3-A"
    );
}

#[test]
fn a_crawler_error_page_is_never_merged_into_a_group() {
    let t = short_leaves("# G\n", &[("1-A", 20), ("2-B", 20), ("3-C", 20)]);
    std::fs::write(t.path().join("G/2-B/doc.md"), "# Error: 404\n").unwrap();
    assert_eq!(plan_lines(t.path()), Vec::<String>::new());
}

#[test]
fn merged_files_keep_permissions_and_line_endings() {
    let readme = "# G\r\n\r\n- **1-A** — a\r\n- **2-B** — b\r\n- **3-C** — c\r\n";
    let t = short_leaves(readme, &[("1-A", 20), ("2-B", 20), ("3-C", 900)]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let p = t.path().join("G/README.md");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let steps = plan_merge(t.path(), MergeOptions::default()).unwrap();
    apply(t.path(), &steps).unwrap();
    let text = std::fs::read_to_string(t.path().join("G/README.md")).unwrap();
    assert_eq!(
        text,
        "# G\r\n\r\n- **1-to-2-A** — (placeholder - 20-word summary goes here)\r\n- **3-C** — c\r\n"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |p: &str| {
            std::fs::metadata(t.path().join(p))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("G/README.md"), 0o644);
        assert_eq!(mode("G/1-to-2-A/doc.md"), mode("G/3-C/doc.md"));
    }
}

#[test]
fn collapse_never_replaces_a_file_of_the_folder_but_its_readme() {
    let t = tempfile::tempdir().unwrap();
    let top = t.path();
    std::fs::create_dir_all(top.join("4-Solo")).unwrap();
    std::fs::write(top.join("4-Solo/notes.txt"), "parent notes").unwrap();
    leaf(top, "4-Solo/4-1-Only", 20);
    std::fs::write(top.join("4-Solo/4-1-Only/notes.txt"), "child notes").unwrap();
    assert_eq!(plan_collapse(top).unwrap(), []);
    std::fs::remove_file(top.join("4-Solo/4-1-Only/notes.txt")).unwrap();
    assert_eq!(plan_collapse(top).unwrap().len(), 1);
}

#[test]
fn bytes_a_merge_could_only_rewrite_keep_their_folder_unmerged() {
    // A README that is not UTF-8, or ends its lines in a lone CR, cannot be edited in
    // place; a page that is not UTF-8 would lose its bytes in a merged text.
    let readme = "# S\n\nCafe para.\n\n- **1-A** — a\n- **2-B** — b\n- **3-L** — l\n";
    // Latin-1 `é` (one byte 0xe9) in the README's text.
    let latin1: Vec<u8> = readme
        .replace("Cafe", "Caf\u{1}")
        .bytes()
        .map(|b| if b == 1 { 0xe9 } else { b })
        .collect();
    for (file, bytes) in [
        ("README.md", latin1),
        ("README.md", readme.replace('\n', "\r").into_bytes()),
        ("1-A/doc.md", b"# A\n\nna\xefve caf\xe9\n".to_vec()),
    ] {
        let t = short_leaves(readme, &[("1-A", 20), ("2-B", 20), ("3-L", 900)]);
        std::fs::write(t.path().join("G").join(file), &bytes).unwrap();
        assert_eq!(plan_lines(t.path()), Vec::<String>::new(), "{file}");
    }
}

#[test]
fn indented_bullets_are_bullets_not_lines_continuing_the_one_above() {
    let readme = "# G\n\n  - **1-A** — a\n  - **2-B** — b\n  - **3-L** — KEEPL\n";
    let t = short_leaves(readme, &[("1-A", 20), ("2-B", 20), ("3-L", 900)]);
    let steps = plan_merge(t.path(), MergeOptions::default()).unwrap();
    apply(t.path(), &steps).unwrap();
    assert_eq!(
        std::fs::read_to_string(t.path().join("G/README.md")).unwrap(),
        "# G\n\n- **1-to-2-A** — (placeholder - 20-word summary goes here)\n  - **3-L** — KEEPL\n"
    );
}

#[test]
fn collapsing_a_child_without_a_readme_drops_the_bullet_that_named_it() {
    let t = tempfile::tempdir().unwrap();
    let top = t.path();
    std::fs::create_dir_all(top.join("3-Intro/Basics1")).unwrap();
    std::fs::write(
        top.join("3-Intro/README.md"),
        "# 3. Intro\n\n- **Basics1** — the basics\n",
    )
    .unwrap();
    std::fs::write(top.join("3-Intro/Basics1/doc.md"), "# Basics\n\nText.\n").unwrap();
    let steps = plan_collapse(top).unwrap();
    apply(top, &steps).unwrap();
    assert_eq!(
        std::fs::read_to_string(top.join("3-Intro/README.md")).unwrap(),
        "# 3. Intro\n"
    );
    assert!(top.join("3-Intro/doc.md").is_file());
}

#[test]
fn a_parent_page_that_is_not_utf8_is_never_merged_into() {
    let t = short_leaves("# G\n", &[("1-A", 20), ("2-B", 20)]);
    std::fs::write(t.path().join("G/doc.md"), b"# G\n\ncaf\xe9\n").unwrap();
    // Its leaves are grouped beside it instead; its own bytes stay as they are.
    assert_eq!(
        plan_lines(t.path()),
        [
            "merge into G/1-to-2-A <- 1-A, 2-B (41 words)",
            "rewrite G/README.md"
        ]
    );
}
