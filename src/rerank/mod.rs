//! The optional deeper tier of search (docs/DESIGN.md §3 "Re-rank"): the first hits of a
//! finished query re-ordered by the full all-MiniLM-L6-v2 sentence encoder, read at run time
//! from a model folder (never embedded, never downloaded by skillnav itself;
//! `tools/fetch_rerank_model.sh` fetches the pinned copy).
//!
//! This file is always compiled: it resolves the model folder (`SKILLNAV_RERANK_MODEL`,
//! else `[search] rerank_model`), loads the model once per process and attaches it to an
//! [`Index`] ([`crate::index::Rerank`]). The model itself needs the cargo feature `rerank`;
//! a build without it answers every request with [`RerankError::NotBuilt`].
//!
//! Modules (feature `rerank`): `weights` (the model folder's files), `bert` (the encoder's
//! forward pass), `encoder` (tokenize, encode, mean-pool, normalise, cache), `store` (the
//! vector file in the user cache dir), `fuse` (the ordering rule).

#[cfg(feature = "rerank")]
mod bert;
#[cfg(feature = "rerank")]
pub mod encoder;
#[cfg(feature = "rerank")]
pub mod fuse;
#[cfg(feature = "rerank")]
pub mod store;
#[cfg(feature = "rerank")]
mod weights;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::config::SearchSettings;
use crate::index::{Index, Rerank};

/// The environment variable naming the model folder (overrides `[search] rerank_model`).
pub const MODEL_ENV: &str = "SKILLNAV_RERANK_MODEL";

/// Whether this build has the re-ranker (the cargo feature `rerank`).
pub const BUILT: bool = cfg!(feature = "rerank");

/// Why the re-ranker is not available.
#[derive(Debug, thiserror::Error)]
pub enum RerankError {
    /// This build was made without the cargo feature `rerank`.
    #[error(
        "this build of skillnav lacks the re-ranker: rebuild with `cargo build --release --features rerank`"
    )]
    NotBuilt,
    /// Neither the environment variable nor the setting names a model folder.
    #[error(
        "no re-rank model folder: set {MODEL_ENV} or `[search] rerank_model` in config.toml (tools/fetch_rerank_model.sh fetches one)"
    )]
    NoModelDir,
    /// A file the model needs is missing.
    #[error("re-rank model: missing file {0}")]
    MissingFile(PathBuf),
    /// A file could not be read.
    #[error("re-rank model: {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file was read but does not hold what the model needs.
    #[error("re-rank model: {path}: {what}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong, in words.
        what: String,
    },
}

/// The model folder in force: `$SKILLNAV_RERANK_MODEL` when set and not empty, else
/// `settings.rerank_model` (a leading `~/` is the home folder); `None` when neither names one.
pub fn model_dir(settings: &SearchSettings) -> Option<PathBuf> {
    let from_env = std::env::var_os(MODEL_ENV).filter(|v| !v.is_empty());
    if let Some(v) = from_env {
        return Some(PathBuf::from(v));
    }
    let s = settings.rerank_model.trim();
    if s.is_empty() {
        return None;
    }
    if let Some(rest) = s.strip_prefix("~/")
        && let Some(home) = std::env::var_os("HOME")
    {
        return Some(Path::new(&home).join(rest));
    }
    Some(PathBuf::from(s))
}

/// The re-ranker of `settings` (model folder, depth, weight), loaded once per process and
/// folder (later calls with the same folder share it). Errors: [`RerankError`] — no
/// feature, no folder, a missing or malformed file.
pub fn load(settings: &SearchSettings) -> Result<Arc<dyn Rerank>, RerankError> {
    if !BUILT {
        return Err(RerankError::NotBuilt);
    }
    let dir = model_dir(settings).ok_or(RerankError::NoModelDir)?;
    /// Loaded re-rankers by (folder, depth, weight bits).
    type Loaded = Vec<(PathBuf, usize, u64, Arc<dyn Rerank>)>;
    static LOADED: Mutex<Loaded> = Mutex::new(Vec::new());
    let weight_bits = settings.rerank_weight.to_bits();
    let depth = settings.rerank_depth.clamp(1, 200);
    let mut loaded = LOADED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, _, _, r)) = loaded
        .iter()
        .find(|(d, n, w, _)| *d == dir && *n == depth && *w == weight_bits)
    {
        return Ok(Arc::clone(r));
    }
    let r = open(&dir, depth, settings.rerank_weight)?;
    loaded.push((dir, depth, weight_bits, Arc::clone(&r)));
    Ok(r)
}

/// The encoders [`load`] opened, for [`flush`].
#[cfg(feature = "rerank")]
static ENCODERS: Mutex<Vec<Arc<encoder::Encoder>>> = Mutex::new(Vec::new());

#[cfg(feature = "rerank")]
fn open(dir: &Path, depth: usize, weight: f64) -> Result<Arc<dyn Rerank>, RerankError> {
    let enc = Arc::new(encoder::Encoder::open(dir)?);
    ENCODERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(Arc::clone(&enc));
    Ok(Arc::new(encoder::Reranker::new(enc, depth, weight)))
}

/// Keep section vectors in the user cache dir from now on (`store`, docs/DESIGN.md §3
/// "Re-rank"); a no-op without the feature. The CLI calls it with the count cache's.
pub fn enable_disk() {
    #[cfg(feature = "rerank")]
    store::enable_disk();
}

/// Write the new vectors of every re-ranker [`load`] opened to the vector file (when
/// persistence is on); a no-op without the feature or new vectors. Never fails.
pub fn flush() {
    #[cfg(feature = "rerank")]
    {
        let encoders: Vec<_> = ENCODERS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        for e in encoders {
            e.flush();
        }
    }
}

#[cfg(not(feature = "rerank"))]
fn open(_dir: &Path, _depth: usize, _weight: f64) -> Result<Arc<dyn Rerank>, RerankError> {
    Err(RerankError::NotBuilt)
}

/// Load the re-ranker of `settings` ([`load`]) and attach it to `index` (a no-op when one
/// is attached already). Errors: as [`load`].
pub fn attach(index: &Index, settings: &SearchSettings) -> Result<(), RerankError> {
    if index.reranker().is_none() {
        index.attach_reranker(load(settings)?);
    }
    Ok(())
}

/// The status line of a re-rank: `re-ranked 50 hits (12 embedded) in 812 ms`.
pub fn describe(run: &crate::index::RerankRun) -> String {
    format!(
        "re-ranked {} hit{} ({} embedded) in {} ms",
        run.candidates,
        if run.candidates == 1 { "" } else { "s" },
        run.embedded,
        run.micros.div_ceil(1000)
    )
}
