//! One line of markdown classified by pulldown-cmark's block rules, for the heading line
//! scan ([`super::headings`]): blank lines and indentation, ATX headings and setext
//! underlines, thematic breaks, fences, the starts of HTML blocks (kinds 1–7), list item
//! markers, and the bytes that make a heading's title need the inline parse.

/// The opening of a top-level fenced code block: fence byte and length.
#[derive(Clone, Copy)]
pub(super) struct Fence {
    pub ch: u8,
    pub len: usize,
}

/// How a top-level HTML block ends (pulldown-cmark: kinds 1–5 at the line holding their end
/// marker, kinds 6 and 7 before a blank line).
#[derive(Clone, Copy)]
pub(super) enum HtmlEnd {
    Marker(&'static str),
    Blank,
}

/// Whether `b` holds a `|` (a table cell separator, perhaps).
pub(super) fn has_pipe(b: &[u8]) -> bool {
    memchr::memchr(b'|', b).is_some()
}

/// Whether `b` holds a `\r` not followed by `\n` (a classic Mac OS line break).
pub(super) fn has_lone_cr(b: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n'))
}

pub(super) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(hay, needle).is_some()
}

/// Spaces and tabs only (a blank line; [`headings`] declines texts with the other
/// whitespace pulldown-cmark sometimes takes for blank).
pub(super) fn is_blank(l: &[u8]) -> bool {
    l.iter().all(|&b| b == b' ' || b == b'\t')
}

/// pulldown-cmark's whitespace within a line.
pub(super) fn is_ws_no_nl(b: u8) -> bool {
    matches!(b, b'\t' | 0x0b | 0x0c | b' ')
}

/// The column the line's text starts at (tabs to the next multiple of 4) and the byte it
/// starts at.
pub(super) fn indent(l: &[u8]) -> (usize, usize) {
    let mut col = 0;
    for (i, &b) in l.iter().enumerate() {
        match b {
            b' ' => col += 1,
            b'\t' => col += 4 - col % 4,
            _ => return (col, i),
        }
    }
    (col, l.len())
}

/// pulldown-cmark's ASCII whitespace (`scan_atx_heading`).
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}

/// The level of an ATX heading line (`rest` starts after the indentation).
pub(super) fn atx_level(rest: &[u8]) -> Option<u8> {
    let n = rest.iter().take_while(|&&b| b == b'#').count();
    ((1..=6).contains(&n) && rest.get(n).is_none_or(|&b| is_ws(b))).then_some(n as u8)
}

/// `===` or `---` (one or more) and then spaces or tabs: a setext underline's level.
pub(super) fn setext_level(rest: &[u8]) -> Option<u8> {
    let c = *rest.first()?;
    let level = match c {
        b'=' => 1,
        b'-' => 2,
        _ => return None,
    };
    let n = rest.iter().take_while(|&&b| b == c).count();
    is_blank(&rest[n..]).then_some(level)
}

/// A thematic break: three or more of one of `*`, `-`, `_`, spaces and tabs between.
pub(super) fn is_hrule(rest: &[u8]) -> bool {
    let Some(&c) = rest.first() else {
        return false;
    };
    if !matches!(c, b'*' | b'-' | b'_') {
        return false;
    }
    let mut n = 0;
    for &b in rest {
        if b == c {
            n += 1;
        } else if b != b' ' && b != b'\t' {
            return false;
        }
    }
    n >= 3
}

/// A fence opener: three or more backticks (no backtick after them on the line) or tildes.
pub(super) fn open_fence(rest: &[u8]) -> Option<Fence> {
    let ch = *rest.first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = rest.iter().take_while(|&&b| b == ch).count();
    if len < 3 || (ch == b'`' && rest[len..].contains(&b'`')) {
        return None;
    }
    Some(Fence { ch, len })
}

/// Whether `l` closes fence `f`: at most 3 columns of spaces (a tab makes 4), at least as
/// many fence bytes, then spaces only (pulldown-cmark's `scan_closing_code_fence`).
pub(super) fn closes_fence(l: &[u8], f: Fence) -> bool {
    let spaces = l.iter().take_while(|&&b| b == b' ').count();
    if spaces > 3 || l.get(spaces) == Some(&b'\t') {
        return false;
    }
    let rest = &l[spaces..];
    let n = rest.iter().take_while(|&&b| b == f.ch).count();
    n >= f.len && rest[n..].iter().all(|&b| b == b' ')
}

/// HTML block tag names of kind 6 (pulldown-cmark's list, sorted).
pub(super) const BLOCK_TAGS: [&str; 62] = [
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];

/// The end of an HTML block of kind 1–6 starting at `at` (which starts with `<`; the rest
/// of the text follows, as pulldown-cmark looks at it), or `None`.
pub(super) fn html_start(at: &[u8]) -> Option<HtmlEnd> {
    let t = &at[1..];
    for (tag, end) in [
        ("pre", "</pre>"),
        ("style", "</style>"),
        ("script", "</script>"),
        ("textarea", "</textarea>"),
    ] {
        if t.len() < tag.len() {
            break;
        }
        if t[..tag.len()].eq_ignore_ascii_case(tag.as_bytes())
            && t.get(tag.len()).is_none_or(|&b| is_ws(b) || b == b'>')
        {
            return Some(HtmlEnd::Marker(end));
        }
    }
    for (start, end) in [("!--", "-->"), ("?", "?>"), ("![CDATA[", "]]>")] {
        if t.starts_with(start.as_bytes()) {
            return Some(HtmlEnd::Marker(end));
        }
    }
    if t.len() > 1 && t[0] == b'!' && t[1].is_ascii_alphabetic() {
        return Some(HtmlEnd::Marker(">"));
    }
    let t = t.strip_prefix(b"/").unwrap_or(t);
    let n = t.iter().take_while(|b| b.is_ascii_alphanumeric()).count();
    let name = &t[..n];
    let known = BLOCK_TAGS
        .binary_search_by(|probe| {
            let p = probe.as_bytes();
            p.iter()
                .zip(name)
                .find_map(|(&a, &b)| match a.cmp(&(b | 0x20)) {
                    std::cmp::Ordering::Equal => None,
                    o => Some(o),
                })
                .unwrap_or_else(|| p.len().cmp(&name.len()))
        })
        .is_ok();
    let after = &t[n..];
    (known
        && (after.is_empty()
            || matches!(after[0], b' ' | b'\t' | b'\r' | b'\n' | b'>')
            || after.starts_with(b"/>")))
    .then_some(HtmlEnd::Blank)
}

/// Whether line text `l` (starting with `<`) opens an HTML block of kind 7: one complete
/// open or closing tag and nothing else on the line (pulldown-cmark's `scan_html_type_7`,
/// which never lets a tag span lines).
pub(super) fn is_html_kind7(l: &[u8]) -> bool {
    let ws = |b: &[u8]| b.iter().take_while(|&&c| is_ws_no_nl(c)).count();
    let close = usize::from(l.get(1) == Some(&b'/'));
    let mut i = 1 + close;
    let name = l[i..]
        .iter()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    if name == 0 {
        return false;
    }
    i += name;
    i += l[i..]
        .iter()
        .take_while(|&&b| b == b'-' || b.is_ascii_alphanumeric())
        .count();
    if close == 0 {
        loop {
            let old = i;
            i += ws(&l[i..]);
            let Some(&b) = l.get(i) else {
                return false; // the line ends inside the tag
            };
            if b == b'/' || b == b'>' {
                break;
            }
            if old == i {
                return false; // no space before an attribute
            }
            // Attribute name: a letter, `_` or `:`, then letters, digits, `_.:-`.
            if !(b.is_ascii_alphabetic() || b == b'_' || b == b':') {
                return false;
            }
            i += 1 + l[i + 1..]
                .iter()
                .take_while(|&&c| {
                    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'-')
                })
                .count();
            let after_name = i;
            let j = i + l[i..].iter().take_while(|&&c| is_ws(c)).count();
            if j >= l.len() {
                return false;
            }
            if l[j] != b'=' {
                i = after_name;
                continue;
            }
            let k = j + 1 + l[j + 1..].iter().take_while(|&&c| is_ws(c)).count();
            match l.get(k) {
                None | Some(b' ' | b'=' | b'>' | b'<' | b'`') => return false,
                Some(&q @ (b'"' | b'\'')) => match l[k + 1..].iter().position(|&c| c == q) {
                    Some(p) => i = k + 1 + p + 1,
                    None => return false,
                },
                Some(_) => {
                    i = k + l[k..]
                        .iter()
                        .take_while(|&&c| {
                            !matches!(c, b'\'' | b'"' | b' ' | b'=' | b'>' | b'<' | b'`')
                        })
                        .count();
                }
            }
        }
    }
    i += ws(&l[i..]);
    if close == 0 && l.get(i) == Some(&b'/') {
        i += 1;
    }
    if l.get(i) != Some(&b'>') {
        return false;
    }
    is_blank(&l[i + 1..])
}

/// A list item marker at the start of `rest`.
pub(super) struct Item {
    /// Columns from the marker's start to the item's content (`None`: an empty item, or a
    /// tab after the marker, which this scanner leaves to pulldown-cmark).
    pub w: Option<usize>,
    /// Byte offset of the content (after the marker and the spaces counted in `w`).
    pub content: usize,
    pub bullet: bool,
    /// An ordered item numbered 1.
    pub one: bool,
}

pub(super) fn list_item(rest: &[u8]) -> Option<Item> {
    let (marker, bullet, one) = match rest.first()? {
        b'-' | b'+' | b'*' => (1, true, false),
        b'0'..=b'9' => {
            let d = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if d > 9 || !matches!(rest.get(d), Some(b'.' | b')')) {
                return None;
            }
            let value = rest[..d]
                .iter()
                .fold(0u64, |v, &b| v * 10 + u64::from(b - b'0'));
            (d + 1, false, value == 1)
        }
        _ => return None,
    };
    let after = &rest[marker..];
    let none = Item {
        w: None,
        content: marker,
        bullet,
        one,
    };
    if after.is_empty() || is_blank(after) {
        return Some(none);
    }
    let spaces = after.iter().take_while(|&&b| b == b' ').count();
    if spaces == 0 {
        // `-foo` is no item; a tab after the marker is left to pulldown-cmark.
        return (after[0] == b'\t').then_some(none);
    }
    if after.get(spaces) == Some(&b'\t') {
        return Some(none);
    }
    let taken = if spaces > 4 { 1 } else { spaces };
    Some(Item {
        w: Some(marker + taken),
        content: marker + taken,
        bullet,
        one,
    })
}

/// Bytes that may start inline markup (or, in a heading, a link this scanner cannot resolve
/// alone): a heading holding none of them is its own title.
pub(super) fn is_markup(b: u8) -> bool {
    matches!(
        b,
        b'\\' | b'`' | b'*' | b'_' | b'~' | b'[' | b']' | b'<' | b'&' | b'!' | b'\t'
    )
}
