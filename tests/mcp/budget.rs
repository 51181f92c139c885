//! The result budget through the real server (docs/MCP.md "Result size caps"), on inputs
//! generated here: a 160k-token section with no sub-headings read back byte for byte
//! through `read` cursors and through `resources/read` offsets, every result under the
//! 50,000-character cap; `search` with the largest `top_k` on a large tree returning the
//! hits that fit and how many were left out; a budget smaller than a word still advancing,
//! no cursor ever repeating a reply.

use std::collections::HashSet;
use std::path::Path;

use serde_json::{Value, json};

use super::rpc::Rpc;
use crate::support::fs::{fixture_path, tempdir, write};

/// The character cap docs/MCP.md promises: every result has fewer characters.
const CAP: usize = 50_000;

/// A deterministic word stream (xorshift64).
struct Words(u64);

impl Words {
    const LIST: [&'static str; 24] = [
        "the",
        "agent",
        "reads",
        "sections",
        "through",
        "cursors",
        "while",
        "budgets",
        "bound",
        "every",
        "reply",
        "and",
        "passages",
        "keep",
        "paragraphs",
        "whole",
        "élan",
        "日本語",
        "naïve",
        "résumé",
        "token",
        "window",
        "boundary",
        "\"quoted\"",
    ];

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).unwrap_or(0)
    }

    fn line(&mut self, words: usize) -> String {
        let w: Vec<&str> = (0..words)
            .map(|_| Self::LIST[self.below(Self::LIST.len())])
            .collect();
        w.join(" ")
    }

    /// A paragraph of 2–9 lines of 5–15 words, ended by a blank line, with `eol` endings.
    fn paragraph(&mut self, eol: &str) -> String {
        let lines: Vec<String> = (0..2 + self.below(8))
            .map(|_| {
                let n = 5 + self.below(11);
                self.line(n)
            })
            .collect();
        format!("{}{eol}{eol}", lines.join(eol))
    }
}

/// Markdown of at least `chars` characters without a heading: LF and CRLF paragraphs,
/// fenced code blocks with a blank line inside, and single lines of 2,000–4,000 words.
fn heading_less(chars: usize) -> String {
    let mut w = Words(0x9E37_79B9_7F4A_7C15);
    let mut out = String::new();
    let mut i = 0;
    while out.chars().count() < chars {
        let part = match i % 9 {
            4 => {
                let body: Vec<String> = (0..3 + w.below(28))
                    .map(|j| format!("    let x{j} = compute({j});"))
                    .collect();
                let body = body.join("\n");
                format!("```rust\n{body}\n\n{body}\n```\n\n")
            }
            7 => {
                let n = 2_000 + w.below(2_001);
                format!("{}\n\n", w.line(n))
            }
            8 => w.paragraph("\r\n"),
            _ => w.paragraph("\n"),
        };
        out.push_str(&part);
        i += 1;
    }
    out
}

/// Where `got` first differs from `want` (for a readable failure instead of 900 KB).
fn first_difference(got: &[u8], want: &[u8]) -> Option<usize> {
    (0..got.len().max(want.len())).find(|i| got.get(*i) != want.get(*i))
}

/// Follow `read` cursors from `first` to the end: the texts served in order, the number
/// of calls and the largest result in characters. Checks on the way: every result under
/// [`CAP`], passages contiguous, no cursor (so no reply) seen twice.
fn read_through(rpc: &mut Rpc, first: &Value) -> (String, usize, usize) {
    let (mut text, mut calls, mut largest) = (String::new(), 0, 0);
    let mut seen = HashSet::new();
    let mut args = first.clone();
    loop {
        let reply = rpc.tool_text("read", &args);
        calls += 1;
        largest = largest.max(reply.chars().count());
        assert!(
            reply.chars().count() < CAP,
            "call {calls}: {} characters",
            reply.chars().count()
        );
        assert!(seen.insert(reply.clone()), "call {calls} repeated a reply");
        let doc: Value = serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{e}"));
        let sections = doc["sections"].as_array().cloned().unwrap_or_default();
        assert!(!sections.is_empty(), "call {calls} served nothing: {doc}");
        for s in &sections {
            if let Some(from) = s["passage"]["from"].as_u64() {
                assert_eq!(
                    from as usize,
                    text.len(),
                    "call {calls}: passages not contiguous"
                );
            }
            text.push_str(s["text"].as_str().unwrap_or_default());
        }
        match doc["cursor"].as_str() {
            Some(c) => args = json!({"cursor": c, "max_tokens": first["max_tokens"]}),
            None => return (text, calls, largest),
        }
    }
}

/// Follow `resources/read` passages from `uri` to the end: the texts in order, the
/// number of calls and the largest content text in characters.
fn resource_through(rpc: &mut Rpc, uri: &str) -> (String, usize, usize) {
    let (mut text, mut calls, mut largest) = (String::new(), 0, 0);
    let mut next = Some(uri.to_string());
    while let Some(u) = next {
        let v = rpc.call("resources/read", &json!({"uri": u}));
        calls += 1;
        let contents = v["result"]["contents"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let body = contents[0]["text"].as_str().unwrap_or_default();
        largest = largest.max(body.chars().count());
        assert!(
            body.chars().count() < CAP,
            "passage {calls}: {} characters",
            body.chars().count()
        );
        text.push_str(body);
        next = contents[0]["_meta"]["skillnav/passage"]["next"]
            .as_str()
            .map(str::to_string);
        let pointer = contents
            .get(1)
            .map(|c| c["uri"].as_str().unwrap_or_default().to_string());
        assert_eq!(
            pointer, next,
            "passage {calls}: the pointer names the next passage"
        );
    }
    (text, calls, largest)
}

#[test]
fn a_160k_token_heading_less_section_reads_back_byte_for_byte_through_cursors() {
    let tmp = tempdir();
    let want = heading_less(880_000);
    write(tmp.path(), "big/notes.md", want.as_bytes());
    let mut rpc = Rpc::ready([tmp.path().join("big")]);
    let id = "big/notes.md#notesmd";
    let node = rpc.tool("outline", &json!({"id": id}));
    let tokens = node["node"]["tokens"].as_u64().unwrap_or(0);
    assert!((160_000..200_000).contains(&tokens), "{tokens} tokens");
    assert_eq!(
        (
            node["node"].get("children"),
            node["node"].get("children_count")
        ),
        (None, None),
        "heading-less: {node}"
    );
    // A max_tokens over the server's cap is lowered to it: passages of at most 25,000
    // tokens and fewer than 50,000 characters.
    let (got, calls, largest) =
        read_through(&mut rpc, &json!({"ids": [id], "max_tokens": 1_000_000_000}));
    assert_eq!(first_difference(got.as_bytes(), want.as_bytes()), None);
    let chars = want.chars().count();
    assert!(
        calls * (CAP / 2) <= chars * 2 && calls >= chars / CAP,
        "{calls} calls, largest {largest}"
    );
    eprintln!(
        "read: {tokens} tokens, {} bytes in {calls} calls, largest result {largest} characters",
        want.len()
    );
    let (got, calls, largest) = resource_through(&mut rpc, "skillnav://big/notes.md%23notesmd");
    assert_eq!(first_difference(got.as_bytes(), want.as_bytes()), None);
    eprintln!("resources/read: {calls} calls, largest text {largest} characters");
    rpc.finish();
}

#[test]
fn a_budget_smaller_than_a_word_still_advances_and_no_cursor_repeats() {
    let mut rpc = Rpc::ready([fixture_path("curate/skills")]);
    let id = "skills/notes/SKILL.md";
    let whole = rpc.tool("read", &json!({"ids": [id]}));
    let want = whole["sections"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(whole["sections"][0].get("passage"), None, "{whole}");
    let (got, calls, _) = read_through(&mut rpc, &json!({"ids": [id], "max_tokens": 1}));
    assert_eq!(got, want);
    // One word (with the whitespace after it) or one blank line per reply.
    let words = want.split_whitespace().count();
    let blank = want.lines().filter(|l| l.is_empty()).count();
    assert_eq!((calls, words, blank), (73, 66, 7));
    rpc.finish();
}

/// A tree of 150 folders whose READMEs hold six long-titled sections each that all
/// match the same query.
fn large_tree(dir: &Path) {
    for i in 0..150 {
        let folder = format!(
            "area-{:02}-with-a-rather-long-folder-name/topic-{i:03}-deployment-guide-and-reference",
            i % 10
        );
        let mut md = format!("# Topic {i}\n\nIntro about deployment.\n\n");
        for j in 0..6 {
            md.push_str(&format!(
                "## Deployment rollback procedure {j} for service {i} with staged canaries and health checks\n\n"
            ));
            for _ in 0..3 {
                md.push_str(&format!(
                    "The deployment rollback for service {i} step {j} restores the previous release when canary health checks fail. "
                ));
            }
            md.push_str("\n\n");
        }
        write(dir, &format!("{folder}/README.md"), md.as_bytes());
    }
}

#[test]
fn search_with_the_largest_top_k_returns_the_hits_that_fit_and_next_offset_pages_to_the_rest() {
    let tmp = tempdir();
    large_tree(&tmp.path().join("tree"));
    let mut rpc = Rpc::ready([tmp.path().join("tree")]);
    let query = "deployment rollback canary health";
    let text = rpc.tool_text("search", &json!({"query": query, "top_k": 100}));
    assert!(
        text.chars().count() < CAP,
        "{} characters",
        text.chars().count()
    );
    let ids = |d: &Value, n: usize| -> Vec<String> {
        d["hits"]
            .as_array()
            .into_iter()
            .flatten()
            .take(n)
            .map(|h| h["id"].to_string())
            .collect()
    };
    let full: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let hits = full["hits"].as_array().map_or(0, Vec::len);
    let left = full["left_out"].as_u64().unwrap_or(0) as usize;
    assert_eq!(hits + left, 100, "{hits} hits, {left} left out");
    assert!(hits >= 50 && left > 0, "{hits} hits, {left} left out");
    assert_eq!(
        full["next"].as_str(),
        Some(format!("{left} more hit(s) did not fit in this server's limit of 49999 characters: call search again with offset {hits} for them, or narrow the query (kind, filters)").as_str())
    );
    assert_eq!(full["next_offset"], json!(hits));
    // Paging with `next_offset` returns the hits left out, in order, each page advancing.
    let all = rpc.tool(
        "search",
        &json!({"query": query, "top_k": 100, "offset": 0}),
    );
    assert_eq!(ids(&all, 100), ids(&full, 100));
    let mut offset = hits;
    let mut paged = ids(&full, hits);
    while paged.len() < 100 {
        let page = rpc.tool(
            "search",
            &json!({"query": query, "top_k": 100 - paged.len(), "offset": offset}),
        );
        let got = ids(&page, 100);
        assert!(
            !got.is_empty(),
            "a page at offset {offset} returned no hits"
        );
        assert_eq!(page["offset"], json!(offset));
        offset += got.len();
        paged.extend(got);
        if page["next_offset"].is_null() {
            break;
        }
        assert_eq!(page["next_offset"], json!(offset));
    }
    let hundred = rpc.tool(
        "search",
        &json!({"query": query, "top_k": 100, "offset": 50}),
    );
    assert_eq!(ids(&hundred, 10), paged[50..60].to_vec());
    let refused = rpc.call(
        "tools/call",
        &json!({"name": "search", "arguments": {"query": query, "offset": 1001}}),
    );
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let why = refused["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("");
    assert!(why.contains("offset must be at most 1000"), "{why}");
    // The hits that fit are the best ones: the same as a smaller top_k's, in order.
    let fifty = rpc.tool("search", &json!({"query": query, "top_k": 50}));
    assert_eq!(ids(&full, 50), ids(&fifty, 50));
    assert_eq!(
        (fifty["left_out"].clone(), fifty["next"].clone()),
        (json!(0), Value::Null)
    );
    eprintln!(
        "search top_k 100: {hits} hits, {left} left out, {} characters",
        text.chars().count()
    );
    rpc.finish();
}

#[test]
fn load_skill_serves_a_body_over_the_cap_in_passages_equal_to_skillnav_render() {
    let tmp = tempdir();
    let body = heading_less(120_000);
    let skill =
        format!("---\nname: big\ndescription: A skill with a very long body.\n---\n\n{body}");
    write(tmp.path(), "skills/big/SKILL.md", skill.as_bytes());
    let render = crate::support::child::skillnav_command()
        .arg("render")
        .arg(tmp.path().join("skills/big"))
        .output()
        .unwrap_or_else(|e| panic!("skillnav render: {e}"));
    assert!(render.status.success(), "{render:?}");
    let want = String::from_utf8_lossy(&render.stdout).to_string();
    let mut rpc = Rpc::ready([tmp.path().join("skills")]);
    let (mut got, mut offset, mut calls) = (String::new(), 0u64, 0);
    loop {
        let text = rpc.tool_text("load_skill", &json!({"name": "big", "offset": offset}));
        assert!(
            text.chars().count() < CAP,
            "{} characters",
            text.chars().count()
        );
        let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(doc["passage"]["from"], offset, "{}", doc["passage"]);
        got.push_str(doc["body"].as_str().unwrap_or_default());
        calls += 1;
        match doc["next_offset"].as_u64() {
            Some(n) => offset = n,
            None => break,
        }
    }
    assert_eq!(
        first_difference(format!("{got}\n").as_bytes(), want.as_bytes()),
        None
    );
    assert!(calls >= 3, "{calls} calls");
    rpc.finish();
}

/// Follow `read` cursors from `first` to the end over texts of several sections: each
/// section's text (passages joined in order, each starting where the last ended), the
/// section ids in the order first served, and the number of calls. No reply is seen twice
/// and each is under [`CAP`].
fn read_sections(
    rpc: &mut Rpc,
    first: &Value,
) -> (
    std::collections::HashMap<String, String>,
    Vec<String>,
    usize,
) {
    let mut texts: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let (mut order, mut calls, mut seen) = (Vec::new(), 0, HashSet::new());
    let mut args = first.clone();
    loop {
        let reply = rpc.tool_text("read", &args);
        calls += 1;
        assert!(reply.chars().count() < CAP, "call {calls}");
        assert!(seen.insert(reply.clone()), "call {calls} repeated a reply");
        let doc: Value = serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{e}"));
        let sections = doc["sections"].as_array().cloned().unwrap_or_default();
        assert!(!sections.is_empty(), "call {calls} served nothing: {doc}");
        for s in &sections {
            let id = s["id"].as_str().unwrap_or_default().to_string();
            let text = texts.entry(id.clone()).or_default();
            let from = s["passage"]["from"].as_u64().unwrap_or(0) as usize;
            assert_eq!(from, text.len(), "call {calls}: {id} not contiguous");
            text.push_str(s["text"].as_str().unwrap_or_default());
            if !order.contains(&id) {
                order.push(id);
            }
        }
        match doc["cursor"].as_str() {
            Some(c) => args = json!({"cursor": c, "max_tokens": first["max_tokens"]}),
            None => return (texts, order, calls),
        }
    }
}

#[test]
fn a_folder_reads_as_its_files_in_tree_order_and_its_cursor_walks_every_byte() {
    let tmp = tempdir();
    let mut w = Words(0x2545_F491_4F6C_DD1D);
    let mut files: Vec<(String, String)> = Vec::new();
    // In tree order (here, without READMEs, a folder's sub-folders come before its files).
    for (path, paragraphs) in [
        ("guide/a-intro/doc.md", 30),
        ("guide/b-setup/c-deep/doc.md", 400),
        ("guide/b-setup/doc.md", 3),
        ("guide/d-end.md", 5),
    ] {
        let body: String = (0..paragraphs).map(|_| w.paragraph("\n")).collect();
        let text = format!("{body}closing words of {path}\n");
        write(tmp.path(), path, text.as_bytes());
        files.push((path.to_string(), text));
    }
    for i in 0..230 {
        let text = format!("note {i}\n");
        write(
            tmp.path(),
            &format!("guide/many/n{i:03}.md"),
            text.as_bytes(),
        );
    }
    let mut rpc = Rpc::ready([tmp.path().join("guide")]);
    // A folder is read as its texts, file by file in tree order; the 400-paragraph file
    // comes in passages and the next file waits for the cursor.
    let first =
        json!({"ids": ["guide/a-intro", "guide/b-setup", "guide/d-end.md"], "max_tokens": 3000});
    let (texts, order, calls) = read_sections(&mut rpc, &first);
    let ids: Vec<&String> = files.iter().map(|(p, _)| p).collect();
    assert_eq!(order.iter().collect::<Vec<_>>(), ids);
    for (path, want) in &files {
        assert_eq!(texts.get(path), Some(want), "{path}");
    }
    assert!(calls >= 5, "{calls} calls");
    // More texts than fit one reply (the character cap binds before 200 texts): the
    // cursor goes on at the next text, and every text comes once, in order.
    let many = json!({"ids": ["guide/many"], "max_tokens": 25_000});
    let reply = rpc.tool("read", &many);
    let first_reply = reply["sections"].as_array().map_or(0, Vec::len);
    assert!((150..230).contains(&first_reply), "{first_reply}");
    let left: Vec<Value> = reply["left_out"].as_array().cloned().unwrap_or_default();
    assert_eq!(left.last(), Some(&json!("guide/many")), "{left:?}");
    let (texts, order, calls) = read_sections(&mut rpc, &many);
    let want: Vec<String> = (0..230).map(|i| format!("guide/many/n{i:03}.md")).collect();
    assert_eq!((order, calls), (want, 2));
    assert_eq!(texts["guide/many/n229.md"], "note 229\n");
    rpc.finish();
}
