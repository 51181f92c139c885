//! Fitting a row into a width: a left part cut with `…` on a grapheme boundary and a
//! right-aligned part that is dropped first when there is no room.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use unicode_segmentation::UnicodeSegmentation;

use crate::render::width::{ELLIPSIS, grapheme_width, str_width};
use crate::util::sanitize::sanitize_line;

/// A piece of a row: text (untrusted; sanitised here) and its style.
pub type Piece = (String, Style);

/// Lay out `left` then `right` in exactly `width` cells: `right` is right-aligned and kept
/// whole when it fits with at least `min_left` cells of `left`, else dropped; `left` is cut
/// with `…`. Every piece is sanitised, so no control character reaches the buffer.
pub fn fit(left: Vec<Piece>, right: Vec<Piece>, width: usize, min_left: usize) -> Line<'static> {
    let left: Vec<Piece> = left
        .into_iter()
        .map(|(t, s)| (sanitize_line(&t).into_owned(), s))
        .collect();
    let right: Vec<Piece> = right
        .into_iter()
        .map(|(t, s)| (sanitize_line(&t).into_owned(), s))
        .collect();
    let right_w: usize = right.iter().map(|(t, _)| str_width(t)).sum();
    let keep_right = right_w > 0 && right_w + min_left <= width;
    let left_budget = if keep_right { width - right_w } else { width };
    let mut spans = Vec::new();
    let mut used = 0;
    let total_left: usize = left.iter().map(|(t, _)| str_width(t)).sum();
    if total_left <= left_budget {
        used = total_left;
        spans.extend(left.into_iter().map(|(t, s)| Span::styled(t, s)));
    } else if left_budget > 0 {
        // Leave one cell for the `…`; a wide grapheme that does not fit is dropped whole.
        let allowed = left_budget - 1;
        'pieces: for (t, s) in left {
            let mut piece = String::new();
            for g in t.graphemes(true) {
                let w = grapheme_width(g);
                if used + w > allowed {
                    piece.push_str(ELLIPSIS);
                    used += 1;
                    spans.push(Span::styled(piece, s));
                    break 'pieces;
                }
                piece.push_str(g);
                used += w;
            }
            spans.push(Span::styled(piece, s));
        }
    }
    if keep_right {
        spans.push(Span::raw(" ".repeat(left_budget.saturating_sub(used))));
        spans.extend(right.into_iter().map(|(t, s)| Span::styled(t, s)));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(l: &Line) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn right_part_aligns_and_left_is_cut_with_ellipsis() {
        let l = fit(
            vec![("hello world".into(), Style::new())],
            vec![("12k".into(), Style::new())],
            10,
            3,
        );
        assert_eq!(text(&l), "hello …12k");
        let l = fit(
            vec![("hello world".into(), Style::new())],
            vec![("12k".into(), Style::new())],
            9,
            3,
        );
        assert_eq!(text(&l), "hello…12k");
        let l = fit(
            vec![("ab".into(), Style::new())],
            vec![("12k".into(), Style::new())],
            8,
            3,
        );
        assert_eq!(text(&l), "ab   12k");
    }

    #[test]
    fn wide_chars_cut_on_grapheme_boundaries() {
        let l = fit(vec![("技能文档🚀x".into(), Style::new())], vec![], 6, 0);
        assert_eq!(text(&l), "技能…");
        let l = fit(
            vec![("a".into(), Style::new()), ("技能".into(), Style::new())],
            vec![],
            4,
            0,
        );
        assert_eq!(text(&l), "a技…");
    }

    #[test]
    fn escapes_never_pass() {
        let l = fit(vec![("x\x1b[31my".into(), Style::new())], vec![], 20, 0);
        assert_eq!(text(&l), "x␛[31my");
    }
}
