//! Keeping the view in step after every update: cursors visible, the preview on the current
//! node (documents fetched, built or asked of a worker, code blocks highlighted near the
//! window), the brief preview wrapped at its width and the help scroll in range.

use std::sync::Arc;

use crate::model::NodeId;
use crate::tui::effect::Effect;
use crate::tui::effects::layers::wants_layers;
use crate::tui::effects::preview_doc::{Container, build, placeholder, renders_on_worker};
use crate::tui::state::app::App;
use crate::tui::state::popup::Popup;
use crate::tui::state::preview::{PreviewDoc, PreviewState};
use crate::tui::state::results;
use crate::tui::state::tree::SortKey;
use crate::tui::view::layout::{areas, help_len, help_page};

use super::brief;

/// Keep cursors visible and the preview on the current node.
pub fn sync(app: &mut App) {
    sync_listing(app);
    let a = areas(app);
    app.tree.clamp();
    app.tree.scroll_to_cursor(a.left.height as usize);
    let h = a.left.height as usize;
    if h > 0 && !app.search.view.is_empty() {
        let row = results::row_of_hit(&app.search.view, app.search.selected);
        // Keep the group header above the first hit visible.
        let top = if app.search.selected == 0 { 0 } else { row };
        if top < app.search.offset {
            app.search.offset = top;
        } else if row >= app.search.offset + h {
            app.search.offset = row + 1 - h;
        }
    } else {
        app.search.offset = 0;
    }
    sync_preview(app, a.preview.width, a.preview.height as usize);
    brief::sync(&mut app.popups, app.size);
    let max_help = help_len(app).saturating_sub(help_page(app));
    if let Some(Popup::Help { scroll }) = app.popups.last_mut() {
        *scroll = (*scroll).min(max_help);
    }
}

/// Recompute the Claude Code listing (its client profile) when the corpus changed.
fn sync_listing(app: &mut App) {
    let key = (
        app.data_gen,
        app.corpus.len(),
        app.progress.loading.is_none(),
    );
    if app.listing.as_ref().is_some_and(|(k, _)| *k == key) {
        return;
    }
    let opts = crate::skill::clients::ClientOptions {
        settings: app.settings.agent.clone(),
        context_tokens: None,
    };
    let b = crate::skill::clients::client_listing(
        &app.corpus,
        crate::skill::clients::Client::ClaudeCode,
        &opts,
    )
    .to_corpus_budget();
    app.listing = Some((key, Arc::new(b)));
}

/// Keep the preview on the current node at `width`×`height`: fetch or build the document,
/// reset or keep the scroll, and ask for highlighting of visible code blocks.
fn sync_preview(app: &mut App, width: u16, height: usize) {
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
    show_doc(app, id, width, &terms);
    let Some(doc) = app.preview.doc.clone() else {
        return;
    };
    if doc.pending {
        return;
    }
    place_window(&mut app.preview, &doc, width, height);
    request_highlight(app, &doc, id, width, height);
}

/// Show node `id`'s document at `width` when the preview shows another (or none): from
/// the cache, rendered on a worker (a placeholder meanwhile), or built here; a new node
/// starts at the top.
fn show_doc(app: &mut App, id: NodeId, width: u16, terms: &[String]) {
    let p = &app.preview;
    let changed_node = p.node != Some(id);
    let stale = p
        .doc
        .as_ref()
        .is_none_or(|d| d.node != Some(id) || d.rendered.width != width);
    if !(changed_node || stale) {
        return;
    }
    let doc = match app.preview.cache.get(&(id, width)) {
        Some(d) => Arc::clone(d),
        None if renders_on_worker(&app.corpus, id) => {
            let p = &app.preview;
            app.effects.push(Effect::Render {
                generation: p.generation,
                node: id,
                width,
                terms: terms.to_vec(),
                mode: p.mode,
            });
            Arc::new(placeholder(&app.corpus, id, width))
        }
        None => build_doc(app, id, width, terms),
    };
    let p = &mut app.preview;
    p.doc = Some(doc);
    if changed_node {
        p.scroll = 0;
        p.hscroll = 0;
        p.match_ix = None;
    }
    p.node = Some(id);
}

/// Build node `id`'s document at `width` here (asking once for its layers when it shows
/// them) and keep it in the cache (emptied at 64 documents).
fn build_doc(app: &mut App, id: NodeId, width: u16, terms: &[String]) -> Arc<PreviewDoc> {
    let layers = app.layers.get(&id).cloned();
    if layers.is_none() && app.preview.layers_requested.insert(id) && wants_layers(&app.corpus, id)
    {
        app.effects.push(Effect::Layers {
            generation: app.data_gen,
            node: id,
            encoding: app.encoding(),
            profile: app.settings.agent.clone(),
            show_budget: app.load_opts.agent.as_deref() == Some("claude-code"),
        });
    }
    let sort = app.tree.sort_of(&app.corpus, id);
    let container = Container {
        layers: layers.as_deref(),
        order: sort
            .as_ref()
            .map(|(key, kids)| (SortKey::label(Some(*key)), kids.as_slice())),
    };
    let d = Arc::new(build(
        &app.corpus,
        &app.tokens,
        id,
        width,
        terms,
        container,
        app.preview.mode,
    ));
    let p = &mut app.preview;
    if p.cache.len() >= 64 {
        p.invalidate();
    }
    p.store((id, width), Arc::clone(&d));
    d
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

/// Ask for highlighting of code blocks within a page above and below the window.
fn request_highlight(app: &mut App, doc: &Arc<PreviewDoc>, id: NodeId, width: u16, height: usize) {
    let asked = app.preview.requested.get(&(id, width));
    let lo = app.preview.scroll.saturating_sub(height);
    let hi = app.preview.scroll + 2 * height.max(1);
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
    app.preview
        .requested
        .entry((id, width))
        .or_default()
        .extend(wanted.iter().map(|w| w.0));
    app.effects.push(Effect::Highlight {
        generation: app.preview.generation,
        node: id,
        width,
        blocks: wanted,
        theme: app.theme.md.syntax(),
    });
}
