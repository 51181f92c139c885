//! The text units a brief is made of, and their token total: the selected units a brief
//! holds (not `hidden`), the `always` units beside them, the units of "the selection, else
//! the current node", the query hits a brief adds, and the sums shown beside the budget.

use crate::curate::exposure::{Exposure, ExposureMap};
use crate::model::{Corpus, NodeId, Selection};
use crate::tokens::TokenTable;

/// The text units a brief of `selection` holds: the selected units whose level admits a
/// selected node (not `hidden`), then the `always` units outside them.
pub fn brief_units(corpus: &Corpus, selection: &Selection, exposure: &ExposureMap) -> Vec<NodeId> {
    let mut units: Vec<NodeId> = selection
        .units(corpus)
        .into_iter()
        .filter(|u| exposure.level(corpus, *u).admits(true, false))
        .collect();
    let always: Vec<NodeId> = exposure
        .always_units(corpus)
        .into_iter()
        .filter(|a| !units.iter().any(|u| corpus.is_within(*a, *u)))
        .collect();
    units.extend(always);
    units
}

/// Σ tokens of [`brief_units`] from `table` (minus `hidden` sub-sections of a unit, which a
/// brief cuts out), and whether all of it is counted. The number beside the budget.
pub fn brief_tokens(
    corpus: &Corpus,
    selection: &Selection,
    exposure: &ExposureMap,
    table: &TokenTable,
) -> (u64, bool) {
    let hidden: Vec<NodeId> = exposure
        .entries()
        .into_iter()
        .filter(|(n, e)| {
            *e == Exposure::Hidden
                && corpus
                    .node(*n)
                    .parent
                    .is_none_or(|p| exposure.level(corpus, p) != Exposure::Hidden)
        })
        .map(|(n, _)| n)
        .collect();
    let (mut sum, mut complete) = (0u64, true);
    for u in brief_units(corpus, selection, exposure) {
        match table.total(u) {
            Some(t) => {
                let cut: u64 = hidden
                    .iter()
                    .filter(|h| **h != u && corpus.is_within(**h, u))
                    .filter_map(|h| table.total(*h))
                    .sum();
                sum += t.saturating_sub(cut);
            }
            None => complete = false,
        }
    }
    (sum, complete)
}

/// The units a brief of the current state is made of: the selection's, else the units of
/// `current` alone (empty when nothing is selected and there is no current node).
pub fn selected_units(
    corpus: &Corpus,
    selection: &Selection,
    current: Option<NodeId>,
) -> Vec<NodeId> {
    if selection.is_empty() {
        let Some(id) = current else { return Vec::new() };
        let mut one = Selection::new();
        one.select(corpus, id);
        one.units(corpus)
    } else {
        selection.units(corpus)
    }
}

/// Σ own tokens of the query hits a brief of `selection` adds (`hits`, best first): the
/// first `top_k` that a query may bring in (not `hidden` or `explicit`) and that are not
/// inside a brief unit already; and whether all of them are counted.
pub fn query_hit_tokens(
    corpus: &Corpus,
    selection: &Selection,
    exposure: &ExposureMap,
    hits: &[NodeId],
    top_k: usize,
    table: &TokenTable,
) -> (u64, bool) {
    let units = brief_units(corpus, selection, exposure);
    let (mut sum, mut complete) = (0u64, true);
    let added = hits
        .iter()
        .filter(|h| exposure.level(corpus, **h).admits(false, true))
        .filter(|h| !units.iter().any(|u| corpus.is_within(**h, *u)))
        .take(top_k);
    for h in added {
        match table.own(*h) {
            Some(t) => sum += t,
            None => complete = false,
        }
    }
    (sum, complete)
}
