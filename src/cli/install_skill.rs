//! `skillnav install-skill [DIR]`: write the `skillnav` agent skill into a skills folder.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Install into `dir` (default `~/.claude/skills`) and print the SKILL.md path.
pub fn run(out: &mut dyn Write, dir: Option<&Path>, force: bool) -> anyhow::Result<()> {
    let dir = match dir {
        Some(d) => d.to_path_buf(),
        None => directories::BaseDirs::new()
            .context("no home folder: pass DIR")?
            .home_dir()
            .join(".claude/skills"),
    };
    let path = crate::assets::install_agent_skill(&dir, force)?;
    writeln!(out, "{}", path.display())?;
    Ok(())
}
