//! Table layout for the markdown renderer: box-drawing borders, column widths fitted to the
//! available width (narrow columns keep their natural width, wide ones share the rest), cell
//! text word-wrapped inside its column, alignment from the GFM delimiter row.

use pulldown_cmark::Alignment;

use crate::render::text::{Line, Role, Span};
use crate::render::width::str_width;
use crate::render::wrap::wrap;

/// One table row: the source byte offset it comes from and its cells' inline spans.
pub(crate) struct Row {
    pub offset: usize,
    pub cells: Vec<Vec<Span>>,
}

/// A table being collected from parser events.
pub(crate) struct Table {
    pub aligns: Vec<Alignment>,
    pub rows: Vec<Row>,
    /// How many leading rows are header rows.
    pub header_rows: usize,
}

/// Column widths (content cells, without padding) for `natural` widths within `avail` cells.
/// Every column gets at least 1 cell; when even that does not fit the result is wider than
/// `avail` (the caller truncates lines).
pub(crate) fn fit_columns(natural: &[usize], avail: usize) -> Vec<usize> {
    let n = natural.len();
    let total: usize = natural.iter().sum();
    if total <= avail {
        return natural.to_vec();
    }
    let mut widths = vec![1; n];
    if avail <= n {
        return widths;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&c| natural[c]);
    let mut remaining = avail;
    for (k, &c) in order.iter().enumerate() {
        let share = remaining / (n - k);
        let w = natural[c].min(share).max(1);
        widths[c] = w;
        remaining = remaining.saturating_sub(w);
    }
    widths
}

fn border(left: &str, mid: &str, right: &str, widths: &[usize]) -> Line {
    let mut s = String::from(left);
    for (i, w) in widths.iter().enumerate() {
        if i > 0 {
            s.push_str(mid);
        }
        s.push_str(&"─".repeat(w + 2));
    }
    s.push_str(right);
    Line::from_spans(vec![Span::role(s, Role::TableBorder)])
}

/// Lay the table out in `width` cells; returns (line, source offset) pairs.
pub(crate) fn layout(table: &Table, width: usize) -> Vec<(Line, usize)> {
    let ncols = table
        .rows
        .iter()
        .map(|r| r.cells.len())
        .max()
        .unwrap_or(0)
        .max(table.aligns.len());
    if ncols == 0 {
        return Vec::new();
    }
    let mut natural = vec![1usize; ncols];
    for row in &table.rows {
        for (c, cell) in row.cells.iter().enumerate() {
            let w: usize = crate::render::text::align_graphemes(cell)
                .iter()
                .map(Span::width)
                .sum();
            natural[c] = natural[c].max(w);
        }
    }
    let avail = width.saturating_sub(3 * ncols + 1);
    let widths = fit_columns(&natural, avail);
    let first_offset = table.rows.first().map_or(0, |r| r.offset);
    let mut out = vec![(border("┌", "┬", "┐", &widths), first_offset)];
    for (ri, row) in table.rows.iter().enumerate() {
        if ri > 0 && ri == table.header_rows {
            out.push((border("├", "┼", "┤", &widths), row.offset));
        }
        let cells: Vec<Vec<Line>> = (0..ncols)
            .map(|c| {
                row.cells
                    .get(c)
                    .map_or_else(|| vec![Line::new()], |cell| wrap(cell, widths[c]))
            })
            .collect();
        let height = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
        for k in 0..height {
            let mut line = Line::new();
            line.push(Span::role("│", Role::TableBorder));
            for (c, cell_lines) in cells.iter().enumerate() {
                let content = cell_lines.get(k).cloned().unwrap_or_default();
                let pad = widths[c].saturating_sub(content.width());
                let (before, after) = match table.aligns.get(c) {
                    Some(Alignment::Right) => (pad, 0),
                    Some(Alignment::Center) => (pad / 2, pad - pad / 2),
                    _ => (0, pad),
                };
                line.push(Span::role(" ".repeat(before + 1), Role::Text));
                line.spans.extend(content.spans);
                line.push(Span::role(" ".repeat(after + 1), Role::Text));
                line.push(Span::role("│", Role::TableBorder));
            }
            out.push((line, row.offset));
        }
    }
    let last_offset = table.rows.last().map_or(first_offset, |r| r.offset);
    out.push((border("└", "┴", "┘", &widths), last_offset));
    debug_assert!(out.iter().all(|(l, _)| str_width(&l.plain()) == l.width()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_keeps_natural_when_room() {
        assert_eq!(fit_columns(&[3, 10, 5], 30), vec![3, 10, 5]);
    }

    #[test]
    fn fit_shares_the_rest_among_wide_columns() {
        // 20 cells: the 3-wide column keeps 3, the others split 17 as 8 and 9.
        assert_eq!(fit_columns(&[3, 30, 40], 20), vec![3, 8, 9]);
        assert_eq!(fit_columns(&[5, 5], 1), vec![1, 1]);
    }
}
