//! The encoder against the numpy reference of `tests/fixtures/rerank/golden.json`, the
//! errors of an incomplete model folder, and `search` with the model installed end to end.
//! The model is the one `tools/fetch-model.sh` fetches, installed with `skillnav model
//! install --from` ([`crate::support::model`]); under CI these tests fail without it.

use std::path::PathBuf;

use skillnav::rerank::RerankError;
use skillnav::rerank::encoder::{Encoder, MAX_PASSAGES, MAX_PIECES, best_passage};

use super::golden;
use crate::support::child::skillnav_command;

/// The installed default model's folder; `None` (the test is skipped) outside CI when it
/// cannot be fetched.
pub fn model_dir() -> Option<PathBuf> {
    crate::support::model::installed_model_dir()
}

fn encoder() -> Option<&'static Encoder> {
    static ENC: std::sync::OnceLock<Option<Encoder>> = std::sync::OnceLock::new();
    // The reference encodes up to the model's limit of 254 pieces (one golden text is longer).
    ENC.get_or_init(|| model_dir().map(|d| Encoder::open_with(&d, MAX_PIECES).unwrap()))
        .as_ref()
}

#[test]
fn vectors_match_the_numpy_reference_to_2e_4() {
    let Some(enc) = encoder() else { return };
    assert_eq!(enc.dims(), 384);
    let g = golden();
    for t in g["texts"].as_array().unwrap() {
        let text = t["text"].as_str().unwrap();
        let want: Vec<f64> = t["vector"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let got = enc.embed_uncached(text).unwrap();
        assert_eq!(got.len(), want.len());
        let worst = got
            .iter()
            .zip(&want)
            .map(|(a, b)| (f64::from(*a) - b).abs())
            .fold(0.0, f64::max);
        assert!(worst < 2e-4, "{text:?}: largest difference {worst}");
    }
}

#[test]
fn pair_cosines_match_the_reference() {
    let Some(enc) = encoder() else { return };
    let g = golden();
    let texts = g["texts"].as_array().unwrap();
    let mut seen = Vec::new();
    for p in g["pairs"].as_array().unwrap() {
        let a = texts[p["a"].as_u64().unwrap() as usize]["text"]
            .as_str()
            .unwrap();
        let b = texts[p["b"].as_u64().unwrap() as usize]["text"]
            .as_str()
            .unwrap();
        let va = enc.embed_uncached(a).unwrap();
        let vb = enc.embed_uncached(b).unwrap();
        let cos = skillnav::rerank::fuse::dot(&va, &vb);
        let want = p["cosine"].as_f64().unwrap();
        assert!((cos - want).abs() < 1e-4, "{a:?} / {b:?}: {cos} vs {want}");
        seen.push((want * 1000.0).round() / 1000.0);
    }
    // "A man is eating food." is close to "… a piece of bread." and far from "The girl is
    // carrying a baby.".
    assert_eq!(seen, vec![0.755, -0.105, -0.073, 0.067]);
}

#[test]
fn embed_all_encodes_each_distinct_text_once_and_then_reads_the_cache() {
    let Some(dir) = model_dir() else { return };
    let enc = Encoder::open(&dir).unwrap();
    let texts: Vec<String> = ["alpha beta", "gamma", "alpha beta"]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    let (v, encoded) = enc.embed_all(&texts, 2);
    assert_eq!(encoded, 2);
    assert_eq!(v[0], v[2]);
    let (again, encoded) = enc.embed_all(&texts, 2);
    assert_eq!(encoded, 0);
    assert_eq!(again, v);
}

#[test]
fn a_long_section_is_cut_into_passages_and_scored_by_its_deep_answer_passage() {
    let Some(dir) = model_dir() else { return };
    let enc = Encoder::open(&dir).unwrap();
    // 450 one-piece filler words, then the answer: 4 passages of at most 128 pieces.
    let filler = "the quick brown fox jumps over the lazy dog ".repeat(50);
    let text = format!(
        "{filler}the body limit middleware rejects uploads larger than the configured maximum size"
    );
    let ids = enc.passage_ids(&text);
    assert_eq!(ids.len(), 4);
    assert_eq!(ids[0], enc.input_ids(&text));
    assert!(
        ids.iter().all(|p| p.len() <= 130),
        "{:?}",
        ids.iter().map(Vec::len).collect::<Vec<_>>()
    );
    assert_eq!(enc.passage_ids(&"word ".repeat(5000)).len(), MAX_PASSAGES);
    assert_eq!(enc.passage_ids("").len(), 1);
    // The passage holding the most of the query's word pieces is the deep one, and it is
    // the only one encoded.
    let question = "how do I limit the size of uploaded request bodies";
    assert_eq!(best_passage(&ids, &enc.input_ids(question)), 3);
    let (v, encoded) = enc.embed_best_passages(std::slice::from_ref(&text), question, 2);
    assert_eq!(encoded, 1);
    let q = enc.embed_uncached(question).unwrap();
    let deep = skillnav::rerank::fuse::dot(&q, v[0].as_ref().unwrap());
    let opening = skillnav::rerank::fuse::dot(&q, &enc.embed_uncached(&text).unwrap());
    assert!(deep > opening + 0.2, "{deep} against {opening}");
    // Cached per passage: nothing is encoded the second time.
    let (again, encoded) = enc.embed_best_passages(&[text], question, 2);
    assert_eq!((again, encoded), (v, 0));
}

#[test]
fn missing_model_file_is_named_in_the_error() {
    let Some(src) = model_dir() else { return };
    let dir = tempfile::tempdir().unwrap();
    for f in ["config.json", "vocab.txt"] {
        std::fs::copy(src.join(f), dir.path().join(f)).unwrap();
    }
    let err = Encoder::open(dir.path()).unwrap_err();
    let path = dir.path().join("model.safetensors");
    assert!(matches!(&err, RerankError::MissingFile(p) if *p == path));
    assert_eq!(
        err.to_string(),
        format!("re-rank model: missing file {}", path.display())
    );
    std::fs::remove_file(dir.path().join("vocab.txt")).unwrap();
    let err = Encoder::open(dir.path()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "re-rank model: missing file {}",
            dir.path().join("vocab.txt").display()
        )
    );
}

#[test]
fn search_with_the_model_installed_names_the_rerank_signal_on_the_first_hits() {
    let Some(models) = crate::support::model::installed_models() else {
        return;
    };
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/index/hono");
    let out = skillnav_command()
        .env("SKILLNAV_MODELS_DIR", models)
        .args([
            "search",
            "--json",
            "--top-k",
            "3",
            "limit the file size of the request body",
        ])
        .arg(&fixture)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let content: Vec<(String, Vec<String>)> = v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["source"] != "fuzzy")
        .map(|h| {
            (
                h["id"].as_str().unwrap().to_string(),
                h["signals"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    let rr = || vec!["bm25".to_string(), "rerank".to_string()];
    assert_eq!(
        content,
        vec![
            (
                "hono/references/middleware.md#hono_docs---middleware/body-limit-middleware".into(),
                rr()
            ),
            (
                "hono/references/api.md#hono_docs---api/honorequest".into(),
                rr()
            ),
            (
                "hono/references/middleware.md#hono_docs---middleware/compress-middleware".into(),
                rr()
            ),
        ]
    );
    // The first stage's 40 hits were scored; the best 3 are kept.
    assert_eq!(v["rerank"]["candidates"], 40);
}

#[cfg(feature = "tui")]
#[test]
fn tui_reranks_on_enter_only_and_says_so_in_the_status() {
    use skillnav::tui::input::action::Action;

    use crate::support::tui::{act, app_with, spec};

    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/index/hono");
    let store = tempfile::tempdir().unwrap();
    let Some(dir) = model_dir() else { return };
    let mut app = app_with(vec![spec(&fixture, "hono")], 100, 20, store.path(), |app| {
        app.settings.search.semantic = skillnav::config::Semantic::Auto;
        app.settings.search.rerank_model = dir.display().to_string();
    });
    app.status.clear();
    act(&mut app, &[Action::SearchOpen]);
    for c in "limit the request body".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    // Typing searches with the last word as a prefix: no re-rank.
    assert_eq!(app.status, "");
    act(&mut app, &[Action::SearchAccept]);
    let status = app.status.clone();
    let shape = regex_like(&status);
    assert_eq!(
        shape,
        "→ hono/references/middleware.md#hono_docs---middleware/body-limit-middleware · re-ranked N hits (N embedded) in N ms",
        "{status}"
    );
}

/// `status` with every run of digits replaced by `N` (the count and time vary by corpus and
/// machine; their shape does not).
fn regex_like(status: &str) -> String {
    let mut out = String::new();
    let mut in_digits = false;
    for c in status.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('N');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}
