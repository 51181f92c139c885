//! The preview document: markdown of text nodes rendered by [`crate::render`] (search terms
//! marked), or a summary view for containers (description, children with sizes, warnings).
//! Built by `update` (small texts, never in a view) or on a worker (large ones); cached by
//! (node, width) for the current terms in [`crate::tui::state::preview::PreviewState`].

use crate::model::{Corpus, NodeId, NodeKind};
use crate::render::{self, Line, RenderOptions, Rendered, Role, Span, terms::Terms};
use crate::tokens::TokenTable;
use crate::tui::glyphs;
use crate::tui::state::preview::{LayerView, PreviewDoc, PreviewMode};
use crate::tui::view::layers::lines as layer_lines;
use crate::util::human;

use super::layers::wants_layers;

/// Longest text rendered in the preview, in bytes; the rest is announced, not dropped
/// silently.
pub const PREVIEW_MAX_BYTES: usize = 1 << 20;

/// Texts longer than this (bytes) are rendered on a worker, so moving the cursor onto a
/// large file never stalls a frame (a 365 KB file takes ~35 ms to render).
pub const SYNC_RENDER_MAX_BYTES: usize = 64 * 1024;

/// Most children listed in a container summary.
const MAX_CHILDREN: usize = 1000;

/// What a container's summary shows besides the corpus and the counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Container<'a> {
    /// The disclosure layers of a skill or root, shown in its summary when given.
    pub layers: Option<&'a LayerView>,
    /// The tree's sort of the node's children (`s`): its name (`tokens`, `bytes`, `name`)
    /// and the children in that order; `None` lists them in file order. The contents list
    /// follows the tree (docs/DESIGN.md §6).
    pub order: Option<(&'static str, &'a [NodeId])>,
}

/// Render the preview of `id` at `width` cells with `terms` marked.
///
/// `container`: what a container's summary adds (layers, the tree's sort of its contents).
/// `mode`: a text node's raw text or rendered markdown, long lines kept whole or wrapped.
pub fn build(
    corpus: &Corpus,
    tokens: &TokenTable,
    id: NodeId,
    width: u16,
    terms: &[String],
    container: Container<'_>,
    mode: PreviewMode,
) -> PreviewDoc {
    let node = corpus.node(id);
    let rendered = if node.span.is_some()
        && !matches!(node.kind, NodeKind::Root | NodeKind::Skill | NodeKind::Dir)
    {
        let text = corpus.text(id);
        if text.is_empty() && node.span.is_some_and(|s| s.end > s.start) {
            // A text read again from its file that no longer holds it (docs/DESIGN.md §8
            // "Memory"): say so instead of showing nothing.
            return note_doc(id, &changed_note(&node.path), width);
        }
        let cut = crate::render::wrap::floor_char_boundary(text, PREVIEW_MAX_BYTES);
        let opts = RenderOptions {
            width,
            terms: terms.to_vec(),
            show_frontmatter: true,
            long_code: mode.long_code(),
        };
        // A code file (JSON, YAML, a script) is shown as highlighted code, never reflowed as
        // prose (docs/DESIGN.md §6).
        let code = matches!(node.kind, NodeKind::File)
            .then(|| render::raw::code_language(&node.path))
            .flatten();
        let mut r = match code {
            _ if mode.raw => render::raw::render_raw(&text[..cut], &opts),
            Some(lang) => render::raw::render_code(&text[..cut], lang, &opts),
            None => render::render_markdown(&text[..cut], &opts),
        };
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
        summary(corpus, tokens, id, width, terms, container)
    };
    PreviewDoc {
        node: Some(id),
        rendered,
        pending: false,
    }
}

/// What the preview of a text says when its file no longer holds the text it was loaded
/// with.
fn changed_note(path: &str) -> String {
    let path = crate::util::sanitize::sanitize_line(path);
    format!(
        "{path} changed on disk or was removed since it was loaded; Ctrl-r reloads the roots from disk"
    )
}

/// A preview of `id` that is one dim note, wrapped at `width`.
fn note_doc(id: NodeId, note: &str, width: u16) -> PreviewDoc {
    let lines = render::wrap(&[Span::role(note, Role::Dim)], width as usize);
    let line_offsets = vec![0; lines.len()];
    PreviewDoc {
        node: Some(id),
        rendered: Rendered {
            lines,
            line_offsets,
            width,
            ..Rendered::default()
        },
        pending: false,
    }
}

/// Whether the preview of `id` is rendered on a worker (a large text).
pub fn renders_on_worker(corpus: &Corpus, id: NodeId) -> bool {
    let node = corpus.node(id);
    node.span.is_some()
        && !matches!(node.kind, NodeKind::Root | NodeKind::Skill | NodeKind::Dir)
        && corpus.text(id).len() > SYNC_RENDER_MAX_BYTES
}

/// The placeholder shown while the worker renders `id`.
pub fn placeholder(corpus: &Corpus, id: NodeId, width: u16) -> PreviewDoc {
    let note = format!(
        "Rendering {}…",
        human::short_bytes(corpus.text(id).len() as u64)
    );
    let lines = render::wrap(&[Span::role(note, Role::Dim)], width as usize);
    let line_offsets = vec![0; lines.len()];
    let rendered = Rendered {
        lines,
        line_offsets,
        width,
        ..Rendered::default()
    };
    PreviewDoc {
        node: Some(id),
        rendered,
        pending: true,
    }
}

/// Whether `summary` says nothing `detail` does not: the same words (whitespace folded),
/// or their start (a summary cut with `…`).
fn summary_repeats(summary: &str, detail: &str) -> bool {
    let words = |t: &str| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let s = words(summary.trim_end_matches('…'));
    let d = words(detail);
    match s.split_last() {
        None => true,
        // The cut may fall inside the last word.
        Some((last, head)) => {
            d.len() >= s.len()
                && d[..head.len()] == *head
                && d[head.len()].starts_with(last.as_str())
        }
    }
}

/// The summary view of a container: description, children with sizes, warnings.
fn summary(
    corpus: &Corpus,
    tokens: &TokenTable,
    id: NodeId,
    width: u16,
    terms: &[String],
    container: Container<'_>,
) -> Rendered {
    let w = width as usize;
    let mut lines = description_lines(corpus, id, width);
    if wants_layers(corpus, id) {
        if !lines.is_empty() {
            lines.push(Line::new());
        }
        push_layers(&mut lines, container.layers, tokens, w);
    }
    if !corpus.node(id).children.is_empty() {
        if !lines.is_empty() {
            lines.push(Line::new());
        }
        contents(corpus, tokens, id, container, w, &mut lines);
    }
    push_warnings(&mut lines, corpus, id, w);
    let match_lines = mark_terms(&mut lines, terms);
    let line_offsets = vec![0; lines.len()];
    Rendered {
        lines,
        line_offsets,
        match_lines,
        width,
        terms: terms.to_vec(),
        ..Rendered::default()
    }
}

/// Append the markdown `text` rendered at `width` cells (no front matter) to `lines`: a
/// description is markdown too, so `code` and links read as the preview renders them.
fn push_markdown(lines: &mut Vec<Line>, text: &str, width: u16) {
    let opts = RenderOptions {
        width,
        show_frontmatter: false,
        ..RenderOptions::default()
    };
    lines.extend(render::render_markdown(text, &opts).lines);
}

/// The summary's opening lines at `width` cells: the node's one-line summary, then its
/// description after a blank line. A description that the summary only repeats (a YAML
/// block scalar keeps its line breaks and final newline; a summary may be its cut start)
/// is shown once, whole.
fn description_lines(corpus: &Corpus, id: NodeId, width: u16) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let detail = corpus
        .node(id)
        .detail
        .as_deref()
        .filter(|d| !d.trim().is_empty());
    let own_summary = corpus.summary(id);
    let repeats = detail.is_some_and(|d| summary_repeats(own_summary, d));
    if !own_summary.is_empty() && !repeats {
        push_markdown(&mut lines, own_summary, width);
    }
    if let Some(d) = detail {
        if !lines.is_empty() {
            lines.push(Line::new());
        }
        push_markdown(&mut lines, d.trim_end(), width);
    }
    lines
}

/// Append the disclosure layers `layers` (token counts in `encoding` of `tokens`), each
/// line cut to `w` cells, to `lines`; a dim "counting" line while they are not known.
fn push_layers(lines: &mut Vec<Line>, layers: Option<&LayerView>, tokens: &TokenTable, w: usize) {
    match layers {
        Some(view) => {
            for l in layer_lines(view, tokens.encoding.as_str()) {
                lines.push(render::truncate_line(&l, w));
            }
        }
        None => lines.push(Line::from_spans(vec![Span::role(
            "Counting disclosure layers…",
            Role::Dim,
        )])),
    }
}

/// Append, after a blank line, a "Warnings (n)" heading and the warnings of `id`'s subtree
/// (at most 500, in preorder), each wrapped at `w` cells, to `lines`; nothing without any.
fn push_warnings(lines: &mut Vec<Line>, corpus: &Corpus, id: NodeId, w: usize) {
    let warnings: Vec<String> = corpus
        .preorder(id)
        .into_iter()
        .flat_map(|n| corpus.node(n).warnings.iter().map(|w| w.to_string()))
        .take(500)
        .collect();
    if warnings.is_empty() {
        return;
    }
    lines.push(Line::new());
    lines.push(Line::from_spans(vec![Span::role(
        format!("Warnings ({})", warnings.len()),
        Role::Heading(2),
    )]));
    for warning in &warnings {
        lines.extend(render::wrap(
            &[
                Span::role("! ", Role::ListMarker),
                Span::role(warning, Role::Text),
            ],
            w,
        ));
    }
}

/// Mark the search `terms` in `lines`; the indexes of the lines holding a match.
fn mark_terms(lines: &mut [Line], terms: &[String]) -> Vec<usize> {
    let marker = Terms::new(terms);
    let mut match_lines = Vec::new();
    for (i, l) in lines.iter_mut().enumerate() {
        if marker.mark(&mut l.spans) {
            match_lines.push(i);
        }
    }
    match_lines
}

/// The "Contents (n)" list of a container: per child its kind glyph, title, sizes (bytes and
/// tokens) and, on a dim line below, its one-line summary when it has one that is not its
/// title (docs/DESIGN.md §6); children in the tree's order when sorted.
fn contents(
    corpus: &Corpus,
    tokens: &TokenTable,
    id: NodeId,
    container: Container<'_>,
    w: usize,
    lines: &mut Vec<Line>,
) {
    let node = corpus.node(id);
    let n = node.children.len();
    let (children, sorted) = match container.order {
        Some((key, order)) if order.len() == n => (order, format!(" · sorted by {key}")),
        _ => (node.children.as_slice(), String::new()),
    };
    lines.push(Line::from_spans(vec![Span::role(
        format!("Contents ({n}){sorted}"),
        Role::Heading(2),
    )]));
    for c in children.iter().take(MAX_CHILDREN) {
        let child = corpus.node(*c);
        let tok = match tokens.total(*c) {
            Some(t) => format!("{} tok", human::short_count(t)),
            None => "… tok".into(),
        };
        let sizes = format!("  {} · {tok}", human::short_bytes(child.bytes));
        let mut l = Line::new();
        l.push(Span::role(
            format!("{} ", glyphs::kind(child.kind)),
            Role::ListMarker,
        ));
        l.push(Span::role(&child.title, Role::Text));
        // As in the tree: a skill named otherwise than its folder shows the folder, so
        // two skills of one name can be told apart.
        if child.kind == NodeKind::Skill
            && let Some(folder) = child.path.rsplit('/').next().filter(|f| !f.is_empty())
            && folder != child.title
        {
            l.push(Span::role(format!(" {folder}/"), Role::Dim));
        }
        if child.flags.is_copy() {
            l.push(Span::role(" dup", Role::Dim));
        }
        l.push(Span::role(sizes, Role::Dim));
        lines.push(render::truncate_line(&l, w));
        // Progressive exposure: what the child is about, under its name (docs/DESIGN.md §6).
        let about = corpus.summary(*c).trim();
        if !about.is_empty() && about != child.title {
            let l = Line::from_spans(vec![
                Span::role("  ", Role::Text),
                Span::role(about, Role::Dim),
            ]);
            lines.push(render::truncate_line(&l, w));
        }
    }
    if n > MAX_CHILDREN {
        lines.push(Line::from_spans(vec![Span::role(
            format!("… and {} more", n - MAX_CHILDREN),
            Role::Dim,
        )]));
    }
}

#[cfg(test)]
mod tests {
    use super::summary_repeats;

    #[test]
    fn a_folded_block_scalar_repeats_its_one_line_summary() {
        let detail = "Manage ADRs using git-adr,\na CLI tool that stores\nADRs in git notes.\n";
        assert!(summary_repeats(
            "Manage ADRs using git-adr, a CLI tool that stores ADRs in git notes.",
            detail
        ));
        assert!(summary_repeats("Manage ADRs using git-a…", detail));
        assert!(!summary_repeats("Architecture records", detail));
        assert!(!summary_repeats(
            "Manage ADRs using git-adr, a CLI tool that stores ADRs in git notes. More.",
            detail
        ));
    }
}
