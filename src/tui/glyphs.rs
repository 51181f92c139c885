//! One-cell glyphs of the tree: node kinds, expand arrows and selection marks.

use crate::model::{Mark, NodeKind};

/// The glyph of a node kind (one cell wide in every terminal font we target).
pub fn kind(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Root => "◆",
        NodeKind::Skill => "★",
        NodeKind::Dir => "▪",
        NodeKind::File => "≡",
        NodeKind::Section => "#",
        NodeKind::Chunk => "¶",
        NodeKind::Part => "§",
        NodeKind::Link => "↗",
        NodeKind::Adr => "✎",
        NodeKind::Group => "○",
    }
}

/// `▾` expanded, `▸` collapsed, space for leaves.
pub fn arrow(has_children: bool, expanded: bool) -> &'static str {
    match (has_children, expanded) {
        (false, _) => " ",
        (true, true) => "▾",
        (true, false) => "▸",
    }
}

/// `✓` full, `◐` partial, space when unselected.
pub fn mark(m: Mark) -> &'static str {
    match m {
        Mark::Full => "✓",
        Mark::Partial => "◐",
        Mark::None => " ",
    }
}
