//! Scripted agents (`skillnav eval --policies`): each question is answered by fixed call
//! sequences over the agent functions the MCP tools call (`crate::agent`, no transport),
//! and each sequence is scored by whether the gold section's text came back, in how many
//! calls, and at what token cost.
//!
//! The policies ([`Policy`]): `search-read` (`search {query, top_k: k}`, then `read {ids:
//! top k, max_tokens: 8000}`), `brief` (`brief {query, max_tokens: budget}`) and
//! `outline-walk` (`outline {query, depth: 1}`, then `outline {id, query, depth: 1}` on the
//! child with the highest `score` above 0 until no child scores, then `read` that node).
//! A question is found when the first 300 characters of a gold section's body (whitespace
//! collapsed) appear in the text the calls returned; tokens are the tokens of every
//! result's text in the evaluation's encoding (docs/MCP.md "Outline").

use serde::Serialize;
use serde_json::Value;

use super::questions::{Kind, Question};
use crate::agent::brief::{BriefArgs, prepare};
use crate::agent::outline::{OutlineArgs, full_id, outline};
use crate::agent::read::{ReadArgs, read};
use crate::agent::search::{SearchArgs, search};
use crate::agent::workspace::Workspace;
use crate::model::NodeId;

/// Characters of a gold section's body that must come back.
pub const GOLD_CHARS: usize = 300;

/// `max_tokens` of the `read` calls.
pub const READ_TOKENS: u64 = 8_000;

/// Most `outline` calls of one walk (a walk never goes deeper than the tree).
const MAX_STEPS: usize = 32;

/// One scripted agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// `search`, then `read` of the top k hits.
    SearchRead,
    /// One `brief` at the budget.
    Brief,
    /// The query-guided outline walk, then `read` of the node it ends on.
    OutlineWalk,
}

impl Policy {
    /// Every policy, in report order.
    pub const ALL: [Policy; 3] = [Policy::SearchRead, Policy::Brief, Policy::OutlineWalk];

    /// `search-read`, `brief`, `outline-walk`.
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::SearchRead => "search-read",
            Policy::Brief => "brief",
            Policy::OutlineWalk => "outline-walk",
        }
    }
}

/// How the policies run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyOptions {
    /// Hits `search-read` reads (3 by default).
    pub read_top_k: usize,
    /// Token budget of the `brief` policy.
    pub brief_tokens: u64,
}

/// What one policy did on one question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PolicyOutcome {
    /// The question's id.
    pub id: String,
    /// Its kind.
    pub kind: Kind,
    /// The policy.
    pub policy: Policy,
    /// Whether a gold section's text came back.
    pub found: bool,
    /// Tool calls made.
    pub calls: usize,
    /// Tokens of every result's text.
    pub tokens: u64,
    /// The ids the policy read (the walk's last node; the hits read).
    pub read: Vec<String>,
}

/// The text results of one policy run so far.
struct Trace<'a> {
    ws: &'a Workspace,
    texts: Vec<String>,
    tokens: u64,
    read: Vec<String>,
}

impl Trace<'_> {
    /// Record one call's result (a JSON document, or an error's message).
    fn json(&mut self, result: Result<Value, String>) -> Option<Value> {
        match result {
            Ok(v) => {
                let text = v.to_string();
                self.tokens += self.ws.counter().count(&text);
                let mut strings = String::new();
                collect_strings(&v, &mut strings);
                self.texts.push(strings);
                Some(v)
            }
            Err(e) => {
                self.text(e);
                None
            }
        }
    }

    /// Record one call's plain-text result.
    fn text(&mut self, text: String) {
        self.tokens += self.ws.counter().count(&text);
        self.texts.push(text);
    }
}

/// Every string value of `v` (depth-first), one per line.
fn collect_strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

/// `text` with every run of whitespace made one space, trimmed.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first [`GOLD_CHARS`] characters of `id`'s body, whitespace collapsed: its own text
/// without its heading line, else (a section that is only sub-sections) its whole text
/// without it. `None` when the node has no text.
pub fn gold_text(ws: &Workspace, id: NodeId) -> Option<String> {
    let body = |t: &str| {
        let t = t.trim_start();
        let t = if t.starts_with('#') {
            t.split_once('\n').map_or("", |(_, rest)| rest)
        } else {
            t
        };
        collapse(t)
    };
    let mut b = body(ws.corpus.own_text(id));
    if b.is_empty() {
        b = body(ws.corpus.text(id));
    }
    (!b.is_empty()).then(|| b.chars().take(GOLD_CHARS).collect())
}

/// Run every [`Policy`] on every question of `questions` over `ws`: outcomes by question,
/// then policy.
pub fn run_policies(
    ws: &Workspace,
    questions: &[&Question],
    opts: PolicyOptions,
) -> Vec<PolicyOutcome> {
    let mut out = Vec::new();
    for q in questions {
        let gold: Vec<String> = q
            .gold
            .iter()
            .flat_map(|g| g.resolve(&ws.corpus))
            .filter_map(|n| gold_text(ws, n))
            .collect();
        for policy in Policy::ALL {
            let mut t = Trace {
                ws,
                texts: Vec::new(),
                tokens: 0,
                read: Vec::new(),
            };
            match policy {
                Policy::SearchRead => search_read(&mut t, &q.query, opts.read_top_k),
                Policy::Brief => brief(&mut t, &q.query, opts.brief_tokens),
                Policy::OutlineWalk => outline_walk(&mut t, &q.query),
            }
            let seen = collapse(&t.texts.join("\n"));
            out.push(PolicyOutcome {
                id: q.id.clone(),
                kind: q.kind,
                policy,
                found: gold.iter().any(|g| seen.contains(g.as_str())),
                calls: t.texts.len(),
                tokens: t.tokens,
                read: t.read,
            });
        }
    }
    out
}

/// `search {query, top_k: k}`, then `read` the hits' ids at [`READ_TOKENS`].
fn search_read(t: &mut Trace<'_>, query: &str, k: usize) {
    let args = SearchArgs {
        query: query.to_string(),
        top_k: k,
        ..SearchArgs::default()
    };
    let Some(found) = t.json(search(t.ws, &args).map_err(|e| e.0)) else {
        return;
    };
    let ids: Vec<String> = found["hits"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h["id"].as_str().map(str::to_string))
        .collect();
    read_ids(t, ids);
}

/// `read {ids, max_tokens: READ_TOKENS}` (nothing when `ids` is empty).
fn read_ids(t: &mut Trace<'_>, ids: Vec<String>) {
    if ids.is_empty() {
        return;
    }
    t.read.clone_from(&ids);
    let args = ReadArgs {
        ids,
        max_tokens: Some(READ_TOKENS),
        ..ReadArgs::default()
    };
    t.json(read(t.ws, &args).map_err(|e| e.0));
}

/// `brief {query, max_tokens}`, as the MCP tool builds it.
fn brief(t: &mut Trace<'_>, query: &str, max_tokens: u64) {
    let ws = t.ws;
    let args = BriefArgs {
        query: Some(query.to_string()),
        budget: Some(max_tokens),
        ..BriefArgs::default()
    };
    match prepare(&ws.corpus, &args, None, None) {
        Ok(p) => {
            let index = p.needs_index().then_some(&ws.index);
            let out = p.build(&ws.corpus, index, ws.counter());
            t.text(out.text);
        }
        Err(e) => t.text(e.0),
    }
}

/// The query-guided walk: `outline {query, depth: 1}`, then down the child with the
/// highest `score` above 0 (outlining it while its row shows children) until no child
/// scores, then `read` the node it stopped on.
fn outline_walk(t: &mut Trace<'_>, query: &str) {
    let mut args = OutlineArgs {
        query: Some(query.to_string()),
        depth: Some(1),
        ..OutlineArgs::default()
    };
    let Some(top) = t.json(outline(t.ws, &args).map_err(|e| e.0)) else {
        return;
    };
    let mut rows: Vec<(String, Value)> = Vec::new();
    for root in top["roots"].as_array().into_iter().flatten() {
        let id = root["id"].as_str().unwrap_or_default();
        rows.extend(children(root, id));
    }
    let mut at: Option<String> = None;
    for _ in 0..MAX_STEPS {
        let Some((id, row)) = best(rows) else { break };
        at = Some(id.clone());
        if row.get("children").is_none() && row.get("children_count").is_none() {
            break;
        }
        args.id = Some(id.clone());
        let Some(doc) = t.json(outline(t.ws, &args).map_err(|e| e.0)) else {
            break;
        };
        rows = children(&doc["node"], &id);
    }
    read_ids(t, at.into_iter().collect());
}

/// The child rows of `row` (whose full id is `id`), with their full ids.
fn children(row: &Value, id: &str) -> Vec<(String, Value)> {
    row["children"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| (full_id(c["id"].as_str().unwrap_or_default(), id), c.clone()))
        .collect()
}

/// The row with the highest `score` above 0 (the first of equals), if any.
fn best(rows: Vec<(String, Value)>) -> Option<(String, Value)> {
    let mut best: Option<(String, Value)> = None;
    for (id, row) in rows {
        let s = row["score"].as_f64().unwrap_or(0.0);
        let beats = best
            .as_ref()
            .is_none_or(|(_, b)| s > b["score"].as_f64().unwrap_or(0.0));
        if s > 0.0 && beats {
            best = Some((id, row));
        }
    }
    best
}

/// A policy's figures over a group of questions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyFigures {
    /// The policy.
    pub policy: Policy,
    /// The question kind, or `None` for every question.
    pub kind: Option<Kind>,
    /// Questions in the group.
    pub questions: usize,
    /// Share of the questions whose gold text came back (0..=1; 0 for an empty group).
    pub found_rate: f64,
    /// Mean tool calls per question.
    pub calls: f64,
    /// All tokens the policy received over the group, divided by the questions found
    /// (`None` when none was found).
    pub tokens_per_found: Option<u64>,
}

impl PolicyFigures {
    /// The figures of `policy` over `outcomes` of `kind` (all kinds when `None`).
    pub fn of(outcomes: &[PolicyOutcome], policy: Policy, kind: Option<Kind>) -> Self {
        let group: Vec<&PolicyOutcome> = outcomes
            .iter()
            .filter(|o| o.policy == policy && kind.is_none_or(|k| o.kind == k))
            .collect();
        let n = group.len();
        let found = group.iter().filter(|o| o.found).count();
        let calls: usize = group.iter().map(|o| o.calls).sum();
        let tokens: u64 = group.iter().map(|o| o.tokens).sum();
        PolicyFigures {
            policy,
            kind,
            questions: n,
            found_rate: if n == 0 { 0.0 } else { found as f64 / n as f64 },
            calls: if n == 0 { 0.0 } else { calls as f64 / n as f64 },
            tokens_per_found: (found > 0).then(|| tokens / found as u64),
        }
    }
}

/// The report of `skillnav eval --policies`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyReport {
    /// Encoding of the token counts.
    pub encoding: String,
    /// Hits `search-read` read.
    pub read_top_k: usize,
    /// `max_tokens` of its `read`.
    pub read_tokens: u64,
    /// Budget of the `brief` policy.
    pub brief_tokens: u64,
    /// Per policy: every question, then each kind present ([`Kind::ALL`] order).
    pub figures: Vec<PolicyFigures>,
    /// Every question's outcome per policy, in file order.
    pub outcomes: Vec<PolicyOutcome>,
}

impl PolicyReport {
    /// Aggregate `outcomes` (in file order) run with `opts`.
    pub fn new(outcomes: Vec<PolicyOutcome>, opts: PolicyOptions, encoding: &str) -> Self {
        let mut figures = Vec::new();
        for policy in Policy::ALL {
            figures.push(PolicyFigures::of(&outcomes, policy, None));
            for k in Kind::ALL {
                if outcomes.iter().any(|o| o.kind == k) {
                    figures.push(PolicyFigures::of(&outcomes, policy, Some(k)));
                }
            }
        }
        PolicyReport {
            encoding: encoding.to_string(),
            read_top_k: opts.read_top_k,
            read_tokens: READ_TOKENS,
            brief_tokens: opts.brief_tokens,
            figures,
            outcomes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_row_is_the_first_highest_score_above_zero() {
        let rows = |scores: &[f64]| -> Vec<(String, Value)> {
            scores
                .iter()
                .enumerate()
                .map(|(i, s)| (format!("r/{i}"), serde_json::json!({"score": s})))
                .collect()
        };
        assert_eq!(
            best(rows(&[0.0, 2.5, 7.0, 7.0])).map(|b| b.0),
            Some("r/2".into())
        );
        assert_eq!(best(rows(&[0.0, 0.0])), None);
    }

    #[test]
    fn figures_divide_all_tokens_by_the_questions_found() {
        let o = |kind, found, calls, tokens| PolicyOutcome {
            id: String::new(),
            kind,
            policy: Policy::Brief,
            found,
            calls,
            tokens,
            read: Vec::new(),
        };
        let all = [
            o(Kind::Verbatim, true, 1, 900),
            o(Kind::Verbatim, false, 3, 300),
            o(Kind::Identifier, false, 2, 50),
        ];
        let f = PolicyFigures::of(&all, Policy::Brief, Some(Kind::Verbatim));
        assert_eq!(
            (f.questions, f.found_rate, f.calls, f.tokens_per_found),
            (2, 0.5, 2.0, Some(1_200))
        );
        let f = PolicyFigures::of(&all, Policy::Brief, Some(Kind::Identifier));
        assert_eq!(f.tokens_per_found, None);
        assert_eq!(
            PolicyFigures::of(&all, Policy::OutlineWalk, None).questions,
            0
        );
    }

    #[test]
    fn strings_of_a_result_are_collected_in_order() {
        let v = serde_json::json!({"a": ["x y", 3, {"b": "z"}], "c": null});
        let mut s = String::new();
        collect_strings(&v, &mut s);
        assert_eq!(s, "x y\nz\n");
        assert_eq!(collapse(" a \n\n b\tc "), "a b c");
    }
}
