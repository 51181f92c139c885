//! The bytes of a folder's `README.md`, read at most once per folder: several detectors
//! look at it (git-adr notes, doc trees) and the walker, which lists the file like any
//! other, is handed the same bytes instead of reading it again.

use std::path::Path;

/// The bytes of a folder's `README.md`, read at most once while detecting (the git-adr and
/// doc-tree rules both look at it) and handed on to the walker, which would read it again.
#[derive(Debug, Default)]
pub(crate) struct Readme {
    read: bool,
    bytes: Option<Vec<u8>>,
}

impl Readme {
    /// The bytes of `dir/README.md` (read on first use); `None` when it cannot be read.
    pub fn get(&mut self, dir: &Path) -> Option<&[u8]> {
        if !self.read {
            self.read = true;
            self.bytes = std::fs::read(dir.join("README.md")).ok();
        }
        self.bytes.as_deref()
    }

    /// The bytes, if they were read.
    pub fn take(self) -> Option<Vec<u8>> {
        self.bytes
    }
}
