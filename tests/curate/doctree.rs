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
