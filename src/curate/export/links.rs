//! Relative markdown links in an exported skill: a link from an exported
//! section to a file that was exported too is rewritten to that file's new place; a link to
//! a file left behind is kept as written and reported, since it is dead in the new skill.
//! Only inline links `[text](target)` / `![alt](target)` with a relative target are touched
//! (not URLs, `#anchors`, absolute paths or `mailto:`).

use std::collections::HashMap;

/// `text` (from the source file at root-relative path `src`, written to `dest` inside the
/// new skill, e.g. `references/02-api.md` or `SKILL.md`) with every relative link whose
/// target is a key of `moved` pointing at its new place (an `#anchor` kept). Keys are
/// root-relative source paths of exported files and `path#slug` of exported sections
/// (GitHub heading slugs, the anchors links use); a bare `#slug` link follows its section
/// when that went to another file. Targets not in `moved` are left as they
/// are and named in `warnings` (`link to a file not in the export: <target> (in <src>)`).
pub fn rewrite(
    text: &str,
    src: &str,
    dest: &str,
    moved: &HashMap<String, String>,
    warnings: &mut Vec<String>,
) -> String {
    let src_dir = parent(src);
    let dest_dir = parent(dest);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        let (head, tail) = rest.split_at(i + 2);
        out.push_str(head);
        let Some(end) = tail.find(')') else {
            rest = tail;
            break;
        };
        let target = &tail[..end];
        rest = &tail[end..];
        // `#anchor` in the same source file: follows the section when it went elsewhere.
        if let Some(anchor) = target
            .strip_prefix('#')
            .filter(|a| !a.is_empty() && !a.contains(char::is_whitespace))
        {
            match moved
                .get(&format!("{src}#{anchor}"))
                .filter(|new| new.as_str() != dest)
            {
                Some(new) => {
                    out.push_str(&relative_to(new, &dest_dir));
                    out.push('#');
                    out.push_str(anchor);
                }
                None => out.push_str(target),
            }
            continue;
        }
        if !is_relative(target) {
            out.push_str(target);
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target, None),
        };
        let resolved = normalize(&format!("{src_dir}{path}"));
        // A section exported on its own (`file.md#slug`) first, then the whole file.
        let section = anchor.and_then(|a| moved.get(&format!("{resolved}#{a}")));
        if let Some(new) = section.or_else(|| moved.get(&resolved)) {
            out.push_str(&relative_to(new, &dest_dir));
            if let Some(a) = anchor {
                out.push('#');
                out.push_str(a);
            }
        } else {
            let w = format!("link to a file not in the export: {target} (in {src})");
            if !warnings.contains(&w) {
                warnings.push(w);
            }
            out.push_str(target);
        }
    }
    out.push_str(rest);
    out
}

/// `s` with every inline link `[text](target)` (and image `![alt](target)`) replaced by its
/// text.
pub fn strip_links(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let link = after.find("](").and_then(|close| {
            let tail = &after[close + 2..];
            tail.find(')').map(|end| (close, close + 2 + end + 1))
        });
        match link {
            Some((close, next)) if !after[..close].contains(['[', ']']) => {
                out.push_str(rest[..open].strip_suffix('!').unwrap_or(&rest[..open]));
                out.push_str(&after[..close]);
                rest = &after[next..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn is_relative(t: &str) -> bool {
    !t.is_empty()
        && !t.contains(char::is_whitespace)
        && !t.contains("://")
        && !t.starts_with(['#', '/', '<'])
        && !t.starts_with("mailto:")
        && !t.split_once('#').is_some_and(|(p, _)| p.is_empty())
}

/// `a/b/` of `a/b/c.md`; the empty string for `c.md`.
fn parent(p: &str) -> String {
    match p.rfind('/') {
        Some(i) => p[..=i].to_string(),
        None => String::new(),
    }
}

/// `a/./b/../c` → `a/c` (a `..` above the root stays).
fn normalize(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// `target` (skill-relative) as seen from the folder `from` (skill-relative: empty or
/// `references/`).
fn relative_to(target: &str, from: &str) -> String {
    let depth = from.split('/').filter(|s| !s.is_empty()).count();
    let mut t = target;
    let mut up = depth;
    // Same folder: strip the common prefix.
    if !from.is_empty() && target.starts_with(from) {
        t = &target[from.len()..];
        up = 0;
    }
    format!("{}{t}", "../".repeat(up))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_follow_exported_files_and_dead_ones_are_reported() {
        let mut moved = HashMap::new();
        moved.insert(
            "pdf/references/forms.md".to_string(),
            "references/03-forms.md".to_string(),
        );
        moved.insert(
            "pdf/SKILL.md".to_string(),
            "references/01-pdf.md".to_string(),
        );
        let mut w = Vec::new();
        let text = "See [forms](references/forms.md#fields), [ref](reference.md), \
                    [web](https://x.y/a.md), [here](#top) and ![img](./references/forms.md).";
        let out = rewrite(text, "pdf/SKILL.md", "references/01-pdf.md", &moved, &mut w);
        assert_eq!(
            out,
            "See [forms](03-forms.md#fields), [ref](reference.md), [web](https://x.y/a.md), \
             [here](#top) and ![img](03-forms.md)."
        );
        assert_eq!(
            w,
            ["link to a file not in the export: reference.md (in pdf/SKILL.md)"]
        );
        // From the SKILL.md body, and back up out of references/.
        let mut w = Vec::new();
        assert_eq!(
            rewrite(
                "[f](references/forms.md)",
                "pdf/SKILL.md",
                "SKILL.md",
                &moved,
                &mut w
            ),
            "[f](references/03-forms.md)"
        );
        moved.insert("pdf/SKILL.md".to_string(), "SKILL.md".to_string());
        assert_eq!(
            rewrite(
                "[up](../SKILL.md)",
                "pdf/references/forms.md",
                "references/03-forms.md",
                &moved,
                &mut w
            ),
            "[up](../SKILL.md)"
        );
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(normalize("a/./b/../c"), "a/c");
        // A section exported on its own, from another file and from its own file.
        moved.insert(
            "pdf/README.md#errors".to_string(),
            "references/04-errors.md".to_string(),
        );
        let mut w = Vec::new();
        let out = rewrite(
            "[e](README.md#errors) [same](#errors)",
            "pdf/README.md",
            "references/05-intro.md",
            &moved,
            &mut w,
        );
        assert_eq!(out, "[e](04-errors.md#errors) [same](04-errors.md#errors)");
        assert!(w.is_empty(), "{w:?}");
    }

    #[test]
    fn links_in_summaries_keep_their_text() {
        assert_eq!(
            strip_links("See [the guide](../../shared/g.md) and ![logo](l.png) [x]"),
            "See the guide and logo [x]"
        );
    }
}
