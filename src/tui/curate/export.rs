//! `X` in the TUI (issue 5 §7): export the curated selection (selected units, exposure
//! levels) as a new Agent Skills folder. The folder is typed in a prompt (its name is the
//! skill name); writing runs on a worker ([`run`]); an existing non-empty folder is replaced
//! only after a question.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::curate::export::{ExportOptions, export_skill};
use crate::curate::exposure::ExposureMap;
use crate::model::{Corpus, NodeId};
use crate::tokens::{Encoding, TokenCounter};
use crate::tui::app::{App, Effect};

use super::InputPurpose;
use super::actions::open_input;

/// A job for [`run`].
#[derive(Clone, Debug)]
pub struct ExportJob {
    /// The corpus.
    pub corpus: Arc<Corpus>,
    /// Selected text units.
    pub units: Vec<NodeId>,
    /// Exposure levels.
    pub exposure: ExposureMap,
    /// The skill folder to write.
    pub dir: PathBuf,
    /// Replace a non-empty folder.
    pub force: bool,
    /// Largest reference file in bytes.
    pub max_reference_bytes: usize,
    /// Also write `assets/catalog.json`.
    pub with_catalog: bool,
    /// Token encoding of the table and limits.
    pub encoding: Encoding,
}

impl PartialEq for ExportJob {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.corpus, &other.corpus)
            && self.units == other.units
            && self.dir == other.dir
            && self.force == other.force
    }
}

/// How an export ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportOutcome {
    /// Written: the status line, the prefix of its warnings (`export <dir>: `) and the
    /// warnings (listed under `?`).
    Done(String, String, Vec<String>),
    /// The folder exists and is not empty (ask before replacing it).
    Exists(PathBuf),
    /// Failed: the status line.
    Failed(String),
}

/// `X`: ask for the folder, prefilled with `./<recipe name or first selected skill>`.
pub fn start(app: &mut App) {
    if app.selection.is_empty() && app.curate.exposure.always_units(&app.corpus).is_empty() {
        app.status = "Nothing to export: select sections first (Space)".into();
        return;
    }
    let base = app
        .curate
        .recipe_name
        .clone()
        .or_else(|| {
            super::job::skills_for(&app.corpus, &app.selection, None)
                .first()
                .map(|s| format!("{}-curated", app.corpus.node(*s).title))
        })
        .unwrap_or_else(|| "curated-skill".into());
    let name = crate::model::id::slug(&base);
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    open_input(app, InputPurpose::ExportDir, cwd.join(name).display().to_string());
}

/// Queue the export of the selection into `dir` (typed; `~/` expanded).
pub fn export_to(app: &mut App, dir: &str, force: bool) {
    if dir.is_empty() {
        app.status = "Export cancelled: no folder given".into();
        return;
    }
    let dir = expand_home(dir);
    let job = ExportJob {
        corpus: Arc::clone(&app.corpus),
        units: app.selection.units(&app.corpus),
        exposure: app.curate.exposure.clone(),
        dir,
        force,
        max_reference_bytes: app.settings.brief.export_max_reference_bytes,
        with_catalog: app.settings.brief.export_catalog,
        encoding: app.encoding(),
    };
    app.status =
        format!("Exporting to {}…", crate::util::sanitize::sanitize_line(&job.dir.display().to_string()));
    app.effects.push(Effect::Export(Box::new(job)));
}

fn expand_home(dir: &str) -> PathBuf {
    match (dir.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(dir),
    }
}

/// Write the export (on a worker).
pub fn run(job: &ExportJob) -> ExportOutcome {
    let non_empty = std::fs::read_dir(&job.dir).is_ok_and(|mut d| d.next().is_some());
    if let Some(open) = crate::curate::export::open_file_inside(&job.corpus, &job.dir).filter(|_| non_empty) {
        return ExportOutcome::Failed(format!(
            "Export refused: {} holds files open here (e.g. {}); choose another folder",
            job.dir.display(),
            open.display()
        ));
    }
    if non_empty && !job.force {
        return ExportOutcome::Exists(job.dir.clone());
    }
    let opts = ExportOptions {
        description: None,
        max_reference_bytes: job.max_reference_bytes,
        with_catalog: job.with_catalog,
        force: job.force,
        counter: TokenCounter::new(job.encoding),
    };
    match export_skill(&job.corpus, &job.units, &job.exposure, &job.dir, &opts) {
        Ok(r) => {
            let warn = if r.warnings.is_empty() {
                "validates clean".to_string()
            } else {
                format!("{} (? lists them)", crate::util::human::plural(r.warnings.len(), "warning"))
            };
            let shown = crate::util::sanitize::sanitize_line(&r.dir.display().to_string()).into_owned();
            let prefix = format!("export {shown}: ");
            let warnings = r.warnings.iter().map(|w| format!("{prefix}{w}")).collect();
            ExportOutcome::Done(
                format!(
                    "Exported {} to {} · {warn} · {} · SKILL.md body {} lines, {} tokens",
                    crate::util::human::plural(r.sections.len(), "section"),
                    crate::util::sanitize::sanitize_line(&r.dir.display().to_string()),
                    crate::util::human::plural(r.files.len(), "file"),
                    r.body_lines,
                    r.body_tokens,
                ),
                prefix,
                warnings,
            )
        }
        Err(e) => ExportOutcome::Failed(format!("Export failed: {e}")),
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
            super::actions::ask(app, super::Question::ReplaceFolder(dir));
        }
    }
}
