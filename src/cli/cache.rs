//! `skillnav cache list|clear`: the cached copies of remote sources (docs/REMOTE.md "Cache").

use std::io::Write;

use super::args::CacheOp;
use crate::remote::Cache;
use crate::util::human::human_bytes;
use crate::util::sanitize::sanitize_line;

/// Run one `cache` operation on the user cache.
pub fn run(out: &mut dyn Write, op: &CacheOp) -> anyhow::Result<()> {
    run_in(out, op, &Cache::user()?)
}

/// [`run`] on a given cache folder.
pub fn run_in(out: &mut dyn Write, op: &CacheOp, cache: &Cache) -> anyhow::Result<()> {
    match op {
        CacheOp::List { json: true } => {
            let entries: Vec<serde_json::Value> = cache
                .list()
                .iter()
                .map(|e| {
                    serde_json::json!({
                        "source": e.meta.source,
                        "bytes": e.bytes,
                        "fetched": e.meta.fetched,
                        "pages": e.meta.pages.len(),
                        "path": e.dir.join("tree"),
                    })
                })
                .collect();
            let doc = serde_json::json!({"schema": 1, "entries": entries});
            super::json_out::write_json(out, &doc)?;
        }
        CacheOp::List { json: false } => {
            let entries = cache.list();
            for e in &entries {
                let (y, mo, d, h, mi, _) = crate::util::utc::civil(e.meta.fetched);
                writeln!(
                    out,
                    "{}  {}  fetched {y:04}-{mo:02}-{d:02} {h:02}:{mi:02} UTC",
                    sanitize_line(&e.meta.source),
                    human_bytes(e.bytes)
                )?;
            }
            let total: u64 = entries.iter().map(|e| e.bytes).sum();
            writeln!(
                out,
                "{} cached, {}",
                crate::util::human::plural(entries.len(), "source"),
                human_bytes(total)
            )?;
        }
        CacheOp::Clear => {
            let n = cache.clear()?;
            writeln!(
                out,
                "removed {}",
                crate::util::human::plural(n, "cached source")
            )?;
        }
    }
    Ok(())
}
