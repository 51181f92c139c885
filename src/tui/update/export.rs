//! `X` in the TUI: export the curated selection (selected units, exposure
//! levels) as a new Agent Skills folder. The folder is typed in a prompt (its name is the
//! skill name), then the description (prefilled with the one generated from the sources,
//! [`crate::curate::export::default_description`]); writing runs on a worker ([`crate::tui::effects::export::run`]); an existing
//! non-empty folder is replaced only after a question.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::model::Selection;
use crate::tui::effect::Effect;
use crate::tui::effects::export::{ExportJob, ExportOutcome};
use crate::tui::state::curate::{Curate, InputPurpose, Question};
use crate::tui::state::followup::Msg;

use super::ctx::{Ctx, Shared};

/// `X`: ask for the folder, prefilled with `./<recipe name>`, else `./<the name derived from
/// what the sections are about>` ([`crate::curate::export::default_name`]), for editing.
pub fn start(shared: &Shared, selection: &Selection, curate: &Curate, ctx: &mut Ctx) {
    let corpus = shared.corpus;
    if selection.is_empty() && curate.exposure.always_units(corpus).is_empty() {
        ctx.say("Nothing to export: select sections first (Space)");
        return;
    }
    let units = crate::curate::units::selection_units(corpus, selection, &curate.exposure);
    let name = match &curate.recipe_name {
        Some(r) => crate::model::id::slug(r),
        None => crate::curate::export::default_name(corpus, &units, &curate.exposure),
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    ctx.follow(Msg::OpenInput(
        InputPurpose::ExportDir,
        cwd.join(name).display().to_string(),
    ));
}

/// The folder `dir` is typed: ask for the description, prefilled from the sources (an
/// empty folder cancels).
pub fn ask_description(
    dir: String,
    shared: &Shared,
    selection: &Selection,
    curate: &Curate,
    ctx: &mut Ctx,
) {
    if dir.is_empty() {
        ctx.say("Export cancelled: no folder given");
        return;
    }
    let corpus = shared.corpus;
    let units = crate::curate::units::selection_units(corpus, selection, &curate.exposure);
    let text = crate::curate::export::default_description(corpus, &units, &curate.exposure);
    ctx.follow(Msg::OpenInput(InputPurpose::ExportDescription(dir), text));
}

/// Queue the export of `selection` into `dir` (typed; `~/` expanded; replacing a
/// non-empty folder with `force`) with the description typed last (none: the generated
/// one) and the export settings of `shared`.
pub fn export_to(
    dir: &str,
    force: bool,
    shared: &Shared,
    selection: &Selection,
    curate: &Curate,
    ctx: &mut Ctx,
) {
    if dir.is_empty() {
        ctx.say("Export cancelled: no folder given");
        return;
    }
    let dir = expand_home(dir);
    let brief = &shared.settings.brief;
    let job = ExportJob {
        corpus: Arc::clone(shared.corpus),
        units: crate::curate::units::selection_units(shared.corpus, selection, &curate.exposure),
        exposure: curate.exposure.clone(),
        dir,
        force,
        max_reference_bytes: brief.export_max_reference_bytes,
        with_catalog: brief.export_catalog,
        active: brief.export_active,
        encoding: shared.encoding(),
        description: curate.export_description.clone(),
    };
    ctx.say(format!(
        "Exporting to {}…",
        crate::util::sanitize::sanitize_line(&job.dir.display().to_string())
    ));
    ctx.queue(Effect::Export(Box::new(job)));
}

fn expand_home(dir: &str) -> PathBuf {
    match (dir.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(dir),
    }
}

/// Apply an export outcome: the status line (the export's `warnings` replace those of an
/// earlier export of the same folder), or the replace question.
pub fn apply(outcome: ExportOutcome, warnings: &mut Vec<String>, ctx: &mut Ctx) {
    match outcome {
        ExportOutcome::Done(s, prefix, new) => {
            // A new export of the same folder replaces its earlier warnings.
            warnings.retain(|w| !w.starts_with(&prefix));
            warnings.extend(new);
            ctx.say(s);
        }
        ExportOutcome::Failed(s) => ctx.say(s),
        ExportOutcome::Exists(dir) => {
            ctx.say(format!("{} exists and is not empty", dir.display()));
            ctx.follow(Msg::Ask(Question::ReplaceFolder(dir)));
        }
    }
}
