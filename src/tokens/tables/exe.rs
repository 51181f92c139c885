//! The embedded tables read from the executable file (`/proc/self/exe`) at the offset where
//! they are mapped, so their pages are never touched through the mapping: the kernel counts
//! mapped file pages once read as resident memory of the process until it exits, while what
//! is read from the file is freed once decoded (docs/DESIGN.md §8). Why the file can be
//! trusted: it is the one mapped (same inode), and the kernel refuses writes to an executable
//! while it runs (`ETXTBSY`), so its bytes are the mapped ones; the ends check of
//! [`ExeTables::open`] guards against a wrong offset.

use std::fs::File;
use std::io::Read;
use std::ops::Range;

/// The embedded tables of this executable, read from its file.
pub struct ExeTables {
    file: File,
    /// File offset of the embedded bytes' first byte.
    offset: u64,
    /// Length of the embedded bytes.
    len: usize,
}

impl ExeTables {
    /// The executable holding `bytes`; `None` off Linux, or when the mapping is not found or
    /// the file's bytes at that offset do not begin and end like `bytes`.
    pub fn open(bytes: &'static [u8]) -> Option<Self> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::MetadataExt;
            let file = File::open("/proc/self/exe").ok()?;
            let inode = file.metadata().ok()?.ino();
            let addr = bytes.as_ptr().addr();
            let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
            // A line: `start-end perms offset dev inode path`.
            let offset = maps.lines().find_map(|line| {
                let mut f = line.split_whitespace();
                let (start, end) = f.next()?.split_once('-')?;
                let start = usize::from_str_radix(start, 16).ok()?;
                let end = usize::from_str_radix(end, 16).ok()?;
                let base = u64::from_str_radix(f.nth(1)?, 16).ok()?;
                let ino = f.nth(1)?.parse::<u64>().ok()?;
                (ino == inode && start <= addr && addr + bytes.len() <= end)
                    .then(|| base + (addr - start) as u64)
            })?;
            let exe = Self {
                file,
                offset,
                len: bytes.len(),
            };
            let ends = 64.min(bytes.len());
            let tail = bytes.len() - ends;
            let same_ends = exe.read(0..ends)?[..] == bytes[..ends]
                && exe.read(tail..bytes.len())?[..] == bytes[tail..];
            same_ends.then_some(exe)
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = bytes;
            None
        }
    }

    /// The bytes `range` of the embedded tables, read from the file; `None` past the end or
    /// on an error.
    pub fn read(&self, range: Range<usize>) -> Option<Vec<u8>> {
        let mut buf = Vec::with_capacity(range.len());
        self.at(range.clone())?.read_to_end(&mut buf).ok()?;
        (buf.len() == range.len()).then_some(buf)
    }

    /// A reader of all the embedded bytes, from the file.
    pub fn whole(&self) -> Option<std::io::Take<&File>> {
        self.at(0..self.len)
    }

    /// A reader of the bytes `range` (`None` past the end of the embedded bytes). Readers
    /// share the file's position, so one is used at a time.
    fn at(&self, range: Range<usize>) -> Option<std::io::Take<&File>> {
        use std::io::{Seek, SeekFrom};
        if range.end > self.len || range.start > range.end {
            return None;
        }
        let mut f = &self.file;
        f.seek(SeekFrom::Start(self.offset + range.start as u64))
            .ok()?;
        Some(f.take(range.len() as u64))
    }
}
