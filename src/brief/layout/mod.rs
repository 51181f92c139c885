//! The brief layouts. Each only renders what the gather-and-pack step
//! ([`super::select`]) chose: `render(head, kept, left) -> String`, where `kept` are the
//! sections in the brief and `left` the ids a budget left out.

pub mod json;
pub mod md;
pub mod plain;
pub mod xml;

use super::model::{BriefFormat, BriefHead, BriefSection};

/// Which layout renders a brief.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// The plain markdown layout ([`plain`]): no mode line, no origins.
    Plain,
    /// The curated markdown layout ([`md`]).
    Md,
    /// Claude-style XML ([`xml`]).
    Xml,
    /// JSON ([`json`]).
    Json,
}

impl Layout {
    /// The curated layout of `format` (never [`Layout::Plain`]). The lazytools format has
    /// no layout of its own ([`super::layout_of`] gives it none): asked here, md.
    pub fn curated(format: BriefFormat) -> Layout {
        match format {
            BriefFormat::Md | BriefFormat::Lazytools => Layout::Md,
            BriefFormat::Xml => Layout::Xml,
            BriefFormat::Json => Layout::Json,
        }
    }

    /// Render `kept` under `head`, naming `left` as left out.
    pub fn render(self, head: &BriefHead, kept: &[&BriefSection], left: &[&str]) -> String {
        match self {
            Layout::Plain => plain::render(head, kept, left),
            Layout::Md => md::render(head, kept, left),
            Layout::Xml => xml::render(head, kept, left),
            Layout::Json => json::render(head, kept, left),
        }
    }
}
