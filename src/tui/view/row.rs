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
    let left_budget = left_room(&right, width, min_left);
    let keep_right = left_budget < width;
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

/// The cells [`fit`] leaves `left` beside `right` (sanitised) in `width`: all of them when
/// `right` is empty or dropped.
pub fn left_room(right: &[Piece], width: usize, min_left: usize) -> usize {
    let right_w: usize = right
        .iter()
        .map(|(t, _)| str_width(&sanitize_line(t)))
        .sum();
    if right_w > 0 && right_w + min_left <= width {
        width - right_w
    } else {
        width
    }
}

/// How [`share`] splits a width between two parts, in cells.
#[derive(Clone, Copy, Debug)]
pub struct Shares {
    /// Fewest cells a cut `first` keeps (its whole length when shorter).
    pub min_first: usize,
    /// Cells of `second` that read well enough: when `first` whole leaves that many, only
    /// `second` is cut.
    pub enough_second: usize,
    /// Fewest cells worth giving a cut `second`; with less, nothing is cut here.
    pub min_second: usize,
}

/// `first` then `second` in at most `width` cells (docs/DESIGN.md §6: a title and its
/// `‹ ancestor`): unchanged when both fit; `second` alone cut with `…` when `first` whole
/// leaves it [`Shares::enough_second`]; else each cut to its share of `width` in
/// proportion to its length, `first` keeping [`Shares::min_first`]. Left whole (for
/// [`fit`] to cut at the end) when less than [`Shares::min_second`] is left for `second`.
pub fn share(first: Vec<Piece>, second: Vec<Piece>, width: usize, sh: Shares) -> Vec<Piece> {
    let clean = |v: Vec<Piece>| -> Vec<Piece> {
        v.into_iter()
            .map(|(t, s)| (sanitize_line(&t).into_owned(), s))
            .collect()
    };
    let (first, second) = (clean(first), clean(second));
    let w = |v: &[Piece]| -> usize { v.iter().map(|(t, _)| str_width(t)).sum() };
    let (fw, sw) = (w(&first), w(&second));
    if fw + sw <= width || sw == 0 {
        return first.into_iter().chain(second).collect();
    }
    let first_cells = if width.saturating_sub(fw) >= sh.enough_second {
        fw
    } else {
        (width * fw / (fw + sw))
            .max(sh.min_first.min(fw))
            .min(width)
    };
    if width - first_cells < sh.min_second {
        return first.into_iter().chain(second).collect();
    }
    let mut out = cut(first, first_cells);
    // A cut may leave a cell or two (a blank before the `…`, a wide char): `second` has them.
    let second_cells = width.saturating_sub(w(&out));
    out.extend(cut(second, second_cells));
    out
}

/// `pieces` (sanitised) cut to at most `width` cells, ending in `…` (after no blank) when cut.
fn cut(pieces: Vec<Piece>, width: usize) -> Vec<Piece> {
    if width == 0 || pieces.iter().map(|(t, _)| str_width(t)).sum::<usize>() <= width {
        return pieces.into_iter().filter(|_| width > 0).collect();
    }
    let allowed = width - 1;
    let mut used = 0;
    let mut out: Vec<Piece> = Vec::new();
    'pieces: for (t, s) in pieces {
        let mut piece = String::new();
        for g in t.graphemes(true) {
            let gw = grapheme_width(g);
            if used + gw > allowed {
                out.push((piece, s));
                break 'pieces;
            }
            piece.push_str(g);
            used += gw;
        }
        out.push((piece, s));
    }
    // `Table of …` reads as `Table of…`, across pieces too.
    while let Some((t, _)) = out.last_mut() {
        t.truncate(t.trim_end().len());
        if !t.is_empty() || out.len() == 1 {
            break;
        }
        out.pop();
    }
    if let Some((t, _)) = out.last_mut() {
        t.push_str(ELLIPSIS);
    }
    out
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
    fn a_title_and_its_ancestor_share_the_width_in_proportion() {
        let p = |t: &str| vec![(t.to_string(), Style::new())];
        let joined = |v: Vec<Piece>| v.into_iter().map(|(t, _)| t).collect::<String>();
        let label = p(" ‹ KEP-3521: Pod Scheduling Readiness");
        let sh = Shares {
            min_first: 7,
            enough_second: 16,
            min_second: 4,
        };
        // 19 cells: 17 × 19 / 54 = 5 for the title, raised to its minimum 7 (`Table o`, the
        // blank before the `…` dropped: the ancestor gets that cell).
        let both = share(p("Table of Contents"), label.clone(), 19, sh);
        assert_eq!(joined(both), "Table… ‹ KEP-3521:…");
        // Room for both: unchanged; a short title is never cut.
        assert_eq!(joined(share(p("Goals"), p(" ‹ x"), 19, sh)), "Goals ‹ x");
        assert_eq!(
            joined(share(p("Goals"), label.clone(), 19, sh)),
            "Goals ‹ KEP-3521:…"
        );
        // Room enough for the ancestor beside the whole title: only the ancestor is cut.
        assert_eq!(
            joined(share(p("Table of Contents"), label.clone(), 34, sh)),
            "Table of Contents ‹ KEP-3521: Pod…"
        );
        // Too little room left for the ancestor: it is left to `fit` to cut.
        assert_eq!(
            joined(share(p("Table of Contents"), label, 8, sh)),
            "Table of Contents ‹ KEP-3521: Pod Scheduling Readiness"
        );
    }

    #[test]
    fn escapes_never_pass() {
        let l = fit(vec![("x\x1b[31my".into(), Style::new())], vec![], 20, 0);
        assert_eq!(text(&l), "x␛[31my");
    }
}
