//! Clipboard chain (docs/DESIGN.md §5): native (arboard; on X11 kept served after exit by a
//! detached `skillnav __clipboard-serve` child) → OSC 52 (for SSH/tmux; never confirmed) → a
//! file. Over SSH (`$SSH_TTY`/`$SSH_CONNECTION`) with a terminal attached and no forwarded
//! X display, the native clipboard would be the remote machine's: OSC 52 goes first. Inside
//! tmux the OSC 52 form follows tmux's options ([`TmuxPath`]). Honest outcomes, each shown
//! by [`status_line`]. No terminal-library types: the CLI uses it too.

mod file;
mod native;
mod osc52;

use std::path::PathBuf;
use std::time::Duration;

use crate::tokens::Encoding;
use crate::util::human::{human_bytes, human_count};

pub use file::{default_dir as default_save_dir, save as save_to_file, save_as as save_to_file_as};
pub use native::{SERVE_ARG, serve_main};
pub use osc52::{TmuxPath, osc52_sequence};

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
        /// Inside tmux: which form was sent, by tmux's options; `None` outside tmux.
        tmux: Option<TmuxPath>,
    },
    /// Written to this file instead.
    Saved(PathBuf),
    /// Written to this file because the tmux we run in drops OSC 52 ([`TmuxPath::Ignored`]).
    SavedTmuxDrops(PathBuf),
}

/// Whether the native clipboard would be the remote machine's: over SSH (`$SSH_TTY` or
/// `$SSH_CONNECTION` set) with a terminal attached for OSC 52, unless `$DISPLAY` is a
/// forwarded X display (a host before the `:`, as `ssh -X` sets `localhost:10.0`).
pub fn native_is_remote() -> bool {
    let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    let over_ssh = set("SSH_TTY") || set("SSH_CONNECTION");
    let forwarded = std::env::var("DISPLAY").is_ok_and(|d| display_is_forwarded(&d));
    over_ssh && !forwarded && osc52::terminal_attached()
}

/// Whether X display name `display` names a host (`localhost:10.0`, `host:0`): a display
/// reached over the network, as `ssh -X` forwards it; `:0` and `unix:0` are local sockets.
fn display_is_forwarded(display: &str) -> bool {
    display
        .rsplit_once(':')
        .is_some_and(|(host, _)| !host.is_empty() && host != "unix" && !host.starts_with('/'))
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
    /// Over SSH, skip the native clipboard when [`native_is_remote`] (default `true`): it
    /// would be the remote machine's. Tests of the native path that may run over SSH turn
    /// it off.
    pub ssh_prefers_osc52: bool,
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
            ssh_prefers_osc52: true,
        }
    }
}

/// Copy `text` with [`CopyOptions::default`], trying each path in turn.
pub fn copy(text: &str) -> crate::error::Result<CopyOutcome> {
    copy_with(text, &CopyOptions::default())
}

/// Copy `text`, trying in order:
/// 1. the system clipboard (when `opts.native`, not [`native_is_remote`] with
///    `opts.ssh_prefers_osc52`, and, on X11, a display is named): `Copied` once the serving child confirms it owns the clipboard;
/// 2. OSC 52 (when `opts.osc52` and `/dev/tty` or stdout is a terminal): `Osc52 {
///    over_limit, tmux }`, `over_limit` when `text.len() > opts.osc52_limit`; never written
///    to a non-terminal. Inside tmux (`$TMUX`) the form follows [`TmuxPath`]; when tmux drops
///    OSC 52 nothing is sent and the text is saved: `SavedTmuxDrops(path)`;
/// 3. a new file ([`save_to_file`]): `Saved(path)`.
///
/// Errors: only when the file fallback cannot write anywhere ([`crate::error::Error::Io`]).
pub fn copy_with(text: &str, opts: &CopyOptions) -> crate::error::Result<CopyOutcome> {
    if opts.native
        && !(opts.ssh_prefers_osc52 && native_is_remote())
        && native::copy(text, opts.serve_exe.as_deref(), opts.native_timeout).is_ok()
    {
        return Ok(CopyOutcome::Copied);
    }
    let over_limit = text.len() > opts.osc52_limit;
    if opts.osc52 && !(over_limit && opts.oversize_to_file) {
        let tmux = osc52::inside_tmux().then(osc52::tmux_path);
        if tmux == Some(TmuxPath::Ignored) {
            return save_to_file(text, opts.fallback_dir.as_deref())
                .map(CopyOutcome::SavedTmuxDrops);
        }
        let seq = tmux.map_or_else(|| osc52_sequence(text, false), |t| t.sequences(text));
        if osc52::write_to_terminal(&seq) {
            return Ok(CopyOutcome::Osc52 { over_limit, tmux });
        }
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
    if opts.ssh_prefers_osc52 && native_is_remote() {
        return Err("over SSH the system clipboard is the remote machine's".into());
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
///   inside tmux the text names where it went: `Sent via OSC 52 to a tmux buffer (tmux
///   list-buffers) · …`, `Sent via OSC 52 through tmux to the terminal (does not confirm;
///   p then w saves to a file) · …`, or, when tmux's options could not be read, `Sent via OSC 52
///   inside tmux, not confirmed: check with tmux list-buffers; p then w saves to a file · …`;
/// - `Saved to /path · 4.2 kB · 1,034 tokens (o200k_base)` (the path sanitised for the
///   terminal with [`crate::util::sanitize::sanitize_line`]), plus ` — tmux drops OSC 52
///   here (set -g set-clipboard on makes it a buffer)` for `SavedTmuxDrops`.
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
    let saved = |p: &PathBuf| {
        format!(
            "Saved to {} · {size}",
            crate::util::sanitize::sanitize_line(&p.display().to_string())
        )
    };
    match outcome {
        CopyOutcome::Copied => format!("Copied {size}"),
        CopyOutcome::Osc52 { over_limit, tmux } => {
            let warn = if *over_limit {
                format!(
                    " — over the {} limit, may be dropped",
                    human_bytes(osc52_limit as u64)
                )
            } else {
                String::new()
            };
            let how = match tmux {
                None => "Sent via OSC 52 (terminal does not confirm)",
                Some(TmuxPath::Buffer) => "Sent via OSC 52 to a tmux buffer (tmux list-buffers)",
                Some(TmuxPath::Passthrough) => {
                    "Sent via OSC 52 through tmux to the terminal (does not confirm; p then w saves to a file)"
                }
                Some(TmuxPath::Unsure | TmuxPath::Ignored) => {
                    "Sent via OSC 52 inside tmux, not confirmed: check with tmux list-buffers; p then w saves to a file"
                }
            };
            format!("{how} · {size}{warn}")
        }
        CopyOutcome::Saved(p) => saved(p),
        CopyOutcome::SavedTmuxDrops(p) => format!(
            "{} — tmux drops OSC 52 here (set -g set-clipboard on makes it a buffer)",
            saved(p)
        ),
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
            status_line(
                &CopyOutcome::Osc52 {
                    over_limit: false,
                    tmux: None
                },
                4200,
                1034,
                enc
            ),
            "Sent via OSC 52 (terminal does not confirm) · 4.2 kB · 1,034 tokens (o200k_base)"
        );
        assert_eq!(
            status_line(
                &CopyOutcome::Osc52 {
                    over_limit: true,
                    tmux: None
                },
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
    fn forwarded_displays_name_a_host() {
        assert!(display_is_forwarded("localhost:10.0"));
        assert!(display_is_forwarded("workstation:0"));
        assert!(!display_is_forwarded(":0"));
        assert!(!display_is_forwarded(":99.0"));
        assert!(!display_is_forwarded("unix:0"));
        assert!(!display_is_forwarded("/tmp/launch-x/org.xquartz:0"));
        assert!(!display_is_forwarded(""));
    }

    #[test]
    fn tmux_statuses_say_where_the_text_went_and_how_to_check() {
        let enc = Encoding::Bytes4;
        let osc = |t| CopyOutcome::Osc52 {
            over_limit: false,
            tmux: Some(t),
        };
        assert_eq!(
            status_line(&osc(TmuxPath::Buffer), 12, 3, enc),
            "Sent via OSC 52 to a tmux buffer (tmux list-buffers) · 12 B · 3 tokens (bytes4)"
        );
        assert_eq!(
            status_line(&osc(TmuxPath::Unsure), 12, 3, enc),
            "Sent via OSC 52 inside tmux, not confirmed: check with tmux list-buffers; \
             p then w saves to a file · 12 B · 3 tokens (bytes4)"
        );
        assert_eq!(
            status_line(&osc(TmuxPath::Passthrough), 12, 3, enc),
            "Sent via OSC 52 through tmux to the terminal (does not confirm; p then w saves to a file) \
             · 12 B · 3 tokens (bytes4)"
        );
        assert_eq!(
            status_line(
                &CopyOutcome::SavedTmuxDrops(PathBuf::from("/tmp/c.md")),
                12,
                3,
                enc
            ),
            "Saved to /tmp/c.md · 12 B · 3 tokens (bytes4) — tmux drops OSC 52 here \
             (set -g set-clipboard on makes it a buffer)"
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
