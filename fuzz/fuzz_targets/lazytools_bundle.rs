//! A lazytools bundle from any bytes: `manifest.json`, `vocab.json`, `chunks.jsonl` and a
//! query, separated by NUL bytes. Parsing never panics; ranking gives finite scores above 0,
//! best first; the `query_skill` brief stays within its character cut.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::brief::lazytools::{QuerySkillOptions, query_skill};
use skillnav::formats::lazytools::BundleFiles;
use skillnav::formats::lazytools::read::{parse_chunks, parse_manifest, parse_vocab};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(4, '\0');
    let manifest = parts.next().unwrap_or("");
    let vocab = parts.next().unwrap_or("");
    let chunks = parts.next().unwrap_or("");
    let query = parts.next().unwrap_or("app context");
    let mut problems = Vec::new();
    let chunks = parse_chunks(chunks, &mut problems);
    let idf = parse_vocab(vocab, &mut problems);
    let manifest = parse_manifest(Some(manifest), "bundle", &chunks, &mut problems);
    let files = BundleFiles {
        manifest,
        idf,
        chunks,
        skill_md: None,
        skill_md_bytes: None,
        problems,
    };
    let stats = files.stats(Vec::new());
    let ranked = skillnav::index::lazytools::rank(&stats, query, 8);
    for (_, s) in &ranked {
        assert!(s.is_finite() && *s > 0.0, "score {s}");
    }
    for w in ranked.windows(2) {
        assert!(w[0].1 >= w[1].1, "not sorted");
    }
    let opts = QuerySkillOptions {
        max_chars: 2000,
        ..QuerySkillOptions::default()
    };
    let brief = query_skill(&stats, query, &opts);
    assert!(brief.chars().count() <= 2000);
});
