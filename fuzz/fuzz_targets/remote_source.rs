//! Remote PATH arguments and the URLs an llms.txt links to (docs/REMOTE.md "Forms", "URLs"): any
//! text. No panic; a parsed `github:` form spells itself back the same; a linked page's
//! place in the mirror never climbs out of it; a resolved reference stays absolute.
#![no_main]

use std::path::Component;

use libfuzzer_sys::fuzz_target;
use skillnav::remote::http::resolve;
use skillnav::remote::site::rel_path;
use skillnav::remote::source::{Source, parse};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(Ok(Source::GitHub(g))) = parse(&text) {
        let again = parse(&g.canonical());
        assert!(
            matches!(&again, Some(Ok(Source::GitHub(h))) if *h == g),
            "{:?} reparses as {again:?}",
            g.canonical()
        );
    }
    if let Some(rel) = rel_path(&text) {
        assert!(
            rel.components().all(|c| matches!(c, Component::Normal(_))),
            "{text:?} maps to {}",
            rel.display()
        );
    }
    let url = resolve("https://docs.example/guide/llms.txt", &text);
    assert!(url.contains("://"), "{text:?} resolves to {url:?}");
});
