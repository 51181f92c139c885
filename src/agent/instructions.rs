//! The server's `instructions`: what is loaded before any request, namely how to use the
//! tools, the listing of the skills `skills/list` lists, the skills it leaves out with why
//! (docs/MCP.md "Which skills are listed"), and the text of every `always` section (within
//! a token cap; the ones left over are named, to be read by id). A server that answers
//! `initialize` while its roots are still loading sends [`while_loading`] instead: the
//! tool guide and how to get the catalog once the load is done.

use super::listable::instructions_section;
use super::skills::{SkillManifest, left_out, manifests};
use super::workspace::Workspace;
use crate::skill::layers::listing_entry;
use crate::skill::listing::{ListingFormat, ListingOptions, format_listing};

/// Most tokens of `always` text put into the instructions.
pub const ALWAYS_TOKENS: u64 = 8_000;

/// How to use the tools: the first paragraph of every instructions text.
const TOOL_GUIDE: &str = "skillnav serves documentation sections. Pull only what a task needs: `search` (pointers with sizes) → \
`outline` (a node's subtree as compact rows, or the catalog without an id; a child id starting with `/` or `#` continues its parent's; \
with `query` each row has `score`, the best hit below it: go down the highest) → `read` (sections by id, under max_tokens; \
one larger than a reply comes in passages; follow `cursor` for the rest) or `brief` (a packed context brief). `load_skill` loads a skill's body. \
Sizes are tokens in the named encoding.\n";

/// The instructions of a server whose roots are still loading: the tool guide, and that
/// the catalog (`outline` without arguments) and `skills/list` give the skills once the
/// load is done (requests wait for it).
pub fn while_loading() -> String {
    format!(
        "{TOOL_GUIDE}\nThe roots were still loading when this session started, so the skill listing is not here: call `outline` with no arguments (the catalog) or `skills/list` for it; requests made before the load is done wait for it.\n"
    )
}

/// The instructions text of `ws`.
pub fn instructions(ws: &Workspace) -> String {
    let c = &ws.corpus;
    let mut out = String::from(TOOL_GUIDE);
    if ws.index.reranker().is_none() && crate::config::semantic_setting().model() {
        out.push_str(&format!(
            "Ranking: {}; a person can install it (it is not a tool).\n",
            crate::rerank::HINT
        ));
    }
    let entries: Vec<_> = manifests(ws)
        .iter()
        .filter(|m| SkillManifest::in_skills_list(m))
        .map(|m| listing_entry(c, m.node))
        .collect();
    if !entries.is_empty() {
        let opts = ListingOptions {
            format: ListingFormat::AvailableSkills,
            ..ListingOptions::default()
        };
        out.push_str("\nSkills (load one with load_skill):\n");
        out.push_str(&format_listing(&entries, opts));
        out.push('\n');
    }
    out.push_str(&instructions_section(&left_out(ws)));
    let units = ws.exposure.always_units(c);
    let mut used = 0;
    let mut left = Vec::new();
    let mut first = true;
    for u in units {
        let text = ws.exposure.visible_text(c, u);
        let t = ws.counter().count(&text);
        if used + t > ALWAYS_TOKENS.min(ws.limits().max_tokens) {
            left.push(c.id(u));
            continue;
        }
        if first {
            out.push_str("\nAlways loaded:\n");
            first = false;
        }
        used += t;
        out.push_str(&format!(
            "\n<!-- {} · {} -->\n{}\n",
            c.id(u),
            c.node(u).path,
            text.trim_end()
        ));
    }
    if !left.is_empty() {
        out.push_str(&format!(
            "\nMore always-loaded sections (read them by id): {}\n",
            left.join(", ")
        ));
    }
    out
}
