//! `skillnav mcp`: an MCP server (rmcp, the official Rust SDK) on standard input and output,
//! or on streamable HTTP with `--http`, over the core's agent requests ([`crate::agent`]).
//! This module is transport glue only: it parses tool arguments (with their aliases), calls
//! the core, and wraps results and errors in MCP types. Rules (exposure levels, caps,
//! packing, briefs) live in the core.
//!
//! Module map: [`server`] (the `ServerHandler`: capabilities, instructions, dispatch),
//! [`state`] (the shared workspace, reload on change, background token counts), [`watch`]
//! (the `notify` file watcher), [`changes`] (debounced list-changed notifications), [`args`] (argument parsing and aliases), [`tools`] (one
//! file per tool), [`skills`] (SEP-2640 `skills/list`, `skills/get`), [`resources`]
//! (`skill://` files and `skillnav://` sections), [`prompts`] (saved recipes), [`transport`]
//! (standard input and output a line at a time, with JSON-RPC's errors for malformed input),
//! [`http`] (streamable HTTP: the listener, the bearer token, shutdown on a signal).

pub mod args;
pub mod changes;
pub mod http;
mod http_body;
pub mod prompts;
pub mod resources;
pub mod server;
pub mod skills;
pub mod stale;
pub mod state;
pub mod tools;
pub mod transport;
pub mod watch;

use crate::agent::workspace::WorkspaceConfig;

/// Serve `config` on standard input and output until the client closes standard input (or
/// sends no more requests), or with `http_opts` on streamable HTTP until Ctrl-C or SIGTERM
/// ([`http::serve_http`]; one runtime thread per core there, for concurrent clients). The
/// roots load while the server already answers; `initialize` waits for the load at most
/// `init_wait` (`None`: until it is done) before it answers ([`state::State`]).
/// Errors: the runtime or the transport cannot start (an address that cannot be bound, a
/// non-loopback address without a token).
pub fn run(
    config: WorkspaceConfig,
    pending: Vec<crate::remote::Pending>,
    http_opts: Option<http::HttpOptions>,
    init_wait: Option<std::time::Duration>,
) -> anyhow::Result<()> {
    let rt = match http_opts {
        Some(_) => tokio::runtime::Builder::new_multi_thread(),
        None => tokio::runtime::Builder::new_current_thread(),
    }
    .enable_all()
    .build()?;
    rt.block_on(async move {
        let roots = config.watched_paths();
        let recipes = config.recipes_dir.clone();
        let state = state::State::open(config, init_wait);
        watch_then_fetch(&state, roots, recipes, pending);
        match http_opts {
            Some(opts) => http::serve_http(state, opts).await,
            None => server::serve_stdio(state).await,
        }
    })
}

/// Register the file watch on `roots` (and `recipes`), then start [`fetch_pages`], on a
/// thread of its own: a recursive watch takes one registration per folder (1.3 s on 64
/// copies of the KEP tree, about 42,000 folders), and `initialize` must not wait for it. A
/// change made before a folder is registered is still caught when a request reads the
/// file. Inline when no thread can be started.
fn watch_then_fetch(
    state: &std::sync::Arc<state::State>,
    roots: Vec<std::path::PathBuf>,
    recipes: Option<std::path::PathBuf>,
    pending: Vec<crate::remote::Pending>,
) {
    let job = {
        let state = std::sync::Arc::clone(state);
        move || {
            if let Some(w) = watch::watch(&state, &roots, recipes.as_deref()) {
                state.keep_watcher(w);
            }
            fetch_pages(&state, pending);
        }
    };
    run_on_thread("mcp-watch", job);
}

/// Run `job` on a new thread named `name`, or on this one when no thread can be started.
pub(crate) fn run_on_thread(name: &str, job: impl FnOnce() + Send + 'static) {
    let slot = std::sync::Arc::new(std::sync::Mutex::new(Some(job)));
    let taken = std::sync::Arc::clone(&slot);
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || take(&taken).map(|job| job()));
    if spawned.is_err()
        && let Some(job) = take(&slot)
    {
        job();
    }
}

/// The value in `slot`, taken out (a poisoned lock taken as it is).
fn take<T>(slot: &std::sync::Mutex<Option<T>>) -> Option<T> {
    match slot.lock() {
        Ok(mut g) => g.take(),
        Err(p) => p.into_inner().take(),
    }
}

/// Fetch the linked pages of remote llms.txt roots on threads while the server answers
/// (docs/REMOTE.md "URLs"). Started once the watcher runs, so every page that lands is seen;
/// when a root's pages are all in, the next request reloads. The summary goes to stderr.
fn fetch_pages(state: &std::sync::Arc<state::State>, pending: Vec<crate::remote::Pending>) {
    for p in pending {
        let weak = std::sync::Arc::downgrade(state);
        let _ = std::thread::Builder::new()
            .name("remote-pages".into())
            .spawn(move || {
                let report = p.plan.run(&|_, _| {});
                eprintln!(
                    "{}: {}",
                    crate::util::sanitize::sanitize_line(&p.label),
                    crate::util::sanitize::sanitize_line(&report.summary())
                );
                if let Some(s) = weak.upgrade() {
                    s.mark_changed();
                }
            });
    }
}
