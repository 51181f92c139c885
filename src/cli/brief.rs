//! `skillnav brief`: a context brief from `--select` ids, a `--query` and/or a `--recipe`,
//! printed, written to a file, or copied.

use std::io::{IsTerminal, Write};

use anyhow::{Context, bail};

use super::args::{BriefArgs, BriefFormat};
use super::show;
use crate::brief::{self, BriefRequest, Mode};
use crate::clipboard;
use crate::curate::exposure::ExposureMap;
use crate::model::{Corpus, Selection};
use crate::tokens::TokenCounter;
use crate::util::sanitize::sanitize;

/// Retrieved sections of a query brief without `--top-k` and without a budget.
const DEFAULT_TOP_K: usize = 8;

/// Build the brief described by `a` with [`brief::build`] and deliver it. A recipe adds its
/// selection (before `--select` ids), its exposure levels, and its query/budget/mode when
/// the command line gives none; without a recipe the corpus's own levels apply
/// (`meta.exposure`, e.g. ADR bodies are `explicit`). `--format lazytools` is lazytools'
/// `query_skill` instead. Errors: nothing to brief, an unknown id, an unknown mode, an
/// unreadable recipe.
pub fn run(out: &mut dyn Write, corpus: &Corpus, a: &BriefArgs, counter: TokenCounter) -> anyhow::Result<()> {
    let corpus_levels = ExposureMap::from_corpus(corpus);
    let plain_args = a.recipe.is_none() && corpus_levels.is_empty();
    if a.query.is_none() && a.select.is_empty() && (plain_args || a.format == BriefFormat::Lazytools) {
        bail!("brief needs --query Q or --select ID");
    }
    if a.format == BriefFormat::Lazytools {
        return lazytools(out, corpus, a, counter);
    }
    let recipe = match &a.recipe {
        Some(r) => Some(super::recipe::resolve_recipe(r)?),
        None => None,
    };
    let (mut sel, exposure) = match &recipe {
        Some(r) => {
            let applied = super::recipe::apply_with_warnings(r, corpus);
            (applied.selection, applied.exposure)
        }
        None => (Selection::new(), corpus_levels),
    };
    for key in &a.select {
        let Some(id) = show::find(corpus, key) else { bail!("no node with id or title {key:?}") };
        sel.select(corpus, id);
    }
    let query = a.query.clone().or_else(|| recipe.as_ref().and_then(|r| r.query.clone()));
    if query.is_none() && sel.is_empty() && exposure.always_units(corpus).is_empty() {
        bail!("brief needs --query Q, --select ID or a --recipe with a selection");
    }
    let mode_name = match (&recipe, a.mode.as_str()) {
        (Some(r), "auto") => r.mode.clone().unwrap_or_else(|| "auto".into()),
        (_, m) => m.to_string(),
    };
    let Some(mode) = Mode::parse(&mode_name) else {
        bail!("unknown --mode {mode_name:?} (auto, answer, extract, locate, summarize)")
    };
    let format = match a.format {
        BriefFormat::Xml => brief::BriefFormat::Xml,
        BriefFormat::Json => brief::BriefFormat::Json,
        _ => brief::BriefFormat::Md,
    };
    let units = sel.units(corpus);
    let index = query.as_ref().map(|_| crate::index::Index::build(corpus, &mut |_, _| {}));
    let max_tokens = a.max_tokens.or(recipe.as_ref().and_then(|r| r.max_tokens));
    let fill = if max_tokens.is_some() { brief::select::UNTIL_FULL } else { DEFAULT_TOP_K };
    let req = BriefRequest {
        selected: &units,
        query: query.as_deref(),
        top_k: a.top_k.unwrap_or(fill),
        mode,
        format,
        max_tokens,
        exposure: Some(&exposure),
        from_recipe: recipe.is_some(),
    };
    let brief = brief::build(corpus, index.as_ref(), &req, counter);
    if !brief.left_out.is_empty() {
        eprintln!(
            "skillnav: brief: left out {} section(s) over the token budget (named in the brief)",
            brief.left_out.len()
        );
    }
    deliver(out, &brief.text, brief.bytes as u64, brief.tokens, counter, a)
}

/// Print, write (`-o`) or copy (`--copy`) `text`.
pub fn deliver(
    out: &mut dyn Write,
    text: &str,
    bytes: u64,
    tokens: u64,
    counter: TokenCounter,
    a: &BriefArgs,
) -> anyhow::Result<()> {
    if let Some(path) = &a.output {
        std::fs::write(path, text).with_context(|| format!("{}", path.display()))?;
        eprintln!("Wrote {} · {bytes} bytes · {tokens} tokens ({})", path.display(), counter.encoding());
    }
    if a.copy {
        let outcome = clipboard::copy(text)?;
        eprintln!("{}", clipboard::status_line(&outcome, bytes, tokens, counter.encoding()));
    }
    if a.output.is_none() && !a.copy {
        if std::io::stdout().is_terminal() {
            write!(out, "{}", sanitize(text))?;
        } else {
            write!(out, "{text}")?;
        }
    }
    Ok(())
}

/// `--format lazytools`: lazytools' `query_skill` output on the first bundle opened.
fn lazytools(
    out: &mut dyn Write,
    corpus: &Corpus,
    a: &BriefArgs,
    counter: TokenCounter,
) -> anyhow::Result<()> {
    use crate::brief::lazytools::{QuerySkillOptions, query_skill};
    let Some(task) = &a.query else { bail!("--format lazytools needs --query") };
    let Some((_, stats)) = corpus.bundles.first() else {
        bail!("--format lazytools needs a lazytools bundle (manifest.json + vocab.json + chunks.jsonl)")
    };
    let Some(mode) = Mode::parse(&a.mode) else {
        bail!("unknown --mode {:?} (auto, answer, extract, locate, summarize)", a.mode)
    };
    let defaults = QuerySkillOptions::default();
    let opts = QuerySkillOptions {
        mode,
        top_k: a.top_k.unwrap_or(DEFAULT_TOP_K),
        max_chars: a.max_chars.unwrap_or(defaults.max_chars),
        include_quotes: !a.no_quotes,
    };
    let text = query_skill(stats, task, &opts);
    let tokens = counter.count(&text);
    deliver(out, &text, text.len() as u64, tokens, counter, a)
}
