//! The one brief model every layout renders: the head ([`BriefHead`]), the sections
//! ([`BriefSection`], with why each is there: [`Origin`]), the layout names
//! ([`BriefFormat`]) and the text helpers all layouts share (one-line titles, code spans,
//! trimming, the left-out line). Pure: no I/O.

use std::fmt;

use super::mode::Mode;
use crate::curate::exposure::Exposure;
use crate::model::NodeId;
use crate::util::human::human_count;

/// Output format of a brief (`skillnav brief --format`, the MCP `format` argument, the
/// TUI's `[brief] format` and `f`), the one list of them; a renderer per format behind it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BriefFormat {
    /// Markdown (see [`super::layout::md`]; the plain layout when the request is plain, see
    /// [`super::layout_of`]).
    #[default]
    Md,
    /// Claude-style XML: one `<document>` per section (see [`super::layout::xml`]).
    Xml,
    /// JSON (see [`super::layout::json`]).
    Json,
    /// lazytools' `query_skill` text, byte for byte (see [`super::lazytools`]; bundles only,
    /// needs a query). Not one of the [`BriefFormat::LAYOUTS`] the TUI cycles through.
    Lazytools,
}

impl BriefFormat {
    /// The formats rendered by a brief layout from gathered sections (the TUI's `f`
    /// cycles through them in this order).
    pub const LAYOUTS: [BriefFormat; 3] = [BriefFormat::Md, BriefFormat::Xml, BriefFormat::Json];

    /// `md`, `xml`, `json` or `lazytools` (the names [`BriefFormat::parse`] reads).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Md => "md",
            Self::Xml => "xml",
            Self::Json => "json",
            Self::Lazytools => "lazytools",
        }
    }

    /// Parse `md` (or `markdown`), `xml`, `json` or `lazytools`, exactly (lower-case).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "md" | "markdown" => Some(Self::Md),
            "xml" => Some(Self::Xml),
            "json" => Some(Self::Json),
            "lazytools" => Some(Self::Lazytools),
            _ => None,
        }
    }

    /// [`BriefFormat::parse`] of one of the [`BriefFormat::LAYOUTS`] (config files and
    /// recipes, which the TUI reads).
    pub fn parse_layout(s: &str) -> Option<Self> {
        Self::parse(s).filter(|f| Self::LAYOUTS.contains(f))
    }

    /// The next of the [`BriefFormat::LAYOUTS`] after this one (md after the last, and
    /// after lazytools).
    pub fn next_layout(self) -> Self {
        match self {
            Self::Md => Self::Xml,
            Self::Xml => Self::Json,
            Self::Json | Self::Lazytools => Self::Md,
        }
    }
}

/// Why a section is in a brief.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Its exposure level is `always`.
    Always,
    /// Selected by id.
    Selected,
    /// A BM25 hit of the query.
    Retrieved,
}

impl Origin {
    /// `always`, `selected`, `retrieved`.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Always => "always",
            Origin::Selected => "selected",
            Origin::Retrieved => "retrieved",
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One section of a curated brief, with the text the mode gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct BriefSection {
    /// The node.
    pub node: NodeId,
    /// Its stable string id.
    pub id: String,
    /// Title (the id when the title is blank); line breaks become spaces.
    pub title: String,
    /// Path relative to its root (may be empty).
    pub path: String,
    /// Root label (root id, else title).
    pub root: String,
    /// 1-based first line of the text shown, when known.
    pub line_start: Option<u32>,
    /// 1-based last line of the text shown, when known.
    pub line_end: Option<u32>,
    /// BM25 score (retrieved sections only).
    pub score: Option<f64>,
    /// Why it is included.
    pub origin: Origin,
    /// Its effective exposure level.
    pub exposure: Exposure,
    /// The text per mode (trailing blank lines trimmed; empty in locate mode).
    pub text: String,
    /// Exact tokens of `text` in the brief's encoding.
    pub tokens: u64,
    /// Bytes of the source this section quotes, as stored (heading line, frontmatter and
    /// trailing blank lines included; hidden sub-sections cut): the node's size in the tree
    /// ([`crate::curate::units::source_size`], docs/DESIGN.md §2 Sizes).
    pub source_bytes: u64,
    /// Tokens of that source (Σ of its parts' counts, as the tree shows it).
    pub source_tokens: u64,
    /// A hit passed over while filling a budget, ranked below the last one taken: packed
    /// when the exact text leaves room for it, never named as left out (it is the tail of
    /// the ranking, not something the budget cut).
    pub spare: bool,
}

/// Everything a layout needs besides the sections.
#[derive(Clone, Debug, PartialEq)]
pub struct BriefHead {
    /// The query, if any.
    pub query: Option<String>,
    /// Retrieval depth asked for.
    pub top_k: usize,
    /// The resolved mode (never `Auto`).
    pub mode: Mode,
    /// `(typed, searched as)` did-you-mean corrections.
    pub corrections: Vec<(String, String)>,
    /// The token budget, if any (printed as `max_tokens`).
    pub budget: Option<u64>,
    /// Encoding of all token counts.
    pub encoding: crate::tokens::Encoding,
}

/// How many left-out ids the closing line names; beyond that it says how many more there are
/// (all of them are always in [`super::Brief::left_out`]); the same limit in every layout.
pub const LEFT_OUT_LISTED: usize = 50;

/// The closing line naming the left-out ids: all of them up to [`LEFT_OUT_LISTED`], else the
/// first [`LEFT_OUT_LISTED`] and `and <n> more (<total> in all)`.
pub fn left_out_line(max: u64, ids: &[&str]) -> String {
    let shown = &ids[..ids.len().min(LEFT_OUT_LISTED)];
    let more = if ids.len() > shown.len() {
        format!(
            " and {} more ({} in all)",
            human_count((ids.len() - shown.len()) as u64),
            human_count(ids.len() as u64)
        )
    } else {
        String::new()
    };
    format!(
        "Left out (over the {}-token budget): {}{more}\n",
        human_count(max),
        shown.join(", ")
    )
}

/// The `Sources:` line and the rule after it, shared by the markdown layouts: the root labels
/// of the kept sections in first-appearance order (`none` when nothing was kept), the
/// section count, and Σ tokens (in `head.encoding`) and Σ bytes of the sources as stored
/// ([`BriefSection::source_bytes`]: the tree's numbers), with thousands separators: `Sources: docs, notes · 2 sections · 12 tokens (bytes4) · 44 bytes`.
pub fn sources_line(head: &BriefHead, kept: &[&BriefSection]) -> String {
    let mut roots: Vec<&str> = Vec::new();
    for s in kept {
        if !roots.contains(&s.root.as_str()) {
            roots.push(&s.root);
        }
    }
    let tokens: u64 = kept.iter().map(|s| s.source_tokens).sum();
    let bytes: u64 = kept.iter().map(|s| s.source_bytes).sum();
    format!(
        "Sources: {} · {} {} · {} tokens ({}) · {} bytes\n\n---\n",
        if roots.is_empty() {
            "none".to_string()
        } else {
            roots.join(", ")
        },
        kept.len(),
        if kept.len() == 1 {
            "section"
        } else {
            "sections"
        },
        human_count(tokens),
        head.encoding.as_str(),
        human_count(bytes),
    )
}

/// `text` without its trailing blank (empty or whitespace-only) lines and without the line
/// break of its last line; everything else, including leading blank lines and trailing spaces
/// of the last non-blank line, is kept.
pub fn trim_trailing_blank_lines(text: &str) -> &str {
    let mut end = text.len();
    loop {
        let head = &text[..end];
        let line_start = head.rfind('\n').map_or(0, |i| i + 1);
        if !head[line_start..].trim().is_empty() {
            break;
        }
        if line_start == 0 {
            return "";
        }
        end = line_start - 1;
    }
    text[..end].strip_suffix('\r').unwrap_or(&text[..end])
}

/// A single-line rendering of a title or path: line breaks become spaces (a heading line
/// must stay one line). Nothing else changes.
pub fn one_line(s: &str) -> String {
    s.replace("\r\n", " ").replace(['\n', '\r'], " ")
}

/// A markdown code span holding `s` verbatim: fenced with one more backtick than the longest
/// backtick run inside, padded with spaces when `s` starts or ends with a backtick.
pub fn code_span(s: &str) -> String {
    let s = one_line(s);
    let mut longest = 0;
    let mut run = 0;
    for ch in s.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    if s.starts_with('`') || s.ends_with('`') {
        format!("{fence} {s} {fence}")
    } else {
        format!("{fence}{s}{fence}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_blank_lines_are_trimmed_and_nothing_else() {
        assert_eq!(trim_trailing_blank_lines("a\nb\n\n  \n\t\n"), "a\nb");
        assert_eq!(trim_trailing_blank_lines("\n\na  \n"), "\n\na  ");
        assert_eq!(trim_trailing_blank_lines("a\r\nb\r\n\r\n"), "a\r\nb");
        assert_eq!(trim_trailing_blank_lines("x"), "x");
        assert_eq!(trim_trailing_blank_lines(" \n\n"), "");
        assert_eq!(trim_trailing_blank_lines(""), "");
    }

    #[test]
    fn code_spans_survive_backticks() {
        assert_eq!(code_span("docs/a.md#x"), "`docs/a.md#x`");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x"), "`` `x ``");
    }
}
