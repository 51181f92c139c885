//! The `load_skill` request: a skill's body rendered as `skillnav render` renders it
//! (`$ARGUMENTS`, `$0…`, `$name` substituted), its base directory and its file list, as the
//! Agent Skills guide has a client load a skill. A body over the result caps is served in
//! passages ([`super::passage`]) from a byte offset.

use serde_json::{Value, json};

use super::error::{AgentResult, err};
use super::passage::{self, Measure};
use super::skills::manifests;
use super::workspace::Workspace;
use crate::skill::render::{RenderOptions, render_skill, skill_from_text};
use crate::skill::skill_md;

/// Load skill `name` (its frontmatter name) with the raw argument string `args` (`None`
/// leaves placeholders as written). The document is `{"name", "base_dir", "exposure",
/// "tokens", "encoding", "body", "files": [path…]}`; `body` is exactly what `skillnav
/// render DIR [--args ARGS]` prints, without its final newline, and hidden sections of the
/// SKILL.md are left out of it. `tokens` counts the whole body. A body that would take the
/// document over the server's caps comes in passages: `body` holds bytes `from`–`to` of it,
/// `passage` is `{"from", "to", "bytes", "last"}`, and `next_offset` (a byte offset, else
/// null) is the `offset` of the next call; `offset` 0 starts at the beginning. `explicit`
/// skills are served (asked for by name), and so are the skills `skills/list` leaves out for
/// breaking the Agent Skills rules (by their listing name; of two skills of one name, the
/// one `skills/list` serves). Errors: no such skill (hidden ones included), an offset past
/// the end of the body or inside a character.
pub fn load_skill(
    ws: &Workspace,
    name: &str,
    args: Option<&str>,
    offset: usize,
) -> AgentResult<Value> {
    let all = manifests(ws);
    let named = |m: &&super::skills::SkillManifest| m.name == name;
    let Some(m) = all
        .iter()
        .filter(named)
        .find(|m| m.served())
        .or_else(|| all.iter().find(named))
    else {
        let names: Vec<&str> = all
            .iter()
            .filter(|m| m.listed)
            .map(|m| m.name.as_str())
            .take(30)
            .collect();
        return err(format!(
            "no skill named {name:?} (skills: {})",
            names.join(", ")
        ));
    };
    let corpus = &ws.corpus;
    let Some(md) = skill_md(corpus, m.node) else {
        return err(format!("{name}: no SKILL.md"));
    };
    let text = ws.exposure.visible_text(corpus, md);
    let folder = m
        .base_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let location = m.base_dir.join("SKILL.md").to_string_lossy().into_owned();
    let skill = skill_from_text(&text, &folder, &location, Some(m.base_dir.clone()));
    let opts = RenderOptions {
        args: args.map(str::to_string),
        ..RenderOptions::default()
    };
    let body = render_skill(&skill, &opts);
    let doc = json!({
        "name": m.name,
        "base_dir": m.base_dir.to_string_lossy(),
        "exposure": m.exposure.as_str(),
        "tokens": ws.counter().count(&body),
        "encoding": ws.counter().encoding().as_str(),
        "body": "",
        "files": m.files.iter().map(|f| f.rel.clone()).collect::<Vec<_>>(),
    });
    body_passage(ws, doc, &body, offset)
}

/// `doc` with `body` from byte `offset`: all of it when the document stays under the
/// server's caps, else the passage that fits, with `passage` and `next_offset`.
fn body_passage(ws: &Workspace, mut doc: Value, body: &str, offset: usize) -> AgentResult<Value> {
    if offset > body.len() || !body.is_char_boundary(offset) {
        return err(format!(
            "offset {offset} is not a passage start of this body ({} bytes): pass the next_offset of the last call",
            body.len()
        ));
    }
    let limits = ws.limits();
    // The frame with the widest `passage` and `next_offset` it can get.
    let frame = doc.to_string().chars().count() + 200;
    let room = limits.max_chars.saturating_sub(frame);
    if room < 1_000 {
        return err(
            "this skill's file list alone fills a result: read its files with resources/read",
        );
    }
    let counter = ws.counter();
    let tokens = limits
        .max_tokens
        .saturating_sub(counter.count(&doc.to_string()))
        .max(1);
    let whole = offset == 0 && Measure::JsonChars.of(body) <= room && counter.count(body) <= tokens;
    let end = if whole {
        body.len()
    } else {
        passage::fit(body, offset, room, Measure::JsonChars, tokens, counter)
            .0
            .end
    };
    doc["body"] = json!(&body[offset..end]);
    if !whole {
        doc["passage"] =
            json!({"from": offset, "to": end, "bytes": body.len(), "last": end == body.len()});
        doc["next_offset"] = json!((end < body.len()).then_some(end));
    }
    Ok(doc)
}
