//! `skillnav mcp`: resolve the roots and options (and for `--http`, the address and the
//! token file), then hand over to the MCP server (`crate::mcp`, feature `mcp`).

use super::args::{GlobalOpts, McpArgs};

/// Serve the roots of `a` until the client closes standard input, or with `--http` until
/// Ctrl-C or SIGTERM. Errors (exit 2): a non-loopback `--http` address without
/// `--token-file`, an unreadable or empty token file, bad roots or limits.
#[cfg(feature = "mcp")]
pub fn run(a: &McpArgs, g: &GlobalOpts) -> anyhow::Result<()> {
    use crate::agent::brief::resolve_recipe;
    use crate::agent::limits::Limits;
    use crate::agent::workspace::WorkspaceConfig;
    use crate::curate::recipe::{Store, default_dir};
    let http = http_options(a)?;
    let roots = super::open::roots_for(&a.paths, false, g)?;
    let specs = roots.specs.clone();
    let recipes_dir = a.recipes.clone().or_else(default_dir);
    let recipe = match &a.recipe {
        Some(r) => Some(resolve_recipe(
            r,
            recipes_dir.clone().map(Store::new).as_ref(),
        )?),
        None => None,
    };
    if a.max_result_tokens == 0 || a.max_result_chars == 0 {
        anyhow::bail!("--max-result-tokens and --max-result-chars must be at least 1");
    }
    let config = WorkspaceConfig {
        specs,
        load: super::open::load_options(g),
        counter: crate::tokens::TokenCounter::new(g.encoding),
        recipe,
        recipes_dir,
        limits: Limits {
            max_tokens: a.max_result_tokens,
            max_chars: a.max_result_chars,
        },
    };
    let init_wait = (!a.wait_for_load).then_some(crate::mcp::state::INIT_WAIT);
    crate::mcp::run(config, roots.pending, http, init_wait)
}

/// The `--http` options of `a`, checked before any root is opened: a non-loopback address
/// needs `--token-file`, and the token file must hold a token.
#[cfg(feature = "mcp")]
fn http_options(a: &McpArgs) -> anyhow::Result<Option<crate::mcp::http::HttpOptions>> {
    use crate::mcp::http::{HttpOptions, read_token_file};
    let Some(addr) = a.http else {
        return Ok(None);
    };
    if !addr.ip().is_loopback() && a.token_file.is_none() {
        anyhow::bail!(
            "--http {addr} is not a loopback address: serving it needs --token-file FILE (every request must then carry `Authorization: Bearer <token>`)"
        );
    }
    let token = a.token_file.as_deref().map(read_token_file).transpose()?;
    Ok(Some(HttpOptions { addr, token }))
}

/// This build has no MCP server: say so.
#[cfg(not(feature = "mcp"))]
pub fn run(_a: &McpArgs, _g: &GlobalOpts) -> anyhow::Result<()> {
    anyhow::bail!("this build has no MCP server (built without the `mcp` feature)")
}
