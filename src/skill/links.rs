//! The `broken-link` lint (docs/AGENTS.md "Link lint"): every relative link and image of
//! every markdown file of a skill must name a file or folder that exists, and a `#anchor`
//! must name a heading (or an HTML `id`/`name`) of the markdown file it points into.
//!
//! What counts as a link is what GitHub renders as one: markdown links and images, inline
//! or by reference, outside code spans and code blocks, and not in SKILL.md's frontmatter.
//! A destination with a scheme (`https:`, `mailto:`, `data:`), a protocol-relative `//…`
//! or a site-absolute `/…` one is not checked. The path is percent-decoded and read
//! relative to the linking file's folder; since the Agent Skills specification writes file
//! references relative to the skill root ("File references"), a path that resolves from
//! the skill folder is accepted too. A folder is a valid target. Anchors are GitHub heading
//! slugs ([`crate::model::id::slug`]: lower-case, punctuation dropped, spaces to `-`; a
//! repeated heading gets `-1`, `-2`, …), compared case-insensitively after
//! percent-decoding and without GitHub's `user-content-` prefix; anchors into files that
//! are not markdown (`script.py#L10`) are not checked.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::skill::files::{SkillFile, line_of, skill_files};
use crate::skill::validate::{Finding, Profile};

/// The rule id.
pub const RULE: &str = "broken-link";

/// Every `broken-link` finding of the skill folder `dir` under `profile`, file by file in
/// natural order, each by line.
pub fn check(dir: &Path, profile: Profile) -> Vec<Finding> {
    check_files(dir, &skill_files(dir), profile)
}

/// [`check`] over files already listed.
pub fn check_files(dir: &Path, files: &[SkillFile], profile: Profile) -> Vec<Finding> {
    let mut anchors = AnchorCache::default();
    let mut out = Vec::new();
    for f in files.iter().filter(|f| f.is_markdown()) {
        let Some(text) = f.text.as_deref().filter(|t| t.contains('[')) else {
            continue;
        };
        let (links, own) = parse(text);
        anchors.0.insert(f.path.clone(), own);
        for (at, dest) in links {
            let Some(message) = problem(dir, f, text, &dest, &mut anchors) else {
                continue;
            };
            let line = Some(line_of(text, at));
            // One finding per broken target per line (a table row may repeat a link).
            if !out.iter().any(|x: &Finding| {
                x.line == line
                    && x.message == message
                    && x.file.as_deref() == (!f.is_skill_md()).then_some(f.rel.as_str())
            }) {
                out.push(crate::skill::safety::finding(
                    f, profile, RULE, line, message,
                ));
            }
        }
    }
    out
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// The destinations of the links and images of a markdown `text`, with the byte offset of
/// each link.
pub fn links(text: &str) -> Vec<(usize, String)> {
    parse(text).0
}

/// The anchors a markdown `text` defines: each heading's GitHub slug (repeats numbered
/// `-1`, `-2`, …), and every HTML `id="…"` or `name="…"` value, all lower-case.
pub fn anchors(text: &str) -> HashSet<String> {
    parse(text).1
}

/// [`links`] and [`anchors`] in one pass of the markdown parser.
fn parse(text: &str) -> (Vec<(usize, String)>, HashSet<String>) {
    let mut links = Vec::new();
    let mut out = HashSet::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut heading: Option<String> = None;
    for (e, range) in Parser::new_ext(text, options()).into_offset_iter() {
        match e {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                links.push((range.start, dest_url.to_string()));
            }
            Event::Start(Tag::Heading { id, .. }) => {
                if let Some(id) = id {
                    out.insert(id.to_lowercase());
                }
                heading = Some(String::new());
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = crate::model::id::slug(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_insert(0);
                out.insert(if *n == 0 {
                    base.clone()
                } else {
                    format!("{base}-{n}")
                });
                *n += 1;
            }
            Event::Html(h) | Event::InlineHtml(h) => html_ids(&h, &mut out),
            _ => {}
        }
    }
    (links, out)
}

/// Whether `dest` is not checked: empty, with a scheme, protocol-relative or site-absolute.
fn is_external(dest: &str) -> bool {
    let scheme = dest.split_once(':').is_some_and(|(s, _)| {
        s.starts_with(|c: char| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    dest.trim().is_empty() || scheme || dest.starts_with('/')
}

/// What is wrong with the link `dest` of file `f` (whose text is `text`), if anything.
fn problem(
    dir: &Path,
    f: &SkillFile,
    text: &str,
    dest: &str,
    anchors: &mut AnchorCache,
) -> Option<String> {
    if is_external(dest) {
        return None;
    }
    let (path, frag) = match dest.split_once('#') {
        Some((p, frag)) => (p, Some(frag)),
        None => (dest, None),
    };
    let path = path.split('?').next().unwrap_or(path);
    let decoded = percent_decode(path);
    let target = if decoded.is_empty() {
        f.path.clone()
    } else {
        let from_file = normalize(&f.path.parent().unwrap_or(dir).join(&decoded));
        let from_root = normalize(&dir.join(&decoded));
        if from_file.exists() {
            from_file
        } else if from_root.exists() {
            from_root
        } else {
            return Some(format!("links to {decoded}, which does not exist"));
        }
    };
    let frag = frag.filter(|s| !s.is_empty())?;
    let is_md = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "md" | "markdown" | "mdx"))
    };
    if !target.is_file() || !is_md(&target) {
        return None;
    }
    let want = percent_decode(frag).to_lowercase();
    let want = want
        .strip_prefix("user-content-")
        .unwrap_or(&want)
        .to_string();
    let set = if decoded.is_empty() {
        anchors.of_text(&f.path, text)
    } else {
        anchors.of_file(&target)
    };
    (!set.contains(&want)).then(|| {
        let file = if decoded.is_empty() {
            "this file".to_string()
        } else {
            decoded.clone()
        };
        format!("links to #{frag}, which is no heading of {file}")
    })
}

/// The anchors of markdown files, read once each.
#[derive(Default)]
struct AnchorCache(HashMap<PathBuf, HashSet<String>>);

impl AnchorCache {
    fn of_text(&mut self, path: &Path, text: &str) -> &HashSet<String> {
        self.0
            .entry(path.to_path_buf())
            .or_insert_with(|| anchors(text))
    }

    fn of_file(&mut self, path: &Path) -> &HashSet<String> {
        self.0.entry(path.to_path_buf()).or_insert_with(|| {
            crate::util::regular_file::read_regular(path, crate::skill::files::MAX_TEXT_BYTES)
                .map(|(b, _)| anchors(&String::from_utf8_lossy(&b)))
                .unwrap_or_default()
        })
    }
}

/// The values of `id="…"` and `name="…"` attributes in an HTML fragment.
fn html_ids(html: &str, out: &mut HashSet<String>) {
    let lower = html.to_lowercase();
    for attr in ["id=", "name="] {
        for (at, _) in lower.match_indices(attr) {
            let before = lower[..at].chars().next_back();
            if before.is_some_and(|c| !c.is_whitespace()) {
                continue;
            }
            let rest = &lower[at + attr.len()..];
            let value = match rest.chars().next() {
                Some(q @ ('"' | '\'')) => rest[1..].split(q).next(),
                _ => rest.split(|c: char| c.is_whitespace() || c == '>').next(),
            };
            if let Some(v) = value.filter(|v| !v.is_empty()) {
                out.insert(v.to_string());
            }
        }
    }
}

/// `%XX` escapes decoded (invalid ones kept as written); the bytes read as UTF-8, lossily.
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (
                b.get(i + 1).and_then(|c| hex(*c)),
                b.get(i + 2).and_then(|c| hex(*c)),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `p` with `.` and `..` folded lexically (a link is read as written, not through links).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_follow_github_slugs_with_repeat_numbers() {
        let a = anchors(
            "# Quick start\n## What's `new`? (v2.1)\n## Usage\n## Usage\n<a id=\"Top\"></a>\n",
        );
        for s in ["quick-start", "whats-new-v21", "usage", "usage-1", "top"] {
            assert!(a.contains(s), "{s} in {a:?}");
        }
        assert!(!a.contains("usage-2"));
    }

    #[test]
    fn code_urls_and_frontmatter_are_not_links() {
        let t = "---\ndescription: see [x](nope.md)\n---\n[a](a.md) `[b](b.md)` <https://x.test>\n\n```\n[c](c.md)\n```\n[m](mailto:a@b.c)\n";
        let l: Vec<String> = links(t).into_iter().map(|(_, d)| d).collect();
        assert_eq!(l, ["a.md", "https://x.test", "mailto:a@b.c"]);
        assert!(
            is_external("https://x.test") && is_external("mailto:a@b.c") && !is_external("a.md")
        );
        assert_eq!(percent_decode("my%20file%C3%A9.md"), "my fileé.md");
    }
}
