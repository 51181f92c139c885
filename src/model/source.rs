//! Source texts: the bytes of every loaded file (or virtual text such as bundle chunks),
//! held once and referenced by [`crate::model::TextSpan`]s. A source restored from a
//! persisted index keeps its text in that file ([`StoredText`]) until it is first read
//! (docs/DESIGN.md §8 "Persisted index"); a source [`Source::spill`]ed after a load keeps
//! it in its own file, read again (and checked) when needed.

use std::fs::File;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Byte that stands in for each invalid UTF-8 byte in [`Source::text`] (ASCII SUB, 0x1A).
/// Replacing byte-for-byte keeps every offset true; it is drawn as U+FFFD.
pub const INVALID_BYTE_PLACEHOLDER: u8 = 0x1A;

/// A text longer than this many bytes (1 MiB) is never let go ([`Source::spill`]): each pass
/// that reads it again (indexing on two threads, counting, summaries) would hold a copy of
/// it for a while, and several such copies at once outweigh the one kept (docs/DESIGN.md §8
/// "Memory").
pub const SPILL_MAX_BYTES: usize = 1 << 20;

/// A NUL byte within the first this-many bytes (8 KiB) marks a file as binary: the loader
/// leaves such a file unparsed and the frontmatter editor refuses to save into it.
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// The text of one file (or a virtual text), as a same-length UTF-8 copy.
#[derive(Clone, Debug)]
pub struct Source {
    /// Absolute path of the file; `None` for virtual texts (bundle chunks).
    pub abs_path: Option<PathBuf>,
    /// The text once held ([`Source::text`]).
    held: OnceLock<String>,
    /// Where the text lies when it is not held (yet).
    stored: Option<Kept>,
    /// Whether any byte had to be replaced.
    pub invalid_utf8: bool,
    /// Size of the file on disk in bytes (may exceed the text's length when truncated).
    pub size: u64,
    /// Modification time (seconds since the epoch) when read, for caches.
    pub mtime: u64,
}

/// Where a text that is not held is kept.
#[derive(Clone, Debug)]
enum Kept {
    /// In a persisted index file.
    Index(StoredText),
    /// In the source's own file (`abs_path`): its first `len` bytes, whose same-length
    /// UTF-8 text has CRC-32 `crc`.
    Own { len: u64, crc: u32 },
}

impl Kept {
    /// `(length in bytes, CRC-32)` of the kept text.
    fn len_crc(&self) -> (u64, u32) {
        match self {
            Self::Index(s) => (s.len, s.crc),
            Self::Own { len, crc } => (*len, *crc),
        }
    }
}

/// A text kept in an open file: `len` bytes at `offset`, whose CRC-32 is `crc`.
#[derive(Clone, Debug)]
pub struct StoredText {
    /// The file (shared by every text in it; read at offsets, from any thread). Held open,
    /// so a file renamed over it later does not change what is read.
    pub file: Arc<File>,
    /// Offset of the first byte.
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
    /// CRC-32 of the bytes.
    pub crc: u32,
}

impl StoredText {
    /// The bytes, checked. Errors: a read error, or bytes whose CRC-32 or UTF-8 is wrong.
    fn read(&self) -> std::io::Result<String> {
        let len = usize::try_from(self.len).map_err(std::io::Error::other)?;
        let mut bytes = vec![0u8; len];
        read_at(&self.file, &mut bytes, self.offset)?;
        if crc32fast::hash(&bytes) != self.crc {
            return Err(std::io::Error::other("checksum mismatch"));
        }
        String::from_utf8(bytes).map_err(std::io::Error::other)
    }
}

/// Fill `buf` from `f` at `offset` without moving a shared cursor (threads may read one
/// handle at once). Errors: a read error, or the file ending first.
#[cfg(unix)]
pub fn read_at(f: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, offset)
}

/// Fill `buf` from `f` at `offset` (`seek_read` may return fewer bytes: loop).
#[cfg(windows)]
pub fn read_at(f: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        let n = f.seek_read(buf, offset)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf = &mut buf[n..];
        offset += n as u64;
    }
    Ok(())
}

/// A file whose size and modification time match the loaded ones is also compared byte
/// for byte when it was modified this recently: a time kept in whole seconds does not tell
/// two writes within one second apart.
pub const RECENT_WRITE: std::time::Duration = std::time::Duration::from_secs(3);

impl Source {
    /// Whether the file at `path` is still this source as it was loaded: the same size and
    /// modification second, and, when modified within [`RECENT_WRITE`], the same bytes. A
    /// file that cannot be read is not.
    pub fn unchanged_on_disk(&self, path: &std::path::Path) -> bool {
        use std::time::{SystemTime, UNIX_EPOCH};
        let Ok(m) = std::fs::metadata(path) else {
            return false;
        };
        let modified = m.modified().unwrap_or(UNIX_EPOCH);
        let mtime = modified
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        if m.len() != self.size || mtime != self.mtime {
            return false;
        }
        let recent = SystemTime::now()
            .duration_since(modified)
            .is_ok_and(|age| age < RECENT_WRITE);
        !recent
            || (!self.invalid_utf8
                && std::fs::read(path).is_ok_and(|b| b == self.text().as_bytes()))
    }

    /// Build a source from raw file bytes, replacing invalid UTF-8 byte-for-byte.
    pub fn from_bytes(abs_path: Option<PathBuf>, bytes: Vec<u8>, size: u64, mtime: u64) -> Self {
        let (text, invalid_utf8) = lossless_len_utf8(bytes);
        Self {
            abs_path,
            held: OnceLock::from(text),
            stored: None,
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
            held: OnceLock::from(text),
            stored: None,
            invalid_utf8: false,
            size,
            mtime: 0,
        }
    }

    /// A source whose text stays in `stored` until first read (a persisted index's).
    pub fn stored(
        abs_path: Option<PathBuf>,
        stored: StoredText,
        invalid_utf8: bool,
        size: u64,
        mtime: u64,
    ) -> Self {
        Self {
            abs_path,
            held: OnceLock::new(),
            stored: Some(Kept::Index(stored)),
            invalid_utf8,
            size,
            mtime,
        }
    }

    /// The text: same-length UTF-8 of the bytes, each invalid byte replaced by
    /// [`INVALID_BYTE_PLACEHOLDER`], so byte offsets equal file offsets. A text that is not
    /// held is read on first use and held from then on: a stored text from its index file
    /// (if that read fails, the index file damaged since, the source's own file is read
    /// instead); a spilled one from its own file. A text that can no longer be read as it
    /// was loaded (its CRC-32 differs: the file was edited since) is empty, and is not held:
    /// a later call reads again.
    pub fn text(&self) -> &str {
        if let Some(t) = self.held.get() {
            return t;
        }
        match self.read_kept() {
            Some(t) => self.held.get_or_init(|| t),
            None => "",
        }
    }

    /// The text as a new `String`, without holding it (a text that is not held is read
    /// again, as [`Source::text`] reads it; empty when it can no longer be).
    pub fn read_text(&self) -> String {
        if let Some(t) = self.held.get() {
            return t.clone();
        }
        self.read_kept().unwrap_or_default()
    }

    /// The text that is not held, read from where it is kept; `None` when no copy holds
    /// the text as it was loaded.
    fn read_kept(&self) -> Option<String> {
        match &self.stored {
            None => Some(String::new()),
            Some(Kept::Index(stored)) => stored.read().ok().or_else(|| {
                Some(self.reread_file()).filter(|t| {
                    t.len() as u64 == stored.len && crc32fast::hash(t.as_bytes()) == stored.crc
                })
            }),
            Some(Kept::Own { len, crc }) => self.reread_own(*len, *crc),
        }
    }

    /// The first `len` bytes of the file at `abs_path` (the loader's cap may have cut a
    /// larger file) as a same-length UTF-8 text, when that text has CRC-32 `crc`: the text
    /// as it was loaded, whatever happened to the file's times since (a `touch`, an editor
    /// saving the same bytes) or after those bytes. `None` otherwise, or when the path is
    /// no longer a regular file (it is never opened then: a FIFO would block).
    fn reread_own(&self, len: u64, crc: u32) -> Option<String> {
        use std::io::Read;
        let path = self.abs_path.as_ref()?;
        let (file, _) = crate::util::regular_file::open_regular(path, None).ok()?;
        let mut bytes = Vec::with_capacity(usize::try_from(len).ok()?);
        file.take(len).read_to_end(&mut bytes).ok()?;
        if bytes.len() as u64 != len {
            return None;
        }
        let text = lossless_len_utf8(bytes).0;
        (crc32fast::hash(text.as_bytes()) == crc).then_some(text)
    }

    /// Call `f` with the text, borrowed when it is held, else read for this call only and
    /// let go again (as [`Source::read_text`] reads it): for passes over every source
    /// (indexing, saving) that must not make every text held.
    pub fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        match self.held.get() {
            Some(t) => f(t),
            None => f(&self.read_text()),
        }
    }

    /// The file at `abs_path` as a same-length UTF-8 text (its first `text_len()` bytes, as
    /// the loader capped it), when it still has the recorded size and modification second;
    /// else empty.
    fn reread_file(&self) -> String {
        let Some(path) = &self.abs_path else {
            return String::new();
        };
        let unchanged = std::fs::metadata(path).is_ok_and(|m| {
            let secs = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_secs());
            m.is_file() && m.len() == self.size && secs == Some(self.mtime)
        });
        let bytes = std::fs::read(path).ok().filter(|_| unchanged);
        match bytes {
            Some(mut b) if b.len() as u64 == self.size => {
                b.truncate(self.text_len());
                lossless_len_utf8(b).0
            }
            _ => String::new(),
        }
    }

    /// Length of the text in bytes, without reading one that is not held.
    pub fn text_len(&self) -> usize {
        match (self.held.get(), &self.stored) {
            (Some(t), _) => t.len(),
            (None, Some(k)) => usize::try_from(k.len_crc().0).unwrap_or(usize::MAX),
            (None, None) => 0,
        }
    }

    /// `(length in bytes, CRC-32)` of the text, without reading one that is not held.
    pub fn len_crc(&self) -> (u64, u32) {
        match (self.held.get(), &self.stored) {
            (Some(t), _) => (t.len() as u64, crc32fast::hash(t.as_bytes())),
            (None, Some(k)) => k.len_crc(),
            (None, None) => (0, crc32fast::hash(b"")),
        }
    }

    /// Let a held text of a file go: from now on it is read from the file again when
    /// needed ([`Source::text`]), checked by its length and CRC-32. Returns whether it was
    /// let go (not for a virtual text, which has no file, a text over [`SPILL_MAX_BYTES`],
    /// nor a text that is not held).
    pub fn spill(&mut self) -> bool {
        if self.abs_path.is_none() || self.held.get().is_some_and(|t| t.len() > SPILL_MAX_BYTES) {
            return false;
        }
        let Some(text) = self.held.take() else {
            return false;
        };
        self.stored = Some(Kept::Own {
            len: text.len() as u64,
            crc: crc32fast::hash(text.as_bytes()),
        });
        true
    }

    /// Whether the text is in memory (not left in a persisted index file).
    pub fn is_held(&self) -> bool {
        self.held.get().is_some()
    }

    /// Replace the text with `text`.
    pub fn set_text(&mut self, text: String) {
        self.held = OnceLock::from(text);
        self.stored = None;
    }

    /// Keep this source's text in its own file, as [`Source::spill`] does, for a text of
    /// `len` bytes and CRC-32 `crc` that was let go before it came back to the source (the
    /// loader's sectioning threads spill the texts they scan). Nothing changes for a
    /// virtual text.
    pub fn set_spilled(&mut self, len: u64, crc: u32) {
        if self.abs_path.is_some() {
            self.held = OnceLock::new();
            self.stored = Some(Kept::Own { len, crc });
        }
    }

    /// Let this source's text go and read it from `written`'s stored text from now on:
    /// `written` is the same source as read back from a persisted index file just written
    /// (docs/DESIGN.md §8 "Persisted index"). Nothing changes, and `false` is returned,
    /// unless `written` has a stored text with this source's path, length and CRC-32 (a
    /// file another process renamed over ours may hold other texts).
    pub fn hand_over(&mut self, written: Source) -> bool {
        let Some(Kept::Index(stored)) = written.stored else {
            return false;
        };
        let (len, crc) = self.len_crc();
        let same = written.abs_path == self.abs_path && stored.len == len && stored.crc == crc;
        if same {
            self.held = OnceLock::new();
            self.stored = Some(Kept::Index(stored));
        }
        same
    }

    /// Take the text out (reading a stored one), leaving an empty one.
    pub fn take_text(&mut self) -> String {
        let text = match self.held.take() {
            Some(t) => t,
            None => self.read_text(),
        };
        self.set_text(String::new());
        text
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
    fn a_same_size_edit_within_the_same_second_is_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let src = loaded(dir.path(), "a.md", b"# A\n\nmarker 001\n");
        let path = src.abs_path.clone().unwrap();
        assert!(src.unchanged_on_disk(&path));
        // Same length; the time may well stay in the same second: the bytes tell.
        std::fs::write(&path, "# A\n\nmarker 002\n").unwrap();
        assert!(!src.unchanged_on_disk(&path));
        std::fs::remove_file(&path).unwrap();
        assert!(!src.unchanged_on_disk(&path));
    }

    use crate::model::testing::file_source as loaded;

    #[test]
    fn a_spilled_text_is_read_again_from_its_file_and_only_while_the_file_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut src = loaded(dir.path(), "a.md", b"# A\n\nab\xffcd\n");
        let text = src.text().to_string();
        assert!(src.spill());
        assert!(!src.is_held());
        assert!(!src.spill(), "nothing held to let go");
        assert_eq!(src.text_len(), text.len());
        assert_eq!(src.read_text(), text, "invalid bytes replaced as at load");
        assert!(!src.is_held(), "read_text does not hold it");
        src.with_text(|t| assert_eq!(t, text));
        assert!(!src.is_held());
        // A touch, or an editor saving the same bytes, changes the times, not the text.
        let path = src.abs_path.clone().unwrap();
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        let f = std::fs::File::options().write(true).open(&path).unwrap();
        f.set_modified(later).unwrap();
        assert_eq!(src.read_text(), text, "a touched file still holds the text");
        // An edit that keeps the loaded bytes first (an append) still holds it too.
        let mut appended = std::fs::read(&path).unwrap();
        appended.extend_from_slice(b"\nmore\n");
        std::fs::write(&path, &appended).unwrap();
        assert_eq!(src.read_text(), text);
        std::fs::write(&path, b"# A\n\nAB\xffcd\n").unwrap();
        assert_eq!(src.text(), "", "an edited text is not the loaded one");
        assert!(!src.is_held(), "and is not held: a later call reads again");
        std::fs::write(&path, b"# A\n\nab\xffcd\n").unwrap();
        assert_eq!(src.text(), text, "the loaded bytes are back");
        // Another text of the same size and modification second: the CRC-32 tells.
        let mut same_size = loaded(dir.path(), "b.md", b"# B\n\nalpha\n");
        same_size.spill();
        let path = same_size.abs_path.clone().unwrap();
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::fs::write(&path, b"# B\n\nALPHA\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        assert_eq!(
            same_size.read_text(),
            "",
            "never a text its spans do not fit"
        );
        let big = vec![b'x'; SPILL_MAX_BYTES + 1];
        let mut big = loaded(dir.path(), "big.md", &big);
        assert!(!big.spill(), "a text over SPILL_MAX_BYTES stays held");
        let mut virtual_text = Source::virtual_text("chunk".into());
        assert!(
            !virtual_text.spill(),
            "a virtual text has no file to read again"
        );
        assert_eq!(virtual_text.text(), "chunk");
    }

    #[test]
    fn a_text_spilled_by_the_sectioning_threads_reads_as_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut src = loaded(dir.path(), "a.md", b"# A\n\nalpha\n");
        let text = src.take_text();
        src.set_spilled(text.len() as u64, crc32fast::hash(text.as_bytes()));
        assert_eq!(src.len_crc(), (11, crc32fast::hash(b"# A\n\nalpha\n")));
        assert_eq!(src.text(), "# A\n\nalpha\n");
        assert!(src.is_held(), "text() holds what it read");
    }

    /// A stored text of `text` in a new file: the source as a persisted index reads it back.
    fn written(path: Option<PathBuf>, text: &str) -> (tempfile::NamedTempFile, Source) {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
        let stored = StoredText {
            file: Arc::new(f.reopen().unwrap()),
            offset: 0,
            len: text.len() as u64,
            crc: crc32fast::hash(text.as_bytes()),
        };
        let size = text.len() as u64;
        (f, Source::stored(path, stored, false, size, 0))
    }

    #[test]
    fn a_text_is_handed_over_only_to_the_same_bytes_of_the_same_file() {
        let p = Some(PathBuf::from("/docs/a.md"));
        let mut held = Source::from_bytes(p.clone(), b"# A\n\nalpha\n".to_vec(), 11, 1);
        let (_f1, other_bytes) = written(p.clone(), "# A\n\nalphA\n");
        assert!(!held.hand_over(other_bytes), "same length, other bytes");
        let (_f2, other_path) = written(Some(PathBuf::from("/docs/b.md")), "# A\n\nalpha\n");
        assert!(!held.hand_over(other_path));
        assert!(held.is_held());
        let (_f3, same) = written(p, "# A\n\nalpha\n");
        assert!(held.hand_over(same));
        assert!(!held.is_held());
        assert_eq!(held.text(), "# A\n\nalpha\n");
    }

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
