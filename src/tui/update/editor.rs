//! Actions of the frontmatter editor: opening it on the SKILL.md of the current
//! node (`e`), asking for `$EDITOR` (`E`), the form / field / raw / diff / prompt / confirm
//! modes, the hash-checked save behind the diff popup, and undo of the last save (`u`),
//! an `$EDITOR` edit included.
//! Every save and undo queues a reload of the file's root
//! ([`crate::tui::effect::Effect::Reload`]).

use crossterm::event::KeyCode;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::frontmatter;
use crate::model::{Corpus, NodeId, NodeKind};
use crate::skill::validate::Profile;
use crate::tui::effect::Effect;
use crate::tui::input::action::Action;
use crate::tui::input::key::to_input;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::SavedEdit;
use crate::tui::state::editor::fields::text_area;
use crate::tui::state::editor::{Editor, View};

use super::ctx::{Ctx, Shared};

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

/// `e`: the form editor on the SKILL.md of `current` (a node of `shared`'s corpus), or
/// `None` when there is none or it cannot be edited (the status says why).
pub fn open(shared: &Shared, current: Option<NodeId>, ctx: &mut Ctx) -> Option<Box<Editor>> {
    let id = current?;
    let corpus = shared.corpus;
    let Some((path, shown, folder, root)) = skill_file(corpus, id) else {
        let in_skill = std::iter::once(id)
            .chain(corpus.ancestors(id))
            .any(|n| corpus.node(n).kind == NodeKind::Skill);
        ctx.say(if in_skill {
            "This skill's SKILL.md holds no text skillnav read (binary, UTF-16 or a link it did not follow): `e` cannot edit it"
        } else {
            "Not a skill: `e` edits the frontmatter of a SKILL.md"
        });
        return None;
    };
    if let Some(reason) = crate::remote::cache::read_only_reason(&path) {
        ctx.say(reason);
        return None;
    }
    match Editor::open(&path, shown, folder, Some(root)) {
        Ok(mut ed) => {
            ed.skill = skill_node(corpus, id);
            refresh_clients(shared, &mut ed);
            ctx.status.clear();
            Some(Box::new(ed))
        }
        Err(e) => {
            ctx.say(e);
            None
        }
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
fn refresh_clients(shared: &Shared, ed: &mut Editor) {
    use crate::skill::clients::{self, ClientOptions, candidate, report};
    use std::hash::{Hash, Hasher};
    let (Some(_), Ok(bytes)) = (ed.skill, &ed.candidate) else {
        return;
    };
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    shared.data_gen.hash(&mut h);
    let key = h.finish();
    if ed.clients_of == Some(key) {
        return;
    }
    let text = String::from_utf8_lossy(bytes);
    let opts = ClientOptions {
        settings: shared.settings.agent.clone(),
        context_tokens: None,
    };
    if ed.client_base.is_empty() || ed.client_gen != shared.data_gen {
        ed.client_base = candidate::gather(shared.corpus);
        ed.client_gen = shared.data_gen;
    }
    // Found by path, so a reload that renumbers the nodes cannot point at another skill.
    let path = ed.path();
    let mut cands = ed.client_base.clone();
    let Some(c) = cands.iter_mut().find(|c| c.path == path) else {
        ed.clients.clear();
        return;
    };
    let node = c.node;
    if let Some(edited) = candidate::reread(shared.corpus, c, &text) {
        *c = edited;
    }
    ed.clients = clients::listings_of(&cands, &opts)
        .iter()
        .filter_map(|l| l.skill(node).map(|s| (l.client, report::cell(s))))
        .collect();
    ed.clients_of = Some(key);
}

/// `E`: queue opening the current node's SKILL.md in `$VISUAL`/`$EDITOR` (the event loop
/// suspends the TUI, runs it, then reloads the root); `current` is a node of `corpus`.
pub fn open_external(corpus: &Corpus, current: Option<NodeId>, ctx: &mut Ctx) {
    let Some(id) = current else { return };
    match skill_file(corpus, id) {
        Some((path, ..)) if crate::remote::cache::read_only_reason(&path).is_some() => {
            ctx.say(crate::remote::cache::read_only_reason(&path).unwrap_or_default());
        }
        Some((path, _, _, root)) => ctx.queue(Effect::External {
            path,
            root: Some(root),
        }),
        None => ctx.say("Not a skill: `E` opens the SKILL.md of a skill in $EDITOR"),
    }
}

/// The file `$EDITOR` is about to edit, read for `u` ([`frontmatter::load`]); `None` when
/// it cannot be read for editing (then the edit cannot be undone).
pub fn before_external(path: &Path) -> Option<frontmatter::LoadedFile> {
    frontmatter::load(path).ok()
}

/// What `$EDITOR` did: the file it ran on, the root to reload, the file as it was before
/// ([`before_external`]) and the run's outcome (its error for the status line).
pub struct ExternalRun<'a> {
    /// The file edited.
    pub path: &'a Path,
    /// Root of the file (reloaded afterwards).
    pub root: Option<usize>,
    /// The file before the run, when it could be read.
    pub before: Option<frontmatter::LoadedFile>,
    /// `Err`: why `$EDITOR` could not run.
    pub outcome: Result<(), String>,
}

/// After `$EDITOR` ran (`run`): when the file changed since `run.before`, `u` restores those
/// bytes as it undoes a save of the form editor (same hash check, same redo; kept in
/// `last_save`); then the root is reloaded from its spec in `shared`.
pub fn after_external(
    run: ExternalRun,
    last_save: &mut Option<SavedEdit>,
    shared: &Shared,
    ctx: &mut Ctx,
) {
    let ExternalRun {
        path,
        root,
        before,
        outcome,
    } = run;
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
        *last_save = Some(SavedEdit {
            report,
            root,
            shown: shown.clone(),
            undone: false,
        });
    }
    ctx.say(match outcome {
        Ok(()) if edited => format!("Edited {shown} · reloading · u undoes"),
        Ok(()) => format!("Edited {shown} (unchanged) · reloading"),
        Err(e) => e,
    });
    request_reload(shared, root, ctx);
}

/// Queue a reload of root `root` from its spec in `shared` (after a save, an undo or
/// `$EDITOR`); none for a root without a spec.
pub fn request_reload(shared: &Shared, root: Option<usize>, ctx: &mut Ctx) {
    if let Some(r) = root.filter(|r| *r < shared.specs.len()) {
        ctx.queue(shared.reload(r));
    }
}

/// `u`: undo the last save of this session, `last_save` (again: redo it).
pub fn undo(last_save: &mut Option<SavedEdit>, shared: &Shared, ctx: &mut Ctx) {
    let Some(saved) = last_save.take() else {
        ctx.say("Nothing to undo: no save in this session");
        return;
    };
    match frontmatter::undo(&saved.report) {
        Ok(report) => {
            *ctx.status = if saved.undone {
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
            *last_save = Some(SavedEdit {
                report,
                undone: !saved.undone,
                ..saved
            });
            request_reload(shared, root, ctx);
        }
        Err(e) => {
            ctx.say(e.to_string());
            *last_save = Some(saved);
        }
    }
}

/// What the editor's keys change besides the editor: the last save (a save replaces it)
/// and the context (status, reload effects), with the data they read.
pub struct Saving<'a, 'c> {
    /// The last save of this session.
    pub last_save: &'a mut Option<SavedEdit>,
    /// The corpus, settings and root specs.
    pub shared: &'a Shared<'a>,
    /// Status line, effects and follow-ups.
    pub ctx: &'a mut Ctx<'c>,
}

/// Apply one action to the editor `ed`, taken off the stack: the editor to put back, or
/// `None` when the action closes it.
pub fn editor_action(mut ed: Box<Editor>, action: Action, s: &mut Saving) -> Option<Box<Editor>> {
    if act(s, &mut ed, action) {
        return None;
    }
    refresh_clients(s.shared, &mut ed);
    ed.diff_scroll = ed.diff_scroll.min(ed.diff.len().saturating_sub(1));
    Some(ed)
}

/// One action in the editor's mode; `true` when it closed the editor.
fn act(s: &mut Saving, ed: &mut Box<Editor>, action: Action) -> bool {
    let mode = ed.mode;
    match (mode, action) {
        (Mode::Form, Action::MoveDown | Action::NextField) => move_field(ed, 1, false),
        (Mode::Form, Action::MoveUp | Action::PrevField) => move_field(ed, -1, false),
        (Mode::Field, Action::NextField) => move_field(ed, 1, true),
        (Mode::Field, Action::PrevField) => move_field(ed, -1, true),
        (Mode::Form, Action::EditField) => edit_field(s.ctx, ed),
        (Mode::Form, Action::AddKey) => {
            ed.prompt = text_area("");
            ed.back = Mode::Form;
            ed.mode = Mode::Prompt;
        }
        (Mode::Form, Action::DeleteKey) => ed.delete_selected(),
        (Mode::Form | Mode::Field | Mode::Raw, Action::ToggleRaw) => toggle_raw(s.ctx, ed),
        (Mode::Form | Mode::Raw, Action::ToggleProfile) => toggle_profile(s.ctx, ed),
        (Mode::Form | Mode::Field | Mode::Raw, Action::EditorSave) => start_save(s.ctx, ed, mode),
        (Mode::Field, Action::Escape) => ed.mode = Mode::Form,
        (Mode::Form | Mode::Raw, Action::Escape) => {
            if ed.dirty() {
                ed.back = mode;
                ed.mode = Mode::Confirm;
            } else {
                return close(s.ctx, "Closed the editor (no changes)");
            }
        }
        // Enter in a one-line field confirms it (a `name` must not become a block scalar).
        (Mode::Field, Action::TextKey(k))
            if k.code == KeyCode::Enter && ed.field().is_some_and(|f| !f.multi_line()) =>
        {
            ed.mode = Mode::Form;
            if let Some(f) = ed.field() {
                s.ctx.say(format!("`{}` set; Ctrl-s saves", f.key));
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
        (Mode::Field | Mode::Raw | Mode::Prompt, Action::Paste(text)) => {
            paste(s.ctx, ed, mode, &text);
        }
        (Mode::Prompt, Action::Confirm) => add_key(s.ctx, ed),
        (Mode::Prompt | Mode::Confirm, Action::Escape) => ed.mode = ed.back,
        (Mode::Confirm, Action::Confirm) => return close(s.ctx, "Discarded the changes"),
        (Mode::Diff, action) => return diff_action(s, ed, action),
        _ => {}
    }
    false
}

/// Edit the selected field, when it can be edited in the form (else the status says why).
fn edit_field(ctx: &mut Ctx, ed: &mut Editor) {
    match ed.field() {
        Some(f) if f.editable() && !f.removed => ed.mode = Mode::Field,
        Some(f) if f.removed => {
            ctx.say(format!("`{}` is marked for removal; d restores it", f.key));
        }
        Some(f) => {
            ctx.say(format!(
                "`{}` cannot be edited in the form; r switches to raw mode",
                f.key
            ));
        }
        None => {}
    }
}

/// Switch between the form and the raw text (refused when the text does not parse).
fn toggle_raw(ctx: &mut Ctx, ed: &mut Editor) {
    match ed.toggle_view() {
        Ok(()) => {
            ed.mode = if ed.view == View::Raw {
                Mode::Raw
            } else {
                Mode::Form
            }
        }
        Err(e) => ctx.say(format!("Cannot switch: {e}")),
    }
}

/// Validate with the other profile (Claude Code or the spec).
fn toggle_profile(ctx: &mut Ctx, ed: &mut Editor) {
    ed.profile = match ed.profile {
        Profile::ClaudeCode => Profile::Spec,
        Profile::Spec => Profile::ClaudeCode,
    };
    ed.recompute();
    ctx.say(format!(
        "Validating with the {} profile",
        ed.profile.as_str()
    ));
}

/// Paste `s` into the text being edited in `mode`: on one line in the key prompt and a
/// one-line field. Control characters other than line breaks and tabs (ESC, BEL, …) are
/// left out, and the status names them: a text area draws them as nothing, so they would
/// reach the file unseen.
fn paste(ctx: &mut Ctx, ed: &mut Editor, mode: Mode, s: &str) {
    let one_line = mode == Mode::Prompt
        || (mode == Mode::Field && ed.field().is_some_and(|f| !f.multi_line()));
    let (s, dropped) = without_controls(s);
    if !dropped.is_empty() {
        ctx.say(format!(
            "Pasted without {} control character(s) a terminal cannot show ({})",
            dropped.len(),
            crate::skill::safety::unicode::code_point_list(&dropped)
        ));
    }
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

/// `s` without its control characters other than `\n`, `\r` and `\t`, and the ones left out.
fn without_controls(s: &str) -> (String, Vec<char>) {
    let mut dropped = Vec::new();
    let kept = s
        .chars()
        .filter(|c| {
            let drop = c.is_control() && !matches!(c, '\n' | '\r' | '\t');
            if drop {
                dropped.push(*c);
            }
            !drop
        })
        .collect();
    (kept, dropped)
}

/// Add the key typed in the prompt, then edit its value.
fn add_key(ctx: &mut Ctx, ed: &mut Editor) {
    let name = ed.prompt.lines().join("");
    match ed.add_key(&name) {
        Ok(()) => {
            ed.mode = Mode::Field;
            ctx.say(format!("Added `{}`: type its value", name.trim()));
        }
        Err(e) => ctx.say(e),
    }
}

/// The save's diff: scroll it, confirm the save, reload a file changed on disk, or go
/// back; `true` when the save closed the editor.
fn diff_action(s: &mut Saving, ed: &mut Box<Editor>, action: Action) -> bool {
    match action {
        Action::Confirm => return confirm_save(s, ed),
        Action::MoveDown => ed.diff_scroll = ed.diff_scroll.saturating_add(1),
        Action::MoveUp => ed.diff_scroll = ed.diff_scroll.saturating_sub(1),
        Action::PageDown => ed.diff_scroll = ed.diff_scroll.saturating_add(10),
        Action::PageUp => ed.diff_scroll = ed.diff_scroll.saturating_sub(10),
        Action::Reload if ed.stale => reload_editor(s, ed),
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
fn close(ctx: &mut Ctx, status: &str) -> bool {
    ctx.say(status);
    true
}

/// Ctrl-s: open the diff popup, unless the edit cannot be saved.
fn start_save(ctx: &mut Ctx, ed: &mut Editor, mode: Mode) {
    let bytes = match &ed.candidate {
        Ok(b) => b.clone(),
        Err(e) => {
            ctx.say(format!("Cannot save: {e}"));
            return;
        }
    };
    if let Some((line, msg)) = &ed.yaml_error {
        let at = if *line > 0 {
            format!(" at line {line}")
        } else {
            String::new()
        };
        ctx.say(format!("Invalid YAML{at} blocks saving: {msg}"));
        return;
    }
    if bytes == ed.file.bytes {
        ctx.say("No changes to save");
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
fn confirm_save(s: &mut Saving, ed: &mut Editor) -> bool {
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
            *s.last_save = Some(SavedEdit {
                report,
                root,
                shown: shown.clone(),
                undone: false,
            });
            close(
                s.ctx,
                &format!("Saved {shown} ({changed}{warn}) · u undoes"),
            );
            request_reload(s.shared, root, s.ctx);
            return true;
        }
        Err(Error::Refused(m)) if m.contains("changed on disk") => {
            ed.stale = true;
            // Short enough for the editor's message line: the path is in its title.
            ed.message = Some(
                "Not saved: the file changed on disk. r reloads it and DROPS your edits; Esc goes back."
                    .into(),
            );
        }
        Err(e) => ed.message = Some(format!("Not saved: {e}")),
    }
    false
}

/// `r` after a refused save: read the file again (the edits are dropped).
fn reload_editor(s: &mut Saving, ed: &mut Editor) {
    match Editor::open(&ed.path(), ed.shown.clone(), ed.folder.clone(), ed.root) {
        Ok(mut new) => {
            let root = new.root;
            new.skill = ed.skill;
            *ed = new;
            s.ctx
                .say("Reloaded the file from disk; your edits were dropped");
            request_reload(s.shared, root, s.ctx);
        }
        Err(e) => ed.message = Some(format!("Reload failed: {e}")),
    }
}
