//! A GitHub repository as a root (docs/REMOTE.md "GitHub"): one `.tar.gz` archive of the ref
//! from codeload over HTTPS (no `git` needed), revalidated by `ETag`; a shallow `git clone` when
//! the archive host cannot be reached and `git` is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::cache::{EntryMeta, META_SCHEMA, now_secs};
use super::ctx::{Ctx, Local, cached_note};
use super::error::RemoteError;
use super::http::Fetched;
use super::source::GitHub;

/// Where archives are fetched: `$SKILLNAV_GITHUB_ARCHIVE_BASE` (tests serve one on loopback),
/// else `https://codeload.github.com`.
fn archive_base() -> String {
    std::env::var("SKILLNAV_GITHUB_ARCHIVE_BASE")
        .ok()
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| "https://codeload.github.com".into())
}

/// Where `git clone` goes: `$SKILLNAV_GITHUB_GIT_BASE`, else `https://github.com`.
fn git_base() -> String {
    std::env::var("SKILLNAV_GITHUB_GIT_BASE")
        .ok()
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| "https://github.com".into())
}

/// Open `g`: the cached archive when offline or unchanged, else a fresh one. Errors: see
/// [`RemoteError`]; [`RemoteError::NoSuchFolder`] when the folder is not in the archive.
pub fn open(g: &GitHub, ctx: &Ctx) -> Result<Local, RemoteError> {
    let key = g.archive_key();
    let cached = ctx.cache.meta(&key);
    let (dir, note) = if ctx.offline {
        let meta = cached.ok_or_else(|| RemoteError::NotCached {
            source: g.canonical(),
        })?;
        (
            ctx.cache.entry_dir(&key),
            Some(cached_note(&meta, "offline")),
        )
    } else {
        refresh(g, &key, cached, ctx)?
    };
    let path = dir.join("tree").join(&g.path);
    if !exists_settled(&path) {
        return Err(RemoteError::NoSuchFolder {
            source: g.canonical(),
        });
    }
    Ok(Local {
        file: None,
        path,
        label: g.canonical(),
        note,
    })
}

fn refresh(
    g: &GitHub,
    key: &str,
    cached: Option<EntryMeta>,
    ctx: &Ctx,
) -> Result<(PathBuf, Option<String>), RemoteError> {
    let url = format!(
        "{}/{}/{}/tar.gz/{}",
        archive_base().trim_end_matches('/'),
        g.owner,
        g.repo,
        g.git_ref.as_deref().unwrap_or("HEAD")
    );
    match ctx.client.get(&url, cached.as_ref().map(|m| &m.validators)) {
        Ok(Fetched::NotModified) => {
            let mut meta = cached.unwrap_or_default();
            meta.fetched = now_secs();
            ctx.cache.write_meta(key, &meta)?;
            Ok((ctx.cache.entry_dir(key), None))
        }
        Ok(Fetched::Body {
            bytes, validators, ..
        }) => {
            let dir = ctx.cache.install(key, |tree| {
                super::archive::unpack_tar_gz(&bytes, tree, key, ctx.cap.saturating_mul(4))?;
                Ok(EntryMeta {
                    schema: META_SCHEMA,
                    source: key.to_string(),
                    fetched: now_secs(),
                    validators,
                    ..Default::default()
                })
            })?;
            Ok((dir, None))
        }
        Err(e) if e.is_transient() => match cached {
            Some(meta) => Ok((
                ctx.cache.entry_dir(key),
                Some(cached_note(&meta, &format!("could not fetch it: {e}"))),
            )),
            None if git_available() => clone(g, key, ctx).map(|d| (d, None)).map_err(|_| e),
            None => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// Whether `path` exists, asking again for up to a second: another process may be swapping
/// a fresh copy of the entry in (two renames).
fn exists_settled(path: &Path) -> bool {
    (0..20).any(|i| {
        if i > 0 {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        path.exists()
    })
}

fn git_available() -> bool {
    Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A shallow clone of `g` into a fresh cache entry, without its `.git` folder; refused, like
/// an archive, when a link in it points outside the repository.
fn clone(g: &GitHub, key: &str, ctx: &Ctx) -> Result<PathBuf, RemoteError> {
    let url = format!(
        "{}/{}/{}.git",
        git_base().trim_end_matches('/'),
        g.owner,
        g.repo
    );
    ctx.cache.install(key, |tree| {
        let mut cmd = Command::new("git");
        cmd.args(["clone", "--quiet", "--depth", "1"]);
        if let Some(r) = &g.git_ref {
            cmd.args(["--branch", r]);
        }
        cmd.arg("--").arg(&url).arg(tree);
        let out = cmd
            .env("GIT_TERMINAL_PROMPT", "0")
            .output()
            .map_err(|e| RemoteError::cache("git clone", e))?;
        if !out.status.success() {
            return Err(RemoteError::Transport {
                url: url.clone(),
                reason: format!(
                    "git clone failed: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                ),
            });
        }
        remove_git_dir(tree);
        super::archive::check_links(tree).map_err(|reason| RemoteError::BadArchive {
            source: key.to_string(),
            reason,
        })?;
        Ok(EntryMeta {
            schema: META_SCHEMA,
            source: key.to_string(),
            fetched: now_secs(),
            ..Default::default()
        })
    })
}

fn remove_git_dir(tree: &Path) {
    let _ = std::fs::remove_dir_all(tree.join(".git"));
}
