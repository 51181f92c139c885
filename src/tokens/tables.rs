//! The count-only BPE tables of one encoding: `bpe`'s backtracking counter over the
//! tiktoken pre-tokenizer (`pretokenize`), loaded from tables embedded at build time
//! (`build/bpe_tables.rs` writes them from `bpe-openai`'s dictionary, compressed: `inflate`
//! reads them back as they are decoded). They are the only BPE tables in the binary.
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
mod inflate;

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
        // Read through the executable file rather than its mapping where possible: the
        // mapped pages would stay resident for the rest of the process.
        let exe = ExeTables::open(bytes);
        std::thread::scope(|s| {
            let pre = s.spawn(pre);
            // Inflated on a third thread while this one decodes.
            let bpe = exe
                .as_ref()
                .and_then(|exe| decode::decode(&inflate::pipelined(s, exe.whole()?)?))
                .or_else(|| decode::decode(&inflate::pipelined(s, bytes)?));
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

/// The count-only encoding in the compressed tables file `packed` reads, inflated on this
/// thread (`None` when it is not one or does not decode).
#[cfg(test)]
fn decode_packed(packed: impl std::io::Read) -> Option<BytePairEncoding> {
    decode::decode(&inflate::Inflating::open(packed)?)
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

    /// The inflated layout of the embedded `o200k_base` tables.
    fn raw_o200k() -> &'static [u8] {
        use decode::TableSource;
        static RAW: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        RAW.get_or_init(|| {
            let src = inflate::Inflating::open(O200K).unwrap();
            src.bytes(0..src.len()).unwrap().into_owned()
        })
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_tables_read_from_the_executable_equal_the_embedded_ones() {
        use std::io::Read;
        for bytes in [O200K, CL100K] {
            let exe = ExeTables::open(bytes).unwrap();
            let copy = exe.read(0..bytes.len()).unwrap();
            assert_eq!(copy.len(), bytes.len());
            assert!(copy == bytes);
            let mut whole = Vec::new();
            exe.whole().unwrap().read_to_end(&mut whole).unwrap();
            assert!(whole == bytes);
            assert!(exe.read(0..bytes.len() + 1).is_none());
            // Inflated from the file, they decode to the same tables as the embedded bytes.
            let read = decode_packed(exe.whole().unwrap()).unwrap();
            let direct = decode_packed(bytes).unwrap();
            assert_eq!(read.num_tokens(), direct.num_tokens());
            let text = "Read table by table: naïve café — 渐进式披露 \r\n\n   x  tokens";
            assert_eq!(read.count(text.as_bytes()), direct.count(text.as_bytes()));
        }
    }

    /// The inflated `o200k_base` tables, whole ranges readable only up to `.0` and readers
    /// giving out at `.1`.
    struct Failing(usize, usize);

    impl decode::TableSource for Failing {
        type Reader<'s> = &'s [u8];
        fn len(&self) -> usize {
            raw_o200k().len()
        }
        fn bytes(&self, r: std::ops::Range<usize>) -> Option<std::borrow::Cow<'_, [u8]>> {
            (r.end <= self.0).then(|| std::borrow::Cow::Borrowed(&raw_o200k()[r]))
        }
        fn reader(&self, r: std::ops::Range<usize>) -> Option<&[u8]> {
            raw_o200k().get(r.start..r.end.min(self.1.max(r.start)))
        }
    }

    #[test]
    fn a_table_that_cannot_be_read_fails_the_load() {
        let all = raw_o200k().len();
        assert!(decode::decode(&Failing(all, all)).is_some());
        // Only the header readable: no tables, no panic.
        assert!(decode::decode(&Failing(28, 28)).is_none());
        // The automaton's last byte unreadable.
        let automaton_end =
            28 + u32::from_le_bytes(raw_o200k()[16..20].try_into().unwrap()) as usize;
        assert!(decode::decode(&Failing(automaton_end - 1, all)).is_none());
        // A stream that ends in the middle of the pair table.
        assert!(decode::decode(&Failing(all, automaton_end + 1000)).is_none());
    }

    #[test]
    fn a_damaged_tables_file_is_refused() {
        let raw = raw_o200k();
        assert!(decode::decode(&&raw[..raw.len() - 1]).is_none());
        assert!(decode::decode(&&b"SNBPE000"[..]).is_none());
        assert!(decode::decode(&&b""[..]).is_none());
        let mut wrong = raw[..28].to_vec();
        wrong[0] = b'X';
        assert!(decode::decode(&&wrong[..]).is_none());
        // Packed: a truncated stream, a wrong magic.
        assert!(decode_packed(&O200K[..O200K.len() - 100]).is_none());
        assert!(decode_packed(&O200K[..4000]).is_none());
        let mut packed = O200K[..64].to_vec();
        packed[4] = b'E';
        assert!(decode_packed(&packed[..]).is_none());
    }
}
