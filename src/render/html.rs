//! Raw HTML in markdown the way a reader wants it (in the spirit of glow): comments
//! (`<!-- toc -->`) hidden, `<script>` and `<style>` blocks hidden, a `VitePress` `<Badge … />`
//! shown as its text, other tags kept (dim) as written.

/// The text a badge tag stands for: `text="…"` of `<Badge type="tip" text="v4" />`; `""` for
/// a `<Badge>`/`</Badge>` without one (its content is ordinary markdown text). `None` when
/// `tag` is no badge tag.
pub fn badge_text(tag: &str) -> Option<String> {
    let t = tag.trim();
    let rest = t
        .strip_prefix("<Badge")
        .or_else(|| t.strip_prefix("</Badge"))?;
    if !rest.is_empty() && !rest.starts_with([' ', '\t', '\n', '/', '>']) {
        return None;
    }
    Some(attr(rest, "text").unwrap_or_default())
}

/// The value of attribute `name` in the attributes text `attrs` (`name="v"` or `name='v'`).
fn attr(attrs: &str, name: &str) -> Option<String> {
    let mut at = 0;
    while let Some(i) = attrs[at..].find(name) {
        let start = at + i;
        at = start + name.len();
        let before_ok = start == 0 || attrs[..start].ends_with([' ', '\t', '\n']);
        let rest = attrs[at..].trim_start();
        if !before_ok || !rest.starts_with('=') {
            continue;
        }
        let value = rest[1..].trim_start();
        let quote = value.chars().next()?;
        if quote == '"' || quote == '\'' {
            let body = &value[1..];
            return body.find(quote).map(|end| body[..end].to_string());
        }
        let end = value
            .find([' ', '\t', '\n', '/', '>'])
            .unwrap_or(value.len());
        return Some(value[..end].to_string());
    }
    None
}

/// `html` with every `<!-- … -->` comment removed (an unclosed one runs to the end).
pub fn strip_comments(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find("<!--") {
        out.push_str(&rest[..i]);
        match rest[i + 4..].find("-->") {
            Some(j) => rest = &rest[i + 4 + j + 3..],
            None => rest = "",
        }
    }
    out.push_str(rest);
    out
}

/// What an HTML block shows: `None` for a `<script>` or `<style>` block; else its lines
/// with comments removed and badge tags replaced by their text, blank lines at either end
/// dropped (no lines: nothing to show).
pub fn clean_block(html: &str) -> Option<Vec<String>> {
    let head = html.trim_start().to_ascii_lowercase();
    if head.starts_with("<script") || head.starts_with("<style") {
        return None;
    }
    let text = replace_badges(&strip_comments(html));
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    Some(match (first, last) {
        (Some(a), Some(b)) => lines[a..=b].to_vec(),
        _ => Vec::new(),
    })
}

/// `s` with each `<Badge …>` / `</Badge>` tag replaced by its text.
fn replace_badges(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = [rest.find("<Badge"), rest.find("</Badge")]
        .into_iter()
        .flatten()
        .min()
    {
        let Some(end) = rest[i..].find('>') else {
            break;
        };
        let tag = &rest[i..=i + end];
        out.push_str(&rest[..i]);
        match badge_text(tag) {
            Some(t) => out.push_str(&t),
            None => out.push_str(tag),
        }
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn badges_show_their_text() {
        assert_eq!(
            badge_text(r#"<Badge type="tip" text="^4.0.0" />"#).as_deref(),
            Some("^4.0.0")
        );
        assert_eq!(badge_text("<Badge text='beta'/>").as_deref(), Some("beta"));
        assert_eq!(badge_text(r#"<Badge type="info">"#).as_deref(), Some(""));
        assert_eq!(badge_text("</Badge>").as_deref(), Some(""));
        assert_eq!(badge_text("<Badges>"), None);
        assert_eq!(badge_text("<div>"), None);
        assert_eq!(
            badge_text(r#"<Badge subtext="x" text="y"/>"#).as_deref(),
            Some("y")
        );
    }

    #[test]
    fn comments_are_hidden() {
        assert_eq!(strip_comments("a<!-- toc -->b<!--x"), "ab");
        assert_eq!(clean_block("<!-- toc -->\n"), Some(vec![]));
        assert_eq!(
            clean_block("<!--\nlong\n-->\n<div>kept</div>\n"),
            Some(vec!["<div>kept</div>".to_string()])
        );
        assert_eq!(clean_block("<script setup>\nimport X\n</script>\n"), None);
        assert_eq!(
            clean_block(r#"<Badge type="warning" text="beta" /> <b>x</b>"#),
            Some(vec!["beta <b>x</b>".to_string()])
        );
    }
}
