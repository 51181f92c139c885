//! `skillnav model install [NAME]` from the Hugging Face hub (docs/DESIGN.md §3 "Re-rank"):
//! each pinned file fetched from `<hub>/<repo>/resolve/<commit>/<path>` with the remote
//! sources' HTTP client ([`crate::remote::http::Client`]: proxies, timeouts, redirects to
//! the hub's file store) and streamed through [`Staging::write_file`], so a wrong checksum,
//! a short body or a failed write leaves nothing installed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::install::{ModelError, Progress, Staging};
use super::registry::ModelSpec;
use crate::remote::http::Client;

/// Seconds to wait to connect and for a response to start (the body may take twenty times
/// as long, as the client's rule).
const TIMEOUT_SECS: u64 = 60;

/// Download `spec` from the hub at `base` (e.g. [`super::registry::hub_base`]) and install
/// it under `models`; `progress` hears about every block. Returns the installed folder.
/// Errors: [`ModelError::Download`] (404, a status, the network), a file that does not
/// match its pin, [`ModelError::Io`].
pub fn install(
    models: &Path,
    spec: &'static ModelSpec,
    base: &str,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<PathBuf, ModelError> {
    let cap = spec.files.iter().map(|f| f.bytes).max().unwrap_or(0) + 1;
    let client = Client::new(cap, Duration::from_secs(TIMEOUT_SECS));
    let mut staging = Staging::new(models, spec)?;
    for file in spec.files {
        let url = spec.url(base, file);
        let (mut body, _declared) = client.get_stream(&url)?;
        staging.write_file(file, &mut body, progress)?;
    }
    staging.commit(&format!(
        "{}/{}/resolve/{}",
        base.trim_end_matches('/'),
        spec.repo,
        spec.revision
    ))
}
