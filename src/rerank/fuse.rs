//! The ordering rule of a re-rank (docs/DESIGN.md §3 "Re-rank"): each of the first hits
//! scores `w · cosine + (1 − w) · score / max`, `cosine` being the transformer's similarity
//! of the query and the hit's text, `score` the hit's first-stage score (BM25, or BM25 fused
//! with the static semantic signal) and `max` the best of those among the candidates; hits
//! are sorted by that, best first, ties keeping their first-stage order. The weight `w` is
//! `[search] rerank_weight`.

use crate::index::Hit;

/// Dot product of two vectors (cosine for unit vectors), over the shorter length.
pub fn dot(a: &[f32], b: &[f32]) -> f64 {
    f64::from(a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>())
}

/// The fused score of a hit whose first-stage score is `score` (of best `max`) and whose
/// cosine is `cosine`, with weight `w` on the cosine.
pub fn fused(score: f64, max: f64, cosine: f64, w: f64) -> f64 {
    let lexical = if max > 0.0 { score / max } else { 0.0 };
    w * cosine + (1.0 - w) * lexical
}

/// Re-order `hits` by [`fused`] (`cosines[i]` belongs to `hits[i]`; a missing one is 0),
/// rewriting each hit's score to its fused score.
pub fn reorder(hits: &mut [Hit], cosines: &[f64], w: f64) {
    let max = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    let mut scored: Vec<(f64, usize, Hit)> = hits
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let c = cosines.get(i).copied().unwrap_or(0.0);
            (fused(h.score, max, c, w), i, h.clone())
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for (slot, (s, _, mut h)) in hits.iter_mut().zip(scored) {
        h.score = s;
        *slot = h;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{HitSource, Scorer};
    use crate::model::NodeId;

    fn hit(n: u32, score: f64) -> Hit {
        Hit {
            node: NodeId(n),
            score,
            source: HitSource::Bm25,
            scorer: Scorer::Skillnav,
            copies: Vec::new(),
        }
    }

    #[test]
    fn cosine_only_weight_orders_by_cosine_and_rewrites_scores() {
        let mut hits = vec![hit(1, 9.0), hit(2, 3.0), hit(3, 1.0)];
        reorder(&mut hits, &[0.2, 0.9, 0.5], 1.0);
        let order: Vec<(u32, f64)> = hits.iter().map(|h| (h.node.0, h.score)).collect();
        assert_eq!(order, vec![(2, 0.9), (3, 0.5), (1, 0.2)]);
    }

    #[test]
    fn half_weight_blends_normalised_bm25_and_ties_keep_first_order() {
        let mut hits = vec![hit(1, 10.0), hit(2, 5.0), hit(3, 5.0)];
        // 1: 0.5·0.2 + 0.5·1.0 = 0.6; 2 and 3: 0.5·0.7 + 0.5·0.5 = 0.6 — a three-way tie.
        reorder(&mut hits, &[0.2, 0.7, 0.7], 0.5);
        let order: Vec<u32> = hits.iter().map(|h| h.node.0).collect();
        assert_eq!(order, vec![1, 2, 3]);
        assert!((hits[0].score - 0.6).abs() < 1e-12);
    }

    #[test]
    fn missing_cosines_count_as_zero() {
        let mut hits = vec![hit(1, 1.0), hit(2, 2.0)];
        reorder(&mut hits, &[], 0.5);
        let order: Vec<u32> = hits.iter().map(|h| h.node.0).collect();
        assert_eq!(order, vec![2, 1]);
    }
}
