//! Keeping the view in step after every update: cursors visible, the preview on the current
//! node (documents fetched, built or asked of a worker, code blocks highlighted near the
//! window), the brief preview wrapped at its width and the help scroll in range.

use std::collections::HashMap;
use std::sync::Arc;

use crate::model::NodeId;
use crate::tui::effect::Effect;
use crate::tui::effects::layers::wants_layers;
use crate::tui::effects::preview_doc::{Container, build, placeholder, renders_on_worker};
use crate::tui::state::app::Listing;
use crate::tui::state::popup::Popup;
use crate::tui::state::preview::{LayerView, PreviewDoc, PreviewState};
use crate::tui::state::results;
use crate::tui::state::tree::SortKey;

use super::brief;
use super::ctx::{Ctx, Panes, Shared};

/// What `sync` keeps in step besides the panes, and what it reads for that.
pub struct Views<'a> {
    /// The Claude Code listing of the corpus, with the key it was computed for.
    pub listing: &'a mut Option<Listing>,
    /// Disclosure layers computed so far.
    pub layers: &'a HashMap<NodeId, Arc<LayerView>>,
    /// Whether every root is loaded (scopes are resolved then).
    pub loaded: bool,
    /// The popups (the brief preview is wrapped, the help scroll kept in range).
    pub popups: &'a mut Vec<Popup>,
    /// The largest scroll of the help popup (its lines less one page).
    pub max_help: usize,
}

/// Keep cursors visible and the preview on the current node.
pub fn sync(panes: &mut Panes, shared: &Shared, views: &mut Views, ctx: &mut Ctx) {
    sync_listing(views.listing, shared, views.loaded);
    let a = panes.areas(shared);
    panes.tree.clamp();
    panes.tree.scroll_to_cursor(a.left.height as usize);
    let h = a.left.height as usize;
    let search = &mut *panes.search;
    if h > 0 && !search.view.is_empty() {
        let row = results::row_of_hit(&search.view, search.selected);
        // Keep the group header above the first hit visible.
        let top = if search.selected == 0 { 0 } else { row };
        if top < search.offset {
            search.offset = top;
        } else if row >= search.offset + h {
            search.offset = row + 1 - h;
        }
    } else {
        search.offset = 0;
    }
    let area = (a.preview.width, a.preview.height as usize);
    sync_preview(panes, shared, views.layers, area, ctx);
    brief::sync(views.popups, shared.size);
    if let Some(Popup::Help { scroll }) = views.popups.last_mut() {
        *scroll = (*scroll).min(views.max_help);
    }
}

/// Recompute the Claude Code listing (its client profile) when the corpus changed
/// (`loaded`: every root is loaded).
fn sync_listing(listing: &mut Option<Listing>, shared: &Shared, loaded: bool) {
    let key = (shared.data_gen, shared.corpus.len(), loaded);
    if listing.as_ref().is_some_and(|(k, _)| *k == key) {
        return;
    }
    let opts = crate::skill::clients::ClientOptions {
        settings: shared.settings.agent.clone(),
        context_tokens: None,
    };
    let b = crate::skill::clients::client_listing(
        shared.corpus,
        crate::skill::clients::Client::ClaudeCode,
        &opts,
    )
    .to_corpus_budget();
    *listing = Some((key, Arc::new(b)));
}

/// Keep the preview on the current node in an area of `(width, height)`: fetch or build
/// the document, reset or keep the scroll, and ask for highlighting of visible code blocks.
fn sync_preview(
    panes: &mut Panes,
    shared: &Shared,
    layers: &HashMap<NodeId, Arc<LayerView>>,
    (width, height): (u16, usize),
    ctx: &mut Ctx,
) {
    let node = panes.current_node();
    let terms = panes.search.highlight_terms();
    let p = &mut *panes.preview;
    if p.terms != terms {
        p.terms = terms.clone();
        p.invalidate();
    }
    let Some(id) = node.filter(|_| width > 0) else {
        p.doc = None;
        p.node = node;
        return;
    };
    let doc = Doc {
        id,
        width,
        terms: &terms,
    };
    show_doc(panes, shared, layers, &doc, ctx);
    let preview = &mut *panes.preview;
    let Some(shown) = preview.doc.clone() else {
        return;
    };
    if shown.pending {
        return;
    }
    place_window(preview, &shown, width, height);
    request_highlight(preview, shared, &shown, (id, width, height), ctx);
}

/// The document the preview shows: node `id` at `width` cells, `terms` marked.
struct Doc<'t> {
    id: NodeId,
    width: u16,
    terms: &'t [String],
}

/// Show the document `d` when the preview shows another (or none): from the cache,
/// rendered on a worker (a placeholder meanwhile), or built here; a new node starts at the
/// top.
fn show_doc(
    panes: &mut Panes,
    shared: &Shared,
    layers: &HashMap<NodeId, Arc<LayerView>>,
    d: &Doc,
    ctx: &mut Ctx,
) {
    let (id, width) = (d.id, d.width);
    let p = &*panes.preview;
    let changed_node = p.node != Some(id);
    let stale = p
        .doc
        .as_ref()
        .is_none_or(|d| d.node != Some(id) || d.rendered.width != width);
    if !(changed_node || stale) {
        return;
    }
    let doc = match p.cache.get(&(id, width)) {
        Some(d) => Arc::clone(d),
        None if renders_on_worker(shared.corpus, id) => {
            ctx.queue(Effect::Render {
                generation: p.generation,
                node: id,
                width,
                terms: d.terms.to_vec(),
                mode: p.mode,
            });
            Arc::new(placeholder(shared.corpus, id, width))
        }
        None => build_doc(panes, shared, layers, d, ctx),
    };
    let p = &mut *panes.preview;
    p.doc = Some(doc);
    if changed_node {
        p.scroll = 0;
        p.hscroll = 0;
        p.match_ix = None;
    }
    p.node = Some(id);
}

/// Build the document `d` here (asking once for its layers when it shows them) and keep it
/// in the cache (emptied at 64 documents).
fn build_doc(
    panes: &mut Panes,
    shared: &Shared,
    layers: &HashMap<NodeId, Arc<LayerView>>,
    d: &Doc,
    ctx: &mut Ctx,
) -> Arc<PreviewDoc> {
    let (id, width) = (d.id, d.width);
    let corpus = shared.corpus;
    let layers = layers.get(&id).cloned();
    let p = &mut *panes.preview;
    if layers.is_none() && p.layers_requested.insert(id) && wants_layers(corpus, id) {
        ctx.queue(Effect::Layers {
            generation: shared.data_gen,
            node: id,
            encoding: shared.encoding(),
            profile: shared.settings.agent.clone(),
            show_budget: shared.load_opts.agent.as_deref() == Some("claude-code"),
        });
    }
    let sort = panes.tree.sort_of(corpus, id);
    let container = Container {
        layers: layers.as_deref(),
        order: sort
            .as_ref()
            .map(|(key, kids)| (SortKey::label(Some(*key)), kids.as_slice())),
    };
    let doc = Arc::new(build(
        corpus,
        shared.tokens,
        id,
        width,
        d.terms,
        container,
        p.mode,
    ));
    if p.cache.len() >= 64 {
        p.invalidate();
    }
    p.store((id, width), Arc::clone(&doc));
    doc
}

/// The window over `doc`: on its first match when one is wanted, then kept within the
/// document (`height` rows) and, sideways, within its widest code row (`width` cells).
fn place_window(p: &mut PreviewState, doc: &PreviewDoc, width: u16, height: usize) {
    if p.want_first_match {
        p.want_first_match = false;
        if let Some(first) = doc.matches().first() {
            p.scroll = first.saturating_sub(height / 3);
            p.match_ix = Some(0);
            // A match far along a code row: scroll sideways to it.
            p.hscroll = doc
                .rendered
                .hscroll_for_match(*first, usize::from(width))
                .unwrap_or(0);
        }
    }
    p.scroll = p.scroll.min(doc.len().saturating_sub(height.max(1)));
    // Sideways no further than the widest code row still shows its last cells.
    let widest = doc.rendered.widest_code_row();
    p.hscroll = p.hscroll.min(widest.saturating_sub(usize::from(width)));
}

/// Ask for highlighting of the code blocks of `doc` (node `id` at `width` cells, `height`
/// rows shown) within a page above and below the window.
fn request_highlight(
    p: &mut PreviewState,
    shared: &Shared,
    doc: &Arc<PreviewDoc>,
    (id, width, height): (NodeId, u16, usize),
    ctx: &mut Ctx,
) {
    let asked = p.requested.get(&(id, width));
    let lo = p.scroll.saturating_sub(height);
    let hi = p.scroll + 2 * height.max(1);
    let wanted: Vec<(usize, String, String)> = doc
        .rendered
        .code_blocks
        .iter()
        .enumerate()
        .filter(|(i, b)| {
            !asked.is_some_and(|a| a.contains(i))
                && b.first_line < hi
                && b.first_line + b.row_count() > lo
                && !b.lang.is_empty()
        })
        .map(|(i, b)| (i, b.lang.clone(), b.code.clone()))
        .collect();
    if wanted.is_empty() {
        return;
    }
    p.requested
        .entry((id, width))
        .or_default()
        .extend(wanted.iter().map(|w| w.0));
    ctx.queue(Effect::Highlight {
        generation: p.generation,
        node: id,
        width,
        blocks: wanted,
        theme: shared.theme.md.syntax(),
    });
}
