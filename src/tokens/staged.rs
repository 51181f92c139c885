//! Counting that starts before the BPE tables are loaded. A cold load takes about 40 ms, the
//! pre-tokenizer about 10: in between, the counting thread splits texts into pieces and keeps
//! each distinct piece once, so that when the tables arrive only the distinct pieces are
//! BPE-counted and each split text's count is a sum (docs/DESIGN.md §4). The numbers are
//! those of counting each text directly: the same pieces, each counted by the same tables.

use rustc_hash::FxHashMap;

use super::pretokenize::Pre;

/// Most piece ids a stage keeps (16 MB): past them it splits no further text, and the rest is
/// counted once the tables are loaded. Reached only by a single text of many megabytes.
const MAX_SEQ: usize = 1 << 22;

/// Texts split into pieces while the tables load: the first [`Staged::done`] texts of a
/// counting order, as ids into the distinct [`Staged::pieces`].
#[derive(Debug, Default)]
pub struct Staged<'t> {
    /// Distinct pieces, in order of first appearance.
    pieces: Vec<&'t str>,
    ids: FxHashMap<&'t str, u32>,
    /// The piece ids of every split text, one text after another.
    seq: Vec<u32>,
    /// The end in `seq` of each split text.
    ends: Vec<usize>,
}

impl<'t> Staged<'t> {
    /// Split `texts[order[0]]`, `texts[order[1]]`, … with `pre` while `waiting()` holds (asked
    /// before each text) and fewer than [`MAX_SEQ`] piece ids are kept.
    pub fn split_while(
        pre: &Pre,
        texts: &[&'t str],
        order: &[usize],
        mut waiting: impl FnMut() -> bool,
    ) -> Self {
        let mut st = Self::default();
        let mut cache = pre.cache();
        for ix in order {
            if st.seq.len() >= MAX_SEQ || !waiting() {
                break;
            }
            let Some(text) = texts.get(*ix) else { break };
            pre.split_in(&mut cache, text, |piece| {
                let next = st.pieces.len() as u32;
                let id = *st.ids.entry(piece).or_insert(next);
                if id == next {
                    st.pieces.push(piece);
                }
                st.seq.push(id);
            });
            st.ends.push(st.seq.len());
        }
        st
    }

    /// How many texts of the order were split (a prefix of it).
    pub fn done(&self) -> usize {
        self.ends.len()
    }

    /// The distinct pieces of the split texts: count each (`Tables::piece`) for
    /// [`Staged::sums`].
    pub fn pieces(&self) -> &[&'t str] {
        &self.pieces
    }

    /// Tokens of each split text, in order, from `piece_counts` (one per [`Staged::pieces`],
    /// in that order; a missing one counts 0).
    pub fn sums(&self, piece_counts: &[u64]) -> Vec<u64> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|end| {
                let ids = self.seq.get(start..*end).unwrap_or_default();
                start = *end;
                ids.iter()
                    .map(|id| piece_counts.get(*id as usize).copied().unwrap_or(0))
                    .sum()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Encoding;

    #[test]
    fn a_stage_keeps_each_distinct_piece_once_and_stops_when_the_wait_ends() {
        let pre = Pre::new(Encoding::O200kBase).unwrap();
        let texts = ["the cat and the hat", "the end", "not split"];
        let mut asked = 0;
        let st = Staged::split_while(&pre, &texts, &[0, 1, 2], || {
            asked += 1;
            asked <= 2
        });
        assert_eq!(st.done(), 2);
        assert_eq!(st.pieces(), ["the", " cat", " and", " the", " hat", " end"]);
        // One token a piece: each text's sum is its piece count.
        let ones = vec![1; st.pieces().len()];
        assert_eq!(st.sums(&ones), [5, 2]);
        let none = Staged::split_while(&pre, &texts, &[2, 0], || false);
        assert_eq!((none.done(), none.pieces().len()), (0, 0));
    }
}
