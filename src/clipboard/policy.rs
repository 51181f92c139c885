//! The one copy policy (docs/DESIGN.md §5), used by the TUI's `y`, `Y` and the preview's
//! keys, `skillnav brief --copy` and `skillnav render --copy`: the system clipboard first;
//! when it fails, OSC 52 for a text within the limit; over the limit, ask the user (a
//! caller that can) or write a file; a file when nothing else works.

use super::chain::{CopyOptions, CopyOutcome, copy_native, copy_with_ext};
use super::file::save_as as save_to_file_as;

/// Where a copy goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// System clipboard, else OSC 52 within the limit, else ask first (or a file).
    Auto,
    /// OSC 52 even over the limit (the user said so); a file without a terminal.
    Osc52,
    /// A new file.
    File,
}

/// What [`deliver`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivered {
    /// The text went this way.
    Done(CopyOutcome),
    /// Nothing was sent: the system clipboard failed and the text is over the OSC 52 limit,
    /// which many terminals drop; the caller asks the user for [`Route::Osc52`] or
    /// [`Route::File`].
    AskFirst,
}

/// Deliver `text` by `route` under `opts`. [`Route::Auto`]: the system clipboard
/// ([`copy_native`]); when it fails, OSC 52 if `text.len()` (bytes) is within
/// `opts.osc52_limit`; over it, [`Delivered::AskFirst`] when `can_ask` (the TUI), else a
/// file (the CLI, which cannot ask); a file when no terminal takes OSC 52. [`Route::Osc52`]:
/// OSC 52 whatever the size. [`Route::File`]: a new file. Every file is new, named with
/// extension `ext`, in `opts.fallback_dir`. Errors: only when no file can be written
/// ([`crate::error::Error::Io`]).
pub fn deliver(
    text: &str,
    ext: &str,
    route: Route,
    can_ask: bool,
    opts: &CopyOptions,
) -> crate::error::Result<Delivered> {
    let without_native = CopyOptions {
        native: false,
        ..opts.clone()
    };
    let outcome = match route {
        Route::Auto => {
            if copy_native(text, opts).is_ok() {
                CopyOutcome::Copied
            } else if can_ask && opts.osc52 && text.len() > opts.osc52_limit {
                return Ok(Delivered::AskFirst);
            } else {
                copy_with_ext(text, &without_native, ext)?
            }
        }
        Route::Osc52 => copy_with_ext(
            text,
            &CopyOptions {
                oversize_to_file: false,
                ..without_native
            },
            ext,
        )?,
        Route::File => {
            CopyOutcome::Saved(save_to_file_as(text, opts.fallback_dir.as_deref(), ext)?)
        }
    };
    Ok(Delivered::Done(outcome))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Options with no system clipboard and no OSC 52, saving into `dir`.
    fn files_only(dir: &std::path::Path) -> CopyOptions {
        CopyOptions {
            native: false,
            osc52: false,
            fallback_dir: Some(dir.to_path_buf()),
            ..CopyOptions::default()
        }
    }

    #[test]
    fn an_oversized_text_asks_first_only_where_a_caller_can_ask() {
        let dir = tempfile::tempdir().unwrap();
        let opts = CopyOptions {
            osc52: true,
            osc52_limit: 10,
            ..files_only(dir.path())
        };
        let big = "x".repeat(11);
        assert_eq!(
            deliver(&big, "md", Route::Auto, true, &opts).unwrap(),
            Delivered::AskFirst
        );
        // The CLI cannot ask: a file (no terminal here takes OSC 52 either).
        let Delivered::Done(CopyOutcome::Saved(p)) =
            deliver(&big, "md", Route::Auto, false, &opts).unwrap()
        else {
            panic!("not saved")
        };
        assert_eq!(std::fs::read_to_string(p).unwrap(), big);
        // The question is about OSC 52: with it off, a big text goes to a file unasked.
        let got = deliver(&big, "md", Route::Auto, true, &files_only(dir.path())).unwrap();
        assert!(
            matches!(got, Delivered::Done(CopyOutcome::Saved(_))),
            "{got:?}"
        );
    }

    #[test]
    fn the_file_route_keeps_the_extension() {
        let dir = tempfile::tempdir().unwrap();
        let got = deliver("{}", "json", Route::File, true, &files_only(dir.path())).unwrap();
        let Delivered::Done(CopyOutcome::Saved(p)) = got else {
            panic!("not saved: {got:?}")
        };
        assert_eq!(p.extension().and_then(|e| e.to_str()), Some("json"));
        assert_eq!(std::fs::read_to_string(p).unwrap(), "{}");
    }
}
