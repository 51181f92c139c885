//! What an edit must keep (docs/DESIGN.md §9 "Never lose data"): the lenient parser reads
//! anchors, aliases and tags as text (`&a x`, `*a`, `!t x`), so an edit never re-quotes
//! them, never replaces or removes a value that defines an anchor, and never turns a
//! frontmatter a strict YAML reader accepts into one it rejects.

use super::entry::ValueStyle;
use super::parse::KeyNode;
use super::strict::verify_strict;
use crate::error::{Error, Result};

/// True when a plain value's text, or its key as written, starts with a YAML node property
/// or is an alias: an anchor `&a`, a tag `!t` or an alias `*a` (`!t key: value` tags the
/// key). A plain scalar cannot start with these, so the text is YAML structure the lenient
/// parser keeps as text; quoting it would change what every YAML reader sees.
pub(crate) fn starts_with_property(text: &str, n: &KeyNode) -> bool {
    let property = |r: &std::ops::Range<usize>| {
        text.get(r.clone())
            .is_some_and(|v| v.starts_with(['&', '*', '!']))
    };
    property(&n.key_span) || (n.style == ValueStyle::Plain && property(&n.value_span))
}

/// The anchor (`&name`) that the value of `n`, or a value nested in it, defines.
fn anchor_in(text: &str, n: &KeyNode) -> Option<String> {
    let v = text.get(n.value_span.clone())?;
    let t = v.trim_start();
    // `key: !tag &a value` carries both properties; look past one tag.
    let t = match t.strip_prefix('!') {
        Some(rest) => rest
            .split_once([' ', '\t'])
            .map_or("", |(_, r)| r.trim_start()),
        None => t,
    };
    if let Some(rest) = t.strip_prefix('&') {
        let name: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
            .collect();
        return Some(format!("&{name}"));
    }
    n.children.iter().find_map(|c| anchor_in(text, c))
}

/// Refuse to replace or remove `n` when its value defines an anchor: other keys may read
/// it through an alias (`*name`), and the editor cannot carry the anchor over.
/// Errors: `Refused` naming the key and the anchor.
pub(crate) fn refuse_anchor(text: &str, n: &KeyNode, key_path: &str) -> Result<()> {
    match anchor_in(text, n) {
        Some(a) => Err(Error::Refused(format!(
            "`{key_path}` defines the YAML anchor `{a}`, which other keys may use; \
             edit it in a text editor; nothing written"
        ))),
        None => Ok(()),
    }
}

/// Refuse an edit that makes a frontmatter a strict YAML reader accepted (`before`, the
/// YAML between the fences) into one it rejects (`after`). Errors: `Refused` with the
/// reader's message.
pub(crate) fn keeps_strict(before: &str, after: &str, key_path: &str) -> Result<()> {
    if verify_strict(before).is_err() {
        return Ok(());
    }
    match verify_strict(after) {
        Ok(()) => Ok(()),
        Err((_, msg)) => Err(Error::Refused(format!(
            "editing `{key_path}` would make the frontmatter invalid YAML ({msg}); nothing written"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_that_makes_strict_valid_yaml_invalid_is_refused() {
        let e = keeps_strict("a: 1\nb: 2\n", "a: x: y\nb: 2\n", "a").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("editing `a` would make the frontmatter invalid YAML ("),
            "{e}"
        );
        assert!(keeps_strict("a: x: y\n", "a: x: z\n", "a").is_ok());
        assert!(keeps_strict("a: 1\n", "a: 2\n", "a").is_ok());
    }
}
