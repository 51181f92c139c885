//! `skillnav cache list|clear`: the cached copies of remote sources (docs/REMOTE.md "Cache")
//! and the persisted indexes (docs/DESIGN.md §8 "Persisted index").

use std::io::Write;

use super::args::CacheOp;
use crate::remote::Cache;
use crate::util::human::human_bytes;
use crate::util::sanitize::sanitize_line;

/// Run one `cache` operation on the user cache.
pub fn run(out: &mut dyn Write, op: &CacheOp) -> anyhow::Result<()> {
    run_in(
        out,
        op,
        &Cache::user()?,
        crate::store::user_dir().as_deref(),
    )
}

/// [`run`] on a given cache folder and index folder.
pub fn run_in(
    out: &mut dyn Write,
    op: &CacheOp,
    cache: &Cache,
    indexes: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let index_files = indexes.map(crate::store::files_in).unwrap_or_default();
    let index_bytes: u64 = index_files.iter().map(|(_, n)| n).sum();
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
            let doc = serde_json::json!({"schema": 1, "entries": entries, "indexes": {"files": index_files.len(), "bytes": index_bytes, "path": indexes}});
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
            if let Some(dir) = indexes.filter(|_| !index_files.is_empty()) {
                writeln!(
                    out,
                    "{}, {} ({}: copies of the opened texts, for search)",
                    crate::util::human::plural(index_files.len(), "persisted index file"),
                    human_bytes(index_bytes),
                    sanitize_line(&dir.display().to_string())
                )?;
            }
        }
        CacheOp::Clear => {
            let n = cache.clear()?;
            let i = match indexes {
                Some(dir) => crate::store::clear(dir)?,
                None => 0,
            };
            let also = if i == 0 {
                String::new()
            } else {
                format!(
                    " and {}",
                    crate::util::human::plural(i, "persisted index file")
                )
            };
            writeln!(
                out,
                "removed {}{also}",
                crate::util::human::plural(n, "cached source")
            )?;
        }
    }
    Ok(())
}
