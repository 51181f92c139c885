//! The legend at the top of the help popup: what the glyphs, columns and numbers of the
//! screen mean (units included), and that the mouse works. Plain data, drawn by
//! `tui::view::help` and counted by `tui::view::layout::help_len`.

/// `(heading, [(what is shown, what it means)])`, in the order the help lists them.
pub const LEGEND: &[(&str, &[(&str, &str)])] = &[(
    "What the screen shows",
    &[
        ("✓ ◐", "selected / partly selected (some of the subtree)"),
        ("▸ ▾", "collapsed / expanded"),
        ("◆ ★ ▪ ≡", "root, skill, folder, file"),
        ("# ¶ § ↗ ✎ ○", "section, chunk, part, link, ADR, group"),
        ("4.2kB 980B", "bytes of the node's text (1 kB = 1000 bytes)"),
        (
            "1.6k Σ7.5k",
            "tokens (the top bar names the encoding); Σ: the whole subtree",
        ),
        ("dup", "a copy: the same text as another node, counted once"),
        (
            "!",
            "warnings (listed at the top of this help and in the preview)",
        ),
        (
            "∅ ✂164",
            "Claude Code listing: description dropped / cut by 164 chars",
        ),
        (
            "alw dem exp hid",
            "exposure (x): always, on demand, explicit, hidden",
        ),
        ("·", "exposure inherited from above; bold: set on this node"),
        (
            "‹ name",
            "search hit: the nearest ancestor telling equal titles apart",
        ),
        ("2.04  49 tok", "search hit: BM25 score, the hit's tokens"),
        (
            "sel 1 · 255/20k tok",
            "top bar: tokens selected / the budget (b)",
        ),
        (
            "raw wrap →38",
            "preview header: raw text, wrapped code, columns scrolled",
        ),
        (
            "mouse",
            "click a row or a pane, the wheel scrolls the pane under it",
        ),
    ],
)];

/// Number of help lines the legend takes (headings, entries and a blank after each group).
pub fn legend_len() -> usize {
    LEGEND.iter().map(|(_, rows)| rows.len() + 2).sum()
}
