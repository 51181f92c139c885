//! The one-line status after a copy, honest about where the text went.

use std::path::PathBuf;

use super::chain::{CopyOutcome, DEFAULT_OSC52_LIMIT};
use super::osc52::TmuxPath;
use crate::tokens::Encoding;
use crate::util::human::{human_bytes, human_count};

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
}
