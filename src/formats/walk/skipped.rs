//! What a plain-folder walk leaves out on purpose (docs/FORMATS.md §8): entries matched by
//! `.gitignore`, `.git` folders, unclaimed text files over the size cap, special files;
//! counted by the walker and reported on the root.

use serde_json::Value;

use crate::model::{Corpus, NodeId, Warning};

/// Unclaimed text files larger than this (1 MiB) are listed with their size, not read: a
/// generated lock file or data dump would cost a search index and a token count many times
/// its worth.
pub const UNCLAIMED_TEXT_MAX_BYTES: u64 = 1024 * 1024;

/// What a plain-folder walk left out on purpose, reported on the root (a warning and
/// `meta.skipped`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Entries matched by `.gitignore` rules.
    pub gitignored: usize,
    /// `.git` folders (never entered).
    pub git_dirs: usize,
    /// Unclaimed text files over [`UNCLAIMED_TEXT_MAX_BYTES`], listed unread.
    pub over_size_cap: usize,
    /// Sockets, fifos and devices.
    pub special: usize,
}

impl Skipped {
    /// Whether nothing was left out.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// One line naming each reason with its count, e.g. `left out on purpose: 3 entries
    /// ignored by .gitignore, 1 .git folder`.
    pub fn message(&self) -> String {
        let mut parts = Vec::new();
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        if self.gitignored > 0 {
            parts.push(format!(
                "{} ignored by .gitignore",
                plural(self.gitignored, "entry", "entries")
            ));
        }
        if self.git_dirs > 0 {
            parts.push(format!(
                "{} (never entered)",
                plural(self.git_dirs, ".git folder", ".git folders")
            ));
        }
        if self.over_size_cap > 0 {
            parts.push(format!(
                "{} over {} MiB listed with their size only",
                plural(self.over_size_cap, "text file", "text files"),
                UNCLAIMED_TEXT_MAX_BYTES >> 20
            ));
        }
        if self.special > 0 {
            parts.push(plural(
                self.special,
                "socket, fifo or device",
                "sockets, fifos or devices",
            ));
        }
        format!("left out on purpose: {}", parts.join(", "))
    }

    /// The counts as a JSON object (`gitignored`, `git_dirs`, `over_size_cap`, `special`).
    pub fn to_json(self) -> Value {
        serde_json::json!({
            "gitignored": self.gitignored,
            "git_dirs": self.git_dirs,
            "over_size_cap": self.over_size_cap,
            "special": self.special,
        })
    }
}

/// Note on `root` what the walk left out on purpose: a warning and `meta.skipped` (nothing
/// when nothing was).
pub(crate) fn report_skipped(corpus: &mut Corpus, root: NodeId, skipped: Skipped) {
    if skipped.is_empty() {
        return;
    }
    let n = corpus.node_mut(root);
    n.warnings.push(Warning::new(skipped.message()));
    n.meta.insert("skipped".into(), skipped.to_json());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_message_names_every_reason() {
        let s = Skipped {
            gitignored: 3,
            git_dirs: 1,
            over_size_cap: 2,
            special: 0,
        };
        assert_eq!(
            s.message(),
            "left out on purpose: 3 entries ignored by .gitignore, 1 .git folder (never entered), \
             2 text files over 1 MiB listed with their size only"
        );
    }
}
