//! What an agent sees: the Claude Code listing budget (`list --agent claude-code`, its
//! `--json`, the `validate` findings), every agent's skill folders under a fake `$HOME`, and
//! the precedence profiles.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::support::fs::write;
use crate::support::skills::{skill, thirty_skills};

/// Run the binary in `cwd` with `home` as `$HOME` and an empty config folder.
pub(super) fn run_in(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    crate::support::child::skillnav_command()
        .args(args)
        .current_dir(cwd)
        .env("HOME", home)
        .env("SKILLNAV_CONFIG_DIR", home.join("no-config"))
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"))
}

/// Stdout as JSON (panics with stderr when it is not).
pub(super) fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn thirty_skills_over_the_budget_lose_descriptions_last_listed_first() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let skills = t.path().join("skills");
    thirty_skills(&skills);
    let dir = skills.to_str().unwrap_or_default();
    let out = run_in(
        t.path(),
        t.path(),
        &["list", dir, "--agent", "claude-code", "--json"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    // Lines `- sNN: ` + 300 chars = 307; s05 cut at 1,536 → 1,543; 29 newlines.
    assert_eq!(v["budget_chars"], 8000);
    assert_eq!(v["needed_chars"], 29 * 307 + 1543 + 29);
    assert_eq!(v["pct"], 131);
    // Names-only lines cost 5 chars: 30·5 + 29 = 179; s01…s21 keep their description
    // (179 + 20·302 + 1,538 = 7,757), s22 would pass 8,000.
    assert_eq!(v["sent_chars"], 7757);
    let dropped: Vec<String> = (22..=30).rev().map(|i| format!("s{i:02}")).collect();
    assert_eq!(v["dropped"], serde_json::json!(dropped));
    let s05 = &v["skills"][4];
    assert_eq!(
        (s05["name"].as_str(), s05["fate"].as_str()),
        (Some("s05"), Some("truncated"))
    );
    assert_eq!(
        (s05["entry_chars"].as_u64(), s05["truncated_by"].as_u64()),
        (Some(1702), Some(166))
    );
    assert_eq!(v["skills"][0]["fate"], "fits");
    assert_eq!(v["skills"][21]["fate"], "dropped");
    assert_eq!(v["skills"][21]["line"], "- s22");

    // The plain listing is exactly what is sent.
    let out = run_in(t.path(), t.path(), &["list", dir, "--agent", "claude-code"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 30);
    assert_eq!(lines[0], format!("- s01: {}", "d".repeat(300)));
    assert_eq!(
        lines[4],
        format!("- s05: {} - {}", "d".repeat(1000), "w".repeat(533))
    );
    assert_eq!(
        lines[21..],
        [
            "- s22", "- s23", "- s24", "- s25", "- s26", "- s27", "- s28", "- s29", "- s30"
        ]
    );
    assert_eq!(text.trim_end_matches('\n').chars().count(), 7757);

    // SLASH_COMMAND_TOOL_CHAR_BUDGET pins the budget.
    let out = crate::support::child::skillnav_command()
        .args(["list", dir, "--agent", "claude-code", "--json"])
        .env("SKILLNAV_CONFIG_DIR", t.path().join("no-config"))
        .env("SLASH_COMMAND_TOOL_CHAR_BUDGET", "20000")
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    let v = json(&out);
    assert_eq!(
        (
            v["budget_chars"].as_u64(),
            v["dropped"].as_array().map(Vec::len)
        ),
        (Some(20000), Some(0))
    );
}

#[test]
fn config_sets_the_context_and_fraction() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let skills = t.path().join("skills");
    thirty_skills(&skills);
    write(
        &t.path().join("no-config"),
        "config.toml",
        b"[agent.claude-code]\ncontext_tokens = 150000\nfraction = 0.01\n",
    );
    let out = run_in(
        t.path(),
        t.path(),
        &[
            "list",
            skills.to_str().unwrap_or_default(),
            "--agent",
            "claude-code",
            "--json",
        ],
    );
    let v = json(&out);
    assert_eq!(v["budget_chars"], 6000);
    assert_eq!(v["entry_cap"], 1536);
}

#[test]
fn validate_reports_the_cut_entry_and_who_loses_the_description() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let skills = t.path().join("skills");
    thirty_skills(&skills);
    let dir = skills.to_str().unwrap_or_default();
    let out = run_in(
        t.path(),
        t.path(),
        &["validate", dir, "--profile", "claude-code", "--json"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let rules = |name: &str| -> Vec<(String, String)> {
        v["skills"]
            .as_array()
            .and_then(|a| a.iter().find(|s| s["name"] == name))
            .and_then(|s| s["findings"].as_array())
            .map(|f| {
                f.iter()
                    .filter(|x| {
                        x["rule"]
                            .as_str()
                            .is_some_and(|r| r.starts_with("listing-"))
                    })
                    .map(|x| {
                        (
                            x["rule"].as_str().unwrap_or("").into(),
                            x["message"].as_str().unwrap_or("").into(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        rules("s05"),
        [(
            "listing-entry-cap".to_string(),
            "description + when_to_use is 1702 chars; Claude Code cuts the entry at 1536 (166 chars lost)"
                .to_string()
        )]
    );
    assert_eq!(
        rules("s22"),
        [(
            "listing-budget".to_string(),
            "description dropped from the Claude Code listing: it needs 10475 of 8000 chars; only the name is sent"
                .to_string()
        )]
    );
    assert!(rules("s21").is_empty());
    // A spec-profile run is unchanged: no listing findings, and an error still exits 1.
    write(
        &skills,
        "Bad_Name/SKILL.md",
        b"---\nname: Bad_Name\ndescription: x\n---\n",
    );
    let out = run_in(t.path(), t.path(), &["validate", dir, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("listing-"));
}

/// A fake home with skills of four agents (Claude Code, Cursor, Gemini CLI, Copilot) and a
/// project with Claude Code and Cursor folders; `pdf` is both a project and a personal
/// Claude Code skill.
fn four_agents(t: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (home, proj) = (t.join("home"), t.join("proj"));
    skill(&home.join(".claude/skills"), "pdf", "user pdf", None);
    skill(&home.join(".cursor/skills"), "cur", "cursor skill", None);
    skill(&home.join(".gemini/skills"), "gem", "gemini skill", None);
    skill(&home.join(".copilot/skills"), "cop", "copilot skill", None);
    skill(&proj.join(".claude/skills"), "pdf", "project pdf", None);
    skill(
        &proj.join(".cursor/skills"),
        "review",
        "cursor project skill",
        None,
    );
    (home, proj)
}

fn root_titles(v: &Value) -> Vec<String> {
    v["roots"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(|n| n["title"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn no_path_opens_every_agents_folders_labelled_by_agent_and_scope() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = four_agents(t.path());
    let v = json(&run_in(&proj, &home, &["tree", "--json"]));
    assert_eq!(
        root_titles(&v),
        [
            "claude-code-project",
            "cursor-project",
            "claude-code-user",
            "cursor-user",
            "gemini-user",
            "copilot-user"
        ]
    );
    // Cursor reads its own folders and Claude Code's, not Gemini's or Copilot's.
    let v = json(&run_in(
        &proj,
        &home,
        &["tree", "--json", "--agent", "cursor"],
    ));
    assert_eq!(
        root_titles(&v),
        [
            "claude-code-project",
            "cursor-project",
            "claude-code-user",
            "cursor-user"
        ]
    );
    let v = json(&run_in(
        &proj,
        &home,
        &["tree", "--json", "--agent", "gemini"],
    ));
    assert_eq!(root_titles(&v), ["gemini-user"]);
}

#[test]
fn precedence_profile_picks_the_duplicate_and_list_is_the_effective_set() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = four_agents(t.path());
    // Cursor documents no same-name rule, so `--precedence` decides for it.
    let pdf = |extra: &[&str]| {
        let mut args = vec!["list", "--agent", "cursor"];
        args.extend_from_slice(extra);
        let out = String::from_utf8_lossy(&run_in(&proj, &home, &args).stdout).into_owned();
        out.lines()
            .filter(|l| l.starts_with("- pdf:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // Claude Code: personal over project.
    assert_eq!(pdf(&["--precedence", "claude-code"]), "- pdf: user pdf");
    // The Agent Skills guide: project over user.
    assert_eq!(pdf(&["--precedence", "spec"]), "- pdf: project pdf");
    assert_eq!(pdf(&["--precedence", "first-wins"]), "- pdf: project pdf");
    assert_eq!(pdf(&["--first-wins"]), "- pdf: project pdf");
    assert_eq!(pdf(&[]), "- pdf: user pdf");
    // Claude Code's listing follows Claude Code's own rule, whatever `--precedence` says.
    let out = run_in(
        &proj,
        &home,
        &["list", "--agent", "claude-code", "--precedence", "spec"],
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "- pdf: user pdf\n");
    // Cursor's effective set: its own skills and the winning pdf.
    let out = run_in(
        &proj,
        &home,
        &["list", "--agent", "cursor", "--precedence", "spec"],
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "- pdf: project pdf\n- review: cursor project skill\n- cur: cursor skill\n"
    );
    // The shadowed skill says who wins and why.
    let v = json(&run_in(
        &proj,
        &home,
        &[
            "tree",
            "--json",
            "--agent",
            "claude-code",
            "--precedence",
            "spec",
        ],
    ));
    let user_pdf = &v["roots"][1]["children"][0];
    assert_eq!(user_pdf["title"], "pdf");
    let warnings = user_pdf["warnings"].to_string();
    assert!(
        warnings.contains(
            "shadowed by claude-code-project/pdf (same skill name; spec precedence: project over user)"
        ),
        "{warnings}"
    );
}

#[test]
fn claude_code_reads_nested_project_folders_and_enabled_plugins() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = four_agents(t.path());
    skill(
        &proj.join("apps/web/.claude/skills"),
        "deploy",
        "deploy the web app",
        None,
    );
    let docs = home.join(".claude/plugins/cache/mkt/docs/1.0.0");
    let off = home.join(".claude/plugins/cache/mkt/off/1.0.0");
    skill(&docs.join("skills"), "review", "review docs", None);
    skill(
        &off.join("skills"),
        "hidden",
        "a disabled plugin's skill",
        None,
    );
    write(
        &home,
        ".claude/settings.json",
        br#"{"enabledPlugins": {"docs@mkt": true, "off@mkt": false}}"#,
    );
    let installed = serde_json::json!({
        "version": 2,
        "plugins": {
            "docs@mkt": [{"scope": "user", "installPath": docs}],
            "off@mkt": [{"scope": "user", "installPath": off}],
        }
    });
    write(
        &home,
        ".claude/plugins/installed_plugins.json",
        installed.to_string().as_bytes(),
    );
    let v = json(&run_in(
        &proj,
        &home,
        &["tree", "--json", "--agent", "claude-code"],
    ));
    assert_eq!(
        root_titles(&v),
        [
            "claude-code-project",
            "claude-code-project-2",
            "claude-code-user",
            "docs-plugin"
        ]
    );
    assert_eq!(v["roots"][1]["children"][0]["title"], "deploy");
    assert_eq!(v["roots"][3]["children"][0]["title"], "docs:review");
    let out = run_in(&proj, &home, &["list", "--agent", "claude-code"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "- deploy: deploy the web app\n- pdf: user pdf\n- docs:review: review docs\n"
    );
}

#[test]
fn skills_lock_json_says_where_each_skill_came_from() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = four_agents(t.path());
    write(
        &proj,
        "skills-lock.json",
        br#"{"version": 1, "skills": {"review": {"source": "acme/skills", "sourceType": "github"}}}"#,
    );
    write(
        &home,
        ".agents/.skill-lock.json",
        br#"{"version": 3, "skills": {"gem": {"source": "g/skills"}, "review": {"source": "other/x"}}}"#,
    );
    let v = json(&run_in(&proj, &home, &["tree", "--json"]));
    let skill_meta =
        |root: usize| v["roots"][root]["children"][0]["meta"]["installed_from"].clone();
    // cursor-project/review: the project lock wins; gemini-user/gem: the user lock.
    assert_eq!(v["roots"][1]["children"][0]["title"], "review");
    assert_eq!(skill_meta(1), "acme/skills");
    assert_eq!(v["roots"][4]["children"][0]["title"], "gem");
    assert_eq!(skill_meta(4), "g/skills");
    assert_eq!(skill_meta(2), Value::Null);
}

#[test]
fn codex_reads_agents_folders_up_to_the_repository_root() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, repo) = (t.path().join("home"), t.path().join("repo"));
    std::fs::create_dir_all(repo.join(".git")).unwrap_or_else(|e| panic!("mkdir: {e}"));
    skill(
        &repo.join(".agents/skills"),
        "top",
        "at the repository root",
        None,
    );
    skill(
        &repo.join("pkg/.agents/skills"),
        "pkg",
        "in the package",
        None,
    );
    skill(
        &t.path().join(".agents/skills"),
        "outside",
        "above the repository",
        None,
    );
    std::fs::create_dir_all(&home).unwrap_or_else(|e| panic!("mkdir: {e}"));
    let cwd = repo.join("pkg/src");
    std::fs::create_dir_all(&cwd).unwrap_or_else(|e| panic!("mkdir: {e}"));
    let out = run_in(&cwd, &home, &["list", "--agent", "codex"]);
    let real = |p: std::path::PathBuf| std::fs::canonicalize(&p).unwrap_or(p).display().to_string();
    // Codex's own line: `- name: description (file: path)`, repo skills by name.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "- pkg: in the package (file: {})\n- top: at the repository root (file: {})\n",
            real(repo.join("pkg/.agents/skills/pkg/SKILL.md")),
            real(repo.join(".agents/skills/top/SKILL.md"))
        )
    );
    // Every agent reads its project folders up to the repository root, never above it.
    let out = run_in(&cwd, &home, &["list", "--agent", "gemini"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("- pkg: in the package"), "{text}");
    assert!(text.contains("- top: at the repository root"), "{text}");
    assert!(!text.contains("outside"), "{text}");
}
