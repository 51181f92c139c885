//! `skillnav mcp` and the agent-facing commands: the official MCP Python SDK driving the
//! real binary over stdio (`python`) and over streamable HTTP (`http`: the bearer token,
//! 1,000 requests from 20 concurrent clients), raw JSON-RPC lines for malformed input and
//! end of input (`raw`), SEP-2640 skills over raw JSON-RPC (`sep2640`) and checked by the
//! pinned official MCP Inspector (`inspector`), typed tool results over raw JSON-RPC
//! (`typed`: `structuredContent` and its text block), the result budget on generated large
//! inputs (`budget`: passages, cursors, search hits that fit), `export --active` followed
//! literally (`active_export`), and `install-skill`. `rpc` is the raw JSON-RPC client the
//! raw tests share.

mod active_export;
mod budget;
mod http;
mod inspector;
mod install_skill;
pub(crate) mod python;
mod raw;
pub(crate) mod rpc;
mod sep2640;
mod startup;
mod typed;

use std::io::Read;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// Wait for `child` at most `limit`; kill it and fail when it does not exit (a hang).
/// Returns its status and everything it wrote to stdout and stderr.
pub fn wait_bounded(mut child: Child, limit: Duration, what: &str) -> (ExitStatus, String, String) {
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_string(&mut s);
        }
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = err.as_mut() {
            let _ = e.read_to_string(&mut s);
        }
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child
            .try_wait()
            .unwrap_or_else(|e| panic!("{what}: wait: {e}"))
        {
            break st;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?} (hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status,
        t_out.join().unwrap_or_default(),
        t_err.join().unwrap_or_default(),
    )
}
