//! Re-rank benchmark and fusion check (docs/DESIGN.md §3 "Re-rank"): `cargo bench --bench
//! rerank`, on the installed default model (`skillnav model install`), or the folder
//! `SKILLNAV_RERANK_MODEL` names (a clear message and exit 0 when there is neither).
//!
//! 1. Latency and memory: loads `SKILLNAV_BENCH_CORPUS` (default `../shared/corpus/large`),
//!    then for each query re-ranks the first-stage top 50 with an empty vector cache (cold:
//!    every text encoded) and again (warm: the cache), and prints each as a ratio of the same
//!    query's first-stage time; then the same cold re-rank encoded on one thread, and with
//!    each other word-piece limit of `SKILLNAV_BENCH_PIECES`, as ratios of the default cold
//!    run of the same query; `VmRSS` before and after loading the model and after the
//!    re-ranks.
//! 2. Dev-set figures: `SKILLNAV_EVAL_FILE` (default `tests/fixtures/eval/dev.json`) over
//!    `SKILLNAV_EVAL_BASE` (default `../shared/corpus`), without re-rank and, for each
//!    word-piece limit of `SKILLNAV_BENCH_PIECES` (default `128`, comma-separated), with each
//!    fusion weight of `SKILLNAV_BENCH_WEIGHTS` (default [`WEIGHTS`]), the runs of a limit
//!    sharing one encoder (its cache makes every run after the first cheap): R@1, R@5 by
//!    kind, MRR@10, brief containment at 8k tokens.

// Tests and benchmarks may unwrap, expect and panic: a failure there is the report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use skillnav::eval::{EvalOptions, Figures, QuestionSet, Report, evaluate_set};
use skillnav::formats::{LoadOptions, load_root, root_specs};
use skillnav::index::{Index, Rerank, SearchOptions};
use skillnav::model::Corpus;
use skillnav::rerank::encoder::{Encoder, Reranker};
use skillnav::tokens::{Encoding, TokenCounter};

/// Fusion weights on the cosine compared on the dev set.
const WEIGHTS: &[f64] = &[1.0, 0.8, 0.6, 0.4];

/// Queries for the latency part (sentence questions and topics).
const QUERIES: &[&str] = &[
    "how do I roll back a failed upgrade",
    "what happens when a node runs out of memory",
    "graduation criteria",
    "how are secrets kept safe at rest",
    "kube-apiserver flags",
];

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn load(paths: &[PathBuf]) -> Corpus {
    let mut corpus = Corpus::new();
    for spec in root_specs(paths) {
        corpus.append(load_root(&spec, &LoadOptions::default(), &mut |_| {}));
    }
    corpus.finalize();
    corpus
}

fn row(name: &str, f: &Figures) {
    println!(
        "  {name:<12} n={:<3} R@1 {:.3}  R@5 {:.3}  MRR@10 {:.3}  brief@8k {:.3}  median {}",
        f.questions,
        f.recall_at_1,
        f.recall_at_5,
        f.mrr_at_10,
        f.brief_containment,
        f.median_brief_tokens
    );
}

fn report(title: &str, r: &Report) {
    println!("{title}");
    row("overall", &r.overall);
    for (k, f) in &r.by_kind {
        row(k.as_str(), f);
    }
}

/// The comma-separated numbers of `var`, else `default`.
fn list<T: std::str::FromStr + Copy>(var: &str, default: &[T]) -> Vec<T> {
    std::env::var(var).map_or_else(
        |_| default.to_vec(),
        |v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect(),
    )
}

fn main() {
    let settings = skillnav::config::SearchSettings::default();
    let Some(model) = skillnav::rerank::model_dir(&settings) else {
        println!(
            "rerank bench: no model: run `skillnav model install` or set SKILLNAV_RERANK_MODEL"
        );
        return;
    };
    let e = load_encoders(&model);
    latency(&e.default, &e.others, e.loaded);
    dev_set(&e.default, e.others, &e.pieces, &e.weights);
}

/// The encoders the bench runs, and what it varies.
struct Encoders {
    /// The encoder of the default word-piece limit.
    default: Arc<Encoder>,
    /// One encoder per other limit of `SKILLNAV_BENCH_PIECES`.
    others: Vec<(usize, Encoder)>,
    /// The word-piece limits and the fusion weights to run.
    pieces: Vec<usize>,
    weights: Vec<f64>,
    /// `VmRSS` once they are loaded, in KiB.
    loaded: u64,
}

/// The default encoder and one per other word-piece limit of `SKILLNAV_BENCH_PIECES`
/// (their load timed, with the `VmRSS` they add).
fn load_encoders(model: &Path) -> Encoders {
    let before = rss_kib();
    let t = Instant::now();
    let enc = Arc::new(Encoder::open(model).unwrap());
    let pieces: Vec<usize> = list(
        "SKILLNAV_BENCH_PIECES",
        &[skillnav::rerank::encoder::DEFAULT_PIECES],
    );
    let weights: Vec<f64> = list("SKILLNAV_BENCH_WEIGHTS", WEIGHTS);
    let others: Vec<(usize, Encoder)> = pieces
        .iter()
        .filter(|&&p| p != skillnav::rerank::encoder::DEFAULT_PIECES)
        .map(|&p| (p, Encoder::open_with(model, p).unwrap()))
        .collect();
    let load_ms = t.elapsed().as_millis();
    let loaded = rss_kib();
    println!(
        "model loaded in {load_ms} ms; VmRSS {} MiB -> {} MiB (+{} MiB)",
        before / 1024,
        loaded / 1024,
        loaded.saturating_sub(before) / 1024
    );
    Encoders {
        default: enc,
        others,
        pieces,
        weights,
        loaded,
    }
}

/// Part 1: per query, the first stage, a cold and a warm re-rank of its top 50, and the
/// encoding alone; then the cold re-ranks' median and max and `VmRSS` over `loaded`.
fn latency(enc: &Arc<Encoder>, others: &[(usize, Encoder)], loaded: u64) {
    let corpus_dir = std::env::var_os("SKILLNAV_BENCH_CORPUS")
        .map_or_else(|| PathBuf::from("../shared/corpus/large"), PathBuf::from);
    if !corpus_dir.is_dir() {
        println!(
            "latency part skipped: no corpus at {}",
            corpus_dir.display()
        );
        return;
    }
    let corpus = load(std::slice::from_ref(&corpus_dir));
    let index = Index::build(&corpus, &mut |_, _| {});
    let rr = Reranker::new(Arc::clone(enc), 50, 1.0);
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "latency on {} ({threads} threads), top 50:",
        corpus_dir.display()
    );
    let mut cold_ms = Vec::new();
    for q in QUERIES {
        let (cold, hits) = rerank_latency(&corpus, &index, &rr, enc, q);
        cold_ms.push(cold);
        let texts = candidate_texts(&corpus, q, &hits);
        encode_only(enc, others, &texts, threads);
    }
    cold_ms.sort_by(f64::total_cmp);
    println!(
        "  cold top-50 re-rank: median {:.0} ms, max {:.0} ms; VmRSS now {} MiB (+{} MiB over the model)",
        cold_ms[cold_ms.len() / 2],
        cold_ms[cold_ms.len() - 1],
        rss_kib() / 1024,
        rss_kib().saturating_sub(loaded) / 1024
    );
}

/// Query `q`'s first stage (top 50), then a cold re-rank (`enc`'s cache emptied) and a
/// warm one, printed as ratios of the first stage; the cold one's ms and the hits.
fn rerank_latency(
    corpus: &Corpus,
    index: &Index,
    rr: &Reranker,
    enc: &Encoder,
    q: &str,
) -> (f64, Vec<skillnav::index::Hit>) {
    let opts = SearchOptions {
        top_k: 50,
        prefix: false,
    };
    let t = Instant::now();
    let res = index.search(corpus, q, &opts);
    let first = t.elapsed();
    let mut hits = res.hits.clone();
    enc.clear_cache();
    let cold = rr.rerank(corpus, q, &mut hits);
    let mut again = res.hits.clone();
    let warm = rr.rerank(corpus, q, &mut again);
    let ratio = |m: u64| m as f64 / first.as_micros().max(1) as f64;
    println!(
        "  {q:<45} first stage {:>7.2} ms; cold {:>3} texts {:>7.1} ms ({:>6.0}x); warm {:>6.2} ms ({:>5.1}x)",
        first.as_secs_f64() * 1000.0,
        cold.embedded,
        cold.micros as f64 / 1000.0,
        ratio(cold.micros),
        warm.micros as f64 / 1000.0,
        ratio(warm.micros)
    );
    (cold.micros as f64 / 1000.0, res.hits)
}

/// The encoding of `texts` alone, cold: on `threads` threads, then as ratios to it on one
/// thread and with each other word-piece limit.
fn encode_only(enc: &Encoder, others: &[(usize, Encoder)], texts: &[String], threads: usize) {
    let time = |enc: &Encoder, threads: usize| {
        enc.clear_cache();
        let t = Instant::now();
        enc.embed(texts, 1, threads);
        t.elapsed().as_secs_f64() * 1000.0
    };
    let base = time(enc, threads);
    let one = time(enc, 1);
    let mut line = format!(
        "    encode only: {base:.0} ms on {threads} threads; 1 thread {:.2}x",
        one / base
    );
    for (p, e) in others {
        line.push_str(&format!("; {p} pieces {:.2}x", time(e, threads) / base));
    }
    println!("{line}");
}

/// Part 2: the dev-set figures without re-rank, then for each word-piece limit in
/// `pieces` with each fusion weight of `weights`.
fn dev_set(enc: &Arc<Encoder>, others: Vec<(usize, Encoder)>, pieces: &[usize], weights: &[f64]) {
    let file = std::env::var_os("SKILLNAV_EVAL_FILE").map_or_else(
        || PathBuf::from("tests/fixtures/eval/dev.json"),
        PathBuf::from,
    );
    let base = std::env::var_os("SKILLNAV_EVAL_BASE")
        .map_or_else(|| PathBuf::from("../shared/corpus"), PathBuf::from);
    let Ok(text) = std::fs::read_to_string(&file) else {
        println!("dev-set part skipped: no {}", file.display());
        return;
    };
    let set = QuestionSet::parse(&text).unwrap();
    let run = |rerank: Option<Arc<dyn Rerank>>| {
        let opts = EvalOptions {
            max_tokens: 8000,
            counter: TokenCounter::new(Encoding::O200kBase),
            semantic: false,
            rerank,
        };
        let t = Instant::now();
        let r = evaluate_set(
            &set,
            Path::new(&base),
            &[],
            &mut |p| Ok::<_, ()>(load(p)),
            &opts,
        )
        .unwrap();
        (r, t.elapsed())
    };
    let (r, took) = run(None);
    report(
        &format!(
            "{} without re-rank ({:.1} s):",
            file.display(),
            took.as_secs_f64()
        ),
        &r,
    );
    let mut encoders = vec![(skillnav::rerank::encoder::DEFAULT_PIECES, Arc::clone(enc))];
    encoders.extend(others.into_iter().map(|(p, e)| (p, Arc::new(e))));
    encoders.retain(|(p, _)| pieces.contains(p));
    for (p, e) in encoders {
        e.clear_cache();
        for &w in weights {
            let rr: Arc<dyn Rerank> = Arc::new(Reranker::new(Arc::clone(&e), 50, w));
            let (r, took) = run(Some(rr));
            report(
                &format!(
                    "re-rank top 50, {p} pieces, weight {w} on the cosine ({:.1} s):",
                    took.as_secs_f64()
                ),
                &r,
            );
        }
    }
}

/// The query, then the text each hit is encoded from (as the re-ranker builds them).
fn candidate_texts(corpus: &Corpus, q: &str, hits: &[skillnav::index::Hit]) -> Vec<String> {
    let mut texts = vec![q.to_string()];
    for h in hits {
        let mut t = String::new();
        skillnav::index::semantic::embedded_text(corpus, h.node, &mut t);
        texts.push(t);
    }
    texts
}
