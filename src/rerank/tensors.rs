//! The tensors of a model's `model.safetensors`, read front to back in one pass that also
//! feeds the model's identity hash ([`super::store::ModelHasher`]): the file is never held
//! whole, so loading peaks at the weights plus one 64 KiB chunk, not twice the file (the
//! safetensors layout: an 8-byte little-endian header length, a JSON header naming each
//! tensor's dtype, shape and byte range, then the data; parsed and checked by the
//! `safetensors` crate's `Metadata`).

use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use ndarray::{Array1, Array2};
use safetensors::Dtype;
use safetensors::tensor::Metadata;

use super::RerankError;
use super::bert::{Linear, Norm};
use super::store::ModelHasher;

/// Bytes read at a time (a multiple of 4, so an F32 tensor's chunks hold whole floats).
const CHUNK: usize = 64 * 1024;

/// Largest JSON header accepted, in bytes (the `safetensors` crate's own limit).
const MAX_HEADER: u64 = 100_000_000;

/// One tensor of the file: its dtype and shape, and its values when it is F32 (the only
/// dtype the forward pass reads; others are hashed and skipped).
struct Loaded {
    dtype: Dtype,
    shape: Vec<usize>,
    data: Option<Vec<f32>>,
}

/// The tensors of one safetensors file, by BERT name (with or without a `bert.` prefix).
/// Each is taken out once by the accessors, which move its values without a copy.
pub(super) struct Tensors {
    map: HashMap<String, Loaded>,
    path: PathBuf,
    prefix: &'static str,
}

/// A reader that feeds every byte it reads to the model hash.
struct Hashing<'a, R> {
    inner: R,
    hash: &'a mut ModelHasher,
}

impl<R: Read> Read for Hashing<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.bytes(&buf[..n]);
        Ok(n)
    }
}

impl Tensors {
    /// Read `path` whole, front to back, hashing its length and bytes into `hash` as one
    /// part. Errors: a missing or unreadable file, a header that is not safetensors' (or
    /// whose byte ranges do not match the file's size), a truncated file.
    pub(super) fn read(path: &Path, hash: &mut ModelHasher) -> Result<Tensors, RerankError> {
        let io = |source| RerankError::Io {
            path: path.to_path_buf(),
            source,
        };
        if !path.is_file() {
            return Err(RerankError::MissingFile(path.to_path_buf()));
        }
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        hash.part(len);
        let mut r = Hashing { inner: file, hash };
        let (header_len, meta) = read_header(&mut r, path, len)?;
        let mut infos: Vec<_> = meta.tensors().into_iter().collect();
        infos.sort_by_key(|(_, info)| info.data_offsets.0);
        let data_len = infos.last().map_or(0, |(_, info)| info.data_offsets.1) as u64;
        if 8 + header_len + data_len != len {
            return Err(bad(path, "the file's size does not match its header"));
        }
        let mut map = HashMap::with_capacity(infos.len());
        for (name, info) in infos {
            let bytes = info.data_offsets.1 - info.data_offsets.0;
            let data = if info.dtype == Dtype::F32 {
                Some(read_floats(&mut r, bytes).map_err(io)?)
            } else {
                skip(&mut r, bytes).map_err(io)?;
                None
            };
            let shape = info.shape.clone();
            map.insert(
                name,
                Loaded {
                    dtype: info.dtype,
                    shape,
                    data,
                },
            );
        }
        let prefix = if map.keys().any(|n| n.starts_with("bert.")) {
            "bert."
        } else {
            ""
        };
        Ok(Tensors {
            map,
            path: path.to_path_buf(),
            prefix,
        })
    }

    /// The file's path (for errors).
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Take the F32 tensor `name` with `shape` (a 0 in `shape` accepts any length there,
    /// above 0). Errors: no such tensor (or taken already), another dtype, another shape.
    fn floats(
        &mut self,
        name: &str,
        shape: &[usize],
    ) -> Result<(Vec<f32>, Vec<usize>), RerankError> {
        let full = format!("{}{name}", self.prefix);
        let Some(t) = self.map.remove(&full) else {
            return Err(bad(&self.path, format!("no tensor {full}")));
        };
        let Some(data) = t.data else {
            return Err(bad(&self.path, format!("{full}: {:?}, not F32", t.dtype)));
        };
        let fits = t.shape.len() == shape.len()
            && t.shape
                .iter()
                .zip(shape)
                .all(|(g, s)| if *s == 0 { *g > 0 } else { g == s });
        if !fits {
            return Err(bad(
                &self.path,
                format!("{full}: shape {:?}, expected {shape:?}", t.shape),
            ));
        }
        Ok((data, t.shape))
    }

    /// Take the vector `name` of `n` floats. Errors: as [`Tensors::floats`].
    pub(super) fn vector(&mut self, name: &str, n: usize) -> Result<Array1<f32>, RerankError> {
        Ok(Array1::from(self.floats(name, &[n])?.0))
    }

    /// Take the matrix `name` of `rows`×`cols` floats (0: any). Errors: as
    /// [`Tensors::floats`].
    pub(super) fn matrix(
        &mut self,
        name: &str,
        rows: usize,
        cols: usize,
    ) -> Result<Array2<f32>, RerankError> {
        let (data, shape) = self.floats(name, &[rows, cols])?;
        Array2::from_shape_vec((shape[0], shape[1]), data)
            .map_err(|e| bad(&self.path, format!("{name}: {e}")))
    }

    /// Take the layer norm `name` (`.weight` and `.bias`, `h` floats each).
    pub(super) fn norm(&mut self, name: &str, h: usize) -> Result<Norm, RerankError> {
        Ok(Norm {
            w: self.vector(&format!("{name}.weight"), h)?,
            b: self.vector(&format!("{name}.bias"), h)?,
        })
    }

    /// Take the linear map `name` from `inp` to `out` floats (`.weight` `out`×`inp`,
    /// `.bias`).
    pub(super) fn linear(
        &mut self,
        name: &str,
        out: usize,
        inp: usize,
    ) -> Result<Linear, RerankError> {
        Ok(Linear {
            w: self.matrix(&format!("{name}.weight"), out, inp)?,
            b: self.vector(&format!("{name}.bias"), out)?,
        })
    }
}

/// The header of a file of `len` bytes: its length in bytes and the metadata it holds.
/// Errors: a length past the file or over [`MAX_HEADER`], JSON that is not a safetensors
/// header, an unreadable file.
fn read_header(r: &mut impl Read, path: &Path, len: u64) -> Result<(u64, Metadata), RerankError> {
    let mut n = [0u8; 8];
    r.read_exact(&mut n)
        .map_err(|_| bad(path, "too short for a safetensors header"))?;
    let n = u64::from_le_bytes(n);
    if n > MAX_HEADER || n > len.saturating_sub(8) {
        return Err(bad(
            path,
            format!("header length {n} does not fit the file"),
        ));
    }
    let mut header = vec![0u8; n as usize];
    r.read_exact(&mut header)
        .map_err(|source| RerankError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    let meta: Metadata = serde_json::from_slice(&header).map_err(|e| bad(path, e.to_string()))?;
    Ok((n, meta))
}

/// Read `bytes` bytes (a multiple of 4) of little-endian f32 values.
fn read_floats(r: &mut impl Read, bytes: usize) -> std::io::Result<Vec<f32>> {
    let mut out = Vec::with_capacity(bytes / 4);
    let mut buf = vec![0u8; CHUNK.min(bytes)];
    let mut left = bytes;
    while left > 0 {
        let k = left.min(buf.len());
        r.read_exact(&mut buf[..k])?;
        out.extend(
            buf[..k]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        left -= k;
    }
    Ok(out)
}

/// Read and drop `bytes` bytes (they are still hashed).
fn skip(r: &mut impl Read, bytes: usize) -> std::io::Result<()> {
    let copied = std::io::copy(&mut r.take(bytes as u64), &mut std::io::sink())?;
    if copied < bytes as u64 {
        return Err(std::io::ErrorKind::UnexpectedEof.into());
    }
    Ok(())
}

fn bad(path: &Path, what: impl Into<String>) -> RerankError {
    RerankError::Bad {
        path: path.to_path_buf(),
        what: what.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use safetensors::tensor::TensorView;

    /// A safetensors file of an F32 `2×3` matrix `a.weight`, an F32 vector `a.bias` and an
    /// I64 tensor `ids` (a dtype the forward pass never reads).
    fn file() -> Vec<u8> {
        let w: Vec<u8> = (0..6u8)
            .flat_map(|i| (f32::from(i) * 0.5).to_le_bytes())
            .collect();
        let b: Vec<u8> = [7.0f32, -1.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let ids: Vec<u8> = 3i64.to_le_bytes().to_vec();
        let tensors = [
            (
                "a.weight",
                TensorView::new(Dtype::F32, vec![2, 3], &w).unwrap(),
            ),
            ("a.bias", TensorView::new(Dtype::F32, vec![2], &b).unwrap()),
            ("ids", TensorView::new(Dtype::I64, vec![1], &ids).unwrap()),
        ];
        safetensors::serialize(tensors, None).unwrap()
    }

    #[test]
    fn tensors_read_in_one_pass_give_the_values_and_the_whole_file_hash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.safetensors");
        let bytes = file();
        std::fs::write(&path, &bytes).unwrap();
        let mut hash = ModelHasher::new(254);
        let mut t = Tensors::read(&path, &mut hash).unwrap();
        assert_eq!(hash.finish(), super::super::store::model_id(254, &[&bytes]));
        let lin = t.linear("a", 2, 3).unwrap();
        assert_eq!(lin.w.row(1).to_vec(), [1.5, 2.0, 2.5]);
        assert_eq!(lin.b.to_vec(), [7.0, -1.0]);
        // Taken once; a dtype other than F32 is named.
        assert!(t.vector("a.bias", 2).is_err());
        let err = t.vector("ids", 1).unwrap_err().to_string();
        assert!(err.ends_with("ids: I64, not F32"), "{err}");
    }

    #[test]
    fn a_truncated_or_padded_file_is_refused_by_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.safetensors");
        let bytes = file();
        for broken in [
            &bytes[..bytes.len() - 4],
            &[bytes.as_slice(), &[0u8; 4]].concat()[..],
        ] {
            std::fs::write(&path, broken).unwrap();
            let err = Tensors::read(&path, &mut ModelHasher::new(1))
                .err()
                .expect("refused")
                .to_string();
            assert!(err.contains("does not match its header"), "{err}");
        }
        std::fs::write(&path, b"\xff\xff\xff\xff\xff\xff\xff\xff{}").unwrap();
        let err = Tensors::read(&path, &mut ModelHasher::new(1))
            .err()
            .expect("refused");
        assert!(err.to_string().contains("does not fit the file"), "{err}");
    }
}
