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
/// a `SUBCOMMANDS` section with one line per subcommand (`skillnav CMD --help` has each
/// one's options), extra notes and the version.
///
/// # Errors
/// Writing to `out` failed.
pub fn man(out: &mut impl Write) -> anyhow::Result<()> {
    let cmd = Cli::command();
    clap_mangen::Man::new(cmd).render(out)?;
    Ok(())
}
