//! Handlers of the curation actions (called by `update` only): exposure levels, budget,
//! brief/skill copy and preview, the preview popup, prompts and questions. Recipes are in
//! `recipes.rs`. Text is built on a worker ([`super::job`]); this only queues effects.

use std::sync::Arc;

use crate::brief::curated::BriefFormat;
use crate::brief::lazytools::Mode as BriefMode;
use crate::exposure::Exposure;
use crate::listing::ListingFormat;
use crate::model::{NodeId, Selection};
use crate::render::width::{grapheme_width, str_width};
use crate::tui::action::Action;
use crate::tui::app::{App, CopyRoute, Effect, TextPurpose};
use crate::tui::editor::actions::to_input;
use crate::tui::editor::fields::text_area;
use crate::tui::format;
use crate::tui::keymap::Mode;

use super::job::{BuiltText, TextJob, What, skills_for};
use super::recipes;
use super::{Ask, InputBox, InputPurpose, PreviewKind, PreviewPopup, Question, brief_tokens};

/// Recompute the number beside the budget ([`brief_tokens`]) after the selection, the
/// exposure levels or the token counts changed.
pub fn recount(app: &mut App) {
    let (mut sum, mut complete) =
        brief_tokens(&app.corpus, &app.selection, &app.curate.exposure, &app.tokens);
    // With the query's hits added (`r`): the first QUERY_TOP_K content hits a brief would
    // add (their own text; not hidden or explicit; not inside a selected unit).
    if query(app).is_some() && app.search.view.query.trim() == app.search.query.trim() {
        let c = &app.corpus;
        let units = super::brief_units(c, &app.selection, &app.curate.exposure);
        let hits = app
            .search
            .view
            .content
            .iter()
            .filter(|h| app.curate.exposure.level(c, h.node).admits(false, true))
            .filter(|h| !units.iter().any(|u| c.is_within(h.node, *u)))
            .take(QUERY_TOP_K);
        for h in hits {
            match app.tokens.own(h.node) {
                Some(t) => sum += t,
                None => complete = false,
            }
        }
    }
    app.selection_tokens = (sum, complete);
}

/// Retrieved sections at most when a brief adds the search query's hits.
pub const QUERY_TOP_K: usize = 8;

/// Take the exposure levels of newly loaded nodes (`meta.exposure`, arena index `first`
/// on, e.g. ADRs are `explicit`) and recount the total beside the budget.
pub fn on_loaded(app: &mut App, first: usize) {
    let corpus = Arc::clone(&app.corpus);
    for (i, n) in corpus.nodes.iter().enumerate().skip(first) {
        if let Some(e) = n.meta.get("exposure").and_then(|v| v.as_str()).and_then(Exposure::parse) {
            app.curate.exposure.set(NodeId(i as u32), Some(e));
        }
    }
    recount(app);
}

/// Loading finished: apply the `--recipe FILE|NAME` of the command line once (a FILE that
/// does not exist yet is where `R` → `s` will save).
pub fn on_load_done(app: &mut App) {
    if !std::mem::take(&mut app.curate.recipe_pending) {
        return;
    }
    if let Some(path) = app.curate.recipe_file.clone() {
        if path.exists() {
            recipes::load_path(app, &path);
        } else {
            app.status = format!("New recipe file {}: R then s saves the selection to it", path.display());
        }
    } else if let Some(name) = app.curate.pending_name.take() {
        let path = app.curate.store.as_ref().map(|s| s.path(&name));
        match path {
            Some(Ok(p)) => recipes::load_path(app, &p),
            Some(Err(e)) => app.status = format!("Cannot load the recipe: {e}"),
            None => app.status = "No user data folder: give --recipe a FILE".into(),
        }
    }
}

/// `x`: the node's own level goes inherit → always → on-demand → explicit → hidden →
/// inherit; the status says what the subtree now gets.
pub fn cycle_exposure(app: &mut App) {
    let Some(id) = app.current_node() else { return };
    let ex = &mut app.curate.exposure;
    let next = match ex.own(id) {
        None => Some(Exposure::Always),
        Some(Exposure::Hidden) => None,
        Some(e) => Some(e.next()),
    };
    ex.set(id, next);
    let corpus = Arc::clone(&app.corpus);
    let level = app.curate.exposure.level(&corpus, id);
    let below = corpus.preorder(id).len() - 1;
    let title = &corpus.node(id).title;
    app.status = match next {
        Some(e) if below > 0 => {
            format!("{title}: {e} (and its {below} descendants that set no level of their own)")
        }
        Some(e) => format!("{title}: {e}"),
        None => format!("{title}: inherits {level}"),
    };
    recount(app);
}

/// `b`: next budget preset, then none, then the first preset again.
pub fn cycle_budget(app: &mut App) {
    let c = &mut app.curate;
    c.budget = match c.budget {
        None => c.presets.first().copied(),
        Some(b) => c.presets.iter().copied().find(|p| *p > b),
    };
    app.status = match c.budget {
        Some(b) => format!("Budget {} tokens", format::count(b)),
        None => "No token budget".into(),
    };
    refresh_preview(app);
}

/// Set the budget to `b` (from the prompt).
fn set_budget(app: &mut App, b: Option<u64>) {
    app.curate.budget = b;
    app.status = match b {
        Some(1) => "Budget 1 token".into(),
        Some(b) => format!("Budget {} tokens", format::count(b)),
        None => "No token budget".into(),
    };
    refresh_preview(app);
}

/// The units a brief of the current state is made of: the selection's, else the current
/// node's.
fn selected_units(app: &App) -> Vec<NodeId> {
    if app.selection.is_empty() {
        let Some(id) = app.current_node() else { return Vec::new() };
        let mut one = Selection::new();
        one.select(&app.corpus, id);
        one.units(&app.corpus)
    } else {
        app.selection.units(&app.corpus)
    }
}

fn query(app: &App) -> Option<String> {
    let q = app.search.query.trim();
    (app.curate.with_query && !q.is_empty()).then(|| q.to_string())
}

fn job(app: &App, what: What) -> TextJob {
    TextJob {
        corpus: Arc::clone(&app.corpus),
        index: app.index.clone(),
        exposure: app.curate.exposure.clone(),
        encoding: app.encoding(),
        what,
    }
}

fn brief_what(app: &App, units: Vec<NodeId>) -> What {
    What::Brief {
        units,
        query: query(app),
        format: app.curate.format,
        mode: app.curate.mode,
        max_tokens: app.curate.budget,
        top_k: QUERY_TOP_K,
    }
}

fn skills_what(app: &App) -> Option<What> {
    let skills = skills_for(&app.corpus, &app.selection, app.current_node());
    (!skills.is_empty()).then(|| What::Skills {
        skills,
        args: app.curate.args.clone(),
        listing: app.curate.listing,
        vars: app.curate.vars.clone(),
        include_base_dir: app.curate.include_base_dir,
    })
}

/// The job of the preview's kind, or why there is none.
fn what_for(app: &App, kind: PreviewKind) -> Result<What, String> {
    match kind {
        PreviewKind::Brief => {
            let units = selected_units(app);
            if units.is_empty()
                && query(app).is_none()
                && app.curate.exposure.always_units(&app.corpus).is_empty()
            {
                Err("Nothing to brief: select sections (Space) or add the query's hits (r)".into())
            } else {
                Ok(brief_what(app, units))
            }
        }
        PreviewKind::Skill => {
            skills_what(app).ok_or_else(|| "No skill here: Y renders a skill folder's SKILL.md".into())
        }
    }
}

/// `y`: copy a brief of the selection (or of the current node) with the current format,
/// mode, budget and exposure levels.
pub fn copy_brief(app: &mut App) {
    if app.copying {
        app.status = "A copy is already running…".into();
        return;
    }
    let units = selected_units(app);
    let always = !app.curate.exposure.always_units(&app.corpus).is_empty();
    if units.is_empty() && query(app).is_none() && !always {
        app.status = "Nothing to copy: the selection has no text".into();
        return;
    }
    let ex = &app.curate.exposure;
    if !units.is_empty()
        && query(app).is_none()
        && !always
        && units.iter().all(|u| ex.level(&app.corpus, *u) == Exposure::Hidden)
    {
        app.status = "Nothing to copy: the selection is hidden (x sets another exposure level)".into();
        return;
    }
    app.copying = true;
    app.curate.copy_note.clear();
    app.status = format!("Copying a brief of {}…", format::plural(units.len(), "section"));
    let job = job(app, brief_what(app, units));
    app.curate.generation += 1;
    app.effects.push(Effect::Text {
        generation: app.curate.generation,
        job: Box::new(job),
        purpose: TextPurpose::Copy,
    });
}

/// `Y`: copy the rendered skill of the current node, or of every selected skill (their
/// listing then each body).
pub fn copy_skill(app: &mut App) {
    if app.copying {
        app.status = "A copy is already running…".into();
        return;
    }
    let Some(what) = skills_what(app) else {
        app.status = "No skill here: Y renders a skill folder's SKILL.md".into();
        return;
    };
    let skills: &[NodeId] = match &what {
        What::Skills { skills, .. } => skills,
        What::Brief { .. } => &[],
    };
    let n = skills.len();
    // Selected items outside every skill are not part of a rendered skill: say so.
    let corpus = &app.corpus;
    let outside = app
        .selection
        .members()
        .filter(|m| !skills.iter().any(|s| corpus.is_within(*m, *s) || corpus.is_within(*s, *m)))
        .count();
    let note = match outside {
        0 => String::new(),
        k => format!(" ({} not in a skill, left out)", format::plural(k, "selected item")),
    };
    app.copying = true;
    app.status = if n == 1 {
        format!("Copying the rendered skill…{note}")
    } else {
        format!("Copying {n} rendered skills…{note}")
    };
    app.curate.copy_note = note;
    let job = job(app, what);
    app.curate.generation += 1;
    app.effects.push(Effect::Text {
        generation: app.curate.generation,
        job: Box::new(job),
        purpose: TextPurpose::Copy,
    });
}

/// `p` (brief) or `Y` in the preview: open the preview popup and build its text.
pub fn open_preview(app: &mut App, kind: PreviewKind) {
    app.curate.preview = Some(PreviewPopup {
        kind,
        generation: 0,
        built: None,
        wrapped: Vec::new(),
        wrap_width: 0,
        scroll: 0,
    });
    app.mode = Mode::Brief;
    refresh_preview(app);
}

/// Rebuild the preview's text after a setting changed (no-op when it is closed).
pub fn refresh_preview(app: &mut App) {
    let Some(kind) = app.curate.preview.as_ref().map(|p| p.kind) else { return };
    app.curate.generation += 1;
    let generation = app.curate.generation;
    let what = what_for(app, kind);
    let job = what.as_ref().ok().map(|w| job(app, w.clone()));
    let Some(p) = app.curate.preview.as_mut() else { return };
    p.generation = generation;
    match job {
        Some(job) => {
            p.built = None;
            app.effects.push(Effect::Text { generation, job: Box::new(job), purpose: TextPurpose::Preview });
        }
        None => {
            p.built = Some(Err(what.err().unwrap_or_default()));
            p.wrap_width = 0;
        }
    }
}

/// A built preview text arrived (stale generations are dropped).
pub fn apply_preview(app: &mut App, generation: u64, result: Result<BuiltText, String>) {
    let Some(p) = app.curate.preview.as_mut() else { return };
    if p.generation != generation {
        return;
    }
    p.built = Some(result.map(Arc::new));
    p.wrap_width = 0;
    if app.status == STILL_BUILDING {
        app.status.clear();
    }
}

const STILL_BUILDING: &str = "Still building the text…";

/// Cut `text` into lines of at most `width` cells (tabs shown as four spaces): after the
/// last space that fits when there is one in the second half of the line, else on a
/// grapheme boundary. No character is dropped, so the popup shows the exact text; only a
/// window of the lines is drawn.
pub fn wrap_text(text: &str, width: usize) -> Vec<String> {
    use unicode_segmentation::UnicodeSegmentation;
    let width = width.max(1);
    let mut out = Vec::new();
    for raw in text.split('\n') {
        let line = raw.trim_end_matches('\r').replace('\t', "    ");
        if str_width(&line) <= width {
            out.push(line);
            continue;
        }
        // `cur` holds graphemes with their widths; `brk` is the index after the last space.
        let mut cur: Vec<(&str, usize)> = Vec::new();
        let (mut w, mut brk) = (0usize, None::<usize>);
        for g in line.graphemes(true) {
            let gw = grapheme_width(g);
            if w + gw > width && !cur.is_empty() {
                let cut = match brk {
                    Some(b) if b * 2 >= cur.len() && b < cur.len() => b,
                    _ => cur.len(),
                };
                let rest = cur.split_off(cut);
                out.push(cur.iter().map(|(g, _)| *g).collect());
                cur = rest;
                w = cur.iter().map(|(_, w)| *w).sum();
                brk = None;
            }
            cur.push((g, gw));
            w += gw;
            if g == " " {
                brk = Some(cur.len());
            }
        }
        out.push(cur.iter().map(|(g, _)| *g).collect());
    }
    if text.ends_with('\n') {
        out.pop();
    }
    out
}

/// Most bytes of a text shown in the preview popup (the rest is announced; the copy holds
/// everything): wrapping runs in `update`, so it stays a few milliseconds.
pub const PREVIEW_MAX_BYTES: usize = 1 << 20;

fn floor_boundary(s: &str, max: usize) -> usize {
    if s.len() <= max {
        return s.len();
    }
    (0..=max).rev().find(|i| s.is_char_boundary(*i)).unwrap_or(0)
}

/// Keep the preview's wrapped lines at the popup's width (called from `sync`).
pub fn sync(app: &mut App) {
    let (w, h) = app.size;
    let inner = preview_inner(w, h);
    let Some(p) = app.curate.preview.as_mut() else { return };
    if p.wrap_width != inner.0 {
        p.wrapped = match &p.built {
            Some(Ok(b)) => {
                let cut = floor_boundary(&b.text, PREVIEW_MAX_BYTES);
                let mut lines = wrap_text(&b.text[..cut], inner.0 as usize);
                if cut < b.text.len() {
                    lines.push(String::new());
                    lines.push(format!(
                        "… the preview shows the first {} of {}; y copies all of it",
                        format::bytes(cut as u64),
                        format::bytes(b.bytes)
                    ));
                }
                lines
            }
            _ => Vec::new(),
        };
        p.wrap_width = inner.0;
    }
    p.scroll = p.scroll.min(p.wrapped.len().saturating_sub(inner.1 as usize));
}

/// Inner (text) size of the preview popup on a `w`×`h` screen ([`preview_area`] less its
/// borders, the header line and the footer line).
pub fn preview_inner(w: u16, h: u16) -> (u16, u16) {
    let area = preview_area(w, h);
    (area.2.saturating_sub(2).max(1), area.3.saturating_sub(4).max(1))
}

/// `(x, y, width, height)` of the preview popup on a `w`×`h` screen: the whole width
/// between the top line (the budget stays in view) and the status line; the whole screen
/// when it is shorter than 6 rows.
pub fn preview_area(w: u16, h: u16) -> (u16, u16, u16, u16) {
    if h < 6 { (0, 0, w, h) } else { (0, 1, w, h - 2) }
}

/// Actions of the curation modes (preview, recipes, prompt, question).
pub fn curate_action(app: &mut App, action: Action) {
    match app.mode {
        Mode::Brief => preview_action(app, action),
        Mode::Recipes => recipes::list_action(app, action),
        Mode::Input => input_action(app, action),
        Mode::Ask => ask_action(app, action),
        _ => {}
    }
}

fn preview_action(app: &mut App, action: Action) {
    let skill_only =
        matches!(action, Action::SetArgs | Action::SetVars | Action::ToggleBaseDir | Action::CycleListing);
    if skill_only && app.curate.preview.as_ref().is_some_and(|p| p.kind == PreviewKind::Brief) {
        app.status = "That key sets up the rendered skill: Tab shows it".into();
        return;
    }
    let page = preview_inner(app.size.0, app.size.1).1 as usize;
    let scroll = |app: &mut App, d: isize| {
        if let Some(p) = app.curate.preview.as_mut() {
            p.scroll = (p.scroll as isize).saturating_add(d).max(0) as usize;
        }
    };
    match action {
        Action::MoveDown => scroll(app, 1),
        Action::MoveUp => scroll(app, -1),
        Action::PageDown => scroll(app, page as isize),
        Action::PageUp => scroll(app, -(page as isize)),
        Action::Top => scroll(app, isize::MIN / 2),
        Action::Bottom => scroll(app, isize::MAX / 2),
        Action::Escape => {
            app.curate.preview = None;
            app.mode = Mode::Normal;
        }
        Action::CycleFormat => {
            app.curate.format = match app.curate.format {
                BriefFormat::Md => BriefFormat::Xml,
                BriefFormat::Xml => BriefFormat::Json,
                BriefFormat::Json => BriefFormat::Md,
            };
            app.status = format!("Brief format {}", app.curate.format.as_str());
            refresh_preview(app);
        }
        Action::CycleMode => {
            app.curate.mode = match app.curate.mode {
                BriefMode::Auto => BriefMode::Answer,
                BriefMode::Answer => BriefMode::Extract,
                BriefMode::Extract => BriefMode::Locate,
                BriefMode::Locate => BriefMode::Summarize,
                BriefMode::Summarize => BriefMode::Auto,
            };
            app.status = format!("Brief mode {}", app.curate.mode.as_str());
            refresh_preview(app);
        }
        Action::ToggleQuery => {
            if app.search.query.trim().is_empty() && !app.curate.with_query {
                app.status = "No search query: type one with / first".into();
            } else {
                app.curate.with_query = !app.curate.with_query;
                app.status = if app.curate.with_query {
                    format!("Adding the hits of {:?}", app.search.query.trim())
                } else {
                    "Selected sections only".into()
                };
                recount(app);
                refresh_preview(app);
            }
        }
        Action::ToggleKind => {
            if let Some(p) = app.curate.preview.as_mut() {
                p.kind = match p.kind {
                    PreviewKind::Brief => PreviewKind::Skill,
                    PreviewKind::Skill => PreviewKind::Brief,
                };
                p.scroll = 0;
            }
            refresh_preview(app);
        }
        Action::CycleListing => {
            app.curate.listing = match app.curate.listing {
                ListingFormat::Plain => ListingFormat::Xml,
                ListingFormat::Xml => ListingFormat::AvailableSkills,
                ListingFormat::AvailableSkills => ListingFormat::Plain,
            };
            app.status = format!("Listing {}", app.curate.listing.as_str());
            refresh_preview(app);
        }
        Action::SetArgs => {
            let now = match app.curate.args.as_deref() {
                None => String::new(),
                Some("") => "\"\"".to_string(),
                Some(a) => a.to_string(),
            };
            open_input(app, InputPurpose::SkillArgs, now)
        }
        Action::SetVars => {
            let now: Vec<String> =
                app.curate.vars.iter().map(|(k, v)| format!("{k}={}", quote_arg(v))).collect();
            open_input(app, InputPurpose::SkillVars, now.join(" "));
        }
        Action::ToggleBaseDir => {
            app.curate.include_base_dir = !app.curate.include_base_dir;
            app.status = if app.curate.include_base_dir {
                "Rendered skills start with their base directory".into()
            } else {
                "No base-directory header".into()
            };
            refresh_preview(app);
        }
        Action::CycleBudget => cycle_budget(app),
        Action::CustomBudget => open_custom_budget(app),
        Action::CopyText | Action::SaveFile => {
            let built = app.curate.preview.as_ref().and_then(|p| p.built.clone());
            match built {
                Some(Ok(b)) => {
                    if action == Action::CopyText && app.copying {
                        app.status = "A copy is already running…".into();
                        return;
                    }
                    let route = if action == Action::SaveFile { CopyRoute::File } else { CopyRoute::Auto };
                    app.copying = true;
                    app.curate.copy_note.clear();
                    app.status = format!("Copying {}…", b.label);
                    app.effects.push(Effect::CopyText { built: b, route });
                    app.curate.preview = None;
                    app.mode = Mode::Normal;
                }
                Some(Err(e)) => app.status = e,
                None => app.status = STILL_BUILDING.into(),
            }
        }
        _ => {}
    }
}

/// How `v` shows a value so that the prompt parses it back: quoted when it has spaces or
/// is empty.
fn quote_arg(v: &str) -> String {
    if v.is_empty() || v.chars().any(char::is_whitespace) { format!("\"{v}\"") } else { v.to_string() }
}

/// `B`: type a custom budget.
pub fn open_custom_budget(app: &mut App) {
    let now = app.curate.budget.map(|b| b.to_string()).unwrap_or_default();
    open_input(app, InputPurpose::Budget, now);
}

/// Open a one-line prompt for `purpose`, prefilled with `text` (selected, so that typing
/// replaces it).
pub fn open_input(app: &mut App, purpose: InputPurpose, text: String) {
    let mut area = text_area(&text);
    // The text shown is selected: typing replaces it, an arrow key keeps it to edit.
    area.select_all();
    app.curate.input = Some(InputBox { purpose, area, back: app.mode });
    app.mode = Mode::Input;
}

fn input_action(app: &mut App, action: Action) {
    let Some(input) = app.curate.input.as_mut() else {
        app.mode = Mode::Normal;
        return;
    };
    match action {
        // Ctrl-U clears the line, as in a shell (the text area would undo).
        Action::TextKey(k)
            if k.code == crossterm::event::KeyCode::Char('u')
                && k.mods == crossterm::event::KeyModifiers::CONTROL =>
        {
            input.area.select_all();
            input.area.cut();
        }
        Action::TextKey(k) => {
            input.area.input(to_input(k));
        }
        Action::Paste(s) => {
            input.area.insert_str(s.replace(['\r', '\n'], " "));
        }
        Action::Escape => {
            let back = input.back;
            app.curate.input = None;
            app.mode = back;
        }
        Action::Confirm => {
            let Some(input) = app.curate.input.take() else { return };
            let text = input.area.lines().join("");
            app.mode = input.back;
            match input.purpose {
                InputPurpose::Budget => match super::parse_budget(&text) {
                    Ok(b) => set_budget(app, b),
                    Err(e) => {
                        app.status = e;
                        app.curate.input = Some(input);
                        app.mode = Mode::Input;
                    }
                },
                InputPurpose::SkillArgs => {
                    // An empty prompt means "no arguments": placeholders stay as written;
                    // `""` means empty arguments: placeholders become empty (FORMATS §5.3).
                    app.curate.args = match text.trim() {
                        "" => None,
                        "\"\"" | "''" => Some(String::new()),
                        _ => Some(text),
                    };
                    refresh_preview(app);
                }
                InputPurpose::SkillVars => match super::parse_vars(&text) {
                    Ok(v) => {
                        app.curate.vars = v;
                        refresh_preview(app);
                    }
                    Err(e) => {
                        app.status = e;
                        app.curate.input = Some(input);
                        app.mode = Mode::Input;
                    }
                },
                InputPurpose::RecipeName => recipes::save_named(app, text.trim()),
                InputPurpose::ExportDir => super::export::export_to(app, text.trim(), false),
            }
        }
        _ => {}
    }
}

/// Ask `question`; the answer comes back through [`ask_action`].
pub fn ask(app: &mut App, question: Question) {
    app.curate.ask = Some(Ask { question, back: app.mode });
    app.mode = Mode::Ask;
}

fn ask_action(app: &mut App, action: Action) {
    let Some(a) = app.curate.ask.take() else {
        app.mode = Mode::Normal;
        return;
    };
    app.mode = a.back;
    match (a.question, action) {
        (Question::DeleteRecipe(entry), Action::Confirm) => recipes::delete(app, &entry),
        (Question::Oversize(built), Action::Confirm) => {
            app.copying = true;
            app.status = "Sending via OSC 52…".into();
            app.effects.push(Effect::CopyText { built, route: CopyRoute::Osc52 });
        }
        (Question::Oversize(built), Action::SaveFile) => {
            app.copying = true;
            app.status = "Saving to a file…".into();
            app.effects.push(Effect::CopyText { built, route: CopyRoute::File });
        }
        (Question::ReplaceFolder(dir), Action::Confirm) => {
            super::export::export_to(app, &dir.to_string_lossy(), true);
        }
        (Question::Oversize(_), Action::Escape) => app.status = "Copy cancelled".into(),
        (_, Action::Escape) => app.status = "Cancelled".into(),
        (q, _) => {
            // Any other key keeps the question open.
            app.curate.ask = Some(Ask { question: q, back: a.back });
            app.mode = Mode::Ask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::wrap_text;

    #[test]
    fn wrap_breaks_after_spaces_and_keeps_every_character() {
        let text = "alpha beta gamma delta\nx\n";
        let lines = wrap_text(text, 12);
        assert_eq!(lines, ["alpha beta ", "gamma delta", "x"]);
        assert_eq!(lines.concat(), "alpha beta gamma deltax");
        // No space in the second half: cut on a grapheme boundary.
        assert_eq!(wrap_text("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        // Wide graphemes never split.
        assert_eq!(wrap_text("技能文档", 5), ["技能", "文档"]);
        assert_eq!(wrap_text("a\tb", 80), ["a    b"]);
    }
}
