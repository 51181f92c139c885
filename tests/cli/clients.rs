//! Every client's listing (`list --agent X --json --context-tokens N`): which skills each
//! client never loads and why, Codex's even shortening and omission under its 2% budget,
//! Copilot CLI's fixed 15,000-char cut in name order, the same-name rules, and `validate
//! --profile X` making a skill the client will not load an error.

use std::path::Path;

use serde_json::Value;

use super::agents::{json, run_in};
use crate::support::fs::write;
use crate::support::skills::skill;

/// `(status, chars_shown)` of skill `name` (the first of that name).
fn status(v: &Value, name: &str) -> (String, u64) {
    let s = v["skills"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["name"] == name))
        .unwrap_or_else(|| panic!("no skill {name} in {v}"));
    (
        s["status"].as_str().unwrap_or("").to_string(),
        s["chars_shown"].as_u64().unwrap_or(u64::MAX),
    )
}

fn statuses(v: &Value, name: &str) -> Vec<(String, String)> {
    v["skills"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|s| s["name"] == name)
                .map(|s| {
                    (
                        s["scope"].as_str().unwrap_or("").to_string(),
                        s["status"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `list --agent X --json .claude/skills` in `proj` for every client: (agent, document).
fn every_listing(proj: &Path, home: &Path) -> Vec<(&'static str, Value)> {
    [
        "claude-code",
        "codex",
        "copilot",
        "gemini",
        "opencode",
        "cursor",
    ]
    .into_iter()
    .map(|agent| {
        let args = ["list", "--agent", agent, "--json", ".claude/skills"];
        (agent, json(&run_in(proj, home, &args)))
    })
    .collect()
}

/// A repository `proj` (with `.git`) whose work happens in `proj/app`, and a home.
fn repo(t: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (home, proj) = (t.join("home"), t.join("proj"));
    std::fs::create_dir_all(proj.join(".git")).unwrap_or_else(|e| panic!("mkdir: {e}"));
    std::fs::create_dir_all(proj.join("app")).unwrap_or_else(|e| panic!("mkdir: {e}"));
    std::fs::create_dir_all(&home).unwrap_or_else(|e| panic!("mkdir: {e}"));
    (home, proj)
}

#[test]
fn a_lower_case_skill_md_is_listed_by_no_client_and_fails_validate_for_each() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    let skills = proj.join(".claude/skills");
    skill(&skills, "good", "Formats good things.", None);
    write(
        &skills,
        "lower/skill.md",
        b"---\nname: lower\ndescription: Named skill.md, not SKILL.md.\n---\nBody.\n",
    );
    let v = json(&run_in(
        &proj.join("app"),
        &home,
        &["list", "--agent", "claude-code", "--json"],
    ));
    assert_eq!(status(&v, "good"), ("full".into(), 20));
    assert_eq!(status(&v, "lower"), ("not-loaded".into(), 0));
    let why = v["skills"][1]["why"].as_str().unwrap_or("");
    assert!(why.contains("only a file named SKILL.md"), "{why}");
    for agent in ["claude-code", "copilot", "opencode"] {
        let out = run_in(
            &proj,
            &home,
            &["validate", ".claude/skills", "--profile", agent, "--json"],
        );
        assert_eq!(out.status.code(), Some(1), "{agent}");
        let v = json(&out);
        assert_eq!(v["profile"], agent);
        let text = v.to_string();
        assert!(text.contains("client-not-loaded"), "{agent}: {text}");
    }
    // The plain text names the refusal on stderr, and the summary counts it.
    let out = run_in(&proj, &home, &["list", "--agent", "claude-code"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not-loaded  lower:"), "{err}");
    assert!(
        err.contains("claude-code: 2 skills — 1 full, 1 not loaded"),
        "{err}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "- good: Formats good things.\n"
    );
}

#[test]
fn a_skill_md_that_links_to_a_file_of_its_folder_is_listed_by_every_client() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    let skills = proj.join(".claude/skills");
    write(
        &skills,
        "linked/real/actual.md",
        b"---\nname: linked\ndescription: Its SKILL.md is a link.\n---\n# L\n",
    );
    std::os::unix::fs::symlink("real/actual.md", skills.join("linked/SKILL.md"))
        .unwrap_or_else(|e| panic!("symlink: {e}"));
    for (agent, v) in every_listing(&proj, &home) {
        assert_eq!(status(&v, "linked"), ("full".into(), 23), "{agent}: {v}");
    }
}

#[test]
fn codex_refuses_long_descriptions_unclosed_frontmatter_and_hidden_folders() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    let skills = proj.join(".agents/skills");
    skill(&skills, "ok", "Short.", None);
    skill(&skills, "long", &"word ".repeat(210), None);
    write(
        &skills,
        "open/SKILL.md",
        b"---\nname: open\ndescription: never closed\n\nBody.\n",
    );
    skill(&skills.join(".hidden"), "secret", "Hidden folder.", None);
    let v = json(&run_in(
        &proj.join("app"),
        &home,
        &["list", "--agent", "codex", "--json"],
    ));
    assert_eq!(v["budget_chars"], 8000);
    assert_eq!(v["budget_unit"], "chars");
    assert_eq!(status(&v, "ok"), ("full".into(), 6));
    // 210 × "word " collapses to 1,049 chars: over Codex's 1,024.
    assert_eq!(status(&v, "long").0, "not-loaded");
    assert_eq!(status(&v, "open").0, "not-loaded");
    // Claude Code would show the long one whole (its cap is 1,536).
    let c = json(&run_in(
        &proj,
        &home,
        &["list", ".agents/skills", "--agent", "claude-code", "--json"],
    ));
    assert_eq!(status(&c, "long"), ("full".into(), 1049));
}

/// `n` skills in `.agents/skills` with 200-char descriptions (words of 4 letters).
fn many(proj: &Path, n: usize) {
    for i in 0..n {
        let d = "abcd ".repeat(40);
        skill(
            &proj.join(".agents/skills"),
            &format!("k{i:02}"),
            d.trim(),
            None,
        );
    }
}

fn shown(v: &Value) -> Vec<(String, u64)> {
    v["skills"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| {
                    (
                        s["status"].as_str().unwrap_or("").to_string(),
                        s["chars_shown"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn codex_shortens_every_description_evenly_then_omits_whole_skills() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    many(&proj, 30);
    let list = |tokens: &str| {
        json(&run_in(
            &proj,
            &home,
            &[
                "list",
                "--agent",
                "codex",
                "--json",
                "--context-tokens",
                tokens,
            ],
        ))
    };
    // 400k tokens → 8,000 tokens: everything fits.
    let v = list("400000");
    assert_eq!(v["budget"], 8000);
    assert_eq!(v["budget_unit"], "tokens");
    assert!(shown(&v).iter().all(|s| *s == ("full".to_string(), 199)));
    // 50k tokens → 1,000: names fit, descriptions are shortened evenly.
    let v = list("50000");
    let s = shown(&v);
    assert!(s.iter().all(|(st, _)| st == "truncated"), "{s:?}");
    let (lo, hi) = (
        s.iter().map(|x| x.1).min().unwrap_or(0),
        s.iter().map(|x| x.1).max().unwrap_or(0),
    );
    assert!(hi - lo <= 4 && lo > 0, "{s:?}");
    assert!(v["used"].as_u64() <= v["budget"].as_u64(), "{v}");
    // 10k tokens → 200: only the names of the first skills, the rest omitted.
    let v = list("10000");
    let s = shown(&v);
    let kept = s.iter().filter(|x| x.0 == "dropped").count();
    assert!(kept > 0 && kept < 30, "{s:?}");
    assert!(s[..kept].iter().all(|x| x.0 == "dropped"));
    assert!(s[kept..].iter().all(|x| x.0 == "unreachable"));
}

#[test]
fn copilot_cuts_at_fifteen_thousand_chars_in_name_order() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    let d = "x".repeat(300);
    // Written in reverse so name order differs from creation order.
    for i in (0..60).rev() {
        skill(&proj.join(".github/skills"), &format!("c{i:02}"), &d, None);
    }
    let v = json(&run_in(
        &proj,
        &home,
        &[
            "list",
            "--agent",
            "copilot",
            "--json",
            "--context-tokens",
            "1000000",
        ],
    ));
    // Each entry: the `<skill>` element's fixed text (86 chars), the 3-char name, the
    // 300-char description, the 7-char location `project`, plus a newline: 397 chars, so
    // 37 entries fit (14,689 chars) and the 38th would pass 15,000.
    let entry = 86 + 3 + 300 + 7 + 1;
    let fit = 15_000 / entry;
    assert_eq!(fit, 37);
    assert_eq!(v["budget_chars"], 15000);
    for i in 0..60 {
        let want = if i < fit { "full" } else { "unreachable" };
        assert_eq!(status(&v, &format!("c{i:02}")).0, want, "c{i:02}");
    }
}

#[test]
fn same_named_skills_follow_each_clients_rule() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    skill(&proj.join(".claude/skills"), "pdf", "project pdf", None);
    skill(&home.join(".claude/skills"), "pdf", "user pdf", None);
    skill(&proj.join(".agents/skills"), "fmt", "project fmt", None);
    skill(&home.join(".agents/skills"), "fmt", "user fmt", None);
    skill(&home.join(".gemini/skills"), "gem", "user gem", None);
    skill(&proj.join(".gemini/skills"), "gem", "project gem", None);
    let list = |agent: &str| json(&run_in(&proj, &home, &["list", "--agent", agent, "--json"]));
    // Claude Code: personal over project.
    assert_eq!(
        statuses(&list("claude-code"), "pdf"),
        [
            ("project".to_string(), "not-loaded".to_string()),
            ("user".to_string(), "full".to_string())
        ]
    );
    // Gemini CLI: the workspace over the user tier.
    assert_eq!(
        statuses(&list("gemini"), "gem"),
        [
            ("project".to_string(), "full".to_string()),
            ("user".to_string(), "not-loaded".to_string())
        ]
    );
    // Codex lists both.
    assert_eq!(
        statuses(&list("codex"), "fmt"),
        [
            ("project".to_string(), "full".to_string()),
            ("user".to_string(), "full".to_string())
        ]
    );
}

#[test]
fn opencode_refuses_a_name_that_differs_from_its_folder() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    write(
        &proj.join(".opencode/skills"),
        "git-release/SKILL.md",
        b"---\nname: Git Release\ndescription: Prepare releases.\n---\n",
    );
    skill(
        &proj.join(".opencode/skills"),
        "fine",
        "A fine skill.",
        None,
    );
    let v = json(&run_in(
        &proj,
        &home,
        &["list", "--agent", "opencode", "--json"],
    ));
    assert_eq!(v["budget_chars"], Value::Null);
    assert_eq!(status(&v, "Git Release").0, "not-loaded");
    assert_eq!(status(&v, "fine"), ("full".into(), 13));
}

#[test]
fn a_nested_claude_skill_that_clashes_is_listed_by_its_sub_path() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    skill(
        &proj.join(".claude/skills"),
        "deploy",
        "deploy from the root",
        None,
    );
    skill(
        &proj.join("apps/web/.claude/skills"),
        "deploy",
        "deploy the web app",
        None,
    );
    let v = json(&run_in(
        &proj,
        &home,
        &["list", "--agent", "claude-code", "--json"],
    ));
    assert_eq!(status(&v, "deploy"), ("full".into(), 20));
    assert_eq!(status(&v, "/apps/web:deploy"), ("full".into(), 18));
}

#[test]
fn an_agent_without_skill_folders_lists_nothing_not_the_sample() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    let out = run_in(&proj, &home, &["list", "--agent", "cursor"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cursor: 0 skills"), "{err}");
    let v = json(&run_in(
        &proj,
        &home,
        &["list", "--agent", "codex", "--json"],
    ));
    assert_eq!(v["skills"], serde_json::json!([]));
}

#[test]
fn list_agent_refuses_flags_it_would_ignore_and_a_zero_context() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    skill(&proj.join(".agents/skills"), "ok", "Short.", None);
    for args in [
        &["list", "--agent", "codex", "--max-chars", "50"][..],
        &["list", "--agent", "codex", "--format", "xml"][..],
        &["list", "--agent", "codex", "--context-tokens", "0"][..],
    ] {
        assert_eq!(
            run_in(&proj, &home, args).status.code(),
            Some(2),
            "{args:?}"
        );
    }
}

#[test]
fn codex_refuses_a_list_description_and_json_lines_are_the_lines_sent() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    let skills = proj.join(".agents/skills");
    write(
        &skills,
        "listdesc/SKILL.md",
        b"---\nname: listdesc\ndescription: [a, b]\n---\n",
    );
    skill(&skills, "ok", "Short.", None);
    let v = json(&run_in(
        &proj,
        &home,
        &["list", "--agent", "codex", "--json"],
    ));
    assert_eq!(status(&v, "listdesc").0, "not-loaded");
    let ok = v["skills"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["name"] == "ok"))
        .cloned()
        .unwrap_or_default();
    let line = ok["line"].as_str().unwrap_or("");
    assert!(
        line.starts_with("- ok: Short. (file: ") && line.ends_with("/ok/SKILL.md)"),
        "{line}"
    );
    let refused = v["skills"]
        .as_array()
        .and_then(|a| a.iter().find(|s| s["name"] == "listdesc"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(refused["line"], Value::Null);
}

#[test]
fn two_same_named_skills_of_one_scope_are_told_apart_and_not_blamed_on_the_scope_rule() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    let skills = proj.join(".claude/skills");
    for d in ["dup1", "dup2"] {
        write(
            &skills,
            &format!("{d}/SKILL.md"),
            format!("---\nname: shared-name\ndescription: {d}.\n---\n").as_bytes(),
        );
    }
    let v = json(&run_in(
        &proj,
        &home,
        &["list", "--agent", "claude-code", "--json"],
    ));
    let why = v["skills"][1]["why"].as_str().unwrap_or_default();
    assert!(why.contains("dup2/SKILL.md is hidden by"), "{why}");
    assert!(why.contains("skills/dup1/SKILL.md"), "{why}");
    assert!(
        why.ends_with(
            "both in one scope, whose order is not documented: skillnav keeps the first found)"
        ),
        "{why}"
    );
}

#[test]
fn a_binary_or_utf16_skill_md_is_a_not_loaded_row_for_every_client() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = repo(t.path());
    let skills = proj.join(".claude/skills");
    skill(&skills, "ok", "Fine.", None);
    write(&skills, "nul/SKILL.md", b"\0\0---\nname: nul\n");
    let mut wide = vec![0xFF, 0xFE];
    for u in "---\nname: wide\ndescription: UTF-16.\n---\n".encode_utf16() {
        wide.extend(u.to_le_bytes());
    }
    write(&skills, "wide/SKILL.md", &wide);
    for (agent, v) in every_listing(&proj, &home) {
        assert_eq!(status(&v, "ok").0, "full", "{agent}: {v}");
        for name in ["nul", "wide"] {
            assert_eq!(status(&v, name), ("not-loaded".into(), 0), "{agent}: {v}");
        }
    }
}
