//! The user folders of skillnav: the one `directories::ProjectDirs` lookup
//! (`ProjectDirs::from("", "", "skillnav")`), so config, data and cache folders are named in
//! one place, and the one way a cache file is replaced.

use std::io::Write;
use std::path::{Path, PathBuf};

fn project() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "skillnav")
}

/// The user config folder: `$SKILLNAV_CONFIG_DIR` when set and non-empty, else the platform
/// config dir (`~/.config/skillnav` on Linux); `None` when the platform has no home dir.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("SKILLNAV_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    project().map(|p| p.config_dir().to_path_buf())
}

/// The platform data dir (`~/.local/share/skillnav` on Linux): saved clipboards, and
/// recipes under `recipes/`; `None` when the platform has no home dir.
pub fn data_dir() -> Option<PathBuf> {
    project().map(|p| p.data_dir().to_path_buf())
}

/// The platform cache dir (`~/.cache/skillnav` on Linux, `$XDG_CACHE_HOME` honoured);
/// `None` when the platform has no home dir.
pub fn cache_dir() -> Option<PathBuf> {
    project().map(|p| p.cache_dir().to_path_buf())
}

/// Replace the cache file `path` in folder `dir` with `bytes`, atomically: the bytes go to a
/// temporary file in `dir` (created when missing), synced, then renamed over `path`, so a
/// reader sees the old file or the new one, never a torn one. Errors (folder not writable,
/// disk full) leave the old file as it was.
pub fn replace_cache_file(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
