//! Building the text the TUI copies or previews, off the UI thread: a brief of the selection
//! (and the search query's hits when asked), or the rendered skill(s). Briefs come from
//! [`crate::brief::build`], the function `skillnav brief` calls, so `y` in the TUI and
//! `skillnav brief --select …` give the same bytes by construction.

use std::path::PathBuf;
use std::sync::Arc;

use crate::brief::{Layout, Request};
use crate::index::Index;
use crate::model::{Corpus, NodeId, NodeKind};
use crate::skill::listing::{ListingFormat, ListingOptions};
use crate::skill::render::{RenderOptions, SkillText, render_many, render_skill, skill_from_text};
use crate::tokens::{Encoding, TokenCounter};
use crate::tui::state::built_text::BuiltText;

/// The text a job builds.
#[derive(Clone, Debug, PartialEq)]
pub enum Text {
    /// A brief: the core's request, as `skillnav brief` builds one (its units are the
    /// selection's, its settings the app's).
    Brief(Request),
    /// The rendered body of one skill, or the listing then each body of several.
    Skills(SkillsText),
}

/// The rendered skill(s) a job builds and how (`Y`).
#[derive(Clone, Debug, PartialEq)]
pub struct SkillsText {
    /// Skill nodes, in tree order.
    pub skills: Vec<NodeId>,
    /// The argument string (`None` leaves `$`-placeholders untouched).
    pub args: Option<String>,
    /// Listing layout before several skills.
    pub listing: ListingFormat,
    /// `${NAME}` values.
    pub vars: std::collections::BTreeMap<String, String>,
    /// Prepend the base-directory header.
    pub include_base_dir: bool,
}

/// A job for [`build`]: shared data plus the text to build.
#[derive(Clone, Debug)]
pub struct TextJob {
    /// The corpus.
    pub corpus: Arc<Corpus>,
    /// BM25 index, when built (needed for query hits).
    pub index: Option<Arc<Index>>,
    /// Token encoding of the counts.
    pub encoding: Encoding,
    /// What to build.
    pub text: Text,
}

impl PartialEq for TextJob {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.corpus, &other.corpus)
            && self.encoding == other.encoding
            && self.text == other.text
    }
}

/// The size of the brief `job` builds, the one `y` copies and `p` shows: its exact tokens
/// (after packing under the budget) and how many sections the budget left out; `(0, 0)`
/// for a job that is not a brief (docs/DESIGN.md §6: the number beside the budget).
pub fn brief_size(job: &TextJob) -> (u64, usize) {
    match &job.text {
        Text::Brief(req) => {
            let built = brief_text(job, req);
            (built.tokens, built.left_out.len())
        }
        Text::Skills(_) => (0, 0),
    }
}

/// Build the text of `job`. Errors: a status-line message (no skill to render, unreadable
/// SKILL.md text).
pub fn build(job: &TextJob) -> Result<BuiltText, String> {
    match &job.text {
        Text::Brief(req) => Ok(brief_text(job, req)),
        Text::Skills(s) => skills_text(job, s),
    }
}

/// The brief of `req` by [`crate::brief::build`], the function `skillnav brief` calls,
/// labelled with its format, mode (the curated layouts state theirs) and section count.
fn brief_text(job: &TextJob, req: &Request) -> BuiltText {
    let counter = TokenCounter::new(job.encoding);
    let brief = crate::brief::build(&job.corpus, job.index.as_deref(), req, counter);
    // The plain layout states no mode; the curated ones their resolved mode.
    let shown_mode = match brief.layout {
        Some(Layout::Plain) | None => String::new(),
        Some(_) => format!("{} · ", brief.mode.as_str()),
    };
    let label = format!(
        "brief · {} · {shown_mode}{}",
        req.format.as_str(),
        crate::util::human::plural(brief.sections, "section")
    );
    BuiltText {
        bytes: brief.bytes as u64,
        tokens: brief.tokens,
        encoding: brief.encoding,
        parts: brief.sections,
        left_out: brief.left_out,
        label,
        ext: req.format.as_str(),
        text: brief.text,
    }
}

/// The rendered skill(s) of `s`. Errors: none of them has a readable SKILL.md.
fn skills_text(job: &TextJob, s: &SkillsText) -> Result<BuiltText, String> {
    let texts: Vec<SkillText> = s
        .skills
        .iter()
        .filter_map(|id| skill_text(&job.corpus, *id))
        .collect();
    if texts.is_empty() {
        return Err("No SKILL.md to render here".into());
    }
    let opts = RenderOptions {
        args: s.args.clone(),
        vars: s.vars.clone(),
        include_base_dir: s.include_base_dir,
        ..RenderOptions::default()
    };
    let (text, label) = if let [one] = texts.as_slice() {
        let mut t = render_skill(one, &opts);
        t.push('\n');
        (t, format!("rendered skill {}", one.entry.name))
    } else {
        let listing_opts = ListingOptions {
            format: s.listing,
            ..ListingOptions::default()
        };
        let name = s.listing.as_str();
        (
            render_many(&texts, listing_opts, &opts),
            format!("{} skills · {name} listing", texts.len()),
        )
    };
    let label = match &s.args {
        Some(a) => format!("{label} · args {a:?}"),
        None => label,
    };
    Ok(BuiltText {
        bytes: text.len() as u64,
        tokens: TokenCounter::new(job.encoding).count(&text),
        encoding: job.encoding,
        parts: texts.len(),
        left_out: Vec::new(),
        label,
        ext: "md",
        text,
    })
}

/// The skill as `renderSkill` sees it, from the corpus: its SKILL.md text, folder name,
/// absolute location and base dir (when file-backed). `None` when it has no SKILL.md.
pub fn skill_text(corpus: &Corpus, skill: NodeId) -> Option<SkillText> {
    let md = crate::skill::skill_md(corpus, skill)?;
    let node = corpus.node(md);
    let abs: Option<PathBuf> = node
        .span
        .and_then(|s| corpus.sources.get(s.source.0 as usize))
        .and_then(|s| s.abs_path.clone());
    let folder = match abs
        .as_ref()
        .and_then(|p| p.parent())
        .and_then(|p| p.file_name())
    {
        Some(n) => n.to_string_lossy().into_owned(),
        None => corpus.node(skill).title.clone(),
    };
    let location = abs.as_ref().map_or_else(
        || node.path.to_string(),
        |p| p.to_string_lossy().into_owned(),
    );
    let base_dir = abs
        .as_ref()
        .and_then(|p| p.parent())
        .map(|p| p.to_path_buf());
    Some(skill_from_text(
        corpus.text(md),
        &folder,
        &location,
        base_dir,
    ))
}

/// The skills `Y` renders: every skill with some part selected (tree order), else the
/// skill holding `current` (the node itself or its nearest `Skill` ancestor), else the
/// outermost skills inside `current` (a root or folder of skills).
pub fn skills_for(
    corpus: &Corpus,
    selection: &crate::model::Selection,
    current: Option<NodeId>,
) -> Vec<NodeId> {
    let selected: Vec<NodeId> = corpus
        .all_preorder()
        .into_iter()
        .filter(|id| corpus.node(*id).kind == NodeKind::Skill && !corpus.is_copy(*id))
        .filter(|id| selection.mark(corpus, *id) != crate::model::Mark::None)
        .collect();
    if !selected.is_empty() {
        return selected;
    }
    let Some(current) = current else {
        return Vec::new();
    };
    let is_skill = |n: &NodeId| corpus.node(*n).kind == NodeKind::Skill;
    if let Some(s) = std::iter::once(current)
        .chain(corpus.ancestors(current))
        .find(is_skill)
    {
        return vec![s];
    }
    // On a root or folder: the skills inside it (outermost ones, not copies).
    corpus
        .preorder(current)
        .into_iter()
        .filter(|id| {
            is_skill(id) && !corpus.is_copy(*id) && !corpus.ancestors(*id).any(|a| is_skill(&a))
        })
        .collect()
}
