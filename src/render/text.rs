//! The styled-text model every renderer in the core produces: [`Line`]s of [`Span`]s, each
//! with a [`Style`] naming its semantic [`Role`] (docs/DESIGN.md §6: the core has no ratatui types;
//! the TUI converts these in one bridge, resolving colours through
//! [`crate::render::theme::Theme::resolve`]).
//!
//! Invariant: text entering a span through [`Span::new`] is passed through
//! [`crate::util::sanitize::sanitize_line`], so control characters and escape sequences never reach
//! the terminal (ESC shows as `␛`, the invalid-UTF-8 placeholder as U+FFFD).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use unicode_segmentation::UnicodeSegmentation;

use crate::render::width;
use crate::util::sanitize::sanitize_line;

/// A 24-bit colour. In theme TOML it is written `"#rrggbb"` (see [`Rgb::from_hex`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Parse `#rrggbb` (the `#` is required, hex digits in either case). `None` otherwise.
    pub fn from_hex(s: &str) -> Option<Rgb> {
        let hex = s.strip_prefix('#')?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb(byte(0)?, byte(2)?, byte(4)?))
    }

    /// Format as lowercase `#rrggbb`.
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for Rgb {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Rgb {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        Rgb::from_hex(&s).ok_or_else(|| {
            serde::de::Error::custom(format!("invalid colour {s:?}: expected \"#rrggbb\""))
        })
    }
}

/// What a piece of text *is*; the theme maps each role to colours and attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Role {
    /// Body text.
    #[default]
    Text,
    /// A heading line (marker and text); the level is 1..=6.
    Heading(u8),
    /// `*emphasis*`.
    Emphasis,
    /// `**strong**`.
    Strong,
    /// `~~strikethrough~~`.
    Strike,
    /// `` `inline code` ``.
    InlineCode,
    /// A line of a fenced or indented code block (plain or highlighted).
    CodeBlock,
    /// The language label line above a code block.
    CodeLang,
    /// Link text.
    Link,
    /// The ` (url)` shown after link text.
    LinkUrl,
    /// The `│ ` bar of a block quote.
    Quote,
    /// A list bullet, number or task box.
    ListMarker,
    /// A thematic break (`───`) or a heading underline.
    Rule,
    /// Table box-drawing characters.
    TableBorder,
    /// Header-row table cells.
    TableHeader,
    /// Raw HTML (blocks and inline).
    Html,
    /// An image placeholder `[image: alt]`.
    Image,
    /// A search term hit (docs/DESIGN.md §6 `n/N`).
    Match,
    /// The YAML frontmatter block.
    FrontMatter,
    /// A footnote reference `[1]` or a footnote definition label `[1]:`.
    Footnote,
    /// De-emphasised text (hints, placeholders).
    Dim,
}

/// A span's style: its [`Role`] plus explicit colours and attributes. `fg`/`bg` are `None`
/// unless the producer fixed a colour (syntax highlighting); the theme fills them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Style {
    /// Semantic role.
    pub role: Role,
    /// Foreground colour fixed by the producer, if any.
    pub fg: Option<Rgb>,
    /// Background colour fixed by the producer, if any.
    pub bg: Option<Rgb>,
    /// Bold.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// Underlined.
    pub underline: bool,
    /// Struck through.
    pub strike: bool,
    /// Dimmed (faint).
    pub dim: bool,
}

impl Style {
    /// A style with `role` and no colours or attributes.
    pub fn new(role: Role) -> Style {
        Style {
            role,
            ..Style::default()
        }
    }

    /// Builder: set bold.
    pub fn bold(mut self) -> Style {
        self.bold = true;
        self
    }

    /// Builder: set italic.
    pub fn italic(mut self) -> Style {
        self.italic = true;
        self
    }

    /// Builder: set underline.
    pub fn underline(mut self) -> Style {
        self.underline = true;
        self
    }

    /// Builder: set strikethrough.
    pub fn strike(mut self) -> Style {
        self.strike = true;
        self
    }

    /// Builder: set dim.
    pub fn dim(mut self) -> Style {
        self.dim = true;
        self
    }

    /// Builder: set the foreground colour.
    pub fn fg(mut self, rgb: Rgb) -> Style {
        self.fg = Some(rgb);
        self
    }
}

/// A run of text with one style. Build with [`Span::new`] so the text is sanitised.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The text (one display line: no `\n`, no control characters).
    pub text: String,
    /// Its style.
    pub style: Style,
}

impl Span {
    /// A span of `text` (sanitised with [`sanitize_line`]) in `style`.
    pub fn new(text: impl AsRef<str>, style: Style) -> Span {
        Span {
            text: sanitize_line(text.as_ref()).into_owned(),
            style,
        }
    }

    /// A span with role `role` and no attributes.
    pub fn role(text: impl AsRef<str>, role: Role) -> Span {
        Span::new(text, Style::new(role))
    }

    /// Display width in terminal cells ([`width::str_width`]).
    pub fn width(&self) -> usize {
        width::str_width(&self.text)
    }
}

/// Bytes at the start of `next` that belong to the last grapheme cluster of `prev` when the
/// two are joined (`"❤"` + `"\u{FE0F}!"` → 3: the VS16 makes the heart a 2-cell emoji).
fn continuation_len(prev: &str, next: &str) -> usize {
    if next.chars().next().is_none_or(|c| c.is_ascii()) {
        return 0;
    }
    let Some(last) = prev.graphemes(true).next_back() else {
        return 0;
    };
    let joined = format!("{last}{next}");
    let first = joined.graphemes(true).next().map_or(0, str::len);
    first.saturating_sub(last.len()).min(next.len())
}

/// `spans` with every span boundary on a grapheme boundary of the joined text: characters
/// at a span's start that continue the previous span's last grapheme (a VS16 after `**❤**`)
/// move into that span (the previous non-empty one). Then the sum of the spans' widths is the width of the joined text,
/// so wrapping and table layout never under-count. Borrowed when nothing moves; a span
/// emptied by the move is dropped.
pub fn align_graphemes(spans: &[Span]) -> std::borrow::Cow<'_, [Span]> {
    // Empty spans are skipped over: a VS16 after `❤`, `""` still continues the heart.
    let mut last: Option<&str> = None;
    let mut moves = false;
    for s in spans {
        if last.is_some_and(|p| continuation_len(p, &s.text) > 0) {
            moves = true;
            break;
        }
        if !s.text.is_empty() {
            last = Some(&s.text);
        }
    }
    if !moves {
        return std::borrow::Cow::Borrowed(spans);
    }
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        let mut s = s.clone();
        if let Some(prev) = out.iter_mut().rev().find(|p| !p.text.is_empty()) {
            let k = continuation_len(&prev.text, &s.text);
            if k > 0 {
                prev.text.push_str(&s.text[..k]);
                s.text.drain(..k);
                if s.text.is_empty() {
                    continue;
                }
            }
        }
        out.push(s);
    }
    std::borrow::Cow::Owned(out)
}

/// One display line: spans laid out left to right.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Line {
    /// The spans, in order.
    pub spans: Vec<Span>,
}

impl Line {
    /// An empty line.
    pub fn new() -> Line {
        Line { spans: Vec::new() }
    }

    /// A line made of the given spans (see [`align_graphemes`]).
    pub fn from_spans(spans: Vec<Span>) -> Line {
        match align_graphemes(&spans) {
            std::borrow::Cow::Borrowed(_) => Line { spans },
            std::borrow::Cow::Owned(spans) => Line { spans },
        }
    }

    /// Append a span (empty spans are dropped). Characters at its start that continue the
    /// last grapheme of the line (a VS16, a ZWJ, a skin tone) join the previous span.
    pub fn push(&mut self, mut span: Span) {
        if let Some(last) = self.spans.last_mut() {
            let k = continuation_len(&last.text, &span.text);
            if k > 0 {
                last.text.push_str(&span.text[..k]);
                span.text.drain(..k);
            }
        }
        if !span.text.is_empty() {
            self.spans.push(span);
        }
    }

    /// Display width in terminal cells (sum of the spans' widths; equal to the width of the
    /// joined text when the line was built by [`Line::push`] or [`Line::from_spans`]).
    pub fn width(&self) -> usize {
        self.spans.iter().map(Span::width).sum()
    }

    /// The text without styles.
    pub fn plain(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }

    /// True when some span has role `role`.
    pub fn has_role(&self, role: Role) -> bool {
        self.spans.iter().any(|s| s.style.role == role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip_and_rejects() {
        assert_eq!(Rgb::from_hex("#1a2B3c"), Some(Rgb(0x1a, 0x2b, 0x3c)));
        assert_eq!(Rgb(0x1a, 0x2b, 0x3c).to_hex(), "#1a2b3c");
        assert_eq!(Rgb::from_hex("1a2b3c"), None);
        assert_eq!(Rgb::from_hex("#1a2b3"), None);
        assert_eq!(Rgb::from_hex("#1a2b3g"), None);
        assert_eq!(Rgb::from_hex("#é12345"), None);
    }

    #[test]
    fn span_new_sanitises_escape_sequences() {
        let s = Span::role("a\x1b[31mb\u{1A}\n", Role::Text);
        assert_eq!(s.text, "a␛[31mb\u{FFFD} ");
    }

    #[test]
    fn line_width_counts_cells() {
        let mut l = Line::new();
        l.push(Span::role("ab", Role::Text));
        l.push(Span::role("", Role::Text));
        l.push(Span::role("中文", Role::Strong));
        assert_eq!(l.spans.len(), 2);
        assert_eq!(l.width(), 6);
        assert_eq!(l.plain(), "ab中文");
    }
}
