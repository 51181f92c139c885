//! The `load_skill` request: a skill's body rendered as `skillnav render` renders it
//! (`$ARGUMENTS`, `$0…`, `$name` substituted), its base directory and its file list, as the
//! Agent Skills guide has a client load a skill.

use serde_json::{Value, json};

use super::error::{AgentResult, err};
use super::skills::manifests;
use super::workspace::Workspace;
use crate::skill::render::{RenderOptions, render_skill, skill_from_text};
use crate::skill::skill_md;

/// Load skill `name` (its frontmatter name) with the raw argument string `args` (`None`
/// leaves placeholders as written). The document is `{"name", "base_dir", "exposure",
/// "tokens", "body", "files": [path…]}`; `body` is exactly what `skillnav render DIR
/// [--args ARGS]` prints, without its final newline, and hidden sections of the SKILL.md
/// are left out of it. `explicit` skills are served (asked for by name), and so are the
/// skills `skills/list` leaves out for breaking the Agent Skills rules (by their listing
/// name; of two skills of one name, the one `skills/list` serves). Errors: no such skill
/// (hidden ones included).
pub fn load_skill(ws: &Workspace, name: &str, args: Option<&str>) -> AgentResult<Value> {
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
    Ok(json!({
        "name": m.name,
        "base_dir": m.base_dir.to_string_lossy(),
        "exposure": m.exposure.as_str(),
        "tokens": ws.counter().count(&body),
        "encoding": ws.counter().encoding().as_str(),
        "body": body,
        "files": m.files.iter().map(|f| f.rel.clone()).collect::<Vec<_>>(),
    }))
}
