//! The embedded tables are stored compressed (`build/bpe_tables.rs`: a header, then the
//! layout's zstd frame); [`Inflating`] is the [`TableSource`] that reads them inflated as
//! the decoder asks, front to back, so no inflated copy of the whole file is ever held —
//! only the table being decoded passes through a small buffer. The compressed bytes come
//! from any reader: the executable file ([`super::exe`]) or the embedded slice.
//!
//! [`pipelined`] inflates on a thread of its own, [`CHUNK`] bytes at a time through a
//! bounded channel, so inflating overlaps decoding (on two cores the load then costs about
//! what decoding alone did); `Inflating::open` (tests) inflates on the decoder's thread.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{BufReader, Read};
use std::ops::Range;

use super::decode::TableSource;

/// First bytes of a compressed tables file; the last digit is the layout version it holds.
pub const PACKED_MAGIC: &[u8; 8] = b"SNBPZ113";

/// Bytes of the compressed file's header: [`PACKED_MAGIC`] and the inflated length `u64`.
const PACKED_HEADER: usize = 16;

/// Buffer of a table's reader: the integer tables stream through it, a few bytes per read.
const STREAM_BUFFER: usize = 64 << 10;

/// The inflater over a compressed reader `R`.
#[cfg(test)]
type Decoder<R> = zstd::stream::read::Decoder<'static, BufReader<R>>;

/// Bytes per chunk [`pipelined`] hands over: below glibc's default mmap threshold (128 KiB),
/// so freeing chunks never raises the threshold (a raised one keeps the tables' memory
/// resident after release).
pub const CHUNK: usize = 64 << 10;

/// Chunks in flight between the inflating thread and the decoder (1 MiB).
const IN_FLIGHT: usize = 16;

/// Capacity of the buffer [`TableSource::bytes`] fills for a range of [`LARGE`] bytes or more
/// (the automaton): above glibc's largest dynamic mmap threshold (32 MiB), so the buffer is
/// a mapping of its own, unmapped when freed, and freeing it does not raise the threshold (a
/// raised one keeps the tables' memory resident after release). Pages past the bytes read
/// are never touched, so never resident.
const LARGE_CAPACITY: usize = 33 << 20;

/// A range this long is read into a [`LARGE_CAPACITY`] buffer.
const LARGE: usize = 1 << 20;

/// A compressed tables file read inflated, front to back; `D` gives the inflated bytes.
pub struct Inflating<D: Read> {
    /// The inflated stream and how many bytes it has given so far.
    state: RefCell<(D, usize)>,
    /// Length of the inflated layout.
    len: usize,
}

/// The inflated length the header of the compressed file `packed` gives, its header read;
/// `None` when it is not one (wrong magic or version, or fewer than 16 bytes).
fn read_header(packed: &mut impl Read) -> Option<usize> {
    let mut head = [0u8; PACKED_HEADER];
    packed.read_exact(&mut head).ok()?;
    if &head[..8] != PACKED_MAGIC {
        return None;
    }
    usize::try_from(u64::from_le_bytes(head[8..].try_into().ok()?)).ok()
}

#[cfg(test)]
impl<R: Read> Inflating<Decoder<R>> {
    /// The compressed file `packed`, inflated on the reading thread; `None` when it is not
    /// one.
    pub fn open(mut packed: R) -> Option<Self> {
        let len = read_header(&mut packed)?;
        let inflater = zstd::stream::read::Decoder::new(packed).ok()?;
        Some(Self {
            state: RefCell::new((inflater, 0)),
            len,
        })
    }
}

/// The compressed file `packed`, inflated on a thread of `scope` that hands the bytes over
/// in [`CHUNK`]s; `None` when it is not one. An inflating error ends the stream early, which
/// the decoder sees as a short table.
pub fn pipelined<'scope, R: Read + Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    mut packed: R,
) -> Option<Inflating<Chunks>> {
    let len = read_header(&mut packed)?;
    let mut inflater = zstd::stream::read::Decoder::new(packed).ok()?;
    let (tx, rx) = crossbeam_channel::bounded::<Vec<u8>>(IN_FLIGHT);
    scope.spawn(move || {
        loop {
            let mut chunk = Vec::with_capacity(CHUNK);
            match (&mut inflater).take(CHUNK as u64).read_to_end(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send(chunk).is_err() {
                        break; // the decoder stopped reading
                    }
                }
            }
        }
    });
    Some(Inflating {
        state: RefCell::new((Chunks::new(rx), 0)),
        len,
    })
}

/// The inflated bytes [`pipelined`]'s thread sends, as a reader (ends when it stops).
pub struct Chunks {
    rx: crossbeam_channel::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Chunks {
    fn new(rx: crossbeam_channel::Receiver<Vec<u8>>) -> Self {
        Self {
            rx,
            chunk: Vec::new(),
            at: 0,
        }
    }
}

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.chunk.len() {
            match self.rx.recv() {
                Ok(next) => (self.chunk, self.at) = (next, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

impl<D: Read> Inflating<D> {
    /// Skip to `start` (an earlier position cannot be read again: `None`).
    fn seek(&self, start: usize) -> Option<()> {
        let mut state = self.state.borrow_mut();
        let (inflater, at) = &mut *state;
        let skip = start.checked_sub(*at)?;
        let skipped = std::io::copy(
            &mut inflater.by_ref().take(skip as u64),
            &mut std::io::sink(),
        );
        *at = start;
        (skipped.ok()? == skip as u64).then_some(())
    }
}

/// A reader of the next `left` inflated bytes of an [`Inflating`] source.
pub struct Part<'s, D: Read> {
    source: &'s Inflating<D>,
    left: usize,
}

impl<D: Read> Read for Part<'_, D> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let want = buf.len().min(self.left);
        if want == 0 {
            return Ok(0);
        }
        let mut state = self.source.state.borrow_mut();
        let (inflater, at) = &mut *state;
        let n = inflater.read(&mut buf[..want])?;
        *at += n;
        self.left -= n;
        Ok(n)
    }
}

impl<D: Read> TableSource for Inflating<D> {
    type Reader<'s>
        = BufReader<Part<'s, D>>
    where
        Self: 's;
    fn len(&self) -> usize {
        self.len
    }
    fn bytes(&self, range: Range<usize>) -> Option<Cow<'_, [u8]>> {
        let cap = if range.len() >= LARGE {
            LARGE_CAPACITY.max(range.len())
        } else {
            range.len()
        };
        let mut out = Vec::with_capacity(cap);
        self.reader(range.clone())?.read_to_end(&mut out).ok()?;
        (out.len() == range.len()).then_some(Cow::Owned(out))
    }
    fn reader(&self, range: Range<usize>) -> Option<BufReader<Part<'_, D>>> {
        if range.end > self.len || range.start > range.end {
            return None;
        }
        self.seek(range.start)?;
        let part = Part {
            source: self,
            left: range.len(),
        };
        Some(BufReader::with_capacity(STREAM_BUFFER, part))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `raw` packed as `build/bpe_tables.rs` packs the layout (at a faster level).
    fn pack(raw: &[u8]) -> Vec<u8> {
        let mut out = PACKED_MAGIC.to_vec();
        out.extend_from_slice(&(raw.len() as u64).to_le_bytes());
        out.extend_from_slice(&zstd::stream::encode_all(raw, 3).unwrap());
        out
    }

    #[test]
    fn ranges_read_front_to_back_give_the_raw_bytes_and_an_earlier_range_is_refused() {
        let raw: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let packed = pack(&raw);
        let src = Inflating::open(&packed[..]).unwrap();
        assert_eq!(src.len(), raw.len());
        assert_eq!(src.bytes(0..10).unwrap()[..], raw[..10]);
        // A gap is skipped; a reader gives exactly its range.
        let mut part = Vec::new();
        src.reader(50..70_000)
            .unwrap()
            .read_to_end(&mut part)
            .unwrap();
        assert_eq!(part[..], raw[50..70_000]);
        assert!(src.bytes(0..4).is_none(), "already read past");
        assert!(src.reader(99_000..100_001).is_none(), "past the end");
        assert_eq!(src.bytes(99_000..100_000).unwrap()[..], raw[99_000..]);
    }

    #[test]
    fn pipelined_inflating_gives_the_same_bytes_and_stops_when_dropped_early() {
        let raw: Vec<u8> = (0..1_000_000u32).map(|i| (i * 13 % 241) as u8).collect();
        let packed = pack(&raw);
        std::thread::scope(|s| {
            let src = pipelined(s, &packed[..]).unwrap();
            assert_eq!(src.len(), raw.len());
            assert_eq!(src.bytes(0..3).unwrap()[..], raw[..3]);
            let mut part = Vec::new();
            src.reader(100_000..900_000)
                .unwrap()
                .read_to_end(&mut part)
                .unwrap();
            assert!(part[..] == raw[100_000..900_000]);
            assert!(src.bytes(900_000..1_000_001).is_none());
        });
        // Dropped after one read: the thread ends (the scope would hang otherwise).
        std::thread::scope(|s| {
            let src = pipelined(s, &packed[..]).unwrap();
            assert_eq!(src.bytes(0..10).unwrap()[..], raw[..10]);
        });
        std::thread::scope(|s| assert!(pipelined(s, &b"SNBPE003 raw"[..]).is_none()));
    }

    #[test]
    fn a_file_without_the_packed_header_is_refused() {
        assert!(Inflating::open(&b"SNBPE003 not packed"[..]).is_none());
        assert!(Inflating::open(&b"SNBPZ"[..]).is_none());
        let mut truncated = pack(&[7u8; 5000]);
        truncated.truncate(20);
        let src = Inflating::open(&truncated[..]).unwrap();
        assert!(
            src.bytes(0..5000).is_none(),
            "a truncated stream gives no bytes"
        );
    }
}
