//! The aggregate figures of an evaluation: recall@1, recall@5, MRR@10 and brief
//! containment, overall and per [`Kind`], and the median brief size.

use serde::Serialize;

use super::questions::Kind;
use super::run::{Outcome, RANK_DEPTH};

/// Figures over a group of questions (all shares in 0..=1; 0 for an empty group).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figures {
    /// Questions in the group.
    pub questions: usize,
    /// Share with the gold section first.
    pub recall_at_1: f64,
    /// Share with the gold section in the top 5.
    pub recall_at_5: f64,
    /// Mean of 1/rank over the top 10 (0 beyond).
    pub mrr_at_10: f64,
    /// Share whose brief at the budget holds the gold section.
    pub brief_containment: f64,
    /// Median whole-brief size in tokens (the lower middle for an even count).
    pub median_brief_tokens: u64,
}

impl Figures {
    /// The figures of `outcomes`.
    pub fn of<'a>(outcomes: impl Iterator<Item = &'a Outcome>) -> Self {
        let all: Vec<&Outcome> = outcomes.collect();
        let n = all.len();
        let share = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let within = |d: usize| {
            all.iter()
                .filter(|o| o.rank.is_some_and(|r| r <= d))
                .count()
        };
        // A fold from +0.0, not `sum()`: an empty float sum is -0.0, printed as `-0.000`.
        let rr: f64 = all
            .iter()
            .filter_map(|o| o.rank.filter(|r| *r <= RANK_DEPTH))
            .fold(0.0, |acc, r| acc + 1.0 / r as f64);
        let mut sizes: Vec<u64> = all.iter().map(|o| o.brief_tokens).collect();
        sizes.sort_unstable();
        Figures {
            questions: n,
            recall_at_1: share(within(1)),
            recall_at_5: share(within(5)),
            mrr_at_10: if n == 0 { 0.0 } else { rr / n as f64 },
            brief_containment: share(all.iter().filter(|o| o.in_brief).count()),
            median_brief_tokens: if n == 0 { 0 } else { sizes[(n - 1) / 2] },
        }
    }
}

/// The whole report: figures overall and per kind, the budget, and every outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Brief budget in tokens.
    pub max_tokens: u64,
    /// Encoding of the token counts.
    pub encoding: String,
    /// Over every question.
    pub overall: Figures,
    /// Per kind, in [`Kind::ALL`] order; kinds with no question are left out.
    pub by_kind: Vec<(Kind, Figures)>,
    /// Every question's outcome, in file order.
    pub outcomes: Vec<Outcome>,
}

impl Report {
    /// Aggregate `outcomes` (in file order).
    pub fn new(outcomes: Vec<Outcome>, max_tokens: u64, encoding: &str) -> Self {
        let overall = Figures::of(outcomes.iter());
        let by_kind = Kind::ALL
            .into_iter()
            .filter(|k| outcomes.iter().any(|o| o.kind == *k))
            .map(|k| (k, Figures::of(outcomes.iter().filter(|o| o.kind == k))))
            .collect();
        Report {
            max_tokens,
            encoding: encoding.to_string(),
            overall,
            by_kind,
            outcomes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(kind: Kind, rank: Option<usize>, in_brief: bool, tokens: u64) -> Outcome {
        Outcome {
            id: String::new(),
            kind,
            query: String::new(),
            rank,
            in_brief,
            brief_tokens: tokens,
            top: Vec::new(),
            unresolved: false,
        }
    }

    #[test]
    fn mrr_of_questions_with_no_gold_in_the_top_10_is_positive_zero() {
        let f = Figures::of([o(Kind::Verbatim, None, false, 19)].iter());
        assert!(f.mrr_at_10 == 0.0 && f.mrr_at_10.is_sign_positive());
        assert_eq!(format!("{:.3}", f.mrr_at_10), "0.000");
        assert_eq!(
            serde_json::to_string(&f.mrr_at_10).ok().as_deref(),
            Some("0.0")
        );
    }

    #[test]
    fn figures_count_ranks_and_briefs() {
        let all = [
            o(Kind::Verbatim, Some(1), true, 100),
            o(Kind::Verbatim, Some(4), true, 300),
            o(Kind::Paraphrase, None, false, 200),
            o(Kind::Identifier, Some(2), false, 50),
        ];
        let f = Figures::of(all.iter());
        assert_eq!(f.questions, 4);
        assert_eq!(
            (f.recall_at_1, f.recall_at_5, f.brief_containment),
            (0.25, 0.75, 0.5)
        );
        assert!((f.mrr_at_10 - (1.0 + 0.25 + 0.5) / 4.0).abs() < 1e-12);
        assert_eq!(f.median_brief_tokens, 100);
        let r = Report::new(all.to_vec(), 8000, "o200k_base");
        assert_eq!(
            r.by_kind
                .iter()
                .map(|(k, f)| (*k, f.questions))
                .collect::<Vec<_>>(),
            [
                (Kind::Verbatim, 2),
                (Kind::Paraphrase, 1),
                (Kind::Identifier, 1)
            ]
        );
    }
}
