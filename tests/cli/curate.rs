//! The curation subcommands end to end through the binary: render, brief formats and
//! recipes, tree --json layers, recipe save/load/list/delete, export + validate, doctree.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::fs::fixture_path;

fn fixtures() -> PathBuf {
    fixture_path("curate")
}

fn run(args: &[&str], data_home: &Path) -> Output {
    crate::support::child::skillnav_command()
        .args(args)
        .env("XDG_DATA_HOME", data_home)
        .env("HOME", data_home)
        .output()
        .expect("run skillnav")
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

#[test]
fn render_substitutes_args_and_vars() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fixtures().join("render-skill");
    let d = dir.to_str().unwrap();
    let out = ok(&run(&["render", d, "--args", "7 dev"], tmp.path()));
    assert_eq!(
        out,
        "# Fix issue\n\nFix issue 7 on branch dev (all: 7 dev).\n"
    );
    let out = ok(&run(&["render", d], tmp.path()));
    assert_eq!(
        out,
        "# Fix issue\n\nFix issue $issue on branch $branch (all: $ARGUMENTS).\n"
    );
    let out = ok(&run(&["render", d, "--args", ""], tmp.path()));
    assert_eq!(out, "# Fix issue\n\nFix issue  on branch  (all: ).\n");
    let o = run(&["render", d, "--var", "1x=2"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["render", "/no/such/skill"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);
}

#[test]
fn render_inserts_an_argument_holding_placeholders_literally() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fixtures().join("render-skill");
    let d = dir.to_str().unwrap();
    let out = ok(&run(
        &["render", d, "--args", "'$branch $1' $80"],
        tmp.path(),
    ));
    assert_eq!(
        out,
        "# Fix issue\n\nFix issue $branch $1 on branch $80 (all: '$branch $1' $80).\n"
    );
}

#[test]
fn render_several_skills_lists_them_first() {
    let tmp = tempfile::tempdir().unwrap();
    let a = fixtures().join("skills/notes");
    let b = fixtures().join("skills/deploy");
    let out = ok(&run(
        &[
            "render",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--listing",
            "xml",
        ],
        tmp.path(),
    ));
    assert!(
        out.starts_with("<skills>\n  <skill name=\"notes\">\n"),
        "{out}"
    );
    assert!(out.contains("</skills>\n\n## notes\n\n# Notes\n"), "{out}");
    assert!(out.contains("\n\n## deploy\n\n# Deploy\n"), "{out}");
}

#[test]
fn brief_xml_combines_select_and_query() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fixtures().join("skills");
    let out = ok(&run(
        &[
            "brief",
            root.to_str().unwrap(),
            "--select",
            "skills/deploy/SKILL.md#deploy/rollback",
            "--query",
            "note heading",
            "--top-k",
            "1",
            "--format",
            "xml",
        ],
        tmp.path(),
    ));
    assert!(
        out.starts_with("<context_brief mode=\"answer\" encoding=\"o200k_base\" sections=\"2\""),
        "{out}"
    );
    let first = out.find("origin=\"selected\"").unwrap();
    let second = out.find("origin=\"retrieved\"").unwrap();
    assert!(first < second);
}

#[test]
fn tree_json_has_layers_that_add_up() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fixtures().join("skills");
    let out = ok(&run(
        &["tree", root.to_str().unwrap(), "--json"],
        tmp.path(),
    ));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &v["roots"][0];
    let always = r["always_loaded_tokens"].as_u64().unwrap();
    let skills: Vec<&serde_json::Value> = r["children"].as_array().unwrap().iter().collect();
    let mut meta = 0;
    for s in &skills {
        let l = &s["layers"];
        let refs: u64 = l["references"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["tokens"].as_u64().unwrap())
            .sum();
        assert_eq!(
            l["metadata"].as_u64().unwrap() + l["body"].as_u64().unwrap() + refs,
            l["total"].as_u64().unwrap()
        );
        meta += l["metadata"].as_u64().unwrap();
    }
    assert_eq!(skills.len(), 2);
    assert!(always > meta && always <= meta + 12, "{always} vs {meta}");
}

#[test]
fn recipe_brief_and_export_round_trip() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fixtures().join("hono-mini");
    let r = root.to_str().unwrap();
    let recipe = tmp.path().join("kit.json");
    let rf = recipe.to_str().unwrap();
    // Ids of the hono fixture: pick two sections from the tree.
    let tree: serde_json::Value =
        serde_json::from_str(&ok(&run(&["tree", r, "--json"], tmp.path()))).unwrap();
    let mut ids = Vec::new();
    fn collect(v: &serde_json::Value, out: &mut Vec<String>) {
        if v["kind"] == "section" && v["path"].as_str().unwrap_or("").ends_with("concepts.md") {
            out.push(v["id"].as_str().unwrap().to_string());
        }
        for c in v["children"].as_array().into_iter().flatten() {
            collect(c, out);
        }
    }
    collect(&tree["roots"][0], &mut ids);
    assert!(ids.len() >= 3, "{ids:?}");
    let saved = ok(&run(
        &[
            "recipe", "save", "kit", r, "--select", &ids[1], "--select", &ids[2], "--file", rf,
        ],
        tmp.path(),
    ));
    assert_eq!(saved.trim(), rf);
    let loaded = ok(&run(&["recipe", "load", rf, r], tmp.path()));
    assert_eq!(
        loaded,
        format!("selected ok {}\nselected ok {}\n", ids[1], ids[2])
    );
    let brief = ok(&run(
        &["brief", r, "--recipe", rf, "--format", "json"],
        tmp.path(),
    ));
    let v: serde_json::Value = serde_json::from_str(&brief).unwrap();
    assert_eq!(v["sections"].as_array().unwrap().len(), 2);
    let out_dir = tmp.path().join("hono-kit");
    ok(&run(
        &[
            "export",
            r,
            "--recipe",
            rf,
            "-o",
            out_dir.to_str().unwrap(),
            "--with-catalog",
        ],
        tmp.path(),
    ));
    assert!(out_dir.join("assets/catalog.json").is_file());
    let v = run(&["validate", out_dir.to_str().unwrap()], tmp.path());
    assert_eq!(
        v.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&v.stdout)
    );
    // Named store under XDG_DATA_HOME.
    ok(&run(
        &["recipe", "save", "named-kit", r, "--select", &ids[1]],
        tmp.path(),
    ));
    assert_eq!(ok(&run(&["recipe", "list"], tmp.path())), "named-kit\n");
    ok(&run(&["recipe", "delete", "named-kit"], tmp.path()));
    assert_eq!(ok(&run(&["recipe", "list"], tmp.path())), "");
    // A mode or format a brief would refuse is refused when saving, and nothing is saved.
    for (flag, value) in [("--mode", "bogus"), ("--format", "yaml")] {
        let o = run(
            &[
                "recipe", "save", "bad-kit", r, "--select", &ids[1], flag, value,
            ],
            tmp.path(),
        );
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("unknown {flag} \"{value}\"")),
            "{err}"
        );
    }
    assert_eq!(ok(&run(&["recipe", "list"], tmp.path())), "");
}

#[test]
fn doctree_merge_dry_run_prints_the_plan() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("tree");
    for (rel, n) in [("1-A/1-1-x", 10), ("1-A/1-2-y", 20)] {
        let d = top.join(rel);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("doc.md"), vec!["w"; n].join(" ")).unwrap();
    }
    let out = ok(&run(
        &["doctree", "merge", top.to_str().unwrap(), "--dry-run"],
        tmp.path(),
    ));
    assert_eq!(
        out,
        "merge into 1-A <- 1-1-x, 1-2-y (31 words)\n1 step planned (dry run)\n"
    );
    assert!(top.join("1-A/1-1-x/doc.md").is_file());
    let out = ok(&run(
        &["doctree", "merge", top.to_str().unwrap()],
        tmp.path(),
    ));
    assert!(out.ends_with("1 step applied\n"));
    assert!(top.join("1-A/doc.md").is_file());
}

#[test]
fn brief_max_tokens_reads_a_budget_as_the_tui_does() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fixtures().join("hono-mini");
    let d = dir.to_str().unwrap();
    let brief = |budget: Option<&str>| {
        let mut args = vec!["brief", d, "--query", "middleware", "--format", "json"];
        if let Some(b) = budget {
            args.extend(["--max-tokens", b]);
        }
        run(&args, tmp.path())
    };
    let plain = ok(&brief(Some("1500")));
    assert!(plain.contains("\"max_tokens\": 1500"), "{plain}");
    assert_eq!(ok(&brief(Some("1.5k"))), plain);
    assert_eq!(ok(&brief(Some("1,500"))), plain);
    // 0 and `none` are no budget, as `B` and `[brief] budget` take them.
    let unbudgeted = ok(&brief(None));
    assert!(unbudgeted.contains("\"max_tokens\": null"), "{unbudgeted}");
    assert_eq!(ok(&brief(Some("0"))), unbudgeted);
    assert_eq!(ok(&brief(Some("none"))), unbudgeted);
    let o = brief(Some("12x"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("not a token budget"), "{err}");
}

/// A recipe saved with a format briefs in that format, as the TUI's `y` does with it; a
/// `--format` on the command line still wins.
#[test]
fn brief_with_a_recipe_uses_its_saved_format_unless_format_is_given() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fixtures().join("hono-mini");
    let r = root.to_str().unwrap();
    let recipe = tmp.path().join("xml-kit.json");
    let rf = recipe.to_str().unwrap();
    let tree: serde_json::Value =
        serde_json::from_str(&ok(&run(&["tree", r, "--json"], tmp.path()))).unwrap();
    let id = tree["roots"][0]["children"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    ok(&run(
        &[
            "recipe", "save", "xml-kit", r, "--select", &id, "--format", "xml", "--file", rf,
        ],
        tmp.path(),
    ));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&recipe).unwrap()).unwrap();
    assert_eq!(saved["format"], "xml");
    let brief = ok(&run(&["brief", r, "--recipe", rf], tmp.path()));
    assert!(brief.starts_with("<context_brief "), "{brief}");
    let md = ok(&run(
        &["brief", r, "--recipe", rf, "--format", "md"],
        tmp.path(),
    ));
    assert!(md.starts_with("# Context brief\n"), "{md}");
}

/// Two files with the same text: selecting both by id, or their folder, gives the text once;
/// the copy selected alone is briefed.
#[test]
fn a_copy_selected_beside_its_original_is_briefed_once() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cb2");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("x.md"), "# same\n\nThe same text.\n").unwrap();
    std::fs::write(root.join("y.md"), "# same\n\nThe same text.\n").unwrap();
    std::fs::write(root.join("z.md"), "# other\n\nOther text.\n").unwrap();
    let r = root.to_str().unwrap();
    let sections = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["brief", r, "--format", "json"];
        args.extend_from_slice(extra);
        let v: serde_json::Value = serde_json::from_str(&ok(&run(&args, tmp.path()))).unwrap();
        v["sections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let x = "cb2/x.md";
    let y = "cb2/y.md";
    let z = "cb2/z.md";
    assert_eq!(sections(&["--select", x, "--select", y]), ["cb2/x.md"]);
    assert_eq!(
        sections(&["--select", x, "--select", y, "--select", z]),
        ["cb2/x.md", "cb2/z.md"]
    );
    assert_eq!(sections(&["--select", y]), ["cb2/y.md"]);
}
