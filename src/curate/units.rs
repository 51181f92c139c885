//! The text units a brief is made of, and their token total: the selected units a brief
//! holds (not `hidden`; an `explicit` one only when selected by id,
//! [`selection_units`]), the `always` units beside them, the units of "the selection, else
//! the current node", the query hits a brief adds, and the sums shown beside the budget.

use crate::curate::exposure::{Exposure, ExposureMap};
use crate::model::{Corpus, NodeId, Selection};
use crate::tokens::TokenTable;

/// The text units of `selection` (`Selection::units`, in document order) that a brief or an
/// export may take: an `explicit` unit only when it is selected by id, that is when the
/// selection member covering it is the unit itself or is `explicit` too; a unit reached by
/// selecting a container above it (a skill, a folder) is left out (docs/DESIGN.md §5: a
/// skill's `LICENSE.txt`, an ADR log's records). Other levels are left to the caller.
pub fn selection_units(
    corpus: &Corpus,
    selection: &Selection,
    exposure: &ExposureMap,
) -> Vec<NodeId> {
    let members: Vec<NodeId> = selection.members().collect();
    let units = selection.units(corpus);
    let units = without_repeated_copies(corpus, units);
    units
        .into_iter()
        .filter(|u| {
            exposure.level(corpus, *u) != Exposure::Explicit
                || std::iter::once(*u)
                    .chain(corpus.ancestors(*u))
                    .find(|a| members.contains(a))
                    .is_none_or(|m| m == *u || exposure.level(corpus, m) == Exposure::Explicit)
        })
        .collect()
}

/// `units` less each copy (`duplicate`/`alias`/`variant`, [`Corpus::is_copy`]) whose text
/// another unit of the list already holds byte for byte: copies are never counted twice in a
/// selection (docs/DESIGN.md §2), whether the copy was selected by id beside its original
/// or reached through a container. A copy selected alone stays.
fn without_repeated_copies(corpus: &Corpus, units: Vec<NodeId>) -> Vec<NodeId> {
    let copies: Vec<NodeId> = units
        .iter()
        .copied()
        .filter(|u| corpus.is_copy(*u))
        .collect();
    if copies.is_empty() {
        return units;
    }
    let repeated = |c: NodeId| {
        let bytes = corpus.node(c).bytes;
        let mut same_size = units
            .iter()
            .filter(|o| **o != c && !corpus.is_copy(**o) && corpus.node(**o).bytes == bytes)
            .peekable();
        if same_size.peek().is_none() {
            return false;
        }
        // One text at a time: two spans of one source are never read under each other.
        let text = corpus.with_text(c, str::to_owned);
        same_size.any(|o| corpus.with_text(*o, |t| t == text))
    };
    let drop: Vec<NodeId> = copies.into_iter().filter(|c| repeated(*c)).collect();
    units.into_iter().filter(|u| !drop.contains(u)).collect()
}

/// The text units a brief of `selection` holds: the [`selection_units`] whose level admits a
/// selected node (not `hidden`), then the `always` units outside them.
pub fn brief_units(corpus: &Corpus, selection: &Selection, exposure: &ExposureMap) -> Vec<NodeId> {
    let mut units: Vec<NodeId> = selection_units(corpus, selection, exposure)
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

/// The units a brief of the current state is made of: the selection's
/// ([`selection_units`]), else those of `current` alone (empty when nothing is selected and
/// there is no current node).
pub fn selected_units(
    corpus: &Corpus,
    selection: &Selection,
    exposure: &ExposureMap,
    current: Option<NodeId>,
) -> Vec<NodeId> {
    if selection.is_empty() {
        let Some(id) = current else { return Vec::new() };
        let mut one = Selection::new();
        one.select(corpus, id);
        selection_units(corpus, &one, exposure)
    } else {
        selection_units(corpus, selection, exposure)
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

/// The size of `id` as stored, as a brief or an export takes it: `(bytes, tokens)` in
/// `counter`'s encoding. Bytes: the node's `bytes` (a section's byte range with its heading
/// line, a file's size on disk), or its `own_bytes` when `own_only` (a retrieved hit quoting
/// its own text); less the bytes of `hidden` sub-sections, which briefs and exports cut
/// out. Tokens: Σ own-text counts of the same parts (copies skipped as in
/// [`TokenTable::aggregate`]), from the count cache first. With no level set this is the
/// node's `bytes` and its total in the tree and in `tree --json` (docs/DESIGN.md §2 Sizes).
pub fn source_size(
    corpus: &Corpus,
    exposure: &ExposureMap,
    id: NodeId,
    own_only: bool,
    counter: crate::tokens::TokenCounter,
) -> (u64, u64) {
    let node = corpus.node(id);
    if own_only {
        let tokens = crate::tokens::count_nodes(corpus, counter, &[id]);
        return (node.own_bytes, tokens.iter().map(|(_, n)| n).sum());
    }
    let mut parts = Vec::new();
    let mut cut = 0u64;
    let mut stack = vec![id];
    while let Some(n) = stack.pop() {
        parts.push(n);
        let keep_copies = corpus.node(n).flags.is_copy();
        for &c in &corpus.node(n).children {
            let child = corpus.node(c);
            if exposure.level(corpus, c) == Exposure::Hidden {
                if child.span.is_some() {
                    cut += child.bytes;
                }
            } else if keep_copies || !child.flags.is_copy() {
                stack.push(c);
            }
        }
    }
    let tokens = crate::tokens::count_nodes(corpus, counter, &parts);
    (
        node.bytes.saturating_sub(cut),
        tokens.iter().map(|(_, n)| n).sum(),
    )
}
