//! The top-level headings of a markdown text found line by line, without a full `CommonMark`
//! parse: the fast path of sectioning (docs/DESIGN.md §2 "Sectioning", §8 "to searchable").
//!
//! [`headings`] follows what decides whether a line starts a top-level heading — fenced
//! code and HTML blocks at the top level, list items and block quotes (a heading inside one
//! is content, not a section), paragraphs (setext underlines, what may interrupt them) — with
//! pulldown-cmark's rules, and *declines* (`None`) wherever it cannot be sure to agree with
//! pulldown-cmark: a line that may be a lazy continuation of a list item or quote, a
//! possible table or link reference definition above a setext underline, an HTML tag that is
//! not one of the block kinds 1–6, a footnote definition, a lone `\r` line break, a link in
//! a heading. The caller then parses with pulldown-cmark. A heading with inline markup gets
//! its title from pulldown-cmark run over that heading's lines alone.
//!
//! Tests compare it with the pulldown-cmark scan on every markdown fixture and on random
//! documents (`tests` below).

use std::ops::Range;

/// A heading found by [`headings`]: level (1–6), the byte offset and 1-based line of its
/// first line's start, and where its title comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub level: u8,
    pub start: usize,
    pub line: u32,
    pub title: Title,
}

/// Where a found heading's title comes from (byte ranges into the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Title {
    /// Text without inline markup: the title is this text, whitespace collapsed (an ATX
    /// heading's closing `#`s already left out; a setext heading's lines).
    Plain(Range<usize>),
    /// Text with inline markup: the title is what `CommonMark` makes of the heading alone
    /// (these lines: the heading line, or the setext paragraph and its underline).
    Markup(Range<usize>),
}

/// The opening of a top-level fenced code block: fence byte and length.
#[derive(Clone, Copy)]
struct Fence {
    ch: u8,
    len: usize,
}

/// How a top-level HTML block ends (pulldown-cmark: kinds 1–5 at the line holding their end
/// marker, kinds 6 and 7 before a blank line).
#[derive(Clone, Copy)]
enum HtmlEnd {
    Marker(&'static str),
    Blank,
}

/// The open container of the top level, if any.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Container {
    None,
    /// A list item whose content starts at column `w` (a line indented `w` columns or more,
    /// or blank, continues it).
    List {
        w: usize,
    },
    Quote,
}

/// The open top-level paragraph.
#[derive(Clone, Copy)]
struct Para {
    /// Byte offset of its first line's start.
    start: usize,
    /// 1-based line of `start`.
    line: u32,
    /// Its first line starts with `[` (it may be link reference definitions).
    bracket: bool,
    /// A line of it holds `|` (it may be, or turn into, a table).
    pipe: bool,
}

/// A line: its text without the line break, and where it starts.
#[derive(Clone, Copy)]
struct Line<'a> {
    text: &'a [u8],
    start: usize,
    /// Start of the next line (or the end of the range).
    next: usize,
    no: u32,
}

/// The headings `sections::headings` finds in `text[from..to]` (offsets already
/// clamped to char boundaries), or `None` when this scanner cannot be sure to agree with
/// it (see the module doc). `first_line` is the 1-based line of `from`.
pub(crate) fn headings(text: &str, from: usize, to: usize, first_line: u32) -> Option<Vec<Found>> {
    let bytes = &text.as_bytes()[..to];
    // pulldown-cmark takes a vertical tab or form feed for a blank in some places and for
    // text in others: such a text is left to it.
    if has_lone_cr(&bytes[from..]) || memchr::memchr2(0x0b, 0x0c, &bytes[from..]).is_some() {
        return None;
    }
    let mut out = Vec::new();
    let mut fence: Option<Fence> = None;
    let mut html: Option<HtmlEnd> = None;
    let mut cont = Container::None;
    let mut inner = InnerState::opened_with(b"");
    let mut para: Option<Para> = None;
    // The labels the text may define link references for (`[label]:`): a heading with a
    // bracket that may be one is then left to pulldown-cmark, which resolves them over
    // the whole text.
    let labels = RefLabels::of(&bytes[from..]);
    let refdefs = labels.is_some();
    let labels = labels.unwrap_or_default();
    let mut pos = from;
    // Every line break, then the text's end (a last line without a break).
    let breaks = memchr::memchr_iter(b'\n', &bytes[from..]).map(|i| from + i);
    for (no, end) in (first_line..).zip(breaks.chain(std::iter::once(to))) {
        if pos >= to {
            break;
        }
        let next = if end < to { end + 1 } else { to };
        let mut t = &bytes[pos..end];
        if let [rest @ .., b'\r'] = t {
            t = rest;
        }
        let line = Line {
            text: t,
            start: pos,
            next,
            no,
        };
        pos = next;
        if let Some(f) = fence {
            if closes_fence(line.text, f) {
                fence = None;
            }
            continue;
        }
        if let Some(h) = html {
            match h {
                HtmlEnd::Marker(m) => {
                    if contains(line.text, m.as_bytes()) {
                        html = None;
                    }
                    continue;
                }
                HtmlEnd::Blank if is_blank(line.text) => html = None,
                HtmlEnd::Blank => continue,
            }
        }
        if is_blank(line.text) {
            para = None;
            if cont == Container::Quote {
                cont = Container::None;
            }
            inner.inner = Inner::NotPara;
            continue;
        }
        let (col, at) = indent(line.text);
        let rest = &line.text[at..];
        // Inside the open container?
        match cont {
            Container::List { w } if col >= w => {
                inner.inside_line(rest, col - w);
                continue;
            }
            // pulldown-cmark finds a quote marker after part of a tab (`\t>`).
            Container::Quote if line.text[..at].contains(&b'\t') => return None,
            Container::Quote if col <= 3 && rest.first() == Some(&b'>') => {
                let content = rest[1..].strip_prefix(b" ").unwrap_or(&rest[1..]);
                if is_blank(content) {
                    inner.inner = Inner::NotPara;
                } else {
                    let (rel, at) = indent(content);
                    inner.inside_line(&content[at..], rel);
                }
                continue;
            }
            _ => {}
        }
        let in_cont = cont != Container::None;
        if col >= 4 {
            // Indented code, or a paragraph's continuation (lazy, in a container).
            if in_cont {
                match inner.inner {
                    Inner::Para => continue,
                    Inner::NotPara => cont = Container::None,
                    Inner::Unknown => return None,
                }
            }
            if let Some(p) = &mut para {
                // A table row ignores indentation: a block start ends the table there.
                if p.pipe && !continues_paragraph(rest) {
                    return None;
                }
                p.pipe |= has_pipe(rest);
            }
            continue;
        }
        let Some(&first) = rest.first() else {
            continue;
        };
        // Setext underline of an open top-level paragraph (checked before the blocks that
        // could interrupt it, as pulldown-cmark does).
        if let (Some(p), Some(level)) = (para, setext_level(rest)) {
            if p.bracket || p.pipe {
                return None;
            }
            let title = setext_title(text, p.start, line.start, line.next, &labels)?;
            out.push(Found {
                level,
                start: p.start,
                line: p.line,
                title,
            });
            para = None;
            continue;
        }
        if first == b'#'
            && let Some(level) = atx_level(rest)
        {
            if para.is_some_and(|p| p.bracket) {
                return None;
            }
            let title = atx_title(line, at, level, &labels)?;
            out.push(Found {
                level,
                start: line.start,
                line: line.no,
                title,
            });
            para = None;
            cont = Container::None;
            continue;
        }
        if let Some(f) = open_fence(rest) {
            fence = Some(f);
            para = None;
            cont = Container::None;
            continue;
        }
        if is_hrule(rest) {
            para = None;
            cont = Container::None;
            continue;
        }
        if first == b'<' {
            if let Some(end) = html_start(&bytes[line.start + at..]) {
                para = None;
                cont = Container::None;
                // Kinds 1–5 may end on their first line.
                match end {
                    HtmlEnd::Marker(m) if contains(line.text, m.as_bytes()) => {}
                    _ => html = Some(end),
                }
                continue;
            }
            // An HTML block of kind 7 cannot interrupt a paragraph: the line continues an
            // open one (lazily, in a container).
            if in_cont {
                match inner.inner {
                    Inner::Para => continue,
                    Inner::NotPara => cont = Container::None,
                    Inner::Unknown => return None,
                }
            }
            if para.is_none() && is_html_kind7(rest) {
                html = Some(HtmlEnd::Blank);
                continue;
            }
        }
        if first == b'>' {
            para = None;
            cont = Container::Quote;
            let content = rest[1..].strip_prefix(b" ").unwrap_or(&rest[1..]);
            let (rel, at) = indent(content);
            inner = if rel >= 4 {
                InnerState {
                    inner: Inner::Unknown,
                    risk: true,
                }
            } else {
                InnerState::opened_with(&content[at..])
            };
            continue;
        }
        if rest.starts_with(b"[^") {
            return None; // a footnote definition, perhaps
        }
        if let Some(item) = list_item(rest) {
            let Some(w) = item.w else {
                return None; // an empty item or a tab after the marker
            };
            let starts = if in_cont {
                // A line outside the container: any list item starts there.
                true
            } else if let Some(p) = para {
                if p.pipe && !(item.bullet || item.one) {
                    return None; // a table row or a paragraph line
                }
                item.bullet || item.one
            } else {
                true
            };
            if starts {
                para = None;
                cont = Container::List { w: col + w };
                let c = &rest[item.content..];
                inner = if c.first() == Some(&b' ') {
                    // More than 4 spaces after the marker: indented code.
                    InnerState {
                        inner: Inner::Unknown,
                        risk: true,
                    }
                } else {
                    InnerState::opened_with(c)
                };
                continue;
            }
        }
        // Paragraph text: a lazy continuation in a container, or a top-level paragraph.
        if in_cont {
            match inner.inner {
                // A line starting with `|` may start a table instead.
                Inner::Para if first != b'|' => continue,
                Inner::NotPara => cont = Container::None,
                _ => return None,
            }
        }
        match &mut para {
            Some(p) => p.pipe |= has_pipe(rest),
            None => {
                para = Some(Para {
                    start: line.start,
                    line: line.no,
                    bracket: first == b'[' && refdefs,
                    pipe: has_pipe(rest),
                });
            }
        }
    }
    Some(out)
}

/// What the open container's innermost block is, as far as its lines tell: a line outside
/// it continues an open paragraph lazily, or closes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Inner {
    /// Surely a paragraph that a plain line continues.
    Para,
    /// Surely no paragraph (the last line was blank).
    NotPara,
    /// Not known: a plain line outside the container makes this scanner decline.
    Unknown,
}

/// The state of the open container: its innermost block, and whether a block that hides
/// what its lines are (fenced code, HTML, a table, indented code) may be open in it — then
/// no later line of the container is taken for paragraph text.
#[derive(Clone, Copy, Debug)]
struct InnerState {
    inner: Inner,
    risk: bool,
}

impl InnerState {
    /// A container opened by a list item whose content (after the marker and its
    /// spaces) is `c`, or by a quote marker followed by `c` (indentation removed).
    fn opened_with(c: &[u8]) -> Self {
        let mut s = InnerState {
            inner: Inner::NotPara,
            risk: false,
        };
        if is_blank(c) {
            return s;
        }
        if hides_lines(c) {
            s.risk = true;
            s.inner = Inner::Unknown;
        } else if list_item(c).is_some() {
            s.inside_line(c, 0);
        } else {
            s.inner = item_content_is_text(c);
        }
        s
    }

    /// After a non-blank line inside the container whose text (indentation removed) is
    /// `c`, `rel` columns right of the container's content column.
    fn inside_line(&mut self, c: &[u8], rel: usize) {
        if hides_lines(c) || (rel >= 4 && self.inner != Inner::Para) {
            self.risk = true;
        }
        self.inner = if self.risk {
            Inner::Unknown
        } else if self.inner == Inner::Para && continues_paragraph(c) {
            Inner::Para
        } else if let Some(item) = list_item(c) {
            match item.w {
                Some(_) if rel < 4 => item_content_is_text(&c[item.content..]),
                _ => Inner::Unknown,
            }
        } else if self.inner == Inner::NotPara && rel < 4 && starts_paragraph(c) {
            Inner::Para
        } else {
            Inner::Unknown
        };
    }
}

/// Whether a line whose text is `c` may open a block whose later lines are not what they
/// look like: a fence, HTML, a table (any `|`), a footnote definition.
fn hides_lines(c: &[u8]) -> bool {
    open_fence(c).is_some() || c.first() == Some(&b'<') || has_pipe(c) || c.starts_with(b"[^")
}

/// Whether a list item's content `c` (after the marker and its spaces) starts a paragraph:
/// plain text, after a task-list box `[ ]`/`[x]` if any; content that starts with a space
/// (more than 4 after the marker: indented code) does not.
fn item_content_is_text(c: &[u8]) -> Inner {
    let c = match c {
        [b'[', b' ' | b'x' | b'X', b']', b' ', rest @ ..] => rest,
        _ => c,
    };
    if starts_paragraph(c) {
        Inner::Para
    } else {
        Inner::Unknown
    }
}

/// Whether a line whose text is `c` (not indented) starts a paragraph: it continues one
/// ([`continues_paragraph`]) and may not be a link reference definition.
fn starts_paragraph(c: &[u8]) -> bool {
    !may_be_refdef(c) && continues_paragraph(c)
}

/// Whether `c` may start a link reference definition `[label]: …`: it starts with `[` and
/// its first unescaped `]` is followed by `:` or is not on this line.
fn may_be_refdef(c: &[u8]) -> bool {
    if c.first() != Some(&b'[') {
        return false;
    }
    let mut escaped = false;
    for (i, &b) in c.iter().enumerate().skip(1) {
        match b {
            b'\\' if !escaped => escaped = true,
            b']' if !escaped => return c.get(i + 1) == Some(&b':'),
            _ => escaped = false,
        }
    }
    true
}

/// Whether a line whose text (indentation removed) is `c` continues an open paragraph
/// rather than starting a block or a table, for this scanner's purposes: no heading, fence,
/// thematic break, setext underline, HTML, quote, list item, footnote, and no `|` at all.
fn continues_paragraph(c: &[u8]) -> bool {
    let Some(&first) = c.first() else {
        return false;
    };
    !(matches!(first, b'<' | b'>' | b'|')
        || atx_level(c).is_some()
        || open_fence(c).is_some()
        || is_hrule(c)
        || setext_level(c).is_some()
        || list_item(c).is_some()
        || c.starts_with(b"[^")
        || has_pipe(c))
}

/// Whether `b` holds a `\r` not followed by `\n` (a classic Mac OS line break).
/// Whether `b` holds a `|` (a table cell separator, perhaps).
fn has_pipe(b: &[u8]) -> bool {
    memchr::memchr(b'|', b).is_some()
}

fn has_lone_cr(b: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n'))
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(hay, needle).is_some()
}

/// Spaces and tabs only (a blank line; [`headings`] declines texts with the other
/// whitespace pulldown-cmark sometimes takes for blank).
fn is_blank(l: &[u8]) -> bool {
    l.iter().all(|&b| b == b' ' || b == b'\t')
}

/// pulldown-cmark's whitespace within a line.
fn is_ws_no_nl(b: u8) -> bool {
    matches!(b, b'\t' | 0x0b | 0x0c | b' ')
}

/// The column the line's text starts at (tabs to the next multiple of 4) and the byte it
/// starts at.
fn indent(l: &[u8]) -> (usize, usize) {
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
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}

/// The level of an ATX heading line (`rest` starts after the indentation).
fn atx_level(rest: &[u8]) -> Option<u8> {
    let n = rest.iter().take_while(|&&b| b == b'#').count();
    ((1..=6).contains(&n) && rest.get(n).is_none_or(|&b| is_ws(b))).then_some(n as u8)
}

/// `===` or `---` (one or more) and then spaces or tabs: a setext underline's level.
fn setext_level(rest: &[u8]) -> Option<u8> {
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
fn is_hrule(rest: &[u8]) -> bool {
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
fn open_fence(rest: &[u8]) -> Option<Fence> {
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
fn closes_fence(l: &[u8], f: Fence) -> bool {
    let spaces = l.iter().take_while(|&&b| b == b' ').count();
    if spaces > 3 || l.get(spaces) == Some(&b'\t') {
        return false;
    }
    let rest = &l[spaces..];
    let n = rest.iter().take_while(|&&b| b == f.ch).count();
    n >= f.len && rest[n..].iter().all(|&b| b == b' ')
}

/// HTML block tag names of kind 6 (pulldown-cmark's list, sorted).
const BLOCK_TAGS: [&str; 62] = [
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
fn html_start(at: &[u8]) -> Option<HtmlEnd> {
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
fn is_html_kind7(l: &[u8]) -> bool {
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
struct Item {
    /// Columns from the marker's start to the item's content (`None`: an empty item, or a
    /// tab after the marker, which this scanner leaves to pulldown-cmark).
    w: Option<usize>,
    /// Byte offset of the content (after the marker and the spaces counted in `w`).
    content: usize,
    bullet: bool,
    /// An ordered item numbered 1.
    one: bool,
}

fn list_item(rest: &[u8]) -> Option<Item> {
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
fn is_markup(b: u8) -> bool {
    matches!(
        b,
        b'\\' | b'`' | b'*' | b'_' | b'~' | b'[' | b']' | b'<' | b'&' | b'!' | b'\t'
    )
}

/// The labels a text may define link references for: every `[label]` right before a `]:`
/// (a superset: in code too), normalized (ASCII lower case, whitespace collapsed).
#[derive(Default)]
struct RefLabels {
    labels: Vec<Vec<u8>>,
    /// A `]:` whose `[` is not on its line (a label over two lines): any bracket may
    /// resolve.
    any: bool,
}

impl RefLabels {
    /// `None` when `b` holds no `]:` at all.
    fn of(b: &[u8]) -> Option<Self> {
        let mut out = RefLabels::default();
        let mut found = false;
        for p in memchr::memmem::find_iter(b, b"]:") {
            found = true;
            let line_start = memchr::memrchr(b'\n', &b[..p]).map_or(0, |i| i + 1);
            match memchr::memrchr(b'[', &b[line_start..p]) {
                // A non-ASCII label may case-fold onto an ASCII one (`K`, the Kelvin sign).
                Some(open) if b[line_start + open + 1..p].is_ascii() => {
                    out.labels.push(normalize(&b[line_start + open + 1..p]));
                }
                Some(_) => out.any = true,
                None => out.any = true,
            }
        }
        found.then_some(out)
    }

    /// Whether heading text `t` holds a bracket that may resolve to one of the labels (or
    /// a bracket this test cannot read: after a backslash, or around non-ASCII text).
    fn may_resolve(&self, t: &[u8]) -> bool {
        if !t.iter().any(|&b| b == b'[' || b == b']') || (self.labels.is_empty() && !self.any) {
            return false;
        }
        if self.any || t.contains(&b'\\') {
            return true;
        }
        // Every innermost `[…]` of the heading.
        let mut open = None;
        for (i, &b) in t.iter().enumerate() {
            match b {
                b'[' => open = Some(i),
                b']' => {
                    if let Some(o) = open.take() {
                        let inside = &t[o + 1..i];
                        if !inside.is_ascii() || self.labels.contains(&normalize(inside)) {
                            return true;
                        }
                    }
                }
                _ => {}
            }
        }
        false
    }
}

/// A link label as compared: ASCII lower case, runs of whitespace as one space, trimmed;
/// non-ASCII bytes kept (a label holding them always counts as a possible match).
fn normalize(label: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(label.len());
    for w in label
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(b' ');
        }
        out.extend(w.iter().map(u8::to_ascii_lowercase));
    }
    out
}

/// The title of an ATX heading on `line` (`at`: the byte where `#` starts), or `None` when
/// it holds a bracket that a link reference of the text may resolve (the whole text is
/// then left to pulldown-cmark).
fn atx_title(line: Line<'_>, at: usize, level: u8, labels: &RefLabels) -> Option<Title> {
    let from = at + level as usize;
    let t = &line.text[from..];
    if labels.may_resolve(t) {
        return None;
    }
    if t.iter().any(|&b| is_markup(b)) {
        return Some(Title::Markup(line.start..line.next));
    }
    // pulldown-cmark's closing sequence: trailing spaces, then `#`s after a space (or
    // nothing but `#`s), then spaces.
    let mut limit = t.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    let closer = t[..limit]
        .iter()
        .rposition(|&b| b != b'#')
        .map_or(0, |i| i + 1);
    if closer == 0 {
        limit = 0;
    } else {
        let spaces = t[..closer].iter().rev().take_while(|&&b| b == b' ').count();
        if spaces > 0 {
            limit = closer - spaces;
        }
    }
    let start = line.start + from;
    Some(Title::Plain(start..start + limit))
}

/// The title of the setext heading whose paragraph starts at `start` and whose underline
/// is the line `underline..next` (`None` as for [`atx_title`]).
fn setext_title(
    text: &str,
    start: usize,
    underline: usize,
    next: usize,
    labels: &RefLabels,
) -> Option<Title> {
    let body = &text.as_bytes()[start..underline];
    if labels.may_resolve(body) {
        return None;
    }
    if body.iter().any(|&b| is_markup(b) && b != b'\t') {
        return Some(Title::Markup(start..next));
    }
    Some(Title::Plain(start..underline))
}

#[cfg(test)]
mod tests {
    use crate::formats::sections::{self, Heading, clamp_range, line_of};

    /// Both scans of `text`: (line scanner or `None`, pulldown-cmark).
    fn both(text: &str) -> (Option<Vec<Heading>>, Vec<Heading>) {
        // The body after YAML frontmatter, as the loader sections it.
        let body = crate::frontmatter::parse(text).map_or(0, |f| f.block.end.min(text.len()));
        let (from, to) = clamp_range(text, body, text.len());
        (
            sections::headings_by_lines(text, from, to, line_of(text, from)),
            sections::headings(text, body, text.len()),
        )
    }

    /// Every markdown file under `dir`, recursively.
    fn markdown_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                markdown_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "md" || x == "markdown") {
                out.push(p);
            }
        }
    }

    /// Compare on every markdown file under `dir`; returns (files, declined, disagreements).
    fn compare_dir(dir: &std::path::Path) -> (usize, usize, Vec<String>) {
        let mut files = Vec::new();
        markdown_files(dir, &mut files);
        let mut declined = 0;
        let mut bad = Vec::new();
        for f in &files {
            let Ok(text) = std::fs::read_to_string(f) else {
                continue;
            };
            match both(&text) {
                (None, _) => declined += 1,
                (Some(a), b) if a != b => bad.push(format!("{}: {a:?} vs {b:?}", f.display())),
                _ => {}
            }
        }
        (files.len(), declined, bad)
    }

    #[test]
    fn the_line_scanner_agrees_with_pulldown_on_every_markdown_fixture() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let (n, declined, bad) = compare_dir(&dir);
        assert!(bad.is_empty(), "{}", bad.join("\n"));
        // Not vacuous: the fixtures hold 295 markdown files, and the scanner reads nearly
        // all of them itself (2 are left to pulldown-cmark).
        assert!(
            n >= 290 && declined * 20 <= n,
            "{n} files, {declined} declined"
        );
    }

    /// `SKILLNAV_HEADINGS_DIR=../shared/corpus cargo test --lib agrees_with_pulldown_on_a_folder
    /// -- --ignored --nocapture` compares a whole folder (docs/DESIGN.md §8 gives the figures).
    #[test]
    #[ignore = "measures a folder named by SKILLNAV_HEADINGS_DIR"]
    fn agrees_with_pulldown_on_a_folder() {
        let Some(dir) = std::env::var_os("SKILLNAV_HEADINGS_DIR") else {
            return;
        };
        let (n, declined, bad) = compare_dir(std::path::Path::new(&dir));
        println!("{n} files, {declined} declined, {} disagree", bad.len());
        for b in bad.iter().take(5) {
            println!("{b}");
        }
        assert!(bad.is_empty());
    }

    /// Line pieces the random documents are made of: every construct the scanner models
    /// or declines on, with and without indentation.
    const PIECES: &[&str] = &[
        "# Title",
        "## Sub *em* `code`",
        "### [link](u) and [ref]",
        "#no",
        "####### seven",
        "#",
        "# closed ##",
        "# with {#anchor}",
        "Text line",
        "more text | with pipe",
        "| a | b |",
        "|---|---|",
        "---",
        "===",
        "-",
        "- - -",
        "***",
        "___",
        "```",
        "```rust",
        "````",
        "~~~",
        "``` a ` b",
        "> quote",
        ">",
        "> # in quote",
        "> ```",
        "- item",
        "- [ ] task",
        "* star",
        "+ plus",
        "1. one",
        "2) two",
        "10. ten",
        "-\tTab item",
        "<div>",
        "</div>",
        "<!-- note",
        "-->",
        "<!-- one line -->",
        "<pre>",
        "</pre>",
        "<br/>",
        "<a href=\"x\">",
        "<img src=x alt='y'>",
        "<sup>1</sup> text",
        "<?php",
        "?>",
        "<![CDATA[",
        "]]>",
        "<!DOCTYPE html>",
        "[ref]: https://example.com",
        "[ref]",
        "[^1]: note",
        "[^1]",
        "\\# escaped",
        "&amp; entity",
        "",
        "   ",
        "\t",
        "\u{c}",
        "café **bold**",
    ];

    fn doc() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let line = (
            prop::sample::select(PIECES.to_vec()),
            prop::sample::select(vec!["", " ", "  ", "   ", "    ", "      ", "\t", " \t"]),
            prop::sample::select(vec!["\n", "\n", "\n", "\r\n"]),
        )
            .prop_map(|(piece, pad, br)| format!("{pad}{piece}{br}"));
        prop::collection::vec(line, 0..24).prop_map(|v| v.concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        #[test]
        fn the_line_scanner_agrees_with_pulldown_or_declines(text in doc()) {
            if let (Some(fast), full) = both(&text) {
                proptest::prop_assert_eq!(fast, full, "text: {:?}", text);
            }
        }
    }

    /// The scanner's answer on `text` is pulldown-cmark's, or it declines.
    fn agrees(text: &str) -> bool {
        match both(text) {
            (Some(fast), full) => fast == full,
            (None, _) => true,
        }
    }

    /// The headings of `text` by the scanner; panics when it declines.
    fn scanned(text: &str) -> Vec<(u8, String, u32)> {
        let (fast, full) = both(text);
        let fast = fast.expect("the scanner reads this text itself");
        assert_eq!(fast, full);
        fast.into_iter()
            .map(|h| (h.level, h.title, h.line))
            .collect()
    }

    #[test]
    fn a_form_feed_line_continues_a_paragraph_so_the_text_is_left_to_pulldown() {
        // Found by the property test: pulldown-cmark ends a paragraph at a line of spaces
        // and tabs but not at a form feed, which it takes for blank elsewhere.
        let text = "]]>\n\u{c}\n---\n";
        assert!(both(text).0.is_none());
        assert_eq!(sections::headings(text, 0, text.len())[0].title, "]]>");
    }

    #[test]
    fn a_tab_before_a_quote_marker_is_left_to_pulldown() {
        // Found by the property test: pulldown-cmark reads `\t>` as the quote going on.
        let text = "# Title\n> quote\n\t>\n``` a ` b\n---\n";
        assert!(both(text).0.is_none());
        assert!(agrees(text));
    }

    #[test]
    fn an_indented_block_start_ends_a_table_so_the_text_is_left_to_pulldown() {
        // Found by the property test: a table row ignores indentation, so `    # Title`
        // ends the table (and is indented code) where a paragraph would go on.
        let text = "more text | with pipe\n|---|---|\n    # Title\n</pre>\n# Title\n";
        assert!(both(text).0.is_none());
        assert!(sections::headings(text, 0, text.len()).is_empty());
    }

    #[test]
    fn lazy_list_lines_fenced_code_and_html_comments_are_read_without_pulldown() {
        let text = "<!-- toc -->\n- [Summary](#summary)\n<!-- /toc -->\n\n# KEP-1: Title\n\n\
                    - a list item that wraps\nonto an unindented line\n# Summary\n\n\
                    - [ ] (R) a task\n  ```yaml\n  # not a heading\n  ```\n\n## Motivation\n\
                    ```\n# not a heading either\n```\nText\n===\n";
        assert_eq!(
            scanned(text),
            [
                (1, "KEP-1: Title".to_string(), 5),
                (1, "Summary".to_string(), 9),
                (2, "Motivation".to_string(), 16),
                (1, "Text".to_string(), 20),
            ]
        );
    }

    #[test]
    fn a_bracket_in_a_heading_is_parsed_alone_unless_a_reference_may_resolve_it() {
        // No `[label]:` in the text: the heading's link is read from its own line.
        let text = "# [KEP-5027](https://example.com/5027): DRA\n\n## Stories [optional]\n";
        assert_eq!(
            scanned(text),
            [
                (1, "KEP-5027: DRA".to_string(), 1),
                (2, "Stories [optional]".to_string(), 3)
            ]
        );
        // `[optional]` is defined: only the whole-text parse resolves it.
        let defined = format!("{text}\n[optional]: https://example.com\n");
        assert!(both(&defined).0.is_none());
        assert_eq!(
            sections::headings(&defined, 0, defined.len())[1].title,
            "Stories optional"
        );
    }

    #[test]
    fn an_html_block_of_kind_7_hides_the_heading_under_it() {
        // One whole tag on its line opens an HTML block that runs to a blank line.
        let text = "<img src=\"logo.png\" alt='logo'>\n# inside the HTML block\n\n# Heading\n";
        assert_eq!(scanned(text), [(1, "Heading".to_string(), 4)]);
        // A tag with more after it is paragraph text, which a heading line interrupts.
        let text = "<a id=\"anchor\"></a>\n# After the anchor\n";
        assert_eq!(scanned(text), [(1, "After the anchor".to_string(), 2)]);
    }
}
