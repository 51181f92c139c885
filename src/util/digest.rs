//! 128-bit keys of texts for finding identical ones without holding them: two 64-bit
//! foldhash digests with fixed seeds. Not cryptographic; at 128 bits two different texts
//! sharing a key is not a practical concern, and callers that must be exact compare the
//! texts of equal keys.

use std::hash::BuildHasher;

/// The 128-bit key of `text`.
pub fn key128(text: &str) -> u128 {
    let a = foldhash::fast::FixedState::with_seed(0x9e37_79b9_7f4a_7c15).hash_one(text);
    let b = foldhash::fast::FixedState::with_seed(0xc2b2_ae3d_27d4_eb4f).hash_one(text);
    (u128::from(a) << 64) | u128::from(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_a_key_and_a_changed_byte_changes_it() {
        assert_eq!(key128("same text"), key128(&String::from("same text")));
        assert_ne!(key128("same text"), key128("same texT"));
        assert_ne!(key128(""), key128(" "));
    }
}
