//! Syntax highlighting (first byte: language) of any code: returns (libFuzzer's `-timeout`
//! catches a hang) with one line per source line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::render::{Highlighter, SyntaxTheme};

const LANGS: [&str; 16] = [
    "js", "ts", "tsx", "jsx", "bash", "python", "rust", "go", "yaml", "json", "toml", "md", "html",
    "c", "diff", "ruby",
];

fuzz_target!(|data: &[u8]| {
    let Some((&l, rest)) = data.split_first() else {
        return;
    };
    let lang = LANGS[usize::from(l) % LANGS.len()];
    let code = String::from_utf8_lossy(rest);
    let lines = Highlighter::shared().highlight(&code, lang, SyntaxTheme::DARK);
    assert_eq!(lines.len(), code.lines().count());
});
