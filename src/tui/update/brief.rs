//! The brief / rendered-skill preview popup (`p`): opening it, asking a worker
//! for its text whenever a setting changes, wrapping the text for the popup's width (in
//! `update`, never in draw), and the popup's keys.

use std::sync::Arc;

use crate::brief::Mode as BriefMode;
use crate::clipboard::Route;
use crate::render::wrap::wrap_text;
use crate::skill::listing::ListingFormat;
use crate::tui::effect::{Effect, TextPurpose};
use crate::tui::effects::text_job::TextJob;
use crate::tui::input::action::Action;
use crate::tui::state::app::App;
use crate::tui::state::built_text::BuiltText;
use crate::tui::state::curate::{InputPurpose, PreviewKind, PreviewPopup};
use crate::tui::state::followup::Msg;
use crate::tui::state::popup::Popup;
use crate::tui::view::layout::preview_inner;
use crate::util::human;

use super::text_jobs::{job, text_for};

/// `p` (brief) or `Y` in the preview: open the preview popup and build its text.
pub fn open_preview(app: &mut App, kind: PreviewKind) {
    let mut p = PreviewPopup {
        kind,
        generation: 0,
        built: None,
        wrapped: Vec::new(),
        wrap_width: 0,
        scroll: 0,
    };
    refresh(app, &mut p);
    app.popups.push(Popup::Brief(p));
}

/// Rebuild the open preview's text after a setting changed (no-op when it is closed).
pub fn refresh_preview(app: &mut App) {
    let Some(kind) = app.brief_preview().map(|p| p.kind) else {
        return;
    };
    if kind == PreviewKind::Agent {
        let built = agent_listing(app);
        if let Some(p) = app.brief_preview_mut() {
            p.built = Some(Ok(Arc::new(built)));
            p.wrap_width = 0;
        }
        return;
    }
    let (generation, request) = request(app, kind);
    if let Some(job) = app
        .brief_preview_mut()
        .and_then(|p| take_request(p, generation, request))
    {
        queue(app, generation, job);
    }
}

/// Rebuild the text of `p` (a preview popup taken off the stack while its keys run).
fn refresh(app: &mut App, p: &mut PreviewPopup) {
    if p.kind == PreviewKind::Agent {
        p.built = Some(Ok(Arc::new(agent_listing(app))));
        p.wrap_width = 0;
        return;
    }
    let (generation, request) = request(app, p.kind);
    if let Some(job) = take_request(p, generation, request) {
        queue(app, generation, job);
    }
}

/// Every client side by side (docs/AGENTS.md "Client profiles"): each client's meter, then
/// a row per skill and a column per client (full, cut by N, dropped, unreachable, not
/// loaded), as `skill::clients::report::side_by_side` makes it; the label carries Claude
/// Code's meter. Built here: a few listings of the skills already loaded.
fn agent_listing(app: &App) -> BuiltText {
    use crate::skill::clients::{self, ClientOptions, report};
    let opts = ClientOptions {
        settings: app.settings.agent.clone(),
        context_tokens: None,
    };
    let listings = clients::all_listings(&app.corpus, &opts, None);
    let mut text = report::side_by_side(&listings);
    // A malformed eval_queries.json leaves the trigger section out (`eval --triggers` names it).
    let queries = crate::eval::triggers::skill_queries(&app.corpus).unwrap_or_default();
    if let Some(claude) = listings.first().filter(|_| !queries.is_empty()) {
        // As `eval --triggers` without a model (the static table): deterministic and fast.
        let run = crate::eval::triggers::run_client(
            claude,
            &queries,
            crate::eval::triggers::Ranking::Table,
        );
        text.push_str(&format!(
            "\n\ntrigger eval, claude-code ({} {} from evals/eval_queries.json)\n",
            queries.len(),
            if queries.len() == 1 {
                "query"
            } else {
                "queries"
            }
        ));
        text.push_str(&crate::eval::triggers::per_skill_lines(&run).join("\n"));
    }
    let skills = listings.first().map_or(0, |l| l.skills.len());
    let mut label = format!("clients · {}", human::plural(skills, "skill"));
    if let Some(c) = listings.first() {
        label.push_str(&format!(" · claude-code {}", report::meter(c)));
    }
    BuiltText {
        bytes: text.len() as u64,
        tokens: crate::tokens::TokenCounter::new(app.encoding()).count(&text),
        encoding: app.encoding(),
        parts: skills,
        left_out: Vec::new(),
        label,
        ext: "txt",
        text,
    }
}

/// A new text generation and its job for `kind`, or why there is none.
fn request(app: &mut App, kind: PreviewKind) -> (u64, Result<TextJob, String>) {
    app.curate.generation += 1;
    let generation = app.curate.generation;
    (generation, text_for(app, kind).map(|t| job(app, t)))
}

/// Mark `p` as waiting for `generation`; the job to queue, or the reason shown instead.
fn take_request(
    p: &mut PreviewPopup,
    generation: u64,
    request: Result<TextJob, String>,
) -> Option<TextJob> {
    p.generation = generation;
    match request {
        Ok(job) => {
            p.built = None;
            Some(job)
        }
        Err(e) => {
            p.built = Some(Err(e));
            p.wrap_width = 0;
            None
        }
    }
}

fn queue(app: &mut App, generation: u64, job: TextJob) {
    app.effects.push(Effect::Text {
        generation,
        job: Box::new(job),
        purpose: TextPurpose::Preview,
    });
}

/// A built preview text arrived (stale generations are dropped).
pub fn apply_preview(app: &mut App, generation: u64, result: Result<BuiltText, String>) {
    let Some(p) = app.brief_preview_mut() else {
        return;
    };
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

/// Most bytes of a text shown in the preview popup (the rest is announced; the copy holds
/// everything): wrapping runs in `update`, so it stays a few milliseconds.
pub const PREVIEW_MAX_BYTES: usize = 1 << 20;

/// Keep the preview's wrapped lines at the popup's width (called from `sync`).
pub fn sync(app: &mut App) {
    let (w, h) = app.size;
    let inner = preview_inner(w, h);
    let Some(p) = app.brief_preview_mut() else {
        return;
    };
    if p.wrap_width != inner.0 {
        p.wrapped = match &p.built {
            Some(Ok(b)) => {
                let cut = crate::render::wrap::floor_char_boundary(&b.text, PREVIEW_MAX_BYTES);
                let mut lines = wrap_text(&b.text[..cut], inner.0 as usize);
                if cut < b.text.len() {
                    lines.push(String::new());
                    lines.push(format!(
                        "… the preview shows the first {} of {}; y copies all of it",
                        human::short_bytes(cut as u64),
                        human::short_bytes(b.bytes)
                    ));
                }
                lines
            }
            _ => Vec::new(),
        };
        p.wrap_width = inner.0;
    }
    p.scroll = p
        .scroll
        .min(p.wrapped.len().saturating_sub(inner.1 as usize));
}

/// Keys of the preview popup `p`, taken off the stack (put back unless they close it).
pub fn preview_action(app: &mut App, mut p: PreviewPopup, action: Action) {
    if !popup_action(app, &mut p, action) {
        app.popups.push(Popup::Brief(p));
    }
}

/// The keys of the preview `p`; `true` when they closed it.
fn popup_action(app: &mut App, p: &mut PreviewPopup, action: Action) -> bool {
    let skill_only = matches!(
        action,
        Action::SetArgs | Action::SetVars | Action::ToggleBaseDir | Action::CycleListing
    );
    if skill_only && p.kind != PreviewKind::Skill {
        app.status = "That key sets up the rendered skill: Tab shows it".into();
        return false;
    }
    let page = preview_inner(app.size.0, app.size.1).1 as usize;
    let scroll = |p: &mut PreviewPopup, d: isize| {
        p.scroll = (p.scroll as isize).saturating_add(d).max(0) as usize;
    };
    match action {
        Action::MoveDown => scroll(p, 1),
        Action::MoveUp => scroll(p, -1),
        Action::PageDown => scroll(p, page as isize),
        Action::PageUp => scroll(p, -(page as isize)),
        Action::Top => scroll(p, isize::MIN / 2),
        Action::Bottom => scroll(p, isize::MAX / 2),
        Action::Escape => return true,
        Action::CycleFormat => cycle_format(app, p),
        Action::CycleMode => cycle_mode(app, p),
        Action::ToggleQuery => toggle_query(app, p),
        Action::ToggleKind => {
            p.kind = match p.kind {
                PreviewKind::Brief => PreviewKind::Skill,
                PreviewKind::Skill => PreviewKind::Brief,
                PreviewKind::Agent => PreviewKind::Agent,
            };
            p.scroll = 0;
            refresh(app, p);
        }
        Action::CycleListing => cycle_listing(app, p),
        Action::SetArgs => ask_args(app),
        Action::SetVars => ask_vars(app),
        Action::ToggleBaseDir => toggle_base_dir(app, p),
        Action::CopyText | Action::SaveFile => return copy_or_save(app, p, action),
        _ => {}
    }
    false
}

/// The next brief format (md → xml → json).
fn cycle_format(app: &mut App, p: &mut PreviewPopup) {
    app.curate.format = app.curate.format.next_layout();
    app.status = format!("Brief format {}", app.curate.format.as_str());
    refresh(app, p);
}

/// The next brief mode (auto → answer → extract → locate → summarize).
fn cycle_mode(app: &mut App, p: &mut PreviewPopup) {
    app.curate.mode = match app.curate.mode {
        BriefMode::Auto => BriefMode::Answer,
        BriefMode::Answer => BriefMode::Extract,
        BriefMode::Extract => BriefMode::Locate,
        BriefMode::Locate => BriefMode::Summarize,
        BriefMode::Summarize => BriefMode::Auto,
    };
    app.status = format!("Brief mode {}", app.curate.mode.as_str());
    refresh(app, p);
}

/// Add the search query's hits to the brief, or leave them out again (refused without a
/// query).
fn toggle_query(app: &mut App, p: &mut PreviewPopup) {
    if app.search.query.trim().is_empty() && !app.curate.with_query {
        app.status = "No search query: type one with / first".into();
    } else {
        app.curate.with_query = !app.curate.with_query;
        app.status = if app.curate.with_query {
            format!("Adding the hits of {:?}", app.search.query.trim())
        } else {
            "Selected sections only".into()
        };
        refresh(app, p);
    }
}

/// The next listing format of a rendered skill (plain → xml → available skills).
fn cycle_listing(app: &mut App, p: &mut PreviewPopup) {
    app.curate.listing = match app.curate.listing {
        ListingFormat::Plain => ListingFormat::Xml,
        ListingFormat::Xml => ListingFormat::AvailableSkills,
        ListingFormat::AvailableSkills => ListingFormat::Plain,
    };
    app.status = format!("Listing {}", app.curate.listing.as_str());
    refresh(app, p);
}

/// Ask for the rendered skill's arguments, prefilled with the current ones.
fn ask_args(app: &mut App) {
    let now = match app.curate.args.as_deref() {
        None => String::new(),
        Some("") => "\"\"".to_string(),
        Some(a) => a.to_string(),
    };
    app.followups
        .push(Msg::OpenInput(InputPurpose::SkillArgs, now));
}

/// Ask for the rendered skill's variables, prefilled with the current ones.
fn ask_vars(app: &mut App) {
    let now: Vec<String> = app
        .curate
        .vars
        .iter()
        .map(|(k, v)| format!("{k}={}", quote_arg(v)))
        .collect();
    app.followups
        .push(Msg::OpenInput(InputPurpose::SkillVars, now.join(" ")));
}

/// Whether rendered skills start with their base directory.
fn toggle_base_dir(app: &mut App, p: &mut PreviewPopup) {
    app.curate.include_base_dir = !app.curate.include_base_dir;
    app.status = if app.curate.include_base_dir {
        "Rendered skills start with their base directory".into()
    } else {
        "No base-directory header".into()
    };
    refresh(app, p);
}

/// Copy the text shown, or save it to a file (once it is built, one copy at a time);
/// `true` when the copy is queued, which closes the preview.
fn copy_or_save(app: &mut App, p: &PreviewPopup, action: Action) -> bool {
    match p.built.clone() {
        Some(Ok(b)) => {
            if action == Action::CopyText && app.copying {
                app.status = "A copy is already running…".into();
                return false;
            }
            let route = if action == Action::SaveFile {
                Route::File
            } else {
                Route::Auto
            };
            app.copying = true;
            app.curate.copy_note.clear();
            app.status = format!("Copying {}…", b.label);
            app.effects.push(Effect::CopyText { built: b, route });
            true
        }
        Some(Err(e)) => {
            app.status = e;
            false
        }
        None => {
            app.status = STILL_BUILDING.into();
            false
        }
    }
}

/// How `v` shows a value so that the prompt parses it back: quoted when it has spaces or
/// is empty.
pub(super) fn quote_arg(v: &str) -> String {
    if v.is_empty() || v.chars().any(char::is_whitespace) {
        format!("\"{v}\"")
    } else {
        v.to_string()
    }
}
