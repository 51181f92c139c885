//! The disclosure-layers section of a skill's or root's preview summary: a heading, one
//! row per layer with its tokens and a note (skill), or the always-loaded listing cost and
//! one row per skill (root). Its totals count what an agent loads (listing entry, body
//! without frontmatter, references), not the folder's Σ as stored, and say so
//! (docs/DESIGN.md §2 Sizes).

use crate::render::{Line, Role, Span};
use crate::skill::budget::ListingBudget;
use crate::skill::layers::{RootLayers, SkillLayers};
use crate::tui::state::preview::LayerView;
use crate::util::human;

fn row(label: String, tokens: String, note: String, label_w: usize) -> Line {
    let mut l = Line::new();
    l.push(Span::role("  ", Role::Text));
    let pad = label_w.saturating_sub(crate::render::width::str_width(&label));
    l.push(Span::role(
        format!("{label}{}", " ".repeat(pad)),
        Role::Text,
    ));
    l.push(Span::role(format!("{tokens:>9}"), Role::Strong));
    if !note.is_empty() {
        l.push(Span::role(format!("  {note}"), Role::Dim));
    }
    l
}

fn tok(n: u64) -> String {
    format!("{} tok", human::short_count(n))
}

/// The section lines: a heading, one row per layer, and the total (skill), or the
/// always-loaded listing cost and one row per skill (root). `encoding` names the counts.
pub fn lines(view: &LayerView, encoding: &str) -> Vec<Line> {
    let labels: Vec<usize> = match view {
        LayerView::Skill(l) => l
            .references
            .iter()
            .map(|r| crate::render::width::str_width(&r.path))
            .collect(),
        LayerView::Root(r, _) => r
            .skills
            .iter()
            .map(|s| crate::render::width::str_width(&s.entry.name))
            .collect(),
    };
    let w = labels.into_iter().max().unwrap_or(0).clamp(20, 40);
    match view {
        LayerView::Skill(l) => skill_lines(l, encoding, w),
        LayerView::Root(r, budget) => root_lines(r, budget.as_ref(), encoding, w),
    }
}

/// A skill's layers: metadata, body, each reference, scripts and assets, the total
/// (labels `w` cells wide).
fn skill_lines(l: &SkillLayers, encoding: &str, w: usize) -> Vec<Line> {
    let mut out = Vec::new();
    let row = |label: String, tokens: String, note: String| row(label, tokens, note, w);
    out.push(Line::from_spans(vec![Span::role(
        format!("Disclosure layers ({encoding})"),
        Role::Heading(2),
    )]));
    out.push(row(
        "metadata (always)".into(),
        tok(l.metadata_tokens),
        "name + description in the listing".into(),
    ));
    out.push(row(
        "SKILL.md body".into(),
        tok(l.body_tokens),
        format!("on activation · {}", human::short_bytes(l.body_bytes)),
    ));
    for r in &l.references {
        out.push(row(
            r.path.clone(),
            tok(r.tokens),
            format!("on demand · {}", human::short_bytes(r.bytes)),
        ));
    }
    if !l.assets.is_empty() {
        let bytes: u64 = l.assets.iter().map(|a| a.bytes).sum();
        out.push(row(
            format!("{} scripts/assets", l.assets.len()),
            "0 tok".into(),
            format!("never loaded as text · {}", human::short_bytes(bytes)),
        ));
    }
    out.push(row(
        "total loaded".into(),
        tok(l.total_tokens),
        "not the tree's Σ: that counts the files as stored".into(),
    ));
    out
}

/// A root's always-loaded listing cost (with the Claude Code listing `budget`), then one
/// row per skill (labels `w` cells wide).
fn root_lines(
    r: &RootLayers,
    budget: Option<&ListingBudget>,
    encoding: &str,
    w: usize,
) -> Vec<Line> {
    let mut out = Vec::new();
    let row = |label: String, tokens: String, note: String| row(label, tokens, note, w);
    out.push(Line::from_spans(vec![Span::role(
        format!("Always loaded ({encoding})"),
        Role::Heading(2),
    )]));
    let listed = r.listed;
    out.push(row(
        "<available_skills>".into(),
        tok(r.always_loaded_tokens),
        format!(
            "the listing of {listed} skill{}, sent on every turn",
            if listed == 1 { "" } else { "s" }
        ),
    ));
    if let Some(all) = r.all_scopes_tokens {
        out.push(row(
            "all scopes".into(),
            tok(all),
            "the listing of every root together".into(),
        ));
    }
    if let Some(b) = budget {
        let role = if b.needed_chars > b.budget_chars {
            Role::Strong
        } else {
            Role::Dim
        };
        out.push(Line::from_spans(vec![
            Span::role("  ", Role::Text),
            Span::role(format!("claude-code {}", b.meter()), role),
        ]));
        if !b.dropped.is_empty() {
            out.push(Line::from_spans(vec![Span::role(
                format!("  descriptions dropped: {}", b.dropped.join(", ")),
                Role::Dim,
            )]));
        }
    }
    out.push(Line::new());
    out.push(Line::from_spans(vec![Span::role(
        "Skills: loaded tokens (metadata · body · refs), not Σ",
        Role::Heading(3),
    )]));
    for s in &r.skills {
        let refs: u64 = s.references.iter().map(|f| f.tokens).sum();
        out.push(row(
            s.entry.name.clone(),
            tok(s.total_tokens),
            format!(
                "{} · {} · {}",
                human::short_count(s.metadata_tokens),
                human::short_count(s.body_tokens),
                human::short_count(refs)
            ),
        ));
    }
    out
}
