//! `skillnav brief`: a context brief from `--select` ids, a `--query` and/or a `--recipe`,
//! printed, written to a file, or copied.

use std::io::Write;

use super::args::{BriefArgs, BriefFormat};
use crate::agent::brief as agent_brief;
use crate::model::Corpus;
use crate::tokens::TokenCounter;

/// Build the brief described by `a` with [`crate::agent::brief`] (the one request the MCP
/// `brief` tool also uses) and deliver it. A recipe adds its selection (before `--select`
/// ids), its exposure levels, and its query/budget/mode/format when the command line gives none;
/// without a recipe the corpus's own levels apply (`meta.exposure`, e.g. ADR bodies are
/// `explicit`). `--format lazytools` is lazytools' `query_skill` instead. Errors: nothing to
/// brief, an unknown id, an unknown mode, an unreadable recipe.
pub fn run(
    out: &mut dyn Write,
    corpus: &Corpus,
    a: &BriefArgs,
    counter: TokenCounter,
) -> anyhow::Result<()> {
    let args = agent_args(a);
    let store = crate::curate::recipe::default_dir().map(crate::curate::recipe::Store::new);
    let prepared = agent_brief::prepare(corpus, &args, store.as_ref(), None)?;
    if let Some(name) = &prepared.recipe_name {
        for w in &prepared.warnings {
            eprintln!("skillnav: recipe {name}: {w}");
        }
    }
    let index = prepared
        .needs_index()
        .then(|| crate::index::Index::build(corpus, &mut |_, _| {}));
    // Semantic signals never apply to lazytools' format (byte-exact parity).
    if let Some(index) = &index
        && a.format != Some(BriefFormat::Lazytools)
    {
        let semantic = super::args::semantic_or_setting(a.semantic);
        if semantic.table() {
            index.embed(corpus, None);
        }
        let tier = crate::rerank::tier(&crate::config::load().0.search, semantic);
        if let crate::rerank::Tier::Broken(_) = &tier
            && let Some(note) = tier.notice()
        {
            eprintln!("skillnav: {note}");
        }
        if let Some(r) = tier.ready() {
            index.attach_reranker(r);
        }
    }
    let format = prepared.request.format;
    let brief = prepared.build(corpus, index.as_ref(), counter);
    if !brief.left_out.is_empty() {
        eprintln!(
            "skillnav: brief: left out {} section(s) over the token budget (named in the brief)",
            brief.left_out.len()
        );
    }
    let how = super::deliver::Delivery {
        output: a.output.as_deref(),
        copy: a.copy,
        ext: match format {
            BriefFormat::Xml | BriefFormat::Json => format.as_str(),
            BriefFormat::Md | BriefFormat::Lazytools => "md",
        },
    };
    super::deliver::deliver(out, &brief.text, brief.tokens, counter, &how)
}

/// The core's brief arguments for the command line's.
pub fn agent_args(a: &BriefArgs) -> agent_brief::BriefArgs {
    agent_brief::BriefArgs {
        query: a.query.clone(),
        ids: a.select.clone(),
        recipe: a.recipe.clone(),
        mode: a.mode.clone(),
        format: a.format,
        top_k: a.top_k,
        budget: a.budget.and_then(|b| b.0),
        max_chars: a.max_chars,
        no_quotes: a.no_quotes,
    }
}
