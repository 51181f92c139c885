//! Command-line interface (docs/DESIGN.md §7): clap definitions ([`args`]) and one module per
//! subcommand. Exit codes: 0 ok, 1 findings (`validate`), 2 usage or I/O error with a
//! one-line message on stderr — never a panic trace.

pub mod args;
mod brief;
mod cache;
mod collisions;
mod deliver;
mod doctree;
mod eval;
mod export;
mod fm;
mod install_skill;
mod json_out;
mod mcp;
mod model;
mod open;
mod recipe;
mod render;
mod search;
mod shell;
mod show;
mod skills;
mod tree;
pub mod tree_json;
mod triggers;

use std::io::Write;

use clap::Parser;

use crate::tokens::{TokenCounter, TokenTable};
use args::{Cli, Command, DoctreeOp};

/// Run the command line; returns the exit code (0 ok, 1 findings, 2 usage or I/O error).
/// Without a subcommand it opens the TUI through `launch`.
pub fn main(launch: TuiLauncher<'_>) -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return 0;
            }
            eprintln!("skillnav: {}", one_line(&e.render().to_string()));
            return 2;
        }
    };
    // Counts persist across calls (docs/DESIGN.md §4); written once the command is done.
    crate::tokens::cache::enable_disk();
    // So do the re-ranker's section vectors (docs/DESIGN.md §3 "Re-rank").
    crate::rerank::enable_disk();
    // And searches' corpora and indexes (docs/DESIGN.md §8 "Persisted index").
    if !cli.global.no_index_cache {
        crate::store::enable_disk();
    }
    let result = run(cli, launch);
    crate::tokens::cache::flush();
    crate::rerank::flush();
    match result {
        Ok(code) => code,
        // A closed pipe (`skillnav tree | head`) is not an error.
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            // Messages quote keys, values and paths from the user or the document
            // (docs/DESIGN.md §9 "Never trust content").
            eprintln!(
                "skillnav: {}",
                crate::util::sanitize::sanitize_line(&chain_line(&e))
            );
            2
        }
    }
}

/// Start loading the BPE tables on a background thread for a command that will count, so
/// the load overlaps walking and parsing the tree: always for `brief` and `export` (their
/// texts are counted uncached), for `tree` and `show` only when the count cache holds no
/// counts in this encoding yet (a warm call then never loads the tables).
fn prefetch_tables(command: Option<&Command>, counter: TokenCounter) {
    match command {
        Some(Command::Brief(_) | Command::Export(_)) => counter.prefetch(),
        Some(Command::Tree { .. } | Command::Show { variant: None, .. }) => {
            counter.prefetch_if_cold();
        }
        _ => {}
    }
}

/// The re-rank tier for finished queries under `semantic` (docs/DESIGN.md §3 "Re-rank"),
/// loaded before any root is opened. Without a model, search stays lexical and, when `hint`,
/// stderr says once how to install one ([`crate::rerank::HINT`]); a model that does not load
/// is a warning on stderr, and search stays lexical too.
fn rerank_tier(
    semantic: crate::config::Semantic,
    hint: bool,
) -> Option<std::sync::Arc<dyn crate::index::Rerank>> {
    let settings = crate::config::load().0.search;
    let tier = crate::rerank::tier(&settings, semantic);
    if let Some(note) = tier.notice()
        && (hint || !matches!(tier, crate::rerank::Tier::NoModel))
    {
        eprintln!("skillnav: {note}");
    }
    tier.ready()
}

fn run(cli: Cli, launch: TuiLauncher<'_>) -> anyhow::Result<i32> {
    let g = cli.global.clone();
    let counter = TokenCounter::new(g.encoding);
    prefetch_tables(cli.command.as_ref(), counter);
    let stdout = std::io::stdout();
    json_out::set_pretty(g.pretty || std::io::IsTerminal::is_terminal(&stdout));
    let mut out = stdout.lock();
    let result = match cli.command {
        None => return run_tui(cli, launch),
        Some(Command::Tree { paths, depth, json }) => {
            tree_command(&mut out, &open::open(&paths, &g)?, depth, json, counter)
        }
        Some(Command::Search {
            query,
            paths,
            top_k,
            prefix,
            semantic,
            json,
        }) => {
            open::check_locals(&paths)?;
            let opts = search_options(&query, semantic, top_k, prefix, json)?;
            search_command(&mut out, &paths, &g, &query, &opts)
        }
        Some(eval @ Command::Eval { .. }) => return eval_command(&mut out, eval, &g, counter),
        Some(Command::Show {
            id,
            paths,
            variant,
            json,
        }) => show_command(
            &mut out,
            &open::open(&paths, &g)?,
            &id,
            variant,
            json,
            counter,
        ),
        Some(Command::Validate {
            paths,
            profile,
            json,
        }) => return validate_command(&mut out, &paths, &profile, json, &g, counter),
        Some(Command::List {
            paths,
            format,
            max_chars,
            json,
        }) => list_command(&mut out, &paths, &format, max_chars, json, &g),
        Some(Command::Topics { paths }) => skills::topics(&mut out, &open::open(&paths, &g)?),
        Some(Command::Catalog { skill_dir }) => {
            skills::catalog(&mut out, &open::local_path(&skill_dir, &g)?)
        }
        Some(Command::Fm { op }) => fm::run(&mut out, fm_local(op, &g)?),
        Some(Command::Build(b)) => build_command(&mut out, &b),
        Some(Command::Brief(a)) => brief::run(&mut out, &open::open(&a.paths, &g)?, &a, counter),
        Some(Command::Render(a)) => render_command(&mut out, a, &g, counter),
        Some(Command::Export(a)) => {
            export::run_export(&mut out, &open::open(&a.paths, &g)?, &a, counter)
        }
        Some(Command::Doctree { op }) => doctree_command(&mut out, &op),
        Some(Command::Cache { op }) => cache::run(&mut out, &op),
        Some(Command::Model { op }) => model::run(&mut out, &op),
        Some(Command::Recipe { op }) => recipe::run_recipe(&mut out, &op, &|p| open::open(p, &g)),
        Some(Command::Mcp(a)) => {
            drop(out);
            return mcp::run(&a, &g).map(|()| 0);
        }
        Some(Command::InstallSkill { dir, force }) => {
            install_skill::run(&mut out, dir.as_deref(), force)
        }
        Some(Command::Completions { shell }) => shell::completions(&mut out, shell),
        Some(Command::Man { out_dir }) => match out_dir {
            Some(dir) => shell::man_pages(&mut out, &dir),
            None => shell::man(&mut out),
        },
    };
    result?;
    out.flush()?;
    Ok(0)
}

/// `tree`: the outline with token counts, as text or JSON.
fn tree_command(
    out: &mut dyn Write,
    corpus: &crate::model::Corpus,
    depth: Option<usize>,
    json: bool,
    counter: TokenCounter,
) -> anyhow::Result<()> {
    let tokens = TokenTable::count_all(corpus, counter);
    if json {
        tree_json::print_tree_json(out, corpus, &tokens, depth, counter).map_err(Into::into)
    } else {
        tree::print(out, corpus, &tokens, depth, json).map_err(Into::into)
    }
}

/// `search`: open the roots through the persisted index, print the answer, then write the
/// index (docs/DESIGN.md §8 "Persisted index").
fn search_command(
    out: &mut dyn Write,
    paths: &[std::path::PathBuf],
    g: &args::GlobalOpts,
    query: &str,
    opts: &search::CliSearch,
) -> anyhow::Result<()> {
    let mut indexed = open::open_indexed(paths, g)?;
    let done = search::run(out, &indexed, query, opts).and_then(|()| out.flush());
    open::persist(&mut indexed);
    // The process ends after this command: the OS takes the memory back faster than
    // freeing it node by node would.
    std::mem::forget(indexed);
    done.map_err(Into::into)
}

/// `search`'s options, once the query is known to hold words (the MCP tools' rule and
/// message: a blank query is a usage error, not 0 hits) and the re-rank tier is loaded.
fn search_options(
    query: &str,
    semantic: Option<crate::config::Semantic>,
    top_k: usize,
    prefix: bool,
    json: bool,
) -> anyhow::Result<search::CliSearch> {
    crate::agent::limits::check_query_has_words(query)?;
    let semantic = args::semantic_or_setting(semantic);
    let rerank = rerank_tier(semantic, true);
    Ok(search::CliSearch {
        top_k,
        prefix,
        semantic: semantic.table(),
        rerank,
        json,
    })
}

/// `eval`: the trigger check (`--triggers`), or recall over a question file; its exit code.
fn eval_command(
    out: &mut dyn Write,
    eval: Command,
    g: &args::GlobalOpts,
    counter: TokenCounter,
) -> anyhow::Result<i32> {
    match eval {
        Command::Eval {
            questions,
            paths,
            triggers: true,
            queries,
            min_recall,
            semantic,
            json,
            ..
        } => {
            let semantic = args::semantic_or_setting(semantic);
            let rerank = rerank_tier(semantic, false);
            let roots: Vec<std::path::PathBuf> = questions.into_iter().chain(paths).collect();
            let req = triggers::TriggerRequest {
                roots: &roots,
                queries: queries.as_deref(),
                min_recall,
                rerank,
                table: semantic != crate::config::Semantic::Off,
                json,
            };
            triggers::run(out, &req, g)
        }
        Command::Eval {
            questions: Some(questions),
            paths,
            base,
            max_tokens,
            semantic,
            policies,
            top_k,
            json,
            ..
        } => {
            let semantic = args::semantic_or_setting(semantic);
            let rerank = rerank_tier(semantic, false);
            let req = eval::EvalRequest {
                file: &questions,
                paths: &paths,
                base: base.as_deref(),
                max_tokens,
                semantic: semantic.table(),
                rerank,
                policies: policies.then_some(top_k),
                json,
            };
            eval::run(out, &req, g, counter)
        }
        _ => anyhow::bail!("eval needs a question file (or --triggers)"),
    }
}

/// `show`: one section (or one of its variants) by id.
fn show_command(
    out: &mut dyn Write,
    corpus: &crate::model::Corpus,
    id: &str,
    variant: Option<args::Variant>,
    json: bool,
    counter: TokenCounter,
) -> anyhow::Result<()> {
    if let Some(v) = variant {
        show::run_variant(out, corpus, id, v, json)
    } else {
        let tokens = TokenTable::count_all(corpus, counter);
        show::run(out, corpus, &tokens, id, json)
    }
}

/// `validate`: the skills' lint findings under a profile (a client's name opens the tree as
/// that client sees it); its exit code.
fn validate_command(
    out: &mut dyn Write,
    paths: &[std::path::PathBuf],
    profile: &str,
    json: bool,
    g: &args::GlobalOpts,
    counter: TokenCounter,
) -> anyhow::Result<i32> {
    let corpus = open::open_skills(paths, g)?;
    let code = skills::validate(
        out,
        &corpus,
        paths,
        profile,
        g.context_tokens,
        counter,
        json,
    )?;
    out.flush().ok();
    Ok(code)
}

/// `list`: the skills' listing, in a client's own layout and budget under `--agent`.
fn list_command(
    out: &mut dyn Write,
    paths: &[std::path::PathBuf],
    format: &str,
    max_chars: Option<usize>,
    json: bool,
    g: &args::GlobalOpts,
) -> anyhow::Result<()> {
    match g
        .agent
        .as_deref()
        .and_then(crate::skill::clients::Client::parse)
    {
        Some(_) if max_chars.is_some() || format != "plain" => anyhow::bail!(
            "list --agent prints the listing in the client's own layout and budget: \
             drop --format and --max-chars (or --agent)"
        ),
        Some(client) => {
            let corpus = open::open_for_agent(paths, g)?;
            skills::list_client(out, &corpus, client, g.context_tokens, json)
        }
        None if json => anyhow::bail!("list --json needs --agent"),
        None => skills::list(out, &open::open(paths, g)?, format, max_chars),
    }
}

/// `build`: a lazytools bundle from the flags; prints the bundle's folder.
fn build_command(out: &mut dyn Write, b: &args::BuildArgs) -> anyhow::Result<()> {
    let mut opts = crate::formats::lazytools::write::BuildOptions::new(b.name.clone());
    opts.description = b.description.clone();
    opts.chunk_size = b.chunk_size;
    opts.overlap = b.overlap;
    if !b.extensions.is_empty() {
        opts.extensions = b
            .extensions
            .iter()
            .map(|e| {
                if e.starts_with('.') {
                    e.to_lowercase()
                } else {
                    format!(".{}", e.to_lowercase())
                }
            })
            .collect();
    }
    opts.copy_sources = b.copy_sources;
    opts.usage_notes = b.usage_notes.clone();
    opts.force = b.force;
    let dir = crate::formats::lazytools::write::build_bundle(&b.dirs, &b.output, &opts)?;
    writeln!(out, "{}", dir.display()).map_err(anyhow::Error::from)
}

/// `render`: the skill folders (a URL or a SKILL.md path names its folder) rendered.
fn render_command(
    out: &mut dyn Write,
    mut a: args::RenderArgs,
    g: &args::GlobalOpts,
    counter: TokenCounter,
) -> anyhow::Result<()> {
    for d in &mut a.skill_dirs {
        *d = open::local_path(d, g)?;
        // A URL names the SKILL.md itself: render its folder.
        if d.is_file()
            && let Some(parent) = d.parent().filter(|_| d.ends_with("SKILL.md"))
        {
            *d = parent.to_path_buf();
        }
    }
    render::run(out, &a, counter)
}

/// `doctree`: collapse or merge a local doc tree (refused on a remote or read-only one,
/// unless a dry run).
fn doctree_command(out: &mut dyn Write, op: &DoctreeOp) -> anyhow::Result<()> {
    let (DoctreeOp::Collapse { dir, dry_run } | DoctreeOp::Merge { dir, dry_run, .. }) = op;
    open::refuse_remote(dir, "doctree")?;
    if let Some(reason) = crate::remote::cache::read_only_reason(dir).filter(|_| !*dry_run) {
        anyhow::bail!("{reason}");
    }
    doctree::run(out, op)
}

/// clap's error as one line: its first line, plus the next one when the first ends in `:`
/// (e.g. "the following required arguments were not provided: <QUERY>").
fn one_line(msg: &str) -> String {
    let mut lines = msg.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines
        .next()
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ");
    match lines.next() {
        Some(next) if first.ends_with(':') && !next.starts_with("Usage:") => {
            format!("{first} {next}")
        }
        _ => first.to_string(),
    }
}

/// The error and its causes on one line, each cause once (a cause whose text the message
/// already ends with is not repeated: `path: reason`, not `path: reason: reason`).
fn chain_line(e: &anyhow::Error) -> String {
    let mut msg = String::new();
    for cause in e.chain() {
        let text = cause.to_string().replace('\n', " ");
        if msg.ends_with(&text) {
            continue;
        }
        if !msg.is_empty() {
            msg.push_str(": ");
        }
        msg.push_str(&text);
    }
    msg
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>()
                .is_some_and(|e| e.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
    })
}

/// What the TUI is started with when no subcommand is given: the roots to open and the
/// options of the command line. The binary ([`main`]'s caller) starts the TUI from it, so
/// the CLI does not depend on the terminal code.
#[derive(Debug)]
pub struct TuiRequest {
    /// The roots to open (the default skill folders or the sample when no PATH was given).
    pub specs: Vec<crate::formats::RootSpec>,
    /// Linked pages of remote llms.txt roots, fetched while the TUI shows the index.
    pub pending: Vec<crate::remote::Pending>,
    /// Token encoding of every size.
    pub encoding: crate::tokens::Encoding,
    /// Loader options (`--first-wins`, `--follow-links`, `--namespace`).
    pub load: crate::formats::LoadOptions,
    /// `--theme`: `dark`, `light` or a theme TOML path.
    pub theme: Option<String>,
    /// `--recipe`: a recipe file to load (and save back to), or the name of a stored one.
    pub recipe: Option<RecipeRef>,
}

/// A `--recipe` argument: a file path or the name of a recipe in the user data folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecipeRef {
    /// A recipe file.
    File(std::path::PathBuf),
    /// A recipe name in the default store.
    Name(String),
}

/// Starts the TUI for a [`TuiRequest`]; errors are reported like a subcommand's (exit 2).
pub type TuiLauncher<'a> = &'a dyn Fn(TuiRequest) -> anyhow::Result<()>;

/// `fm get` reads a remote file from the cache; `fm set` and `fm unset` refuse one.
fn fm_local(op: args::FmOp, g: &args::GlobalOpts) -> anyhow::Result<args::FmOp> {
    use args::FmOp;
    Ok(match op {
        FmOp::Get {
            file,
            key,
            json,
            raw,
        } => FmOp::Get {
            file: open::local_path(&file, g)?,
            key,
            json,
            raw,
        },
        FmOp::Set { file, key, value } => {
            open::refuse_remote(&file, "fm set")?;
            FmOp::Set { file, key, value }
        }
        FmOp::Unset { file, key } => {
            open::refuse_remote(&file, "fm unset")?;
            FmOp::Unset { file, key }
        }
    })
}

fn run_tui(cli: Cli, launch: TuiLauncher<'_>) -> anyhow::Result<i32> {
    let roots = open::roots_for(&cli.paths, cli.sample, &cli.global)?;
    let request = TuiRequest {
        specs: roots.specs,
        pending: roots.pending,
        encoding: cli.global.encoding,
        load: open::load_options(&cli.global),
        theme: cli.theme.clone(),
        recipe: cli.recipe.clone().map(|r| {
            if recipe::is_file_ref(&r) {
                RecipeRef::File(std::path::PathBuf::from(r))
            } else {
                RecipeRef::Name(r)
            }
        }),
    };
    launch(request)?;
    Ok(0)
}
