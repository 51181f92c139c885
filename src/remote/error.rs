//! Why a remote source could not be opened ([`RemoteError`]): each case names the URL and what
//! a user can do about it.

use std::fmt;

/// A failed fetch, archive or cache step. A failure never leaves a partial cache entry
/// (docs/REMOTE.md "Cache").
#[derive(Debug)]
pub enum RemoteError {
    /// The server answered 404 or 410.
    NotFound {
        /// The URL asked for.
        url: String,
    },
    /// Any other status that is not 2xx, 304 or a redirect.
    Status {
        /// The URL asked for.
        url: String,
        /// HTTP status code.
        code: u16,
    },
    /// A redirect led back to a URL already visited.
    RedirectLoop {
        /// The URL that was reached twice.
        url: String,
    },
    /// More redirects than one request follows.
    TooManyRedirects {
        /// The first URL asked for.
        url: String,
        /// Redirects followed before giving up.
        max: usize,
    },
    /// The response is larger than the download cap.
    TooLarge {
        /// The URL asked for.
        url: String,
        /// The cap, in bytes.
        cap: u64,
    },
    /// The body ended before its `Content-Length`.
    Truncated {
        /// The URL asked for.
        url: String,
        /// Bytes received.
        got: u64,
        /// Bytes announced.
        want: u64,
    },
    /// The connection or the response took longer than the timeout.
    Timeout {
        /// The URL asked for.
        url: String,
    },
    /// The TLS handshake failed (certificate, protocol).
    Tls {
        /// The URL asked for.
        url: String,
        /// The TLS library's reason.
        reason: String,
    },
    /// Name lookup, connection or transfer failure.
    Transport {
        /// The URL asked for.
        url: String,
        /// The HTTP library's reason.
        reason: String,
    },
    /// The archive cannot be read (truncated, not gzip, not tar) or holds an entry that would
    /// land outside its folder.
    BadArchive {
        /// What was being unpacked (`github:owner/repo@ref`).
        source: String,
        /// Why.
        reason: String,
    },
    /// `--offline`, and the source was never fetched.
    NotCached {
        /// The source as written.
        source: String,
    },
    /// The folder asked for is not in the repository.
    NoSuchFolder {
        /// The source as written.
        source: String,
    },
    /// The cache folder cannot be written.
    Cache {
        /// What was being written.
        what: String,
        /// The I/O error.
        error: std::io::Error,
    },
}

impl RemoteError {
    /// Whether the failure says nothing about the source itself (the server could not be
    /// reached, or the transfer broke off), so a cached copy may stand in. A 404, a redirect
    /// loop, an oversize or unsafe answer may not.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            RemoteError::Timeout { .. }
                | RemoteError::Transport { .. }
                | RemoteError::Tls { .. }
                | RemoteError::Truncated { .. }
        )
    }

    /// An I/O error while writing `what` into the cache.
    pub fn cache(what: impl Into<String>, error: std::io::Error) -> Self {
        RemoteError::Cache {
            what: what.into(),
            error,
        }
    }
}

impl fmt::Display for RemoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteError::NotFound { url } => write!(f, "{url}: not found (404)"),
            RemoteError::Status { url, code } => write!(f, "{url}: the server answered {code}"),
            RemoteError::RedirectLoop { url } => write!(f, "{url}: redirect loop"),
            RemoteError::TooManyRedirects { url, max } => {
                write!(f, "{url}: more than {max} redirects")
            }
            RemoteError::TooLarge { url, cap } => write!(
                f,
                "{url}: larger than the download cap of {} MiB (raise it with --max-download-mb)",
                cap.div_ceil(1024 * 1024)
            ),
            RemoteError::Truncated { url, got, want } => {
                write!(f, "{url}: the response ended after {got} of {want} bytes")
            }
            RemoteError::Timeout { url } => write!(f, "{url}: timed out"),
            RemoteError::Tls { url, reason } => write!(f, "{url}: TLS failed: {reason}"),
            RemoteError::Transport { url, reason } => write!(f, "{url}: {reason}"),
            RemoteError::BadArchive { source, reason } => {
                write!(f, "{source}: bad archive: {reason}")
            }
            RemoteError::NotCached { source } => write!(
                f,
                "{source}: not in the cache (--offline); open it once without --offline"
            ),
            RemoteError::NoSuchFolder { source } => {
                write!(f, "{source}: no such folder in the repository")
            }
            RemoteError::Cache { what, error } => {
                write!(f, "cannot write the cache ({what}): {error}")
            }
        }
    }
}

impl std::error::Error for RemoteError {}
