//! Resolve the PATH arguments of a subcommand into a loaded [`Corpus`] (synchronously).

use std::path::PathBuf;

use std::io::IsTerminal;

use anyhow::{Context, bail};

use super::args::GlobalOpts;
use crate::formats::{self, LoadOptions, RootSpec};
use crate::model::Corpus;
use crate::remote;
use crate::util::sanitize::sanitize_line;

/// The roots of a command line, and the linked pages of remote llms.txt roots still to fetch
/// (docs/REMOTE.md): the CLI waits for them ([`specs_for`]); the TUI and `mcp` show the
/// index at once and fetch them in the background.
pub struct Roots {
    /// What to load, in argument order.
    pub specs: Vec<RootSpec>,
    /// Pages to fetch, by root.
    pub pending: Vec<remote::Pending>,
}

/// `--max-download-mb` above this (1 TiB) is taken as this.
const MAX_DOWNLOAD_MB: u64 = 1 << 20;

/// `--timeout` above this (a day) is taken as this.
const MAX_TIMEOUT_SECS: u64 = 86_400;

/// The remote-source options of the global flags (each clamped to a usable range: at least
/// 1 MiB and 1 s, at most 1 TiB and a day).
pub fn remote_options(g: &GlobalOpts) -> remote::Options {
    remote::Options {
        offline: g.offline,
        follow: !g.no_follow,
        cap_bytes: g.max_download_mb.clamp(1, MAX_DOWNLOAD_MB) * 1024 * 1024,
        timeout: std::time::Duration::from_secs(g.timeout.clamp(1, MAX_TIMEOUT_SECS)),
    }
}

/// [`roots_for`], then every pending page fetched before returning (progress and a summary on
/// stderr): what a CLI subcommand loads.
pub fn specs_for(paths: &[PathBuf], sample: bool, g: &GlobalOpts) -> anyhow::Result<Vec<RootSpec>> {
    let roots = roots_for(paths, sample, g)?;
    let terminal = std::io::stderr().is_terminal();
    for p in roots.pending {
        let label = sanitize_line(&p.label).into_owned();
        let report = p.plan.run(&|done, total| {
            if terminal {
                eprint!("\r{label}: fetching linked pages {done}/{total}");
            }
        });
        let clear = if terminal { "\r\x1b[2K" } else { "" };
        eprintln!("{clear}{label}: {}", sanitize_line(&report.summary()));
    }
    Ok(roots.specs)
}

/// The roots for `paths`: local paths (each must exist and be a regular file or a folder: a
/// fifo would block the load, a device never end) and remote sources (fetched into the cache,
/// [`remote::open`]); else the discovered skill roots (only the folders `--agent` reads, when
/// given), else the bundled sample skill. Local roots come first, in argument order, then
/// remote ones. Errors: a missing or special path, a remote source that cannot be fetched
/// (and is not cached).
pub fn roots_for(paths: &[PathBuf], sample: bool, g: &GlobalOpts) -> anyhow::Result<Roots> {
    let only = |specs| Roots {
        specs,
        pending: Vec::new(),
    };
    if sample {
        return sample_spec().map(only);
    }
    if paths.is_empty() {
        let cwd = std::env::current_dir().context("current directory")?;
        let found = formats::discover_roots_for(&cwd, g.agent.as_deref());
        if found.is_empty() {
            return sample_spec().map(only);
        }
        return Ok(only(found));
    }
    let mut locals = Vec::new();
    let mut remotes = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        match p.to_str().and_then(remote::parse) {
            Some(Ok(src)) => remotes.push(src),
            Some(Err(e)) => bail!("{e}"),
            None => {
                check_local(i, p)?;
                locals.push(p.clone());
            }
        }
    }
    let mut specs = formats::root_specs(&locals);
    let pending = open_remotes(&remotes, &mut specs, &remote_options(g))?;
    Ok(Roots { specs, pending })
}

/// A single PATH argument as a local path: a remote source is fetched (its linked pages
/// too) and its cached path returned (the file a URL names, or the repository folder); a
/// local path is returned as given. Used by the subcommands that take one file or skill
/// folder (`render`, `fm get`, `catalog`).
pub fn local_path(p: &std::path::Path, g: &GlobalOpts) -> anyhow::Result<PathBuf> {
    match p.to_str().and_then(remote::parse) {
        None => {
            check_local(1, p)?;
            Ok(p.to_path_buf())
        }
        Some(Err(e)) => bail!("{e}"),
        Some(Ok(src)) => {
            let opened = remote::open(&src, &remote_options(g))?;
            if let Some(note) = &opened.note {
                eprintln!("{}", sanitize_line(note));
            }
            if let Some(plan) = opened.pages {
                plan.run(&|_, _| {});
            }
            Ok(opened.file.unwrap_or(opened.path))
        }
    }
}

/// Refuse a remote source where a command writes (`fm set`, `doctree`): remote sources are
/// read-only (docs/REMOTE.md "Read-only").
pub fn refuse_remote(p: &std::path::Path, what: &str) -> anyhow::Result<()> {
    if p.to_str().and_then(remote::parse).is_some() {
        bail!(
            "{}: remote sources are read-only; {what} needs a local copy (`skillnav export` writes one)",
            p.display()
        );
    }
    Ok(())
}

/// [`check_local`] on every local PATH (remote sources are checked when fetched): for a
/// command that does other work before it opens the roots, so a wrong path is its only
/// message. Errors: as [`roots_for`]'s for a missing or special path.
pub fn check_locals(paths: &[PathBuf]) -> anyhow::Result<()> {
    for (i, p) in paths.iter().enumerate() {
        if p.to_str().and_then(remote::parse).is_none() {
            check_local(i, p)?;
        }
    }
    Ok(())
}

fn check_local(i: usize, p: &std::path::Path) -> anyhow::Result<()> {
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
    Ok(())
}

/// Fetch each remote source and append its root to `specs` (labels deduplicated against the
/// local ones); notes ("used the cached copy …") go to stderr.
fn open_remotes(
    sources: &[remote::Source],
    specs: &mut Vec<RootSpec>,
    opts: &remote::Options,
) -> anyhow::Result<Vec<remote::Pending>> {
    let mut taken = crate::model::id::Taken::default();
    for s in specs.iter() {
        crate::model::id::dedupe(&s.label, &mut taken);
    }
    // The same source given twice is opened once.
    let mut seen = std::collections::HashSet::new();
    let sources: Vec<&remote::Source> = sources
        .iter()
        .filter(|s| seen.insert(s.canonical()))
        .collect();
    let mut opened = Vec::new();
    for src in &sources {
        let o = remote::open(src, opts)?;
        if let Some(note) = &o.note {
            eprintln!("{}", sanitize_line(note));
        }
        opened.push(o);
    }
    // Labels are given in sorted source order, as local roots' in sorted real-path order,
    // so a root's ids do not depend on the order of the arguments (docs/REMOTE.md).
    let mut order: Vec<usize> = (0..sources.len()).collect();
    order.sort_by_key(|i| sources[*i].canonical());
    let mut labels = vec![String::new(); sources.len()];
    for i in order {
        labels[i] = crate::model::id::dedupe(&opened[i].label, &mut taken);
    }
    let mut pending = Vec::new();
    for (o, label) in opened.into_iter().zip(labels) {
        if let Some(plan) = o.pages {
            pending.push(remote::Pending {
                root: specs.len(),
                label: label.clone(),
                plan,
            });
        }
        specs.push(RootSpec {
            path: o.path,
            label,
        });
    }
    Ok(pending)
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

/// [`open`] for the commands that report what one agent sees (`list --agent`, `validate
/// --profile`, `eval --triggers`): with no PATH, `--agent` named and none of its folders
/// present, the corpus is empty (that agent lists nothing) instead of the bundled sample.
pub fn open_for_agent(paths: &[PathBuf], g: &GlobalOpts) -> anyhow::Result<Corpus> {
    if g.agent.is_some() && no_skill_folder(paths, g)?.is_some() {
        return Ok(Corpus::new());
    }
    open(paths, g)
}

/// With no PATH, the working directory when no skill folder is found from it (its agents'
/// folders, `--agent`'s when given, and `$HOME`'s); `None` otherwise.
fn no_skill_folder(paths: &[PathBuf], g: &GlobalOpts) -> anyhow::Result<Option<PathBuf>> {
    if !paths.is_empty() {
        return Ok(None);
    }
    let cwd = std::env::current_dir().context("current directory")?;
    let none = formats::discover_roots_for(&cwd, g.agent.as_deref()).is_empty();
    Ok(none.then_some(cwd))
}

/// [`open`] for a command that checks skills (`validate`): with no PATH and no skill folder
/// found from the current directory (its agents' folders, `--agent`'s when given, and
/// `$HOME`'s), an empty corpus and a note on stderr instead of the bundled sample, so a
/// check in a project without skills never passes by checking the sample.
pub fn open_skills(paths: &[PathBuf], g: &GlobalOpts) -> anyhow::Result<Corpus> {
    if let Some(cwd) = no_skill_folder(paths, g)? {
        eprintln!(
            "skillnav: no skill folder found from {} or in $HOME (.claude/skills, .agents/skills, …): pass the folders to check",
            sanitize_line(&cwd.display().to_string())
        );
        return Ok(Corpus::new());
    }
    open(paths, g)
}

/// [`open`] with the roots' BM25 and fuzzy indexes, through the persisted index
/// (docs/DESIGN.md §8 "Persisted index"): its warnings go to stderr. Call
/// [`crate::store::Indexed::save`] (through [`persist`]) once the answer is out.
pub fn open_indexed(paths: &[PathBuf], g: &GlobalOpts) -> anyhow::Result<crate::store::Indexed> {
    let specs = specs_for(paths, false, g)?;
    let req = crate::agent::workspace::index_request(&specs, &load_options(g));
    let mut indexed = crate::store::open(&req, || load(&specs, g));
    for w in &indexed.warnings {
        eprintln!("skillnav: {}", sanitize_line(w));
    }
    if paths.is_empty() {
        let cwd = std::env::current_dir().context("current directory")?;
        let sources = formats::agents::lock_sources(&cwd, formats::agents::home_dir().as_deref());
        formats::agents::mark_provenance(&mut indexed.corpus, &sources);
    }
    Ok(indexed)
}

/// Write the persisted index of `indexed` when it changed; a cache folder that cannot be
/// written is a warning on stderr.
pub fn persist(indexed: &mut crate::store::Indexed) {
    if let Some(w) = indexed.save() {
        eprintln!("skillnav: {}", sanitize_line(&w));
    }
}

/// [`specs_for`] then [`load`]. Discovered roots (no PATH) also get the provenance of `skills-lock.json`
/// ([`formats::agents::mark_provenance`]).
pub fn open(paths: &[PathBuf], g: &GlobalOpts) -> anyhow::Result<Corpus> {
    let specs = specs_for(paths, false, g)?;
    let mut corpus = load(&specs, g);
    if paths.is_empty() {
        let cwd = std::env::current_dir().context("current directory")?;
        let sources = formats::agents::lock_sources(&cwd, formats::agents::home_dir().as_deref());
        formats::agents::mark_provenance(&mut corpus, &sources);
    }
    Ok(corpus)
}
