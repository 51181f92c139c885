//! Typed errors of the core, each carrying the path (and line, when known) it concerns.

use std::path::PathBuf;

/// Errors the core reports to callers. Load problems inside a corpus are *not* errors:
/// they become [`crate::model::Warning`]s on nodes.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An I/O failure on `path`.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Malformed input at `path` (and `line`, 1-based, when known).
    #[error("{path}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: Option<u32>,
        /// What is wrong.
        message: String,
    },
    /// A request the caller can fix (unknown id, bad option value).
    #[error("{0}")]
    Usage(String),
    /// A write refused to protect data (changed on disk, read-only, would overwrite).
    #[error("{0}")]
    Refused(String),
}

/// Result alias for the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wrap an I/O error with its path.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}
