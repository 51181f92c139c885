//! Serde shapes of the model for the persisted index (docs/DESIGN.md §8 "Persisted index"),
//! for fields whose JSON shape (for `--json` output) is not the one to store: [`Flags`] as
//! their bits, [`Warning`]s with every field present, and frontmatter `meta` as a JSON text
//! (the index's byte layout is not self-describing, so it cannot hold a `serde_json::Value`
//! directly). Used through `#[serde(with = …)]` on [`crate::model::Node`]'s fields.

use serde::{Deserialize, Deserializer, Serializer};

use super::node::{Flags, Warning};

/// [`Flags`] as their `u16` bits.
pub mod flag_bits {
    use super::{Deserialize, Deserializer, Flags, Serializer};

    /// Write the bits (serde's `with` passes the field by reference).
    #[allow(clippy::trivially_copy_pass_by_ref)]
    pub fn serialize<S: Serializer>(f: &Flags, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u16(f.bits())
    }

    /// Read the bits back (unknown bits are kept as they were).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Flags, D::Error> {
        u16::deserialize(d).map(Flags::from_bits)
    }
}

/// Warnings as `(message, path, line)` tuples.
pub mod warnings {
    use super::{Deserialize, Deserializer, Serializer, Warning};

    type Shape = (String, Option<String>, Option<u32>);

    /// Write each warning as a tuple.
    pub fn serialize<S: Serializer>(w: &[Warning], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(w.iter().map(|w| (&w.message, &w.path, w.line)))
    }

    /// Read the tuples back.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<thin_vec::ThinVec<Warning>, D::Error> {
        let v = Vec::<Shape>::deserialize(d)?;
        Ok(v.into_iter()
            .map(|(message, path, line)| Warning {
                message,
                path,
                line,
            })
            .collect())
    }
}

/// A JSON object map as its JSON text (empty text for an empty map).
pub mod json_map {
    use super::{Deserialize, Deserializer, Serializer};

    use crate::model::{Meta, MetaMap as Map};

    /// Write the map as JSON text.
    pub fn serialize<S: Serializer>(m: &Meta, s: S) -> Result<S::Ok, S::Error> {
        if m.is_empty() {
            return s.serialize_str("");
        }
        let text = serde_json::to_string(m).map_err(serde::ser::Error::custom)?;
        s.serialize_str(&text)
    }

    /// Parse the JSON text back.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Meta, D::Error> {
        let text = <&str>::deserialize(d)?;
        if text.is_empty() {
            return Ok(Meta::new());
        }
        serde_json::from_str::<Map>(text)
            .map(Meta::from)
            .map_err(serde::de::Error::custom)
    }
}
