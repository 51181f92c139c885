//! skillnav's `WordPiece` (`embed::wordpiece`, reused by the re-ranker) gives the model's own
//! input ids: `[CLS]`, the pieces, `[SEP]`, truncated to 256 positions, as the Hugging Face
//! tokenizer of all-MiniLM-L6-v2 does (`tests/fixtures/rerank/golden.json`).

use super::golden;

#[test]
fn wordpiece_ids_match_the_models_tokenizer_on_every_golden_text() {
    let model = skillnav::embed::model().unwrap();
    let g = golden();
    let texts = g["texts"].as_array().unwrap();
    assert_eq!(texts.len(), 10);
    for t in texts {
        let text = t["text"].as_str().unwrap();
        let want: Vec<u32> = t["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        let mut got = vec![101];
        got.extend(model.vocab.encode(text, 254));
        got.push(102);
        assert_eq!(got, want, "{text:?}");
    }
}

#[test]
fn long_golden_text_is_cut_to_256_positions() {
    let g = golden();
    let long = &g["texts"][9];
    assert_eq!(long["ids"].as_array().unwrap().len(), 256);
    assert_eq!(long["ids"][255], 102);
}
