//! The BERT encoder's forward pass for one sequence (no padding, no mask: every position is
//! a real token), as Hugging Face's `BertModel` computes it in inference: word + position +
//! token-type-0 embeddings, layer norm, then per layer multi-head self-attention (scaled
//! dot product, softmax), residual + layer norm, a GELU feed-forward, residual + layer norm.
//! Matrix products go through `ndarray` (`matrixmultiply`'s f32 kernels) into the buffers of
//! a [`Scratch`], reused from layer to layer and text to text; the query, key and value
//! projections are one product with their weights stacked (`[3·hidden, hidden]`).

use ndarray::linalg::general_mat_mul;
use ndarray::{Array1, Array2, ArrayView2, ArrayViewMut2, Axis, Slice};

/// The encoder's dimensions.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    /// Hidden size (384 for MiniLM-L6).
    pub hidden: usize,
    /// Attention heads (12).
    pub heads: usize,
    /// Position embeddings: the longest sequence (512).
    pub positions: usize,
    /// Feed-forward width (1536).
    pub intermediate: usize,
    /// Layer-norm epsilon.
    pub eps: f32,
}

/// `y = x · wᵀ + b` with `w` as stored (`[out, in]`).
#[derive(Debug)]
pub(super) struct Linear {
    pub w: Array2<f32>,
    pub b: Array1<f32>,
}

impl Linear {
    /// Write `x · wᵀ + b` into `y` (`[rows of x, out]`).
    fn apply_into(&self, x: &ArrayView2<'_, f32>, y: &mut ArrayViewMut2<'_, f32>) {
        general_mat_mul(1.0, x, &self.w.t(), 0.0, y);
        *y += &self.b;
    }

    /// The rows of `parts` stacked (`w`) and their biases joined: one product computing
    /// every part's output side by side. `None` when the input widths differ.
    pub fn stacked(parts: &[&Linear]) -> Option<Linear> {
        let ws: Vec<ArrayView2<'_, f32>> = parts.iter().map(|l| l.w.view()).collect();
        let bs: Vec<_> = parts.iter().map(|l| l.b.view()).collect();
        Some(Linear {
            w: ndarray::concatenate(Axis(0), &ws).ok()?,
            b: ndarray::concatenate(Axis(0), &bs).ok()?,
        })
    }
}

/// Layer norm weights.
#[derive(Debug)]
pub(super) struct Norm {
    pub w: Array1<f32>,
    pub b: Array1<f32>,
}

impl Norm {
    /// Normalise every row of `x` in place (mean 0, variance 1, then `· w + b`).
    fn apply(&self, x: &mut ArrayViewMut2<'_, f32>, eps: f32) {
        let n = x.ncols() as f32;
        for mut row in x.rows_mut() {
            let mean = row.sum() / n;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
            let inv = 1.0 / (var + eps).sqrt();
            for ((v, w), b) in row.iter_mut().zip(&self.w).zip(&self.b) {
                *v = (*v - mean) * inv * w + b;
            }
        }
    }
}

/// One transformer layer.
#[derive(Debug)]
pub(super) struct Layer {
    /// Query, key and value projections stacked: `[3·hidden, hidden]`.
    pub qkv: Linear,
    pub out: Linear,
    pub attn_norm: Norm,
    pub up: Linear,
    pub down: Linear,
    pub out_norm: Norm,
}

/// The buffers of one forward pass, grown to the longest sequence seen and reused (one per
/// encoding thread).
#[derive(Debug, Default)]
pub(super) struct Scratch {
    x: Vec<f32>,
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    scores: Vec<f32>,
    a: Vec<f32>,
    mid: Vec<f32>,
}

/// A `[rows, cols]` view of the first `rows · cols` values of `buf` (grown when shorter;
/// `None` only if that size overflows).
fn view(buf: &mut Vec<f32>, rows: usize, cols: usize) -> Option<ArrayViewMut2<'_, f32>> {
    let n = rows.checked_mul(cols)?;
    if buf.len() < n {
        buf.resize(n, 0.0);
    }
    ArrayViewMut2::from_shape((rows, cols), &mut buf[..n]).ok()
}

/// The whole encoder.
#[derive(Debug)]
pub(super) struct Bert {
    pub shape: Shape,
    /// `[vocab, hidden]`.
    pub words: Array2<f32>,
    /// `[positions, hidden]`.
    pub positions: Array2<f32>,
    /// Token type 0's embedding (`[hidden]`).
    pub token_type0: Array1<f32>,
    pub emb_norm: Norm,
    pub layers: Vec<Layer>,
}

impl Bert {
    /// The mean of the last layer's states of `ids` (`[hidden]`), computed in `sc`; ids out
    /// of the vocabulary read row 0 (`[PAD]`), and a sequence longer than the position table
    /// is cut to it. `None` for no ids.
    fn mean_state(&self, ids: &[u32], sc: &mut Scratch) -> Option<Array1<f32>> {
        let sh = self.shape;
        let len = ids.len().min(sh.positions);
        if len == 0 {
            return None;
        }
        let (h, dh) = (sh.hidden, sh.hidden / sh.heads);
        let scale = 1.0 / (dh as f32).sqrt();
        let Scratch {
            x,
            qkv,
            ctx,
            scores,
            a,
            mid,
        } = sc;
        let mut x = view(x, len, h)?;
        for (i, &id) in ids.iter().take(len).enumerate() {
            let id = (id as usize).min(self.words.nrows().saturating_sub(1));
            let mut row = x.row_mut(i);
            row.assign(&self.words.row(id));
            row += &self.positions.row(i);
            row += &self.token_type0;
        }
        self.emb_norm.apply(&mut x, sh.eps);
        let mut qkv = view(qkv, len, 3 * h)?;
        let mut ctx = view(ctx, len, h)?;
        let mut scores = view(scores, len, len)?;
        let mut a = view(a, len, h)?;
        let mut mid = view(mid, len, sh.intermediate)?;
        for layer in &self.layers {
            layer.qkv.apply_into(&x.view(), &mut qkv);
            for head in 0..sh.heads {
                let cols =
                    |part: usize| Slice::from(part * h + head * dh..part * h + (head + 1) * dh);
                let q = qkv.slice_axis(Axis(1), cols(0));
                let k = qkv.slice_axis(Axis(1), cols(1));
                let v = qkv.slice_axis(Axis(1), cols(2));
                general_mat_mul(scale, &q, &k.t(), 0.0, &mut scores);
                softmax_rows(&mut scores);
                let mut c = ctx.slice_axis_mut(Axis(1), Slice::from(head * dh..(head + 1) * dh));
                general_mat_mul(1.0, &scores, &v, 0.0, &mut c);
            }
            layer.out.apply_into(&ctx.view(), &mut a);
            a += &x;
            layer.attn_norm.apply(&mut a, sh.eps);
            layer.up.apply_into(&a.view(), &mut mid);
            mid.mapv_inplace(gelu);
            layer.down.apply_into(&mid.view(), &mut x);
            x += &a;
            layer.out_norm.apply(&mut x, sh.eps);
        }
        x.mean_axis(Axis(0))
    }

    /// The mean of the last layer's states of `ids`, L2-normalised (sentence-transformers'
    /// mean pooling over every position, then its `Normalize` module), computed in `sc`;
    /// `None` for no ids or all-zero states.
    pub fn pooled(&self, ids: &[u32], sc: &mut Scratch) -> Option<Vec<f32>> {
        let mut v = self.mean_state(ids, sc)?.to_vec();
        crate::embed::normalize(&mut v).then_some(v)
    }
}

/// Softmax of every row of `m` in place.
fn softmax_rows(m: &mut ArrayViewMut2<'_, f32>) {
    for mut row in m.rows_mut() {
        let max = row.iter().fold(f32::NEG_INFINITY, |a, b| a.max(*b));
        let mut sum = 0.0;
        for v in &mut row {
            *v = (*v - max).exp();
            sum += *v;
        }
        if sum > 0.0 {
            row /= sum;
        }
    }
}

/// BERT's exact GELU, `x · Φ(x)`, with erf from Abramowitz–Stegun 7.1.26 (absolute error
/// below 1.5e-7, under f32 resolution of these activations).
fn gelu(x: f32) -> f32 {
    let z = x.abs() / std::f32::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_6
            + t * (-0.284_496_74 + t * (1.421_413_8 + t * (-1.453_152 + t * 1.061_405_4))));
    let erf = (1.0 - poly * (-z * z).exp()).copysign(x);
    0.5 * x * (1.0 + erf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gelu_matches_known_values() {
        // x·Φ(x): Φ(1) = 0.841344746, Φ(-1) = 0.158655254, Φ(2) = 0.977249868.
        assert!((gelu(1.0) - 0.841_344_7).abs() < 1e-6);
        assert!((gelu(-1.0) + 0.158_655_25).abs() < 1e-6);
        assert!((gelu(2.0) - 1.954_499_7).abs() < 1e-6);
        assert!(gelu(0.0).abs() < f32::MIN_POSITIVE);
    }

    #[test]
    fn softmax_rows_sum_to_one_and_keep_order() {
        let mut m = ndarray::arr2(&[[1.0f32, 2.0, 3.0], [1000.0, 1000.0, 1000.0]]);
        softmax_rows(&mut m.view_mut());
        assert!((m.row(0).sum() - 1.0).abs() < 1e-6);
        assert!((m[[0, 0]] - 0.090_030_57).abs() < 1e-6);
        assert!((m[[1, 2]] - 1.0 / 3.0).abs() < 1e-6);
    }
}
