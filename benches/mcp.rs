//! MCP server benchmark: `cargo bench --bench mcp`.
//!
//! On the corpus at `SKILLNAV_BENCH_CORPUS` (default `../shared/corpus/large`, relative to
//! the package root; a clear message and exit 0 when it is missing) it measures, in one run:
//! - the CLI's cold path: `skillnav search QUERY CORPUS --json` as a new process (load,
//!   index, search, print), the baseline of every ratio;
//! - start → `initialize` answered, and start → first search: `skillnav mcp CORPUS`
//!   spawned, `initialize`, then one `search` tool call sent at once, each timed from the
//!   spawn to its answer line (the roots load while `initialize` is answered);
//! - warm `search` p50/p95 in-process (the server's code path, `agent::search`) over
//!   realistic queries;
//! - warm `read` of about 8k tokens p50/p95 in-process (`agent::read`, `max_tokens` 8000).
//!
//! Every number is printed with its ratio to the CLI cold path. No assertions: targets
//! (`initialize` ≤ 100 ms after the spawn, ≤ 1 s to the first search answer, warm search
//! p95 ≤ 5 ms, read 8k p95 ≤ 10 ms on 2 cores) are
//! read off the printout.

// A benchmark may panic: a failure there is the report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use skillnav::agent::limits::Limits;
use skillnav::agent::read::{ReadArgs, read};
use skillnav::agent::search::{SearchArgs, search};
use skillnav::agent::workspace::{Workspace, WorkspaceConfig};
use skillnav::formats::{LoadOptions, root_specs};
use skillnav::tokens::{Encoding, TokenCounter};

const QUERIES: &[&str] = &[
    "graduation criteria",
    "feature gate",
    "version skew strategy",
    "pod scheduling",
    "kubelet restart",
    "admission webhook",
    "custom resource definition",
    "topology manager",
    "memory pressure eviction",
    "service account token",
    "dual stack ipv6",
    "network policy",
    "server side apply",
    "cgroup v2",
    "rollback planning",
    "test plan unit tests",
    "upgrade downgrade",
    "scalability limits",
    "monitoring requirements",
    "production readiness review",
];

fn corpus() -> Option<PathBuf> {
    let p = PathBuf::from(
        std::env::var("SKILLNAV_BENCH_CORPUS").unwrap_or_else(|_| "../shared/corpus/large".into()),
    );
    if p.exists() {
        return Some(p);
    }
    // A worktree one level further down sees the shared folder two levels up.
    let up = PathBuf::from("../../shared/corpus/large");
    (std::env::var_os("SKILLNAV_BENCH_CORPUS").is_none() && up.exists()).then_some(up)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percentile(v: &mut [Duration], p: f64) -> Duration {
    v.sort_unstable();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v.get(i).copied().unwrap_or_default()
}

fn cli_cold(bin: &str, corpus: &str) -> Duration {
    let t = Instant::now();
    let out = Command::new(bin)
        .args(["search", "--no-index-cache", QUERIES[0], corpus, "--json"])
        .output();
    let d = t.elapsed();
    match out {
        Ok(o) if o.status.success() => d,
        Ok(o) => panic!("cli search failed: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => panic!("cannot run {bin}: {e}"),
    }
}

/// (spawn → `initialize` answered, spawn → first `search` answered): loading in memory, or,
/// with `persisted`, through the persisted index in that cache folder (docs/DESIGN.md §8
/// "Persisted index").
fn server_first_search(bin: &str, corpus: &str, persisted: Option<&Path>) -> (Duration, Duration) {
    let mut cmd = Command::new(bin);
    match persisted {
        Some(cache) => cmd.env("XDG_CACHE_HOME", cache).args(["mcp", corpus]),
        None => cmd.args(["mcp", "--no-index-cache", corpus]),
    };
    let t = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {bin} mcp: {e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
    let mut lines = BufReader::new(child.stdout.take().unwrap_or_else(|| panic!("stdout"))).lines();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}});
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "search", "arguments": {"query": QUERIES[0]}}});
    let _ = writeln!(stdin, "{init}");
    let _ = writeln!(
        stdin,
        "{}",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    );
    let _ = writeln!(stdin, "{call}");
    let _ = stdin.flush();
    let mut took = None;
    let mut init_at = None;
    for line in lines.by_ref().map_while(Result::ok) {
        let v: Value = serde_json::from_str(&line).unwrap_or_default();
        if v["id"] == 1 {
            init_at = Some(t.elapsed());
        }
        if v["id"] == 2 {
            took = Some(t.elapsed());
            assert_eq!(v["result"]["isError"], false, "search failed: {line}");
            break;
        }
    }
    drop(stdin);
    let _ = child.wait();
    (
        init_at.unwrap_or_else(|| panic!("the server never answered initialize")),
        took.unwrap_or_else(|| panic!("the server never answered the search")),
    )
}

fn main() {
    let Some(corpus) = corpus() else {
        println!(
            "mcp bench: corpus ../shared/corpus/large not found; set SKILLNAV_BENCH_CORPUS. Skipping."
        );
        return;
    };
    let bin = env!("CARGO_BIN_EXE_skillnav");
    let path = corpus.to_string_lossy().into_owned();
    // Warm the page cache and the token cache once, then take the best of three.
    let _ = cli_cold(bin, &path);
    let cold = (0..3)
        .map(|_| cli_cold(bin, &path))
        .min()
        .unwrap_or_default();
    let starts: Vec<(Duration, Duration)> = (0..3)
        .map(|_| server_first_search(bin, &path, None))
        .collect();
    let init = starts.iter().map(|s| s.0).min().unwrap_or_default();
    let first = starts.iter().map(|s| s.1).min().unwrap_or_default();
    // A second start on the unchanged tree: the first run writes the persisted index.
    let cache = std::env::temp_dir().join(format!("skillnav-mcp-bench-{}", std::process::id()));
    let _ = server_first_search(bin, &path, Some(&cache));
    let second = (0..3)
        .map(|_| server_first_search(bin, &path, Some(&cache)).1)
        .min()
        .unwrap_or_default();
    let _ = std::fs::remove_dir_all(&cache);

    let (ws, open, count) = open_workspace(&corpus);
    let searches = warm_searches(&ws);
    let (raw, bm25, fuzzy) = index_searches(&ws, searches.len());
    let (reads, avg_tokens) = warm_reads(&ws, &read_chunks(&ws));
    let timings = Timings {
        cold,
        init,
        first,
        second,
        open,
        count,
        searches,
        raw,
        bm25,
        fuzzy,
        reads,
        avg_tokens,
    };
    report(&corpus, &ws, timings);
}

/// Open the workspace in process (load + index) and count every token; the workspace and
/// the two times.
fn open_workspace(corpus: &Path) -> (Workspace, Duration, Duration) {
    let t = Instant::now();
    let ws = Workspace::open(WorkspaceConfig {
        specs: root_specs(std::slice::from_ref(&corpus.to_path_buf())),
        load: LoadOptions::default(),
        counter: TokenCounter::new(Encoding::O200kBase),
        recipe: None,
        recipes_dir: None,
        limits: Limits::default(),
    });
    let open = t.elapsed();
    let t = Instant::now();
    ws.set_tokens(ws.count_tokens());
    let count = t.elapsed();
    (ws, open, count)
}

/// Warm `search` tool calls: every query, 5 times; their times.
fn warm_searches(ws: &Workspace) -> Vec<Duration> {
    let mut searches = Vec::new();
    for _ in 0..5 {
        for q in QUERIES {
            let t = Instant::now();
            let v = search(
                ws,
                &SearchArgs {
                    query: (*q).into(),
                    top_k: 8,
                    ..SearchArgs::default()
                },
            );
            searches.push(t.elapsed());
            if let Err(e) = v {
                panic!("search {q}: {e}");
            }
        }
    }
    searches
}

/// The index alone (BM25 + fuzzy titles, as `skillnav search` runs it), for comparison:
/// `n` queries' times, and those of BM25 and the fuzzy titles apart.
fn index_searches(ws: &Workspace, n: usize) -> (Vec<Duration>, Vec<Duration>, Vec<Duration>) {
    let (mut raw, mut bm25, mut fuzzy) = (Vec::new(), Vec::new(), Vec::new());
    for q in QUERIES.iter().cycle().take(n) {
        let opts = skillnav::index::SearchOptions {
            top_k: 8,
            prefix: false,
        };
        let t = Instant::now();
        let _ = skillnav::index::filter::search_all(
            &ws.corpus,
            Some(&ws.index),
            Some(&ws.fuzzy),
            q,
            &opts,
        );
        raw.push(t.elapsed());
        let t = Instant::now();
        let _ = ws.index.search(&ws.corpus, q, &opts);
        bm25.push(t.elapsed());
        let t = Instant::now();
        let _ = ws.fuzzy.search(q, 8);
        fuzzy.push(t.elapsed());
    }
    (raw, bm25, fuzzy)
}

/// Reads of 8k tokens: runs of consecutive documents whose sizes add up to just under
/// 8000 tokens (and at most 200 ids), so every read packs all of them; at most 20.
fn read_chunks(ws: &Workspace) -> Vec<Vec<String>> {
    let mut chunks: Vec<Vec<String>> = Vec::new();
    let (mut cur, mut sum) = (Vec::new(), 0u64);
    for d in ws.index.documents() {
        let t = ws.tokens_of(d);
        if t > 4_000 {
            continue;
        }
        if sum + t > 8_000 || cur.len() == 200 {
            chunks.push(std::mem::take(&mut cur));
            sum = 0;
        }
        cur.push(ws.corpus.id(d));
        sum += t;
        if chunks.len() == 20 {
            break;
        }
    }
    chunks
}

/// Warm `read` calls of each chunk (`max_tokens` 8000), 5 rounds; their times and the
/// tokens read on average.
fn warm_reads(ws: &Workspace, chunks: &[Vec<String>]) -> (Vec<Duration>, u64) {
    let mut reads = Vec::new();
    let mut tokens_read = Vec::new();
    for round in 0..5 {
        for chunk in chunks {
            let args = ReadArgs {
                ids: chunk.clone(),
                max_tokens: Some(8_000),
                ..ReadArgs::default()
            };
            let t = Instant::now();
            let v = read(ws, &args).unwrap_or_else(|e| panic!("read: {e}"));
            reads.push(t.elapsed());
            if round == 0 {
                tokens_read.push(v["tokens"].as_u64().unwrap_or(0));
            }
        }
    }
    let avg_tokens = tokens_read.iter().sum::<u64>() / (tokens_read.len().max(1) as u64);
    (reads, avg_tokens)
}

/// What [`main`] measured, for [`report`].
struct Timings {
    /// The CLI cold path: the baseline of every ratio.
    cold: Duration,
    /// Server start to `initialize` answered, and to the first search answered.
    init: Duration,
    first: Duration,
    /// Server start to the first search answered when the persisted index is current.
    second: Duration,
    /// In-process open (load + index), and the token count of everything.
    open: Duration,
    count: Duration,
    /// Warm search calls, and the index alone: all, BM25, fuzzy titles.
    searches: Vec<Duration>,
    raw: Vec<Duration>,
    bm25: Vec<Duration>,
    fuzzy: Vec<Duration>,
    /// Warm reads of about 8k tokens, and the tokens read on average.
    reads: Vec<Duration>,
    avg_tokens: u64,
}

/// Print every number with its ratio to the CLI cold path.
fn report(corpus: &Path, ws: &Workspace, mut t: Timings) {
    let (s50, s95) = (
        percentile(&mut t.searches, 0.5),
        percentile(&mut t.searches, 0.95),
    );
    let (r50, r95) = (
        percentile(&mut t.reads, 0.5),
        percentile(&mut t.reads, 0.95),
    );
    let raw95 = percentile(&mut t.raw, 0.95);
    let (bm95, fz95) = (
        percentile(&mut t.bm25, 0.95),
        percentile(&mut t.fuzzy, 0.95),
    );
    let (cold, init, first, avg_tokens) = (t.cold, t.init, t.first, t.avg_tokens);
    let ratio = |d: Duration| cold.as_secs_f64() / d.as_secs_f64().max(1e-9);
    println!(
        "mcp bench on {} ({} nodes, {} documents)",
        corpus.display(),
        ws.corpus.len(),
        ws.index.doc_count()
    );
    println!(
        "CLI cold path (skillnav search --no-index-cache, new process): {:.1} ms  [baseline]",
        ms(cold)
    );
    println!(
        "server start → initialize answered:            {:.1} ms  ({:.2}× the CLI cold path)",
        ms(init),
        ratio(init)
    );
    println!(
        "server start → first search answer:            {:.1} ms  ({:.2}× the CLI cold path)",
        ms(first),
        ratio(first)
    );
    println!(
        "  … with the persisted index of the unchanged tree: {:.1} ms  ({:.2}× the CLI cold path)",
        ms(t.second),
        ratio(t.second)
    );
    println!(
        "in-process open (load + index):                {:.1} ms; token count of everything {:.1} ms (background in the server)",
        ms(t.open),
        ms(t.count)
    );
    println!(
        "warm search ({} calls): p50 {:.3} ms, p95 {:.3} ms  ({:.0}× faster than the CLI cold path at p95)",
        t.searches.len(),
        ms(s50),
        ms(s95),
        ratio(s95)
    );
    println!(
        "  of which the index search (BM25 + fuzzy titles): p95 {:.3} ms (BM25 alone {:.3} ms, fuzzy titles alone {:.3} ms)",
        ms(raw95),
        ms(bm95),
        ms(fz95)
    );
    println!(
        "warm read, max_tokens 8000 ({} calls, {avg_tokens} tokens on average): p50 {:.3} ms, p95 {:.3} ms  ({:.0}× faster at p95)",
        t.reads.len(),
        ms(r50),
        ms(r95),
        ratio(r95)
    );
}
