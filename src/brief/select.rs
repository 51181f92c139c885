//! Gather and pack, the one selection step of every brief layout: the candidate sections
//! of a request in order of value ([`gather`]: `always` sections, then selected ones in the
//! order given, then retrieved ones best BM25 score first; exposure levels honoured; text
//! shaped by the mode), then first-fit packing under a token budget on the exact rendered
//! text ([`pack`]), so the result stays within the budget and names everything it left out
//! (never cut silently). Layouts only render what this step chose.

use super::layout::Layout;
use super::mode::Mode;
use super::model::{BriefHead, BriefSection, Origin, one_line, trim_trailing_blank_lines};
pub use super::request::UNTIL_FULL;
use super::{Brief, Request};
use crate::curate::exposure::ExposureMap;
use crate::curate::summary::summary_of;
use crate::index::{Index, SearchOptions};
use crate::model::{Corpus, NodeId, NodeKind};
use crate::tokens::TokenCounter;

/// The candidate sections of `req`, in order of value, with mode-shaped text, plus the
/// did-you-mean corrections of the query. Duplicates are dropped (a node appears once, at
/// its most valuable origin); a retrieved hit inside an already listed selected section is
/// dropped too (its text is already there in answer/extract modes). Exposure: `hidden`
/// nodes never appear, `explicit` ones only when selected, retrieval skips both and still
/// returns up to `top_k` hits. With `every_unit` (the plain layout) each selected unit is
/// kept as given, even one inside another selected unit.
///
/// Filling a budget (`top_k` [`UNTIL_FULL`] with a `budget`): hits are taken best first
/// while their estimated cost fits beside `frame_tokens` (the brief's frame: title, query
/// and sources lines, in tokens) and what is taken; a hit that does not fit is passed over
/// for smaller ones after it, and the best passed-over hits (at most [`PASSED_OVER_MAX`])
/// stay in the list, so [`pack`] finds room for them on the exact text or names them as
/// left out (a best hit too big for the budget is never dropped unsaid); one ranked below
/// the last hit taken is a [`BriefSection::spare`], packed when there is room and else not
/// named.
pub fn gather(
    corpus: &Corpus,
    index: Option<&Index>,
    req: &Request,
    mode: Mode,
    every_unit: bool,
    frame_tokens: u64,
    counter: TokenCounter,
) -> (Vec<BriefSection>, Vec<(String, String)>) {
    let exp = &req.exposure;
    let mut picked: Vec<(NodeId, Origin, Option<f64>)> = Vec::new();
    let covered = |picked: &[(NodeId, Origin, Option<f64>)], id: NodeId| {
        picked
            .iter()
            .any(|(p, o, _)| *p == id || (*o != Origin::Retrieved && corpus.is_within(id, *p)))
    };
    for id in exp.always_units(corpus) {
        picked.push((id, Origin::Always, None));
    }
    for &id in &req.units {
        if id.ix() < corpus.len()
            && exp.level(corpus, id).admits(true, false)
            && (every_unit || !covered(&picked, id))
        {
            // A selected unit holding `always` units carries their text: list it once.
            picked.retain(|(p, o, _)| !(*o == Origin::Always && corpus.is_within(*p, id)));
            picked.push((id, Origin::Selected, None));
        }
    }
    let mut corrections = Vec::new();
    let mut sections: Vec<BriefSection> = picked
        .iter()
        .map(|&(id, origin, score)| section(corpus, id, origin, score, mode, exp, counter))
        .collect();
    if let (Some(q), Some(index)) = (req.query.as_deref(), index) {
        let fill = req.budget.filter(|_| req.top_k == UNTIL_FULL);
        let depth = req.top_k.min(FILL_CANDIDATES).saturating_add(64);
        let ask = SearchOptions {
            top_k: depth,
            prefix: false,
        };
        let result = index.search(corpus, q, &ask);
        corrections = result.did_you_mean;
        // With a budget to fill: the cost so far, estimated (texts and provenance).
        let mut used: u64 = frame_tokens + sections.iter().map(|s| cost(s, counter)).sum::<u64>();
        let mut n = 0;
        // Retrieved sections in rank order, each with whether it fit the budget.
        let mut ranked: Vec<(BriefSection, bool)> = Vec::new();
        for h in result.hits {
            if n >= req.top_k {
                break;
            }
            // A skill hit (its routing text matched) has no text of its own to quote: the
            // lead section of its SKILL.md stands in for it, with the skill's score.
            let Some(node) = quotable(corpus, h.node) else {
                continue;
            };
            if !exp.level(corpus, node).admits(false, true) || covered(&picked, node) {
                continue;
            }
            let s = section(
                corpus,
                node,
                Origin::Retrieved,
                Some(h.score),
                mode,
                exp,
                counter,
            );
            picked.push((node, Origin::Retrieved, Some(h.score)));
            if let Some(max) = fill {
                let c = cost(&s, counter);
                if used + c > max {
                    // Keep looking for a smaller section that still fits.
                    ranked.push((s, false));
                    continue;
                }
                used += c;
            }
            ranked.push((s, true));
            n += 1;
        }
        sections.extend(with_passed_over(ranked));
    }
    (sections, corrections)
}

/// Most passed-over hits (ones that did not fit a budget being filled) a brief keeps in its
/// list, to be packed after all or named as left out.
pub const PASSED_OVER_MAX: usize = 8;

/// The sections of `ranked` (rank order; `true` when it fit) a brief lists: every one that
/// fit, and the best [`PASSED_OVER_MAX`] passed-over ones, in rank order; those ranked below
/// the last one that fit are [`BriefSection::spare`].
fn with_passed_over(ranked: Vec<(BriefSection, bool)>) -> Vec<BriefSection> {
    let last_fit = ranked.iter().rposition(|(_, fit)| *fit);
    let mut passed = 0;
    ranked
        .into_iter()
        .enumerate()
        .filter_map(|(i, (mut s, fit))| {
            if fit {
                return Some(s);
            }
            (passed < PASSED_OVER_MAX).then(|| {
                passed += 1;
                s.spare = last_fit.is_some_and(|last| i > last);
                s
            })
        })
        .collect()
}

/// The node a retrieved hit quotes: the hit itself when it has text; for a skill node (a
/// hit on its name and description, the routing text) the first section of its `SKILL.md`,
/// the part an agent reads first when the skill is picked; `None` for other textless
/// nodes and for a skill whose `SKILL.md` has no body.
fn quotable(corpus: &Corpus, hit: NodeId) -> Option<NodeId> {
    let node = corpus.node(hit);
    if node.span.is_some() {
        return Some(hit);
    }
    if node.kind != NodeKind::Skill {
        return None;
    }
    let file = crate::skill::skill_md(corpus, hit)?;
    corpus.node(file).children.iter().copied().find(|&c| {
        let n = corpus.node(c);
        n.kind == NodeKind::Section && n.span.is_some()
    })
}

/// Most hits looked at when filling a budget.
pub const FILL_CANDIDATES: usize = 256;

/// Estimated tokens a section adds to a brief: its text, plus its provenance (heading,
/// id, path, line range, score, separators).
fn cost(s: &BriefSection, counter: TokenCounter) -> u64 {
    s.tokens + counter.count(&s.title) + counter.count(&s.id) + counter.count(&s.path) + 24
}

/// What a brief quotes for a section whose text can no longer be read as it was loaded.
pub const UNREADABLE_NOTE: &str = "_(not quoted: its file changed on disk or was removed since it was loaded; reload and copy again)_";

/// Whether `id` has text that can no longer be read: a span that is not empty, over a
/// source that is not held and that no longer reads as loaded (docs/DESIGN.md §8 "Memory").
fn unreadable(corpus: &Corpus, id: NodeId) -> bool {
    let Some(span) = corpus.node(id).span.filter(|s| s.end > s.start) else {
        return false;
    };
    corpus
        .sources
        .get(span.source.0 as usize)
        .is_some_and(|s| !s.is_held() && s.text_len() > 0 && s.read_text().is_empty())
}

fn section(
    corpus: &Corpus,
    id: NodeId,
    origin: Origin,
    score: Option<f64>,
    mode: Mode,
    exp: &ExposureMap,
    counter: TokenCounter,
) -> BriefSection {
    let exposure = exp.level(corpus, id);
    let node = corpus.node(id);
    let root = corpus.node(corpus.root_of(id));
    let own = origin == Origin::Retrieved && mode != Mode::Extract;
    let own_only = own && node.span.is_some_and(|sp| sp.own_end < sp.end);
    let (source_bytes, source_tokens) =
        crate::curate::units::source_size(corpus, exp, id, own_only, counter);
    let (raw, line_end) = match node.span {
        Some(_) if own_only => {
            let t = corpus.own_text(id);
            let lines = t.split_inclusive('\n').count() as u32;
            (
                std::borrow::Cow::Borrowed(t),
                node.line_start.map(|a| a + lines.max(1) - 1),
            )
        }
        _ => (exp.visible_text(corpus, id), node.line_end),
    };
    let body = trim_trailing_blank_lines(&raw);
    let node_id = corpus.id(id);
    let title = if node.title.trim().is_empty() {
        &node_id
    } else {
        &node.title
    };
    let text = match mode {
        Mode::Locate => String::new(),
        _ if raw.is_empty() && unreadable(corpus, id) => UNREADABLE_NOTE.to_string(),
        Mode::Summarize => summary_of(corpus.summary(id), body),
        _ => quoted(body, &one_line(title)).to_string(),
    };
    BriefSection {
        node: id,
        id: node_id.clone(),
        title: one_line(title),
        path: one_line(&node.path),
        root: root.title.clone(),
        line_start: node.line_start,
        line_end,
        score,
        origin,
        exposure,
        tokens: counter.count(&text),
        text,
        source_bytes,
        source_tokens,
        spare: false,
    }
}

/// The part of a section's text a brief quotes under its own heading and provenance line:
/// without a first line that is a heading with the section's `title` (the brief's block
/// heading already says it) and the blank lines after it, and without a closing thematic
/// break (`---`, `***`, `___`: every block already ends with one).
pub fn quoted<'a>(text: &'a str, title: &str) -> &'a str {
    let mut t = text;
    let first_end = t.find('\n').map_or(t.len(), |i| i + 1);
    let first = t[..first_end].trim();
    let hashes = first.chars().take_while(|c| *c == '#').count();
    if (1..=6).contains(&hashes) {
        let heading = first[hashes..].trim().trim_end_matches('#').trim();
        if first[hashes..].starts_with([' ', '\t']) && heading == title.trim() {
            t = t[first_end..].trim_start_matches(['\n', '\r']);
        }
    }
    let last_start = t.trim_end().rfind('\n').map_or(0, |i| i + 1);
    let last: String = t[last_start..]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let rule = last.len() >= 3
        && ["-", "*", "_"]
            .iter()
            .any(|m| last.chars().all(|c| c.to_string() == *m));
    if rule {
        t = trim_trailing_blank_lines(&t[..last_start]);
    }
    t
}

/// First-fit of `sections` in order of value under `max` tokens, on estimates: the
/// brief's frame with no section but the longest left-out list (at most
/// [`super::model::LEFT_OUT_LISTED`] ids in every layout), plus per section its text's
/// exact tokens and the tokens of its provenance (its block rendered with an empty text,
/// less the frame). Linear in the sections (a full render per step made XML and JSON
/// briefs of thousands of sections take many seconds).
fn estimate(
    head: &BriefHead,
    sections: &[BriefSection],
    layout: Layout,
    max: u64,
    counter: TokenCounter,
) -> (Vec<bool>, Vec<u64>) {
    let render = |kept: &[&BriefSection], left: &[&str]| layout.render(head, kept, left);
    let all_ids: Vec<&str> = sections
        .iter()
        .filter(|s| !s.spare)
        .map(|s| s.id.as_str())
        .collect();
    let frame = counter.count(&render(&[], &all_ids));
    let bare = counter.count(&render(&[], &[]));
    let mut keep = vec![false; sections.len()];
    let mut costs = Vec::with_capacity(sections.len());
    let mut total = frame;
    for (i, s) in sections.iter().enumerate() {
        let empty = BriefSection {
            text: String::new(),
            ..s.clone()
        };
        let cost = counter.count(&render(&[&empty], &[])).saturating_sub(bare) + s.tokens;
        if total + cost <= max {
            keep[i] = true;
            total += cost;
        }
        costs.push(cost);
    }
    (keep, costs)
}

/// Up to this many sections a budget is packed first-fit on the exact text at every step;
/// above it, on estimates (per-section costs) and then checked exactly.
pub const EXACT_PACK_MAX: usize = 64;

/// Exact tries of the fill step after packing on estimates.
const FILL_TRIES: usize = 16;

/// Render `sections` (in order of value) under `head` in `layout`, packing under
/// `head.budget`: everything when it fits; else first-fit in order of value, each step
/// checked on the exact text (up to [`EXACT_PACK_MAX`] sections; above, on estimates, then
/// trimmed and filled exactly). The result's tokens stay within the budget unless even a
/// brief with no section exceeds it. Left-out ids are in [`Brief::left_out`] and named in
/// the text.
pub fn pack(
    head: &BriefHead,
    sections: &[BriefSection],
    layout: Layout,
    counter: TokenCounter,
) -> Brief {
    let p = Packer {
        head,
        sections,
        layout,
        counter,
    };
    let mut keep = vec![true; sections.len()];
    let mut text = p.render(&keep, true);
    if let Some(max) = head.budget
        && p.over(&text, max)
    {
        keep = if sections.len() <= EXACT_PACK_MAX {
            p.first_fit_exact(max)
        } else {
            p.pack_on_estimates(max)
        };
        text = p.render(&keep, true);
    }
    p.brief(&keep, text)
}

/// What [`pack`] packs: the brief's head and candidate sections (in order of value), its
/// layout and its token counter.
struct Packer<'a> {
    /// The brief's frame (title, query, budget, mode).
    head: &'a BriefHead,
    /// The candidate sections, in order of value.
    sections: &'a [BriefSection],
    /// The layout rendering the text.
    layout: Layout,
    /// Counts the rendered text's tokens.
    counter: TokenCounter,
}

impl Packer<'_> {
    /// The brief's text with the sections marked in `keep`; with `list_left` the left-out
    /// ids (not spare) are named, as in the real text; without, not (for per-section costs).
    fn render(&self, keep: &[bool], list_left: bool) -> String {
        let kept: Vec<&BriefSection> = self
            .sections
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(s, _)| s)
            .collect();
        let left: Vec<&str> = if list_left {
            self.sections
                .iter()
                .zip(keep)
                .filter(|(s, k)| !**k && !s.spare)
                .map(|(s, _)| s.id.as_str())
                .collect()
        } else {
            Vec::new()
        };
        self.layout.render(self.head, &kept, &left)
    }

    /// Whether `text` is over `max` tokens. The section texts alone over the budget: no
    /// need to count the whole text to know.
    fn over(&self, text: &str, max: u64) -> bool {
        self.sections.iter().map(|s| s.tokens).sum::<u64>() > max || self.counter.count(text) > max
    }

    /// The sections kept under `max` tokens by first-fit in order of value, each step
    /// checked on the exact text. A section whose brief alone is over the budget is
    /// skipped without a full render.
    fn first_fit_exact(&self, max: u64) -> Vec<bool> {
        let n = self.sections.len();
        let mut keep = vec![false; n];
        for i in 0..n {
            let mut one = vec![false; n];
            one[i] = true;
            if self.counter.count(&self.render(&one, false)) > max {
                continue;
            }
            keep[i] = true;
            if self.counter.count(&self.render(&keep, true)) > max {
                keep[i] = false;
            }
        }
        keep
    }

    /// The sections kept under `max` tokens by first-fit on estimates, then trimmed and
    /// filled on the exact text.
    fn pack_on_estimates(&self, max: u64) -> Vec<bool> {
        let (mut keep, costs) = estimate(self.head, self.sections, self.layout, max, self.counter);
        let exact = self.trim_to_fit(&mut keep, max);
        self.fill_slack(&mut keep, &costs, max, exact);
        keep
    }

    /// The estimate is within a few tokens (pieces tokenised apart); the exact count of the
    /// whole text decides: drop the least valuable kept sections from `keep` while over
    /// `max`. Returns the exact tokens of the text kept.
    fn trim_to_fit(&self, keep: &mut [bool], max: u64) -> u64 {
        let mut exact = self.counter.count(&self.render(keep, true));
        while exact > max {
            let Some(last) = keep.iter().rposition(|k| *k) else {
                break;
            };
            keep[last] = false;
            exact = self.counter.count(&self.render(keep, true));
        }
        exact
    }

    /// The estimate counts the longest left-out list: fill the slack it leaves (the text
    /// kept is `exact` tokens of `max`), in order of value, for sections whose estimated
    /// `costs` fit, checking each addition exactly (a bounded number of tries).
    fn fill_slack(&self, keep: &mut [bool], costs: &[u64], max: u64, mut exact: u64) {
        let mut tries = 0;
        for i in 0..self.sections.len() {
            if keep[i] || costs[i] > max.saturating_sub(exact) {
                continue;
            }
            if tries == FILL_TRIES {
                break;
            }
            tries += 1;
            keep[i] = true;
            match self.counter.count(&self.render(keep, true)) {
                n if n <= max => exact = n,
                _ => keep[i] = false,
            }
        }
    }

    /// The packed brief: `text` and its counts, the sections marked in `keep` and the ids
    /// left out.
    fn brief(&self, keep: &[bool], text: String) -> Brief {
        let (head, sections, layout, counter) =
            (self.head, self.sections, self.layout, self.counter);
        Brief {
            bytes: text.len(),
            tokens: counter.count(&text),
            encoding: counter.encoding(),
            sections: keep.iter().filter(|k| **k).count(),
            included: sections
                .iter()
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|(s, _)| s.node)
                .collect(),
            left_out: sections
                .iter()
                .zip(keep)
                .filter(|(s, k)| !**k && !s.spare)
                .map(|(s, _)| s.id.clone())
                .collect(),
            layout: Some(layout),
            mode: head.mode,
            text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{quoted, unreadable};

    #[test]
    fn a_section_of_a_file_edited_after_its_text_was_let_go_is_unreadable() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "# A\n\nalpha\n").unwrap();
        let spec = crate::formats::root_specs(&[dir.path().to_path_buf()]).remove(0);
        let opts = crate::formats::LoadOptions::default();
        let mut corpus = crate::formats::load_root(&spec, &opts, &mut |_| {});
        corpus.spill_texts();
        let section = corpus
            .all_preorder()
            .into_iter()
            .find(|id| corpus.node(*id).title == "A")
            .unwrap();
        assert!(!unreadable(&corpus, section));
        std::fs::write(dir.path().join("a.md"), "# A\n\nALPHA\n").unwrap();
        assert!(unreadable(&corpus, section));
        assert_eq!(corpus.text(section), "");
    }

    #[test]
    fn brief_quotes_skip_the_repeated_heading_and_the_closing_rule() {
        assert_eq!(
            quoted("## Cookie Helper\n\nSet cookies.\n\n---", "Cookie Helper"),
            "Set cookies."
        );
        assert_eq!(quoted("# Notes #\nKeep notes.", "Notes"), "Keep notes.");
        // Another heading, a heading-like word and a rule inside the text stay.
        assert_eq!(quoted("## Other\nText", "Notes"), "## Other\nText");
        assert_eq!(quoted("#Notes\nText", "Notes"), "#Notes\nText");
        assert_eq!(quoted("a\n\n---\n\nb", "x"), "a\n\n---\n\nb");
        assert_eq!(quoted("a\n- - -", "x"), "a");
        assert_eq!(quoted("## T", "T"), "");
    }
}
