//! Manual measurement (ignored by default): load the folder named by `SKILLNAV_LOAD_PATH`
//! and print the wall time, node count and root bytes. Run with
//! `SKILLNAV_LOAD_PATH=/path cargo test --release --test formats_timing -- --ignored --nocapture`.
//! It asserts nothing about time (no timed tests); it only checks the load produced a root.

use std::path::PathBuf;
use std::time::Instant;

use skillnav::formats::{LoadOptions, load_root, markdown, root_specs};

#[test]
#[ignore = "manual measurement; needs SKILLNAV_LOAD_PATH"]
fn measure_load_time() {
    let Some(path) = std::env::var_os("SKILLNAV_LOAD_PATH").map(PathBuf::from) else {
        panic!("set SKILLNAV_LOAD_PATH");
    };
    let spec = root_specs(std::slice::from_ref(&path)).remove(0);
    for run in 0..3 {
        let t = Instant::now();
        let mut calls = 0;
        let c = load_root(&spec, &LoadOptions::default(), &mut |_| calls += 1);
        let dt = t.elapsed();
        let root = c.node(c.roots[0]);
        println!(
            "run {run}: {:.1} ms, {} nodes, {} sources, {} bytes, {} progress calls",
            dt.as_secs_f64() * 1e3,
            c.len(),
            c.sources.len(),
            root.bytes,
            calls
        );
        assert_eq!(root.title, spec.label);
    }
    if path.is_file() {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let t = Instant::now();
        let h = markdown::headings(&text, 0, text.len());
        println!("headings: {} in {:.2} ms", h.len(), t.elapsed().as_secs_f64() * 1e3);
    }
}

#[test]
#[ignore = "manual measurement; needs SKILLNAV_LOAD_PATH"]
fn measure_parse_only() {
    let Some(path) = std::env::var_os("SKILLNAV_LOAD_PATH").map(PathBuf::from) else {
        panic!("set SKILLNAV_LOAD_PATH");
    };
    let mut texts = Vec::new();
    let t = Instant::now();
    let mut stack = vec![path];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                texts.push(std::fs::read_to_string(&p).unwrap_or_default());
            }
        }
    }
    println!("read {} files: {:.1} ms", texts.len(), t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let n: usize = texts.iter().map(|s| markdown::headings(s, 0, s.len()).len()).sum();
    println!("headings {n}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let n: usize = texts.iter().map(|s| pulldown_cmark::Parser::new(s).count()).sum();
    println!("raw pulldown events {n}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let opts = pulldown_cmark::Options::ENABLE_TABLES
        | pulldown_cmark::Options::ENABLE_FOOTNOTES
        | pulldown_cmark::Options::ENABLE_STRIKETHROUGH
        | pulldown_cmark::Options::ENABLE_TASKLISTS;
    let n: usize =
        texts.iter().map(|s| pulldown_cmark::Parser::new_ext(s, opts).into_offset_iter().count()).sum();
    println!("pulldown with our options, offsets {n}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
}
