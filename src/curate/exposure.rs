//! Exposure levels (docs/DESIGN.md §5): how eagerly a node's text reaches an
//! agent. `always` nodes are in every brief, `on-demand` ones (the default) when selected
//! or retrieved, `explicit` ones only when selected by id, `hidden` ones never. A level set
//! on a node applies to its whole subtree unless a descendant sets its own.
//!
//! Levels come from node metadata (`meta.exposure`, e.g. the git-adr loader marks ADRs
//! `explicit`), from the licence-file default ([`is_licence_file`]: `explicit`) and from
//! overrides a user or a recipe sets ([`ExposureMap::set`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use crate::model::{Corpus, NodeId, NodeKind};

/// One exposure level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Exposure {
    /// In every brief (and counted as always-loaded).
    Always,
    /// In a brief when selected or retrieved by a query (the default).
    #[default]
    OnDemand,
    /// In a brief only when selected by id (never retrieved).
    Explicit,
    /// Never in a brief.
    Hidden,
}

impl Exposure {
    /// All levels, in the order the UI cycles through them.
    pub const ALL: [Exposure; 4] = [
        Exposure::Always,
        Exposure::OnDemand,
        Exposure::Explicit,
        Exposure::Hidden,
    ];

    /// Three-letter tag for narrow columns: `alw`, `dem`, `exp`, `hid`.
    pub fn tag(self) -> &'static str {
        match self {
            Exposure::Always => "alw",
            Exposure::OnDemand => "dem",
            Exposure::Explicit => "exp",
            Exposure::Hidden => "hid",
        }
    }

    /// `always`, `on-demand`, `explicit`, `hidden`.
    pub fn as_str(self) -> &'static str {
        match self {
            Exposure::Always => "always",
            Exposure::OnDemand => "on-demand",
            Exposure::Explicit => "explicit",
            Exposure::Hidden => "hidden",
        }
    }

    /// Parse one of the [`Exposure::as_str`] names (also `on_demand`/`ondemand`, any case).
    pub fn parse(s: &str) -> Option<Exposure> {
        match s.trim().to_ascii_lowercase().as_str() {
            "always" => Some(Exposure::Always),
            "on-demand" | "on_demand" | "ondemand" => Some(Exposure::OnDemand),
            "explicit" => Some(Exposure::Explicit),
            "hidden" => Some(Exposure::Hidden),
            _ => None,
        }
    }

    /// The next level in [`Exposure::ALL`] (wrapping), for a UI toggle.
    pub fn next(self) -> Exposure {
        let i = Exposure::ALL.iter().position(|e| *e == self).unwrap_or(0);
        Exposure::ALL[(i + 1) % Exposure::ALL.len()]
    }

    /// Whether a node at this level enters a brief when it was `selected` by id and/or
    /// `retrieved` by a query.
    pub fn admits(self, selected: bool, retrieved: bool) -> bool {
        match self {
            Exposure::Always => true,
            Exposure::OnDemand => selected || retrieved,
            Exposure::Explicit => selected,
            Exposure::Hidden => false,
        }
    }
}

impl fmt::Display for Exposure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Levels set on nodes; everything else inherits from its nearest ancestor with a level,
/// else [`Exposure::OnDemand`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExposureMap {
    set: HashMap<NodeId, Exposure>,
}

impl ExposureMap {
    /// No levels set: everything is on-demand.
    pub fn new() -> Self {
        Self::default()
    }

    /// The levels carried by node metadata: every node whose `meta.exposure` is a level name.
    /// Unknown names are ignored (the loader already warned about them, or they are foreign).
    pub fn from_corpus(corpus: &Corpus) -> Self {
        let mut map = Self::new();
        for (i, n) in corpus.nodes.iter().enumerate() {
            if let Some(e) = n
                .meta
                .get("exposure")
                .and_then(|v| v.as_str())
                .and_then(Exposure::parse)
            {
                map.set.insert(NodeId(i as u32), e);
            }
        }
        map
    }

    /// Set (`Some`) or clear (`None`) the level of `id` itself.
    pub fn set(&mut self, id: NodeId, level: Option<Exposure>) {
        match level {
            Some(e) => {
                self.set.insert(id, e);
            }
            None => {
                self.set.remove(&id);
            }
        }
    }

    /// Whether no node has a level set (everything is on-demand).
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The level set on `id` itself, if any.
    pub fn own(&self, id: NodeId) -> Option<Exposure> {
        self.set.get(&id).copied()
    }

    /// The effective level of `id`: its own, else its nearest ancestor's, else on-demand.
    /// A licence file ([`is_licence_file`]) with no level of its own is `explicit`, and so
    /// is what it holds (docs/DESIGN.md §5).
    pub fn level(&self, corpus: &Corpus, id: NodeId) -> Exposure {
        std::iter::once(id)
            .chain(corpus.ancestors(id))
            .find_map(|n| {
                self.set.get(&n).copied().or_else(|| {
                    is_licence_file(corpus.node(n).kind, &corpus.node(n).title)
                        .then_some(Exposure::Explicit)
                })
            })
            .unwrap_or_default()
    }

    /// Nodes with a level set, with their level, sorted by node id (stable order).
    pub fn entries(&self) -> Vec<(NodeId, Exposure)> {
        let mut v: Vec<(NodeId, Exposure)> = self.set.iter().map(|(k, v)| (*k, *v)).collect();
        v.sort_unstable();
        v
    }

    /// Text units whose effective level is `always`, in document order: sections, chunks,
    /// parts, links, ADRs (`NodeKind::is_text_unit`) and files with text but no such
    /// children (a `LICENSE.txt` without headings). A unit whose ancestor unit is already
    /// listed is skipped (its text is part of the ancestor's), and so are copies
    /// (`duplicate`/`alias`/`variant`, [`Corpus::is_copy`]).
    pub fn always_units(&self, corpus: &Corpus) -> Vec<NodeId> {
        // Only the subtrees of nodes set to `always` can hold `always` units: walk those
        // (outermost first, in document order), not the whole corpus.
        let mut tops: Vec<NodeId> = self
            .set
            .iter()
            .filter(|(id, e)| **e == Exposure::Always && id.ix() < corpus.len())
            .map(|(id, _)| *id)
            .collect();
        tops.retain(|id| {
            !corpus
                .ancestors(*id)
                .any(|a| self.set.get(&a) == Some(&Exposure::Always))
        });
        tops.sort_by_cached_key(|id| document_position(corpus, *id));
        let mut out: Vec<NodeId> = Vec::new();
        for top in tops {
            for id in corpus.preorder(top) {
                let n = corpus.node(id);
                // A file without headings (LICENSE.txt, a script) is a unit of its own.
                let unit = n.kind.is_text_unit()
                    || (n.span.is_some()
                        && !n
                            .children
                            .iter()
                            .any(|c| corpus.node(*c).kind.is_text_unit()));
                if !unit || corpus.is_copy(id) || self.level(corpus, id) != Exposure::Always {
                    continue;
                }
                if out.last().is_some_and(|o| corpus.is_within(id, *o)) {
                    continue;
                }
                out.push(id);
            }
        }
        out
    }

    /// The full text of `id` (`Corpus::text`) without the text of descendants whose
    /// effective level is `hidden` (their byte ranges in the same source are cut out), so
    /// a hidden sub-section never leaks through a visible parent. Borrowed when nothing is
    /// hidden.
    pub fn visible_text<'c>(&self, corpus: &'c Corpus, id: NodeId) -> Cow<'c, str> {
        let text = corpus.text(id);
        let Some(span) = corpus.node(id).span else {
            return Cow::Borrowed(text);
        };
        if !self.set.values().any(|e| *e == Exposure::Hidden) {
            return Cow::Borrowed(text);
        }
        let mut cuts: Vec<(usize, usize)> = Vec::new();
        let mut stack: Vec<NodeId> = corpus.node(id).children.to_vec();
        while let Some(n) = stack.pop() {
            match corpus.node(n).span {
                Some(s) if s.source == span.source && self.level(corpus, n) == Exposure::Hidden => {
                    let a = s.start.clamp(span.start, span.end) - span.start;
                    let b = s.end.clamp(span.start, span.end) - span.start;
                    cuts.push((a, b));
                }
                _ => stack.extend(corpus.node(n).children.iter().copied()),
            }
        }
        if cuts.is_empty() {
            return Cow::Borrowed(text);
        }
        cuts.sort_unstable();
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (a, b) in cuts {
            if a > at {
                out.push_str(text.get(at..a).unwrap_or(""));
            }
            at = at.max(b);
        }
        out.push_str(text.get(at.min(text.len())..).unwrap_or(""));
        Cow::Owned(out)
    }
}

/// Whether a node of `kind` titled `name` (a file name) is a licence file: a file whose
/// name, before its first `.` or `-` and in any case, is `LICENSE`, `LICENCE`, `COPYING`,
/// `UNLICENSE` or `NOTICE` (`LICENSE.txt`, `LICENSE.md`, `COPYING.LESSER`,
/// `LICENSE-MIT`). Such files default to `explicit` (docs/DESIGN.md §5).
pub fn is_licence_file(kind: NodeKind, name: &str) -> bool {
    if kind != NodeKind::File {
        return false;
    }
    let stem = name.split(['.', '-', '_']).next().unwrap_or("");
    ["license", "licence", "copying", "unlicense", "notice"]
        .iter()
        .any(|l| stem.eq_ignore_ascii_case(l))
}

/// The position of `id` in document order, as the child indices from its root down
/// (the root's index in `corpus.roots` first): sorting by it sorts nodes in pre-order.
fn document_position(corpus: &Corpus, id: NodeId) -> Vec<usize> {
    let mut path: Vec<NodeId> = std::iter::once(id).chain(corpus.ancestors(id)).collect();
    path.reverse();
    let mut pos = Vec::with_capacity(path.len());
    if let Some(root) = path.first() {
        pos.push(
            corpus
                .roots
                .iter()
                .position(|r| r == root)
                .unwrap_or(usize::MAX),
        );
    }
    for pair in path.windows(2) {
        let siblings = &corpus.node(pair[0]).children;
        pos.push(
            siblings
                .iter()
                .position(|c| *c == pair[1])
                .unwrap_or(usize::MAX),
        );
    }
    pos
}
