//! The models folder (docs/DESIGN.md §3 "Re-rank"): `<user data dir>/models/<name>`
//! (`$XDG_DATA_HOME/skillnav/models` on Linux), or `$SKILLNAV_MODELS_DIR` when set (tests
//! and CI). A model is installed when its folder holds [`MANIFEST`], written last by an
//! install; work folders of an install in progress start with `.` and are never listed.

use std::path::{Path, PathBuf};

use super::registry::{self, DEFAULT_MODEL, ModelSpec};

/// The environment variable that replaces the models folder.
pub const MODELS_ENV: &str = "SKILLNAV_MODELS_DIR";

pub use super::install::MANIFEST;

/// The models folder: `$SKILLNAV_MODELS_DIR` when set and not empty, else `models` in the
/// user data dir; `None` when the platform has no home folder.
pub fn models_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os(MODELS_ENV).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    crate::util::paths::data_dir().map(|d| d.join("models"))
}

/// The folder of the default model ([`DEFAULT_MODEL`]), installed or not.
pub fn default_dir() -> Option<PathBuf> {
    models_dir().map(|d| d.join(DEFAULT_MODEL))
}

/// Whether `dir` holds a finished install (its [`MANIFEST`]).
pub fn is_installed(dir: &Path) -> bool {
    dir.join(MANIFEST).is_file()
}

/// One row of `skillnav model list`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Listed {
    /// The model's name (its folder).
    pub name: String,
    /// Whether it is the default model.
    pub default: bool,
    /// Whether it is installed.
    pub installed: bool,
    /// Its folder (where it is or would be installed).
    pub path: PathBuf,
    /// Bytes of its files on disk when installed, else of its pinned files.
    pub bytes: u64,
    /// The licence, for a model of the registry.
    pub licence: Option<&'static str>,
    /// `owner/name@commit` on the hub, for a model of the registry.
    pub source: Option<String>,
}

/// Every model of the registry, then any other installed folder, under `models`, by name.
pub fn list(models: &Path) -> Vec<Listed> {
    let mut out: Vec<Listed> = registry::MODELS
        .iter()
        .map(|m| row(models, m.name, Some(m)))
        .collect();
    let mut others: Vec<String> = std::fs::read_dir(models)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.') && registry::find(n).is_none())
        .filter(|n| is_installed(&models.join(n)))
        .collect();
    others.sort();
    out.extend(others.iter().map(|n| row(models, n, None)));
    out
}

fn row(models: &Path, name: &str, spec: Option<&ModelSpec>) -> Listed {
    let path = models.join(name);
    let installed = is_installed(&path);
    let bytes = if installed {
        folder_bytes(&path)
    } else {
        spec.map_or(0, ModelSpec::total_bytes)
    };
    Listed {
        name: name.to_string(),
        default: name == DEFAULT_MODEL,
        installed,
        path,
        bytes,
        licence: spec.map(|m| m.licence),
        source: spec.map(|m| format!("{}@{}", m.repo, m.revision)),
    }
}

/// The bytes of the regular files under `dir` (recursively; links not followed).
pub fn folder_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut total = 0;
    for e in entries.flatten() {
        match e.file_type() {
            Ok(t) if t.is_dir() => total += folder_bytes(&e.path()),
            Ok(t) if t.is_file() => total += e.metadata().map_or(0, |m| m.len()),
            _ => {}
        }
    }
    total
}

/// Remove the installed model `name` from `models`: its folder is first renamed to a
/// `.removing-*` work folder (so it stops counting as installed at once), then deleted.
/// Errors: `name` is not a plain folder name, is not installed, or cannot be removed.
pub fn remove(models: &Path, name: &str) -> Result<PathBuf, super::install::ModelError> {
    use super::install::ModelError;
    if name.is_empty() || name.starts_with('.') || name.contains(['/', '\\']) {
        return Err(ModelError::Unknown {
            name: name.to_string(),
            known: registry::names(),
        });
    }
    let path = models.join(name);
    if !is_installed(&path) {
        return Err(ModelError::NotInstalled {
            name: name.to_string(),
            models: models.to_path_buf(),
        });
    }
    let doomed = models.join(format!(".removing-{name}-{}", std::process::id()));
    let io = |e| ModelError::io(&path, e);
    std::fs::rename(&path, &doomed).map_err(io)?;
    std::fs::remove_dir_all(&doomed).map_err(|e| ModelError::io(&doomed, e))?;
    Ok(path)
}
