//! The embedded table against what `tools/make_embeddings.py` wrote: the asset's sha256 and
//! the golden vectors of `assets/embed/golden.json` (token ids and the first components of
//! the normalised mean vector), so a changed asset or a drifting tokenizer fails here.

use sha2::{Digest, Sha256};

use super::{DIMS, MODEL_BYTES, MODEL_SHA256, model};

const GOLDEN: &str = include_str!("../../assets/embed/golden.json");

#[test]
fn asset_sha256_is_pinned() {
    let digest = Sha256::digest(MODEL_BYTES);
    let hex = digest.iter().fold(String::new(), |mut s, b| {
        use std::fmt::Write;
        let _ = write!(s, "{b:02x}");
        s
    });
    assert_eq!(hex, MODEL_SHA256);
    let golden: serde_json::Value = serde_json::from_str(GOLDEN).unwrap();
    assert_eq!(golden["model_sha256"].as_str(), Some(MODEL_SHA256));
}

#[test]
fn model_loads_with_the_vocabulary_size_and_dims() {
    let m = model().unwrap();
    assert_eq!(m.vocab.len(), 30522);
    assert_eq!(m.table.rows(), 30522);
    assert_eq!(m.table.row(0).len(), DIMS);
}

#[test]
fn golden_texts_give_the_scripts_ids_and_vectors() {
    let m = model().unwrap();
    let golden: serde_json::Value = serde_json::from_str(GOLDEN).unwrap();
    let texts = golden["texts"].as_array().unwrap();
    assert!(texts.len() >= 5);
    for g in texts {
        let text = g["text"].as_str().unwrap();
        let want_ids: Vec<u32> = g["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(m.vocab.encode(text, 512), want_ids, "ids of {text:?}");
        let v = m.embed(text).unwrap();
        for (i, want) in g["head"].as_array().unwrap().iter().enumerate() {
            let want = want.as_f64().unwrap() as f32;
            assert!(
                (v[i] - want).abs() < 1e-4,
                "{text:?}[{i}]: {} vs {want}",
                v[i]
            );
        }
    }
}

#[test]
fn long_texts_count_only_the_first_512_tokens() {
    let m = model().unwrap();
    let head = "alpha beta gamma ".repeat(200);
    let tail = format!("{head} zebra giraffe");
    assert_eq!(m.embed(&head), m.embed(&tail));
    assert!(m.embed("").is_none());
    assert!(m.embed("  \n ").is_none());
}

#[test]
fn related_words_are_closer_than_unrelated_ones() {
    let m = model().unwrap();
    let cos = |a: &str, b: &str| {
        let (x, y) = (m.embed(a).unwrap(), m.embed(b).unwrap());
        x.iter().zip(&y).map(|(p, q)| p * q).sum::<f32>()
    };
    assert!(
        cos("authentication login", "sign in with a password")
            > cos("authentication login", "bake a chocolate cake")
    );
}
