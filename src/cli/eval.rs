//! `skillnav eval`: read a question file, search every question in its roots, and print
//! recall@1/@5, MRR@10 and brief containment, overall and by kind (text or JSON).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::args::GlobalOpts;
use crate::eval::policies::{PolicyOptions, PolicyReport};
use crate::eval::{
    EvalOptions, Figures, Outcome, QuestionSet, Report, evaluate_policies_set, evaluate_set,
};
use crate::tokens::TokenCounter;
use crate::util::sanitize::sanitize_line;

/// What `skillnav eval` was asked.
pub struct EvalRequest<'a> {
    /// The question file.
    pub file: &'a Path,
    /// Roots replacing every question's own.
    pub paths: &'a [PathBuf],
    /// Folder the file's relative paths start from (default: the file's folder).
    pub base: Option<&'a Path>,
    /// Brief budget in tokens.
    pub max_tokens: u64,
    /// Fuse the semantic signal with BM25.
    pub semantic: bool,
    /// The re-rank tier's re-ranker, when a model is installed.
    pub rerank: Option<std::sync::Arc<dyn crate::index::Rerank>>,
    /// Run the scripted agents, the search → read one reading this many hits.
    pub policies: Option<usize>,
    /// Print JSON.
    pub json: bool,
}

/// Run the questions of `req.file` and print the report. Errors: unreadable or malformed
/// question file, a root that cannot be opened.
pub fn run(
    out: &mut dyn Write,
    req: &EvalRequest<'_>,
    g: &GlobalOpts,
    counter: TokenCounter,
) -> anyhow::Result<i32> {
    let file = req.file;
    let text = std::fs::read_to_string(file).with_context(|| file.display().to_string())?;
    let set = QuestionSet::parse(&text).with_context(|| file.display().to_string())?;
    let base = match req.base {
        Some(b) => b.to_path_buf(),
        None => file.parent().unwrap_or(Path::new("")).to_path_buf(),
    };
    let opts = EvalOptions {
        max_tokens: req.max_tokens,
        counter,
        semantic: req.semantic,
        rerank: req.rerank.clone(),
    };
    if let Some(read_top_k) = req.policies {
        let policy = PolicyOptions {
            read_top_k,
            brief_tokens: req.max_tokens,
        };
        let report = evaluate_policies_set(
            &set,
            &base,
            req.paths,
            &mut |p| super::open::open(p, g),
            &opts,
            policy,
        )?;
        if req.json {
            super::json_out::write_json(out, &report)?;
        } else {
            print_policies(out, &report)?;
        }
        return Ok(0);
    }
    let report = evaluate_set(
        &set,
        &base,
        req.paths,
        &mut |p| super::open::open(p, g),
        &opts,
    )?;
    if req.json {
        super::json_out::write_json(out, &report)?;
    } else {
        print(out, &report)?;
    }
    Ok(0)
}

/// The policy table: one line per policy and group (every question, then each kind).
fn print_policies(out: &mut dyn Write, r: &PolicyReport) -> std::io::Result<()> {
    writeln!(
        out,
        "search-read: top {} at max_tokens {}; brief: {} tokens; tokens in {}",
        r.read_top_k, r.read_tokens, r.brief_tokens, r.encoding
    )?;
    writeln!(
        out,
        "{:<13} {:<11} {:>4}  {:>6}  {:>5}  {:>12}",
        "policy", "kind", "n", "found", "calls", "tokens/found"
    )?;
    for f in &r.figures {
        let per = f
            .tokens_per_found
            .map_or("-".to_string(), |t| t.to_string());
        writeln!(
            out,
            "{:<13} {:<11} {:>4}  {:>6.3}  {:>5.2}  {:>12}",
            f.policy.as_str(),
            f.kind.map_or("overall", |k| k.as_str()),
            f.questions,
            f.found_rate,
            f.calls,
            per
        )?;
    }
    Ok(())
}

fn row(out: &mut dyn Write, name: &str, f: &Figures) -> std::io::Result<()> {
    writeln!(
        out,
        "{name:<12} {:>4}  {:>6.3}  {:>6.3}  {:>6.3}  {:>6.3}  {:>7}",
        f.questions,
        f.recall_at_1,
        f.recall_at_5,
        f.mrr_at_10,
        f.brief_containment,
        f.median_brief_tokens
    )
}

fn print(out: &mut dyn Write, r: &Report) -> std::io::Result<()> {
    writeln!(
        out,
        "brief budget: {} tokens ({})",
        r.max_tokens, r.encoding
    )?;
    writeln!(
        out,
        "{:<12} {:>4}  {:>6}  {:>6}  {:>6}  {:>6}  {:>7}",
        "", "n", "R@1", "R@5", "MRR@10", "brief", "median"
    )?;
    row(out, "overall", &r.overall)?;
    for (k, f) in &r.by_kind {
        row(out, k.as_str(), f)?;
    }
    let misses: Vec<&Outcome> = r
        .outcomes
        .iter()
        .filter(|o| o.rank.is_none_or(|k| k > 5))
        .collect();
    if !misses.is_empty() {
        writeln!(out, "not in the top 5:")?;
    }
    for o in misses {
        let rank = o.rank.map_or("-".to_string(), |k| k.to_string());
        let note = if o.unresolved {
            "  (gold not found)"
        } else {
            ""
        };
        writeln!(
            out,
            "  {} [{}] rank {rank}: {}{note}",
            sanitize_line(&o.id),
            o.kind.as_str(),
            sanitize_line(&o.query)
        )?;
        for t in &o.top {
            writeln!(out, "      {}", sanitize_line(t))?;
        }
    }
    Ok(())
}
