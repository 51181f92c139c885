//! A loopback HTTP/1.1 server for the remote-source tests: fixed replies by path (files with
//! an `ETag` and 304 revalidation, statuses, redirects, a reply that never comes, a body cut
//! short, a response that claims 2 GB), one thread per connection, every request logged.
//! Tests never reach the internet.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the server answers on one path.
#[derive(Clone, Debug)]
pub enum Reply {
    /// 200 with these bytes and `ETag: "<len>-<sum>"`; 304 when `If-None-Match` matches.
    File(Vec<u8>),
    /// This status and an empty body.
    Status(u16),
    /// 302 to this location.
    Redirect(String),
    /// Read the request, then answer nothing for 30 s.
    Hang,
    /// 200 with `Content-Length` twice the body, then close.
    Truncated(Vec<u8>),
    /// 200 with `Content-Length: 2147483648`, then a few bytes and close.
    Huge,
}

/// A running server; stopped on drop.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// Every request as `"GET /path"`, with `" (conditional)"` when it carried `If-None-Match`.
    pub log: Arc<Mutex<Vec<String>>>,
    routes: Arc<Mutex<HashMap<String, Reply>>>,
    stop: Arc<AtomicBool>,
    port: u16,
}

impl Server {
    /// Serve `routes` (path → reply; anything else is 404) on a free loopback port.
    pub fn start(routes: HashMap<String, Reply>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
        let port = listener.local_addr().map_or(0, |a| a.port());
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(Vec::new()));
        let routes = Arc::new(Mutex::new(routes));
        let (s, l, r) = (Arc::clone(&stop), Arc::clone(&log), Arc::clone(&routes));
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let (routes, l) = (Arc::clone(&r), Arc::clone(&l));
                std::thread::spawn(move || serve(conn, &routes, &l));
            }
        });
        Self {
            base: format!("http://127.0.0.1:{port}"),
            log,
            routes,
            stop,
            port,
        }
    }

    /// Answer `path` with `reply` from now on (`None`: 404).
    pub fn set(&self, path: &str, reply: Option<Reply>) {
        if let Ok(mut r) = self.routes.lock() {
            match reply {
                Some(reply) => r.insert(path.to_string(), reply),
                None => r.remove(path),
            };
        }
    }

    /// The requests so far.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// Stop accepting connections (the port is closed when this returns).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        std::thread::sleep(Duration::from_millis(100));
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

fn etag(body: &[u8]) -> String {
    let sum: u64 = body.iter().map(|b| u64::from(*b)).sum();
    format!("\"{}-{sum}\"", body.len())
}

fn serve(conn: TcpStream, routes: &Mutex<HashMap<String, Reply>>, log: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(match conn.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    });
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let mut if_none_match = None;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':')
            && k.trim().eq_ignore_ascii_case("if-none-match")
        {
            if_none_match = Some(v.trim().to_string());
        }
    }
    let cond = if if_none_match.is_some() {
        " (conditional)"
    } else {
        ""
    };
    if let Ok(mut l) = log.lock() {
        l.push(format!("GET {path}{cond}"));
    }
    let mut out = conn;
    let head = |status: &str, extra: &str, len: u64| {
        format!("HTTP/1.1 {status}\r\nContent-Length: {len}\r\nConnection: close\r\n{extra}\r\n")
    };
    let reply = routes.lock().ok().and_then(|r| r.get(&path).cloned());
    let _ = match reply {
        None => out.write_all(head("404 Not Found", "", 0).as_bytes()),
        Some(Reply::File(body)) => {
            let tag = etag(&body);
            if if_none_match.as_deref() == Some(tag.as_str()) {
                out.write_all(head("304 Not Modified", &format!("ETag: {tag}\r\n"), 0).as_bytes())
            } else {
                let h = head("200 OK", &format!("ETag: {tag}\r\n"), body.len() as u64);
                out.write_all(h.as_bytes())
                    .and_then(|()| out.write_all(&body))
            }
        }
        Some(Reply::Status(code)) => out.write_all(head(&format!("{code} X"), "", 0).as_bytes()),
        Some(Reply::Redirect(to)) => {
            out.write_all(head("302 Found", &format!("Location: {to}\r\n"), 0).as_bytes())
        }
        Some(Reply::Hang) => {
            std::thread::sleep(Duration::from_secs(30));
            Ok(())
        }
        Some(Reply::Truncated(body)) => {
            let h = head("200 OK", "", body.len() as u64 * 2);
            out.write_all(h.as_bytes())
                .and_then(|()| out.write_all(&body))
        }
        Some(Reply::Huge) => out
            .write_all(head("200 OK", "", 2_147_483_648).as_bytes())
            .and_then(|()| out.write_all(&[b'x'; 4096])),
    };
    let _ = out.flush();
}

/// A `.tar.gz` as GitHub's codeload serves it: every file under `dir`, below the top folder
/// `top` (`repo-main/`).
pub fn tar_gz_of(dir: &std::path::Path, top: &str) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    b.append_dir_all(top, dir)
        .unwrap_or_else(|e| panic!("tar {}: {e}", dir.display()));
    let tar = b.into_inner().unwrap_or_else(|e| panic!("tar: {e}"));
    gz(&tar)
}

/// gzip of `bytes`.
pub fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    g.write_all(bytes).unwrap_or_else(|e| panic!("gz: {e}"));
    g.finish().unwrap_or_else(|e| panic!("gz: {e}"))
}
