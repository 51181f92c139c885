//! Where a command's text goes: printed (sanitised on a terminal, as is to a pipe or file,
//! docs/DESIGN.md §7), written to `-o FILE`, or copied by the one clipboard policy
//! ([`crate::clipboard::deliver`], with the `[clipboard]` settings). `brief` and `render`
//! deliver through here.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::Context;

use crate::clipboard::{Delivered, Route};
use crate::tokens::TokenCounter;
use crate::util::sanitize::sanitize;

/// How to deliver a text.
#[derive(Clone, Copy, Debug)]
pub struct Delivery<'a> {
    /// Write the text to this file (`-o`); stderr says where, with its size.
    pub output: Option<&'a Path>,
    /// Copy the text (`--copy`); stderr says where it went.
    pub copy: bool,
    /// Extension of the file a copy falls back to (`md`, `xml`, `json`).
    pub ext: &'a str,
}

/// Print, write (`-o`) or copy (`--copy`) `text`, whose size is given in `tokens` of
/// `counter`'s encoding; printed only when neither is asked. Errors: the output file or,
/// for a copy, every fallback file cannot be written.
pub fn deliver(
    out: &mut dyn Write,
    text: &str,
    tokens: u64,
    counter: TokenCounter,
    how: &Delivery<'_>,
) -> anyhow::Result<()> {
    let bytes = text.len() as u64;
    if let Some(path) = how.output {
        std::fs::write(path, text).with_context(|| format!("{}", path.display()))?;
        eprintln!(
            "Wrote {} · {bytes} bytes · {tokens} tokens ({})",
            path.display(),
            counter.encoding()
        );
    }
    if how.copy {
        let opts = crate::config::load().0.clipboard.copy_options();
        // The command line cannot ask before an oversized OSC 52 send: the policy saves a
        // file instead.
        if let Delivered::Done(outcome) =
            crate::clipboard::deliver(text, how.ext, Route::Auto, false, &opts)?
        {
            eprintln!(
                "{}",
                crate::clipboard::status_line_with_limit(
                    &outcome,
                    bytes,
                    tokens,
                    counter.encoding(),
                    opts.osc52_limit
                )
            );
        }
    }
    if how.output.is_none() && !how.copy {
        if std::io::stdout().is_terminal() {
            write!(out, "{}", sanitize(text))?;
        } else {
            write!(out, "{text}")?;
        }
    }
    Ok(())
}
