//! The BERT encoder's forward pass for one sequence (no padding, no mask: every position is
//! a real token), as Hugging Face's `BertModel` computes it in inference: word + position +
//! token-type-0 embeddings, layer norm, then per layer multi-head self-attention (scaled
//! dot product, softmax), residual + layer norm, a GELU feed-forward, residual + layer norm.
//! Matrix products go through `ndarray` (`matrixmultiply`'s f32 kernels).

use ndarray::{Array1, Array2, ArrayView2, Axis, Slice};

/// The encoder's dimensions.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    /// Hidden size (384 for MiniLM-L6).
    pub hidden: usize,
    /// Attention heads (12).
    pub heads: usize,
    /// Position embeddings: the longest sequence (512).
    pub positions: usize,
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
    fn apply(&self, x: &ArrayView2<'_, f32>) -> Array2<f32> {
        let mut y = x.dot(&self.w.t());
        y += &self.b;
        y
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
    fn apply(&self, x: &mut Array2<f32>, eps: f32) {
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
    pub query: Linear,
    pub key: Linear,
    pub value: Linear,
    pub out: Linear,
    pub attn_norm: Norm,
    pub up: Linear,
    pub down: Linear,
    pub out_norm: Norm,
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
    /// The last layer's states of `ids` (`[len, hidden]`); ids out of the vocabulary read
    /// row 0 (`[PAD]`), and a sequence longer than the position table is cut to it.
    pub fn forward(&self, ids: &[u32]) -> Array2<f32> {
        let sh = self.shape;
        let len = ids.len().min(sh.positions);
        let mut x = Array2::<f32>::zeros((len, sh.hidden));
        for (i, &id) in ids.iter().take(len).enumerate() {
            let id = (id as usize).min(self.words.nrows().saturating_sub(1));
            let mut row = x.row_mut(i);
            row += &self.words.row(id);
            row += &self.positions.row(i);
            row += &self.token_type0;
        }
        self.emb_norm.apply(&mut x, sh.eps);
        let dh = sh.hidden / sh.heads;
        let scale = 1.0 / (dh as f32).sqrt();
        for layer in &self.layers {
            let xv = x.view();
            let q = layer.query.apply(&xv);
            let k = layer.key.apply(&xv);
            let v = layer.value.apply(&xv);
            let mut ctx = Array2::<f32>::zeros((len, sh.hidden));
            for h in 0..sh.heads {
                let cols = Slice::from(h * dh..(h + 1) * dh);
                let mut scores = q
                    .slice_axis(Axis(1), cols)
                    .dot(&k.slice_axis(Axis(1), cols).t());
                scores *= scale;
                softmax_rows(&mut scores);
                ctx.slice_axis_mut(Axis(1), cols)
                    .assign(&scores.dot(&v.slice_axis(Axis(1), cols)));
            }
            let mut a = layer.out.apply(&ctx.view());
            a += &x;
            layer.attn_norm.apply(&mut a, sh.eps);
            let mut hmid = layer.up.apply(&a.view());
            hmid.mapv_inplace(gelu);
            let mut o = layer.down.apply(&hmid.view());
            o += &a;
            layer.out_norm.apply(&mut o, sh.eps);
            x = o;
        }
        x
    }

    /// The mean of `forward(ids)`'s rows, L2-normalised (sentence-transformers' mean pooling
    /// over every position, then its `Normalize` module); `None` for no ids.
    pub fn pooled(&self, ids: &[u32]) -> Option<Vec<f32>> {
        if ids.is_empty() {
            return None;
        }
        let states = self.forward(ids);
        let mut v = states.mean_axis(Axis(0))?.to_vec();
        crate::embed::normalize(&mut v).then_some(v)
    }
}

/// Softmax of every row of `m` in place.
fn softmax_rows(m: &mut Array2<f32>) {
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
        softmax_rows(&mut m);
        assert!((m.row(0).sum() - 1.0).abs() < 1e-6);
        assert!((m[[0, 0]] - 0.090_030_57).abs() < 1e-6);
        assert!((m[[1, 2]] - 1.0 / 3.0).abs() < 1e-6);
    }
}
