//! The user folders of skillnav: the one `directories::ProjectDirs` lookup
//! (`ProjectDirs::from("", "", "skillnav")`), so config, data and cache folders are named in
//! one place.

use std::path::PathBuf;

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
