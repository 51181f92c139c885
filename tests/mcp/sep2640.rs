//! SEP-2640 over raw JSON-RPC lines to the real server, on a copy of
//! `tests/fixtures/sep2640` (plus the hand-made `curate/skills/notes` skill and dot-files
//! added here): which skills `skills/list` lists and with what frontmatter, how the
//! skills it leaves out are named (instructions, standard error, `validate`) and stay
//! reachable through the tools, and `resources/directory/read` (docs/MCP.md "Skills").

use std::ffi::OsStr;
use std::path::Path;

use serde_json::{Value, json};

use super::rpc::Rpc;
use crate::support::fs::{copy_dir, fixture_path, tempdir, write};

/// A running `skillnav mcp` after the handshake (`init` holds the `initialize` response),
/// over the shared raw JSON-RPC client.
struct Session(Rpc);

impl std::ops::Deref for Session {
    type Target = Rpc;
    fn deref(&self) -> &Rpc {
        &self.0
    }
}

impl Session {
    /// Serve `root` and complete the handshake.
    /// A session whose `initialize` answers once the roots are loaded (its instructions
    /// then always hold the listing).
    fn open(root: &Path) -> Self {
        Session(Rpc::ready([
            root.as_os_str(),
            OsStr::new("--wait-for-load"),
        ]))
    }

    /// The whole response (`result` or `error`) to `method` with `params`.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.0.call(method, &params)
    }

    /// The JSON text of tool `name`'s first content block, with its `isError`.
    fn tool(&mut self, name: &str, arguments: Value) -> (Value, bool) {
        let r = self.request("tools/call", json!({"name": name, "arguments": arguments}));
        let text = r["result"]["content"][0]["text"].as_str().unwrap_or("");
        let body = serde_json::from_str(text).unwrap_or_else(|_| json!(text));
        (body, r["result"]["isError"] == json!(true))
    }

    /// Close standard input; the server's standard error once it exited cleanly.
    fn finish(self) -> String {
        self.0.finish()
    }
}

/// A copy of the fixtures with the `notes` skill, a dot-file in it and a dot-folder in its
/// `references/`: `<tmp>/sep2640`.
fn workspace() -> tempfile::TempDir {
    let tmp = tempdir();
    let root = tmp.path().join("sep2640");
    copy_dir(&fixture_path("sep2640"), &root);
    copy_dir(&fixture_path("curate/skills/notes"), &root.join("notes"));
    write(&root, "notes/.draft.md", b"# Draft\n\nNot for agents.\n");
    write(&root, "notes/references/.cache/old.md", b"# Old\n");
    tmp
}

#[test]
fn skills_list_serves_frontmatter_as_yaml_reads_it_and_leaves_out_rule_breakers() {
    let tmp = workspace();
    let mut s = Session::open(&tmp.path().join("sep2640"));
    let caps = &s.init["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"];
    assert_eq!(caps, &json!({"directoryRead": true, "listChanged": true}));
    let list = s.request("skills/list", json!({}));
    let skills = list["result"]["skills"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"));
    let names: Vec<&str> = skills
        .iter()
        .map(|k| k["frontmatter"]["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["pdf", "lazybridge", "notes"]);
    let pdf = &skills[0]["frontmatter"];
    assert_eq!(
        pdf["description"],
        "Folded multi-line description that the v1 parser would have rejected because of the indentation.\n"
    );
    assert_eq!(
        (
            &pdf["version"],
            &pdf["allowed-tools"],
            &pdf["argument-hint"]
        ),
        (&json!("2.1.0"), &json!(["Read", "Bash"]), &json!("[file]"))
    );
    let lazybridge = skills[1]["frontmatter"]["description"]
        .as_str()
        .unwrap_or("");
    assert!(
        lazybridge.ends_with("OpenAI Agents\nSDK).\n"),
        "{lazybridge:?}"
    );
    let get = s.request("skills/get", json!({"uri": "skill://claude-api/SKILL.md"}));
    assert_eq!(get["error"]["code"], -32602, "{get}");
    let read = s.request(
        "resources/read",
        json!({"uri": "skill://claude-api/SKILL.md"}),
    );
    assert!(
        read["error"]["code"].is_i64(),
        "left out of skill:// too: {read}"
    );
    let err = s.finish();
    assert!(
        err.contains("skillnav: skills/list leaves out 2 skills")
            && err.contains("claude-api/SKILL.md): description-length: description is 1068 chars")
            && err.contains("invalid-frontmatter/SKILL.md): name-missing:"),
        "{err}"
    );
}

#[test]
fn the_skills_left_out_are_named_in_instructions_and_by_validate() {
    let tmp = workspace();
    let root = tmp.path().join("sep2640");
    let s = Session::open(&root);
    let instructions = s.init["result"]["instructions"]
        .as_str()
        .unwrap_or("")
        .to_string();
    s.finish();
    let section = instructions
        .split("Left out of skills/list")
        .nth(1)
        .unwrap_or_else(|| panic!("no left-out section:\n{instructions}"));
    let left: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("- "))
        .map(|l| l.split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(left, ["claude-api", "invalid-frontmatter"]);
    assert!(
        section.contains("- claude-api (id sep2640/claude-api): description-length:"),
        "{section}"
    );
    let out = crate::support::child::skillnav_command()
        .args(["validate", "--json"])
        .arg(&root)
        .output()
        .unwrap_or_else(|e| panic!("skillnav validate: {e}"));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    for name in left {
        let errors = report["skills"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|k| {
                k["path"]
                    .as_str()
                    .unwrap_or("")
                    .contains(&format!("/{name}/SKILL.md"))
            })
            .map(|k| k["errors"].clone());
        assert!(
            errors.and_then(|e| e.as_u64()).is_some_and(|e| e > 0),
            "validate reports no error for {name}: {report}"
        );
    }
}

#[test]
fn skills_left_out_stay_readable_section_by_section_through_the_tools() {
    let tmp = workspace();
    let mut s = Session::open(&tmp.path().join("sep2640"));
    let (loaded, is_error) = s.tool("load_skill", json!({"name": "claude-api"}));
    assert!(!is_error, "{loaded}");
    let body = loaded["body"].as_str().unwrap_or("");
    assert!(
        body.starts_with("# Building LLM-Powered Applications with Claude"),
        "{body}"
    );
    let (hits, _) = s.tool(
        "search",
        json!({"query": "Scan the target file for provider markers"}),
    );
    let id = hits["hits"][0]["id"].as_str().unwrap_or("").to_string();
    assert_eq!(
        id,
        "sep2640/claude-api/SKILL.md#building-llm-powered-applications-with-claude/before-you-start"
    );
    let (read, _) = s.tool("read", json!({"ids": [id]}));
    let text = read["sections"][0]["text"].as_str().unwrap_or("");
    assert!(
        text.starts_with("## Before You Start\n\nScan the target file"),
        "{text}"
    );
    let (outline, is_error) = s.tool("outline", json!({"id": "sep2640/invalid-frontmatter"}));
    assert!(!is_error, "{outline}");
    s.finish();
}

/// `(uri, mimeType, size)` of each child `resources/directory/read` gives for `uri`.
fn children(s: &mut Session, uri: &str) -> Vec<(String, String, Option<u64>)> {
    let r = s.request("resources/directory/read", json!({"uri": uri}));
    r["result"]["resources"]
        .as_array()
        .unwrap_or_else(|| panic!("{uri}: {r}"))
        .iter()
        .map(|c| {
            (
                c["uri"].as_str().unwrap_or("").to_string(),
                c["mimeType"].as_str().unwrap_or("").to_string(),
                c["size"].as_u64(),
            )
        })
        .collect()
}

#[test]
fn directory_read_lists_direct_children_without_dot_files_and_refuses_other_uris() {
    let tmp = workspace();
    let root = tmp.path().join("sep2640");
    let mut s = Session::open(&root);
    let md = std::fs::metadata(root.join("notes/SKILL.md")).map_or(0, |m| m.len());
    let format = std::fs::metadata(root.join("notes/references/format.md")).map_or(0, |m| m.len());
    let top = vec![
        (
            "skill://notes/SKILL.md".to_string(),
            "text/markdown".to_string(),
            Some(md),
        ),
        (
            "skill://notes/references".to_string(),
            "inode/directory".to_string(),
            None,
        ),
    ];
    assert_eq!(children(&mut s, "skill://notes/"), top);
    assert_eq!(children(&mut s, "skill://notes"), top);
    assert_eq!(
        children(&mut s, "skill://notes/references/"),
        [(
            "skill://notes/references/format.md".to_string(),
            "text/markdown".to_string(),
            Some(format)
        )]
    );
    for uri in [
        "skill://nope/",
        "skill://claude-api/",
        "skill://notes/SKILL.md",
        "skill://notes/.draft.md",
        "skill://notes/references/.cache",
        "skillnav://notes",
    ] {
        let r = s.request("resources/directory/read", json!({"uri": uri}));
        assert_eq!(r["error"]["code"], -32602, "{uri}: {r}");
    }
    s.finish();
}
