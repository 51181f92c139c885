//! The model folder's files (the sentence-transformers layout of all-MiniLM-L6-v2):
//! `config.json` (BERT shape), `vocab.txt` (must be the embedded BERT uncased vocabulary,
//! `assets/embed/vocab.txt`), `model.safetensors` (fp32 weights, names with or without a
//! `bert.` prefix) and, when present, `1_Pooling/config.json` (must pool by mean).

use std::path::Path;

use serde::Deserialize;

use super::RerankError;
use super::bert::{Bert, Layer, Linear, Shape};
use super::store::{ModelHasher, ModelId};
use super::tensors::Tensors;

/// The `config.json` fields the forward pass needs (Hugging Face `BertConfig` names).
#[derive(Debug, Deserialize)]
struct BertConfig {
    hidden_size: usize,
    num_hidden_layers: usize,
    num_attention_heads: usize,
    intermediate_size: usize,
    max_position_embeddings: usize,
    vocab_size: usize,
    #[serde(default = "default_eps")]
    layer_norm_eps: f64,
    #[serde(default = "default_act")]
    hidden_act: String,
}

fn default_eps() -> f64 {
    1e-12
}

fn default_act() -> String {
    "gelu".into()
}

/// `1_Pooling/config.json` (sentence-transformers).
#[derive(Debug, Deserialize)]
struct PoolingConfig {
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
}

fn read(path: &Path) -> Result<Vec<u8>, RerankError> {
    if !path.is_file() {
        return Err(RerankError::MissingFile(path.to_path_buf()));
    }
    std::fs::read(path).map_err(|source| RerankError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn bad(path: &Path, what: impl Into<String>) -> RerankError {
    RerankError::Bad {
        path: path.to_path_buf(),
        what: what.into(),
    }
}

/// Check `dir/vocab.txt` against the embedded vocabulary (the tokenizer reused).
pub(super) fn check_vocab(dir: &Path) -> Result<(), RerankError> {
    let path = dir.join("vocab.txt");
    let bytes = read(&path)?;
    if bytes != crate::embed::VOCAB_TEXT.as_bytes() {
        return Err(bad(
            &path,
            "differs from the BERT uncased vocabulary skillnav's tokenizer uses (assets/embed/vocab.txt)",
        ));
    }
    Ok(())
}

/// Read the encoder of `dir` and its identity for the vector file
/// ([`super::store::model_id`] of `max_pieces`, `config.json` and `model.safetensors`,
/// hashed while the weights are read: the file is read once and never held whole).
/// Errors: a missing file (named), an unreadable one, a shape or pooling this forward pass
/// does not implement, a missing or mis-shaped tensor.
pub(super) fn load(dir: &Path, max_pieces: usize) -> Result<(Bert, ModelId), RerankError> {
    let (cfg, cfg_bytes) = read_config(dir)?;
    check_pooling(dir)?;
    let mut hash = ModelHasher::new(max_pieces);
    hash.part(cfg_bytes.len() as u64);
    hash.bytes(&cfg_bytes);
    let mut t = Tensors::read(&dir.join("model.safetensors"), &mut hash)?;
    Ok((encoder(&mut t, &cfg)?, hash.finish()))
}

/// `dir/config.json`, parsed, and its bytes. Errors: a missing or unreadable file, bad
/// JSON, an activation other than gelu, a hidden size the heads do not divide.
fn read_config(dir: &Path) -> Result<(BertConfig, Vec<u8>), RerankError> {
    let cfg_path = dir.join("config.json");
    let cfg_bytes = read(&cfg_path)?;
    let cfg: BertConfig =
        serde_json::from_slice(&cfg_bytes).map_err(|e| bad(&cfg_path, e.to_string()))?;
    if cfg.hidden_act != "gelu" {
        return Err(bad(
            &cfg_path,
            format!("hidden_act {:?} (only gelu)", cfg.hidden_act),
        ));
    }
    if cfg.num_attention_heads == 0 || !cfg.hidden_size.is_multiple_of(cfg.num_attention_heads) {
        return Err(bad(
            &cfg_path,
            "hidden_size is not a multiple of num_attention_heads",
        ));
    }
    Ok((cfg, cfg_bytes))
}

/// Check `dir/1_Pooling/config.json`, when present, pools by mean. Errors: unreadable, bad
/// JSON, another pooling.
fn check_pooling(dir: &Path) -> Result<(), RerankError> {
    let pool_path = dir.join("1_Pooling").join("config.json");
    if pool_path.is_file() {
        let pool: PoolingConfig = serde_json::from_slice(&read(&pool_path)?)
            .map_err(|e| bad(&pool_path, e.to_string()))?;
        if !pool.pooling_mode_mean_tokens {
            return Err(bad(&pool_path, "only mean pooling is implemented"));
        }
    }
    Ok(())
}

/// The encoder of shape `cfg` from the tensors `t`: its layers, then the embeddings.
/// Errors: a missing or mis-shaped tensor.
fn encoder(t: &mut Tensors, cfg: &BertConfig) -> Result<Bert, RerankError> {
    let h = cfg.hidden_size;
    let mut layers = Vec::with_capacity(cfg.num_hidden_layers);
    for i in 0..cfg.num_hidden_layers {
        layers.push(layer(t, cfg, i)?);
    }
    let token_types = t.matrix("embeddings.token_type_embeddings.weight", 0, h)?;
    Ok(Bert {
        shape: Shape {
            hidden: h,
            heads: cfg.num_attention_heads,
            intermediate: cfg.intermediate_size,
            positions: cfg.max_position_embeddings,
            eps: cfg.layer_norm_eps as f32,
        },
        words: t.matrix("embeddings.word_embeddings.weight", cfg.vocab_size, h)?,
        positions: t.matrix(
            "embeddings.position_embeddings.weight",
            cfg.max_position_embeddings,
            h,
        )?,
        token_type0: token_types.row(0).to_owned(),
        emb_norm: t.norm("embeddings.LayerNorm", h)?,
        layers,
    })
}

/// Encoder layer `i` of shape `cfg` from the tensors `t` (query, key and value stacked).
/// Errors: a missing or mis-shaped tensor.
fn layer(t: &mut Tensors, cfg: &BertConfig, i: usize) -> Result<Layer, RerankError> {
    let h = cfg.hidden_size;
    let p = format!("encoder.layer.{i}.");
    let m = cfg.intermediate_size;
    let query = t.linear(&format!("{p}attention.self.query"), h, h)?;
    let key = t.linear(&format!("{p}attention.self.key"), h, h)?;
    let value = t.linear(&format!("{p}attention.self.value"), h, h)?;
    Ok(Layer {
        qkv: Linear::stacked(&[&query, &key, &value])
            .ok_or_else(|| bad(t.path(), format!("{p}attention.self: shapes differ")))?,
        out: t.linear(&format!("{p}attention.output.dense"), h, h)?,
        attn_norm: t.norm(&format!("{p}attention.output.LayerNorm"), h)?,
        up: t.linear(&format!("{p}intermediate.dense"), m, h)?,
        down: t.linear(&format!("{p}output.dense"), h, m)?,
        out_norm: t.norm(&format!("{p}output.LayerNorm"), h)?,
    })
}
