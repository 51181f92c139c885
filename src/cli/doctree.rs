//! `skillnav doctree collapse|merge DIR`: organise a progressive-exposure doc tree
//! (docs/FORMATS.md §6); `--dry-run` prints the plan, one step per line, and changes nothing.

use std::io::Write;

use super::args::DoctreeOp;
use crate::formats::doc_tree::reshape::{MergeOptions, apply, plan_collapse, plan_merge};

/// Plan (and unless `--dry-run`, apply) the operation, then print each step and a summary
/// line `<n> step(s) planned|applied`.
pub fn run(out: &mut dyn Write, op: &DoctreeOp) -> anyhow::Result<()> {
    let (dir, dry, steps) = match op {
        DoctreeOp::Collapse { dir, dry_run } => (dir, *dry_run, plan_collapse(dir)?),
        DoctreeOp::Merge {
            dir,
            dry_run,
            min_words,
            max_words,
        } => {
            anyhow::ensure!(
                min_words <= max_words,
                "--min-words {min_words} is over --max-words {max_words}: no short doc could ever be merged"
            );
            let opts = MergeOptions {
                min_words: *min_words,
                max_words: *max_words,
            };
            (dir, *dry_run, plan_merge(dir, opts)?)
        }
    };
    // Applied before anything is printed: a closed output (`| head`) never stops it half-way.
    if !dry {
        apply(dir, &steps)?;
    }
    for s in &steps {
        writeln!(
            out,
            "{}",
            crate::util::sanitize::sanitize_line(&s.to_string())
        )?;
    }
    let n = steps.len();
    writeln!(
        out,
        "{n} step{} {}",
        if n == 1 { "" } else { "s" },
        if dry { "planned (dry run)" } else { "applied" }
    )?;
    Ok(())
}
