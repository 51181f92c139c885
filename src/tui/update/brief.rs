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
use crate::tui::state::built_text::BuiltText;
use crate::tui::state::curate::{Curate, InputPurpose, PreviewKind, PreviewPopup};
use crate::tui::state::followup::Msg;
use crate::tui::state::popup::Popup;
use crate::tui::view::layout::preview_inner;
use crate::util::human;

use super::ctx::{Ctx, Shared};
use super::text_jobs::{Source, job, text_for};

/// The brief preview popup among `popups`, when open (under a prompt or question too).
pub fn find(popups: &mut [Popup]) -> Option<&mut PreviewPopup> {
    popups.iter_mut().rev().find_map(|p| match p {
        Popup::Brief(b) => Some(b),
        _ => None,
    })
}

/// `p` (brief) or `Y` in the preview: the preview popup of `kind`, its text asked of a
/// worker (or built here for the agent listing).
pub fn open_preview(src: &Source, curate: &mut Curate, kind: PreviewKind, ctx: &mut Ctx) -> Popup {
    let mut p = PreviewPopup {
        kind,
        generation: 0,
        built: None,
        wrapped: Vec::new(),
        wrap_width: 0,
        scroll: 0,
    };
    refresh(src, curate, &mut p, ctx);
    Popup::Brief(p)
}

/// Rebuild the open preview's text (`preview`, found with [`find`]) after a setting
/// changed (no-op when it is closed).
pub fn refresh_preview(
    preview: Option<&mut PreviewPopup>,
    src: &Source,
    curate: &mut Curate,
    ctx: &mut Ctx,
) {
    if let Some(p) = preview {
        refresh(src, curate, p, ctx);
    }
}

/// Rebuild the text of `p` (the open preview popup, or one taken off the stack while its
/// keys run).
fn refresh(src: &Source, curate: &mut Curate, p: &mut PreviewPopup, ctx: &mut Ctx) {
    if p.kind == PreviewKind::Agent {
        p.built = Some(Ok(Arc::new(agent_listing(src.shared))));
        p.wrap_width = 0;
        return;
    }
    let (generation, request) = request(src, curate, p.kind);
    if let Some(job) = take_request(p, generation, request) {
        queue(src.shared, generation, job, ctx);
    }
}

/// Every client side by side (docs/AGENTS.md "Client profiles"): each client's meter, then
/// a row per skill and a column per client (full, cut by N, dropped, unreachable, not
/// loaded), as `skill::clients::report::side_by_side` makes it; the label carries Claude
/// Code's meter. Built here: a few listings of the skills already loaded.
fn agent_listing(shared: &Shared) -> BuiltText {
    use crate::skill::clients::{self, ClientOptions, report};
    let opts = ClientOptions {
        settings: shared.settings.agent.clone(),
        context_tokens: None,
    };
    let listings = clients::all_listings(shared.corpus, &opts, None);
    let mut text = report::side_by_side(&listings);
    let queries = match crate::eval::triggers::skill_queries(shared.corpus) {
        Ok(q) => q,
        Err(e) => {
            text.push_str(&format!("\n\ntrigger eval: {e}\n"));
            Vec::new()
        }
    };
    if let Some(claude) = listings.first().filter(|_| !queries.is_empty()) {
        // As `eval --triggers` without a model (the static table): deterministic and fast.
        let run = crate::eval::triggers::run_client(
            claude,
            &queries,
            crate::eval::triggers::Ranking::Table,
        );
        text.push_str(&format!(
            "\n\ntrigger eval, claude-code ({} {} from evals/eval_queries.json; BM25 and the static table, without the model: `skillnav eval --triggers` uses an installed one)\n",
            queries.len(),
            if queries.len() == 1 {
                "query"
            } else {
                "queries"
            }
        ));
        text.push_str(&crate::eval::triggers::per_skill_lines(&run).join("\n"));
    }
    // Saved with `w` as a text file: it ends its last line.
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let skills = listings.first().map_or(0, |l| l.skills.len());
    let mut label = format!("clients · {}", human::plural(skills, "skill"));
    if let Some(c) = listings.first() {
        label.push_str(&format!(" · claude-code {}", report::meter(c)));
    }
    BuiltText {
        bytes: text.len() as u64,
        tokens: crate::tokens::TokenCounter::new(shared.encoding()).count(&text),
        encoding: shared.encoding(),
        parts: skills,
        left_out: Vec::new(),
        label,
        ext: "txt",
        text,
    }
}

/// A new text generation and its job for `kind`, or why there is none.
fn request(src: &Source, curate: &mut Curate, kind: PreviewKind) -> (u64, Result<TextJob, String>) {
    curate.generation += 1;
    let generation = curate.generation;
    (
        generation,
        text_for(src, curate, kind).map(|t| job(src.shared, t)),
    )
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

/// Queue the preview text `job` of `generation` for a worker.
fn queue(shared: &Shared, generation: u64, job: TextJob, ctx: &mut Ctx) {
    ctx.queue(Effect::Text {
        generation,
        job: Box::new(job),
        purpose: TextPurpose::Preview,
        opts: shared.copy_options(),
    });
}

/// A built preview text arrived for the open preview among `popups` (stale generations are
/// dropped).
pub fn apply_preview(
    popups: &mut [Popup],
    generation: u64,
    result: Result<BuiltText, String>,
    ctx: &mut Ctx,
) {
    let Some(p) = find(popups) else {
        return;
    };
    if p.generation != generation {
        return;
    }
    p.built = Some(result.map(Arc::new));
    p.wrap_width = 0;
    if *ctx.status == STILL_BUILDING {
        ctx.status.clear();
    }
}

const STILL_BUILDING: &str = "Still building the text…";

/// Most bytes of a text shown in the preview popup (the rest is announced; the copy holds
/// everything): wrapping runs in `update`, so it stays a few milliseconds.
pub const PREVIEW_MAX_BYTES: usize = 1 << 20;

/// Keep the wrapped lines of the open preview among `popups` at the popup's width on a
/// `size` (columns, rows) screen (called from `sync`).
pub fn sync(popups: &mut [Popup], size: (u16, u16)) {
    let (w, h) = size;
    let inner = preview_inner(w, h);
    let Some(p) = find(popups) else {
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

/// What the keys of the preview popup change besides it: the curation settings and
/// whether a copy is running.
pub struct Curating<'a> {
    /// Brief and rendered-skill settings.
    pub curate: &'a mut Curate,
    /// Whether a copy is running.
    pub copying: &'a mut bool,
}

/// Keys of the preview popup `p`, taken off the stack: the popup to put back, or `None`
/// when the key closes it.
pub fn preview_action(
    mut p: PreviewPopup,
    action: Action,
    src: &Source,
    c: &mut Curating,
    ctx: &mut Ctx,
) -> Option<PreviewPopup> {
    (!popup_action(&mut p, action, src, c, ctx)).then_some(p)
}

/// The keys of the preview `p`; `true` when they closed it.
fn popup_action(
    p: &mut PreviewPopup,
    action: Action,
    src: &Source,
    c: &mut Curating,
    ctx: &mut Ctx,
) -> bool {
    let skill_only = matches!(
        action,
        Action::SetArgs | Action::SetVars | Action::ToggleBaseDir | Action::CycleListing
    );
    if skill_only && p.kind != PreviewKind::Skill {
        ctx.say("That key sets up the rendered skill: Tab shows it");
        return false;
    }
    let (w, h) = src.shared.size;
    let page = preview_inner(w, h).1 as usize;
    let curate = &mut *c.curate;
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
        Action::CycleFormat => cycle_format(src, curate, p, ctx),
        Action::CycleMode => cycle_mode(src, curate, p, ctx),
        Action::ToggleQuery => toggle_query(src, curate, p, ctx),
        Action::ToggleKind => {
            p.kind = match p.kind {
                PreviewKind::Brief => PreviewKind::Skill,
                PreviewKind::Skill => PreviewKind::Brief,
                PreviewKind::Agent => PreviewKind::Agent,
            };
            p.scroll = 0;
            refresh(src, curate, p, ctx);
        }
        Action::CycleListing => cycle_listing(src, curate, p, ctx),
        Action::SetArgs => ask_args(curate, ctx),
        Action::SetVars => ask_vars(curate, ctx),
        Action::ToggleBaseDir => toggle_base_dir(src, curate, p, ctx),
        Action::CopyText | Action::SaveFile => return copy_or_save(p, action, src.shared, c, ctx),
        _ => {}
    }
    false
}

/// The next brief format (md → xml → json).
fn cycle_format(src: &Source, curate: &mut Curate, p: &mut PreviewPopup, ctx: &mut Ctx) {
    curate.format = curate.format.next_layout();
    ctx.say(format!("Brief format {}", curate.format.as_str()));
    refresh(src, curate, p, ctx);
}

/// The next brief mode (auto → answer → extract → locate → summarize).
fn cycle_mode(src: &Source, curate: &mut Curate, p: &mut PreviewPopup, ctx: &mut Ctx) {
    curate.mode = match curate.mode {
        BriefMode::Auto => BriefMode::Answer,
        BriefMode::Answer => BriefMode::Extract,
        BriefMode::Extract => BriefMode::Locate,
        BriefMode::Locate => BriefMode::Summarize,
        BriefMode::Summarize => BriefMode::Auto,
    };
    ctx.say(format!("Brief mode {}", curate.mode.as_str()));
    refresh(src, curate, p, ctx);
}

/// Add the search query's hits to the brief, or leave them out again (refused without a
/// query).
fn toggle_query(src: &Source, curate: &mut Curate, p: &mut PreviewPopup, ctx: &mut Ctx) {
    if src.search.query.trim().is_empty() && !curate.with_query {
        ctx.say("No search query: type one with / first");
    } else {
        curate.with_query = !curate.with_query;
        ctx.say(if curate.with_query {
            format!("Adding the hits of {:?}", src.search.query.trim())
        } else {
            "Selected sections only".into()
        });
        refresh(src, curate, p, ctx);
    }
}

/// The next listing format of a rendered skill (plain → xml → available skills).
fn cycle_listing(src: &Source, curate: &mut Curate, p: &mut PreviewPopup, ctx: &mut Ctx) {
    curate.listing = match curate.listing {
        ListingFormat::Plain => ListingFormat::Xml,
        ListingFormat::Xml => ListingFormat::AvailableSkills,
        ListingFormat::AvailableSkills => ListingFormat::Plain,
    };
    ctx.say(format!("Listing {}", curate.listing.as_str()));
    refresh(src, curate, p, ctx);
}

/// Ask for the rendered skill's arguments, prefilled with the current ones.
fn ask_args(curate: &Curate, ctx: &mut Ctx) {
    let now = match curate.args.as_deref() {
        None => String::new(),
        Some("") => "\"\"".to_string(),
        Some(a) => a.to_string(),
    };
    ctx.follow(Msg::OpenInput(InputPurpose::SkillArgs, now));
}

/// Ask for the rendered skill's variables, prefilled with the current ones.
fn ask_vars(curate: &Curate, ctx: &mut Ctx) {
    let now: Vec<String> = curate
        .vars
        .iter()
        .map(|(k, v)| format!("{k}={}", quote_arg(v)))
        .collect();
    ctx.follow(Msg::OpenInput(InputPurpose::SkillVars, now.join(" ")));
}

/// Whether rendered skills start with their base directory.
fn toggle_base_dir(src: &Source, curate: &mut Curate, p: &mut PreviewPopup, ctx: &mut Ctx) {
    curate.include_base_dir = !curate.include_base_dir;
    ctx.say(if curate.include_base_dir {
        "Rendered skills start with their base directory"
    } else {
        "No base-directory header"
    });
    refresh(src, curate, p, ctx);
}

/// Copy the text shown, or save it to a file (once it is built, one copy at a time);
/// `true` when the copy is queued, which closes the preview.
fn copy_or_save(
    p: &PreviewPopup,
    action: Action,
    shared: &Shared,
    c: &mut Curating,
    ctx: &mut Ctx,
) -> bool {
    match p.built.clone() {
        Some(Ok(b)) => {
            if action == Action::CopyText && *c.copying {
                ctx.say("A copy is already running…");
                return false;
            }
            let route = if action == Action::SaveFile {
                Route::File
            } else {
                Route::Auto
            };
            *c.copying = true;
            c.curate.copy_note.clear();
            ctx.say(format!("Copying {}…", b.label));
            ctx.queue(Effect::CopyText {
                built: b,
                route,
                opts: shared.copy_options(),
            });
            true
        }
        Some(Err(e)) => {
            ctx.say(e);
            false
        }
        None => {
            ctx.say(STILL_BUILDING);
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
