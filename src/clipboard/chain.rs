//! The copy chain itself: the options ([`CopyOptions`]), the outcome ([`CopyOutcome`]) and
//! the paths tried in turn ([`copy_with`]): the system clipboard, OSC 52, a file.

use std::path::PathBuf;
use std::time::Duration;

use super::file::save_as as save_to_file_as;
use super::native;
use super::osc52::{self, TmuxPath, osc52_sequence};

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
#[derive(Clone, Debug, PartialEq)]
pub struct CopyOptions {
    /// Try the system clipboard (default `true`).
    pub native: bool,
    /// Try OSC 52 when a terminal is attached (default `true`).
    pub osc52: bool,
    /// Text size in bytes above which an OSC 52 copy is reported `over_limit` (it is still
    /// sent). Default [`DEFAULT_OSC52_LIMIT`].
    pub osc52_limit: usize,
    /// Folder for the file fallback; `None` = [`super::default_save_dir`] (then the temp dir).
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
/// 3. a new file ([`super::save_to_file`]): `Saved(path)`.
///
/// Errors: only when the file fallback cannot write anywhere ([`crate::error::Error::Io`]).
pub fn copy_with(text: &str, opts: &CopyOptions) -> crate::error::Result<CopyOutcome> {
    copy_with_ext(text, opts, "md")
}

/// [`copy_with`] whose file fallback names its file with extension `ext` (`md`, `xml`,
/// `json`, without the dot).
pub(super) fn copy_with_ext(
    text: &str,
    opts: &CopyOptions,
    ext: &str,
) -> crate::error::Result<CopyOutcome> {
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
            return save_to_file_as(text, opts.fallback_dir.as_deref(), ext)
                .map(CopyOutcome::SavedTmuxDrops);
        }
        let seq = tmux.map_or_else(|| osc52_sequence(text, false), |t| t.sequences(text));
        if osc52::write_to_terminal(&seq) {
            return Ok(CopyOutcome::Osc52 { over_limit, tmux });
        }
    }
    save_to_file_as(text, opts.fallback_dir.as_deref(), ext).map(CopyOutcome::Saved)
}

/// Try only the system clipboard (step 1 of [`copy_with`]); `Ok(())` once it holds the text.
/// The TUI uses this first so that, when it fails, it can ask before an oversized OSC 52
/// send. Errors: a one-line reason (no display, a text over the X server's one-request
/// limit, no confirmation in time).
pub fn copy_native(text: &str, opts: &CopyOptions) -> Result<(), String> {
    if !opts.native {
        return Err("the system clipboard is off".into());
    }
    if opts.ssh_prefers_osc52 && native_is_remote() {
        return Err("over SSH the system clipboard is the remote machine's".into());
    }
    native::copy(text, opts.serve_exe.as_deref(), opts.native_timeout)
}

#[cfg(test)]
mod tests {
    use super::*;

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
