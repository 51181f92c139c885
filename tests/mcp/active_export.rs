//! `skillnav export --active` on a hono-unified selection (`tests/fixtures/curate/hono-mini`,
//! real `Skill_Seekers` output): the skill validates, its SKILL.md stays under 500 lines and
//! 5k tokens, and every command its "How to read this skill" block tells the agent to run
//! works when run literally in the skill's folder.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::support::fs::{fixture_path, tempdir};

fn run(dir: &Path, args: &[&str]) -> Output {
    crate::support::child::skillnav_command()
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"))
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{args:?}: not UTF-8: {e}"))
}

/// The commands of the "How to read this skill" block: the backticked `skillnav …` span
/// of each numbered step, split into words (double-quoted words kept together).
fn commands(skill_md: &str) -> Vec<Vec<String>> {
    let block = skill_md
        .split("## How to read this skill")
        .nth(1)
        .and_then(|b| b.split("\n## ").next())
        .unwrap_or_else(|| panic!("no How to read block:\n{skill_md}"));
    block
        .lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .filter_map(|l| l.split('`').nth(1))
        .filter(|c| c.starts_with("skillnav "))
        .map(|c| {
            let mut words = Vec::new();
            let mut rest = c;
            while let Some(t) = rest.trim_start().chars().next() {
                rest = rest.trim_start();
                if t == '"' {
                    let end = rest[1..].find('"').map_or(rest.len(), |i| i + 1);
                    words.push(rest[1..end].to_string());
                    rest = rest.get(end + 1..).unwrap_or("");
                } else {
                    let end = rest.find(' ').unwrap_or(rest.len());
                    words.push(rest[..end].to_string());
                    rest = &rest[end..];
                }
            }
            words
        })
        .collect()
}

#[test]
fn an_active_export_validates_stays_small_and_its_instructions_work_literally() {
    let tmp = tempdir();
    let src = fixture_path("curate/hono-mini");
    let src = src.to_str().unwrap_or_else(|| panic!("path"));
    let skill = export_a_saved_selection_as_active(tmp.path(), src);
    validates_clean(tmp.path(), &skill);
    let md = skill_md_is_small(&skill);
    its_instructions_run_literally(&skill, &md);
}

/// Save a recipe of three sections of `src` and export it with `--active` into
/// `hono-active` under `tmp`; that folder.
fn export_a_saved_selection_as_active(tmp: &Path, src: &str) -> PathBuf {
    let recipe = tmp.join("sel.json");
    let recipe = recipe.to_str().unwrap_or_else(|| panic!("path"));
    ok(
        tmp,
        &[
            "recipe",
            "save",
            "hono-sel",
            src,
            "--select",
            "hono-mini/references/concepts.md",
            "--select",
            "hono-mini/references/other.md",
            "--select",
            "hono-mini/SKILL.md#hono-skill/quick-reference",
            "--file",
            recipe,
        ],
    );
    let skill = tmp.join("hono-active");
    let skill_s = skill.to_str().unwrap_or_else(|| panic!("path"));
    ok(
        tmp,
        &["export", src, "--recipe", recipe, "-o", skill_s, "--active"],
    );
    skill
}

/// `validate --json` of the exported `skill`: no errors, no warnings.
fn validates_clean(tmp: &Path, skill: &Path) {
    let skill_s = skill.to_str().unwrap_or_else(|| panic!("path"));
    let v = run(tmp, &["validate", skill_s, "--json"]);
    assert!(
        v.status.success(),
        "validate: {}",
        String::from_utf8_lossy(&v.stdout)
    );
    let report: Value =
        serde_json::from_slice(&v.stdout).unwrap_or_else(|e| panic!("validate --json: {e}"));
    assert_eq!(
        (report["errors"].clone(), report["warnings"].clone()),
        (0.into(), 0.into()),
        "{report}"
    );
}

/// The exported `SKILL.md` stays under 500 lines and 5,000 tokens; its text.
fn skill_md_is_small(skill: &Path) -> String {
    let md =
        std::fs::read_to_string(skill.join("SKILL.md")).unwrap_or_else(|e| panic!("SKILL.md: {e}"));
    let tokens =
        skillnav::tokens::TokenCounter::new(skillnav::tokens::Encoding::O200kBase).count(&md);
    assert!(
        md.lines().count() < 500 && tokens < 5_000,
        "{} lines, {tokens} tokens",
        md.lines().count()
    );
    md
}

/// The commands of `md`'s instructions, their placeholders filled (the table's first id,
/// and the words of its first section title), run in the `skill` folder: search, show,
/// brief, each giving what it says.
fn its_instructions_run_literally(skill: &Path, md: &str) {
    let first_id = md
        .lines()
        .find(|l| l.starts_with("| `hono-active/references/"))
        .and_then(|l| l.split('`').nth(1))
        .unwrap_or_else(|| panic!("no table row with an exported id:\n{md}"))
        .to_string();
    let cmds = commands(md);
    assert_eq!(cmds.len(), 3, "{cmds:?}");
    let mut ran = Vec::new();
    for cmd in cmds {
        let words: Vec<String> = cmd
            .iter()
            .skip(1)
            .map(|w| match w.as_str() {
                "<a few words>" => "routers middleware".to_string(),
                "<id>" => first_id.clone(),
                "<question>" => "how do routers work".to_string(),
                w => w.to_string(),
            })
            .collect();
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let out = ok(skill, &args);
        ran.push(args[0].to_string());
        check_command_output(skill, &first_id, args[0], &out);
    }
    assert_eq!(ran, ["search", "show", "brief"]);
}

/// The output `out` of instruction `command` run in `skill` (`first_id`: the id it was
/// given): search hits `show` accepts, the exported file itself, a brief of the export.
fn check_command_output(skill: &Path, first_id: &str, command: &str, out: &str) {
    match command {
        "search" => {
            let v: Value =
                serde_json::from_str(out).unwrap_or_else(|e| panic!("search --json: {e}"));
            let hits = v["hits"].as_array().cloned().unwrap_or_default();
            assert!(!hits.is_empty(), "{out}");
            // Every hit is an id `show` accepts in the same folder.
            for h in hits.iter().take(3) {
                let id = h["id"].as_str().unwrap_or_default();
                assert!(id.starts_with("hono-active/"), "{id}");
                assert!(!ok(skill, &["show", id, "."]).is_empty());
            }
        }
        "show" => {
            let file = first_id.trim_start_matches("hono-active/");
            let want =
                std::fs::read_to_string(skill.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(out, want);
        }
        "brief" => assert!(
            out.starts_with("# Context brief") && out.contains("hono-active/references/"),
            "{out}"
        ),
        other => panic!("unexpected command {other}"),
    }
}
