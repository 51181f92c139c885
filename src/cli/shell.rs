//! `skillnav completions SHELL` and `skillnav man`: the completion script and the roff man
//! page, both generated from the clap definitions in [`super::args`], so they always list
//! the flags and subcommands this build has.

use std::io::Write;

use clap::CommandFactory;

use super::args::Cli;

/// Write the completion script of `shell` to `out`.
///
/// # Errors
/// Writing to `out` failed.
pub fn completions(out: &mut impl Write, shell: clap_complete::Shell) -> anyhow::Result<()> {
    let mut cmd = Cli::command();
    // Generated into memory first: clap_complete panics on a failed write, and a closed
    // pipe (`skillnav completions bash | head`) must stay a quiet exit.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "skillnav", &mut script);
    out.write_all(&script)?;
    Ok(())
}

/// Write the man page (section 1, roff) to `out`: name, synopsis, description, the options,
/// a `SUBCOMMANDS` section with one line per subcommand (naming its own page,
/// `skillnav-CMD(1)`, which [`man_pages`] writes), extra notes and the version.
///
/// # Errors
/// Writing to `out` failed.
pub fn man(out: &mut impl Write) -> anyhow::Result<()> {
    // `help` gets no page of its own (`generate_to` drops it too), so it isn't listed.
    let cmd = Cli::command().disable_help_subcommand(true);
    clap_mangen::Man::new(cmd).render(out)?;
    Ok(())
}

/// Write every man page into `dir` (created when missing): `skillnav.1` and one
/// `skillnav-CMD.1` per visible subcommand, nested ones included; then list the written
/// paths on `out`, one per line.
///
/// # Errors
/// The folder cannot be created or a page cannot be written.
pub fn man_pages(out: &mut impl Write, dir: &std::path::Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    // Each subcommand page's footer carries the same version line as the main page.
    clap_mangen::generate_to(Cli::command().propagate_version(true), dir)
        .map_err(|e| anyhow::anyhow!("cannot write man pages into {}: {e}", dir.display()))?;
    let mut pages: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "1"))
        .collect();
    pages.sort();
    for p in pages {
        writeln!(out, "{}", p.display())?;
    }
    Ok(())
}
