//! `skillnav model install|list|remove`: the re-rank models in the models folder
//! (docs/DESIGN.md §3 "Re-rank"). The work is the core's ([`crate::rerank::install`],
//! [`crate::rerank::download`], [`crate::rerank::local`], [`crate::rerank::installed`]);
//! this file adds the progress bar (on stderr, only when it is a terminal) and the output.

use std::io::{IsTerminal, Write};
use std::path::Path;

use super::args::ModelOp;
use crate::rerank::install::{ModelError, Progress};
use crate::rerank::{download, install, installed, local, registry};
use crate::util::human::human_bytes;

/// Run one `model` operation on the models folder in force
/// ([`installed::models_dir`]). Errors: every [`ModelError`] (exit 2).
pub fn run(out: &mut dyn Write, op: &ModelOp) -> anyhow::Result<()> {
    let models = installed::models_dir().ok_or(ModelError::NoModelsDir)?;
    match op {
        ModelOp::Install { name, from } => {
            let spec = install::spec(name.as_deref())?;
            let bar = progress_bar(spec.total_bytes());
            let mut tick = |p: Progress<'_>| {
                if let Some(b) = &bar {
                    b.set_position(p.done);
                    b.set_message(p.file.to_string());
                }
            };
            let done = match from {
                Some(from) => local::install(&models, spec, from, &mut tick),
                None => download::install(&models, spec, &registry::hub_base(), &mut tick),
            };
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            let dir = done?;
            writeln!(
                out,
                "installed {} ({}, {}) in {}",
                spec.name,
                human_bytes(installed::folder_bytes(&dir)),
                spec.licence,
                dir.display()
            )?;
        }
        ModelOp::List { json } => list(out, &models, *json)?,
        ModelOp::Remove { name } => {
            let dir = installed::remove(&models, name)?;
            writeln!(out, "removed {name} ({})", dir.display())?;
        }
    }
    Ok(())
}

fn list(out: &mut dyn Write, models: &Path, json: bool) -> anyhow::Result<()> {
    let rows = installed::list(models);
    if json {
        let doc = serde_json::json!({"schema": 1, "models_dir": models, "models": rows});
        super::json_out::write_json(out, &doc)?;
        return Ok(());
    }
    for r in &rows {
        writeln!(
            out,
            "{}{}\t{}\t{}\t{}",
            r.name,
            if r.default { " (default)" } else { "" },
            if r.installed {
                "installed"
            } else {
                "not installed"
            },
            human_bytes(r.bytes),
            r.path.display()
        )?;
    }
    Ok(())
}

/// A byte progress bar on stderr over `total` bytes, when stderr is a terminal.
fn progress_bar(total: u64) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{msg:18} [{bar:24}] {bytes}/{total_bytes} eta {eta}",
    )
    .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    Some(bar)
}
