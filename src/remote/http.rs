//! The one HTTP client of skillnav ([`Client`], on `ureq` with rustls): GET with a size cap,
//! conditional requests (`ETag` / `Last-Modified`), redirects followed here so loops are named,
//! a streamed GET for large files ([`Client::get_stream`], model downloads), and proxies from
//! the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`;
//! loopback never goes through a proxy). docs/REMOTE.md "Network".

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::error::RemoteError;

/// Most redirects one request follows.
pub const MAX_REDIRECTS: usize = 10;

/// The default download cap: 256 MiB per response (`--max-download-mb`).
pub const DEFAULT_CAP_BYTES: u64 = 256 * 1024 * 1024;

/// The default timeout for connecting and for the first byte of a response, in seconds.
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;

/// What a cached response is revalidated with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Validators {
    /// The `ETag` header, sent back as `If-None-Match`.
    pub etag: Option<String>,
    /// The `Last-Modified` header, sent back as `If-Modified-Since`.
    pub last_modified: Option<String>,
}

/// The outcome of a GET.
#[derive(Debug)]
pub enum Fetched {
    /// 304: the cached copy is current.
    NotModified,
    /// 2xx: the whole body (at most the cap, decoded when the server compressed it), with
    /// its validators and the URL it came from after redirects.
    Body {
        /// The bytes.
        bytes: Vec<u8>,
        /// `ETag` / `Last-Modified` of the response.
        validators: Validators,
        /// The URL that answered (the one asked for, or where its redirects led).
        url: String,
    },
}

/// An HTTP client with a size cap and a timeout; cheap to share between threads.
pub struct Client {
    cap: u64,
    timeout: Duration,
    agents: Mutex<HashMap<Option<String>, ureq::Agent>>,
}

impl Client {
    /// A client refusing bodies over `cap` bytes, waiting at most `timeout` to connect and
    /// for a response to start.
    pub fn new(cap: u64, timeout: Duration) -> Self {
        Self {
            cap,
            timeout,
            agents: Mutex::new(HashMap::new()),
        }
    }

    /// GET `url`, following redirects; with `cached`, a conditional GET that may answer
    /// [`Fetched::NotModified`]. Errors: every [`RemoteError`] network case (404, other
    /// statuses, a redirect loop, over the cap, timeout, TLS, a body that ends early).
    pub fn get(&self, url: &str, cached: Option<&Validators>) -> Result<Fetched, RemoteError> {
        match self.follow(url, cached)? {
            None => Ok(Fetched::NotModified),
            Some((at, resp)) => self.body(&at, resp),
        }
    }

    /// GET `url`, following redirects, and hand back the body as it arrives (at most the
    /// cap, read through; past it the reader fails) with its declared length in bytes, if
    /// the server gave one and did not compress it. A body that ends before its declared
    /// length reads as an error or as fewer bytes: the caller checks the count. Errors: as
    /// [`Client::get`] before the body starts (404, other statuses, redirects, timeout,
    /// TLS, a declared length over the cap).
    pub fn get_stream(
        &self,
        url: &str,
    ) -> Result<(Box<dyn Read + Send>, Option<u64>), RemoteError> {
        let Some((at, resp)) = self.follow(url, None)? else {
            return Err(RemoteError::Status {
                url: url.to_string(),
                code: 304,
            });
        };
        let header = |name: &str| resp.headers().get(name).and_then(|v| v.to_str().ok());
        let encoded =
            header("content-encoding").is_some_and(|e| !e.eq_ignore_ascii_case("identity"));
        let declared = header("content-length")
            .and_then(|n| n.trim().parse::<u64>().ok())
            .filter(|_| !encoded);
        if declared.is_some_and(|n| n > self.cap) {
            return Err(RemoteError::TooLarge {
                url: at,
                cap: self.cap,
            });
        }
        let reader = resp.into_body().into_reader().take(self.cap);
        Ok((Box::new(reader), declared))
    }

    /// Send GETs from `url` through its redirects: the URL that answered 2xx and its
    /// response, or `None` for a 304 to a conditional GET. Errors: as [`Client::get`].
    fn follow(
        &self,
        url: &str,
        cached: Option<&Validators>,
    ) -> Result<Option<(String, ureq::http::Response<ureq::Body>)>, RemoteError> {
        let mut seen = HashSet::new();
        let mut at = url.to_string();
        for _ in 0..=MAX_REDIRECTS {
            if !seen.insert(at.clone()) {
                return Err(RemoteError::RedirectLoop { url: at });
            }
            let resp = self.call(&at, cached)?;
            let code = resp.status().as_u16();
            match code {
                200..=299 => return Ok(Some((at, resp))),
                304 if cached.is_some() => return Ok(None),
                301 | 302 | 303 | 307 | 308 => at = next_hop(&at, &resp)?,
                404 | 410 => return Err(RemoteError::NotFound { url: at }),
                _ => return Err(RemoteError::Status { url: at, code }),
            }
        }
        Err(RemoteError::TooManyRedirects {
            url: url.into(),
            max: MAX_REDIRECTS,
        })
    }

    fn call(
        &self,
        url: &str,
        cached: Option<&Validators>,
    ) -> Result<ureq::http::Response<ureq::Body>, RemoteError> {
        let agent = self.agent(proxy_for(url, &|name: &str| std::env::var(name)));
        let mut req = agent.get(url);
        if let Some(v) = cached {
            if let Some(e) = &v.etag {
                req = req.header("If-None-Match", e);
            }
            if let Some(m) = &v.last_modified {
                req = req.header("If-Modified-Since", m);
            }
        }
        req.call().map_err(|e| classify(url, e))
    }

    fn body(
        &self,
        url: &str,
        resp: ureq::http::Response<ureq::Body>,
    ) -> Result<Fetched, RemoteError> {
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let validators = Validators {
            etag: header("etag"),
            last_modified: header("last-modified"),
        };
        // A compressed body is decoded on the way, so its length is not the header's.
        let encoded =
            header("content-encoding").is_some_and(|e| !e.eq_ignore_ascii_case("identity"));
        let declared = header("content-length")
            .and_then(|n| n.trim().parse::<u64>().ok())
            .filter(|_| !encoded);
        let too_large = || RemoteError::TooLarge {
            url: url.to_string(),
            cap: self.cap,
        };
        if declared.is_some_and(|n| n > self.cap) {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        let read = resp
            .into_body()
            .into_reader()
            .take(self.cap.saturating_add(1))
            .read_to_end(&mut bytes);
        let cut_short = |got: usize, want: u64| RemoteError::Truncated {
            url: url.to_string(),
            got: got as u64,
            want,
        };
        match (read, declared) {
            (Err(e), _) if is_timeout(&e) => return Err(read_error(url, &e)),
            (Err(_), Some(n)) => return Err(cut_short(bytes.len(), n)),
            (Err(e), None) => return Err(read_error(url, &e)),
            (Ok(_), _) => {}
        }
        if bytes.len() as u64 > self.cap {
            return Err(too_large());
        }
        if let Some(n) = declared.filter(|n| *n != bytes.len() as u64) {
            return Err(cut_short(bytes.len(), n));
        }
        Ok(Fetched::Body {
            bytes,
            validators,
            url: url.to_string(),
        })
    }

    fn agent(&self, proxy: Option<String>) -> ureq::Agent {
        let mut agents = self
            .agents
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        agents
            .entry(proxy.clone())
            .or_insert_with(|| self.new_agent(proxy.as_deref()))
            .clone()
    }

    fn new_agent(&self, proxy: Option<&str>) -> ureq::Agent {
        let proxy = proxy.and_then(|p| ureq::Proxy::new(p).ok());
        ureq::Agent::config_builder()
            .proxy(proxy)
            .max_redirects(0)
            .max_redirects_will_error(false)
            .http_status_as_error(false)
            .timeout_connect(Some(self.timeout))
            .timeout_recv_response(Some(self.timeout))
            .timeout_recv_body(Some(self.timeout.saturating_mul(20)))
            .user_agent(concat!("skillnav/", env!("CARGO_PKG_VERSION")))
            .build()
            .new_agent()
    }
}

/// The `Location` of a redirect, resolved against `at`.
fn next_hop(at: &str, resp: &ureq::http::Response<ureq::Body>) -> Result<String, RemoteError> {
    let loc = resp
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| RemoteError::Transport {
            url: at.to_string(),
            reason: "a redirect without a Location".into(),
        })?;
    Ok(resolve(at, loc))
}

/// `reference` resolved against the absolute URL `base` (RFC 3986 §5.2, for the forms servers
/// send: absolute, scheme-relative, absolute-path and relative-path references).
pub fn resolve(base: &str, reference: &str) -> String {
    if reference.contains("://") {
        return reference.to_string();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("https", base));
    if let Some(r) = reference.strip_prefix("//") {
        return format!("{scheme}://{r}");
    }
    let host_end = rest.find('/').unwrap_or(rest.len());
    let (host, path) = rest.split_at(host_end);
    let joined = if reference.starts_with('/') {
        reference.to_string()
    } else {
        let path = path.split(['?', '#']).next().unwrap_or("");
        let dir = path.rfind('/').map_or("/", |i| &path[..=i]);
        format!("{dir}{reference}")
    };
    format!("{scheme}://{host}{}", normalize_dots(&joined))
}

/// Remove `.` and `..` segments of an absolute path (query kept as is).
fn normalize_dots(path: &str) -> String {
    let (p, query) = match path.find(['?', '#']) {
        Some(i) => path.split_at(i),
        None => (path, ""),
    };
    let mut out: Vec<&str> = Vec::new();
    let segs: Vec<&str> = p.split('/').skip(1).collect();
    for (i, seg) in segs.iter().enumerate() {
        match *seg {
            "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
        if i + 1 == segs.len() && matches!(*seg, "." | "..") {
            out.push("");
        }
    }
    format!("/{}{query}", out.join("/"))
}

/// The proxy URL for `url` from the environment (`env` reads a variable): none for loopback
/// hosts and hosts `NO_PROXY` names (`*`, a host, or a `.suffix` / `suffix` domain, with an
/// optional `:port`), else `HTTPS_PROXY` / `HTTP_PROXY` by scheme, else `ALL_PROXY`; the
/// lower-case spelling wins over the upper-case one.
pub fn proxy_for<E>(url: &str, env: &dyn Fn(&str) -> Result<String, E>) -> Option<String> {
    let var = |name: &str| {
        env(&name.to_ascii_lowercase())
            .or_else(|_| env(name))
            .ok()
            .filter(|v| !v.trim().is_empty())
    };
    let parsed = super::source::parse_url(url).ok()?;
    let host = host_of(&parsed.authority);
    if is_loopback(host) {
        return None;
    }
    if let Some(list) = var("NO_PROXY")
        && no_proxy_matches(&list, host)
    {
        return None;
    }
    let by_scheme = if parsed.scheme == "https" {
        "HTTPS_PROXY"
    } else {
        "HTTP_PROXY"
    };
    var(by_scheme).or_else(|| var("ALL_PROXY"))
}

/// The host of an authority, without the port (`[::1]:8080` → `::1`).
fn host_of(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    authority.split(':').next().unwrap_or(authority)
}

/// `localhost` (and `*.localhost`, RFC 6761), with or without the root's trailing dot, and
/// the loopback addresses: `::1` and 127.0.0.0/8, shorthand spellings (`127.1`) included.
fn is_loopback(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    host == "localhost"
        || host.ends_with(".localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
        || (host.starts_with("127.") && host.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

fn no_proxy_matches(list: &str, host: &str) -> bool {
    list.split([',', ' '])
        .map(|e| host_of(e.trim()))
        .filter(|e| !e.is_empty())
        .any(|e| {
            let e = e.trim_start_matches("*.").trim_start_matches('.');
            e == "*" || host.eq_ignore_ascii_case(e) || host.ends_with(&format!(".{e}"))
        })
}

fn classify(url: &str, e: ureq::Error) -> RemoteError {
    let url = url.to_string();
    match e {
        ureq::Error::Timeout(_) => RemoteError::Timeout { url },
        // rustls reports a failed handshake as invalid data on the socket.
        ureq::Error::Io(io)
            if io.kind() == std::io::ErrorKind::InvalidData && url.starts_with("https:") =>
        {
            RemoteError::Tls {
                url,
                reason: io.to_string(),
            }
        }
        ureq::Error::Io(io) => read_error(&url, &io),
        ureq::Error::Tls(reason) => RemoteError::Tls {
            url,
            reason: reason.to_string(),
        },
        ureq::Error::Rustls(r) => RemoteError::Tls {
            url,
            reason: r.to_string(),
        },
        other => RemoteError::Transport {
            url,
            reason: other.to_string(),
        },
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::TimedOut || e.to_string().to_lowercase().contains("timeout")
}

fn read_error(url: &str, e: &std::io::Error) -> RemoteError {
    let url = url.to_string();
    if is_timeout(e) {
        return RemoteError::Timeout { url };
    }
    RemoteError::Transport {
        url,
        reason: format!("the transfer failed: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Result<String, ()> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        move |name| {
            vars.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .ok_or(())
        }
    }

    #[test]
    fn loopback_never_goes_through_a_proxy_and_no_proxy_is_honoured() {
        let e = env(&[
            ("HTTPS_PROXY", "http://proxy:3128"),
            ("http_proxy", "http://lower:3128"),
            ("NO_PROXY", "internal.example, .corp"),
        ]);
        for url in [
            "http://127.0.0.1:8080/llms.txt",
            "http://localhost/x",
            "http://[::1]:9/x",
            "http://127.1:8080/x",
            "http://localhost./x",
            "https://docs.internal.example/x",
            "https://a.corp/x",
        ] {
            assert_eq!(proxy_for(url, &e), None, "{url}");
        }
        assert_eq!(
            proxy_for("https://hono.dev/llms.txt", &e).as_deref(),
            Some("http://proxy:3128")
        );
        assert_eq!(
            proxy_for("http://hono.dev/llms.txt", &e).as_deref(),
            Some("http://lower:3128")
        );
        let all = env(&[("ALL_PROXY", "socks5://s:1"), ("no_proxy", "*")]);
        assert_eq!(proxy_for("https://x.dev/", &all), None);
    }

    #[test]
    fn references_resolve_against_the_base_url() {
        let base = "https://h.dev/docs/guide/llms.txt";
        assert_eq!(resolve(base, "a.md"), "https://h.dev/docs/guide/a.md");
        assert_eq!(resolve(base, "../api/b.md"), "https://h.dev/docs/api/b.md");
        assert_eq!(resolve(base, "/c.md"), "https://h.dev/c.md");
        assert_eq!(resolve(base, "//cdn.dev/d.md"), "https://cdn.dev/d.md");
        assert_eq!(resolve(base, "http://o.dev/e"), "http://o.dev/e");
        assert_eq!(resolve("http://h:1", "x"), "http://h:1/x");
    }
}
