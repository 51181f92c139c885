//! The offline trigger eval (docs/AGENTS.md "Trigger eval"): does a skill's description fire
//! on the requests it is for, and stay quiet on near misses — for each client, over the
//! listing as that client shows it ([`crate::skill::clients`]: its cut, dropped and omitted
//! entries), with the same ranking as search (BM25 over each listed skill's routing text:
//! its name and the entry text the client shows). Deterministic; no model call.
//!
//! Queries come in the agentskills.io shape, `evals/eval_queries.json` in a skill folder
//! (`[{"query", "should_trigger"}]`, for that skill), or one `--queries` file for many
//! skills whose entries add `skill` (the intended skill of a positive, or the skill a
//! negative must not trigger) and optionally `better_skill` (the sibling that should win).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::index::{Index, SearchOptions};
use crate::model::{Corpus, Format, Node, NodeId, NodeKind};
use crate::skill::clients::{Client, ClientListing, Status};

/// One trigger query.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct TriggerQuery {
    /// The user's request.
    pub query: String,
    /// Whether `skill` should fire.
    pub should_trigger: bool,
    /// The intended skill (positive) or the one that must stay quiet (negative).
    #[serde(default)]
    pub skill: String,
    /// The sibling that should win instead (negatives).
    #[serde(default)]
    pub better_skill: Option<String>,
}

/// Read a `--queries` file: a JSON array of [`TriggerQuery`], each naming its `skill`.
/// Errors: unreadable file, not a JSON array of such objects, an entry without `skill` or
/// with an empty `query`.
pub fn read_queries(path: &Path) -> anyhow::Result<Vec<TriggerQuery>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let qs: Vec<TriggerQuery> = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: not a trigger query list: {e}", path.display()))?;
    if let Some(q) = qs.iter().find(|q| q.skill.trim().is_empty()) {
        anyhow::bail!(
            "{}: the entry {:?} names no skill (add \"skill\")",
            path.display(),
            q.query
        );
    }
    no_empty_query(path, &qs)?;
    Ok(qs)
}

/// Error when an entry of `path` has an empty (or blank) `query`: it would be routed to no
/// skill and count as a miss or a quiet negative that tells nothing.
fn no_empty_query(path: &Path, qs: &[TriggerQuery]) -> anyhow::Result<()> {
    match qs.iter().position(|q| q.query.trim().is_empty()) {
        Some(i) => anyhow::bail!(
            "{}: entry {} has an empty query (write the request a user would type)",
            path.display(),
            i + 1
        ),
        None => Ok(()),
    }
}

/// The `evals/eval_queries.json` of every skill of `corpus`, each query given that skill's
/// name (a `skill` key inside such a file is ignored: the folder names the skill). Errors:
/// a file that cannot be read or is not a list of `{query, should_trigger}` (a CI gate must
/// not silently check less).
pub fn skill_queries(corpus: &Corpus) -> anyhow::Result<Vec<TriggerQuery>> {
    let mut out = Vec::new();
    for c in crate::skill::clients::candidate::gather(corpus) {
        let Some(dir) = c.path.parent() else { continue };
        let file = dir.join("evals").join("eval_queries.json");
        if !file.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&file)
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let qs: Vec<TriggerQuery> = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}: not a list of {{query, should_trigger}}: {e}",
                file.display()
            )
        })?;
        no_empty_query(&file, &qs)?;
        let name = c.fm_name.clone().unwrap_or_else(|| c.folder.clone());
        out.extend(qs.into_iter().map(|mut q| {
            q.skill.clone_from(&name);
            q
        }));
    }
    Ok(out)
}

/// The skill names `queries` use (`skill`, `better_skill`) that no skill of `corpus` has
/// (frontmatter `name`, folder, or tree title), each once, sorted: a typo, or the wrong
/// PATH.
pub fn unknown_skills(corpus: &Corpus, queries: &[TriggerQuery]) -> Vec<String> {
    let mut known = std::collections::HashSet::new();
    for c in crate::skill::clients::candidate::gather(corpus) {
        known.extend(c.fm_name.clone());
        known.insert(c.folder.clone());
        known.insert(c.title.clone());
    }
    let mut out: Vec<String> = queries
        .iter()
        .flat_map(|q| std::iter::once(&q.skill).chain(q.better_skill.as_ref()))
        .filter(|n| !known.contains(*n))
        .cloned()
        .collect();
    out.sort();
    out.dedup();
    out
}

/// How one query went under one client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A positive whose skill ranked first.
    Fired,
    /// A positive beaten by the named skill (or by nothing: no listed skill matched).
    Beaten(Option<String>),
    /// A positive whose skill the client never lists (status given).
    Unlisted(Status),
    /// A negative whose skill stayed quiet (another skill, or none, ranked first).
    Quiet,
    /// A negative whose skill ranked first anyway.
    FalseFire,
}

/// One query routed over one client's listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routed {
    /// The query.
    pub query: TriggerQuery,
    /// The skill ranked first, `None` when no listed skill matched.
    pub winner: Option<String>,
    /// Listed skills that matched, best first (names, each once; at most 10).
    pub ranking: Vec<String>,
    /// What happened.
    pub outcome: Outcome,
}

/// Precision, recall and F1 counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positives of the skill it won.
    pub tp: usize,
    /// Queries it won that were not its positives.
    pub fp: usize,
    /// Its positives it did not win.
    pub fn_: usize,
}

impl Counts {
    /// tp / (tp + fp); `None` when it never won anything (no precision to speak of).
    pub fn precision(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fp)
    }
    /// tp / (tp + fn); `None` when it has no positives.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.tp, self.tp + self.fn_)
    }
    /// The harmonic mean of precision and recall: 0 when it won none of its positives or
    /// only others' queries, `None` when neither is defined.
    pub fn f1(&self) -> Option<f64> {
        match (self.precision(), self.recall()) {
            (None, None) => None,
            (Some(p), Some(r)) if p + r > 0.0 => Some(2.0 * p * r / (p + r)),
            _ => Some(0.0),
        }
    }
}

/// `x` with `decimals` decimals, or `—` (padded to the same width) when undefined.
pub fn figure(x: Option<f64>, decimals: usize) -> String {
    match x {
        Some(x) => format!("{x:.decimals$}"),
        None => format!("{:>w$}", "—", w = decimals + 2),
    }
}

fn ratio(a: usize, b: usize) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// The eval of one client.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientRun {
    /// The client.
    pub client: Client,
    /// Each query, in input order.
    pub routed: Vec<Routed>,
    /// Counts per skill (every skill a query names), by name.
    pub per_skill: BTreeMap<String, Counts>,
    /// Counts over all skills (micro: every positive and every win summed).
    pub overall: Counts,
}

/// A one-root corpus of the skills `listing` shows, each a skill node whose routing text is
/// its name and the entry text the client shows.
fn listed_corpus(listing: &ClientListing) -> Corpus {
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Skill, "listing", ""));
    let mut seen = std::collections::HashSet::new();
    for s in listing.skills.iter().filter(|s| s.status.listed()) {
        if !seen.insert(s.name.clone()) {
            continue;
        }
        let mut n = Node::new(NodeKind::Skill, Format::Skill, &s.name, s.name.as_str());
        n.meta.insert("name".into(), s.name.clone().into());
        n.meta.insert("description".into(), s.shown.clone().into());
        c.add_child(root, n);
    }
    c.finalize();
    c
}

/// How trigger queries are ranked over a listing.
#[derive(Clone, Copy, Debug)]
pub enum Ranking<'a> {
    /// BM25 alone (`--semantic off`).
    Lexical,
    /// BM25 fused with the static embedding table: the routing of a listing without a
    /// model. Unlike search over documents, where the table does not pay, it ranks short
    /// descriptions better (docs/AGENTS.md "Trigger eval").
    Table,
    /// The re-rank tier of an installed model, over every listed entry.
    Rerank(&'a std::sync::Arc<dyn crate::index::Rerank>),
}

/// Route every query over `listing` by `ranking` and score it. With a re-rank model every
/// listed entry is a candidate of the re-rank, not only the lexical hits: a client reads
/// its whole listing, so an entry that shares no word with the query can still win on
/// meaning (the lexical hits first, then the other entries in listing order, up to the
/// re-ranker's depth).
pub fn run_client(
    listing: &ClientListing,
    queries: &[TriggerQuery],
    ranking: Ranking<'_>,
) -> ClientRun {
    let corpus = listed_corpus(listing);
    let index = Index::build(&corpus, &mut |_, _| {});
    let rerank = match ranking {
        Ranking::Rerank(r) => Some(r),
        Ranking::Table => {
            index.embed(&corpus, None);
            None
        }
        Ranking::Lexical => None,
    };
    let routed: Vec<Routed> = queries
        .iter()
        .map(|q| {
            let ranking = route(&corpus, &index, &q.query, rerank);
            let winner = ranking.first().cloned();
            let outcome = outcome(listing, q, winner.as_deref());
            Routed {
                query: q.clone(),
                winner,
                ranking,
                outcome,
            }
        })
        .collect();
    let (per_skill, overall) = score(&routed);
    ClientRun {
        client: listing.client,
        routed,
        per_skill,
        overall,
    }
}

/// The skill names `query` ranks over the listed `corpus`, best first: its lexical hits,
/// re-ranked with every other entry by `rerank` when given.
fn route(
    corpus: &Corpus,
    index: &Index,
    query: &str,
    rerank: Option<&std::sync::Arc<dyn crate::index::Rerank>>,
) -> Vec<String> {
    let opts = SearchOptions {
        top_k: 10,
        prefix: false,
    };
    let mut hits = index.search(corpus, query, &opts).hits;
    if let Some(r) = rerank {
        let depth = r.depth().max(hits.len());
        let others: Vec<NodeId> = corpus
            .all_preorder()
            .into_iter()
            .filter(|n| corpus.node(*n).kind == NodeKind::Skill)
            .filter(|n| !hits.iter().any(|h| h.node == *n))
            .collect();
        for node in others.into_iter().take(depth.saturating_sub(hits.len())) {
            hits.push(crate::index::Hit {
                node,
                score: 0.0,
                source: crate::index::HitSource::Bm25,
                scorer: crate::index::Scorer::Skillnav,
                copies: Vec::new(),
            });
        }
        r.rerank(corpus, query, &mut hits);
    }
    let mut ranking: Vec<String> = Vec::new();
    for h in hits {
        let t = &corpus.node(h.node).title;
        if corpus.node(h.node).kind == NodeKind::Skill && !ranking.contains(t) {
            ranking.push(t.clone());
        }
    }
    ranking
}

fn outcome(listing: &ClientListing, q: &TriggerQuery, winner: Option<&str>) -> Outcome {
    let won = winner == Some(q.skill.as_str());
    if !q.should_trigger {
        return if won {
            Outcome::FalseFire
        } else {
            Outcome::Quiet
        };
    }
    if won {
        return Outcome::Fired;
    }
    let status = listing
        .skills
        .iter()
        .filter(|s| s.name == q.skill)
        .map(|s| s.status)
        .min();
    match status {
        Some(st) if !st.listed() => Outcome::Unlisted(st),
        None => Outcome::Unlisted(Status::NotLoaded),
        _ => Outcome::Beaten(winner.map(str::to_string)),
    }
}

/// Whether `winner` winning `r` counts against it: any win that is not the query's own
/// positive, except the `better_skill` of a negative (the sibling that should win).
pub fn wrong_win(r: &Routed, winner: &str) -> bool {
    let own_positive = r.query.should_trigger && winner == r.query.skill;
    let better = !r.query.should_trigger && r.query.better_skill.as_deref() == Some(winner);
    !own_positive && !better
}

/// Per-skill and overall counts: a win of skill S on a positive of S is a true positive;
/// a win of S on any other query (except as the named `better_skill` of a negative) a false
/// positive; a positive of S that S did not win a false negative.
fn score(routed: &[Routed]) -> (BTreeMap<String, Counts>, Counts) {
    let mut per: BTreeMap<String, Counts> = BTreeMap::new();
    for r in routed {
        per.entry(r.query.skill.clone()).or_default();
        let hit = r.query.should_trigger && r.winner.as_deref() == Some(r.query.skill.as_str());
        if hit {
            per.entry(r.query.skill.clone()).or_default().tp += 1;
            continue;
        }
        if r.query.should_trigger {
            per.entry(r.query.skill.clone()).or_default().fn_ += 1;
        }
        if let Some(w) = r.winner.as_ref().filter(|w| wrong_win(r, w)) {
            per.entry(w.clone()).or_default().fp += 1;
        }
    }
    let overall = per.values().fold(Counts::default(), |a, c| Counts {
        tp: a.tp + c.tp,
        fp: a.fp + c.fp,
        fn_: a.fn_ + c.fn_,
    });
    (per, overall)
}

/// The per-skill figures of one client as lines, `name  P 0.75  R 1.00  F1 0.86  (3/3)`
/// (`—` for a figure with nothing to count),
/// then one line per positive that did not fire (`  ✗ pdf-form-filler: beaten by
/// pdf-toolkit — Could you type…`); the TUI's clients popup shows them.
pub fn per_skill_lines(run: &ClientRun) -> Vec<String> {
    let w = run
        .per_skill
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(5);
    let mut out: Vec<String> = run
        .per_skill
        .iter()
        .map(|(name, c)| {
            format!(
                "{name:<w$}  P {}  R {}  F1 {}  ({}/{})",
                figure(c.precision(), 2),
                figure(c.recall(), 2),
                figure(c.f1(), 2),
                c.tp,
                c.tp + c.fn_
            )
        })
        .collect();
    out.extend(
        run.routed
            .iter()
            .filter_map(|r| miss_line(r).map(|m| format!("  ✗ {m} — {}", r.query.query))),
    );
    out
}

/// What went wrong with `r`, naming the skill it counts against, or `None` when it went
/// as intended: `pdf-form-filler: beaten by pdf-toolkit`, `release-notes: not listed by
/// the client (dropped)`, `changelog-writer: fired although it should not (release-notes
/// should win)`, or, for a near miss another skill won, `pdf-toolkit: fired on a near
/// miss of pdf-form-filler`.
pub fn miss_line(r: &Routed) -> Option<String> {
    let skill = &r.query.skill;
    Some(match &r.outcome {
        Outcome::Fired => return None,
        Outcome::Beaten(Some(w)) => format!("{skill}: beaten by {w}"),
        Outcome::Beaten(None) => format!("{skill}: no skill matched"),
        Outcome::Unlisted(st) => format!("{skill}: not listed by the client ({})", st.as_str()),
        Outcome::FalseFire => format!(
            "{skill}: fired although it should not{}",
            r.query
                .better_skill
                .as_ref()
                .map(|b| format!(" ({b} should win)"))
                .unwrap_or_default()
        ),
        Outcome::Quiet => {
            let w = r.winner.as_deref().filter(|w| wrong_win(r, w))?;
            format!("{w}: fired on a near miss of {skill}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{Hit, Rerank, RerankRun};

    /// A stand-in re-ranker: the skill titled `favourite` gets cosine 1, every other 0, with
    /// the weight all on the cosine.
    #[derive(Debug)]
    struct Favours(&'static str);

    impl Rerank for Favours {
        fn depth(&self) -> usize {
            50
        }

        fn rerank(&self, corpus: &Corpus, _query: &str, hits: &mut [Hit]) -> RerankRun {
            let cosines: Vec<f64> = hits
                .iter()
                .map(|h| f64::from(u8::from(corpus.node(h.node).title == self.0)))
                .collect();
            crate::rerank::fuse::reorder(hits, &cosines, 1.0);
            RerankRun {
                candidates: hits.len(),
                embedded: 0,
                micros: 0,
            }
        }
    }

    /// A listing corpus of `(name, description)` skills.
    fn listed(skills: &[(&str, &str)]) -> Corpus {
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Skill, "listing", ""));
        for &(name, description) in skills {
            let mut n = Node::new(NodeKind::Skill, Format::Skill, name, name);
            n.meta.insert("name".into(), name.into());
            n.meta.insert("description".into(), description.into());
            c.add_child(root, n);
        }
        c.finalize();
        c
    }

    #[test]
    fn an_entry_sharing_no_word_with_the_query_can_still_win_the_re_rank() {
        let corpus = listed(&[
            (
                "csv-cleaner",
                "Clean CSV files: fix delimiters and encodings.",
            ),
            (
                "pg-tuning",
                "Tune PostgreSQL: vacuum, indexes, memory settings.",
            ),
        ]);
        let index = Index::build(&corpus, &mut |_, _| {});
        let query = "my csv export from the database is slow";
        assert_eq!(route(&corpus, &index, query, None), ["csv-cleaner"]);
        let r: std::sync::Arc<dyn Rerank> = std::sync::Arc::new(Favours("pg-tuning"));
        assert_eq!(
            route(&corpus, &index, query, Some(&r)),
            ["pg-tuning", "csv-cleaner"]
        );
    }
}
