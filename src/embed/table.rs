//! The int8 embedding rows with one f32 scale per row, read from a safetensors file
//! (8-byte little-endian header length, JSON header naming each tensor's dtype, shape and
//! byte range, then the data). The rows stay in the embedded bytes; only the scales are
//! copied out.

use serde::Deserialize;
use std::collections::HashMap;

/// The rows of a static model: row `i` is `scales[i] × data[i·dims .. (i+1)·dims]` (int8).
#[derive(Debug)]
pub struct Table {
    data: &'static [u8],
    scales: Vec<f32>,
    dims: usize,
}

#[derive(Deserialize)]
struct TensorInfo {
    dtype: String,
    shape: Vec<usize>,
    data_offsets: [usize; 2],
}

impl Table {
    /// Parse `bytes`: tensors `embeddings` (I8 `[rows, dims]`) and `scales` (F32 `[rows]`).
    /// `None` when the header is malformed, a tensor is missing, of another dtype or shape,
    /// or out of range.
    pub fn parse(bytes: &'static [u8], dims: usize) -> Option<Self> {
        let head_len = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?) as usize;
        let head = bytes.get(8..8usize.checked_add(head_len)?)?;
        let body = bytes.get(8 + head_len..)?;
        let mut infos: HashMap<String, serde_json::Value> = serde_json::from_slice(head).ok()?;
        let take = |infos: &mut HashMap<String, serde_json::Value>, name: &str| {
            serde_json::from_value::<TensorInfo>(infos.remove(name)?).ok()
        };
        let emb = take(&mut infos, "embeddings")?;
        let sc = take(&mut infos, "scales")?;
        let rows = *emb.shape.first()?;
        if emb.dtype != "I8" || emb.shape != [rows, dims] || sc.dtype != "F32" || sc.shape != [rows]
        {
            return None;
        }
        let data = body.get(emb.data_offsets[0]..emb.data_offsets[1])?;
        let raw = body.get(sc.data_offsets[0]..sc.data_offsets[1])?;
        if data.len() != rows * dims || raw.len() != rows * 4 {
            return None;
        }
        let scales = raw
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Some(Self { data, scales, dims })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.scales.len()
    }

    /// Add row `i` (dequantised) to `acc` (`dims` long); rows out of range add nothing.
    pub fn add_row(&self, i: usize, acc: &mut [f32]) {
        let (Some(&s), Some(row)) = (
            self.scales.get(i),
            self.data.get(i * self.dims..(i + 1) * self.dims),
        ) else {
            return;
        };
        for (a, &q) in acc.iter_mut().zip(row) {
            *a += s * f32::from(q as i8);
        }
    }

    /// Row `i` dequantised (empty when out of range).
    pub fn row(&self, i: usize) -> Vec<f32> {
        let mut v = vec![0.0; self.dims];
        if i < self.rows() {
            self.add_row(i, &mut v);
            v
        } else {
            Vec::new()
        }
    }
}
