//! What the two fetchers share ([`Ctx`]) and the local copy they return ([`Local`]).

use std::path::PathBuf;
use std::sync::Arc;

use super::cache::{Cache, EntryMeta};
use super::http::Client;

/// The cached copy of a remote source.
pub struct Local {
    /// The local folder (or file) to load: inside the cache, read-only.
    pub path: PathBuf,
    /// The file a URL names, inside `path` (`None` for a repository).
    pub file: Option<PathBuf>,
    /// The root label every node id starts with ([`super::Source::label`]).
    pub label: String,
    /// What a user should know: the cache was used instead of the network, and why.
    pub note: Option<String>,
}

/// What the fetchers share.
pub struct Ctx {
    pub(super) client: Arc<Client>,
    pub(super) cache: Cache,
    pub(super) offline: bool,
    pub(super) cap: u64,
}

/// "used the cached copy from 2026-12-04 21:07 UTC (offline)".
pub(super) fn cached_note(meta: &EntryMeta, why: &str) -> String {
    let (y, mo, d, h, mi, _) = crate::util::utc::civil(meta.fetched);
    format!(
        "{}: used the cached copy from {y:04}-{mo:02}-{d:02} {h:02}:{mi:02} UTC ({why})",
        meta.source
    )
}
