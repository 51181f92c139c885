//! Building the text the TUI copies or previews, off the UI thread: a brief of the selection
//! (and the search query's hits when asked), or the rendered skill(s). Briefs come from
//! [`crate::brief::build`], the function `skillnav brief` calls, so `y` in the TUI and
//! `skillnav brief --select …` give the same bytes by construction.

use std::path::PathBuf;
use std::sync::Arc;

use crate::brief::{BriefFormat, BriefRequest, Layout, Mode};
use crate::curate::exposure::ExposureMap;
use crate::index::Index;
use crate::model::{Corpus, NodeId, NodeKind};
use crate::skill::listing::{ListingFormat, ListingOptions};
use crate::skill::render::{RenderOptions, SkillText, render_many, render_skill, skill_from_text};
use crate::tokens::{Encoding, TokenCounter};
use crate::tui::state::built_text::BuiltText;

/// What to build.
#[derive(Clone, Debug, PartialEq)]
pub enum What {
    /// A brief of the selected units (and the query's hits when `query` is set).
    Brief {
        /// Text units, in document order.
        units: Vec<NodeId>,
        /// Query whose BM25 hits are added after the selected sections.
        query: Option<String>,
        /// Layout.
        format: BriefFormat,
        /// Mode (`Auto` resolves on the query).
        mode: Mode,
        /// Token budget of the whole text.
        max_tokens: Option<u64>,
        /// Retrieved hits at most.
        top_k: usize,
    },
    /// The rendered body of one skill, or the listing then each body of several.
    Skills {
        /// Skill nodes, in tree order.
        skills: Vec<NodeId>,
        /// The argument string (`None` leaves `$`-placeholders untouched).
        args: Option<String>,
        /// Listing layout before several skills.
        listing: ListingFormat,
        /// `${NAME}` values.
        vars: std::collections::BTreeMap<String, String>,
        /// Prepend the base-directory header.
        include_base_dir: bool,
    },
}

/// A job for [`build`]: shared data plus what to build.
#[derive(Clone, Debug)]
pub struct TextJob {
    /// The corpus.
    pub corpus: Arc<Corpus>,
    /// BM25 index, when built (needed for query hits).
    pub index: Option<Arc<Index>>,
    /// Exposure levels (corpus metadata plus the user's).
    pub exposure: ExposureMap,
    /// Token encoding of the counts.
    pub encoding: Encoding,
    /// What to build.
    pub what: What,
}

impl PartialEq for TextJob {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.corpus, &other.corpus)
            && self.exposure == other.exposure
            && self.encoding == other.encoding
            && self.what == other.what
    }
}

/// The size of the brief `job` builds, the one `y` copies and `p` shows: its exact tokens
/// (after packing under the budget) and how many sections the budget left out; `(0, 0)`
/// for a job that is not a brief or does not build (docs/DESIGN.md §6: the number beside
/// the budget).
pub fn brief_size(job: &TextJob) -> (u64, usize) {
    match (&job.what, build(job)) {
        (What::Brief { .. }, Ok(built)) => (built.tokens, built.left_out.len()),
        _ => (0, 0),
    }
}

/// Build the text of `job`. Errors: a status-line message (no skill to render, unreadable
/// SKILL.md text).
pub fn build(job: &TextJob) -> Result<BuiltText, String> {
    let counter = TokenCounter::new(job.encoding);
    match &job.what {
        What::Brief {
            units,
            query,
            format,
            mode,
            max_tokens,
            top_k,
        } => {
            let query = query.as_deref().filter(|q| !q.trim().is_empty());
            let req = BriefRequest {
                selected: units,
                query,
                top_k: *top_k,
                mode: *mode,
                format: *format,
                max_tokens: *max_tokens,
                exposure: Some(&job.exposure),
                from_recipe: false,
            };
            let brief = crate::brief::build(&job.corpus, job.index.as_deref(), &req, counter);
            // The plain layout states no mode; the curated ones their resolved mode.
            let shown_mode = match brief.layout {
                Layout::Plain => String::new(),
                _ => format!("{} · ", brief.mode.as_str()),
            };
            let label = format!(
                "brief · {} · {shown_mode}{}",
                format.as_str(),
                crate::util::human::plural(brief.sections, "section")
            );
            Ok(BuiltText {
                bytes: brief.bytes as u64,
                tokens: brief.tokens,
                encoding: brief.encoding,
                parts: brief.sections,
                left_out: brief.left_out,
                label,
                ext: format.as_str(),
                text: brief.text,
            })
        }
        What::Skills {
            skills,
            args,
            listing,
            vars,
            include_base_dir,
        } => {
            let texts: Vec<SkillText> = skills
                .iter()
                .filter_map(|s| skill_text(&job.corpus, *s))
                .collect();
            if texts.is_empty() {
                return Err("No SKILL.md to render here".into());
            }
            let opts = RenderOptions {
                args: args.clone(),
                vars: vars.clone(),
                include_base_dir: *include_base_dir,
                ..RenderOptions::default()
            };
            let (text, label) = if let [one] = texts.as_slice() {
                let mut t = render_skill(one, &opts);
                t.push('\n');
                (t, format!("rendered skill {}", one.entry.name))
            } else {
                let listing_opts = ListingOptions {
                    format: *listing,
                    ..ListingOptions::default()
                };
                let name = listing.as_str();
                (
                    render_many(&texts, listing_opts, &opts),
                    format!("{} skills · {name} listing", texts.len()),
                )
            };
            let label = match args {
                Some(a) => format!("{label} · args {a:?}"),
                None => label,
            };
            Ok(BuiltText {
                bytes: text.len() as u64,
                tokens: counter.count(&text),
                encoding: job.encoding,
                parts: texts.len(),
                left_out: Vec::new(),
                label,
                ext: "md",
                text,
            })
        }
    }
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
    let location = abs
        .as_ref()
        .map_or_else(|| node.path.clone(), |p| p.to_string_lossy().into_owned());
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
