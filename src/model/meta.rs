//! [`Meta`]: a node's format-specific fields (frontmatter keys, ADR status, link url, …),
//! boxed only when a node has any. Most nodes (sections) have none, so the empty map costs a
//! node 8 bytes instead of 24 (docs/DESIGN.md §8 "Memory").

use std::ops::{Deref, DerefMut};
use std::sync::OnceLock;

/// The map type [`Meta`] derefs to.
pub type MetaMap = serde_json::Map<String, serde_json::Value>;

/// A JSON object map that allocates nothing while empty. It reads as a [`MetaMap`] (`Deref`);
/// writing through it (`DerefMut`) boxes a map first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meta(Option<Box<MetaMap>>);

impl Meta {
    /// An empty map (no allocation).
    pub const fn new() -> Self {
        Self(None)
    }

    /// The map by value (empty when there was none).
    pub fn into_map(self) -> MetaMap {
        self.0.map(|b| *b).unwrap_or_default()
    }
}

/// The one empty map every empty [`Meta`] reads as.
fn empty() -> &'static MetaMap {
    static EMPTY: OnceLock<MetaMap> = OnceLock::new();
    EMPTY.get_or_init(MetaMap::new)
}

impl Deref for Meta {
    type Target = MetaMap;

    fn deref(&self) -> &MetaMap {
        match &self.0 {
            Some(m) => m,
            None => empty(),
        }
    }
}

impl DerefMut for Meta {
    fn deref_mut(&mut self) -> &mut MetaMap {
        self.0.get_or_insert_with(Box::default)
    }
}

/// Serialized as the map it reads as (`{}` when empty).
impl serde::Serialize for Meta {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl From<MetaMap> for Meta {
    fn from(m: MetaMap) -> Self {
        if m.is_empty() {
            Self(None)
        } else {
            Self(Some(Box::new(m)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_meta_reads_as_an_empty_map_and_boxes_on_its_first_write() {
        let mut m = Meta::new();
        assert!(m.is_empty() && m.get("k").is_none() && m.0.is_none());
        m.insert("k".into(), serde_json::Value::from(1));
        assert_eq!(m.get("k"), Some(&serde_json::Value::from(1)));
        assert_eq!(Meta::from(MetaMap::new()).0, None);
        assert_eq!(m.clone().into_map().len(), 1);
    }
}
