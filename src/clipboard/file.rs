//! Last link of the clipboard chain: save the text to
//! `<data dir>/clipboard-<UTC timestamp>.md` (`directories::ProjectDirs` for `skillnav`,
//! e.g. `~/.local/share/skillnav/` on Linux), falling back to `<temp dir>/skillnav/`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};

/// The default folder for saved clipboards: the platform data dir of `skillnav`
/// ([`crate::util::paths::data_dir`]), `None` when the platform has no home dir.
pub fn default_dir() -> Option<PathBuf> {
    crate::util::paths::data_dir()
}

/// Save `text` to a new file `clipboard-<YYYYMMDD-HHMMSS>.md` (UTC) in `dir` (or
/// [`default_dir`]), adding `-2`, `-3`, … rather than overwriting an existing file. When the
/// folder cannot be created or written, `<temp dir>/skillnav/` is tried. Errors: the I/O
/// error of the last folder tried.
pub fn save(text: &str, dir: Option<&Path>) -> Result<PathBuf> {
    save_as(text, dir, "md")
}

/// [`save`] with the file extension `ext` (`md`, `xml`, `json`, without the dot).
pub fn save_as(text: &str, dir: Option<&Path>, ext: &str) -> Result<PathBuf> {
    let stamp = utc_stamp(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    );
    let mut dirs: Vec<PathBuf> = Vec::new();
    match dir {
        Some(d) => dirs.push(d.to_path_buf()),
        None => dirs.extend(default_dir()),
    }
    dirs.push(std::env::temp_dir().join("skillnav"));
    let mut last_err = None;
    for d in &dirs {
        match save_in(text, d, &stamp, ext) {
            Ok(p) => return Ok(p),
            Err(e) => last_err = Some(e),
        }
    }
    Err(last_err.unwrap_or_else(|| Error::Usage("no folder to save the clipboard text in".into())))
}

fn save_in(text: &str, dir: &Path, stamp: &str, ext: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    for n in 1..1000u32 {
        let name = if n == 1 {
            format!("clipboard-{stamp}.{ext}")
        } else {
            format!("clipboard-{stamp}-{n}.{ext}")
        };
        let path = dir.join(name);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut f) => {
                f.write_all(text.as_bytes())
                    .and_then(|()| f.flush())
                    .map_err(|e| Error::io(&path, e))?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(&path, e)),
        }
    }
    Err(Error::Refused(format!(
        "{}: too many clipboard files for {stamp}",
        dir.display()
    )))
}

/// `YYYYMMDD-HHMMSS` (UTC) of `secs` since the Unix epoch (civil-from-days, proleptic
/// Gregorian calendar).
pub(crate) fn utc_stamp(secs: u64) -> String {
    let (y, m, d, h, mi, sec) = crate::util::utc::civil(secs);
    format!("{y:04}{m:02}{d:02}-{h:02}{mi:02}{sec:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_utc_civil_time() {
        assert_eq!(utc_stamp(0), "19700101-000000");
        assert_eq!(utc_stamp(951_782_400), "20000229-000000");
        assert_eq!(utc_stamp(1_798_544_706), "20261229-114506");
    }

    #[test]
    fn save_never_overwrites() {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = save_in("one", dir.path(), "20260101-000000", "md").expect("first");
        let b = save_in("two", dir.path(), "20260101-000000", "md").expect("second");
        assert_eq!(a, dir.path().join("clipboard-20260101-000000.md"));
        assert_eq!(b, dir.path().join("clipboard-20260101-000000-2.md"));
        // A JSON brief is saved as `.json`.
        let c = save_in("{}", dir.path(), "20260101-000000", "json").expect("json");
        assert_eq!(c, dir.path().join("clipboard-20260101-000000.json"));
        assert_eq!(std::fs::read_to_string(a).expect("read a"), "one");
        assert_eq!(std::fs::read_to_string(b).expect("read b"), "two");
    }
}
