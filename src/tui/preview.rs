//! The preview document: markdown of text nodes rendered by [`crate::render`] (search terms
//! marked), or a summary view for containers (description, children with sizes, warnings).
//! Built in `update` (never in a view), cached by (node, width) for the current terms;
//! code blocks in and around the visible window are highlighted on a worker and swapped in.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::model::{Corpus, NodeId, NodeKind};
use crate::render::{self, Line, RenderOptions, Rendered, Role, Span, terms::Terms};
use crate::tokens::TokenTable;

use super::app::{App, Effect};
use super::glyphs;
use super::layers::{LayerView, wants_layers};
use crate::util::human;

/// Longest text rendered in the preview, in bytes; the rest is announced, not dropped
/// silently.
pub const PREVIEW_MAX_BYTES: usize = 1 << 20;

/// Texts longer than this (bytes) are rendered on a worker, so moving the cursor onto a
/// large file never stalls a frame (a 365 KB file takes ~35 ms to render).
pub const SYNC_RENDER_MAX_BYTES: usize = 64 * 1024;

/// Most children listed in a container summary.
const MAX_CHILDREN: usize = 1000;

/// A rendered preview body.
#[derive(Clone, Debug, Default)]
pub struct PreviewDoc {
    /// The node.
    pub node: Option<NodeId>,
    /// Lines, code blocks, match lines (from [`render::render_markdown`] or the summary).
    pub rendered: Rendered,
    /// Code blocks already highlighted or requested.
    pub requested: BTreeSet<usize>,
    /// A placeholder shown while a worker renders a large text.
    pub pending: bool,
}

impl PreviewDoc {
    /// Indices of lines holding a search match (for `n`/`N`).
    pub fn matches(&self) -> &[usize] {
        &self.rendered.match_lines
    }

    /// Number of body lines.
    pub fn len(&self) -> usize {
        self.rendered.lines.len()
    }

    /// Whether the body is empty.
    pub fn is_empty(&self) -> bool {
        self.rendered.lines.is_empty()
    }
}

/// Render the preview of `id` at `width` cells with `terms` marked.
///
/// `layers`: the disclosure layers of a skill or root, shown in its summary when given.
pub fn build(
    corpus: &Corpus,
    tokens: &TokenTable,
    id: NodeId,
    width: u16,
    terms: &[String],
    layers: Option<&LayerView>,
) -> PreviewDoc {
    let node = corpus.node(id);
    let rendered =
        if node.span.is_some() && !matches!(node.kind, NodeKind::Root | NodeKind::Skill | NodeKind::Dir) {
            let text = corpus.text(id);
            let cut = floor_char_boundary(text, PREVIEW_MAX_BYTES);
            let opts = RenderOptions { width, terms: terms.to_vec(), show_frontmatter: true };
            let mut r = render::render_markdown(&text[..cut], &opts);
            if cut < text.len() {
                let note = format!(
                    "… preview shows the first {} of {}; the rest is in the file",
                    human::short_bytes(cut as u64),
                    human::short_bytes(text.len() as u64)
                );
                r.lines.push(Line::new());
                r.line_offsets.push(cut);
                for l in render::wrap(&[Span::role(note, Role::Dim)], width as usize) {
                    r.lines.push(l);
                    r.line_offsets.push(cut);
                }
            }
            r
        } else {
            summary(corpus, tokens, id, width, terms, layers)
        };
    PreviewDoc { node: Some(id), rendered, requested: BTreeSet::new(), pending: false }
}

/// Whether the preview of `id` is rendered on a worker (a large text).
pub fn renders_on_worker(corpus: &Corpus, id: NodeId) -> bool {
    let node = corpus.node(id);
    node.span.is_some()
        && !matches!(node.kind, NodeKind::Root | NodeKind::Skill | NodeKind::Dir)
        && corpus.text(id).len() > SYNC_RENDER_MAX_BYTES
}

/// The placeholder shown while the worker renders `id`.
fn placeholder(corpus: &Corpus, id: NodeId, width: u16) -> PreviewDoc {
    let note = format!("Rendering {}…", human::short_bytes(corpus.text(id).len() as u64));
    let lines = render::wrap(&[Span::role(note, Role::Dim)], width as usize);
    let line_offsets = vec![0; lines.len()];
    let rendered = Rendered { lines, line_offsets, width, ..Rendered::default() };
    PreviewDoc { node: Some(id), rendered, requested: BTreeSet::new(), pending: true }
}

fn floor_char_boundary(s: &str, max: usize) -> usize {
    if s.len() <= max {
        return s.len();
    }
    (0..=max).rev().find(|i| s.is_char_boundary(*i)).unwrap_or(0)
}

/// The summary view of a container: description, children with sizes, warnings.
fn summary(
    corpus: &Corpus,
    tokens: &TokenTable,
    id: NodeId,
    width: u16,
    terms: &[String],
    layers: Option<&LayerView>,
) -> Rendered {
    let w = width as usize;
    let node = corpus.node(id);
    let mut lines: Vec<Line> = Vec::new();
    let para = |lines: &mut Vec<Line>, spans: &[Span]| lines.extend(render::wrap(spans, w));
    if !node.summary.is_empty() {
        para(&mut lines, &[Span::role(&node.summary, Role::Text)]);
    }
    if let Some(d) = node.detail.as_deref().filter(|d| !d.is_empty() && *d != node.summary) {
        lines.push(Line::new());
        para(&mut lines, &[Span::role(d, Role::Text)]);
    }
    if wants_layers(corpus, id) {
        if !lines.is_empty() {
            lines.push(Line::new());
        }
        match layers {
            Some(view) => {
                for l in super::layers::lines(view, tokens.encoding.as_str()) {
                    lines.push(render::truncate_line(&l, w));
                }
            }
            None => lines.push(Line::from_spans(vec![Span::role("Counting disclosure layers…", Role::Dim)])),
        }
    }
    if !node.children.is_empty() {
        if !lines.is_empty() {
            lines.push(Line::new());
        }
        let n = node.children.len();
        lines.push(Line::from_spans(vec![Span::role(format!("Contents ({n})"), Role::Heading(2))]));
        for c in node.children.iter().take(MAX_CHILDREN) {
            let child = corpus.node(*c);
            let tok = match tokens.total(*c) {
                Some(t) => format!("{} tok", human::short_count(t)),
                None => "… tok".into(),
            };
            let sizes = format!("  {} · {tok}", human::short_bytes(child.bytes));
            let mut l = Line::new();
            l.push(Span::role(format!("{} ", glyphs::kind(child.kind)), Role::ListMarker));
            l.push(Span::role(&child.title, Role::Text));
            if child.flags.is_copy() {
                l.push(Span::role(" dup", Role::Dim));
            }
            l.push(Span::role(sizes, Role::Dim));
            lines.push(render::truncate_line(&l, w));
        }
        if n > MAX_CHILDREN {
            lines.push(Line::from_spans(vec![Span::role(
                format!("… and {} more", n - MAX_CHILDREN),
                Role::Dim,
            )]));
        }
    }
    let warnings: Vec<String> = corpus
        .preorder(id)
        .into_iter()
        .flat_map(|n| corpus.node(n).warnings.iter().map(|w| w.to_string()))
        .take(500)
        .collect();
    if !warnings.is_empty() {
        lines.push(Line::new());
        lines.push(Line::from_spans(vec![Span::role(
            format!("Warnings ({})", warnings.len()),
            Role::Heading(2),
        )]));
        for warning in &warnings {
            lines.extend(render::wrap(
                &[Span::role("! ", Role::ListMarker), Span::role(warning, Role::Text)],
                w,
            ));
        }
    }
    let marker = Terms::new(terms);
    let mut match_lines = Vec::new();
    for (i, l) in lines.iter_mut().enumerate() {
        if marker.mark(&mut l.spans) {
            match_lines.push(i);
        }
    }
    let line_offsets = vec![0; lines.len()];
    Rendered { lines, line_offsets, match_lines, width, terms: terms.to_vec(), ..Rendered::default() }
}

/// Keep the preview on the current node at `width`×`height`: fetch or build the document,
/// reset or keep the scroll, and ask for highlighting of visible code blocks.
pub fn sync(app: &mut App, width: u16, height: usize) {
    let node = app.current_node();
    let terms = app.highlight_terms();
    let p = &mut app.preview;
    if p.terms != terms {
        p.terms = terms.clone();
        p.invalidate();
    }
    let Some(id) = node.filter(|_| width > 0) else {
        p.doc = None;
        p.node = node;
        return;
    };
    let changed_node = p.node != Some(id);
    let stale = p.doc.as_ref().is_none_or(|d| d.node != Some(id) || d.rendered.width != width);
    if changed_node || stale {
        let doc = match p.cache.get(&(id, width)) {
            Some(d) => Arc::clone(d),
            None if renders_on_worker(&app.corpus, id) => {
                let generation = p.generation;
                app.effects.push(Effect::Render { generation, node: id, width, terms: terms.clone() });
                Arc::new(placeholder(&app.corpus, id, width))
            }
            None => {
                let layers = app.layers.get(&id).cloned();
                if layers.is_none() && p.layers_requested.insert(id) && wants_layers(&app.corpus, id) {
                    app.effects.push(Effect::Layers { generation: app.data_gen, node: id });
                }
                let d = Arc::new(build(&app.corpus, &app.tokens, id, width, &terms, layers.as_deref()));
                if p.cache.len() >= 64 {
                    p.invalidate();
                }
                p.cache.insert((id, width), Arc::clone(&d));
                d
            }
        };
        p.doc = Some(doc);
        if changed_node {
            p.scroll = 0;
            p.match_ix = None;
        }
        p.node = Some(id);
    }
    let Some(doc) = p.doc.clone() else { return };
    if doc.pending {
        return;
    }
    if p.want_first_match {
        p.want_first_match = false;
        if let Some(first) = doc.matches().first() {
            p.scroll = first.saturating_sub(height / 3);
            p.match_ix = Some(0);
        }
    }
    p.scroll = p.scroll.min(doc.len().saturating_sub(height.max(1)));
    request_highlight(app, &doc, id, width, height);
}

/// Ask for highlighting of code blocks within a page above and below the window.
fn request_highlight(app: &mut App, doc: &Arc<PreviewDoc>, id: NodeId, width: u16, height: usize) {
    let lo = app.preview.scroll.saturating_sub(height);
    let hi = app.preview.scroll + 2 * height.max(1);
    let wanted: Vec<(usize, String, String)> = doc
        .rendered
        .code_blocks
        .iter()
        .enumerate()
        .filter(|(i, b)| {
            !doc.requested.contains(i)
                && b.first_line < hi
                && b.first_line + b.line_count > lo
                && !b.lang.is_empty()
        })
        .map(|(i, b)| (i, b.lang.clone(), b.code.clone()))
        .collect();
    if wanted.is_empty() {
        return;
    }
    let mut updated = (**doc).clone();
    updated.requested.extend(wanted.iter().map(|w| w.0));
    let updated = Arc::new(updated);
    app.preview.cache.insert((id, width), Arc::clone(&updated));
    app.preview.doc = Some(updated);
    app.effects.push(Effect::Highlight {
        generation: app.preview.generation,
        node: id,
        width,
        blocks: wanted,
    });
}

/// Store a document rendered by the worker and show it when it is the one awaited.
/// Results of an older cache generation are dropped.
pub fn apply_rendered(app: &mut App, generation: u64, doc: PreviewDoc) {
    let p = &mut app.preview;
    let (Some(node), width) = (doc.node, doc.rendered.width) else { return };
    if generation != p.generation {
        return;
    }
    let doc = Arc::new(doc);
    p.cache.insert((node, width), Arc::clone(&doc));
    if p.doc.as_ref().is_some_and(|d| d.pending && d.node == Some(node) && d.rendered.width == width) {
        p.doc = Some(doc);
    }
}

/// Swap highlighted code lines into the cached document of (`node`, `width`) and, when it
/// is the one shown, into the preview. Results of an older cache generation are dropped.
pub fn apply_highlight(
    app: &mut App,
    generation: u64,
    node: NodeId,
    width: u16,
    blocks: Vec<(usize, Vec<Line>)>,
) {
    let p = &mut app.preview;
    if generation != p.generation {
        return;
    }
    let Some(cached) = p.cache.get_mut(&(node, width)) else { return };
    let d = Arc::make_mut(cached);
    for (i, lines) in blocks {
        render::apply(&mut d.rendered, i, lines, width);
    }
    if p.doc.as_ref().is_some_and(|d| d.node == Some(node) && d.rendered.width == width) {
        p.doc = Some(Arc::clone(cached));
    }
}
