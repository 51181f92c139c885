//! The only mutators of [`App`]: [`update`] applies one [`Action`], [`apply`](fn@apply) one
//! worker result. Each feature has its handler file; this file routes an action to the top
//! popup's handler (or the search box's, or the panes'), then the follow-ups ([`Msg`]) the
//! handler pushed, in order, to theirs, so handlers never call each other. Both finish with
//! [`sync`](fn@sync), which keeps the cursors visible and the preview in step with the
//! current node. Work for the workers is queued in [`App::effects`].

pub mod apply;
pub mod brief;
pub mod collisions;
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

pub use sync::sync;

use crate::tui::effects::worker_msg::WorkerMsg;
use crate::tui::input::action::Action;
use crate::tui::state::app::App;
use crate::tui::state::curate::PreviewKind;
use crate::tui::state::followup::Msg;
use crate::tui::state::popup::Popup;

/// Apply one user action.
pub fn update(app: &mut App, action: Action) {
    apply::merge_loaded(app);
    let recount = needs_recount(&action);
    route(app, action);
    if recount {
        curate::recount(app);
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
        Action::ScrollAt { col, row, down } => mouse::mouse_scroll(app, col, row, down),
        Action::ClickAt { col, row } => mouse::mouse_click(app, col, row),
        Action::Quit => app.quit = true,
        Action::Redraw => app.redraw = true,
        // A deadline, not a key: it refines the search whatever popup is open.
        Action::TypingPaused => search::typing_paused(app),
        other => route_key(app, other),
    }
}

/// A key goes to the top popup (taken off the stack; its handler puts it back unless the key
/// closes it), else to the search box or the panes.
fn route_key(app: &mut App, action: Action) {
    let Some(top) = app.popups.pop() else {
        if app.search.active {
            search::search_action(app, action);
        } else {
            route_normal(app, action);
        }
        return;
    };
    match (top, action) {
        (Popup::Help { scroll }, a) => help::help_action(app, scroll, a),
        (Popup::Outline(o), a) => outline::action(app, o, a),
        (Popup::Collisions(c), a) => collisions::action(app, c, a),
        (top @ Popup::Brief(_), Action::CycleBudget) => {
            app.popups.push(top);
            curate::cycle_budget(app);
        }
        (top @ Popup::Brief(_), Action::CustomBudget) => {
            app.popups.push(top);
            prompt::open_custom_budget(app);
        }
        (Popup::Brief(p), a) => brief::preview_action(app, p, a),
        (Popup::Recipes(list), a) => recipes::list_action(app, list, a),
        (Popup::Input(input), a) => prompt::input_action(app, input, a),
        (Popup::Ask(ask), a) => prompt::ask_action(app, ask, a),
        (Popup::Editor(ed), a) => editor::editor_action(app, ed, a),
    }
}

/// Normal mode: the keys that start another feature go to its handler; the rest move
/// through the tree, the results and the preview.
fn route_normal(app: &mut App, action: Action) {
    match action {
        Action::ToggleSelect => curate::toggle_select(app),
        Action::SelectDown => {
            curate::toggle_select(app);
            normal::normal_action(app, Action::MoveDown);
        }
        Action::CopyBrief => curate::copy_brief(app),
        Action::CopySkill => curate::copy_skill(app),
        Action::CycleExposure => curate::cycle_exposure(app),
        Action::CycleBudget => curate::cycle_budget(app),
        Action::CustomBudget => prompt::open_custom_budget(app),
        Action::BriefPreview => brief::open_preview(app, PreviewKind::Brief),
        Action::Recipes => recipes::open(app),
        Action::Export => export::start(app),
        Action::AgentListing => brief::open_preview(app, PreviewKind::Agent),
        Action::Outline => outline::open(app),
        Action::Collisions => collisions::open(app),
        Action::SearchOpen => search::open(app),
        Action::EditOpen => editor::open(app),
        Action::EditExternal => editor::open_external(app),
        Action::UndoSave => editor::undo(app),
        Action::CollapseAll | Action::ExpandLevel | Action::GoParent | Action::SortFolder
            if !app.search.showing =>
        {
            tree::tree_action(app, &action);
        }
        a @ (Action::ScrollLeft
        | Action::ScrollRight
        | Action::ToggleWrap
        | Action::ToggleWide
        | Action::PreviewRaw) => preview::preview_action(app, &a),
        other => normal::normal_action(app, other),
    }
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
        Msg::Recount => curate::recount(app),
        Msg::RefreshPreview => brief::refresh_preview(app),
        Msg::SetQuery(q) => search::set_query(app, q),
        Msg::JumpToHit => search::jump_to_hit(app),
        Msg::OpenSearch => search::open(app),
        Msg::OpenInput(purpose, text) => prompt::open_input(app, purpose, text),
        Msg::Ask(q) => prompt::ask(app, q),
        Msg::SetBudget(b) => curate::set_budget(app, b),
        Msg::LoadRecipe(path) => recipes::load_path(app, &path),
        Msg::SaveRecipe(name) => recipes::save_named(app, &name),
        Msg::DeleteRecipe(entry) => recipes::delete(app, &entry),
        Msg::ExportDescribe(dir) => export::ask_description(app, dir),
        Msg::ExportTo { dir, force } => export::export_to(app, &dir, force),
        Msg::PreviewSideways(right) => preview::preview_action(
            app,
            &if right {
                Action::ScrollRight
            } else {
                Action::ScrollLeft
            },
        ),
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
