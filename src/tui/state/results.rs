//! Rows of the search-results list: "Content (BM25)" with scores and "Titles (fuzzy)", each
//! under a header line, after the title hits that hold every query word (docs/DESIGN.md §3). Shared by the view (to draw) and by `update`
//! (to keep the selected hit visible and to map mouse clicks).

use crate::tui::state::search::SearchView;

/// One row of the results list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultRow {
    /// The header of the title hits listed first ([`SearchView::lead`]) with their count.
    LeadHeader,
    /// The "Content (BM25)" header with its hit count.
    ContentHeader,
    /// The "Titles (fuzzy)" header with the count of the title hits below it.
    TitlesHeader,
    /// A hit: index into [`SearchView::hit`].
    Hit(usize),
    /// An empty group ("no matches").
    Empty,
}

/// The rows for `view`, in display order: the leading title hits (when there are any), the
/// content group, then the other title hits (left out when the lead took them all).
pub fn rows(view: &SearchView) -> Vec<ResultRow> {
    let (lead, content) = (view.lead, view.content.len());
    let mut out = Vec::with_capacity(view.len() + 4);
    if lead > 0 {
        out.push(ResultRow::LeadHeader);
        out.extend((0..lead).map(ResultRow::Hit));
    }
    out.push(ResultRow::ContentHeader);
    if content == 0 {
        out.push(ResultRow::Empty);
    }
    out.extend((lead..lead + content).map(ResultRow::Hit));
    if lead == 0 || view.titles.len() > lead {
        out.push(ResultRow::TitlesHeader);
        if view.titles.is_empty() {
            out.push(ResultRow::Empty);
        }
        out.extend((lead + content..view.len()).map(ResultRow::Hit));
    }
    out
}

/// The row index of hit `hit` in [`rows`] (0 when there is no such hit).
pub fn row_of_hit(view: &SearchView, hit: usize) -> usize {
    rows(view)
        .iter()
        .position(|r| *r == ResultRow::Hit(hit))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Hit, HitSource, Scorer};
    use crate::model::NodeId;

    fn hit(n: u32, source: HitSource) -> Hit {
        Hit {
            node: NodeId(n),
            score: 1.0,
            source,
            scorer: Scorer::Skillnav,
            copies: vec![],
        }
    }

    #[test]
    fn rows_and_hit_positions_agree() {
        let view = SearchView {
            content: vec![hit(1, HitSource::Bm25), hit(2, HitSource::Bm25)],
            titles: vec![hit(3, HitSource::Fuzzy)],
            ..Default::default()
        };
        let r = rows(&view);
        assert_eq!(
            r,
            vec![
                ResultRow::ContentHeader,
                ResultRow::Hit(0),
                ResultRow::Hit(1),
                ResultRow::TitlesHeader,
                ResultRow::Hit(2)
            ]
        );
        for i in 0..view.len() {
            assert_eq!(r[row_of_hit(&view, i)], ResultRow::Hit(i));
        }
        let only_titles = SearchView {
            titles: vec![hit(3, HitSource::Fuzzy)],
            ..Default::default()
        };
        let r = rows(&only_titles);
        assert_eq!(r[1], ResultRow::Empty);
        assert_eq!(r[row_of_hit(&only_titles, 0)], ResultRow::Hit(0));
    }
}
