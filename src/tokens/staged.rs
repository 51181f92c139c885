//! Counting that starts before the BPE tables are loaded. A cold load takes about 40 ms, the
//! pre-tokenizer about 10: in between, the counting thread splits texts into pieces and keeps
//! each distinct piece once, so that when the tables arrive only the distinct pieces are
//! BPE-counted and each split text's count is a sum (docs/DESIGN.md §4). The numbers are
//! those of counting each text directly: the same pieces, each counted by the same tables.
//! What a stage holds is bounded ([`Limits`]).

use rustc_hash::FxHashMap;

use super::pretokenize::Pre;

/// How much a stage may hold ([`Staged::split_while`]).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Bytes of text split, all texts together: a text that would pass it is not split,
    /// and nothing after it. 4 MiB is more than one thread splits while the tables load
    /// (about 2 MB), and bounds the piece ids to 4 Mi (16 MB).
    pub bytes: usize,
    /// Distinct pieces: a text that would pass it is given up as soon as it does, its pieces
    /// taken back, and nothing after it is split (a text of millions of distinct words
    /// would otherwise fill the map).
    pub pieces: usize,
}

impl Limits {
    /// 4 MiB of text, 2^18 distinct pieces (about 12 MB with their map and counts).
    pub const DEFAULT: Self = Self {
        bytes: 4 << 20,
        pieces: 1 << 18,
    };
}

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
    /// before each text) and within `limits`.
    pub fn split_while(
        pre: &Pre,
        texts: &[&'t str],
        order: &[usize],
        limits: Limits,
        mut waiting: impl FnMut() -> bool,
    ) -> Self {
        let mut st = Self::default();
        let mut cache = pre.cache();
        let mut bytes = 0usize;
        for ix in order {
            let Some(text) = texts.get(*ix) else { break };
            bytes = bytes.saturating_add(text.len());
            if bytes > limits.bytes || !waiting() {
                break;
            }
            let (seq_from, pieces_from) = (st.seq.len(), st.pieces.len());
            let whole = pre.split_in_while(&mut cache, text, |piece| {
                let next = st.pieces.len() as u32;
                let id = *st.ids.entry(piece).or_insert(next);
                if id == next {
                    st.pieces.push(piece);
                }
                st.seq.push(id);
                st.pieces.len() <= limits.pieces
            });
            if !whole {
                // Give the text back: it is counted once the tables are there.
                for p in st.pieces.drain(pieces_from..) {
                    st.ids.remove(p);
                }
                st.seq.truncate(seq_from);
                break;
            }
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
        let st = Staged::split_while(&pre, &texts, &[0, 1, 2], Limits::DEFAULT, || {
            asked += 1;
            asked <= 2
        });
        assert_eq!(st.done(), 2);
        assert_eq!(st.pieces(), ["the", " cat", " and", " the", " hat", " end"]);
        // One token a piece: each text's sum is its piece count.
        let ones = vec![1; st.pieces().len()];
        assert_eq!(st.sums(&ones), [5, 2]);
        let none = Staged::split_while(&pre, &texts, &[2, 0], Limits::DEFAULT, || false);
        assert_eq!((none.done(), none.pieces().len()), (0, 0));
    }

    #[test]
    fn a_text_of_many_distinct_pieces_is_given_back_whole() {
        // A text that passes the distinct-piece limit midway leaves nothing of itself in
        // the stage, and nothing after it is split; the texts before it stay.
        let pre = Pre::new(Encoding::O200kBase).unwrap();
        let many = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
        let texts = ["the cat and the hat", many, "the end"];
        let limits = Limits {
            bytes: 1 << 20,
            pieces: 8,
        };
        let st = Staged::split_while(&pre, &texts, &[0, 1, 2], limits, || true);
        assert_eq!(st.done(), 1);
        assert_eq!(st.pieces(), ["the", " cat", " and", " the", " hat"]);
        assert_eq!(st.sums(&[1, 1, 1, 1, 1]), [5]);
        // Its pieces are forgotten: staging it alone later gives fresh ids.
        assert!(!st.ids.contains_key(" gamma"));
        assert_eq!(st.seq.len(), 5);
    }

    #[test]
    fn a_text_past_the_byte_limit_is_not_split_at_all() {
        // A 16 MB text of millions of distinct words once filled the stage's map (about
        // 330 MB): a text past the byte limit is left to the tables, as is all after it.
        let pre = Pre::new(Encoding::O200kBase).unwrap();
        let big = "x".repeat(Limits::DEFAULT.bytes + 1);
        let texts = [big.as_str(), "small"];
        let mut asked = 0;
        let st = Staged::split_while(&pre, &texts, &[0, 1], Limits::DEFAULT, || {
            asked += 1;
            true
        });
        assert_eq!((st.done(), st.pieces().len(), asked), (0, 0, 0));
        // Under the limit, the same order is split.
        let small = Limits {
            bytes: 2 * big.len(),
            pieces: 1 << 18,
        };
        assert_eq!(
            Staged::split_while(&pre, &texts, &[0, 1], small, || true).done(),
            2
        );
    }
}
