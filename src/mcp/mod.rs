//! `skillnav mcp`: a stdio MCP server (rmcp, the official Rust SDK) over the core's agent
//! requests ([`crate::agent`]). This module is transport glue only: it parses tool
//! arguments (with their aliases), calls the core, and wraps results and errors in MCP
//! types. Rules (exposure levels, caps, packing, briefs) live in the core.
//!
//! Module map: [`server`] (the `ServerHandler`: capabilities, instructions, dispatch),
//! [`state`] (the shared workspace, reload on change, background token counts), [`watch`]
//! (the `notify` file watcher), [`args`] (argument parsing and aliases), [`tools`] (one
//! file per tool), [`skills`] (SEP-2640 `skills/list`, `skills/get`), [`resources`]
//! (`skill://` files and `skillnav://` sections), [`prompts`] (saved recipes), [`transport`]
//! (standard input and output a line at a time, with JSON-RPC's errors for malformed input).

pub mod args;
pub mod prompts;
pub mod resources;
pub mod server;
pub mod skills;
pub mod state;
pub mod tools;
pub mod transport;
pub mod watch;

use crate::agent::workspace::WorkspaceConfig;

/// Serve `config` on standard input and output until the client closes standard input (or
/// sends no more requests). Errors: the runtime or the transport cannot start.
pub fn run(config: WorkspaceConfig) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let state = state::State::open(config);
        let _watcher = watch::watch(&state);
        server::serve_stdio(state).await
    })
}
