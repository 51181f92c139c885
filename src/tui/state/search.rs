//! The search box and its results: the query, its generation, the answered hits and the
//! list cursor.

use std::ops::Range;

use crate::index::Hit;
use crate::model::{Corpus, NodeId};

/// Results of the current query, as shown in the left pane.
#[derive(Clone, Debug, Default)]
pub struct SearchView {
    /// The query these results answer.
    pub query: String,
    /// Content hits (BM25), best first.
    pub content: Vec<Hit>,
    /// Title hits (fuzzy), best first.
    pub titles: Vec<Hit>,
    /// Matched index terms (for highlighting in the preview).
    pub terms: Vec<String>,
    /// `(typed, suggested)` pairs.
    pub did_you_mean: Vec<(String, String)>,
    /// Why the results may not answer the query ([`crate::index::SearchResult::notes`]):
    /// suggested words, unknown filter keys, filters no node passes; the top line shows them.
    pub notes: Vec<String>,
    /// Per hit in list order (see [`SearchView::hit`]), the ancestor that tells it apart
    /// from the other hits ([`crate::index::label::distinguishing_ancestors`]), computed
    /// when the results arrive.
    pub labels: Vec<Option<NodeId>>,
    /// Per hit in list order, the byte ranges of its title that match `terms`
    /// ([`crate::index::match_ranges`]), for highlighting in the list.
    pub title_marks: Vec<Vec<Range<usize>>>,
    /// How many title hits (the first of `titles`) are listed above the content hits: those
    /// whose title holds every query word ([`crate::index::holds_every_word`]) and that are
    /// not among the first content hits, at most [`LEAD_TITLES`] (docs/DESIGN.md §3).
    pub lead: usize,
}

/// Most title hits listed above the content hits.
pub const LEAD_TITLES: usize = 3;

/// Content hits near enough the top to be seen: a title hit among them is not listed again
/// above them.
pub const SEEN_CONTENT: usize = 5;

/// `titles` with the hits to list above the content moved to the front, and their number:
/// the best [`LEAD_TITLES`] whose title holds every word of `query` and that are not among
/// the first [`SEEN_CONTENT`] content hits (docs/DESIGN.md §3).
fn lead_first(
    corpus: &Corpus,
    query: &str,
    content: &[Hit],
    titles: Vec<Hit>,
) -> (Vec<Hit>, usize) {
    let seen: Vec<NodeId> = content.iter().take(SEEN_CONTENT).map(|h| h.node).collect();
    let (mut lead, mut rest): (Vec<Hit>, Vec<Hit>) = (Vec::new(), Vec::new());
    for h in titles {
        if lead.len() < LEAD_TITLES
            && !seen.contains(&h.node)
            && crate::index::holds_every_word(&corpus.node(h.node).title, query)
        {
            lead.push(h);
        } else {
            rest.push(h);
        }
    }
    let n = lead.len();
    lead.extend(rest);
    (lead, n)
}

impl SearchView {
    /// All hits in list order: the first [`SearchView::lead`] title hits, the content group,
    /// then the other title hits.
    pub fn hit(&self, i: usize) -> Option<&Hit> {
        if i < self.lead {
            return self.titles.get(i);
        }
        self.content
            .get(i - self.lead)
            .or_else(|| self.titles.get(i.checked_sub(self.content.len())?))
    }

    /// Whether hit `i` (list order) is a content hit.
    pub fn is_content(&self, i: usize) -> bool {
        (self.lead..self.lead + self.content.len()).contains(&i)
    }

    /// The results of `query` with their distinguishing labels computed over both groups.
    pub fn new(
        corpus: &Corpus,
        query: String,
        content: Vec<Hit>,
        titles: Vec<Hit>,
        terms: Vec<String>,
        did_you_mean: Vec<(String, String)>,
    ) -> SearchView {
        let (titles, lead) = lead_first(corpus, &query, &content, titles);
        let (first, rest) = titles.split_at(lead);
        let nodes: Vec<NodeId> = first
            .iter()
            .chain(&content)
            .chain(rest)
            .map(|h| h.node)
            .collect();
        let labels = crate::index::label::distinguishing_ancestors(corpus, &nodes);
        let title_marks = nodes
            .iter()
            .map(|&n| crate::index::match_ranges(&corpus.node(n).title, &terms))
            .collect();
        SearchView {
            query,
            content,
            titles,
            terms,
            did_you_mean,
            notes: Vec::new(),
            labels,
            title_marks,
            lead,
        }
    }

    /// The distinguishing ancestor of hit `i`.
    pub fn label(&self, i: usize) -> Option<NodeId> {
        self.labels.get(i).copied().flatten()
    }

    /// The matching byte ranges of hit `i`'s title.
    pub fn title_marks(&self, i: usize) -> &[Range<usize>] {
        self.title_marks.get(i).map_or(&[], Vec::as_slice)
    }

    /// Number of selectable hits.
    pub fn len(&self) -> usize {
        self.content.len() + self.titles.len()
    }

    /// Whether there are no hits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The search box and its results.
#[derive(Clone, Debug, Default)]
pub struct SearchState {
    /// The query text.
    pub query: String,
    /// Cursor position in `query` (a char index).
    pub cursor: usize,
    /// Generation of the latest query sent to the worker.
    pub generation: u64,
    /// Results of the latest answered query.
    pub view: SearchView,
    /// Whether the latest query is still running.
    pub pending: bool,
    /// Selected hit (index into [`SearchView::hit`]).
    pub selected: usize,
    /// First visible list row.
    pub offset: usize,
    /// Whether the left pane shows results (else the tree).
    pub showing: bool,
    /// Whether the search box has the focus (letters type into it).
    pub active: bool,
    /// Jump to the first hit when the latest query's results arrive (Enter before any was
    /// shown, or Enter asking for the re-ranked list).
    pub jump_when_done: bool,
    /// The latest query was sent finished by `Enter` with the re-ranker on: ranked without
    /// prefix expansion and re-ranked (docs/DESIGN.md §3 "Re-rank"); typing clears it.
    pub finished: bool,
    /// The latest query was sent again unchanged because an index became ready
    /// (docs/DESIGN.md §3): what its results keep of the shown ones.
    pub rerun: Option<Rerun>,
    /// When typing pauses long enough to refine the shown query with the re-ranker
    /// ([`REFINE_PAUSE`] after the last edit; `None` without a re-ranker or once sent). The
    /// event loop waits for it as a one-shot deadline, never on the keystroke path.
    pub refine_at: Option<std::time::Instant>,
}

/// How long typing must pause before the shown query is re-ranked (docs/DESIGN.md §3
/// "Re-rank").
pub const REFINE_PAUSE: std::time::Duration = std::time::Duration::from_millis(700);

/// A query sent again unchanged because the title or content index became ready.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rerun {
    /// The hit selected when it was sent: it stays selected when it is among the new
    /// results, so the row under the cursor and the preview do not change under the user.
    pub keep: Option<NodeId>,
    /// It was sent because the content (BM25) index became ready: the status says so.
    pub index_ready: bool,
}

impl SearchState {
    /// Move the selected hit by `delta`, clamped to the list (no-op when it is empty).
    pub fn move_hit(&mut self, delta: isize) {
        let n = self.view.len();
        if n == 0 {
            return;
        }
        let max = n as isize - 1;
        self.selected = (self.selected as isize).saturating_add(delta).clamp(0, max) as usize;
    }

    /// Terms to mark in the preview: the index terms of the last answered query, or its
    /// words when only titles matched; none once the query is cleared.
    pub fn highlight_terms(&self) -> Vec<String> {
        let v = &self.view;
        if self.query.trim().is_empty() {
            Vec::new()
        } else if !v.terms.is_empty() {
            v.terms.clone()
        } else {
            v.query.split_whitespace().map(str::to_lowercase).collect()
        }
    }
}
