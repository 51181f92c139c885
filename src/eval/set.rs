//! A whole question set: questions grouped by the roots they are searched in, each group's
//! corpus loaded and indexed once, outcomes back in file order, aggregated in a [`Report`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::questions::{Question, QuestionSet};
use super::report::Report;
use super::run::{EvalOptions, Outcome, evaluate};
use crate::index::{FuzzyIndex, Index};
use crate::model::Corpus;

/// Evaluate every question of `set`: each in its roots (`set.paths_of`, relative to
/// `base`; `roots` instead, for every question, when not empty), loaded once per distinct
/// list by `load`; the report keeps file order. Errors: whatever `load` returns.
pub fn evaluate_set<E>(
    set: &QuestionSet,
    base: &Path,
    roots: &[PathBuf],
    load: &mut dyn FnMut(&[PathBuf]) -> Result<Corpus, E>,
    opts: &EvalOptions,
) -> Result<Report, E> {
    let mut groups: BTreeMap<Vec<PathBuf>, Vec<usize>> = BTreeMap::new();
    for (i, q) in set.questions.iter().enumerate() {
        let paths = if roots.is_empty() {
            set.paths_of(q).iter().map(|p| base.join(p)).collect()
        } else {
            roots.to_vec()
        };
        groups.entry(paths).or_default().push(i);
    }
    let mut outcomes: Vec<Option<Outcome>> = vec![None; set.questions.len()];
    for (paths, ids) in &groups {
        let corpus = load(paths)?;
        let index = Index::build(&corpus, &mut |_, _| {});
        if opts.semantic {
            index.embed(&corpus, None);
        }
        if let Some(r) = &opts.rerank {
            index.attach_reranker(std::sync::Arc::clone(r));
        }
        let fuzzy = FuzzyIndex::build(&corpus);
        let qs: Vec<&Question> = ids.iter().map(|&i| &set.questions[i]).collect();
        for (&i, o) in ids.iter().zip(evaluate(&corpus, &index, &fuzzy, &qs, opts)) {
            outcomes[i] = Some(o);
        }
    }
    let all = outcomes.into_iter().flatten().collect();
    Ok(Report::new(
        all,
        opts.max_tokens,
        opts.counter.encoding().as_str(),
    ))
}
