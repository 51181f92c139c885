//! A whole question set: questions grouped by the roots they are searched in, each group's
//! corpus loaded and indexed once, outcomes back in file order, aggregated in a [`Report`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::policies::{PolicyOptions, PolicyOutcome, PolicyReport, run_policies};
use super::questions::{Question, QuestionSet};
use super::report::Report;
use super::run::{EvalOptions, Outcome, evaluate};
use crate::agent::limits::Limits;
use crate::agent::workspace::{Workspace, WorkspaceConfig};
use crate::formats::LoadOptions;
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
    let mut outcomes: Vec<Option<Outcome>> = vec![None; set.questions.len()];
    for (paths, ids) in &groups(set, base, roots) {
        let corpus = load(paths)?;
        let index = index_of(&corpus, opts);
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

/// The questions of `set` (indexes) grouped by the roots they run in: their own
/// (`set.paths_of`, relative to `base`), or `roots` for all when not empty.
fn groups(set: &QuestionSet, base: &Path, roots: &[PathBuf]) -> BTreeMap<Vec<PathBuf>, Vec<usize>> {
    let mut groups: BTreeMap<Vec<PathBuf>, Vec<usize>> = BTreeMap::new();
    for (i, q) in set.questions.iter().enumerate() {
        let paths = if roots.is_empty() {
            set.paths_of(q).iter().map(|p| base.join(p)).collect()
        } else {
            roots.to_vec()
        };
        groups.entry(paths).or_default().push(i);
    }
    groups
}

/// The BM25 index of `corpus`, with the semantic signal and re-ranker `opts` ask for.
fn index_of(corpus: &Corpus, opts: &EvalOptions) -> Index {
    let index = Index::build(corpus, &mut |_, _| {});
    if opts.semantic {
        index.embed(corpus, None);
    }
    if let Some(r) = &opts.rerank {
        index.attach_reranker(std::sync::Arc::clone(r));
    }
    index
}

/// Run the scripted agents of [`super::policies`] on every question of `set`, grouped and
/// loaded as [`evaluate_set`] does; each group's corpus becomes a [`Workspace`] (default
/// result caps, the index `opts` asks for, every node counted in `opts.counter`'s
/// encoding). Errors: whatever `load` returns.
pub fn evaluate_policies_set<E>(
    set: &QuestionSet,
    base: &Path,
    roots: &[PathBuf],
    load: &mut dyn FnMut(&[PathBuf]) -> Result<Corpus, E>,
    opts: &EvalOptions,
    policy: PolicyOptions,
) -> Result<PolicyReport, E> {
    let mut outcomes: Vec<Vec<PolicyOutcome>> = vec![Vec::new(); set.questions.len()];
    for (paths, ids) in &groups(set, base, roots) {
        let corpus = load(paths)?;
        let index = index_of(&corpus, opts);
        let config = WorkspaceConfig {
            specs: Vec::new(),
            load: LoadOptions::default(),
            counter: opts.counter,
            recipe: None,
            recipes_dir: None,
            limits: Limits::default(),
        };
        let ws = Workspace::from_parts(config, corpus, index);
        ws.set_tokens(ws.count_tokens());
        let qs: Vec<&Question> = ids.iter().map(|&i| &set.questions[i]).collect();
        let mut got = run_policies(&ws, &qs, policy).into_iter();
        for &i in ids {
            outcomes[i] = got
                .by_ref()
                .take(super::policies::Policy::ALL.len())
                .collect();
        }
    }
    Ok(PolicyReport::new(
        outcomes.into_iter().flatten().collect(),
        policy,
        opts.counter.encoding().as_str(),
    ))
}
