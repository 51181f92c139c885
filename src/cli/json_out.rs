//! How the CLI writes a `--json` document: compact (one line) when stdout is a pipe or a
//! file, indented when it is a terminal or `--pretty` is given. A 19 MB docs tree's
//! `tree --json` is 16.9 MB compact against 37.6 MB indented, and every JSON reader takes
//! either. Each document ends with one newline.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

/// Whether documents are indented (set once by the CLI's entry, before any output).
static PRETTY: AtomicBool = AtomicBool::new(false);

/// Indent every later document when `pretty` (`--pretty`, or stdout is a terminal).
pub fn set_pretty(pretty: bool) {
    PRETTY.store(pretty, Ordering::Relaxed);
}

/// Write `value` as one JSON document and a newline, compact or indented as set.
/// Errors: the writer's, or a value serde cannot write (a map with non-string keys).
pub fn write_json<T: Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    write_json_as(out, value, PRETTY.load(Ordering::Relaxed))
}

/// [`write_json`] with the layout given: indented when `pretty`.
fn write_json_as<T: Serialize + ?Sized>(
    out: &mut dyn Write,
    value: &T,
    pretty: bool,
) -> io::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *out, value)?;
    } else {
        serde_json::to_writer(&mut *out, value)?;
    }
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_is_one_line_and_pretty_is_indented() {
        let v = serde_json::json!({"a": [1, 2]});
        let mut compact = Vec::new();
        write_json_as(&mut compact, &v, false).unwrap();
        assert_eq!(compact, b"{\"a\":[1,2]}\n");
        let mut pretty = Vec::new();
        write_json_as(&mut pretty, &v, true).unwrap();
        assert_eq!(pretty, b"{\n  \"a\": [\n    1,\n    2\n  ]\n}\n");
    }
}
