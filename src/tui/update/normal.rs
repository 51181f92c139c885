//! Keys of the tree, the results list and the preview (normal mode): moving, expanding and
//! collapsing, switching panes, selecting, jumping between matches and scrolling.

use crate::tui::input::action::Action;
use crate::tui::state::app::Focus;
use crate::tui::state::followup::Msg;
use crate::util::human;

use super::ctx::{Ctx, Panes, Shared};

/// Keys of normal mode that stay in the tree, the results and the preview (`?` opens the
/// help in `update`'s router).
pub fn normal_action(panes: &mut Panes, shared: &Shared, action: Action, ctx: &mut Ctx) {
    let results = panes.search.showing && *panes.focus == Focus::Left;
    let focus = *panes.focus;
    match action {
        Action::MoveDown | Action::MoveUp => {
            let d = if action == Action::MoveDown { 1 } else { -1 };
            match (focus, results) {
                (Focus::Preview, _) => panes.preview.scroll_by(d),
                (Focus::Left, true) => panes.search.move_hit(d),
                (Focus::Left, false) => panes.tree.move_by(d),
            }
        }
        Action::Top | Action::Bottom => {
            let top = action == Action::Top;
            match (focus, results) {
                (Focus::Preview, _) => panes.preview.scroll = if top { 0 } else { usize::MAX },
                (Focus::Left, true) => {
                    panes
                        .search
                        .move_hit(if top { isize::MIN / 2 } else { isize::MAX / 2 });
                }
                (Focus::Left, false) => {
                    panes
                        .tree
                        .move_by(if top { isize::MIN / 2 } else { isize::MAX / 2 });
                }
            }
        }
        Action::Expand => match (focus, results) {
            (Focus::Left, true) => ctx.follow(Msg::JumpToHit),
            (Focus::Left, false) => expand(panes, shared, ctx),
            (Focus::Preview, _) => ctx.follow(Msg::PreviewSideways(true)),
        },
        Action::Collapse => match (focus, results) {
            (Focus::Left, true) => panes.search.showing = false,
            (Focus::Left, false) => collapse(panes, shared),
            (Focus::Preview, _) if panes.preview.hscroll > 0 => {
                ctx.follow(Msg::PreviewSideways(false));
            }
            (Focus::Preview, _) => *panes.focus = Focus::Left,
        },
        Action::FocusNext => {
            *panes.focus = if focus == Focus::Left {
                Focus::Preview
            } else {
                Focus::Left
            };
        }
        Action::ReloadAll => reload_all(shared, ctx),
        Action::Escape => {
            if panes.search.showing {
                panes.search.showing = false;
            } else if !panes.search.query.is_empty() {
                ctx.follow(Msg::SetQuery(String::new()));
                ctx.say("Search cleared");
            } else if focus == Focus::Preview {
                *panes.focus = Focus::Left;
            }
        }
        Action::NextMatch => step_match(panes, shared, true, ctx),
        Action::PrevMatch => step_match(panes, shared, false, ctx),
        Action::PageDown | Action::PageUp | Action::HalfPageDown | Action::HalfPageUp => {
            page_focused(panes, shared, &action, results);
        }
        // Text input only means something in the search box.
        _ => {}
    }
}

/// `Ctrl-r`: reload every root of `shared` from disk.
fn reload_all(shared: &Shared, ctx: &mut Ctx) {
    let n = shared.specs.len();
    for root in 0..n {
        ctx.queue(shared.reload(root));
    }
    ctx.say(if n == 0 {
        "Nothing to reload".into()
    } else {
        format!("Reloading {} from disk…", human::plural(n, "root"))
    });
}

fn expand(panes: &mut Panes, shared: &Shared, ctx: &mut Ctx) {
    let tree = &mut *panes.tree;
    let Some(id) = tree.current() else { return };
    let corpus = shared.corpus;
    let node = corpus.node(id);
    if tree.children_of(corpus, id).is_empty() {
        // A leaf keeps the focus in the tree, so `j`/`k`/`G` still move the cursor.
        let tab = shared
            .keymap
            .first_key(crate::tui::input::keymap::Mode::Normal, &Action::FocusNext)
            .unwrap_or_else(|| "tab".into());
        ctx.say(format!(
            "{} has no children · {tab} scrolls the preview",
            node.title
        ));
    } else if tree.expanded.insert(id) {
        tree.rebuild(corpus);
    } else {
        tree.move_by(1);
    }
}

fn collapse(panes: &mut Panes, shared: &Shared) {
    let tree = &mut *panes.tree;
    let Some(id) = tree.current() else { return };
    if tree.expanded.remove(&id) {
        tree.rebuild(shared.corpus);
    } else if let Some(i) = tree.parent_row() {
        // The row drawn above at a lower depth: the parent, or the file a compacted
        // heading belongs to.
        tree.cursor = i;
    }
}

/// The paging keys move the focused pane: the tree's cursor, the results' selection or the
/// preview's scroll, by the pane's page (or half of it).
fn page_focused(panes: &mut Panes, shared: &Shared, action: &Action, results: bool) {
    let pane = match *panes.focus {
        Focus::Preview => panes.page(shared),
        Focus::Left => super::tree::tree_page(panes, shared),
    };
    let half = (pane / 2).max(1);
    let d = match action {
        Action::PageDown => pane as isize,
        Action::PageUp => -(pane as isize),
        Action::HalfPageDown => half as isize,
        _ => -(half as isize),
    };
    match (*panes.focus, results) {
        (Focus::Preview, _) => panes.preview.scroll_by(d),
        (Focus::Left, true) => panes.search.move_hit(d),
        (Focus::Left, false) => panes.tree.move_by(d),
    }
}

fn step_match(panes: &mut Panes, shared: &Shared, forward: bool, ctx: &mut Ctx) {
    let Some(doc) = panes.preview.doc.clone() else {
        return;
    };
    let matches = doc.matches();
    if matches.is_empty() {
        ctx.say(if panes.search.highlight_terms().is_empty() {
            "No search terms"
        } else {
            "No matches here"
        });
        return;
    }
    let n = matches.len();
    let scroll = panes.preview.scroll;
    let next = match (panes.preview.match_ix, forward) {
        (None, true) => matches.iter().position(|l| *l >= scroll).unwrap_or(0),
        (None, false) => matches.iter().rposition(|l| *l < scroll).unwrap_or(n - 1),
        (Some(i), true) => (i + 1) % n,
        (Some(i), false) => (i + n - 1) % n,
    };
    let page = panes.page(shared);
    let width = usize::from(panes.areas(shared).preview.width);
    let p = &mut *panes.preview;
    p.match_ix = Some(next);
    p.scroll = match_scroll(matches[next], page);
    p.hscroll = doc
        .rendered
        .hscroll_for_match(matches[next], width)
        .unwrap_or(0);
    ctx.say(format!("match {}/{}", next + 1, n));
}

/// Scroll so that `line` sits a third of the way down the page.
fn match_scroll(line: usize, page: usize) -> usize {
    line.saturating_sub(page / 3)
}
