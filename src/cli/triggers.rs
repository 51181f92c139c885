//! `skillnav eval --triggers`: route trigger queries over every client's listing (or the
//! one `--agent` names) and print each query's fate, then precision, recall and F1 per
//! skill and per client, as text or JSON (docs/AGENTS.md "Trigger eval").

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value as Json, json};

use super::args::GlobalOpts;
use crate::eval::triggers::{self, ClientRun, Counts, Outcome, Ranking, TriggerQuery, figure};
use crate::skill::clients::{self, Client, ClientOptions};
use crate::util::sanitize::sanitize_line;

/// What `eval --triggers` was asked.
pub struct TriggerRequest<'a> {
    /// Skill roots (empty: every agent's folders, or `--agent`'s).
    pub roots: &'a [PathBuf],
    /// `--queries FILE`, else each skill's `evals/eval_queries.json`.
    pub queries: Option<&'a Path>,
    /// `--min-recall R`.
    pub min_recall: Option<f64>,
    /// The re-rank tier's re-ranker, when a model is installed (as `search` uses it).
    pub rerank: Option<std::sync::Arc<dyn crate::index::Rerank>>,
    /// Without a re-ranker, fuse the static embedding table (`false` with `--semantic off`).
    pub table: bool,
    /// Print JSON.
    pub json: bool,
}

/// Run the eval and print it; returns 1 when a client's recall is below `min_recall`.
/// Errors: a root that cannot be opened, an unreadable or malformed query file, no query
/// at all.
pub fn run(out: &mut dyn Write, req: &TriggerRequest<'_>, g: &GlobalOpts) -> anyhow::Result<i32> {
    let corpus = super::open::open_for_agent(req.roots, g)?;
    let queries = load_queries(&corpus, req.queries)?;
    let opts = ClientOptions::load(g.context_tokens);
    let chosen: Vec<Client> = match g.agent.as_deref().and_then(Client::parse) {
        Some(c) => vec![c],
        None => Client::ALL.to_vec(),
    };
    let ranking = match (&req.rerank, req.table) {
        (Some(r), _) => Ranking::Rerank(r),
        (None, true) => Ranking::Table,
        (None, false) => Ranking::Lexical,
    };
    let runs: Vec<ClientRun> = chosen
        .iter()
        .map(|c| {
            triggers::run_client(
                &clients::client_listing(&corpus, *c, &opts),
                &queries,
                ranking,
            )
        })
        .collect();
    if req.json {
        super::json_out::write_json(out, &runs_json(&runs))?;
    } else {
        print_runs(out, &runs)?;
    }
    let mut below = false;
    if let Some(r) = req.min_recall {
        for run in &runs {
            let Some(recall) = run.overall.recall().filter(|x| *x < r) else {
                continue;
            };
            below = true;
            eprintln!(
                "skillnav: {} recall {recall:.3} is below --min-recall {r}",
                run.client.as_str(),
            );
        }
    }
    Ok(i32::from(below))
}

fn load_queries(
    corpus: &crate::model::Corpus,
    file: Option<&Path>,
) -> anyhow::Result<Vec<TriggerQuery>> {
    let qs = match file {
        Some(f) => triggers::read_queries(f)?,
        None => triggers::skill_queries(corpus)?,
    };
    if qs.is_empty() {
        match file {
            Some(f) => anyhow::bail!("no trigger queries in {}", f.display()),
            None => anyhow::bail!(
                "no trigger queries: no skill has evals/eval_queries.json; pass --queries FILE"
            ),
        }
    }
    let unknown = triggers::unknown_skills(corpus, &qs);
    if !unknown.is_empty() {
        anyhow::bail!(
            "the queries name skills that none of the opened skills is: {} (a typo, or another PATH)",
            sanitize_line(&unknown.join(", "))
        );
    }
    Ok(qs)
}

fn counts_json(c: &Counts) -> Json {
    json!({
        "tp": c.tp, "fp": c.fp, "fn": c.fn_,
        "precision": round3(c.precision()),
        "recall": round3(c.recall()),
        "f1": round3(c.f1()),
    })
}

/// `x` rounded to 3 decimals; null when undefined.
fn round3(x: Option<f64>) -> Json {
    x.map_or(Json::Null, |x| json!((x * 1000.0).round() / 1000.0))
}

fn outcome_str(o: &Outcome) -> String {
    match o {
        Outcome::Fired => "fired".into(),
        Outcome::Beaten(_) => "beaten".into(),
        Outcome::Unlisted(st) => st.as_str().into(),
        Outcome::Quiet => "quiet".into(),
        Outcome::FalseFire => "false-fire".into(),
    }
}

fn queries_json(run: &ClientRun) -> Vec<Json> {
    run.routed
        .iter()
        .map(|r| {
            json!({
                "query": r.query.query,
                "skill": r.query.skill,
                "should_trigger": r.query.should_trigger,
                "better_skill": r.query.better_skill,
                "winner": r.winner,
                "ranking": r.ranking,
                "outcome": outcome_str(&r.outcome),
            })
        })
        .collect()
}

/// `{"clients": [{"agent", "overall", "skills": {name: counts}, "queries"}]}`; with one
/// client, its `queries` are also at the top level.
fn runs_json(runs: &[ClientRun]) -> Json {
    let clients: Vec<Json> = runs
        .iter()
        .map(|r| {
            json!({
                "agent": r.client.as_str(),
                "overall": counts_json(&r.overall),
                "skills": r.per_skill.iter().map(|(k, c)| (k.clone(), counts_json(c))).collect::<serde_json::Map<_, _>>(),
                "queries": queries_json(r),
            })
        })
        .collect();
    let mut doc = json!({ "schema": 1, "clients": clients });
    if let [one] = runs {
        doc["agent"] = json!(one.client.as_str());
        doc["queries"] = json!(queries_json(one));
    }
    doc
}

/// A line for each query that did not go as intended, per client; then per skill P/R/F1 of
/// every client side by side; then one line per client.
fn print_runs(out: &mut dyn Write, runs: &[ClientRun]) -> anyhow::Result<()> {
    for run in runs {
        for r in &run.routed {
            let Some(m) = triggers::miss_line(r) else {
                continue;
            };
            let line = format!("{:<12} {m} — {}", run.client.as_str(), r.query.query);
            writeln!(out, "{}", sanitize_line(&line))?;
        }
    }
    print_table(out, runs)?;
    for run in runs {
        let o = &run.overall;
        writeln!(
            out,
            "{}: precision {}, recall {}, F1 {} ({} queries)",
            run.client.as_str(),
            figure(o.precision(), 3).trim_start(),
            figure(o.recall(), 3).trim_start(),
            figure(o.f1(), 3).trim_start(),
            run.routed.len()
        )?;
    }
    Ok(())
}

fn print_table(out: &mut dyn Write, runs: &[ClientRun]) -> anyhow::Result<()> {
    let Some(first) = runs.first() else {
        return Ok(());
    };
    let width = first
        .per_skill
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let head: Vec<String> = runs
        .iter()
        .map(|r| format!("{:>17}", r.client.as_str()))
        .collect();
    writeln!(out, "{:<width$} {}", "skill", head.join(" "))?;
    writeln!(
        out,
        "{:<width$} {}",
        "",
        runs.iter()
            .map(|_| format!("{:>17}", "P     R     F1"))
            .collect::<Vec<_>>()
            .join(" ")
    )?;
    for name in first.per_skill.keys() {
        let cells: Vec<String> = runs
            .iter()
            .map(|r| {
                let c = r.per_skill.get(name).copied().unwrap_or_default();
                format!(
                    "{:>17}",
                    format!(
                        "{}  {}  {}",
                        figure(c.precision(), 2),
                        figure(c.recall(), 2),
                        figure(c.f1(), 2)
                    )
                )
            })
            .collect();
        writeln!(
            out,
            "{}",
            sanitize_line(&format!("{name:<width$} {}", cells.join(" ")))
        )?;
    }
    Ok(())
}
