//! OSC 52 (docs/DESIGN.md §5): ask the terminal to set its clipboard with
//! `ESC ] 52 ; c ; <base64> BEL`, wrapped in tmux's DCS passthrough inside tmux. Terminals
//! never confirm, so a write only means "sent". Written to `/dev/tty` (or to stdout when
//! that is the terminal), never to a pipe or file.

use std::io::{IsTerminal, Write};

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
    fn tmux_sequence_doubles_esc_inside_passthrough() {
        assert_eq!(
            osc52_sequence("hi", true),
            b"\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\".to_vec()
        );
    }
}
