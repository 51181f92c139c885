//! The only mutators of [`App`]: [`update`] applies one [`Action`], [`apply`](fn@apply) one
//! worker result. Each feature has its handler file; this file routes an action to the top
//! popup's handler (or the search box's, or the panes'), then the follow-ups ([`Msg`]) the
//! handler pushed, in order, to theirs, so handlers never call each other. Both finish with
//! [`sync`](fn@sync), which keeps the cursors visible and the preview in step with the
//! current node. Work for the workers is queued in [`App::effects`].
//!
//! This file alone holds the app whole (with the dispatch of `apply.rs`, for the worker
//! results that replace the corpus, the token counts or an index): it borrows the app apart
//! and hands each handler the state it changes, what it reads ([`ctx::Shared`]) and a
//! [`ctx::Ctx`] (the status line, the effect queue, the follow-up queue).

pub mod apply;
pub mod brief;
pub mod collisions;
pub mod ctx;
pub mod curate;
pub mod editor;
pub mod export;
pub mod help;
pub mod mouse;
pub mod normal;
pub mod outline;
pub mod preview;
pub mod prompt;
pub mod recipes;
pub mod reload;
pub mod results;
pub mod search;
pub mod sync;
pub mod text_jobs;
pub mod tree;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::frontmatter::LoadedFile;
use crate::model::{NodeId, Selection};
use crate::tui::effects::worker_msg::WorkerMsg;
use crate::tui::input::action::Action;
use crate::tui::state::app::{App, Listing, Progress, SavedEdit};
use crate::tui::state::curate::{Curate, PreviewKind};
use crate::tui::state::followup::Msg;
use crate::tui::state::popup::Popup;
use crate::tui::state::preview::LayerView;
use crate::tui::view::layout::{help_len, help_page, list_height};

use ctx::{Ctx, Panes, Shared, Total};
use text_jobs::Source;

/// Apply one user action.
pub fn update(app: &mut App, action: Action) {
    apply::merge_loaded(app);
    let recount = needs_recount(&action);
    route(app, action);
    if recount {
        self::recount(app);
    }
    drain(app);
    sync(app);
}

/// Apply one worker result (stale generations are dropped).
pub fn apply(app: &mut App, msg: WorkerMsg) {
    apply::apply(app, msg);
    apply::merge_loaded(app);
    drain(app);
    sync(app);
}

/// Whether `action` may change what a brief holds or its size (the selection, the exposure
/// levels, whether the query's hits join it, the budget, the format or the mode), so the
/// total beside the budget is counted again after it. Scrolling, help, preview and popup keys never recount. (Changes made through a
/// follow-up, such as loading a recipe or clearing the query, recount by [`Msg::Recount`].)
pub fn needs_recount(action: &Action) -> bool {
    matches!(
        action,
        Action::ToggleSelect
            | Action::SelectDown
            | Action::CycleExposure
            | Action::ToggleQuery
            | Action::CycleBudget
            | Action::CycleFormat
            | Action::CycleMode
    )
}

fn route(app: &mut App, action: Action) {
    let mode = app.mode();
    match action {
        Action::Resize(w, h) => app.size = (w, h),
        // Over a popup the wheel does what `j`/`k` do there (scroll the help, the brief or
        // the diff; move through the outline, the recipes or the editor's fields), where
        // the popup binds them; clicks stay on the popup and do nothing.
        Action::ScrollAt { down, .. } if !app.popups.is_empty() => {
            let step = if down {
                Action::MoveDown
            } else {
                Action::MoveUp
            };
            if app.keymap.first_key(mode, &step).is_some() {
                for _ in 0..mouse::WHEEL_LINES {
                    route_key(app, step.clone());
                }
            }
        }
        Action::ClickAt { .. } if !app.popups.is_empty() => {}
        Action::ScrollAt { col, row, down } => {
            let mut p = parts(app);
            mouse::mouse_scroll(&mut p.panes, &p.shared, col, row, down);
        }
        Action::ClickAt { col, row } => {
            let mut p = parts(app);
            mouse::mouse_click(&mut p.panes, &p.shared, col, row, &mut p.ctx);
        }
        Action::Quit => app.quit = true,
        Action::Redraw => app.redraw = true,
        // A deadline, not a key: it refines the search whatever popup is open.
        Action::TypingPaused => {
            let mut p = parts(app);
            search::typing_paused(p.panes.search, &p.shared, &mut p.ctx);
        }
        other => route_key(app, other),
    }
}

/// The app borrowed apart for the handlers: each gets the pieces it changes, the
/// [`Shared`] data it reads and the [`Ctx`].
struct Parts<'a> {
    /// Status line, effects and follow-ups.
    ctx: Ctx<'a>,
    /// What handlers read.
    shared: Shared<'a>,
    /// Tree, search, preview and focus.
    panes: Panes<'a>,
    /// Exposure levels, budget, brief settings and recipes.
    curate: &'a mut Curate,
    /// The user's selection.
    selection: &'a mut Selection,
    /// The popups open over the panes.
    popups: &'a mut Vec<Popup>,
    /// Whether a copy is running.
    copying: &'a mut bool,
    /// The number beside the budget.
    total: Total<'a>,
    /// Warnings shown in the status line count.
    warnings: &'a mut Vec<String>,
    /// The last save of this session (`u` undoes it).
    last_save: &'a mut Option<SavedEdit>,
    /// Background progress.
    progress: &'a mut Progress,
    /// Remote roots to reload once loading is done.
    remote_reloads: &'a mut Vec<usize>,
    /// Disclosure layers computed so far.
    layers: &'a mut HashMap<NodeId, Arc<LayerView>>,
    /// The Claude Code listing of the corpus.
    listing: &'a mut Option<Listing>,
    /// Whether the status line said how to install a re-rank model.
    tier_hinted: &'a mut bool,
}

/// Borrow `app` apart into [`Parts`] (the one place that splits it).
fn parts(app: &mut App) -> Parts<'_> {
    let App {
        corpus,
        data_gen,
        tokens,
        selection,
        selection_tokens,
        brief_left_out,
        count_gen,
        index,
        keymap,
        settings,
        theme,
        popups,
        focus,
        size,
        tree,
        search,
        preview,
        status,
        warnings,
        copying,
        effects,
        followups,
        last_save,
        progress,
        remote_reloads,
        layers,
        listing,
        tier_hinted,
        specs,
        load_opts,
        curate,
        ..
    } = app;
    Parts {
        ctx: Ctx {
            status,
            effects,
            followups,
        },
        shared: Shared {
            corpus,
            data_gen: *data_gen,
            tokens,
            index: index.as_ref(),
            keymap,
            settings,
            theme,
            specs,
            load_opts,
            size: *size,
        },
        panes: Panes {
            tree,
            search,
            preview,
            focus,
        },
        curate,
        selection,
        popups,
        copying,
        total: Total {
            tokens: selection_tokens,
            left_out: brief_left_out,
            generation: count_gen,
        },
        warnings,
        last_save,
        progress,
        remote_reloads,
        layers,
        listing,
        tier_hinted,
    }
}

/// Keep cursors visible and the preview on the current node, after every update
/// ([`sync::sync`]).
pub fn sync(app: &mut App) {
    let max_help = help_len(app).saturating_sub(help_page(app));
    let loaded = app.progress.loading.is_none();
    let mut p = parts(app);
    let mut views = sync::Views {
        listing: p.listing,
        layers: p.layers,
        loaded,
        popups: p.popups,
        max_help,
    };
    sync::sync(&mut p.panes, &p.shared, &mut views, &mut p.ctx);
}

/// After `$EDITOR` ran on `path` (`outcome`: its error for the status line): `u` can undo
/// the change, and root `root` is reloaded ([`editor::after_external`]; `before` is what
/// [`editor::before_external`] read).
pub fn after_external(
    app: &mut App,
    path: &Path,
    root: Option<usize>,
    before: Option<LoadedFile>,
    outcome: Result<(), String>,
) {
    let mut p = parts(app);
    let run = editor::ExternalRun {
        path,
        root,
        before,
        outcome,
    };
    editor::after_external(run, p.last_save, &p.shared, &mut p.ctx);
}

/// `e` (or `Enter` in the collision map): open the form editor on the current node's
/// SKILL.md ([`editor::open`]).
fn open_editor(app: &mut App) {
    let mut p = parts(app);
    let cur = p.panes.current_node();
    if let Some(ed) = editor::open(&p.shared, cur, &mut p.ctx) {
        p.popups.push(Popup::Editor(ed));
    }
}

/// A key goes to the top popup (taken off the stack; its handler puts it back unless the key
/// closes it), else to the search box or the panes.
fn route_key(app: &mut App, action: Action) {
    let Some(top) = app.popups.pop() else {
        if app.search.active {
            let mut p = parts(app);
            let with_query = p.curate.with_query;
            search::search_action(&mut p.panes, &p.shared, with_query, action, &mut p.ctx);
        } else {
            route_normal(app, action);
        }
        return;
    };
    let page = list_height(app.size.1);
    match (top, action) {
        (Popup::Help { scroll }, a) => {
            if let Some(scroll) = help::help_action(scroll, a, help_page(app)) {
                app.popups.push(Popup::Help { scroll });
            }
        }
        (Popup::Outline(o), a) => {
            let mut p = parts(app);
            if let Some(o) = outline::action(o, a, page, p.shared.corpus, &mut p.panes, &mut p.ctx)
            {
                p.popups.push(Popup::Outline(o));
            }
        }
        (Popup::Collisions(c), a) => {
            let mut p = parts(app);
            match collisions::action(c, a, page, p.shared.corpus, &mut p.panes) {
                collisions::After::Keep(c) => p.popups.push(Popup::Collisions(c)),
                collisions::After::Close => {}
                collisions::After::Edit(note) => {
                    open_editor(app);
                    if let Some(Popup::Editor(ed)) = app.popups.last_mut() {
                        ed.message = Some(note);
                    }
                }
            }
        }
        (top @ Popup::Brief(_), Action::CycleBudget) => {
            app.popups.push(top);
            let mut p = parts(app);
            curate::cycle_budget(p.curate, &mut p.ctx);
        }
        (top @ Popup::Brief(_), Action::CustomBudget) => {
            app.popups.push(top);
            app.popups
                .push(prompt::open_custom_budget(app.curate.budget));
        }
        (Popup::Brief(popup), a) => brief_key(app, popup, a),
        (Popup::Recipes(list), a) => {
            let mut p = parts(app);
            let mut target = recipes::Target {
                selection: &mut *p.selection,
                curate: &mut *p.curate,
                warnings: &mut *p.warnings,
            };
            if let Some(list) =
                recipes::list_action(list, a, p.shared.corpus, &mut target, &mut p.ctx)
            {
                p.popups.push(Popup::Recipes(list));
            }
        }
        (Popup::Input(input), a) => {
            let mut p = parts(app);
            if let Some(input) = prompt::input_action(input, a, p.curate, &mut p.ctx) {
                p.popups.push(Popup::Input(input));
            }
        }
        (Popup::Ask(ask), a) => {
            let mut p = parts(app);
            if let Some(ask) = prompt::ask_action(ask, a, p.copying, &p.shared, &mut p.ctx) {
                p.popups.push(Popup::Ask(ask));
            }
        }
        (Popup::Editor(ed), a) => editor_key(app, ed, a),
    }
}

/// A key of the editor `ed`, taken off the stack ([`editor::editor_action`]).
fn editor_key(app: &mut App, ed: Box<crate::tui::state::editor::Editor>, action: Action) {
    let mut p = parts(app);
    let mut s = editor::Saving {
        last_save: &mut *p.last_save,
        shared: &p.shared,
        ctx: &mut p.ctx,
    };
    if let Some(ed) = editor::editor_action(ed, action, &mut s) {
        p.popups.push(Popup::Editor(ed));
    }
}

/// A key of the brief preview popup `popup`, taken off the stack
/// ([`brief::preview_action`]).
fn brief_key(app: &mut App, popup: crate::tui::state::curate::PreviewPopup, action: Action) {
    let mut p = parts(app);
    let src = Source::new(&p.shared, &p.panes, p.selection);
    let mut c = brief::Curating {
        curate: &mut *p.curate,
        copying: &mut *p.copying,
    };
    if let Some(popup) = brief::preview_action(popup, action, &src, &mut c, &mut p.ctx) {
        p.popups.push(Popup::Brief(popup));
    }
}

/// `y` and `Y`: copy a brief or the rendered skill(s) ([`curate::copy_brief`],
/// [`curate::copy_skill`]).
fn copy(app: &mut App, action: &Action) {
    let mut p = parts(app);
    let src = Source::new(&p.shared, &p.panes, p.selection);
    if *action == Action::CopyBrief {
        curate::copy_brief(&src, p.curate, p.copying, &mut p.ctx);
    } else {
        curate::copy_skill(&src, p.curate, p.copying, &mut p.ctx);
    }
}

/// Normal mode: the keys that start another feature go to its handler; the rest move
/// through the tree, the results and the preview.
fn route_normal(app: &mut App, action: Action) {
    match action {
        Action::ToggleSelect => toggle_select(app),
        Action::SelectDown => {
            toggle_select(app);
            let mut p = parts(app);
            normal::normal_action(&mut p.panes, &p.shared, Action::MoveDown, &mut p.ctx);
        }
        Action::CopyBrief | Action::CopySkill => copy(app, &action),
        Action::CycleExposure => {
            let mut p = parts(app);
            let cur = p.panes.current_node();
            curate::cycle_exposure(p.curate, p.shared.corpus, cur, &mut p.ctx);
        }
        Action::CycleBudget => {
            let mut p = parts(app);
            curate::cycle_budget(p.curate, &mut p.ctx);
        }
        Action::CustomBudget => {
            let popup = prompt::open_custom_budget(app.curate.budget);
            app.popups.push(popup);
        }
        Action::BriefPreview => open_preview(app, PreviewKind::Brief),
        Action::Recipes => {
            let popup = recipes::open(&app.curate);
            app.popups.push(popup);
        }
        Action::Export => {
            let mut p = parts(app);
            export::start(&p.shared, p.selection, p.curate, &mut p.ctx);
        }
        Action::AgentListing => open_preview(app, PreviewKind::Agent),
        Action::Outline | Action::Collisions => open_list(app, &action),
        Action::SearchOpen => search::open(&mut app.search, &mut app.focus),
        Action::EditOpen => open_editor(app),
        Action::EditExternal => {
            let mut p = parts(app);
            let cur = p.panes.current_node();
            editor::open_external(p.shared.corpus, cur, &mut p.ctx);
        }
        Action::UndoSave => {
            let mut p = parts(app);
            editor::undo(p.last_save, &p.shared, &mut p.ctx);
        }
        Action::CollapseAll | Action::ExpandLevel | Action::GoParent | Action::SortFolder
            if !app.search.showing =>
        {
            let mut p = parts(app);
            let panes = &mut p.panes;
            tree::tree_action(panes.tree, panes.preview, &p.shared, &action, &mut p.ctx);
        }
        a @ (Action::ScrollLeft
        | Action::ScrollRight
        | Action::ToggleWrap
        | Action::ToggleWide
        | Action::PreviewRaw) => {
            let mut p = parts(app);
            preview::preview_action(&mut p.panes, &p.shared, &a, &mut p.ctx);
        }
        Action::Help => app.popups.push(Popup::Help { scroll: 0 }),
        other => {
            let mut p = parts(app);
            normal::normal_action(&mut p.panes, &p.shared, other, &mut p.ctx);
        }
    }
}

/// `o` or `C`: open the outline ([`outline::open`]) or the collision map
/// ([`collisions::open`]).
fn open_list(app: &mut App, action: &Action) {
    let mut p = parts(app);
    let popup = if *action == Action::Outline {
        let cur = p.panes.current_node();
        outline::open(p.shared.corpus, cur, &mut p.ctx).map(Popup::Outline)
    } else {
        collisions::open(p.shared.corpus, &mut p.ctx).map(Popup::Collisions)
    };
    p.popups.extend(popup);
}

/// Space: select or deselect the current node ([`curate::toggle_select`]).
fn toggle_select(app: &mut App) {
    let mut p = parts(app);
    let cur = p.panes.current_node();
    curate::toggle_select(p.selection, p.shared.corpus, cur, &mut p.ctx);
}

/// Open the preview popup of `kind` ([`brief::open_preview`]).
fn open_preview(app: &mut App, kind: PreviewKind) {
    let mut p = parts(app);
    let src = Source::new(&p.shared, &p.panes, p.selection);
    let popup = brief::open_preview(&src, p.curate, kind, &mut p.ctx);
    p.popups.push(popup);
}

/// Count the number beside the budget again ([`curate::recount`]).
fn recount(app: &mut App) {
    let mut p = parts(app);
    let src = Source::new(&p.shared, &p.panes, p.selection);
    curate::recount(&src, p.curate, &mut p.total, &mut p.ctx);
}

/// Route the follow-ups until none is left (a follow-up may push more; they run after the
/// ones already queued).
fn drain(app: &mut App) {
    while !app.followups.is_empty() {
        for msg in std::mem::take(&mut app.followups) {
            follow_up(app, msg);
        }
    }
}

fn follow_up(app: &mut App, msg: Msg) {
    match msg {
        Msg::Recount => recount(app),
        Msg::RefreshPreview => {
            let mut p = parts(app);
            let src = Source::new(&p.shared, &p.panes, p.selection);
            brief::refresh_preview(brief::find(p.popups), &src, p.curate, &mut p.ctx);
        }
        Msg::SetQuery(q) => {
            let mut p = parts(app);
            let with_query = p.curate.with_query;
            search::set_query(p.panes.search, &p.shared, with_query, q, &mut p.ctx);
        }
        Msg::JumpToHit => {
            let mut p = parts(app);
            search::jump_to_hit(&mut p.panes, &p.shared, &mut p.ctx);
        }
        Msg::OpenSearch => search::open(&mut app.search, &mut app.focus),
        Msg::OpenInput(purpose, text) => app.popups.push(prompt::open_input(purpose, text)),
        Msg::Ask(q) => app.popups.push(prompt::ask(q)),
        Msg::SetBudget(b) => {
            let mut p = parts(app);
            curate::set_budget(p.curate, b, &mut p.ctx);
        }
        Msg::LoadRecipe(path) => {
            let mut p = parts(app);
            let mut target = recipes::Target {
                selection: &mut *p.selection,
                curate: &mut *p.curate,
                warnings: &mut *p.warnings,
            };
            recipes::load_path(&path, p.shared.corpus, &mut target, &mut p.ctx);
        }
        Msg::SaveRecipe(name) => {
            let mut p = parts(app);
            let (corpus, search) = (p.shared.corpus, &*p.panes.search);
            let recipe = recipes::capture(&name, corpus, p.selection, search, p.curate);
            let list = recipes::top_list(p.popups);
            recipes::save_named(&name, recipe, p.curate, list, &mut p.ctx);
        }
        Msg::DeleteRecipe(entry) => {
            let mut p = parts(app);
            let list = recipes::top_list(p.popups);
            recipes::delete(&entry, p.curate, list, &mut p.ctx);
        }
        Msg::ExportDescribe(dir) => {
            let mut p = parts(app);
            export::ask_description(dir, &p.shared, p.selection, p.curate, &mut p.ctx);
        }
        Msg::ExportTo { dir, force } => {
            let mut p = parts(app);
            export::export_to(&dir, force, &p.shared, p.selection, p.curate, &mut p.ctx);
        }
        Msg::PreviewSideways(right) => {
            let action = if right {
                Action::ScrollRight
            } else {
                Action::ScrollLeft
            };
            let mut p = parts(app);
            preview::preview_action(&mut p.panes, &p.shared, &action, &mut p.ctx);
        }
        Msg::SelectionStatus(label) => {
            app.status = format!("{label} · {}", app.selection_summary());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_keys_that_change_the_brief_recount() {
        for a in [
            Action::ToggleSelect,
            Action::CycleExposure,
            Action::ToggleQuery,
            Action::CycleBudget,
            Action::CycleFormat,
            Action::CycleMode,
        ] {
            assert!(needs_recount(&a), "{a:?}");
        }
        let quiet = [
            Action::MoveDown,
            Action::PageDown,
            Action::HalfPageUp,
            Action::Top,
            Action::Help,
            Action::Escape,
            Action::BriefPreview,
            Action::CopyText,
            Action::NextMatch,
            Action::ScrollAt {
                col: 0,
                row: 0,
                down: true,
            },
            Action::Resize(80, 24),
        ];
        for a in quiet {
            assert!(!needs_recount(&a), "{a:?}");
        }
    }
}
