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
    // A cached copy standing in for an unreachable server: its pages would fail one by one.
    let pages = (follow && !ctx.offline && note.is_none())
        .then(|| plan(u, &tree, &rel, &key, ctx))
        .flatten();
    let local = Local {
        file: Some(tree.join(&rel)),
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
        Ok(Fetched::Body {
            bytes,
            validators,
            url,
        }) => {
            let meta = EntryMeta {
                schema: META_SCHEMA,
                source: key.to_string(),
                fetched: now_secs(),
                validators,
                final_url: (url != key).then_some(url),
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
        Err(e) if e.is_transient() => match cached {
            Some(meta) => Ok(Some(cached_note(
                &meta,
                &format!("could not fetch it: {e}"),
            ))),
            None => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// Where the page at URL path `path` lives under `tree/`: the path's segments,
/// percent-decoded (`%20` is a space), with `index.md` for a folder URL and `.md` added when
/// the name is not a Markdown or text file. `None` for a path with `..` (`%2e%2e` too), an
/// encoded `/` or `\`, a control character, or nothing usable.
pub fn rel_path(path: &str) -> Option<PathBuf> {
    let mut segs: Vec<String> = path
        .split('/')
        .map(percent_decode)
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .filter(|s| !s.is_empty() && s != ".")
        .collect();
    if segs
        .iter()
        .any(|s| s == ".." || s.contains(['\\', '/']) || s.chars().any(char::is_control))
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

/// `%XX` escapes of one URL path segment decoded; `None` when the result is not UTF-8.
fn percent_decode(seg: &str) -> Option<String> {
    if !seg.contains('%') {
        return Some(seg.to_string());
    }
    let b = seg.as_bytes();
    let hex = |i: usize| b.get(i).and_then(|c| (*c as char).to_digit(16));
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match (b[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, ..) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

fn write_page(tree: &Path, rel: &Path, bytes: &[u8]) -> Result<(), RemoteError> {
    let path = tree.join(rel);
    let dir = path.parent().unwrap_or(tree);
    crate::util::paths::replace_cache_file(dir, &path, bytes)
        .map_err(|e| RemoteError::cache(rel.display().to_string(), e))
}

/// Linked pages still to fetch for the llms.txt cached at `tree/rel`; `None` when the file is
/// not an llms.txt link index. Links resolve against the URL the index came from after
/// redirects; only pages on that site are followed, the first of several URLs that map to one
/// file wins, and pages an earlier run mirrored that the index no longer links are removed
/// when the plan runs.
fn plan(u: &Url, tree: &Path, rel: &Path, key: &str, ctx: &Ctx) -> Option<PagePlan> {
    let file = tree.join(rel);
    let text = String::from_utf8_lossy(&std::fs::read(&file).ok()?).into_owned();
    let kind = crate::formats::llms_txt::detect_file(&file, &text);
    if kind != Some(crate::formats::llms_txt::LlmsKind::Index) {
        return None;
    }
    let meta = ctx.cache.meta(key).unwrap_or_default();
    let base_url = meta.final_url.clone().unwrap_or_else(|| u.full.clone());
    let base = parse_url(&base_url).ok()?;
    let (mut pages, mut rels) = (Vec::new(), HashSet::from([rel.to_path_buf()]));
    let mut seen = HashSet::new();
    let index = crate::formats::llms_txt::parse_llms_txt(&text);
    for link in index.sections.iter().flat_map(|s| &s.links) {
        let Ok(target) = parse_url(&super::http::resolve(&base.full, link.url.trim())) else {
            continue;
        };
        if target.scheme != base.scheme || target.authority != base.authority {
            continue;
        }
        let Some(page_rel) = rel_path(&target.path) else {
            continue;
        };
        if seen.insert(target.full.clone()) && rels.insert(page_rel.clone()) {
            pages.push((target.full, page_rel));
        }
    }
    let not_followed = pages.len().saturating_sub(MAX_PAGES);
    pages.truncate(MAX_PAGES);
    let linked: HashSet<&str> = pages.iter().map(|(url, _)| url.as_str()).collect();
    let stale = meta
        .pages
        .iter()
        .filter(|(url, _)| !linked.contains(url.as_str()))
        .filter_map(|(_, p)| rel_path(&p.rel).filter(|r| r.as_path() != rel))
        .collect::<Vec<_>>();
    if pages.is_empty() && stale.is_empty() {
        return None;
    }
    Some(PagePlan {
        key: key.to_string(),
        tree: tree.to_path_buf(),
        pages,
        stale,
        not_followed,
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
    /// Files of pages the index no longer links (removed by the run).
    stale: Vec<PathBuf>,
    /// Links past [`MAX_PAGES`].
    not_followed: usize,
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
    /// Pages that failed, with the reason (the cached copy, if any, is kept), sorted.
    pub failed: Vec<String>,
    /// Mirrored pages removed because the index no longer links them.
    pub removed: usize,
    /// Same-site links past [`MAX_PAGES`], not followed.
    pub not_followed: usize,
}

impl PageReport {
    /// One line for a status bar or stderr: `40 linked pages: 38 fetched, 1 unchanged, 1 failed
    /// (…)`, then pages removed and links not followed when there are any.
    pub fn summary(&self) -> String {
        let total = self.fetched + self.unchanged + self.failed.len();
        let mut s = format!(
            "{} linked pages: {} fetched, {} unchanged",
            total, self.fetched, self.unchanged
        );
        match self.failed.as_slice() {
            [] => {}
            [one] => s.push_str(&format!(", 1 failed ({one})")),
            [first, ..] => s.push_str(&format!(", {} failed (first: {first})", self.failed.len())),
        }
        if self.removed > 0 {
            s.push_str(&format!(", {} no longer linked, removed", self.removed));
        }
        if self.not_followed > 0 {
            s.push_str(&format!(
                "; {} more links not followed (at most {MAX_PAGES})",
                self.not_followed
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
        if self.pages.is_empty() {
            progress(0, 0);
        }
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
        let (mut report, pages, _) = out
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        report.failed.sort();
        report.removed = self.remove_stale();
        report.not_followed = self.not_followed;
        if let Some(mut meta) = self.cache.meta(&self.key) {
            meta.pages = pages;
            let _ = self.cache.write_meta(&self.key, &meta);
        }
        report
    }

    /// Remove the files of pages the index no longer links; returns how many went.
    fn remove_stale(&self) -> usize {
        self.stale
            .iter()
            .filter(|rel| std::fs::remove_file(self.tree.join(rel)).is_ok())
            .count()
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
            Fetched::Body {
                bytes, validators, ..
            } => {
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
        assert_eq!(rel("/docs/%2e%2e/%2E%2E/x.md"), None);
        assert_eq!(rel("/a%2Fb.md"), None);
        assert_eq!(
            rel("/docs/caf%C3%A9%20menu.md").as_deref(),
            Some("docs/café menu.md")
        );
        assert_eq!(rel("/100%.md").as_deref(), Some("100%.md"));
    }
}
