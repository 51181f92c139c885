//! The pinned official MCP Inspector (`npx -y @modelcontextprotocol/inspector@2.12.0
//! --cli`) against the real `skillnav mcp` on `tests/fixtures/sep2640`: `skills/list
//! --verify` passes (exit 0: every entry conforms, every digest matches, every served
//! frontmatter equals what a YAML reader reads in the served SKILL.md) in both protocol
//! eras, and `resources/directory/read` lists a skill folder. Skipped with a message when
//! `npx` is missing, unless `CI` is set (then it fails: `.ci/run` installs Node).

use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::wait_bounded;
use crate::support::child::{TEST_CACHE_HOME, under_ci};
use crate::support::fs::{fixture_path, tempdir, write};

/// The Inspector release the checks were written against.
const INSPECTOR: &str = "@modelcontextprotocol/inspector@2.12.0";

/// `true` when `npx` runs; `false` (after saying why) when it is missing outside CI.
fn npx_or_skip() -> bool {
    let found = Command::new("npx")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        assert!(
            !under_ci(),
            "CI is set but npx is missing (.ci/run installs Node)"
        );
        eprintln!("skipped: npx is missing (install Node.js to run the MCP Inspector checks)");
    }
    found
}

/// Run the Inspector CLI on `skillnav mcp tests/fixtures/sep2640` with `args` after the
/// server command; its status, stdout and stderr.
fn inspector(args: &[&str]) -> (ExitStatus, String, String) {
    inspector_on(&fixture_path("sep2640"), args)
}

/// Run the Inspector CLI on `skillnav mcp ROOT` with `args` after the server command.
fn inspector_on(root: &std::path::Path, args: &[&str]) -> (ExitStatus, String, String) {
    let child = Command::new("npx")
        .args(["-y", INSPECTOR, "--cli"])
        .arg("-e")
        .arg(format!("XDG_CACHE_HOME={TEST_CACHE_HOME}"))
        .arg(env!("CARGO_BIN_EXE_skillnav"))
        .arg("mcp")
        .arg(root)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run npx: {e}"));
    // The first run downloads the Inspector.
    wait_bounded(child, Duration::from_secs(600), "the MCP Inspector")
}

/// The JSON lines of `out`.
fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn the_pinned_inspector_verifies_skills_list_in_both_protocol_eras() {
    if !npx_or_skip() {
        return;
    }
    for era in ["legacy", "modern"] {
        let (status, out, err) =
            inspector(&["--method", "skills/list", "--verify", "--protocol-era", era]);
        assert_eq!(status.code(), Some(0), "{era}\n{out}\n{err}");
        let reports: Vec<(String, String)> = json_lines(&out)
            .iter()
            .map(|r| (r["name"].to_string(), r["outcome"].to_string()))
            .collect();
        assert_eq!(
            reports,
            [
                (r#""pdf""#.into(), r#""verified""#.into()),
                (r#""lazybridge""#.into(), r#""verified""#.into()),
            ],
            "{era}\n{out}"
        );
        assert!(
            err.contains("Verified 2 skills and 3 files: no conformance errors."),
            "{era}\n{err}"
        );
        assert!(
            err.contains("skillnav:   claude-api (")
                && err.contains("description-length: description is 1068 chars"),
            "{era}: the server names what it left out\n{err}"
        );
    }
}

#[test]
fn the_pinned_inspector_reads_a_skill_folder_with_resources_directory_read() {
    if !npx_or_skip() {
        return;
    }
    let (status, out, err) = inspector(&[
        "--method",
        "resources/directory/read",
        "--uri",
        "skill://lazybridge/",
        "--format",
        "json",
    ]);
    assert_eq!(status.code(), Some(0), "{out}\n{err}");
    let result: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{out}: {e}"));
    let children: Vec<(String, String, u64)> = result["result"]["resources"]
        .as_array()
        .unwrap_or_else(|| panic!("no resources: {result}"))
        .iter()
        .map(|r| {
            (
                r["uri"].as_str().unwrap_or_default().to_string(),
                r["mimeType"].as_str().unwrap_or_default().to_string(),
                r["size"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        children,
        [
            (
                "skill://lazybridge/SKILL.md".to_string(),
                "text/markdown".to_string(),
                30_480
            ),
            (
                "skill://lazybridge/__init__.py.placeholder".to_string(),
                "text/plain".to_string(),
                105
            ),
        ]
    );
}

/// Skills in shapes real authors write that the Inspector once failed: a reference file and
/// a binary asset over the result caps (a `skill://` file is served whole: its manifest's
/// size and digest cover every byte), a keep-chomped description before the closing fence
/// (the fence's own line break is not the value's), and a `SKILL.md` that is a symbolic
/// link to another file of the skill. Frontmatter that YAML readers read differently (a
/// tag, a YAML 1.1 number) is left out, and said so.
#[test]
fn the_pinned_inspector_verifies_large_files_and_keep_chomped_descriptions() {
    if !npx_or_skip() {
        return;
    }
    let tmp = tempdir();
    let big: String = (0..3_000)
        .map(|i| format!("Line {i} of a long API reference, with words enough to be long.\n"))
        .collect();
    write(
        tmp.path(),
        "big/SKILL.md",
        b"---\nname: big\ndescription: A skill with a large reference.\n---\n\nRead references/api.md.\n",
    );
    write(tmp.path(), "big/references/api.md", big.as_bytes());
    let blob: Vec<u8> = (0..40_000u32).map(|i| (i * 7 % 251) as u8).collect();
    write(tmp.path(), "big/assets/blob.bin", &blob);
    // A link to a file outside the opened folder is not read, so not served either.
    let outside = tempdir();
    write(outside.path(), "secret.md", b"not part of the skill\n");
    std::os::unix::fs::symlink(
        outside.path().join("secret.md"),
        tmp.path().join("big/references/outside.md"),
    )
    .unwrap_or_else(|e| panic!("symlink: {e}"));
    write(
        tmp.path(),
        "kept/SKILL.md",
        b"---\r\nname: kept\r\ndescription: |+\r\n  Keeps its line breaks.\r\n\r\n---\r\nBody\r\n",
    );
    // A SKILL.md that is a link to another file of the skill is the skill's SKILL.md.
    write(
        tmp.path(),
        "linked/notes.md",
        b"---\nname: linked\ndescription: Its SKILL.md is a symbolic link.\n---\n",
    );
    std::os::unix::fs::symlink("notes.md", tmp.path().join("linked/SKILL.md"))
        .unwrap_or_else(|e| panic!("symlink: {e}"));
    write(
        tmp.path(),
        "tagged/SKILL.md",
        b"---\nname: tagged\ndescription: d\nlicense: 0b11\n---\n",
    );
    let (status, out, err) = inspector_on(tmp.path(), &["--method", "skills/list", "--verify"]);
    assert_eq!(status.code(), Some(0), "{out}\n{err}");
    let names: Vec<String> = json_lines(&out)
        .iter()
        .map(|r| format!("{} {}", r["name"], r["outcome"]))
        .collect();
    assert_eq!(
        names,
        [
            r#""big" "verified""#,
            r#""kept" "verified""#,
            r#""linked" "verified""#
        ],
        "{out}"
    );
    // big: SKILL.md, references/api.md, assets/blob.bin; kept: SKILL.md; linked: SKILL.md
    // and notes.md.
    assert!(
        err.contains("Verified 3 skills and 6 files: no conformance errors."),
        "{err}"
    );
    assert!(
        err.contains("tagged (") && err.contains("sep-yaml"),
        "the server names what it left out\n{err}"
    );
}
