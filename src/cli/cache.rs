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
    let files = IndexFiles::in_dir(indexes);
    match op {
        CacheOp::List { json: true } => list_json(out, cache, &files),
        CacheOp::List { json: false } => list_text(out, cache, &files),
        CacheOp::Clear => clear(out, cache, indexes),
    }
}

/// The persisted index files of the index folder, and the partial ones.
struct IndexFiles<'a> {
    dir: Option<&'a std::path::Path>,
    files: Vec<(std::path::PathBuf, u64)>,
    partials: Vec<(std::path::PathBuf, u64)>,
}

impl<'a> IndexFiles<'a> {
    fn in_dir(dir: Option<&'a std::path::Path>) -> Self {
        IndexFiles {
            dir,
            files: dir.map(crate::store::files_in).unwrap_or_default(),
            partials: dir.map(crate::store::partials_in).unwrap_or_default(),
        }
    }

    fn bytes(v: &[(std::path::PathBuf, u64)]) -> u64 {
        v.iter().map(|(_, n)| n).sum()
    }
}

/// `cache list --json`.
fn list_json(out: &mut dyn Write, cache: &Cache, f: &IndexFiles<'_>) -> anyhow::Result<()> {
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
    let indexes = serde_json::json!({
        "files": f.files.len(),
        "bytes": IndexFiles::bytes(&f.files),
        "partial_files": f.partials.len(),
        "partial_bytes": IndexFiles::bytes(&f.partials),
        "path": f.dir,
    });
    let doc = serde_json::json!({"schema": 1, "entries": entries, "indexes": indexes});
    super::json_out::write_json(out, &doc)?;
    Ok(())
}

/// `cache list`.
fn list_text(out: &mut dyn Write, cache: &Cache, f: &IndexFiles<'_>) -> anyhow::Result<()> {
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
    if let Some(dir) = f.dir.filter(|_| !f.files.is_empty()) {
        writeln!(
            out,
            "{}, {} ({}: copies of the opened texts, for search)",
            crate::util::human::plural(f.files.len(), "persisted index file"),
            human_bytes(IndexFiles::bytes(&f.files)),
            sanitize_line(&dir.display().to_string())
        )?;
    }
    if !f.partials.is_empty() {
        writeln!(
            out,
            "{}, {} (being written, or left by a write that did not finish; cache clear removes them)",
            crate::util::human::plural(f.partials.len(), "partial index file"),
            human_bytes(IndexFiles::bytes(&f.partials))
        )?;
    }
    Ok(())
}

/// `cache clear`.
fn clear(
    out: &mut dyn Write,
    cache: &Cache,
    indexes: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    let n = cache.clear()?;
    let i = match indexes {
        Some(dir) => crate::store::clear(dir)?,
        None => crate::store::Cleared::default(),
    };
    let mut also = String::new();
    if i.files > 0 {
        also += &format!(
            " and {}",
            crate::util::human::plural(i.files, "persisted index file")
        );
    }
    if i.partials > 0 {
        also += &format!(
            " and {} (left by a write that did not finish)",
            crate::util::human::plural(i.partials, "partial index file")
        );
    }
    writeln!(
        out,
        "removed {}{also}",
        crate::util::human::plural(n, "cached source")
    )?;
    Ok(())
}
