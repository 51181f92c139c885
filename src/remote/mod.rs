//! Remote sources (docs/REMOTE.md): `http(s)://` URLs of llms.txt files and Markdown pages,
//! and GitHub repositories (`github:OWNER/REPO[@REF][/PATH]`), fetched into a read-only
//! cache and opened from there like local folders.
//!
//! Owns: parsing a PATH argument ([`source`]), the HTTP client ([`http`]), the cache
//! ([`cache`]), safe archive unpacking ([`archive`]), and the two fetchers ([`github`],
//! [`site`], whose linked pages come back as a [`site::PagePlan`] a front end runs in the
//! background or waits for). No terminal, no corpus: the result is a local path and a label.

pub mod archive;
pub mod cache;
mod ctx;
pub mod error;
pub mod github;
pub mod http;
pub mod site;
pub mod source;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use cache::{Cache, read_only_reason};
use ctx::Ctx;
pub use error::RemoteError;
pub use site::{PagePlan, PageReport};
pub use source::{Source, parse};

/// How remote sources are opened (the `--offline`, `--no-follow`, `--max-download-mb` and
/// `--timeout` flags).
#[derive(Clone, Debug)]
pub struct Options {
    /// Use only the cache; never touch the network.
    pub offline: bool,
    /// Fetch the pages an llms.txt links to on its own site.
    pub follow: bool,
    /// Largest response accepted, in bytes (an archive may unpack to 4× this).
    pub cap_bytes: u64,
    /// Longest wait to connect or for a response to start.
    pub timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            offline: false,
            follow: true,
            cap_bytes: http::DEFAULT_CAP_BYTES,
            timeout: Duration::from_secs(http::DEFAULT_TIMEOUT_SECS),
        }
    }
}

/// A remote source, ready to load.
pub struct Opened {
    /// The local folder (or file) to load: inside the cache, read-only.
    pub path: PathBuf,
    /// The file a URL names, inside `path` (`None` for a repository, whose `path` is the
    /// folder asked for).
    pub file: Option<PathBuf>,
    /// The root label every node id starts with ([`Source::label`]).
    pub label: String,
    /// What a user should know: the cache was used instead of the network, and why.
    pub note: Option<String>,
    /// Linked pages of an llms.txt still to fetch (never when offline or `follow` is off).
    pub pages: Option<PagePlan>,
}

/// The linked pages of one remote root, still to fetch: what a front end runs in the
/// background (TUI, `mcp`) or waits for (CLI subcommands).
pub struct Pending {
    /// Index of the root among the roots opened.
    pub root: usize,
    /// The root's label (`hono.dev`).
    pub label: String,
    /// The fetch to run.
    pub plan: PagePlan,
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending")
            .field("root", &self.root)
            .field("label", &self.label)
            .field("pages", &self.plan.len())
            .finish()
    }
}

/// Open `src` with the user cache. Errors: every [`RemoteError`]; nothing half-written is
/// left in the cache on failure.
pub fn open(src: &Source, opts: &Options) -> Result<Opened, RemoteError> {
    open_in(src, opts, Cache::user()?)
}

/// [`open`] with a given cache folder.
pub fn open_in(src: &Source, opts: &Options, cache: Cache) -> Result<Opened, RemoteError> {
    let ctx = Ctx {
        client: Arc::new(http::Client::new(opts.cap_bytes, opts.timeout)),
        cache,
        offline: opts.offline,
        cap: opts.cap_bytes,
    };
    let (local, pages) = match src {
        Source::Url(u) => site::open(u, &ctx, opts.follow)?,
        Source::GitHub(g) => (github::open(g, &ctx)?, None),
    };
    Ok(Opened {
        path: local.path,
        file: local.file,
        label: local.label,
        note: local.note,
        pages,
    })
}
