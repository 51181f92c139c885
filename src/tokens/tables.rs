//! The count-only BPE tables of one encoding: `bpe`'s backtracking counter over the
//! tiktoken pre-tokenizer (`pretokenize`), loaded from tables embedded at build time
//! (`build/bpe_tables.rs` writes them from `bpe-openai`'s dictionary).
//!
//! Counting reads only part of a `BytePairEncoding`: token ends, the split table, the pair
//! lookup, the next-prefix table and the leftmost-longest automaton. The embedded tables hold
//! just those (about 13 MB for `o200k_base` instead of 32 MB) in a little-endian layout read
//! straight into `bpe`'s decoder (`decode`; from the executable file: `exe`); the token
//! bytes, the bytes → token hash and the two overlapping automata (used by other encoders,
//! never by counting) are left empty. The result is therefore only ever asked to count. Counts equal tiktoken's (pinned by the
//! parity tests over real files, both encodings).
//!
//! A worker's [`Session`] holds its search cache and a memo of piece counts (words repeat: a
//! piece is BPE-counted once per batch).

mod decode;
mod exe;

use std::sync::Arc;

use regex_automata::meta::Cache;
use rustc_hash::FxHashMap;

use bpe::byte_pair_encoding::BytePairEncoding;

use super::Encoding;
use super::pretokenize::Pre;
use exe::ExeTables;

/// Pieces up to this many bytes go through the memo (99.5% of the pieces of a large docs
/// tree); longer ones are counted directly.
const MEMO_PIECE: usize = 15;

/// Distinct pieces a memo holds before it starts over (bounds its memory, ~8 MB).
const MEMO_CAP: usize = 1 << 18;

static O200K: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.bpe"));
static CL100K: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.bpe"));

/// The tables of one BPE encoding: counting only.
pub struct Tables {
    bpe: BytePairEncoding,
    pre: Arc<Pre>,
}

/// Per-worker counting state: a search cache and the memo of short pieces' counts.
pub struct Session {
    cache: Cache,
    memo: FxHashMap<u128, u32>,
}

impl Tables {
    /// Load the tables of `encoding`, with the pre-tokenizer `pre` gives (called on a second
    /// thread while the tables are decoded, as compiling it takes a while). `None` for
    /// `bytes4`, when the embedded tables do not read back or `pre` gives none: the callers
    /// then count with `bpe-openai`'s own tables.
    pub fn load(encoding: Encoding, pre: impl FnOnce() -> Option<Arc<Pre>> + Send) -> Option<Self> {
        let bytes = match encoding {
            Encoding::O200kBase => O200K,
            Encoding::Cl100kBase => CL100K,
            Encoding::Bytes4 => return None,
        };
        std::thread::scope(|s| {
            let pre = s.spawn(pre);
            // Read through the executable file rather than its mapping where possible: the
            // mapped pages would stay resident for the rest of the process.
            let bpe = ExeTables::open(bytes)
                .and_then(|exe| decode::decode(&exe))
                .or_else(|| decode::decode(&bytes));
            let pre = pre.join().ok().flatten()?;
            Some(Self { bpe: bpe?, pre })
        })
    }

    /// A fresh per-worker state.
    pub fn session(&self) -> Session {
        Session {
            cache: self.pre.cache(),
            memo: FxHashMap::default(),
        }
    }

    /// Tokens of `text` (ordinary encoding), with the regex's shared cache and no memo.
    pub fn count(&self, text: &str) -> u64 {
        let mut n = 0u64;
        self.pre.split(text, |piece| {
            n += self.bpe.count(piece.as_bytes()) as u64;
        });
        n
    }

    /// Tokens of one pre-tokenizer piece (a piece of [`Pre::split`]; a longer text would be
    /// counted as if it were one piece, which is not its count).
    pub fn piece(&self, piece: &str) -> u64 {
        self.bpe.count(piece.as_bytes()) as u64
    }

    /// Tokens of `text` with `session`'s cache and memo (the same number as [`Tables::count`]).
    pub fn count_in(&self, session: &mut Session, text: &str) -> u64 {
        let Session { cache, memo } = session;
        let mut n = 0u64;
        self.pre.split_in(cache, text, |piece| {
            let Some(key) = memo_key(piece.as_bytes()) else {
                n += self.bpe.count(piece.as_bytes()) as u64;
                return;
            };
            if let Some(c) = memo.get(&key) {
                n += u64::from(*c);
                return;
            }
            let c = self.bpe.count(piece.as_bytes());
            if memo.len() >= MEMO_CAP {
                memo.clear();
            }
            memo.insert(key, u32::try_from(c).unwrap_or(u32::MAX));
            n += c as u64;
        });
        n
    }
}

/// The memo key of a piece of at most [`MEMO_PIECE`] bytes: its bytes little-endian with the
/// length in the top byte, so two pieces share a key only when they are equal.
fn memo_key(piece: &[u8]) -> Option<u128> {
    if piece.len() > MEMO_PIECE {
        return None;
    }
    let mut b = [0u8; 16];
    b[..piece.len()].copy_from_slice(piece);
    b[15] = piece.len() as u8;
    Some(u128::from_le_bytes(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_tables_load_and_count_like_bpe_openai() {
        for (encoding, reference) in [
            (Encoding::O200kBase, bpe_openai::o200k_base()),
            (Encoding::Cl100kBase, bpe_openai::cl100k_base()),
        ] {
            let pre = || Pre::new(encoding).map(Arc::new);
            let t = Tables::load(encoding, pre).unwrap();
            let piece = "Hello";
            assert_eq!(t.piece(piece), reference.count(piece) as u64);
            let text = "Hello, world!  It's 2024: naïve café — 渐进式披露 \r\n\n   x";
            let expect = reference.count(text) as u64;
            assert_eq!(t.count(text), expect, "{encoding}");
            let mut s = t.session();
            assert_eq!(t.count_in(&mut s, text), expect, "{encoding}");
            // Memo hits give the same number again.
            assert_eq!(t.count_in(&mut s, text), expect, "{encoding}");
        }
        assert!(Tables::load(Encoding::Bytes4, || None).is_none());
        // No pre-tokenizer, no tables.
        assert!(Tables::load(Encoding::Cl100kBase, || None).is_none());
    }

    #[test]
    fn memo_keys_tell_every_short_piece_apart() {
        // A trailing NUL or a shorter prefix must not share a key.
        let pieces: [&[u8]; 6] = [b"", b"\0", b"a", b"a\0", b"ab", b"abcdefghijklmno"];
        let keys: Vec<u128> = pieces.iter().map(|p| memo_key(p).unwrap()).collect();
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(memo_key(b"abcdefghijklmnop"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_tables_read_from_the_executable_equal_the_embedded_ones() {
        use decode::TableSource;
        use std::io::Read;
        for bytes in [O200K, CL100K] {
            let exe = ExeTables::open(bytes).unwrap();
            let copy = exe.read(0..bytes.len()).unwrap();
            assert_eq!(copy.len(), bytes.len());
            assert!(copy == bytes);
            // A reader of a range gives that range's bytes.
            let mut streamed = Vec::new();
            exe.reader(100..70_000)
                .unwrap()
                .read_to_end(&mut streamed)
                .unwrap();
            assert!(streamed == bytes[100..70_000]);
            assert!(exe.read(0..bytes.len() + 1).is_none());
            // Streamed from the file, they decode to the same tables as the embedded bytes.
            let read = decode::decode(&exe).unwrap();
            let direct = decode::decode(&bytes).unwrap();
            assert_eq!(read.num_tokens(), direct.num_tokens());
            let text = "Read table by table: naïve café — 渐进式披露 \r\n\n   x  tokens";
            assert_eq!(read.count(text.as_bytes()), direct.count(text.as_bytes()));
        }
    }

    /// The embedded `o200k_base` tables, whole ranges readable only up to `.0` and readers
    /// giving out at `.1`.
    struct Failing(usize, usize);

    impl decode::TableSource for Failing {
        type Reader<'s> = &'s [u8];
        fn len(&self) -> usize {
            O200K.len()
        }
        fn bytes(&self, r: std::ops::Range<usize>) -> Option<std::borrow::Cow<'_, [u8]>> {
            (r.end <= self.0).then(|| std::borrow::Cow::Borrowed(&O200K[r]))
        }
        fn reader(&self, r: std::ops::Range<usize>) -> Option<&[u8]> {
            O200K.get(r.start..r.end.min(self.1.max(r.start)))
        }
    }

    #[test]
    fn a_table_that_cannot_be_read_fails_the_load() {
        let all = O200K.len();
        assert!(decode::decode(&Failing(all, all)).is_some());
        // Only the header readable: no tables, no panic.
        assert!(decode::decode(&Failing(28, 28)).is_none());
        // The automaton's last byte unreadable.
        assert!(decode::decode(&Failing(all - 1, all)).is_none());
        // A stream that ends in the middle of the pair table.
        assert!(decode::decode(&Failing(all, 3_000_000)).is_none());
    }

    #[test]
    fn a_damaged_tables_file_is_refused() {
        assert!(decode::decode(&&O200K[..O200K.len() - 1]).is_none());
        assert!(decode::decode(&&b"SNBPE000"[..]).is_none());
        assert!(decode::decode(&&b""[..]).is_none());
        let mut wrong = O200K[..28].to_vec();
        wrong[0] = b'X';
        assert!(decode::decode(&&wrong[..]).is_none());
    }
}
