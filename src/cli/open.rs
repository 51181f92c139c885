//! Resolve the PATH arguments of a subcommand into a loaded [`Corpus`] (synchronously).

use std::path::PathBuf;

use anyhow::{Context, bail};

use super::args::GlobalOpts;
use crate::formats::{self, LoadOptions, RootSpec};
use crate::model::Corpus;

/// The root specs for `paths`: the given paths (each must exist and be a regular file or
/// a folder: a fifo would block the load, a device never end), else the discovered
/// skill roots (only the folders `agent` reads, when given), else the bundled sample skill.
pub fn specs_for(
    paths: &[PathBuf],
    sample: bool,
    agent: Option<&str>,
) -> anyhow::Result<Vec<RootSpec>> {
    if sample {
        return sample_spec();
    }
    if paths.is_empty() {
        let cwd = std::env::current_dir().context("current directory")?;
        let found = formats::discover_roots_for(&cwd, agent);
        if found.is_empty() {
            return sample_spec();
        }
        return Ok(found);
    }
    for (i, p) in paths.iter().enumerate() {
        if let Err(e) = std::fs::metadata(p) {
            if let Some(cmd) = (i == 0).then(|| subcommand_like(p)).flatten() {
                bail!(
                    "{}: no such file or directory (did you mean the `{cmd}` subcommand?)",
                    p.display()
                );
            }
            bail!("{}: {}", p.display(), io_reason(&e));
        }
        if std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            bail!(
                "{}: not a regular file or folder (a fifo, socket or device)",
                p.display()
            );
        }
    }
    Ok(formats::root_specs(paths))
}

fn sample_spec() -> anyhow::Result<Vec<RootSpec>> {
    let dir = crate::assets::sample_dir().context("cannot write the sample skill")?;
    Ok(vec![RootSpec {
        path: dir,
        label: "sample".into(),
    }])
}

/// A subcommand name within edit distance 2 of a missing first PATH (`serch` → `search`).
fn subcommand_like(p: &std::path::Path) -> Option<String> {
    use clap::CommandFactory;
    let word = p.to_str().filter(|w| !w.contains('/') && w.len() >= 3)?;
    super::args::Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter_map(|n| crate::index::distance::within(word, &n, 2).map(|d| (d, n)))
        .min()
        .map(|(_, n)| n)
}

/// Short reason of an I/O error, without the "(os error N)" suffix.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Load options from the global flags.
pub fn load_options(g: &GlobalOpts) -> LoadOptions {
    LoadOptions {
        follow_links: g.follow_links,
        first_wins: g.first_wins,
        namespace: g.namespace,
        precedence: g
            .precedence
            .as_deref()
            .and_then(formats::Precedence::parse)
            .unwrap_or_default(),
        agent: g.agent.clone(),
    }
}

/// Load every spec into one corpus ([`crate::agent::workspace::load_corpus`]).
pub fn load(specs: &[RootSpec], g: &GlobalOpts) -> Corpus {
    crate::agent::workspace::load_corpus(specs, &load_options(g))
}

/// [`specs_for`] then [`load`]. Discovered roots (no PATH) also get the provenance of `skills-lock.json`
/// ([`formats::agents::mark_provenance`]).
pub fn open(paths: &[PathBuf], g: &GlobalOpts) -> anyhow::Result<Corpus> {
    let specs = specs_for(paths, false, g.agent.as_deref())?;
    let mut corpus = load(&specs, g);
    if paths.is_empty() {
        let cwd = std::env::current_dir().context("current directory")?;
        let sources = formats::agents::lock_sources(&cwd, formats::agents::home_dir().as_deref());
        formats::agents::mark_provenance(&mut corpus, &sources);
    }
    Ok(corpus)
}
