//! OSC 52 (docs/DESIGN.md §5): ask the terminal to set its clipboard with
//! `ESC ] 52 ; c ; <base64> BEL`. Terminals never confirm, so a write only means "sent".
//! Written to `/dev/tty` (or to stdout when that is the terminal), never to a pipe or file.
//!
//! Inside tmux the route depends on two tmux options, read with `tmux show-options -gv`
//! ([`TmuxPath`]): with `set-clipboard on` tmux turns the plain sequence into a paste buffer
//! (and forwards it to the outer terminal when that supports it); with `allow-passthrough on`
//! the DCS-passthrough form `ESC P tmux; … ESC \` reaches the outer terminal; with neither
//! (tmux's defaults since 3.3: `external`, `off`) tmux drops both, so nothing is sent.

use std::io::{IsTerminal, Write};
use std::process::{Command, Stdio};

use base64::Engine;

/// The OSC 52 sequence that sets the clipboard (`c`) to `text`: `ESC ] 52 ; c ;` + standard
/// base64 (with padding) of the UTF-8 bytes + `BEL`. With `tmux`, the sequence is wrapped in
/// tmux's DCS passthrough `ESC P tmux; <seq with every ESC doubled> ESC \`, so tmux forwards
/// it to the outer terminal (tmux needs `allow-passthrough on` or `set-clipboard on`).
pub fn osc52_sequence(text: &str, tmux: bool) -> Vec<u8> {
    let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let mut seq = Vec::with_capacity(b64.len() + 16);
    seq.extend_from_slice(b"\x1b]52;c;");
    seq.extend_from_slice(b64.as_bytes());
    seq.push(0x07);
    if !tmux {
        return seq;
    }
    let mut wrapped = Vec::with_capacity(seq.len() + 16);
    wrapped.extend_from_slice(b"\x1bPtmux;");
    for b in seq {
        if b == 0x1b {
            wrapped.push(0x1b);
        }
        wrapped.push(b);
    }
    wrapped.extend_from_slice(b"\x1b\\");
    wrapped
}

/// Whether we run inside tmux (`$TMUX` set and non-empty).
pub(crate) fn inside_tmux() -> bool {
    std::env::var_os("TMUX").is_some_and(|v| !v.is_empty())
}

/// What tmux does with an OSC 52 sent from inside it, by its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmuxPath {
    /// `set-clipboard on`: the plain sequence becomes a tmux paste buffer (`tmux
    /// list-buffers`); tmux also sets the outer terminal's clipboard when it can.
    Buffer,
    /// `allow-passthrough on` (or `all`) without `set-clipboard on`: the DCS-passthrough form
    /// goes to the outer terminal, which does not confirm.
    Passthrough,
    /// `set-clipboard` `off` or `external` and `allow-passthrough off`: tmux drops both forms.
    Ignored,
    /// The options could not be read (no `tmux` binary, another server): both forms are sent.
    Unsure,
}

impl TmuxPath {
    /// The path for the values of tmux's `set-clipboard` and `allow-passthrough` options
    /// (`None`: not readable; tmux before 3.3 has no `allow-passthrough` and passes DCS
    /// through).
    pub fn from_options(set_clipboard: Option<&str>, passthrough: Option<&str>) -> Self {
        match (set_clipboard, passthrough) {
            (Some("on"), _) => Self::Buffer,
            (_, Some("on" | "all")) => Self::Passthrough,
            (Some("off" | "external"), Some("off")) => Self::Ignored,
            _ => Self::Unsure,
        }
    }

    /// The bytes to write for `text`: the plain sequence, the DCS-wrapped one, both
    /// (`Unsure`), or nothing (`Ignored`).
    pub fn sequences(self, text: &str) -> Vec<u8> {
        match self {
            Self::Buffer => osc52_sequence(text, false),
            Self::Passthrough => osc52_sequence(text, true),
            Self::Unsure => {
                let mut both = osc52_sequence(text, false);
                both.extend(osc52_sequence(text, true));
                both
            }
            Self::Ignored => Vec::new(),
        }
    }
}

/// The tmux path of the tmux we run in (`$TMUX`): its global `set-clipboard` and
/// `allow-passthrough` options.
pub(crate) fn tmux_path() -> TmuxPath {
    TmuxPath::from_options(
        tmux_option("set-clipboard").as_deref(),
        tmux_option("allow-passthrough").as_deref(),
    )
}

/// `tmux show-options -gv NAME` of the server named by `$TMUX`; `None` when it fails.
fn tmux_option(name: &str) -> Option<String> {
    let out = Command::new("tmux")
        .args(["show-options", "-gv", name])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !v.is_empty()).then_some(v)
}

/// Whether a terminal is attached (`/dev/tty` opens, or stdout is one): where an OSC 52
/// could go.
pub(crate) fn terminal_attached() -> bool {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/tty")
        .is_ok_and(|t| t.is_terminal())
        || std::io::stdout().is_terminal()
}

/// Write `seq` to the terminal: `/dev/tty` when it opens and is a terminal, else stdout when
/// stdout is a terminal. Returns whether it was written; never writes to a non-terminal.
pub(crate) fn write_to_terminal(seq: &[u8]) -> bool {
    if let Ok(mut tty) = std::fs::OpenOptions::new().write(true).open("/dev/tty")
        && tty.is_terminal()
    {
        return tty.write_all(seq).and_then(|()| tty.flush()).is_ok();
    }
    let stdout = std::io::stdout();
    if stdout.is_terminal() {
        let mut lock = stdout.lock();
        return lock.write_all(seq).and_then(|()| lock.flush()).is_ok();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_sequence_bytes() {
        assert_eq!(osc52_sequence("hi", false), b"\x1b]52;c;aGk=\x07".to_vec());
        assert_eq!(osc52_sequence("", false), b"\x1b]52;c;\x07".to_vec());
        // UTF-8 bytes are encoded, not chars: "é" is C3 A9.
        assert_eq!(osc52_sequence("é\n", false), b"\x1b]52;c;w6kK\x07".to_vec());
    }

    #[test]
    fn tmux_options_choose_the_form() {
        use TmuxPath::*;
        let cases = [
            (Some("on"), Some("off"), Buffer),
            (Some("on"), Some("on"), Buffer),
            (Some("external"), Some("on"), Passthrough),
            (Some("off"), Some("all"), Passthrough),
            (Some("external"), Some("off"), Ignored),
            (Some("off"), Some("off"), Ignored),
            (Some("external"), None, Unsure),
            (None, None, Unsure),
        ];
        for (sc, pt, want) in cases {
            assert_eq!(TmuxPath::from_options(sc, pt), want, "{sc:?} {pt:?}");
        }
        assert_eq!(Buffer.sequences("hi"), b"\x1b]52;c;aGk=\x07".to_vec());
        assert_eq!(
            Unsure.sequences("hi"),
            b"\x1b]52;c;aGk=\x07\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\".to_vec()
        );
        assert!(Ignored.sequences("hi").is_empty());
    }

    #[test]
    fn tmux_sequence_doubles_esc_inside_passthrough() {
        assert_eq!(
            osc52_sequence("hi", true),
            b"\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\".to_vec()
        );
    }
}
