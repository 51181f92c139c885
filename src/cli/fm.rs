//! `skillnav fm get|set|unset`: frontmatter reads and lossless edits from scripts.

use std::io::Write;

use super::args::FmOp;
use crate::frontmatter::{self, DiffKind, GetMode, SetReport};
use crate::util::sanitize::sanitize_line;

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
            writeln!(out, "{}", v.trim_end_matches('\n'))?;
        }
        FmOp::Set { file, key, value } => report(out, &frontmatter::fm_set(&file, &key, &value)?)?,
        FmOp::Unset { file, key } => report(out, &frontmatter::fm_unset(&file, &key)?)?,
    }
    Ok(())
}

fn report(out: &mut dyn Write, r: &SetReport) -> anyhow::Result<()> {
    if r.save.is_none() {
        eprintln!("{}: unchanged", r.path.display());
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
    eprintln!("{}: saved", r.path.display());
    Ok(())
}
