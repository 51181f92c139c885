//! `skillnav brief` with `--format xml|json`, an explicit `--mode`, `--recipe`, or both
//! `--select` and `--query`: a curated brief ([`crate::brief::curated`]). Plain markdown
//! briefs of only selected ids or only a query, over a corpus without exposure levels, keep
//! the original layout (`super::brief`).

use std::io::Write;

use anyhow::bail;

use super::args::{BriefArgs, BriefFormat};
use super::show;
use crate::brief::curated::{self, CuratedRequest};
use crate::brief::lazytools::Mode;
use crate::curate::exposure::ExposureMap;
use crate::model::{Corpus, Selection};
use crate::tokens::TokenCounter;

/// Whether `a` asks for a curated brief (see the module docs). Also when some node of
/// `corpus` carries an exposure level (`meta.exposure`, e.g. ADRs are `explicit`), so that
/// the level is honoured. Never for `--format lazytools`.
pub fn wanted(a: &BriefArgs, corpus: &Corpus) -> bool {
    if a.format == BriefFormat::Lazytools {
        return false;
    }
    matches!(a.format, BriefFormat::Xml | BriefFormat::Json)
        || !ExposureMap::from_corpus(corpus).entries().is_empty()
        || a.recipe.is_some()
        || (a.format == BriefFormat::Md && a.mode != "auto")
        || (a.query.is_some() && !a.select.is_empty())
}

/// Build and deliver the curated brief of `a`. A recipe adds its selection (before
/// `--select` ids), its exposure levels, and its query/budget/mode when the command line
/// gives none.
pub fn run(out: &mut dyn Write, corpus: &Corpus, a: &BriefArgs, counter: TokenCounter) -> anyhow::Result<()> {
    let recipe = match &a.recipe {
        Some(r) => Some(super::export::resolve_recipe(r)?),
        None => None,
    };
    let (mut sel, exposure) = match &recipe {
        Some(r) => {
            let applied = super::export::apply_with_warnings(r, corpus);
            (applied.selection, applied.exposure)
        }
        None => (Selection::new(), ExposureMap::from_corpus(corpus)),
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
        BriefFormat::Xml => curated::BriefFormat::Xml,
        BriefFormat::Json => curated::BriefFormat::Json,
        _ => curated::BriefFormat::Md,
    };
    let units = sel.units(corpus);
    let index = query.as_ref().map(|_| crate::index::Index::build(corpus, &mut |_, _| {}));
    let req = CuratedRequest {
        selected: &units,
        query: query.as_deref(),
        top_k: a.top_k,
        mode,
        format,
        max_tokens: a.max_tokens.or(recipe.as_ref().and_then(|r| r.max_tokens)),
        exposure: Some(&exposure),
    };
    let brief = curated::curated_brief(corpus, index.as_ref(), &req, counter);
    if !brief.left_out.is_empty() {
        eprintln!(
            "skillnav: brief: left out {} section(s) over the token budget (named in the brief)",
            brief.left_out.len()
        );
    }
    super::brief::deliver(out, &brief.text, brief.bytes as u64, brief.tokens, counter, a)
}
