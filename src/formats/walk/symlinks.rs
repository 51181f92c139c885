//! Symbolic links met by the folder walk: a link inside the opened root is listed as an
//! alias of what it points to, a link to a skill folder is followed, one leaving the root
//! is followed only with `--follow-links`, loops and folders already loaded are noted, and
//! a broken link becomes a warning.

use std::path::{Path, PathBuf};

use super::list::{Entry, IgnoreStack};
use super::loader::{Loader, Mode, file_format, file_size};
use super::skill_file::skill_md_in;
use crate::model::{Corpus, Flag, Format, Node, NodeId, NodeKind, Warning};

impl Loader<'_> {
    /// A symbolic link entry `e` inside folder `dir_real` (docs/DESIGN.md §2 "Symlinks").
    pub(super) fn load_link(
        &mut self,
        parent: NodeId,
        dir_real: &Path,
        e: &Entry,
        rel: &str,
        mode: Mode,
    ) {
        let Some(target) = self.link_target(e) else {
            self.add_broken_link(parent, e, rel);
            return;
        };
        if target.real.is_dir() {
            self.load_dir_link(parent, dir_real, e, rel, mode, &target);
        } else {
            self.load_file_link(parent, e, rel, mode, &target);
        }
    }

    /// Where the link `e` points: the resolved path and whether (and where) it lies inside
    /// the opened root; `None` for a broken link.
    fn link_target(&self, e: &Entry) -> Option<LinkTarget> {
        super::inputs::note_link_chain(&e.path);
        let real = std::fs::canonicalize(&e.path).ok()?;
        let inside = real.starts_with(&self.root_real);
        let rel = real
            .strip_prefix(&self.root_real)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .ok();
        Some(LinkTarget { real, inside, rel })
    }

    /// A broken link `e`: an empty asset with a warning naming what it points to, and why
    /// it cannot be followed (a loop of links is named as one, not as a missing target).
    fn add_broken_link(&mut self, parent: NodeId, e: &Entry, rel: &str) {
        let shown_target = std::fs::read_link(&e.path)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let looped = std::fs::canonicalize(&e.path)
            .is_err_and(|err| err.raw_os_error() == Some(libc_eloop()));
        let what = if looped {
            "symbolic link loop"
        } else {
            "broken symbolic link"
        };
        let id = self.add_asset(parent, &e.name, rel, 0);
        self.corpus.node_mut(id).warnings.push(Warning::at(
            format!("{what} to {shown_target}"),
            rel,
            None,
        ));
    }

    /// A link `e` inside folder `dir_real` to the folder `t`: a loop or a folder already
    /// loaded is noted; a skill folder (or, with `--follow-links`, one outside the root) is
    /// loaded; another folder inside the root is an alias; one outside is not read.
    fn load_dir_link(
        &mut self,
        parent: NodeId,
        dir_real: &Path,
        e: &Entry,
        rel: &str,
        mode: Mode,
        t: &LinkTarget,
    ) {
        let target = &t.real;
        if self.visited.contains(target) || dir_real.starts_with(target) {
            let note = if dir_real.starts_with(target) {
                format!(
                    "symlink loop: points to its ancestor {}",
                    shown_rel(&t.rel, target)
                )
            } else {
                format!("link to {}, already loaded", shown_rel(&t.rel, target))
            };
            self.add_link_dir(parent, &e.name, rel, Flag::Alias, note);
            return;
        }
        let follow_skill = mode == Mode::Plain && skill_md_in(target).is_some();
        if follow_skill || (!t.inside && self.opts.follow_links) {
            self.visit(target);
            // The target lives elsewhere: its own repository's ignore rules apply.
            let saved = std::mem::replace(&mut self.ignores, IgnoreStack::for_root(target));
            self.load_folder(parent, target, rel, mode == Mode::Skill);
            self.ignores = saved;
        } else if t.inside {
            let note = format!("link to {}", shown_rel(&t.rel, target));
            self.add_link_dir(parent, &e.name, rel, Flag::Alias, note);
        } else {
            let id = self.add_link_dir(parent, &e.name, rel, Flag::ExternalLink, String::new());
            self.corpus
                .node_mut(id)
                .warnings
                .push(external_warning(target, rel));
        }
    }

    /// A link `e` to the file `t`: an alias when it lies inside the root or was loaded
    /// already; read with `--follow-links` when it is a regular file; else listed unread.
    fn load_file_link(&mut self, parent: NodeId, e: &Entry, rel: &str, mode: Mode, t: &LinkTarget) {
        let target = &t.real;
        let fmt = file_format(&e.name);
        if t.inside || self.visited.contains(target) {
            let kind_fmt = if mode == Mode::Asset {
                Format::Asset
            } else {
                fmt
            };
            let mut n = Node::new(NodeKind::File, kind_fmt, e.name.as_str(), rel);
            n.flags.set(Flag::Alias);
            n.bytes = file_size(target);
            n.meta
                .insert("alias_of".into(), shown_rel(&t.rel, target).into());
            self.count_file();
            self.corpus.add_child(parent, n);
        } else if self.opts.follow_links && target.is_file() {
            self.visit(target);
            self.load_file(parent, e, target, rel, mode);
        } else {
            self.add_unread_file_link(parent, e, rel, mode, target);
        }
    }

    /// A link `e` to a file `target` outside the root that is not read: listed with its
    /// target and size in `meta` (not counted) and a warning.
    fn add_unread_file_link(
        &mut self,
        parent: NodeId,
        e: &Entry,
        rel: &str,
        mode: Mode,
        target: &Path,
    ) {
        let fmt = file_format(&e.name);
        // Not read and not counted: its size is only noted in `meta`.
        let id = self.add_asset(parent, &e.name, rel, 0);
        let n = self.corpus.node_mut(id);
        n.format = if mode == Mode::Asset {
            Format::Asset
        } else {
            fmt
        };
        n.flags.clear(Flag::Asset);
        n.flags.set(Flag::ExternalLink);
        n.meta
            .insert("link_target".into(), target.display().to_string().into());
        n.meta
            .insert("target_bytes".into(), file_size(target).into());
        let w = if self.opts.follow_links {
            not_regular_warning(target, rel)
        } else {
            external_warning(target, rel)
        };
        n.warnings.push(w);
    }

    pub(super) fn add_link_dir(
        &mut self,
        parent: NodeId,
        name: &str,
        rel: &str,
        flag: Flag,
        note: String,
    ) -> NodeId {
        let mut n = Node::new(NodeKind::Dir, Format::Markdown, name, rel);
        n.flags.set(flag);
        if !note.is_empty() {
            n.meta.insert("note".into(), note.into());
        }
        self.corpus.add_child(parent, n)
    }
}

/// Where a symbolic link points.
struct LinkTarget {
    /// The resolved (canonical) path.
    real: PathBuf,
    /// It lies inside the opened root.
    inside: bool,
    /// Its path relative to the opened root (`/`-separated), when inside.
    rel: Option<String>,
}

fn external_warning(target: &Path, rel: &str) -> Warning {
    Warning::at(
        format!(
            "symbolic link leaves the opened root (to {}); not read without --follow-links",
            target.display()
        ),
        rel,
        None,
    )
}

/// A link leaving the root that `--follow-links` does not read: its target is not a
/// regular file (a device such as `/dev/zero`, a FIFO, a socket).
fn not_regular_warning(target: &Path, rel: &str) -> Warning {
    let what = crate::util::regular_file::special_kind(target).unwrap_or("not a regular file");
    let what = what.strip_prefix("not ").map_or_else(
        || format!("{what}, not a regular file"),
        |_| what.to_string(),
    );
    Warning::at(
        format!(
            "symbolic link leaves the opened root (to {}, which is {what}); not read",
            target.display()
        ),
        rel,
        None,
    )
}

#[allow(
    clippy::ref_option,
    reason = "called with the walker's `&Option<String>` field"
)]
fn shown_rel(rel: &Option<String>, abs: &Path) -> String {
    match rel {
        Some(r) if r.is_empty() => ".".to_string(),
        Some(r) => r.clone(),
        None => abs.display().to_string(),
    }
}

/// The node a symbolic link inside the opened root stands for: an alias listed by the walk
/// carries `meta.alias_of`, the target's path relative to the root, and the target is the
/// node at that path. `None` for anything else (a cross-root alias has text of its own).
pub fn link_target(corpus: &Corpus, link: NodeId) -> Option<NodeId> {
    let node = corpus.node(link);
    if !node.flags.has(Flag::Alias) || node.span.is_some() {
        return None;
    }
    let rel = node.meta.get("alias_of")?.as_str()?;
    let root = corpus.ancestors(link).last()?;
    corpus.find(&format!("{}/{rel}", corpus.id(root)))
}

/// The OS error number of "too many levels of symbolic links" (`ELOOP`: 40 on Linux, 62 on
/// the BSDs and macOS).
fn libc_eloop() -> i32 {
    if cfg!(any(target_os = "linux", target_os = "android")) {
        40
    } else {
        62
    }
}
