//! Symbolic links met by the folder walk: a link inside the opened root is listed as an
//! alias of what it points to, a link to a skill folder is followed, one leaving the root
//! is followed only with `--follow-links`, loops and folders already loaded are noted, and
//! a broken link becomes a warning.

use std::path::Path;

use super::list::{Entry, IgnoreStack};
use super::loader::{Loader, Mode, file_format, file_size};
use super::skill_file::skill_md_in;
use crate::model::{Flag, Format, Node, NodeId, NodeKind, Warning};

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
        let shown_target = std::fs::read_link(&e.path)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let Ok(target) = std::fs::canonicalize(&e.path) else {
            let id = self.add_asset(parent, &e.name, rel, 0);
            self.corpus.node_mut(id).warnings.push(Warning::at(
                format!("broken symbolic link to {shown_target}"),
                rel,
                None,
            ));
            return;
        };
        let inside = target.starts_with(&self.root_real);
        let target_rel = target
            .strip_prefix(&self.root_real)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .ok();
        if target.is_dir() {
            if self.visited.contains(&target) || dir_real.starts_with(&target) {
                let note = if dir_real.starts_with(&target) {
                    format!(
                        "symlink loop: points to its ancestor {}",
                        shown_rel(&target_rel, &target)
                    )
                } else {
                    format!(
                        "link to {}, already loaded",
                        shown_rel(&target_rel, &target)
                    )
                };
                self.add_link_dir(parent, &e.name, rel, Flag::Alias, note);
                return;
            }
            let follow_skill = mode == Mode::Plain && skill_md_in(&target).is_some();
            if follow_skill || (!inside && self.opts.follow_links) {
                self.visit(&target);
                // The target lives elsewhere: its own repository's ignore rules apply.
                let saved = std::mem::replace(&mut self.ignores, IgnoreStack::for_root(&target));
                self.load_folder(parent, &target, rel, mode == Mode::Skill);
                self.ignores = saved;
            } else if inside {
                let note = format!("link to {}", shown_rel(&target_rel, &target));
                self.add_link_dir(parent, &e.name, rel, Flag::Alias, note);
            } else {
                let id = self.add_link_dir(parent, &e.name, rel, Flag::ExternalLink, String::new());
                self.corpus
                    .node_mut(id)
                    .warnings
                    .push(external_warning(&target, rel));
            }
            return;
        }
        // A link to a file.
        let fmt = file_format(&e.name);
        if inside || self.visited.contains(&target) {
            let kind_fmt = if mode == Mode::Asset {
                Format::Asset
            } else {
                fmt
            };
            let mut n = Node::new(NodeKind::File, kind_fmt, e.name.as_str(), rel);
            n.flags.set(Flag::Alias);
            n.bytes = file_size(&target);
            n.meta
                .insert("alias_of".into(), shown_rel(&target_rel, &target).into());
            self.count_file();
            self.corpus.add_child(parent, n);
        } else if self.opts.follow_links && target.is_file() {
            self.visit(&target);
            self.load_file(parent, e, &target, rel, mode);
        } else {
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
                .insert("target_bytes".into(), file_size(&target).into());
            let w = if self.opts.follow_links {
                not_regular_warning(&target, rel)
            } else {
                external_warning(&target, rel)
            };
            n.warnings.push(w);
        }
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
