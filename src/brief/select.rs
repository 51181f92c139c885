//! Gather and pack, the one selection step of every brief layout: the candidate sections
//! of a request in order of value ([`gather`]: `always` sections, then selected ones in the
//! order given, then retrieved ones best BM25 score first; exposure levels honoured; text
//! shaped by the mode), then first-fit packing under a token budget on the exact rendered
//! text ([`pack`]), so the result stays within the budget and names everything it left out
//! (never cut silently). Layouts only render what this step chose.

use super::layout::{Layout, plain};
use super::mode::Mode;
use super::model::{
    BriefHead, BriefSection, LEFT_OUT_LISTED, Origin, left_out_line, one_line, trim_trailing_blank_lines,
};
use super::{Brief, BriefRequest};
use crate::curate::exposure::ExposureMap;
use crate::curate::summary::summary_of;
use crate::index::{Index, SearchOptions};
use crate::model::{Corpus, NodeId};
use crate::tokens::TokenCounter;
use crate::util::human::human_count;

/// The candidate sections of `req`, in order of value, with mode-shaped text, plus the
/// did-you-mean corrections of the query. Duplicates are dropped (a node appears once, at
/// its most valuable origin); a retrieved hit inside an already listed selected section is
/// dropped too (its text is already there in answer/extract modes). Exposure: `hidden`
/// nodes never appear, `explicit` ones only when selected, retrieval skips both and still
/// returns up to `top_k` hits. With `every_unit` (the plain layout) each selected unit is
/// kept as given, even one inside another selected unit.
pub fn gather(
    corpus: &Corpus,
    index: Option<&Index>,
    req: &BriefRequest<'_>,
    mode: Mode,
    every_unit: bool,
    counter: TokenCounter,
) -> (Vec<BriefSection>, Vec<(String, String)>) {
    let none = ExposureMap::new();
    let exp = req.exposure.unwrap_or(&none);
    let mut picked: Vec<(NodeId, Origin, Option<f64>)> = Vec::new();
    let covered = |picked: &[(NodeId, Origin, Option<f64>)], id: NodeId| {
        picked.iter().any(|(p, o, _)| *p == id || (*o != Origin::Retrieved && corpus.is_within(id, *p)))
    };
    for id in exp.always_units(corpus) {
        picked.push((id, Origin::Always, None));
    }
    for &id in req.selected {
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
    if let (Some(q), Some(index)) = (req.query, index) {
        let ask = SearchOptions { top_k: req.top_k.saturating_add(64), prefix: false };
        let result = index.search(corpus, q, &ask);
        corrections = result.did_you_mean;
        let mut n = 0;
        for h in result.hits {
            if n >= req.top_k {
                break;
            }
            if !exp.level(corpus, h.node).admits(false, true) || covered(&picked, h.node) {
                continue;
            }
            picked.push((h.node, Origin::Retrieved, Some(h.score)));
            n += 1;
        }
    }
    let sections = picked
        .into_iter()
        .map(|(id, origin, score)| section(corpus, id, origin, score, mode, exp, counter))
        .collect();
    (sections, corrections)
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
    let (raw, line_end) = match node.span {
        Some(sp) if own && sp.own_end < sp.end => {
            let t = corpus.own_text(id);
            let lines = t.split_inclusive('\n').count() as u32;
            (std::borrow::Cow::Borrowed(t), node.line_start.map(|a| a + lines.max(1) - 1))
        }
        _ => (exp.visible_text(corpus, id), node.line_end),
    };
    let body = trim_trailing_blank_lines(&raw);
    let text = match mode {
        Mode::Locate => String::new(),
        Mode::Summarize => summary_of(&node.summary, body),
        _ => body.to_string(),
    };
    let title = if node.title.trim().is_empty() { &node.id } else { &node.title };
    BriefSection {
        node: id,
        id: node.id.clone(),
        title: one_line(title),
        path: one_line(&node.path),
        root: if root.id.is_empty() { root.title.clone() } else { root.id.clone() },
        line_start: node.line_start,
        line_end,
        score,
        origin,
        exposure,
        tokens: counter.count(&text),
        text,
    }
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
    let all_ids: Vec<&str> = sections.iter().map(|s| s.id.as_str()).collect();
    let frame = counter.count(&render(&[], &all_ids));
    let bare = counter.count(&render(&[], &[]));
    let mut keep = vec![false; sections.len()];
    let mut costs = Vec::with_capacity(sections.len());
    let mut total = frame;
    for (i, s) in sections.iter().enumerate() {
        let empty = BriefSection { text: String::new(), ..s.clone() };
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
/// `head.max_tokens`: everything when it fits; else first-fit in order of value, each step
/// checked on the exact text (up to [`EXACT_PACK_MAX`] sections; above, on estimates, then
/// trimmed and filled exactly); the plain layout packs on its piece estimate instead
/// (`pack_plain`). The result's tokens stay within the budget unless even a
/// brief with no section exceeds it. Left-out ids are in [`Brief::left_out`] and named in
/// the text.
pub fn pack(head: &BriefHead, sections: &[BriefSection], layout: Layout, counter: TokenCounter) -> Brief {
    // `list_left`: name the left-out ids (the real text) or not (for per-section costs).
    let render = |keep: &[bool], list_left: bool| -> String {
        let kept: Vec<&BriefSection> =
            sections.iter().zip(keep).filter(|(_, k)| **k).map(|(s, _)| s).collect();
        let left: Vec<&str> = if list_left {
            sections.iter().zip(keep).filter(|(_, k)| !**k).map(|(s, _)| s.id.as_str()).collect()
        } else {
            Vec::new()
        };
        layout.render(head, &kept, &left)
    };
    let mut keep = vec![true; sections.len()];
    let mut text = render(&keep, true);
    // The section texts alone over the budget: no need to count the whole text to know.
    let over = |text: &str, max: u64| {
        sections.iter().map(|s| s.tokens).sum::<u64>() > max || counter.count(text) > max
    };
    if let (Some(max), Layout::Plain) = (head.max_tokens, layout) {
        keep = pack_plain(head, sections, max, counter);
        text = render(&keep, true);
    } else if let Some(max) = head.max_tokens
        && over(&text, max)
    {
        if sections.len() <= EXACT_PACK_MAX {
            // First-fit in order of value, each step checked on the exact text. A section
            // whose brief alone is over the budget is skipped without a full render.
            keep.fill(false);
            for i in 0..sections.len() {
                let mut one = vec![false; sections.len()];
                one[i] = true;
                if counter.count(&render(&one, false)) > max {
                    continue;
                }
                keep[i] = true;
                if counter.count(&render(&keep, true)) > max {
                    keep[i] = false;
                }
            }
        } else {
            let costs;
            (keep, costs) = estimate(head, sections, layout, max, counter);
            // The estimate is within a few tokens (pieces tokenised apart); the exact count
            // of the whole text decides: drop the least valuable kept sections while over.
            let mut exact = counter.count(&render(&keep, true));
            while exact > max {
                let Some(last) = keep.iter().rposition(|k| *k) else { break };
                keep[last] = false;
                exact = counter.count(&render(&keep, true));
            }
            // The estimate counts the longest left-out list: fill the slack it leaves, in
            // order of value, checking each addition exactly (a bounded number of tries).
            let mut tries = 0;
            for i in 0..sections.len() {
                if keep[i] || costs[i] > max.saturating_sub(exact) {
                    continue;
                }
                if tries == FILL_TRIES {
                    break;
                }
                tries += 1;
                keep[i] = true;
                match counter.count(&render(&keep, true)) {
                    n if n <= max => exact = n,
                    _ => keep[i] = false,
                }
            }
        }
        text = render(&keep, true);
    }
    Brief {
        bytes: text.len(),
        tokens: counter.count(&text),
        encoding: counter.encoding(),
        sections: keep.iter().filter(|k| **k).count(),
        left_out: sections.iter().zip(&keep).filter(|(_, k)| !**k).map(|(s, _)| s.id.clone()).collect(),
        layout,
        mode: head.mode,
        text,
    }
}

/// The sections the plain layout keeps under `max` tokens for the whole brief. When
/// everything fits (counted exactly), everything is kept. Otherwise costs are counted per
/// piece (header, each `\n` + block, each left-out id with its `, ` separator, the closing
/// line), a close estimate of the whole text. Passes in order add every section that fits
/// while all not-yet-kept sections are assumed listed in the closing line (past
/// [`LEFT_OUT_LISTED`] of them, the longest ids and the tail); a pass repeats while it added
/// something. First-fit in order: a section that does not fit is skipped and later ones are
/// still tried. Finally the exact text is counted and the last kept section dropped until
/// the whole brief fits (or nothing is kept).
fn pack_plain(head: &BriefHead, sections: &[BriefSection], max: u64, counter: TokenCounter) -> Vec<bool> {
    let render = |keep: &[bool]| -> String {
        let kept: Vec<&BriefSection> =
            sections.iter().zip(keep).filter(|(_, k)| **k).map(|(s, _)| s).collect();
        let left: Vec<&str> =
            sections.iter().zip(keep).filter(|(_, k)| !**k).map(|(s, _)| s.id.as_str()).collect();
        Layout::Plain.render(head, &kept, &left)
    };
    let all: Vec<&BriefSection> = sections.iter().collect();
    let base = counter.count(&plain::header(head, &all));
    let block_cost: Vec<u64> = sections
        .iter()
        .map(|s| {
            let mut text = String::from("\n");
            plain::block(&mut text, s);
            counter.count(&text)
        })
        .collect();
    let mut keep = vec![true; sections.len()];
    // Count the whole text exactly only when the estimate is near the budget.
    let whole: u64 = base + block_cost.iter().sum::<u64>();
    if whole <= max + max / 8 + 64 && counter.count(&render(&keep)) <= max {
        return keep;
    }
    keep.fill(false);
    let id_cost: Vec<u64> = sections.iter().map(|s| counter.count(&s.id) + counter.count(", ")).collect();
    let footer_base = counter.count(&format!("\n{}", left_out_line(max, &[])));
    // Upper bound of the closing line once it is abridged: the longest ids and the tail.
    let mut longest = id_cost.clone();
    longest.sort_unstable_by(|a, b| b.cmp(a));
    let abridged = longest.iter().take(LEFT_OUT_LISTED).sum::<u64>()
        + counter.count(&format!(" and {0} more ({0} in all)", human_count(sections.len() as u64)));
    // Running sums of the estimate: kept blocks, and ids named in the closing line.
    let mut kept_cost = 0u64;
    let mut left_cost: u64 = id_cost.iter().sum();
    let mut left_count = sections.len();
    for _pass in 0..16 {
        let mut added = false;
        for i in 0..sections.len() {
            if keep[i] {
                continue;
            }
            let (kept, left, count) = (kept_cost + block_cost[i], left_cost - id_cost[i], left_count - 1);
            let footer = match count {
                0 => 0,
                n if n > LEFT_OUT_LISTED => footer_base + abridged,
                _ => footer_base + left,
            };
            if base + kept + footer <= max {
                keep[i] = true;
                (kept_cost, left_cost, left_count) = (kept, left, count);
                added = true;
            }
        }
        if !added {
            break;
        }
    }
    while counter.count(&render(&keep)) > max {
        match keep.iter().rposition(|k| *k) {
            Some(last) => keep[last] = false,
            None => break,
        }
    }
    keep
}
