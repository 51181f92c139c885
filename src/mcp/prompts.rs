//! Prompts: every saved recipe (the workspace's recipe store) is a prompt that expands to
//! its brief, built by the same request as `skillnav brief --recipe NAME`.

use rmcp::ErrorData;
use rmcp::model::{GetPromptResult, ListPromptsResult, Prompt, PromptMessage, Role};

use crate::agent::brief::{BriefArgs, BriefOut, prepare};
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

/// Expand recipe `name` into one user message holding its brief, within the server's result
/// caps (docs/MCP.md "Limits"): a brief over `max_chars` characters is built again at a
/// smaller token budget (the budget scaled by the share that fits, 5% under it, at most
/// four times), so it names what it left out instead of exceeding the cap. Errors: no such
/// recipe (`-32602`), or nothing to brief in it.
pub fn get(ws: &Workspace, name: &str) -> Result<GetPromptResult, ErrorData> {
    let known = ws.store().map(|s| s.list()).unwrap_or_default();
    if !known.iter().any(|n| n == name) {
        return Err(ErrorData::invalid_params(
            format!("no prompt {name:?} (prompts/list gives the names)"),
            None,
        ));
    }
    let out = capped_brief(ws, name)?;
    let mut result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, out.text)]);
    result.description = Some(format!(
        "Brief of recipe {name}: {} tokens ({})",
        out.tokens,
        ws.counter().encoding()
    ));
    Ok(result)
}

/// The brief of recipe `name`, built again at a smaller budget while it is over the
/// server's `max_chars` (see [`get`]).
fn capped_brief(ws: &Workspace, name: &str) -> Result<BriefOut, ErrorData> {
    let max_chars = ws.limits().max_chars;
    let mut args = BriefArgs {
        recipe: Some(name.to_string()),
        ..BriefArgs::default()
    };
    let overlay = ws.config.recipe.as_ref().map(|_| &ws.exposure);
    let mut out = None;
    for _ in 0..5 {
        let prepared = prepare(&ws.corpus, &args, ws.store().as_ref(), overlay)
            .map_err(|e| ErrorData::invalid_params(e.0, None))?;
        let index = prepared.needs_index().then_some(&ws.index);
        let built = prepared.build(&ws.corpus, index, ws.counter());
        let chars = built.text.chars().count();
        if chars <= max_chars {
            return Ok(built);
        }
        // Scale the token budget by the share of characters that fits, 5% under it.
        let share = max_chars as f64 / chars as f64 * 0.95;
        args.budget = Some(((built.tokens as f64 * share) as u64).max(1));
        out = Some(built);
    }
    let mut built = out.unwrap_or_default();
    // Still over after four tries (a single unit larger than the cap): cut at the cap.
    built.text = built.text.chars().take(max_chars).collect();
    built.bytes = built.text.len();
    built.tokens = ws.counter().count(&built.text);
    Ok(built)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::workspace::WorkspaceConfig;
    use crate::curate::recipe::{Recipe, RecipeNode, SCHEMA, Store, node_hash};
    use crate::formats::{LoadOptions, RootSpec};
    use crate::tokens::{Encoding, TokenCounter};

    #[test]
    fn a_recipe_brief_over_the_char_cap_is_built_again_smaller_and_stays_under_it() {
        let dir = tempfile::tempdir().expect("tmp");
        let docs = dir.path().join("docs");
        std::fs::create_dir_all(&docs).expect("mkdir");
        // One 80k-char section (the parts are below its heading level), over the 50k cap.
        let mut md = String::from("# Guide\n\n");
        for i in 0..40 {
            md.push_str(&format!("## Part {i}\n\n{}\n\n", "word ".repeat(400)));
        }
        std::fs::write(docs.join("guide.md"), &md).expect("write");
        let recipes = dir.path().join("recipes");
        let ws = Workspace::open(WorkspaceConfig {
            specs: vec![RootSpec {
                path: docs.clone(),
                label: "docs".into(),
            }],
            load: LoadOptions::default(),
            counter: TokenCounter::new(Encoding::O200kBase),
            recipe: None,
            recipes_dir: Some(recipes.clone()),
            limits: crate::agent::limits::Limits::default(),
        });
        let root = ws.corpus.roots[0];
        Store::new(&recipes)
            .save(&Recipe {
                schema: SCHEMA,
                name: "all".into(),
                selected: vec![RecipeNode {
                    id: ws.corpus.id(root),
                    hash: node_hash(&ws.corpus, root),
                }],
                exposure: Vec::new(),
                max_tokens: Some(200_000),
                query: None,
                mode: None,
                format: None,
            })
            .expect("save");
        let got = get(&ws, "all").expect("prompt");
        let text = got.messages[0]
            .content
            .as_text()
            .map(|t| t.text.clone())
            .expect("a text message");
        let n = text.chars().count();
        // Built whole it is 80k chars (`brief --recipe` gives that); served, it keeps under
        // the cap and names what it left out.
        assert!(n <= 50_000, "{n} chars");
        assert!(text.contains("Left out (over the "), "{text}");
        assert!(text.trim_end().ends_with("docs/guide.md"), "{text}");
    }
}
