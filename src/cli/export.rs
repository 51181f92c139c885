//! `skillnav export`: a recipe's selection written as a new Agent Skills folder.

use std::io::Write;

use super::args::ExportArgs;
use super::recipe::{apply_with_warnings, resolve_recipe};
use crate::curate::export::{ExportOptions, export_active_skill, export_skill};
use crate::model::Corpus;
use crate::tokens::TokenCounter;

/// `export`: apply the recipe, write the skill, print the files written and a summary.
pub fn run_export(
    out: &mut dyn Write,
    corpus: &Corpus,
    a: &ExportArgs,
    counter: TokenCounter,
) -> anyhow::Result<()> {
    let recipe = resolve_recipe(&a.recipe)?;
    let applied = apply_with_warnings(&recipe, corpus);
    let units =
        crate::curate::units::selection_units(corpus, &applied.selection, &applied.exposure);
    let opts = ExportOptions {
        description: a.description.clone(),
        max_reference_bytes: a.max_reference_bytes,
        with_catalog: a.with_catalog,
        force: a.force,
        counter,
    };
    let export = if a.active {
        export_active_skill
    } else {
        export_skill
    };
    let report = export(corpus, &units, &applied.exposure, &a.output, &opts)?;
    for f in &report.files {
        writeln!(out, "{}", report.dir.join(f).display())?;
    }
    writeln!(
        out,
        "Exported {} section(s) as skill {:?} · SKILL.md body {} lines, {} tokens ({})",
        report.sections.len(),
        report.name,
        report.body_lines,
        report.body_tokens,
        counter.encoding()
    )?;
    for w in &report.warnings {
        eprintln!("skillnav: export: {w}");
    }
    Ok(())
}
