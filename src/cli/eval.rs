//! `skillnav eval`: read a question file, search every question in its roots, and print
//! recall@1/@5, MRR@10 and brief containment, overall and by kind (text or JSON).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::args::GlobalOpts;
use crate::eval::{EvalOptions, Figures, Outcome, QuestionSet, Report, evaluate};
use crate::index::{FuzzyIndex, Index};
use crate::tokens::TokenCounter;
use crate::util::sanitize::sanitize_line;

/// Run the questions of `file`. With `paths`, every question is searched in them; else in
/// its own or the file's `paths`, relative to `base` (default: the file's folder).
#[allow(clippy::too_many_arguments)]
pub fn run(
    out: &mut dyn Write,
    file: &Path,
    paths: &[PathBuf],
    base: Option<&Path>,
    max_tokens: u64,
    as_json: bool,
    g: &GlobalOpts,
    counter: TokenCounter,
) -> anyhow::Result<i32> {
    let text = std::fs::read_to_string(file).with_context(|| file.display().to_string())?;
    let set = QuestionSet::parse(&text).with_context(|| file.display().to_string())?;
    let base = base.map(Path::to_path_buf).unwrap_or_else(|| file.parent().unwrap_or(Path::new("")).to_path_buf());
    // Questions grouped by the roots they are searched in; each group's corpus is opened once.
    let mut groups: BTreeMap<Vec<PathBuf>, Vec<usize>> = BTreeMap::new();
    for (i, q) in set.questions.iter().enumerate() {
        let roots = if paths.is_empty() {
            set.paths_of(q).iter().map(|p| base.join(p)).collect()
        } else {
            paths.to_vec()
        };
        groups.entry(roots).or_default().push(i);
    }
    let opts = EvalOptions { max_tokens, counter };
    let mut outcomes: Vec<Option<Outcome>> = vec![None; set.questions.len()];
    for (roots, ids) in &groups {
        let corpus = super::open::open(roots, g)?;
        let index = Index::build(&corpus, &mut |_, _| {});
        let fuzzy = FuzzyIndex::build(&corpus);
        let qs: Vec<_> = ids.iter().map(|&i| &set.questions[i]).collect();
        for (&i, o) in ids.iter().zip(evaluate(&corpus, &index, &fuzzy, &qs, &opts)) {
            outcomes[i] = Some(o);
        }
    }
    let report = Report::new(outcomes.into_iter().flatten().collect(), max_tokens, counter.encoding().as_str());
    if as_json {
        serde_json::to_writer_pretty(&mut *out, &report)?;
        writeln!(out)?;
    } else {
        print(out, &report)?;
    }
    Ok(0)
}

fn row(out: &mut dyn Write, name: &str, f: &Figures) -> std::io::Result<()> {
    writeln!(
        out,
        "{name:<12} {:>4}  {:>6.3}  {:>6.3}  {:>6.3}  {:>6.3}  {:>7}",
        f.questions, f.recall_at_1, f.recall_at_5, f.mrr_at_10, f.brief_containment, f.median_brief_tokens
    )
}

fn print(out: &mut dyn Write, r: &Report) -> std::io::Result<()> {
    writeln!(out, "brief budget: {} tokens ({})", r.max_tokens, r.encoding)?;
    writeln!(out, "{:<12} {:>4}  {:>6}  {:>6}  {:>6}  {:>6}  {:>7}", "", "n", "R@1", "R@5", "MRR@10", "brief", "median")?;
    row(out, "overall", &r.overall)?;
    for (k, f) in &r.by_kind {
        row(out, k.as_str(), f)?;
    }
    let misses: Vec<&Outcome> = r.outcomes.iter().filter(|o| o.rank.is_none_or(|k| k > 5)).collect();
    if !misses.is_empty() {
        writeln!(out, "not in the top 5:")?;
    }
    for o in misses {
        let rank = o.rank.map_or("-".to_string(), |k| k.to_string());
        let note = if o.unresolved { "  (gold not found)" } else { "" };
        writeln!(out, "  {} [{}] rank {rank}: {}{note}", sanitize_line(&o.id), o.kind.as_str(), sanitize_line(&o.query))?;
        for t in &o.top {
            writeln!(out, "      {}", sanitize_line(t))?;
        }
    }
    Ok(())
}
