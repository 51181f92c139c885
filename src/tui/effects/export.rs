//! Writing a curated selection out as a new Agent Skills folder, off the UI thread: the job
//! ([`ExportJob`]), its outcome ([`ExportOutcome`]) and [`run`]. An existing non-empty
//! folder is replaced only when the job says so.

use std::path::PathBuf;
use std::sync::Arc;

use crate::curate::export::{ExportOptions, export_active_skill, export_skill};
use crate::curate::exposure::ExposureMap;
use crate::model::{Corpus, NodeId};
use crate::tokens::{Encoding, TokenCounter};

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
    /// Write an active skill ([`crate::curate::export::export_active_skill`]).
    pub active: bool,
    /// Token encoding of the table and limits.
    pub encoding: Encoding,
    /// Frontmatter description (`None`: generated from the sources).
    pub description: Option<String>,
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

/// Write the export (on a worker).
pub fn run(job: &ExportJob) -> ExportOutcome {
    let non_empty = std::fs::read_dir(&job.dir).is_ok_and(|mut d| d.next().is_some());
    if let Some(open) =
        crate::curate::export::open_file_inside(&job.corpus, &job.dir).filter(|_| non_empty)
    {
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
        description: job.description.clone(),
        max_reference_bytes: job.max_reference_bytes,
        with_catalog: job.with_catalog,
        force: job.force,
        counter: TokenCounter::new(job.encoding),
    };
    let export = if job.active {
        export_active_skill
    } else {
        export_skill
    };
    match export(&job.corpus, &job.units, &job.exposure, &job.dir, &opts) {
        Ok(r) => {
            let warn = if r.warnings.is_empty() {
                "validates clean".to_string()
            } else {
                format!(
                    "{} (? lists them)",
                    crate::util::human::plural(r.warnings.len(), "warning")
                )
            };
            let shown =
                crate::util::sanitize::sanitize_line(&r.dir.display().to_string()).into_owned();
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
