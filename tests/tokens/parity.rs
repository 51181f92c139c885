//! The counts of `skillnav::tokens` (bpe-openai) are tiktoken-rs's, node for node, over every
//! checked-in fixture tree and a set of texts that stress the pre-tokenizer, in both BPE
//! encodings.

use skillnav::model::NodeId;
use skillnav::tokens::{Encoding, TokenCounter, count_batch};

use crate::support::corpus::load;
use crate::support::fs::manifest;

/// tiktoken-rs's count of `text` (ordinary encoding), the reference.
fn tiktoken(encoding: Encoding, text: &str) -> u64 {
    let bpe = match encoding {
        Encoding::O200kBase => tiktoken_rs::o200k_base_singleton(),
        Encoding::Cl100kBase => tiktoken_rs::cl100k_base_singleton(),
        Encoding::Bytes4 => unreachable!("not a BPE encoding"),
    };
    bpe.encode_ordinary(text).len() as u64
}

/// Every node text of every fixture tree, and every fixture file whole.
fn real_texts() -> Vec<String> {
    let root = manifest("tests/fixtures");
    let mut texts = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in &dirs {
        let corpus = load(dir);
        for i in 0..corpus.len() as u32 {
            if corpus.node(NodeId(i)).span.is_some() {
                texts.push(corpus.own_text(NodeId(i)).to_string());
            }
        }
    }
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(s) = std::fs::read_to_string(&p) {
                texts.push(s);
            }
        }
    }
    texts
}

/// Each of `counts` is tiktoken's count of the text of `texts` at its place.
fn assert_tiktokens(encoding: Encoding, texts: &[&str], counts: &[u64]) {
    assert_eq!(counts.len(), texts.len());
    for (t, n) in texts.iter().zip(counts) {
        assert_eq!(
            *n,
            tiktoken(encoding, t),
            "{encoding}: {:?}",
            t.chars().take(120).collect::<String>()
        );
    }
}

#[test]
fn bpe_counts_equal_tiktoken_on_every_fixture_text() {
    let texts = real_texts();
    assert!(texts.len() > 2000, "only {} texts", texts.len());
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let counter = TokenCounter::new(encoding);
        let mut total = 0;
        for t in &texts {
            let (ours, reference) = (counter.count(t), tiktoken(encoding, t));
            assert_eq!(
                ours,
                reference,
                "{encoding}: {:?}",
                t.chars().take(120).collect::<String>()
            );
            total += ours;
        }
        assert!(total > 400_000, "{encoding}: {total} tokens");
    }
}

#[test]
fn bpe_counts_equal_tiktoken_on_pretokenizer_edge_cases() {
    let cases = [
        "trailing spaces   ",
        "   leading and   inner   runs\n\n\n  \t x",
        "line\r\nbreaks\r\n\r\n  \r\n",
        "I'm sure they've said it's 'fine', WE'LL see; DON'T",
        "12345678901 1,000,000.50 ٣٤٥ ①②",
        "CamelCaseWords HTTPServer parseJSON über ÉCOLE",
        "渐进式披露让智能体只在需要时读取文档。日本語のテキスト、한국어 텍스트",
        "emoji 👩‍👩‍👧‍👦 🇩🇪 ✔︎ and ZWJ\u{200d}joins",
        "path/to/file.rs::module//comment /* block */ --flag=x",
        "```rust\nfn main() {\n    println!(\"{}\", 1);\n}\n```\n",
        " \n \n\t\t\n",
        "<|endoftext|> special text counts as text",
        "a\u{0301}e\u{0301} combining marks and NFC-unnormalised ﬁ ligatures",
    ];
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let counter = TokenCounter::new(encoding);
        for c in cases {
            assert_eq!(counter.count(c), tiktoken(encoding, c), "{encoding}: {c:?}");
        }
    }
}

#[test]
fn batch_counts_on_all_cores_equal_tiktoken_on_every_fixture_text() {
    // The batch path (workers with their own search cache and piece memo, longest text
    // first) must give tiktoken's number for every text, not just the same total.
    let texts = real_texts();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let counts = count_batch(TokenCounter::new(encoding), &refs);
        assert_tiktokens(encoding, &refs, &counts);
    }
}

#[test]
fn released_tables_reload_and_count_the_same() {
    let text = "Released tables load again on the next count: über, 渐进式, 12345, CamelCase.";
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let counter = TokenCounter::new(encoding);
        let before = counter.count(text);
        counter.release();
        assert_eq!(counter.count(text), before, "{encoding}");
        counter.release();
        counter.prefetch();
        assert_eq!(counter.count(text), before, "{encoding}");
        assert_eq!(before, tiktoken(encoding, text), "{encoding}");
    }
}

#[test]
fn batch_counts_that_start_while_the_tables_load_equal_tiktoken() {
    // Released tables: the batch splits texts while they load again, then counts the
    // distinct pieces (docs/DESIGN.md §4). Every count must still be tiktoken's.
    let texts = real_texts();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let counter = TokenCounter::new(encoding);
        counter.release();
        let counts = count_batch(counter, &refs);
        assert_tiktokens(encoding, &refs, &counts);
    }
}

#[test]
fn batches_on_several_threads_while_the_tables_are_released_and_reloaded_count_the_same() {
    // Four threads count while a fifth keeps releasing the tables: batches find them
    // loaded, loading (and split meanwhile) or released, and must never wait on each other
    // for good or give another number.
    let texts = real_texts();
    let refs: Vec<&str> = texts.iter().take(600).map(String::as_str).collect();
    let counter = TokenCounter::new(Encoding::O200kBase);
    let expect: Vec<u64> = refs
        .iter()
        .map(|t| tiktoken(Encoding::O200kBase, t))
        .collect();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                counter.release();
                std::thread::sleep(std::time::Duration::from_millis(7));
            }
        });
        let workers: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    for _ in 0..3 {
                        assert_eq!(count_batch(counter, &refs), expect);
                    }
                })
            })
            .collect();
        let joined: Vec<_> = workers.into_iter().map(|w| w.join()).collect();
        // Stop the releasing thread before a failed worker fails the test.
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(joined.iter().all(Result::is_ok), "a counting thread failed");
    });
}
