//! Atomic, checked installs of a model (docs/DESIGN.md §3 "Re-rank"): the files are written
//! into a work folder `.partial-<name>-<pid>-<n>` beside the installed models, each checked
//! against its pinned size and SHA-256 ([`super::registry`]) as it is written, then the
//! manifest is written and the folder renamed into place (an older install of the same
//! model is swapped out the same way). Any failure removes the work folder, so a model is
//! either wholly installed or not at all.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

use super::registry::{ModelFile, ModelSpec};
use crate::remote::error::RemoteError;

/// The file an install writes last into a model folder: JSON naming the model, the hub
/// commit, where the files came from and each file's SHA-256. A folder is installed when
/// it holds this file.
pub const MANIFEST: &str = "skillnav-model.json";

/// Why a model could not be installed, listed or removed. Every case names the file or
/// folder and what a user can do.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The name is not in the registry.
    #[error("unknown model {name:?}; known models: {known}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The registry's names.
        known: String,
    },
    /// `remove` of a model that is not installed.
    #[error("model {name:?} is not installed in {}", models.display())]
    NotInstalled {
        /// The name asked for.
        name: String,
        /// The models folder looked in.
        models: PathBuf,
    },
    /// The platform has no home folder and `SKILLNAV_MODELS_DIR` is not set.
    #[error("no models folder: set SKILLNAV_MODELS_DIR")]
    NoModelsDir,
    /// A file's SHA-256 is not the pinned one.
    #[error(
        "{file}: wrong checksum: sha256 {got}, pinned {want} (a corrupt or different file; nothing was installed)"
    )]
    Checksum {
        /// The model file (its path in the model folder).
        file: String,
        /// The digest of what was read.
        got: String,
        /// The pinned digest.
        want: String,
    },
    /// A file ended before its pinned size.
    #[error("{file}: truncated: {got} of {want} bytes{reason} (nothing was installed)")]
    Truncated {
        /// The model file.
        file: String,
        /// Bytes read.
        got: u64,
        /// The pinned size in bytes.
        want: u64,
        /// `: <read error>` when reading failed, else empty.
        reason: String,
    },
    /// A file is longer than its pinned size.
    #[error("{file}: more than the pinned {want} bytes (a different file; nothing was installed)")]
    TooLong {
        /// The model file.
        file: String,
        /// The pinned size in bytes.
        want: u64,
    },
    /// The source given to `--from` lacks a file the model needs.
    #[error("{}: no {file} in it (a model folder holds {all})", from.display())]
    Missing {
        /// The folder, wheel or archive given.
        from: PathBuf,
        /// The missing model file.
        file: String,
        /// Every file the model needs, comma-separated.
        all: String,
    },
    /// The source given to `--from` cannot be read as a model.
    #[error("{}: {reason}", from.display())]
    BadSource {
        /// The path given.
        from: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A download failed before its body (404, a status, the network).
    #[error("download failed: {0}")]
    Download(#[from] RemoteError),
    /// A file or folder could not be written or read (unwritable folder, full disk).
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl ModelError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Where an install stands, for a progress bar: bytes written of all the model's files so
/// far and in total, and the file being written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress<'a> {
    /// The model file being written.
    pub file: &'a str,
    /// Bytes written of every file so far.
    pub done: u64,
    /// Pinned bytes of every file ([`ModelSpec::total_bytes`]).
    pub total: u64,
}

/// A model folder being built: removed on drop unless [`Staging::commit`] ran.
#[derive(Debug)]
pub struct Staging {
    spec: &'static ModelSpec,
    models: PathBuf,
    dir: PathBuf,
    done: u64,
    committed: bool,
}

impl Staging {
    /// A new, empty work folder for `spec` under `models` (created when missing).
    /// Errors: [`ModelError::Io`] when either cannot be created.
    pub fn new(models: &Path, spec: &'static ModelSpec) -> Result<Self, ModelError> {
        static SEQ: AtomicUsize = AtomicUsize::new(0);
        std::fs::create_dir_all(models).map_err(|e| ModelError::io(models, e))?;
        let n = SEQ.fetch_add(1, Ordering::Relaxed);
        let dir = models.join(format!(".partial-{}-{}-{n}", spec.name, std::process::id()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|e| ModelError::io(&dir, e))?;
        }
        std::fs::create_dir(&dir).map_err(|e| ModelError::io(&dir, e))?;
        Ok(Self {
            spec,
            models: models.to_path_buf(),
            dir,
            done: 0,
            committed: false,
        })
    }

    /// The work folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Copy `file` from `src` into the work folder, checking its pinned size and SHA-256
    /// while writing; `progress` hears about every block. Errors: [`ModelError::Truncated`],
    /// [`ModelError::TooLong`], [`ModelError::Checksum`], [`ModelError::Io`] on a write.
    pub fn write_file(
        &mut self,
        file: &ModelFile,
        src: &mut dyn Read,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(), ModelError> {
        let path = self.dir.join(file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| ModelError::io(parent, e))?;
        }
        let mut out = std::fs::File::create(&path).map_err(|e| ModelError::io(&path, e))?;
        let mut hash = Sha256::new();
        let mut got = 0u64;
        let mut buf = vec![0u8; 256 * 1024];
        let truncated = |got, reason: String| ModelError::Truncated {
            file: file.path.to_string(),
            got,
            want: file.bytes,
            reason,
        };
        loop {
            let n = match src.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(truncated(got, format!(": {e}"))),
            };
            got += n as u64;
            if got > file.bytes {
                return Err(ModelError::TooLong {
                    file: file.path.to_string(),
                    want: file.bytes,
                });
            }
            hash.update(&buf[..n]);
            out.write_all(&buf[..n])
                .map_err(|e| ModelError::io(&path, e))?;
            progress(Progress {
                file: file.path,
                done: self.done + got,
                total: self.spec.total_bytes(),
            });
        }
        if got < file.bytes {
            return Err(truncated(got, String::new()));
        }
        let digest = hex(&hash.finalize());
        if digest != file.sha256 {
            return Err(ModelError::Checksum {
                file: file.path.to_string(),
                got: digest,
                want: file.sha256.to_string(),
            });
        }
        out.sync_all().map_err(|e| ModelError::io(&path, e))?;
        self.done += got;
        Ok(())
    }

    /// Write the manifest (`source` says where the files came from) and move the folder
    /// into place as `<models>/<name>`, replacing an older install; returns that path.
    /// Errors: [`ModelError::Io`]; a file of the model not written yet is
    /// [`ModelError::Missing`].
    pub fn commit(mut self, source: &str) -> Result<PathBuf, ModelError> {
        for f in self.spec.files {
            if !self.dir.join(f.path).is_file() {
                return Err(ModelError::Missing {
                    from: PathBuf::from(source),
                    file: f.path.to_string(),
                    all: files_list(self.spec),
                });
            }
        }
        let manifest = serde_json::json!({
            "name": self.spec.name,
            "repo": self.spec.repo,
            "revision": self.spec.revision,
            "licence": self.spec.licence,
            "source": source,
            "files": self.spec.files.iter().map(|f| serde_json::json!({"path": f.path, "bytes": f.bytes, "sha256": f.sha256})).collect::<Vec<_>>(),
        });
        let path = self.dir.join(MANIFEST);
        let text = serde_json::to_string_pretty(&manifest).unwrap_or_default() + "\n";
        std::fs::write(&path, text).map_err(|e| ModelError::io(&path, e))?;
        let target = self.models.join(self.spec.name);
        let old = self.models.join(format!(
            ".removing-{}-{}",
            self.spec.name,
            std::process::id()
        ));
        let had_old = target.exists();
        if had_old {
            std::fs::rename(&target, &old).map_err(|e| ModelError::io(&target, e))?;
        }
        if let Err(e) = std::fs::rename(&self.dir, &target) {
            if had_old {
                let _ = std::fs::rename(&old, &target);
            }
            return Err(ModelError::io(&target, e));
        }
        self.committed = true;
        if had_old {
            let _ = std::fs::remove_dir_all(&old);
        }
        Ok(target)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The model's file paths, comma-separated.
pub fn files_list(spec: &ModelSpec) -> String {
    spec.files
        .iter()
        .map(|f| f.path)
        .collect::<Vec<_>>()
        .join(", ")
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The registry entry `name` (the default model when `None`). Errors:
/// [`ModelError::Unknown`].
pub fn spec(name: Option<&str>) -> Result<&'static ModelSpec, ModelError> {
    let name = name.unwrap_or(super::registry::DEFAULT_MODEL);
    super::registry::find(name).ok_or_else(|| ModelError::Unknown {
        name: name.to_string(),
        known: super::registry::names(),
    })
}
