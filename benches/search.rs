//! Search benchmark (docs/DESIGN.md §8): `cargo bench --bench search`.
//!
//! With `SKILLNAV_BENCH_BUILD_ONLY=N` it only rebuilds the index N times (for profiling).
//!
//! Loads the corpus at `SKILLNAV_BENCH_CORPUS` (default `../shared/corpus/large`, relative to
//! the package root; a clear message and exit 0 when it is missing) and measures:
//! - load (`formats::load_root`) and BM25 index build (`Index::build`), i.e. time to
//!   searchable, as medians over `SKILLNAV_BENCH_ROUNDS` rounds (default 5; every round's
//!   sum is printed), plus the fuzzy index build and peak RSS;
//! - BM25 query latency p50/p95 over ~50 realistic queries (exact, as the CLI runs them), and
//!   over every prefix of those queries with prefix expansion (as the TUI runs while typing);
//! - fuzzy (nucleo) query latency p50/p95, over title-like queries and over typo queries
//!   (no title holds them as typed: the slow case), each p95 as a ratio of the same-run
//!   baseline, one plain nucleo pass over every `title | path` haystack (goal: ≤ 4 ms p95);
//!   `SKILLNAV_BENCH_FUZZY_ONLY=1` measures only these;
//! - keystroke to results: every prefix of those queries through `filter::search_all` (BM25
//!   with prefix expansion, fuzzy titles and the filter split), the work of the TUI's search
//!   job per key press;
//! - the BM25 query p95 and the keystroke-to-results p95 as ratios of the baseline's query
//!   p95 measured in the same run (machine-independent);
//! - the floor of an on-disk index keyed by (path, size, mtime): walking the folder and
//!   stat'ing every file (what such a cache must do to prove no entry is stale), and reading
//!   every file, against load + index + fuzzy build (a cold `search`);
//! - the baseline: the same section texts written to a temporary JSONL and indexed by
//!   `benches/baseline_rank_bm25.py` (Python rank-bm25) in the same run, one of its rounds
//!   right after each of ours (`search/baseline.rs`), and the ratios (target ≥ 6×): from
//!   files (our load + index vs its JSONL read + tokenize + index; note our load parses
//!   markdown from the folder while it reads ready-cut sections) as a ratio of medians and as
//!   the median of the paired rounds' ratios, and indexing only (our index build vs its
//!   tokenize + index) as a ratio of medians.

// Tests and benchmarks may unwrap, expect and panic: a failure there is the report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "search/baseline.rs"]
mod baseline;
mod common;
use baseline::{Baseline, Round};
use common::{load, ms, pct};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skillnav::index::filter::search_all;
use skillnav::index::{FuzzyIndex, Index, SearchOptions};
use skillnav::model::Corpus;

/// Realistic queries for a KEP-like corpus: topics, identifiers, headings, and a few typos
/// (which exercise "did you mean").
const QUERIES: &[&str] = &[
    "graduation criteria",
    "feature gate",
    "version skew strategy",
    "pod scheduling",
    "kubelet restart",
    "api server",
    "kube-apiserver flags",
    "admission webhook",
    "custom resource definition",
    "CRD validation",
    "node lifecycle",
    "container runtime interface",
    "topology manager",
    "cpu manager policy",
    "memory pressure eviction",
    "horizontal pod autoscaler",
    "service account token",
    "rbac authorization",
    "etcd storage",
    "dual stack ipv6",
    "endpoint slices",
    "ingress controller",
    "network policy",
    "load balancer",
    "kubectl apply",
    "server side apply",
    "windows containers",
    "cgroup v2",
    "seccomp profile",
    "pod security standards",
    "rollback planning",
    "monitoring requirements",
    "scalability",
    "test plan e2e",
    "upgrade downgrade",
    "metrics SLI SLO",
    "deprecation policy",
    "beta to GA",
    "alpha feature",
    "sidecar containers",
    "job completion",
    "statefulset",
    "DaemonSet rolling update",
    "volume snapshot",
    "csi driver",
    "garbage collection",
    "leader election",
    "schedulr plugin",
    "kubelte",
    "topolgy spread constraints",
];

/// Title-like queries for the fuzzy matcher.
const FUZZY_QUERIES: &[&str] = &[
    "graduation",
    "test plan",
    "risks",
    "design details",
    "kubelet",
    "scheduler",
    "apiserver",
    "version skew",
    "readme",
    "non goals",
    "sidecar",
    "topology",
    "dual stack",
    "eviction",
    "crd",
    "grduation critria",
    "rollout",
    "monitoring",
    "upgrade",
    "alternatives",
];

/// Typo queries for the fuzzy matcher: one transposed, missing or extra letter (no title
/// holds them as typed, so they take the typo-distance pass).
const FUZZY_TYPO_QUERIES: &[&str] = &[
    "kubelte",
    "schedulr",
    "topolgy",
    "grduation",
    "evcition",
    "sidcar containers",
    "dual stakc",
    "montioring requirements",
    "verison skew",
    "desgin details",
];

/// The fuzzy baseline: one plain nucleo pass over every `title | path` haystack (as the
/// fuzzy index builds them, every node but the roots), keeping the best 10.
fn nucleo_baseline(hays: &[nucleo_matcher::Utf32String], q: &str) -> usize {
    use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
    let pattern = Pattern::parse(q, CaseMatching::Ignore, Normalization::Smart);
    let mut m = nucleo_matcher::Matcher::new(nucleo_matcher::Config::DEFAULT);
    let mut scored: Vec<(u32, usize)> = hays
        .iter()
        .enumerate()
        .filter_map(|(i, h)| pattern.score(h.slice(..), &mut m).map(|s| (s, i)))
        .collect();
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(10);
    scored.len()
}

/// Time the fuzzy index and the nucleo baseline on the title-like and the typo queries and
/// print p50/p95/max, the slowest queries, and the p95 ratios against the baseline.
fn fuzzy_bench(corpus: &Corpus, fuzzy: &FuzzyIndex) {
    let hays: Vec<nucleo_matcher::Utf32String> = corpus
        .nodes
        .iter()
        .filter(|n| n.kind != skillnav::model::NodeKind::Root && !n.flags.is_copy())
        .map(|n| {
            if n.path.is_empty() || *n.path == *n.title {
                n.title.clone().into()
            } else {
                format!("{} | {}", n.title, n.path).into()
            }
        })
        .collect();
    for (name, set) in [("title-like", FUZZY_QUERIES), ("typo", FUZZY_TYPO_QUERIES)] {
        let fq: Vec<String> = set.iter().map(std::string::ToString::to_string).collect();
        let fz = time_queries(&fq, 5, |q| {
            std::hint::black_box(fuzzy.search(q, 10));
        });
        let base = time_queries(&fq, 2, |q| {
            std::hint::black_box(nucleo_baseline(&hays, q));
        });
        let p95 = ms(pct(&fz, 95.0));
        println!(
            "fuzzy, {name}: {} queries x 5, p50 {:.3} ms, p95 {p95:.3} ms, max {:.3} ms; goal p95 <= 4 ms: {}",
            fq.len(),
            ms(pct(&fz, 50.0)),
            ms(pct(&fz, 100.0)),
            if p95 <= 4.0 { "OK" } else { "ABOVE GOAL" }
        );
        println!(
            "  ratio to the same-run plain nucleo pass over {} haystacks (p95 {:.3} ms): {:.4}x",
            hays.len(),
            ms(pct(&base, 95.0)),
            p95 / ms(pct(&base, 95.0)).max(1e-9)
        );
        let mut slowest: Vec<(Duration, &str)> = fq
            .iter()
            .map(|q| {
                let t = Instant::now();
                for _ in 0..5 {
                    std::hint::black_box(fuzzy.search(q, 10));
                }
                (t.elapsed() / 5, q.as_str())
            })
            .collect();
        slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
        let list: Vec<String> = slowest
            .iter()
            .take(4)
            .map(|(d, q)| format!("{q:?} {:.3} ms", ms(*d)))
            .collect();
        println!("  slowest: {}", list.join(", "));
    }
}

/// Time `f` over every query, `reps` times each; returns sorted per-call durations.
fn time_queries(queries: &[String], reps: usize, mut f: impl FnMut(&str)) -> Vec<Duration> {
    let mut v = Vec::with_capacity(queries.len() * reps);
    for _ in 0..reps {
        for q in queries {
            let t = Instant::now();
            f(q);
            v.push(t.elapsed());
        }
    }
    v.sort();
    v
}

/// Rounds of load + index build (`SKILLNAV_BENCH_ROUNDS`, default 5, at least 1); the
/// Python baseline runs as many rounds of its read + tokenize + index, one after each of ours.
fn rounds() -> usize {
    std::env::var("SKILLNAV_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(5)
        .max(1)
}

fn main() {
    let path = PathBuf::from(
        std::env::var("SKILLNAV_BENCH_CORPUS").unwrap_or_else(|_| "../shared/corpus/large".into()),
    );
    if !path.exists() {
        println!(
            "search bench: corpus {} not found; set SKILLNAV_BENCH_CORPUS to a folder to benchmark. Skipping.",
            path.display()
        );
        return;
    }
    println!("search bench on {}", path.display());

    // Warm the page cache so both sides read from memory.
    let _ = load(&path);

    if profiling_only(&path) {
        return;
    }

    let queries: Vec<String> = QUERIES
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    // The baseline reads the section texts of one load (every load gives the same ones).
    let mut base = {
        let corpus = load(&path);
        let index = Index::build(&corpus, &mut |_, _| {});
        Baseline::start(&corpus, &index, &queries)
    };

    let r = load_rounds(&path, &mut base);
    let fuzzy = report_index(&path, &r);
    let bm = exact_queries(&r.corpus, &r.index, &queries);
    let keys = typing_queries(&r.corpus, &r.index, &fuzzy, &queries);
    did_you_mean_100k();
    if let Some(rss) = common::status_mb("VmHWM:") {
        println!(
            "peak RSS {rss:.1} MB (whole bench process: a warm-up load, a load for the baseline's texts, then {} rounds, one corpus alive at a time; budget 100 MB)",
            r.count
        );
    }
    compare_to_baseline(base.as_mut(), &r, &bm, &keys);
}

/// The profiling aids: `SKILLNAV_BENCH_FUZZY_ONLY` times the fuzzy index alone,
/// `SKILLNAV_BENCH_BUILD_ONLY=n` loads once and rebuilds the index `n` times. Whether one
/// ran (the bench then ends).
fn profiling_only(path: &Path) -> bool {
    if std::env::var_os("SKILLNAV_BENCH_FUZZY_ONLY").is_some() {
        let corpus = load(path);
        let t = Instant::now();
        let fuzzy = FuzzyIndex::build(&corpus);
        println!(
            "fuzzy build {:.1} ms ({} haystacks)",
            ms(t.elapsed()),
            fuzzy.len()
        );
        fuzzy_bench(&corpus, &fuzzy);
        return true;
    }

    if let Ok(n) = std::env::var("SKILLNAV_BENCH_BUILD_ONLY") {
        // Profiling aid: load once, then only rebuild the index `n` times.
        let corpus = load(path);
        for _ in 0..n.parse::<usize>().unwrap_or(10) {
            let t = Instant::now();
            let index = Index::build(&corpus, &mut |_, _| {});
            println!(
                "index build {:.1} ms ({} documents)",
                ms(t.elapsed()),
                index.doc_count()
            );
        }
        return true;
    }
    false
}

/// What the rounds of load + index build measured, and the last round's corpus and index.
struct Rounds {
    /// How many rounds ran.
    count: usize,
    corpus: Corpus,
    index: Index,
    /// Our load + index build time of each round, in order.
    ours: Vec<Duration>,
    /// The baseline's rounds, one after each of ours.
    theirs: Vec<Round>,
    /// Medians: load, index build, and load + index build (to searchable).
    t_load: Duration,
    t_index: Duration,
    to_searchable: Duration,
}

/// Rounds of load + index build, each followed by one baseline round (a baseline that
/// fails is dropped); prints each round's time.
fn load_rounds(path: &Path, base: &mut Option<Baseline>) -> Rounds {
    // Every figure is the median over the rounds, and the last round's corpus and index
    // serve the query benches. The previous round is dropped before the next load, so one
    // corpus is alive at a time.
    let rounds = rounds();
    let (mut loads, mut builds, mut sums) = (Vec::new(), Vec::new(), Vec::new());
    let mut theirs: Vec<Round> = Vec::new();
    let mut last: Option<(Corpus, Index)> = None;
    for _ in 0..rounds {
        drop(last.take());
        let t0 = Instant::now();
        let corpus = load(path);
        let t_load = t0.elapsed();
        let t1 = Instant::now();
        let index = Index::build(&corpus, &mut |_, _| {});
        let t_index = t1.elapsed();
        loads.push(t_load);
        builds.push(t_index);
        sums.push(t_load + t_index);
        last = Some((corpus, index));
        match base.as_mut().map(Baseline::round) {
            Some(Some(r)) => theirs.push(r),
            Some(None) => *base = None,
            None => {}
        }
    }
    let ours = sums.clone();
    let (corpus, index) = last.expect("at least one round");
    let round_list: Vec<String> = sums.iter().map(|d| format!("{:.1}", ms(*d))).collect();
    for v in [&mut loads, &mut builds, &mut sums] {
        v.sort_unstable();
    }
    println!(
        "{rounds} rounds of load + index build (ms): {}",
        round_list.join(", ")
    );
    Rounds {
        count: rounds,
        corpus,
        index,
        ours,
        theirs,
        t_load: pct(&loads, 50.0),
        t_index: pct(&builds, 50.0),
        to_searchable: pct(&sums, 50.0),
    }
}

/// Build the fuzzy index (timed), then print the corpus and index sizes, the median times
/// and the file-system floor under them.
fn report_index(path: &Path, r: &Rounds) -> FuzzyIndex {
    let (corpus, index) = (&r.corpus, &r.index);
    let t2 = Instant::now();
    let fuzzy = FuzzyIndex::build(corpus);
    let t_fuzzy_build = t2.elapsed();
    let text_bytes: usize = corpus.sources.iter().map(|s| s.text_len()).sum();
    println!(
        "corpus: {} nodes, {} sources, {:.1} MB text; index: {} documents, {} terms, {} postings, ~{:.1} MB",
        corpus.len(),
        corpus.sources.len(),
        text_bytes as f64 / 1e6,
        index.doc_count(),
        index.vocab_len(),
        index.posting_count(),
        index.heap_bytes() as f64 / 1e6
    );
    println!(
        "median load {:.1} ms + median index build {:.1} ms; median to searchable {:.1} ms (budget 500 ms); fuzzy build {:.1} ms ({} haystacks)",
        ms(r.t_load),
        ms(r.t_index),
        ms(r.to_searchable),
        ms(t_fuzzy_build),
        fuzzy.len()
    );

    stat_floor(path, r.t_load, r.t_index, t_fuzzy_build);
    fuzzy
}

/// Time the finished (exact) queries, 20 times each, and name the slowest; their times.
fn exact_queries(corpus: &Corpus, index: &Index, queries: &[String]) -> Vec<Duration> {
    let exact = SearchOptions {
        top_k: 10,
        prefix: false,
    };
    let mut hits_total = 0;
    for q in queries {
        hits_total += index.search(corpus, q, &exact).hits.len();
    }
    let bm = time_queries(queries, 20, |q| {
        std::hint::black_box(index.search(corpus, q, &exact));
    });
    println!(
        "BM25 exact: {} queries x 20, p50 {:.3} ms, p95 {:.3} ms, max {:.3} ms (budget p95 1 ms); {} hits over the set",
        queries.len(),
        ms(pct(&bm, 50.0)),
        ms(pct(&bm, 95.0)),
        ms(pct(&bm, 100.0)),
        hits_total
    );
    let mut slowest: Vec<(Duration, &str)> = queries
        .iter()
        .map(|q| {
            let t = Instant::now();
            for _ in 0..5 {
                std::hint::black_box(index.search(corpus, q, &exact));
            }
            (t.elapsed() / 5, q.as_str())
        })
        .collect();
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    let list: Vec<String> = slowest
        .iter()
        .take(4)
        .map(|(d, q)| format!("{q:?} {:.3} ms", ms(*d)))
        .collect();
    println!("  slowest exact queries: {}", list.join(", "));
    bm
}

/// Time every keystroke of the queries as typed: BM25 with prefix expansion, the fuzzy
/// bench, then the whole keystroke-to-results path; the latter's times.
fn typing_queries(
    corpus: &Corpus,
    index: &Index,
    fuzzy: &FuzzyIndex,
    queries: &[String],
) -> Vec<Duration> {
    let typed: Vec<String> = queries
        .iter()
        .flat_map(|q| {
            q.char_indices()
                .skip(1)
                .map(|(i, _)| q[..i].to_string())
                .chain([q.clone()])
        })
        .collect();
    let pre = SearchOptions {
        top_k: 10,
        prefix: true,
    };
    let bp = time_queries(&typed, 3, |q| {
        std::hint::black_box(index.search(corpus, q, &pre));
    });
    println!(
        "BM25 while typing (prefix): {} keystroke queries x 3, p50 {:.3} ms, p95 {:.3} ms, max {:.3} ms",
        typed.len(),
        ms(pct(&bp, 50.0)),
        ms(pct(&bp, 95.0)),
        ms(pct(&bp, 100.0))
    );
    fuzzy_bench(corpus, fuzzy);
    let keys = time_queries(&typed, 3, |q| {
        std::hint::black_box(search_all(corpus, Some(index), Some(fuzzy), q, &pre));
    });
    println!(
        "keystroke to results (BM25 prefix + fuzzy + filters): {} keystroke queries x 3, p50 {:.3} ms, p95 {:.3} ms, max {:.3} ms (budget p95 8 ms)",
        typed.len(),
        ms(pct(&keys, 50.0)),
        ms(pct(&keys, 95.0)),
        ms(pct(&keys, 100.0))
    );
    keys
}

/// The baseline's report beside ours, and our query p95s as ratios to its query p95
/// (`bm`: exact queries, `keys`: keystroke to results).
fn compare_to_baseline(
    base: Option<&mut Baseline>,
    r: &Rounds,
    bm: &[Duration],
    keys: &[Duration],
) {
    let base_p95_ms = base.and_then(|b| {
        let (p50, p95) = b.query_p50_p95_ms()?;
        report_baseline(&r.theirs, &r.ours, r.to_searchable, r.t_index, p50, p95);
        Some(p95).filter(|p| p.is_finite() && *p > 0.0)
    });
    if let Some(base_p95_ms) = base_p95_ms {
        let ratio = |d: Duration| ms(d) / base_p95_ms;
        println!(
            "ratios to the same-run rank-bm25 query p95 ({base_p95_ms:.2} ms): BM25 query p95 {:.4}x, keystroke to results p95 {:.4}x",
            ratio(pct(bm, 95.0)),
            ratio(pct(keys, 95.0))
        );
    }
}

/// "Did you mean" on a synthetic 100 000-term vocabulary (pseudo-words of 4–12 letters).
fn did_you_mean_100k() {
    use skillnav::model::{Format, Node, NodeKind, Source, TextSpan};
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut words = Vec::with_capacity(100_000);
    while words.len() < 100_000 {
        let len = 4 + (next() % 9) as usize;
        let w: String = (0..len)
            .map(|_| (b'a' + (next() % 26) as u8) as char)
            .collect();
        words.push(w);
    }
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Text, "synthetic", ""));
    for (i, chunk) in words.chunks(1000).enumerate() {
        let text = chunk.join(" ");
        let len = text.len();
        let src = c.add_source(Source::virtual_text(text));
        let name = format!("f{i}.txt");
        let mut f = Node::new(NodeKind::File, Format::Text, name.as_str(), name.as_str());
        f.span = Some(TextSpan {
            source: src,
            start: 0,
            own_end: len,
            end: len,
        });
        c.add_child(root, f);
    }
    c.finalize();
    let index = Index::build(&c, &mut |_, _| {});
    // Typos: drop one letter of real words (4+ letters left so a suggestion is allowed).
    let typos: Vec<String> = words
        .iter()
        .step_by(997)
        .take(50)
        .map(|w| format!("{}{}", &w[..1], &w[2..]))
        .collect();
    let opts = SearchOptions {
        top_k: 10,
        prefix: false,
    };
    let mut suggested = 0;
    for q in &typos {
        suggested += usize::from(!index.search(&c, q, &opts).did_you_mean.is_empty());
    }
    let t = time_queries(&typos, 5, |q| {
        std::hint::black_box(index.search(&c, q, &opts));
    });
    println!(
        "did you mean, {} terms: {} typo queries x 5 ({suggested} suggested), p50 {:.3} ms, p95 {:.3} ms",
        index.vocab_len(),
        typos.len(),
        ms(pct(&t, 50.0)),
        ms(pct(&t, 95.0))
    );
}

/// Print the baseline's rounds and medians and the build ratios against ours: from files as a
/// ratio of medians and as the median of the paired rounds' ratios (ours, then theirs right
/// after it), and indexing only as a ratio of medians. `ours_rounds` is in round order.
fn report_baseline(
    theirs: &[Round],
    ours_rounds: &[Duration],
    ours: Duration,
    ours_index: Duration,
    query_p50_ms: f64,
    query_p95_ms: f64,
) {
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        match v.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => v[n / 2],
            n => f64::midpoint(v[n / 2 - 1], v[n / 2]),
        }
    };
    let of = |f: fn(&Round) -> f64| median(theirs.iter().map(f).collect());
    let listed = |v: Vec<f64>| {
        v.iter()
            .map(|x| format!("{x:.1}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (read, tokenize, index) = (of(|r| r.read_s), of(|r| r.tokenize_s), of(|r| r.index_s));
    let (theirs_index, theirs_from_files) =
        (of(Round::indexing_s), of(Round::files_to_searchable_s));
    println!(
        "rank-bm25 (Python): {} docs, {} rounds of read + tokenize + index, each right after one of ours (ms): {}; medians: read {:.1} ms, tokenize {:.1} ms + BM25Okapi {:.1} ms, to searchable {:.1} ms; query p50 {query_p50_ms:.1} ms, p95 {query_p95_ms:.1} ms",
        theirs.first().map_or(0, |r| r.docs),
        theirs.len(),
        listed(
            theirs
                .iter()
                .map(|r| r.files_to_searchable_s() * 1000.0)
                .collect()
        ),
        read * 1000.0,
        tokenize * 1000.0,
        index * 1000.0,
        theirs_index * 1000.0,
    );
    let verdict = |r: f64| if r >= 6.0 { "OK" } else { "BELOW TARGET" };
    let r1 = theirs_from_files / ours.as_secs_f64();
    println!(
        "to searchable from files (medians): skillnav load + index {:.1} ms vs rank-bm25 read JSONL + tokenize + index {:.1} ms: {r1:.1}x (target >= 6x: {})",
        ms(ours),
        theirs_from_files * 1000.0,
        verdict(r1)
    );
    let paired: Vec<f64> = theirs
        .iter()
        .zip(ours_rounds)
        .map(|(t, o)| t.files_to_searchable_s() / o.as_secs_f64())
        .collect();
    let r_paired = median(paired.clone());
    println!(
        "to searchable from files, paired rounds (theirs / ours per round): {}; median {r_paired:.1}x (target >= 6x: {})",
        paired
            .iter()
            .map(|x| format!("{x:.1}x"))
            .collect::<Vec<_>>()
            .join(", "),
        verdict(r_paired)
    );
    let r2 = theirs_index / ours_index.as_secs_f64();
    println!(
        "indexing the same sections (medians): skillnav {:.1} ms vs rank-bm25 tokenize + index {:.1} ms: {r2:.1}x (target >= 6x: {})",
        ms(ours_index),
        theirs_index * 1000.0,
        verdict(r2)
    );
}

/// Walk `dir` (no symlinks followed), stat every file (size and mtime) and, with `read`,
/// read it; returns (files, folders).
fn walk_stat(dir: &Path, read: bool) -> (usize, usize) {
    let (mut files, mut dirs) = (0, 1);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (0, 1);
    };
    for e in entries.flatten() {
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            let (f, d) = walk_stat(&e.path(), read);
            files += f;
            dirs += d;
        } else if let Ok(m) = e.metadata() {
            std::hint::black_box((m.len(), m.modified().ok()));
            if read {
                std::hint::black_box(std::fs::read(e.path()).map(|b| b.len()).ok());
            }
            files += 1;
        }
    }
    (files, dirs)
}

/// Print the floor of a persisted index: the best of 5 walks with stat, and with reads.
fn stat_floor(path: &Path, load: Duration, index: Duration, fuzzy: Duration) {
    let best = |read: bool| {
        let mut best = Duration::MAX;
        let mut counts = (0, 0);
        for _ in 0..5 {
            let t = Instant::now();
            counts = walk_stat(path, read);
            best = best.min(t.elapsed());
        }
        (best, counts)
    };
    let (stat, (files, dirs)) = best(false);
    let (read, _) = best(true);
    println!(
        "persisted-index floor: walk + stat of {files} files in {dirs} folders {:.1} ms, + reading them {:.1} ms; cold search now load {:.1} + index {:.1} + fuzzy {:.1} = {:.1} ms (goal < 50 ms)",
        ms(stat),
        ms(read),
        ms(load),
        ms(index),
        ms(fuzzy),
        ms(load + index + fuzzy)
    );
}
