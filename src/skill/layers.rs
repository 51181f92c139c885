//! Per-layer token cost of skills (docs/FORMATS.md §3.4 progressive disclosure):
//! what each disclosure layer costs an agent. Layers of a skill: *metadata* (its entry in
//! the `<available_skills>` listing, loaded on every turn), the SKILL.md *body* (loaded when
//! the skill is activated), each *reference* file (read on demand), and *assets* (files
//! under `scripts/`/`assets/` or binary: never loaded as text, so bytes only). A root's
//! always-loaded cost is the token count of the `available-skills` listing of its skills.
//!
//! Copies (`duplicate`, `alias`, `variant` flags, [`Corpus::is_copy`]) are not counted, so a
//! `Skill_Seekers` skill counts its chosen llms variant once; `shadowed` skills (a same-named
//! skill of another scope wins) are left out of a root's listing.

use serde_json::{Value as Json, json};

use super::skill_md;
use crate::model::{Corpus, Flag, NodeId, NodeKind};
use crate::skill::listing::{ListingEntry, ListingFormat, ListingOptions, format_listing};
use crate::tokens::TokenCounter;

/// One on-demand file of a skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLayer {
    /// The file node.
    pub node: NodeId,
    /// Path relative to the skill folder (`references/api.md`).
    pub path: String,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// Exact tokens of its text (0 for assets).
    pub tokens: u64,
}

/// The layers of one skill. Invariant: `total_tokens = metadata_tokens + body_tokens +
/// Σ references[i].tokens` (assets cost no tokens).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillLayers {
    /// The skill node.
    pub skill: NodeId,
    /// The listing entry this skill contributes.
    pub entry: ListingEntry,
    /// Tokens of the skill's own `<skill>…</skill>` lines of the `available-skills` listing
    /// (name and description, HTML-escaped, plus location), with their trailing `\n`.
    pub metadata_tokens: u64,
    /// Tokens of SKILL.md after its frontmatter block.
    pub body_tokens: u64,
    /// Bytes of that body.
    pub body_bytes: u64,
    /// Text files other than SKILL.md (references, examples, loose docs), in tree order.
    pub references: Vec<FileLayer>,
    /// Scripts, assets and binary files (tokens 0).
    pub assets: Vec<FileLayer>,
    /// Sum of the token layers.
    pub total_tokens: u64,
}

/// The layers of a root: its listed skills and the always-loaded listing cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLayers {
    /// The root node.
    pub root: NodeId,
    /// Layers of every skill below the root that is not a copy, in tree order.
    pub skills: Vec<SkillLayers>,
    /// Tokens of `format_listing(entries of the non-shadowed skills, available-skills)`.
    pub always_loaded_tokens: u64,
    /// How many of `skills` the agent sees (not shadowed): the skills of that listing.
    pub listed: usize,
    /// Tokens of the listing of every skill the agent sees across all roots of the corpus
    /// (all scopes together), when the corpus has more than one root.
    pub all_scopes_tokens: Option<u64>,
}

/// The absolute path of a file node's source, else its root-relative path.
fn location(corpus: &Corpus, file: NodeId) -> String {
    let n = corpus.node(file);
    n.span
        .and_then(|s| corpus.sources.get(s.source.0 as usize))
        .and_then(|s| s.abs_path.as_ref())
        .map_or_else(|| n.path.to_string(), |p| p.to_string_lossy().into_owned())
}

/// The listing entry of a skill: frontmatter name/description/when-to-use from its SKILL.md
/// text (the node title and detail when the file has no frontmatter), and the absolute
/// SKILL.md location.
pub fn listing_entry(corpus: &Corpus, skill: NodeId) -> ListingEntry {
    let node = corpus.node(skill);
    let file = skill_md(corpus, skill);
    let loc = file.map(|f| location(corpus, f)).unwrap_or_default();
    let text = file.map_or("", |f| corpus.text(f));
    match crate::frontmatter::parse(text) {
        Some(fm) if fm.block.end > 0 => ListingEntry::from_frontmatter(&fm, &node.title, &loc),
        _ => ListingEntry {
            name: node.title.clone(),
            description: node
                .detail
                .as_deref()
                .map_or_else(|| node.summary.clone(), str::to_string),
            when_to_use: None,
            location: loc,
        },
    }
}

/// The listing entries of the skills of `roots` an agent sees (not copies, not shadowed),
/// in tree order, with their nodes. A namespaced title (`user:pdf`, `--namespace`) names
/// the entry.
pub fn corpus_entries(corpus: &Corpus, roots: &[NodeId]) -> Vec<(NodeId, ListingEntry)> {
    let mut out = Vec::new();
    for root in roots {
        for id in corpus.preorder(*root) {
            let n = corpus.node(id);
            if n.kind != NodeKind::Skill || corpus.is_copy(id) || n.flags.has(Flag::Shadowed) {
                continue;
            }
            let mut e = listing_entry(corpus, id);
            if n.title.ends_with(&format!(":{}", e.name)) {
                e.name.clone_from(&n.title);
            }
            out.push((id, e));
        }
    }
    out
}

/// Tokens of one skill's lines in the `available-skills` listing (without the wrapper).
pub fn metadata_tokens(entry: &ListingEntry, counter: TokenCounter) -> u64 {
    let opts = ListingOptions {
        format: ListingFormat::AvailableSkills,
        ..ListingOptions::default()
    };
    let full = format_listing(std::slice::from_ref(entry), opts);
    let inner = full
        .strip_prefix("<available_skills>\n")
        .and_then(|s| s.strip_suffix("</available_skills>"))
        .unwrap_or(&full);
    counter.count(inner)
}

fn is_asset(corpus: &Corpus, id: NodeId, skill_path: &str) -> bool {
    let n = corpus.node(id);
    let rel = n
        .path
        .strip_prefix(skill_path)
        .unwrap_or(&n.path)
        .trim_start_matches('/');
    n.flags.has(Flag::Asset)
        || n.flags.has(Flag::Binary)
        || rel.starts_with("scripts/")
        || rel.starts_with("assets/")
        || n.span.is_none()
}

/// The layers of `skill` (a `Skill` node). Files are the `File` nodes below it that are not
/// copies; nested skills' files belong to the nested skill and are skipped.
pub fn skill_layers(corpus: &Corpus, skill: NodeId, counter: TokenCounter) -> SkillLayers {
    let entry = listing_entry(corpus, skill);
    let metadata = metadata_tokens(&entry, counter);
    let md = skill_md(corpus, skill);
    let body = md.map_or("", |f| {
        let text = corpus.text(f);
        match crate::frontmatter::parse(text) {
            Some(fm) => text.get(fm.block.end..).unwrap_or(""),
            None => text,
        }
    });
    let skill_path = corpus.node(skill).path.clone();
    let (mut references, mut assets) = (Vec::new(), Vec::new());
    let mut stack: Vec<NodeId> = corpus.node(skill).children.iter().rev().copied().collect();
    while let Some(id) = stack.pop() {
        let n = corpus.node(id);
        if n.flags.is_copy() || Some(id) == md || n.kind == NodeKind::Skill {
            continue;
        }
        if n.kind == NodeKind::File {
            let rel = n
                .path
                .strip_prefix(&*skill_path)
                .unwrap_or(&n.path)
                .trim_start_matches('/');
            let asset = is_asset(corpus, id, &skill_path);
            let layer = FileLayer {
                node: id,
                path: rel.to_string(),
                bytes: n.bytes,
                tokens: if asset {
                    0
                } else {
                    counter.count(corpus.text(id))
                },
            };
            if asset {
                assets.push(layer);
            } else {
                references.push(layer);
            }
            continue;
        }
        stack.extend(n.children.iter().rev().copied());
    }
    let body_tokens = counter.count(body);
    let total = metadata + body_tokens + references.iter().map(|r| r.tokens).sum::<u64>();
    SkillLayers {
        skill,
        entry,
        metadata_tokens: metadata,
        body_tokens,
        body_bytes: body.len() as u64,
        references,
        assets,
        total_tokens: total,
    }
}

/// The layers of every skill below `root` (copies skipped) and the always-loaded cost of
/// the root's listing (skills flagged `shadowed` are not listed), plus the cost of the
/// listing across all roots when there are several.
pub fn root_layers(corpus: &Corpus, root: NodeId, counter: TokenCounter) -> RootLayers {
    let skills: Vec<SkillLayers> = corpus
        .preorder(root)
        .into_iter()
        .filter(|id| corpus.node(*id).kind == NodeKind::Skill && !corpus.is_copy(*id))
        .map(|id| skill_layers(corpus, id, counter))
        .collect();
    let entries: Vec<ListingEntry> = skills
        .iter()
        .filter(|s| !corpus.node(s.skill).flags.has(Flag::Shadowed))
        .map(|s| s.entry.clone())
        .collect();
    let listed = entries.len();
    let count = |entries: &[ListingEntry]| {
        let opts = ListingOptions {
            format: ListingFormat::AvailableSkills,
            ..ListingOptions::default()
        };
        if entries.is_empty() {
            0
        } else {
            counter.count(&format_listing(entries, opts))
        }
    };
    let always = count(&entries);
    let all_scopes_tokens = (corpus.roots.len() > 1).then(|| {
        let all: Vec<ListingEntry> = corpus_entries(corpus, &corpus.roots)
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        count(&all)
    });
    RootLayers {
        root,
        skills,
        always_loaded_tokens: always,
        listed,
        all_scopes_tokens,
    }
}

/// `layers` JSON of a skill (for `tree --json`):
/// `{"metadata": t, "body": t, "body_bytes": b, "references": [{"path", "bytes", "tokens"}],
/// "assets": [{"path", "bytes"}], "total": t}` — token counts in the counter's encoding.
pub fn layers_json(l: &SkillLayers) -> Json {
    json!({
        "metadata": l.metadata_tokens,
        "body": l.body_tokens,
        "body_bytes": l.body_bytes,
        "references": l.references.iter().map(|r| json!({"path": r.path, "bytes": r.bytes, "tokens": r.tokens})).collect::<Vec<_>>(),
        "assets": l.assets.iter().map(|r| json!({"path": r.path, "bytes": r.bytes})).collect::<Vec<_>>(),
        "total": l.total_tokens,
    })
}
