//! `skillnav brief`: a context brief from `--select` ids and/or a `--query`, printed, written
//! to a file, or copied.

use std::io::{IsTerminal, Write};

use anyhow::{Context, bail};

use super::args::{BriefArgs, BriefFormat};
use super::show;
use crate::brief::{self, Brief};
use crate::clipboard;
use crate::model::{Corpus, Selection};
use crate::tokens::TokenCounter;
use crate::util::sanitize::sanitize;

/// Build the brief described by `a` and deliver it.
pub fn run(out: &mut dyn Write, corpus: &Corpus, a: &BriefArgs, counter: TokenCounter) -> anyhow::Result<()> {
    if a.query.is_none() && a.select.is_empty() {
        bail!("brief needs --query Q or --select ID");
    }
    if a.format == BriefFormat::Lazytools {
        return lazytools(out, corpus, a, counter);
    }
    let mut sel = Selection::new();
    for key in &a.select {
        let Some(id) = show::find(corpus, key) else { bail!("no node with id or title {key:?}") };
        sel.select(corpus, id);
    }
    let brief: Brief = match (&a.query, sel.is_empty()) {
        (Some(q), true) => {
            let index = crate::index::Index::build(corpus, &mut |_, _| {});
            let opts = brief::QueryBriefOptions { top_k: a.top_k, max_tokens: a.max_tokens, counter };
            brief::query_brief(corpus, &index, q, &opts)
        }
        _ => {
            let units = sel.units(corpus);
            match a.max_tokens {
                Some(max) => brief::pack(corpus, &units, max, counter),
                None => brief::selection_brief(corpus, &units, counter),
            }
        }
    };
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
    use crate::brief::lazytools::{Mode, QuerySkillOptions, query_skill};
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
        top_k: a.top_k,
        max_chars: a.max_chars.unwrap_or(defaults.max_chars),
        include_quotes: !a.no_quotes,
    };
    let text = query_skill(stats, task, &opts);
    let tokens = counter.count(&text);
    deliver(out, &text, text.len() as u64, tokens, counter, a)
}
