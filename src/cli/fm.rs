//! `skillnav fm get|set|unset`: frontmatter reads and lossless edits from scripts.

use std::io::{IsTerminal, Write};

use super::args::FmOp;
use crate::frontmatter::{self, DiffKind, GetMode, SetReport};
use crate::util::sanitize::{json_safe, sanitize, sanitize_line};

/// Run one `fm` operation; edits print their diff (`-N old` / `+N new` lines).
pub fn run(out: &mut dyn Write, op: FmOp) -> anyhow::Result<()> {
    match op {
        FmOp::Get {
            file,
            key,
            json,
            raw,
        } => {
            let mode = if json {
                GetMode::Json
            } else if raw {
                GetMode::Raw
            } else {
                GetMode::Text
            };
            let v = frontmatter::fm_get(&file, &key, mode)?;
            let terminal = std::io::stdout().is_terminal();
            writeln!(out, "{}", shown_value(&v, mode, terminal))?;
        }
        FmOp::Set { file, key, value } => report(out, &frontmatter::fm_set(&file, &key, &value)?)?,
        FmOp::Unset { file, key } => report(out, &frontmatter::fm_unset(&file, &key)?)?,
    }
    Ok(())
}

/// A value as `fm get` prints it: JSON with DEL, C1 and bidirectional controls escaped
/// (`\u202e`: the same JSON value); text and raw values sanitised on a terminal (ESC as
/// `␛`, docs/DESIGN.md §9 "Never trust content") and exact when piped, like `show`.
/// Trailing line breaks are dropped (`println` adds one).
pub fn shown_value(v: &str, mode: GetMode, terminal: bool) -> String {
    let v = v.trim_end_matches('\n');
    match mode {
        GetMode::Json => json_safe(v).into_owned(),
        _ if terminal => sanitize(v).into_owned(),
        _ => v.to_string(),
    }
}

fn report(out: &mut dyn Write, r: &SetReport) -> anyhow::Result<()> {
    if r.save.is_none() {
        eprintln!(
            "{}: unchanged",
            sanitize_line(&r.path.display().to_string())
        );
        return Ok(());
    }
    for d in &r.diff {
        let sign = if d.kind == DiffKind::Removed {
            '-'
        } else {
            '+'
        };
        writeln!(out, "{sign}{:>4} {}", d.line, sanitize_line(&d.text))?;
    }
    if !r.repaired.is_empty() {
        let lines: Vec<String> = r.repaired.iter().map(u32::to_string).collect();
        eprintln!(
            "quoted values on line(s) {} so the frontmatter is valid YAML",
            lines.join(", ")
        );
    }
    eprintln!("{}: saved", sanitize_line(&r.path.display().to_string()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `description: "\e[2J\e]0;title\a\u202Eevil"` decoded by `fm get`.
    const DECODED: &str = "\u{1b}[2J\u{1b}]0;title\u{7}\u{202E}evil\n";

    #[test]
    fn fm_get_on_a_terminal_shows_esc_osc_and_bidi_override_as_stand_ins() {
        assert_eq!(
            shown_value(DECODED, GetMode::Text, true),
            "␛[2J␛]0;title␇\u{FFFD}evil"
        );
        assert_eq!(
            shown_value(DECODED, GetMode::Raw, true),
            "␛[2J␛]0;title␇\u{FFFD}evil"
        );
        // Piped, the value is exact (like `show`).
        assert_eq!(
            shown_value(DECODED, GetMode::Text, false),
            DECODED.trim_end()
        );
    }

    #[test]
    fn fm_get_json_escapes_the_bidi_override_and_keeps_the_value() {
        let json = serde_json::Value::String(DECODED.trim_end().into()).to_string();
        let shown = shown_value(&json, GetMode::Json, false);
        assert_eq!(shown, "\"\\u001b[2J\\u001b]0;title\\u0007\\u202eevil\"");
        let back: String = serde_json::from_str(&shown).unwrap_or_default();
        assert_eq!(back, DECODED.trim_end());
    }
}
