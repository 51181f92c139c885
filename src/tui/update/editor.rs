//! Actions of the frontmatter editor: opening it on the SKILL.md of the current
//! node (`e`), asking for `$EDITOR` (`E`), the form / field / raw / diff / prompt / confirm
//! modes, the hash-checked save behind the diff popup, and undo of the last save (`u`),
//! an `$EDITOR` edit included.
//! Every save and undo queues a reload of the file's root
//! ([`crate::tui::effect::Effect::Reload`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crossterm::event::KeyCode;

use crate::error::Error;
use crate::frontmatter;
use crate::model::{Corpus, NodeId, NodeKind};
use crate::skill::validate::Profile;
use crate::tui::effect::Effect;
use crate::tui::input::action::Action;
use crate::tui::input::key::to_input;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::{App, SavedEdit};
use crate::tui::state::editor::fields::text_area;
use crate::tui::state::editor::{Editor, View};
use crate::tui::state::popup::Popup;

/// The SKILL.md a node belongs to: `(absolute path, path shown, skill folder name, root
/// index)`. A skill node gives its `SKILL.md`; any node inside a `SKILL.md` (the file, its
/// sections) gives that file; a root holding just one skill gives that skill's. `None` for
/// nodes of other files.
pub fn skill_file(corpus: &Corpus, id: NodeId) -> Option<(PathBuf, String, String, usize)> {
    let node = corpus.node(id);
    if node.kind == NodeKind::Root
        && let [only] = node.children.as_slice()
        && corpus.node(*only).kind == NodeKind::Skill
    {
        return skill_file(corpus, *only);
    }
    // The names the skill loader accepts (docs/FORMATS.md §3.1).
    let is_skill_md = |p: &std::path::Path| {
        p.file_name()
            .is_some_and(|n| n == "SKILL.md" || n == "skill.md")
    };
    let source_path = |n: NodeId| -> Option<PathBuf> {
        let span = corpus.node(n).span.as_ref()?;
        corpus.sources.get(span.source.0 as usize)?.abs_path.clone()
    };
    let file = std::iter::once(id)
        .chain(corpus.ancestors(id))
        .find_map(|n| {
            let node = corpus.node(n);
            if node.kind == NodeKind::Skill {
                node.children.iter().find_map(|c| {
                    let child = corpus.node(*c);
                    (child.kind == NodeKind::File)
                        .then(|| source_path(*c))
                        .flatten()
                        .filter(|p| is_skill_md(p))
                })
            } else {
                source_path(n).filter(|p| is_skill_md(p))
            }
        })?;
    let root = corpus.root_of(id);
    let root_ix = corpus.roots.iter().position(|r| *r == root)?;
    let folder = file
        .parent()
        .and_then(|d| d.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    let label = &corpus.node(root).title;
    let shown = match &folder {
        Some(f) => {
            format!(
                "{label}: {f}/{}",
                file.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
            )
        }
        None => file.display().to_string(),
    };
    Some((file, shown, folder.unwrap_or_default(), root_ix))
}

/// `e`: open the form editor on the current node's SKILL.md.
pub fn open(app: &mut App) {
    let Some(id) = app.current_node() else { return };
    let corpus = Arc::clone(&app.corpus);
    let Some((path, shown, folder, root)) = skill_file(&corpus, id) else {
        app.status = "Not a skill: `e` edits the frontmatter of a SKILL.md".into();
        return;
    };
    if let Some(reason) = crate::remote::cache::read_only_reason(&path) {
        app.status = reason;
        return;
    }
    match Editor::open(&path, shown, folder, Some(root)) {
        Ok(mut ed) => {
            ed.skill = skill_node(&corpus, id);
            refresh_clients(app, &mut ed);
            app.popups.push(Popup::Editor(Box::new(ed)));
            app.status.clear();
        }
        Err(e) => app.status = e,
    }
}

/// The skill node `id` belongs to (itself, an ancestor, or a root's only skill).
fn skill_node(corpus: &Corpus, id: NodeId) -> Option<NodeId> {
    let node = corpus.node(id);
    if node.kind == NodeKind::Root
        && let [only] = node.children.as_slice()
        && corpus.node(*only).kind == NodeKind::Skill
    {
        return Some(*only);
    }
    std::iter::once(id)
        .chain(corpus.ancestors(id))
        .find(|n| corpus.node(*n).kind == NodeKind::Skill)
}

/// Recompute what every client does with the edited skill when the candidate changed
/// (docs/AGENTS.md "Client profiles"): the listings of the loaded skills with this one read
/// from the unsaved edit, so editing a description updates every client's cell live. The
/// other skills are read once, when the editor opens (`Editor::client_base`); a keystroke
/// re-reads only this one.
fn refresh_clients(app: &App, ed: &mut Editor) {
    use crate::skill::clients::{self, ClientOptions, candidate, report};
    use std::hash::{Hash, Hasher};
    let (Some(_), Ok(bytes)) = (ed.skill, &ed.candidate) else {
        return;
    };
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    app.data_gen.hash(&mut h);
    let key = h.finish();
    if ed.clients_of == Some(key) {
        return;
    }
    let text = String::from_utf8_lossy(bytes);
    let opts = ClientOptions {
        settings: app.settings.agent.clone(),
        context_tokens: None,
    };
    if ed.client_base.is_empty() || ed.client_gen != app.data_gen {
        ed.client_base = candidate::gather(&app.corpus);
        ed.client_gen = app.data_gen;
    }
    // Found by path, so a reload that renumbers the nodes cannot point at another skill.
    let path = ed.path();
    let mut cands = ed.client_base.clone();
    let Some(c) = cands.iter_mut().find(|c| c.path == path) else {
        ed.clients.clear();
        return;
    };
    let node = c.node;
    if let Some(edited) = candidate::reread(&app.corpus, c, &text) {
        *c = edited;
    }
    ed.clients = clients::listings_of(&cands, &opts)
        .iter()
        .filter_map(|l| l.skill(node).map(|s| (l.client, report::cell(s))))
        .collect();
    ed.clients_of = Some(key);
}

/// `E`: queue opening the current node's SKILL.md in `$VISUAL`/`$EDITOR` (the event loop
/// suspends the TUI, runs it, then reloads the root).
pub fn open_external(app: &mut App) {
    let Some(id) = app.current_node() else { return };
    match skill_file(&app.corpus, id) {
        Some((path, ..)) if crate::remote::cache::read_only_reason(&path).is_some() => {
            app.status = crate::remote::cache::read_only_reason(&path).unwrap_or_default();
        }
        Some((path, _, _, root)) => app.effects.push(Effect::External {
            path,
            root: Some(root),
        }),
        None => app.status = "Not a skill: `E` opens the SKILL.md of a skill in $EDITOR".into(),
    }
}

/// The file `$EDITOR` is about to edit, read for `u` ([`frontmatter::load`]); `None` when
/// it cannot be read for editing (then the edit cannot be undone).
pub fn before_external(path: &Path) -> Option<frontmatter::LoadedFile> {
    frontmatter::load(path).ok()
}

/// After `$EDITOR` ran on `path` (`outcome`: its error for the status line): when the file
/// changed since `before`, `u` restores `before`'s bytes as it undoes a save of the form
/// editor (same hash check, same redo); then the root `root` is reloaded.
pub fn after_external(
    app: &mut App,
    path: &Path,
    root: Option<usize>,
    before: Option<frontmatter::LoadedFile>,
    outcome: Result<(), String>,
) {
    let shown = path.display().to_string();
    let changed = before.and_then(|b| {
        let now = frontmatter::load(path).ok()?;
        (now.hash != b.hash).then_some(frontmatter::SaveReport {
            path: b.path,
            real_path: b.real_path,
            previous: b.bytes,
            written_hash: now.hash,
            written_len: now.bytes.len(),
        })
    });
    let edited = changed.is_some();
    if let Some(report) = changed {
        app.last_save = Some(SavedEdit {
            report,
            root,
            shown: shown.clone(),
            undone: false,
        });
    }
    app.status = match outcome {
        Ok(()) if edited => format!("Edited {shown} · reloading · u undoes"),
        Ok(()) => format!("Edited {shown} (unchanged) · reloading"),
        Err(e) => e,
    };
    request_reload(app, root);
}

/// Queue a reload of root `root` (after a save, an undo or `$EDITOR`).
pub fn request_reload(app: &mut App, root: Option<usize>) {
    if let Some(r) = root.filter(|r| *r < app.specs.len()) {
        app.effects
            .push(Effect::reload(r, &app.specs, &app.load_opts));
    }
}

/// `u`: undo the last save of this session (again: redo it).
pub fn undo(app: &mut App) {
    let Some(saved) = app.last_save.take() else {
        app.status = "Nothing to undo: no save in this session".into();
        return;
    };
    match frontmatter::undo(&saved.report) {
        Ok(report) => {
            app.status = if saved.undone {
                format!(
                    "Redone: {} has the saved bytes again (u undoes)",
                    saved.shown
                )
            } else {
                format!(
                    "Undone: {} has its previous bytes again (u redoes)",
                    saved.shown
                )
            };
            let root = saved.root;
            app.last_save = Some(SavedEdit {
                report,
                undone: !saved.undone,
                ..saved
            });
            request_reload(app, root);
        }
        Err(e) => {
            app.status = e.to_string();
            app.last_save = Some(saved);
        }
    }
}

/// Apply one action to the editor `ed`, taken off the stack (put back unless it closes).
pub fn editor_action(app: &mut App, mut ed: Box<Editor>, action: Action) {
    if !act(app, &mut ed, action) {
        refresh_clients(app, &mut ed);
        ed.diff_scroll = ed.diff_scroll.min(ed.diff.len().saturating_sub(1));
        app.popups.push(Popup::Editor(ed));
    }
}

/// One action in the editor's mode; `true` when it closed the editor.
fn act(app: &mut App, ed: &mut Box<Editor>, action: Action) -> bool {
    let mode = ed.mode;
    match (mode, action) {
        (Mode::Form, Action::MoveDown | Action::NextField) => move_field(ed, 1, false),
        (Mode::Form, Action::MoveUp | Action::PrevField) => move_field(ed, -1, false),
        (Mode::Field, Action::NextField) => move_field(ed, 1, true),
        (Mode::Field, Action::PrevField) => move_field(ed, -1, true),
        (Mode::Form, Action::EditField) => edit_field(app, ed),
        (Mode::Form, Action::AddKey) => {
            ed.prompt = text_area("");
            ed.back = Mode::Form;
            ed.mode = Mode::Prompt;
        }
        (Mode::Form, Action::DeleteKey) => ed.delete_selected(),
        (Mode::Form | Mode::Field | Mode::Raw, Action::ToggleRaw) => toggle_raw(app, ed),
        (Mode::Form | Mode::Raw, Action::ToggleProfile) => toggle_profile(app, ed),
        (Mode::Form | Mode::Field | Mode::Raw, Action::EditorSave) => start_save(app, ed, mode),
        (Mode::Field, Action::Escape) => ed.mode = Mode::Form,
        (Mode::Form | Mode::Raw, Action::Escape) => {
            if ed.dirty() {
                ed.back = mode;
                ed.mode = Mode::Confirm;
            } else {
                return close(app, "Closed the editor (no changes)");
            }
        }
        // Enter in a one-line field confirms it (a `name` must not become a block scalar).
        (Mode::Field, Action::TextKey(k))
            if k.code == KeyCode::Enter && ed.field().is_some_and(|f| !f.multi_line()) =>
        {
            ed.mode = Mode::Form;
            if let Some(f) = ed.field() {
                app.status = format!("`{}` set; Ctrl-s saves", f.key);
            }
        }
        (Mode::Field | Mode::Raw | Mode::Prompt, Action::TextKey(k)) => {
            if let Some(area) = ed.area_mut() {
                area.input(to_input(k));
                if mode != Mode::Prompt {
                    ed.recompute();
                }
            }
        }
        (Mode::Field | Mode::Raw | Mode::Prompt, Action::Paste(s)) => paste(ed, mode, &s),
        (Mode::Prompt, Action::Confirm) => add_key(app, ed),
        (Mode::Prompt | Mode::Confirm, Action::Escape) => ed.mode = ed.back,
        (Mode::Confirm, Action::Confirm) => return close(app, "Discarded the changes"),
        (Mode::Diff, action) => return diff_action(app, ed, action),
        _ => {}
    }
    false
}

/// Edit the selected field, when it can be edited in the form (else the status says why).
fn edit_field(app: &mut App, ed: &mut Editor) {
    match ed.field() {
        Some(f) if f.editable() && !f.removed => ed.mode = Mode::Field,
        Some(f) if f.removed => {
            app.status = format!("`{}` is marked for removal; d restores it", f.key);
        }
        Some(f) => {
            app.status = format!(
                "`{}` cannot be edited in the form; r switches to raw mode",
                f.key
            );
        }
        None => {}
    }
}

/// Switch between the form and the raw text (refused when the text does not parse).
fn toggle_raw(app: &mut App, ed: &mut Editor) {
    match ed.toggle_view() {
        Ok(()) => {
            ed.mode = if ed.view == View::Raw {
                Mode::Raw
            } else {
                Mode::Form
            }
        }
        Err(e) => app.status = format!("Cannot switch: {e}"),
    }
}

/// Validate with the other profile (Claude Code or the spec).
fn toggle_profile(app: &mut App, ed: &mut Editor) {
    ed.profile = match ed.profile {
        Profile::ClaudeCode => Profile::Spec,
        Profile::Spec => Profile::ClaudeCode,
    };
    ed.recompute();
    app.status = format!("Validating with the {} profile", ed.profile.as_str());
}

/// Paste `s` into the text being edited in `mode`: on one line in the key prompt and a
/// one-line field.
fn paste(ed: &mut Editor, mode: Mode, s: &str) {
    let one_line = mode == Mode::Prompt
        || (mode == Mode::Field && ed.field().is_some_and(|f| !f.multi_line()));
    if let Some(area) = ed.area_mut() {
        let s = if one_line {
            s.replace("\r\n", " ").replace(['\r', '\n'], " ")
        } else {
            s.replace("\r\n", "\n")
        };
        area.insert_str(s);
        if mode != Mode::Prompt {
            ed.recompute();
        }
    }
}

/// Add the key typed in the prompt, then edit its value.
fn add_key(app: &mut App, ed: &mut Editor) {
    let name = ed.prompt.lines().join("");
    match ed.add_key(&name) {
        Ok(()) => {
            ed.mode = Mode::Field;
            app.status = format!("Added `{}`: type its value", name.trim());
        }
        Err(e) => app.status = e,
    }
}

/// The save's diff: scroll it, confirm the save, reload a file changed on disk, or go
/// back; `true` when the save closed the editor.
fn diff_action(app: &mut App, ed: &mut Box<Editor>, action: Action) -> bool {
    match action {
        Action::Confirm => return confirm_save(app, ed),
        Action::MoveDown => ed.diff_scroll = ed.diff_scroll.saturating_add(1),
        Action::MoveUp => ed.diff_scroll = ed.diff_scroll.saturating_sub(1),
        Action::PageDown => ed.diff_scroll = ed.diff_scroll.saturating_add(10),
        Action::PageUp => ed.diff_scroll = ed.diff_scroll.saturating_sub(10),
        Action::Reload if ed.stale => reload_editor(app, ed),
        Action::Escape => {
            ed.message = None;
            ed.mode = ed.back;
        }
        _ => {}
    }
    false
}

/// Move the selected row by `delta` (wrapping); `editable_only` skips rows the form
/// cannot edit (the text area keeps the focus).
fn move_field(ed: &mut Editor, delta: isize, editable_only: bool) {
    let n = ed.fields.len() as isize;
    if n == 0 {
        return;
    }
    let mut i = ed.selected as isize;
    for _ in 0..n {
        i = (i + delta).rem_euclid(n);
        let f = &ed.fields[i as usize];
        if !editable_only || (f.editable() && !f.removed) {
            ed.selected = i as usize;
            return;
        }
    }
}

/// Close the editor saying `status` (the caller drops it); always `true`.
fn close(app: &mut App, status: &str) -> bool {
    app.status = status.to_string();
    true
}

/// Ctrl-s: open the diff popup, unless the edit cannot be saved.
fn start_save(app: &mut App, ed: &mut Editor, mode: Mode) {
    let bytes = match &ed.candidate {
        Ok(b) => b.clone(),
        Err(e) => {
            app.status = format!("Cannot save: {e}");
            return;
        }
    };
    if let Some((line, msg)) = &ed.yaml_error {
        let at = if *line > 0 {
            format!(" at line {line}")
        } else {
            String::new()
        };
        app.status = format!("Invalid YAML{at} blocks saving: {msg}");
        return;
    }
    if bytes == ed.file.bytes {
        app.status = "No changes to save".into();
        return;
    }
    ed.diff = frontmatter::line_diff(&ed.file.bytes, &bytes);
    ed.diff_scroll = 0;
    ed.message = None;
    ed.back = mode;
    ed.mode = Mode::Diff;
}

/// Enter/y in the diff popup: write the bytes (atomic, hash-checked); `true` when saved (the
/// editor closes).
fn confirm_save(app: &mut App, ed: &mut Editor) -> bool {
    let Ok(bytes) = ed.candidate.clone() else {
        return false;
    };
    match frontmatter::save(&ed.file, &bytes) {
        Ok(report) => {
            let changed = frontmatter::describe_diff(&ed.diff);
            let shown = ed.shown.clone();
            let root = ed.root;
            let warnings = ed.findings.len();
            let warn = match warnings {
                0 => String::new(),
                1 => " · 1 validation finding accepted".to_string(),
                n => format!(" · {n} validation findings accepted"),
            };
            app.last_save = Some(SavedEdit {
                report,
                root,
                shown: shown.clone(),
                undone: false,
            });
            close(app, &format!("Saved {shown} ({changed}{warn}) · u undoes"));
            request_reload(app, root);
            return true;
        }
        Err(Error::Refused(m)) if m.contains("changed on disk") => {
            ed.stale = true;
            ed.message = Some(format!(
                "Not saved: {m}. r reloads it (drops your edits), Esc goes back."
            ));
        }
        Err(e) => ed.message = Some(format!("Not saved: {e}")),
    }
    false
}

/// `r` after a refused save: read the file again (the edits are dropped).
fn reload_editor(app: &mut App, ed: &mut Editor) {
    match Editor::open(&ed.path(), ed.shown.clone(), ed.folder.clone(), ed.root) {
        Ok(mut new) => {
            let root = new.root;
            new.skill = ed.skill;
            *ed = new;
            app.status = "Reloaded the file from disk; your edits were dropped".into();
            request_reload(app, root);
        }
        Err(e) => ed.message = Some(format!("Reload failed: {e}")),
    }
}
