//! Semantic-signal benchmark (docs/DESIGN.md §3 "Semantic signal"): `cargo bench --bench
//! semantic`.
//!
//! Loads the corpus at `SKILLNAV_BENCH_CORPUS` (default `../shared/corpus/large`; a clear
//! message and exit 0 when it is missing), builds the BM25 and fuzzy indexes, then measures
//! in the same run, with the semantic signal off and on:
//! - embedding every document (`Index::build_semantic` on 2 threads): wall time, the CPU
//!   time of both threads (on a shared machine the wall time also holds waiting), and the
//!   resident memory it adds (`VmRSS` after minus before, the embedded table's pages
//!   included), beside the index build time;
//! - BM25 query p95 (exact, as `search` runs it: fused when on), BM25 while typing
//!   (prefix: never fused) and keystroke to results (`filter::search_all` with prefix, as the
//!   TUI's search job per key press);
//! - each "on" figure as a ratio of the same-run "off" figure (machine-independent), and the
//!   embedding time as a ratio of the index build time;
//! - beside each p95 the mean on-CPU time of the querying thread
//!   (`/proc/thread-self/schedstat`), which leaves out the waits of a machine shared with
//!   other work.

// Tests and benchmarks may unwrap, expect and panic: a failure there is the report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
use common::{load, ms, pct};

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use skillnav::index::filter::search_all;
use skillnav::index::{FuzzyIndex, Index, SearchOptions};
use skillnav::model::Corpus;

/// Queries for a KEP-like corpus: topics, identifiers, and sentence questions.
const QUERIES: &[&str] = &[
    "graduation criteria",
    "feature gate",
    "version skew strategy",
    "pod scheduling",
    "kubelet restart",
    "kube-apiserver flags",
    "admission webhook",
    "custom resource definition",
    "container runtime interface",
    "memory pressure eviction",
    "horizontal pod autoscaler",
    "service account token",
    "dual stack ipv6",
    "network policy",
    "server side apply",
    "cgroup v2",
    "pod security standards",
    "rollback planning",
    "test plan e2e",
    "deprecation policy",
    "sidecar containers",
    "how do I roll back a failed upgrade",
    "what happens when a node runs out of memory",
    "how are secrets kept safe at rest",
    "who decides when a feature becomes stable",
    "schedulr plugin",
];

/// CPU time of this process so far (user + system, every thread), from `/proc/self/stat`
/// in clock ticks of 10 ms: on a shared machine it tells the work from the waiting.
fn cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = s.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Time this thread has run on a CPU (`/proc/thread-self/schedstat`, nanoseconds, brought
/// up to date at scheduler ticks): unlike the wall time it leaves out waiting for a CPU
/// another process holds. Too coarse for one query, exact enough summed over many.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        s.split_whitespace().next()?.parse().ok()?,
    ))
}

/// The sorted wall durations of each call, and the mean on-CPU time of a call.
fn time_queries(
    queries: &[String],
    reps: usize,
    mut f: impl FnMut(&str),
) -> (Vec<Duration>, Duration) {
    let mut wall = Vec::with_capacity(queries.len() * reps);
    let c = thread_cpu();
    for _ in 0..reps {
        for q in queries {
            let t = Instant::now();
            f(q);
            wall.push(t.elapsed());
        }
    }
    let cpu = thread_cpu()
        .zip(c)
        .map_or(Duration::ZERO, |(b, a)| b.saturating_sub(a))
        / wall.len().max(1) as u32;
    wall.sort();
    (wall, cpu)
}

/// p95 of exact queries, prefix queries and keystroke-to-results over `index`, each with
/// its mean on-CPU time.
fn figures(
    corpus: &Corpus,
    index: &Index,
    fuzzy: &FuzzyIndex,
    queries: &[String],
    typed: &[String],
) -> [(Duration, Duration); 3] {
    let exact = SearchOptions {
        top_k: 10,
        prefix: false,
    };
    let pre = SearchOptions {
        top_k: 10,
        prefix: true,
    };
    let e = time_queries(queries, 20, |q| {
        std::hint::black_box(index.search(corpus, q, &exact));
    });
    let p = time_queries(typed, 3, |q| {
        std::hint::black_box(index.search(corpus, q, &pre));
    });
    let k = time_queries(typed, 3, |q| {
        std::hint::black_box(search_all(corpus, Some(index), Some(fuzzy), q, &pre));
    });
    [e, p, k].map(|(w, c)| (pct(&w, 95.0), c))
}

fn main() {
    let path = PathBuf::from(
        std::env::var("SKILLNAV_BENCH_CORPUS").unwrap_or_else(|_| "../shared/corpus/large".into()),
    );
    if !path.exists() {
        println!(
            "semantic bench: corpus {} not found; set SKILLNAV_BENCH_CORPUS to a folder to benchmark. Skipping.",
            path.display()
        );
        return;
    }
    println!("semantic bench on {}", path.display());
    let corpus = load(&path);
    let t = Instant::now();
    let index = Index::build(&corpus, &mut |_, _| {});
    let t_index = t.elapsed();
    let fuzzy = FuzzyIndex::build(&corpus);
    let queries: Vec<String> = QUERIES.iter().map(|q| (*q).to_string()).collect();
    let typed: Vec<String> = queries
        .iter()
        .flat_map(|q| {
            q.char_indices()
                .skip(1)
                .map(|(i, _)| q[..i].to_string())
                .chain([q.clone()])
        })
        .collect();
    let off = figures(&corpus, &index, &fuzzy, &queries, &typed);
    let embedding = embed(&corpus, &index);
    let on = figures(&corpus, &index, &fuzzy, &queries, &typed);
    report_embedding(&embedding, t_index);
    report_figures(off, on);
}

/// What embedding the corpus cost.
struct Embedding {
    /// Parsing the model, and embedding on 2 threads (wall time, and CPU time when known).
    t_model: Duration,
    t_embed: Duration,
    cpu_embed: Option<Duration>,
    /// `VmRSS` in MB before the model and after embedding, when known.
    rss0: Option<f64>,
    rss1: Option<f64>,
    /// Vectors, and their heap bytes.
    rows: usize,
    heap: usize,
}

/// Parse the embedded model and embed every document of `index` (on 2 threads), then
/// attach the vectors to it.
fn embed(corpus: &Corpus, index: &Index) -> Embedding {
    let rss0 = common::status_mb("VmRSS:");
    let t = Instant::now();
    let model = skillnav::embed::model().expect("embedded model");
    let t_model = t.elapsed();
    let cpu0 = cpu_time();
    let t = Instant::now();
    let sem = index.build_semantic(corpus, model, None, 2);
    let t_embed = t.elapsed();
    let cpu_embed = cpu_time().zip(cpu0).map(|(b, a)| b.saturating_sub(a));
    let rss1 = common::status_mb("VmRSS:");
    let rows = sem.len();
    let heap = sem.heap_bytes();
    index.attach_semantic(Arc::new(sem));
    Embedding {
        t_model,
        t_embed,
        cpu_embed,
        rss0,
        rss1,
        rows,
        heap,
    }
}

/// Print what embedding cost, beside the index build (`t_index`).
fn report_embedding(e: &Embedding, t_index: Duration) {
    let (t_model, t_embed) = (e.t_model, e.t_embed);
    println!(
        "documents {}; index build {:.1} ms; model parse {:.1} ms + embedding on 2 threads {:.1} ms = {:.1} ms (budget 1000 ms), {:.2}x the index build; vectors {:.1} MB",
        e.rows,
        ms(t_index),
        ms(t_model),
        ms(t_embed),
        ms(t_model + t_embed),
        (t_model + t_embed).as_secs_f64() / t_index.as_secs_f64(),
        e.heap as f64 / 1e6
    );
    if let Some(cpu) = e.cpu_embed {
        println!(
            "embedding CPU time {:.0} ms over both threads ({:.2} cores busy on average; wall time above includes waiting for a shared CPU)",
            ms(cpu),
            cpu.as_secs_f64() / t_embed.as_secs_f64().max(1e-9)
        );
    }
    if let (Some(a), Some(b)) = (e.rss0, e.rss1) {
        println!(
            "RSS added by embedding: {:.1} MB (budget 30 MB; table pages and vectors)",
            b - a
        );
    }
}

/// Print the query figures with the semantic signal off and on, and their ratios.
fn report_figures(off: [(Duration, Duration); 3], on: [(Duration, Duration); 3]) {
    let names = [
        "BM25 exact query p95 (fused when on; budget 1 ms)",
        "BM25 while typing p95 (prefix, never fused)",
        "keystroke to results p95 (budget 8 ms)",
    ];
    let ratio = |b: Duration, a: Duration| b.as_secs_f64() / a.as_secs_f64().max(1e-9);
    for ((name, (a, ca)), (b, cb)) in names.iter().zip(off).zip(on) {
        println!(
            "{name}: off {:.3} ms, on {:.3} ms, on/off {:.2}x; mean on-CPU off {:.3} ms, on {:.3} ms, on/off {:.2}x",
            ms(a),
            ms(b),
            ratio(b, a),
            ms(ca),
            ms(cb),
            ratio(cb, ca)
        );
    }
}
