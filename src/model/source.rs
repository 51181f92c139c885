//! Source texts: the bytes of every loaded file (or virtual text such as bundle chunks),
//! held once and referenced by [`crate::model::TextSpan`]s.

use std::path::PathBuf;

/// Byte that stands in for each invalid UTF-8 byte in [`Source::text`] (ASCII SUB, 0x1A).
/// Replacing byte-for-byte keeps every offset true; it is drawn as U+FFFD.
pub const INVALID_BYTE_PLACEHOLDER: u8 = 0x1A;

/// A NUL byte within the first this-many bytes (8 KiB) marks a file as binary: the loader
/// leaves such a file unparsed and the frontmatter editor refuses to save into it.
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// The text of one file (or a virtual text), as a same-length UTF-8 copy.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Source {
    /// Absolute path of the file; `None` for virtual texts (bundle chunks).
    pub abs_path: Option<PathBuf>,
    /// Same-length UTF-8 copy of the bytes: each invalid byte is replaced by
    /// [`INVALID_BYTE_PLACEHOLDER`], so byte offsets equal file offsets.
    pub text: String,
    /// Whether any byte had to be replaced.
    pub invalid_utf8: bool,
    /// Size of the file on disk in bytes (may exceed `text.len()` when truncated).
    pub size: u64,
    /// Modification time (seconds since the epoch) when read, for caches.
    pub mtime: u64,
}

impl Source {
    /// Build a source from raw file bytes, replacing invalid UTF-8 byte-for-byte.
    pub fn from_bytes(abs_path: Option<PathBuf>, bytes: Vec<u8>, size: u64, mtime: u64) -> Self {
        let (text, invalid_utf8) = lossless_len_utf8(bytes);
        Self {
            abs_path,
            text,
            invalid_utf8,
            size,
            mtime,
        }
    }

    /// A virtual source (no file) holding `text`.
    pub fn virtual_text(text: String) -> Self {
        let size = text.len() as u64;
        Self {
            abs_path: None,
            text,
            invalid_utf8: false,
            size,
            mtime: 0,
        }
    }
}

/// Convert bytes to a `String` of the same length: every byte of an invalid UTF-8 sequence
/// becomes [`INVALID_BYTE_PLACEHOLDER`]. Returns the text and whether anything was replaced.
pub fn lossless_len_utf8(bytes: Vec<u8>) -> (String, bool) {
    match String::from_utf8(bytes) {
        Ok(s) => (s, false),
        Err(e) => {
            let mut bytes = e.into_bytes();
            let mut i = 0;
            while i < bytes.len() {
                match std::str::from_utf8(&bytes[i..]) {
                    Ok(_) => break,
                    Err(err) => {
                        let bad_at = i + err.valid_up_to();
                        let bad_len = err.error_len().unwrap_or(bytes.len() - bad_at);
                        for b in &mut bytes[bad_at..bad_at + bad_len] {
                            *b = INVALID_BYTE_PLACEHOLDER;
                        }
                        i = bad_at + bad_len;
                    }
                }
            }
            // Every invalid sequence was overwritten with ASCII, so this cannot fail; fall
            // back to a lossy copy rather than panic if it somehow did.
            let text = String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            (text, true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_bytes_keep_offsets() {
        let (s, bad) = lossless_len_utf8(b"ab\xffcd\xe2\x82x".to_vec());
        assert!(bad);
        assert_eq!(s.len(), 8);
        assert_eq!(s.as_bytes(), b"ab\x1acd\x1a\x1ax");
    }

    #[test]
    fn valid_utf8_untouched() {
        let (s, bad) = lossless_len_utf8("héllo 中文".as_bytes().to_vec());
        assert!(!bad);
        assert_eq!(s, "héllo 中文");
    }
}
