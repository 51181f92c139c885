//! Prompts: every saved recipe (the workspace's recipe store) is a prompt that expands to
//! its brief, built by the same request as `skillnav brief --recipe NAME`.

use rmcp::ErrorData;
use rmcp::model::{GetPromptResult, ListPromptsResult, Prompt, PromptMessage, Role};

use crate::agent::brief::{BriefArgs, prepare};
use crate::agent::workspace::Workspace;

/// Every recipe in the store, as a prompt without arguments.
pub fn list(ws: &Workspace) -> ListPromptsResult {
    let names = ws.store().map(|s| s.list()).unwrap_or_default();
    let prompts = names
        .into_iter()
        .map(|n| {
            let d =
                format!("The brief of the saved recipe {n:?} (its selection, levels and budget).");
            Prompt::new(n, Some(d), None)
        })
        .collect();
    ListPromptsResult::with_all_items(prompts)
}

/// Expand recipe `name` into one user message holding its brief. Errors: no such recipe
/// (`-32602`), or nothing to brief in it.
pub fn get(ws: &Workspace, name: &str) -> Result<GetPromptResult, ErrorData> {
    let known = ws.store().map(|s| s.list()).unwrap_or_default();
    if !known.iter().any(|n| n == name) {
        return Err(ErrorData::invalid_params(
            format!("no prompt {name:?} (prompts/list gives the names)"),
            None,
        ));
    }
    let args = BriefArgs {
        recipe: Some(name.to_string()),
        ..BriefArgs::default()
    };
    let overlay = ws.config.recipe.as_ref().map(|_| &ws.exposure);
    let prepared = prepare(&ws.corpus, &args, ws.store().as_ref(), overlay)
        .map_err(|e| ErrorData::invalid_params(e.0, None))?;
    let index = prepared.needs_index().then_some(&ws.index);
    let out = prepared.build(&ws.corpus, index, ws.counter());
    let mut result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, out.text)]);
    result.description = Some(format!(
        "Brief of recipe {name}: {} tokens ({})",
        out.tokens,
        ws.counter().encoding()
    ));
    Ok(result)
}
