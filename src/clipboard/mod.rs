//! Clipboard chain (docs/DESIGN.md §5): native (arboard; on X11 kept served after exit by a
//! detached `skillnav __clipboard-serve` child) → OSC 52 (for SSH/tmux; never confirmed) → a
//! file. Three honest outcomes, each shown by [`status_line`]. No terminal-library types:
//! the CLI uses it too.

mod file;
mod native;
mod osc52;

use std::path::PathBuf;
use std::time::Duration;

use crate::tokens::Encoding;
use crate::util::human::{human_bytes, human_count};

pub use file::{default_dir as default_save_dir, save as save_to_file, save_as as save_to_file_as};
pub use native::{SERVE_ARG, serve_main};
pub use osc52::osc52_sequence;

/// Default OSC 52 size limit in bytes of text (many terminals drop larger payloads).
pub const DEFAULT_OSC52_LIMIT: usize = 100_000;

/// Which path the text took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyOutcome {
    /// The system clipboard holds the text.
    Copied,
    /// An OSC 52 sequence was written to the terminal; `over_limit` when larger than the
    /// configured limit (many terminals drop big payloads).
    Osc52 {
        /// Payload exceeded the limit.
        over_limit: bool,
    },
    /// Written to this file instead.
    Saved(PathBuf),
}

/// How [`copy_with`] tries each path.
#[derive(Clone, Debug)]
pub struct CopyOptions {
    /// Try the system clipboard (default `true`).
    pub native: bool,
    /// Try OSC 52 when a terminal is attached (default `true`).
    pub osc52: bool,
    /// Text size in bytes above which an OSC 52 copy is reported `over_limit` (it is still
    /// sent). Default [`DEFAULT_OSC52_LIMIT`].
    pub osc52_limit: usize,
    /// Folder for the file fallback; `None` = [`default_save_dir`] (then the temp dir).
    pub fallback_dir: Option<PathBuf>,
    /// Binary run as `<exe> __clipboard-serve` on X11; `None` = `std::env::current_exe()`.
    /// Tests pass the real `skillnav` binary here.
    pub serve_exe: Option<PathBuf>,
    /// How long to wait for the serving child's confirmation (default 5 s: a loaded machine
    /// can be slow to start it).
    pub native_timeout: Duration,
    /// Above `osc52_limit`, skip OSC 52 and save to a file instead (default `true`): many
    /// terminals silently drop large OSC 52 payloads, and a file path is an honest result.
    /// With `false` the text is still sent and reported `over_limit`.
    pub oversize_to_file: bool,
}

impl Default for CopyOptions {
    fn default() -> Self {
        Self {
            native: true,
            osc52: true,
            osc52_limit: DEFAULT_OSC52_LIMIT,
            fallback_dir: None,
            serve_exe: None,
            native_timeout: Duration::from_secs(5),
            oversize_to_file: true,
        }
    }
}

/// Copy `text` with [`CopyOptions::default`], trying each path in turn.
pub fn copy(text: &str) -> crate::error::Result<CopyOutcome> {
    copy_with(text, &CopyOptions::default())
}

/// Copy `text`, trying in order:
/// 1. the system clipboard (when `opts.native` and, on X11, a display is named): `Copied`
///    once the serving child confirms it owns the clipboard;
/// 2. OSC 52 (when `opts.osc52` and `/dev/tty` or stdout is a terminal; wrapped for tmux when
///    `$TMUX` is set): `Osc52 { over_limit }`, `over_limit` when `text.len() >
///    opts.osc52_limit`; never written to a non-terminal;
/// 3. a new file ([`save_to_file`]): `Saved(path)`.
///
/// Errors: only when the file fallback cannot write anywhere ([`crate::error::Error::Io`]).
pub fn copy_with(text: &str, opts: &CopyOptions) -> crate::error::Result<CopyOutcome> {
    if opts.native && native::copy(text, opts.serve_exe.as_deref(), opts.native_timeout).is_ok() {
        return Ok(CopyOutcome::Copied);
    }
    let over_limit = text.len() > opts.osc52_limit;
    if opts.osc52
        && !(over_limit && opts.oversize_to_file)
        && osc52::write_to_terminal(&osc52_sequence(text, osc52::inside_tmux()))
    {
        return Ok(CopyOutcome::Osc52 { over_limit });
    }
    save_to_file(text, opts.fallback_dir.as_deref()).map(CopyOutcome::Saved)
}

/// Try only the system clipboard (step 1 of [`copy_with`]); `Ok(())` once it holds the text.
/// The TUI uses this first so that, when it fails, it can ask before an oversized OSC 52
/// send. Errors: a one-line reason (no display, no confirmation in time).
pub fn copy_native(text: &str, opts: &CopyOptions) -> Result<(), String> {
    if !opts.native {
        return Err("the system clipboard is off".into());
    }
    native::copy(text, opts.serve_exe.as_deref(), opts.native_timeout)
}

/// The status after a copy, with the text's size (`bytes`, `tokens` in `encoding`), for the
/// default OSC 52 limit ([`DEFAULT_OSC52_LIMIT`]); see [`status_line_with_limit`].
pub fn status_line(outcome: &CopyOutcome, bytes: u64, tokens: u64, encoding: Encoding) -> String {
    status_line_with_limit(outcome, bytes, tokens, encoding, DEFAULT_OSC52_LIMIT)
}

/// The status after a copy, one line, honest about what happened:
/// - `Copied 4.2 kB · 1,034 tokens (o200k_base)`
/// - `Sent via OSC 52 (terminal does not confirm) · 4.2 kB · 1,034 tokens (o200k_base)`, plus
///   ` — over the 100 kB limit, may be dropped` when `over_limit` (`osc52_limit` in bytes);
/// - `Saved to /path · 4.2 kB · 1,034 tokens (o200k_base)` (the path sanitised for the
///   terminal with [`crate::util::sanitize::sanitize_line`]).
pub fn status_line_with_limit(
    outcome: &CopyOutcome,
    bytes: u64,
    tokens: u64,
    encoding: Encoding,
    osc52_limit: usize,
) -> String {
    let size = format!(
        "{} · {} tokens ({})",
        human_bytes(bytes),
        human_count(tokens),
        encoding.as_str()
    );
    match outcome {
        CopyOutcome::Copied => format!("Copied {size}"),
        CopyOutcome::Osc52 { over_limit } => {
            let warn = if *over_limit {
                format!(
                    " — over the {} limit, may be dropped",
                    human_bytes(osc52_limit as u64)
                )
            } else {
                String::new()
            };
            format!("Sent via OSC 52 (terminal does not confirm) · {size}{warn}")
        }
        CopyOutcome::Saved(p) => {
            format!(
                "Saved to {} · {size}",
                crate::util::sanitize::sanitize_line(&p.display().to_string())
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_honest_statuses() {
        let enc = Encoding::O200kBase;
        assert_eq!(
            status_line(&CopyOutcome::Copied, 4200, 1034, enc),
            "Copied 4.2 kB · 1,034 tokens (o200k_base)"
        );
        assert_eq!(
            status_line(&CopyOutcome::Osc52 { over_limit: false }, 4200, 1034, enc),
            "Sent via OSC 52 (terminal does not confirm) · 4.2 kB · 1,034 tokens (o200k_base)"
        );
        assert_eq!(
            status_line(
                &CopyOutcome::Osc52 { over_limit: true },
                250_000,
                61_000,
                Encoding::Cl100kBase
            ),
            "Sent via OSC 52 (terminal does not confirm) · 250 kB · 61,000 tokens (cl100k_base) \
             — over the 100 kB limit, may be dropped"
        );
        assert_eq!(
            status_line(
                &CopyOutcome::Saved(PathBuf::from("/tmp/skillnav/clipboard-x.md")),
                12,
                3,
                enc
            ),
            "Saved to /tmp/skillnav/clipboard-x.md · 12 B · 3 tokens (o200k_base)"
        );
    }

    #[test]
    fn saved_path_is_sanitised_for_the_terminal() {
        let p = PathBuf::from("/tmp/a\x1b[2Jb.md");
        let s = status_line(&CopyOutcome::Saved(p), 1, 1, Encoding::Bytes4);
        assert!(!s.contains('\x1b'), "{s:?}");
        assert!(s.starts_with("Saved to /tmp/a␛[2Jb.md · "), "{s:?}");
    }

    #[test]
    fn file_fallback_when_other_paths_are_off() {
        let dir = tempfile::tempdir().expect("tempdir");
        let opts = CopyOptions {
            native: false,
            osc52: false,
            fallback_dir: Some(dir.path().to_path_buf()),
            ..CopyOptions::default()
        };
        let text = "# Context brief\n\nNo sections selected.\n";
        let CopyOutcome::Saved(path) = copy_with(text, &opts).expect("copy") else {
            panic!("expected Saved");
        };
        assert_eq!(path.parent(), Some(dir.path()));
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        assert!(
            name.starts_with("clipboard-") && name.ends_with(".md") && name.len() == 28,
            "{name}"
        );
        assert_eq!(std::fs::read_to_string(&path).expect("read"), text);
    }
}
