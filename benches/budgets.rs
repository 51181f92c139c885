//! Budgets of docs/DESIGN.md §8 that are not search: load, heading tree, markdown render and token
//! counting, each printed beside a baseline measured in the same run (ratios, not absolute
//! thresholds). Run with `cargo bench --bench budgets`; the corpus comes from
//! `SKILLNAV_BENCH_CORPUS` (default `../shared/corpus`); missing inputs are reported and
//! skipped (exit 0), since benchmarks never gate CI.

// Tests and benchmarks may unwrap, expect and panic: a failure there is the report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use skillnav::curate::exposure::{Exposure, ExposureMap};
use skillnav::formats::{LoadOptions, load_root, root_specs, sections};
use skillnav::render::{RenderOptions, render_markdown};
use skillnav::tokens::{Encoding, TokenCounter, TokenTable};

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = f();
    for _ in 0..runs {
        let t = Instant::now();
        out = f();
        best = best.min(t.elapsed());
    }
    (best, out)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Baseline: read every file of the tree (what any loader must at least do).
fn read_all(dir: &Path) -> usize {
    let mut n = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                n += std::fs::read(&p).map_or(0, |b| b.len());
            }
        }
    }
    n
}

fn main() {
    let base = std::env::var_os("SKILLNAV_BENCH_CORPUS")
        .map_or_else(|| PathBuf::from("../shared/corpus"), PathBuf::from);
    let large = base.join("large");
    let full = base.join("skill-seekers/hono-unified/references/llms-full.md");
    if !large.is_dir() || !full.is_file() {
        println!(
            "budgets: {} not found; set SKILLNAV_BENCH_CORPUS to the corpus folder",
            base.display()
        );
        return;
    }
    let corpus = load_vs_read(&large);
    let table = token_counts(&corpus);
    bpe_vs_tiktoken(&corpus);
    tree_json(&corpus, &table);
    let text = std::fs::read_to_string(&full).unwrap_or_default();
    let parse = headings_vs_parse(&text);
    render_vs_parse(&text, parse);
    always_units(&corpus);
}

/// The load of the large tree, beside just reading its bytes; the loaded corpus.
fn load_vs_read(large: &Path) -> skillnav::model::Corpus {
    // Load of the 19 MB tree vs. just reading its bytes.
    let spec = root_specs(std::slice::from_ref(&large.to_path_buf())).remove(0);
    let (read, bytes) = best_of(3, || read_all(large));
    let (load, corpus) = best_of(3, || load_root(&spec, &LoadOptions::default(), &mut |_| {}));
    println!(
        "load large: {:.1} ms for {} nodes ({bytes} bytes); reading the files alone {:.1} ms; ratio {:.2}",
        ms(load),
        corpus.len(),
        ms(read),
        load.as_secs_f64() / read.as_secs_f64()
    );
    corpus
}

/// Token counts of the whole tree, beside the bytes/4 estimate; the counts.
fn token_counts(corpus: &skillnav::model::Corpus) -> TokenTable {
    // Token counts of the whole tree (both cores) vs. the bytes/4 estimate.
    // One cold run each: counts are cached in memory by (encoding, content hash) after it.
    let t = Instant::now();
    let table = TokenTable::count_all(corpus, TokenCounter::new(Encoding::O200kBase));
    let tok = t.elapsed();
    let t = Instant::now();
    let _ = TokenTable::count_all(corpus, TokenCounter::new(Encoding::Bytes4));
    let est = t.elapsed();
    let t = Instant::now();
    let _ = TokenTable::count_all(corpus, TokenCounter::new(Encoding::O200kBase));
    let cached = t.elapsed();
    println!(
        "tokens large: {:.1} ms o200k_base ({} tokens), {:.1} ms again from the cache, {:.1} ms bytes/4",
        ms(tok),
        table.total(corpus.roots[0]).unwrap_or(0),
        ms(cached),
        ms(est)
    );
    table
}

/// The BPE counter beside tiktoken-rs, per encoding.
fn bpe_vs_tiktoken(corpus: &skillnav::model::Corpus) {
    // The BPE counter against tiktoken-rs (the reference it replaced), one thread each, over
    // every section text of the tree: speed ratio and how many counts differ (must be 0).
    let texts: Vec<&str> = (0..corpus.len() as u32)
        .map(skillnav::model::NodeId)
        .filter(|i| corpus.node(*i).span.is_some())
        .map(|i| corpus.own_text(i))
        .collect();
    for (encoding, reference) in [
        (Encoding::O200kBase, tiktoken_rs::o200k_base_singleton()),
        (Encoding::Cl100kBase, tiktoken_rs::cl100k_base_singleton()),
    ] {
        let counter = TokenCounter::new(encoding);
        counter.warm_up();
        let _ = reference.encode_ordinary("warm up");
        let t = Instant::now();
        let ours: Vec<u64> = texts.iter().map(|s| counter.count(s)).collect();
        let t_ours = t.elapsed();
        let t = Instant::now();
        let theirs: Vec<u64> = texts
            .iter()
            .map(|s| reference.encode_ordinary(s).len() as u64)
            .collect();
        let t_theirs = t.elapsed();
        let differ = ours.iter().zip(&theirs).filter(|(a, b)| a != b).count();
        println!(
            "bpe-openai vs tiktoken-rs, {encoding}, {} texts on one thread: {:.0} ms vs {:.0} ms, {:.2}× faster; {differ} counts differ",
            texts.len(),
            ms(t_ours),
            ms(t_theirs),
            t_theirs.as_secs_f64() / t_ours.as_secs_f64()
        );
    }
}

/// `tree --json`, streamed beside built first.
fn tree_json(corpus: &skillnav::model::Corpus, table: &TokenTable) {
    // tree --json of the large tree: streamed vs the whole document built first.
    let counter = TokenCounter::new(Encoding::O200kBase);
    let (streamed, a) = best_of(3, || {
        let mut out = Vec::new();
        skillnav::cli::tree_json::print_tree_json(&mut out, corpus, table, None, counter).unwrap();
        out
    });
    let (built, b) = best_of(3, || {
        let mut out = Vec::new();
        skillnav::cli::tree_json::print_tree_json_built(&mut out, corpus, table, None, counter)
            .unwrap();
        out
    });
    println!(
        "tree --json large: streamed {:.0} ms, built first {:.0} ms, ratio {:.2}; {} bytes, identical: {}",
        ms(streamed),
        ms(built),
        streamed.as_secs_f64() / built.as_secs_f64(),
        a.len(),
        a == b
    );
}

/// The heading tree of `text` beside a bare pulldown-cmark pass; that pass's time.
fn headings_vs_parse(text: &str) -> Duration {
    // Heading tree of llms-full.md (365 KB) vs. a pulldown-cmark pass over the same text.
    let (heads, h) = best_of(5, || sections::headings(text, 0, text.len()));
    let (parse, _) = best_of(5, || pulldown_cmark::Parser::new(text).count());
    println!(
        "headings llms-full.md: {:.2} ms for {} headings; bare pulldown-cmark pass {:.2} ms; ratio {:.2}",
        ms(heads),
        h.len(),
        ms(parse),
        heads.as_secs_f64() / parse.as_secs_f64()
    );

    parse
}

/// The preview render of `text`, beside the bare parse (`parse`: its time).
fn render_vs_parse(text: &str, parse: Duration) {
    // Rendering the same file for the preview, once per (node, width).
    let opts = RenderOptions {
        width: 100,
        terms: vec!["cors".into()],
        show_frontmatter: true,
        ..RenderOptions::default()
    };
    let (render, r) = best_of(3, || render_markdown(text, &opts));
    println!(
        "render llms-full.md: {:.1} ms into {} lines; ratio to the bare parse {:.1}",
        ms(render),
        r.lines.len(),
        render.as_secs_f64() / parse.as_secs_f64()
    );
}

/// The `always` units of one file, beside a pre-order walk of the whole corpus.
fn always_units(corpus: &skillnav::model::Corpus) {
    // The `always` units behind the budget total, recounted on each selection change: with
    // one file of the large tree set to `always`, the walk covers that file's subtree only;
    // the baseline is one pre-order walk of the whole corpus (what every keystroke paid).
    let mut exposure = ExposureMap::new();
    if let Some(file) = corpus
        .nodes
        .iter()
        .position(|n| n.kind == skillnav::model::NodeKind::File)
    {
        exposure.set(skillnav::model::NodeId(file as u32), Some(Exposure::Always));
    }
    let (units, u) = best_of(20, || exposure.always_units(corpus));
    let (walk, w) = best_of(20, || corpus.all_preorder().len());
    println!(
        "always units large (one file always): {:.3} ms for {} units; a full pre-order walk of {w} nodes {:.3} ms; ratio {:.3}",
        ms(units),
        u.len(),
        ms(walk),
        units.as_secs_f64() / walk.as_secs_f64()
    );
}
