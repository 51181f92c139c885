//! `X` in the TUI: export the curated selection (selected units, exposure
//! levels) as a new Agent Skills folder. The folder is typed in a prompt (its name is the
//! skill name), then the description (prefilled with the one generated from the sources,
//! [`crate::curate::export::default_description`]); writing runs on a worker ([`crate::tui::effects::export::run`]); an existing
//! non-empty folder is replaced only after a question.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::tui::effect::Effect;
use crate::tui::effects::export::{ExportJob, ExportOutcome};
use crate::tui::state::app::App;
use crate::tui::state::curate::{InputPurpose, Question};
use crate::tui::state::followup::Msg;

/// `X`: ask for the folder, prefilled with `./<recipe name>`, else `./<the name derived from
/// what the sections are about>` ([`crate::curate::export::default_name`]), for editing.
pub fn start(app: &mut App) {
    if app.selection.is_empty() && app.curate.exposure.always_units(&app.corpus).is_empty() {
        app.status = "Nothing to export: select sections first (Space)".into();
        return;
    }
    let units =
        crate::curate::units::selection_units(&app.corpus, &app.selection, &app.curate.exposure);
    let name = match &app.curate.recipe_name {
        Some(r) => crate::model::id::slug(r),
        None => crate::curate::export::default_name(&app.corpus, &units, &app.curate.exposure),
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    app.followups.push(Msg::OpenInput(
        InputPurpose::ExportDir,
        cwd.join(name).display().to_string(),
    ));
}

/// The folder `dir` is typed: ask for the description, prefilled from the sources (an
/// empty folder cancels).
pub fn ask_description(app: &mut App, dir: String) {
    if dir.is_empty() {
        app.status = "Export cancelled: no folder given".into();
        return;
    }
    let units =
        crate::curate::units::selection_units(&app.corpus, &app.selection, &app.curate.exposure);
    let text =
        crate::curate::export::default_description(&app.corpus, &units, &app.curate.exposure);
    app.followups
        .push(Msg::OpenInput(InputPurpose::ExportDescription(dir), text));
}

/// Queue the export of the selection into `dir` (typed; `~/` expanded) with the description
/// typed last (none: the generated one).
pub fn export_to(app: &mut App, dir: &str, force: bool) {
    if dir.is_empty() {
        app.status = "Export cancelled: no folder given".into();
        return;
    }
    let dir = expand_home(dir);
    let job = ExportJob {
        corpus: Arc::clone(&app.corpus),
        units: crate::curate::units::selection_units(
            &app.corpus,
            &app.selection,
            &app.curate.exposure,
        ),
        exposure: app.curate.exposure.clone(),
        dir,
        force,
        max_reference_bytes: app.settings.brief.export_max_reference_bytes,
        with_catalog: app.settings.brief.export_catalog,
        active: app.settings.brief.export_active,
        encoding: app.encoding(),
        description: app.curate.export_description.clone(),
    };
    app.status = format!(
        "Exporting to {}…",
        crate::util::sanitize::sanitize_line(&job.dir.display().to_string())
    );
    app.effects.push(Effect::Export(Box::new(job)));
}

fn expand_home(dir: &str) -> PathBuf {
    match (dir.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(dir),
    }
}

/// Apply an export outcome: the status line, or the replace question.
pub fn apply(app: &mut App, outcome: ExportOutcome) {
    match outcome {
        ExportOutcome::Done(s, prefix, warnings) => {
            // A new export of the same folder replaces its earlier warnings.
            app.warnings.retain(|w| !w.starts_with(&prefix));
            app.warnings.extend(warnings);
            app.status = s;
        }
        ExportOutcome::Failed(s) => app.status = s,
        ExportOutcome::Exists(dir) => {
            app.status = format!("{} exists and is not empty", dir.display());
            app.followups.push(Msg::Ask(Question::ReplaceFolder(dir)));
        }
    }
}
