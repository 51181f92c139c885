//! Start-up (docs/MCP.md "Start-up"): the server answers `initialize` while its roots are
//! still loading, and every request sent before the load is done waits for it and gets
//! the full answer; `--wait-for-load` answers `initialize` after the load instead.

use std::ffi::OsStr;
use std::path::Path;

use serde_json::json;

use super::rpc::Rpc;
use crate::support::fs::{tempdir, write};

/// A tree that takes a debug build far longer than the server's 50 ms `initialize` wait to
/// load: 2,500 documents of 12 sections each, and one skill whose body holds `needle`.
fn big_tree(dir: &Path) {
    for i in 0..2_500 {
        let mut md = format!("# Document {i}\n\n");
        for j in 0..12 {
            md.push_str(&format!(
                "## Part {j} of document {i}\n\nThe quick brown fox {i} jumps over the lazy dog {j}; \
                 replicas, schedulers and volumes are discussed at length in part {j}.\n\n"
            ));
        }
        write(
            dir,
            &format!("docs/d{:02}/doc-{i}.md", i % 50),
            md.as_bytes(),
        );
    }
    write(
        dir,
        "skills/tracer/SKILL.md",
        b"---\nname: tracer\ndescription: Traces the zebrafish needle through a tree. Use when asked about needles.\n---\n\n# Tracer\n\nThe zebrafish needle lives here.\n",
    );
}

#[test]
fn initialize_answers_while_the_roots_load_and_a_search_sent_at_once_waits_for_them() {
    let tmp = tempdir();
    big_tree(tmp.path());
    let mut rpc = Rpc::ready([tmp.path()]);
    let instructions = rpc.init["result"]["instructions"].as_str().unwrap_or("");
    assert!(
        instructions.contains("The roots were still loading when this session started")
            && instructions.contains("`search`")
            && !instructions.contains("<available_skills>"),
        "{instructions}"
    );
    // Sent right after the handshake, while the load runs: answered in full.
    let found = rpc.tool("search", &json!({"query": "zebrafish needle"}));
    assert_eq!(
        found["hits"][0]["id"],
        json!(format!(
            "{}/skills/tracer",
            tmp.path().file_name().and_then(OsStr::to_str).unwrap_or("")
        )),
        "{found}"
    );
    let listed = rpc.call("skills/list", &json!({}));
    let names: Vec<&str> = listed["result"]["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["frontmatter"]["name"].as_str())
        .collect();
    assert_eq!(names, ["tracer"], "{listed}");
    rpc.finish();
}

#[test]
fn wait_for_load_answers_initialize_with_the_skill_listing() {
    let tmp = tempdir();
    big_tree(tmp.path());
    let rpc = Rpc::ready([tmp.path().as_os_str(), OsStr::new("--wait-for-load")]);
    let instructions = rpc.init["result"]["instructions"].as_str().unwrap_or("");
    assert!(
        instructions.contains("<available_skills>")
            && instructions.contains("tracer")
            && !instructions.contains("still loading"),
        "{instructions}"
    );
    rpc.finish();
}
