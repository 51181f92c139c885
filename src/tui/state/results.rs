//! Rows of the search-results list: two groups, "Content (BM25)" with scores and
//! "Titles (fuzzy)", each under a header line. Shared by the view (to draw) and by `update`
//! (to keep the selected hit visible and to map mouse clicks).

use crate::tui::state::search::SearchView;

/// One row of the results list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultRow {
    /// The "Content (BM25)" header with its hit count.
    ContentHeader,
    /// The "Titles (fuzzy)" header with its hit count.
    TitlesHeader,
    /// A hit: index into [`SearchView::hit`].
    Hit(usize),
    /// An empty group ("no matches").
    Empty,
}

/// The rows for `view`, in display order.
pub fn rows(view: &SearchView) -> Vec<ResultRow> {
    let mut out = Vec::with_capacity(view.len() + 4);
    out.push(ResultRow::ContentHeader);
    if view.content.is_empty() {
        out.push(ResultRow::Empty);
    }
    out.extend((0..view.content.len()).map(ResultRow::Hit));
    out.push(ResultRow::TitlesHeader);
    if view.titles.is_empty() {
        out.push(ResultRow::Empty);
    }
    out.extend((view.content.len()..view.len()).map(ResultRow::Hit));
    out
}

/// The row index of hit `hit` in [`rows`].
pub fn row_of_hit(view: &SearchView, hit: usize) -> usize {
    let content_rows = 1 + view.content.len().max(1);
    if hit < view.content.len() {
        1 + hit
    } else {
        content_rows + 1 + (hit - view.content.len())
    }
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
