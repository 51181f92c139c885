//! Serde for vectors of plain numbers as one byte string, for the persisted index
//! (docs/DESIGN.md §8 "Persisted index"): written and read at memory speed instead of one
//! variable-length integer per element. The bytes are in the machine's byte order: an index
//! file is only ever read by the build that wrote it. Use with `#[serde(with = "…")]`.

use bytemuck::Pod;
use serde::{Deserialize, Deserializer, Serializer};

/// Write `v` as its bytes.
pub fn serialize<T: Pod, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(bytemuck::cast_slice(v))
}

/// Read the bytes back. Errors: a length that is not a whole number of elements.
pub fn deserialize<'de, T: Pod, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    let bytes = <&[u8]>::deserialize(d)?;
    if !bytes.len().is_multiple_of(size_of::<T>()) {
        return Err(serde::de::Error::custom(
            "a byte string cut inside an element",
        ));
    }
    Ok(bytemuck::pod_collect_to_vec(bytes))
}

/// `Vec<char>` as the bytes of its `u32` code points.
pub mod chars {
    use super::{Deserializer, Serializer};

    /// Write the code points' bytes.
    pub fn serialize<S: Serializer>(v: &[char], s: S) -> Result<S::Ok, S::Error> {
        let points: Vec<u32> = v.iter().map(|&c| u32::from(c)).collect();
        super::serialize(&points, s)
    }

    /// Read them back. Errors: a value that is not a Unicode scalar value.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<char>, D::Error> {
        let points: Vec<u32> = super::deserialize(d)?;
        points
            .into_iter()
            .map(|p| char::from_u32(p).ok_or_else(|| serde::de::Error::custom("not a char")))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Holder {
        #[serde(with = "super")]
        a: Vec<u32>,
        #[serde(with = "super")]
        b: Vec<usize>,
        #[serde(with = "super::chars")]
        c: Vec<char>,
    }

    #[test]
    fn numbers_and_chars_read_back() {
        let h = Holder {
            a: vec![0, 7, u32::MAX],
            b: vec![usize::MAX, 3],
            c: vec!['a', 'é', '中'],
        };
        let bytes = postcard::to_stdvec(&h).unwrap();
        assert_eq!(postcard::from_bytes::<Holder>(&bytes).unwrap(), h);
    }
}
