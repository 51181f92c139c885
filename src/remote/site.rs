//! A web page or llms.txt URL as a root (docs/REMOTE.md "URLs"): the file is mirrored under its
//! URL path in a cache entry (`tree/llms.txt`, `tree/docs/llms-full.txt`). For an llms.txt
//! link index, the linked pages on the same site become a [`PagePlan`]: fetched a few at a
//! time, each page written by rename beside the index under its own URL path, so the folder
//! loads as the site's doc tree.

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::cache::{Cache, EntryMeta, META_SCHEMA, PageMeta, now_secs};
use super::ctx::{Ctx, Local, cached_note};
use super::error::RemoteError;
use super::http::{Client, Fetched, Validators};
use super::source::{Url, parse_url};

/// Most linked pages fetched for one llms.txt.
pub const MAX_PAGES: usize = 2000;

/// Pages fetched at once.
const PARALLEL: usize = 4;

/// Open `u`: the cached copy when offline, unchanged or unreachable, else a fresh one; with
/// `follow`, the pages an llms.txt links to on the same site are returned as a plan to run.
pub fn open(u: &Url, ctx: &Ctx, follow: bool) -> Result<(Local, Option<PagePlan>), RemoteError> {
    let key = u.full.clone();
    let rel = rel_path(&u.path).ok_or_else(|| RemoteError::Transport {
        url: u.full.clone(),
        reason: "the URL path cannot be stored as a file".into(),
    })?;
    let cached = ctx.cache.meta(&key);
    let note = if ctx.offline {
        let meta = cached.clone().ok_or(RemoteError::NotCached {
            source: key.clone(),
        })?;
        Some(cached_note(&meta, "offline"))
    } else {
        refresh(&key, &rel, cached.clone(), ctx)?
    };
    let dir = ctx.cache.entry_dir(&key);
    let tree = dir.join("tree");
    let pages = (follow && !ctx.offline)
        .then(|| plan(u, &tree, &rel, &key, ctx))
        .flatten();
    let local = Local {
        path: tree,
        label: u.authority.clone(),
        note,
    };
    Ok((local, pages))
}

fn refresh(
    key: &str,
    rel: &Path,
    cached: Option<EntryMeta>,
    ctx: &Ctx,
) -> Result<Option<String>, RemoteError> {
    match ctx.client.get(key, cached.as_ref().map(|m| &m.validators)) {
        Ok(Fetched::NotModified) => {
            let mut meta = cached.unwrap_or_default();
            meta.fetched = now_secs();
            ctx.cache.write_meta(key, &meta)?;
            Ok(None)
        }
        Ok(Fetched::Body { bytes, validators }) => {
            let meta = EntryMeta {
                schema: META_SCHEMA,
                source: key.to_string(),
                fetched: now_secs(),
                validators,
                pages: cached.map(|m| m.pages).unwrap_or_default(),
            };
            if ctx.cache.meta(key).is_some() {
                let tree = ctx.cache.entry_dir(key).join("tree");
                write_page(&tree, rel, &bytes)?;
                ctx.cache.write_meta(key, &meta)?;
            } else {
                ctx.cache.install(key, |tree| {
                    write_page(tree, rel, &bytes)?;
                    Ok(meta)
                })?;
            }
            Ok(None)
        }
        Err(e) if e.is_unreachable() => match cached {
            Some(meta) => Ok(Some(cached_note(
                &meta,
                &format!("could not reach the server ({e})"),
            ))),
            None => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// Where the page at URL path `path` lives under `tree/`: the path's segments, with
/// `index.md` for a folder URL and `.md` added when the name is not a Markdown or text file.
/// `None` for a path with `..` or nothing usable.
pub fn rel_path(path: &str) -> Option<PathBuf> {
    let mut segs: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .map(str::to_string)
        .collect();
    if segs
        .iter()
        .any(|s| s == ".." || s.contains('\\') || s.contains('\0'))
    {
        return None;
    }
    if path.ends_with('/') || segs.is_empty() {
        segs.push("index.md".into());
    }
    let last = segs.last_mut()?;
    let lower = last.to_ascii_lowercase();
    let known = [".md", ".markdown", ".mdx", ".txt"];
    if !known.iter().any(|e| lower.ends_with(e)) {
        last.push_str(".md");
    }
    let p: PathBuf = segs.iter().collect();
    p.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then_some(p)
}

fn write_page(tree: &Path, rel: &Path, bytes: &[u8]) -> Result<(), RemoteError> {
    let path = tree.join(rel);
    let dir = path.parent().unwrap_or(tree);
    crate::util::paths::replace_cache_file(dir, &path, bytes)
        .map_err(|e| RemoteError::cache(rel.display().to_string(), e))
}

/// Linked pages still to fetch for the llms.txt cached at `tree/rel`; `None` when the file is
/// not an llms.txt link index or links to nothing on its own site.
fn plan(u: &Url, tree: &Path, rel: &Path, key: &str, ctx: &Ctx) -> Option<PagePlan> {
    let file = tree.join(rel);
    let head = std::fs::read(&file).ok()?;
    let text = String::from_utf8_lossy(&head);
    let kind = crate::formats::llms_txt::detect_file(&file, &text);
    if kind != Some(crate::formats::llms_txt::LlmsKind::Index) {
        return None;
    }
    let index = crate::formats::llms_txt::parse_llms_txt(&text);
    let mut seen = HashSet::new();
    let mut pages = Vec::new();
    for link in index.sections.iter().flat_map(|s| &s.links) {
        let abs = super::http::resolve(&u.full, link.url.trim());
        let Ok(target) = parse_url(&abs) else {
            continue;
        };
        if target.scheme != u.scheme || target.authority != u.authority {
            continue;
        }
        let Some(page_rel) = rel_path(&target.path) else {
            continue;
        };
        if page_rel.as_path() == rel || !seen.insert(target.full.clone()) {
            continue;
        }
        pages.push((target.full, page_rel));
    }
    pages.truncate(MAX_PAGES);
    (!pages.is_empty()).then(|| PagePlan {
        key: key.to_string(),
        tree: tree.to_path_buf(),
        pages,
        client: Arc::clone(&ctx.client),
        cache: ctx.cache.clone(),
    })
}

/// The linked pages of an llms.txt still to fetch ([`PagePlan::run`]); `Send`, so a front end
/// can run it on a thread while it shows the index.
pub struct PagePlan {
    key: String,
    tree: PathBuf,
    pages: Vec<(String, PathBuf)>,
    client: Arc<Client>,
    cache: Cache,
}

/// What a [`PagePlan`] run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageReport {
    /// Pages written (new or changed).
    pub fetched: usize,
    /// Pages the server said had not changed.
    pub unchanged: usize,
    /// Pages that failed, with the reason (the cached copy, if any, is kept).
    pub failed: Vec<String>,
}

impl PageReport {
    /// One line for a status bar or stderr: `40 linked pages: 38 fetched, 1 unchanged, 1 failed`.
    pub fn summary(&self) -> String {
        let total = self.fetched + self.unchanged + self.failed.len();
        let mut s = format!(
            "{} linked pages: {} fetched, {} unchanged",
            total, self.fetched, self.unchanged
        );
        if !self.failed.is_empty() {
            s.push_str(&format!(
                ", {} failed ({})",
                self.failed.len(),
                self.failed[0]
            ));
        }
        s
    }
}

impl PagePlan {
    /// Pages to fetch.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// Whether there is nothing to fetch.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Fetch every page, four at a time, revalidating the ones already cached;
    /// `progress(done, total)` is called after each page (from worker threads). Records the
    /// pages' validators in `source.json` at the end.
    pub fn run(self, progress: &(dyn Fn(usize, usize) + Sync)) -> PageReport {
        let known = self
            .cache
            .meta(&self.key)
            .map(|m| m.pages)
            .unwrap_or_default();
        let queue = Mutex::new(self.pages.iter());
        let out = Mutex::new((PageReport::default(), BTreeMap::new(), 0usize));
        let total = self.pages.len();
        std::thread::scope(|s| {
            for _ in 0..PARALLEL.min(total) {
                s.spawn(|| {
                    loop {
                        let next = lock(&queue).next();
                        let Some((url, rel)) = next else { break };
                        let old = known.get(url).map(|p| &p.validators);
                        let outcome = self.fetch_one(url, rel, old);
                        let mut o = lock(&out);
                        record(&mut o, url, rel, old, outcome);
                        o.2 += 1;
                        progress(o.2, total);
                    }
                });
            }
        });
        let (report, pages, _) = out
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(mut meta) = self.cache.meta(&self.key) {
            meta.pages = pages;
            let _ = self.cache.write_meta(&self.key, &meta);
        }
        report
    }

    fn fetch_one(
        &self,
        url: &str,
        rel: &Path,
        old: Option<&Validators>,
    ) -> Result<Option<Validators>, RemoteError> {
        let old = old.filter(|_| self.tree.join(rel).is_file());
        match self.client.get(url, old)? {
            Fetched::NotModified => Ok(None),
            Fetched::Body { bytes, validators } => {
                write_page(&self.tree, rel, &bytes)?;
                Ok(Some(validators))
            }
        }
    }
}

type Outcome = (PageReport, BTreeMap<String, PageMeta>, usize);

fn record(
    o: &mut Outcome,
    url: &str,
    rel: &Path,
    old: Option<&Validators>,
    outcome: Result<Option<Validators>, RemoteError>,
) {
    let rel_s = rel.to_string_lossy().replace('\\', "/");
    let keep = |validators: Validators| PageMeta {
        rel: rel_s.clone(),
        validators,
    };
    match outcome {
        Ok(Some(v)) => {
            o.0.fetched += 1;
            o.1.insert(url.to_string(), keep(v));
        }
        Ok(None) => {
            o.0.unchanged += 1;
            o.1.insert(url.to_string(), keep(old.cloned().unwrap_or_default()));
        }
        Err(e) => {
            o.0.failed.push(e.to_string());
            if let Some(v) = old {
                o.1.insert(url.to_string(), keep(v.clone()));
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_paths_map_to_markdown_files_under_the_mirror() {
        let rel = |p: &str| rel_path(p).map(|r| r.to_string_lossy().into_owned());
        assert_eq!(rel("/llms.txt").as_deref(), Some("llms.txt"));
        assert_eq!(rel("/docs/api/app.md").as_deref(), Some("docs/api/app.md"));
        assert_eq!(rel("/docs/guide/").as_deref(), Some("docs/guide/index.md"));
        assert_eq!(rel("/").as_deref(), Some("index.md"));
        assert_eq!(rel("/docs/page.html").as_deref(), Some("docs/page.html.md"));
        assert_eq!(rel("/docs/intro").as_deref(), Some("docs/intro.md"));
        assert_eq!(rel("/a/../../etc/passwd"), None);
    }
}
