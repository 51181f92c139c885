//! Display-width utilities in terminal cells: measuring, truncating with `…` and
//! word-wrapping styled spans. Text is always cut on grapheme-cluster boundaries
//! (unicode-segmentation), and widths come from unicode-width per grapheme, so CJK and emoji
//! count 2 cells and a combining sequence stays whole.
//!
//! The width of a string is defined as the *sum of its graphemes' widths*; every function here
//! uses that one definition, so a result never measures wider than the limit it was cut to.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::render::text::{Line, Span, Style};

/// The ellipsis appended when text is cut (1 cell).
pub const ELLIPSIS: &str = "…";

/// Width in cells of one grapheme cluster (0 for a lone combining mark, 2 for CJK/emoji).
pub fn grapheme_width(g: &str) -> usize {
    UnicodeWidthStr::width(g)
}

/// True for characters whose width depends on their neighbours inside a grapheme cluster
/// (ZWJ and variation selectors, emoji modifiers, regional indicators, tag characters,
/// conjoining Hangul jamo, Lisu tone letters, the combining long solidus).
fn context_sensitive(c: char) -> bool {
    matches!(c,
        '\u{200D}' | '\u{FE0E}' | '\u{FE0F}' | '\u{0338}'
        | '\u{1100}'..='\u{11FF}' | '\u{A960}'..='\u{A97F}' | '\u{D7B0}'..='\u{D7FF}'
        | '\u{A4F8}'..='\u{A4FD}' | '\u{1F1E6}'..='\u{1F1FF}' | '\u{1F3FB}'..='\u{1F3FF}'
        | '\u{E0020}'..='\u{E007F}')
}

/// True when every byte of `s` is printable ASCII (each one grapheme of one cell).
pub(crate) fn is_printable_ascii(s: &str) -> bool {
    s.bytes().all(|b| (0x20..0x7f).contains(&b))
}

/// Width of `s` in terminal cells: the sum of its graphemes' widths. (Fast paths: printable
/// ASCII is one cell per byte; text without context-sensitive characters sums per-char
/// widths, which equals the per-grapheme sum.)
pub fn str_width(s: &str) -> usize {
    if is_printable_ascii(s) {
        return s.len();
    }
    let mut w = 0;
    let mut buf = [0u8; 4];
    for c in s.chars() {
        if context_sensitive(c) {
            return s.graphemes(true).map(grapheme_width).sum();
        }
        w += match UnicodeWidthChar::width(c) {
            Some(cw) if !c.is_control() => cw,
            _ => UnicodeWidthStr::width(&*c.encode_utf8(&mut buf)),
        };
    }
    w
}

/// Cut `s` to at most `max_cells` cells. When it is cut, the result ends with `…` (which uses
/// one of the cells); a 2-cell grapheme that does not fit before the `…` is dropped, never
/// split. `max_cells == 0` gives `""`. Returns `s` unchanged when it fits.
pub fn truncate(s: &str, max_cells: usize) -> String {
    if str_width(s) <= max_cells {
        return s.to_string();
    }
    if max_cells == 0 {
        return String::new();
    }
    let budget = max_cells - 1;
    let mut out = String::new();
    let mut used = 0;
    for g in s.graphemes(true) {
        let w = grapheme_width(g);
        if used + w > budget {
            break;
        }
        out.push_str(g);
        used += w;
    }
    out.push_str(ELLIPSIS);
    out
}

/// Cut a styled line to at most `max_cells` cells, like [`truncate`]: the `…` takes the style
/// of the span in which the cut happened. Returns a clone when the line fits.
pub fn truncate_line(line: &Line, max_cells: usize) -> Line {
    if line.width() <= max_cells {
        return line.clone();
    }
    let mut out = Line::new();
    if max_cells == 0 {
        return out;
    }
    let budget = max_cells - 1;
    let mut used = 0;
    for span in &line.spans {
        let mut kept = String::new();
        let mut cut = false;
        for g in span.text.graphemes(true) {
            let w = grapheme_width(g);
            if used + w > budget {
                cut = true;
                break;
            }
            kept.push_str(g);
            used += w;
        }
        if cut {
            kept.push_str(ELLIPSIS);
            out.push(Span { text: kept, style: span.style });
            return out;
        }
        out.push(Span { text: kept, style: span.style });
    }
    // Unreachable in practice (the line was wider than max_cells), but stay total.
    out
}

/// Append `text` in `style` to `line`, merging with the last span when the style is equal.
fn push_merged(line: &mut Line, text: &str, style: Style) {
    if text.is_empty() {
        return;
    }
    match line.spans.last_mut() {
        Some(last) if last.style == style => last.text.push_str(text),
        _ => line.spans.push(Span { text: text.to_string(), style }),
    }
}

fn push_piece(line: &mut Line, spans: &[Span], p: &Piece) {
    let span = &spans[p.span];
    push_merged(line, &span.text[p.start..p.end], span.style);
}

/// A byte range `start..end` of span number `span`, inside a wrap token.
struct Piece {
    span: usize,
    start: usize,
    end: usize,
}

/// A wrap unit: a word (no break inside unless it is longer than a line), a run of spaces,
/// or one wide (CJK/emoji) grapheme, after which a break is always allowed. Its pieces are
/// `pieces[first..end]` of the shared piece list.
struct Token {
    first: usize,
    end: usize,
    width: usize,
    space: bool,
}

#[derive(PartialEq, Clone, Copy)]
enum Kind {
    Space,
    Word,
    Wide,
}

/// Grapheme clusters of `s` with their byte offsets (bytewise for printable ASCII).
fn graphemes_of(s: &str) -> Box<dyn Iterator<Item = (usize, &str)> + '_> {
    if is_printable_ascii(s) {
        Box::new((0..s.len()).map(move |i| (i, &s[i..i + 1])))
    } else {
        Box::new(s.grapheme_indices(true))
    }
}

fn tokenize(spans: &[Span]) -> (Vec<Token>, Vec<Piece>) {
    let mut tokens: Vec<Token> = Vec::new();
    let mut pieces: Vec<Piece> = Vec::new();
    let mut last_kind: Option<Kind> = None;
    for (si, span) in spans.iter().enumerate() {
        for (start, g) in graphemes_of(&span.text) {
            let w = if g.len() == 1 { 1 } else { grapheme_width(g) };
            let kind = if g == " " {
                Kind::Space
            } else if w >= 2 {
                Kind::Wide
            } else {
                Kind::Word
            };
            let extend = last_kind == Some(kind) && kind != Kind::Wide;
            if !extend {
                tokens.push(Token {
                    first: pieces.len(),
                    end: pieces.len(),
                    width: 0,
                    space: kind == Kind::Space,
                });
            }
            last_kind = Some(kind);
            let Some(tok) = tokens.last_mut() else { continue };
            tok.width += w;
            match pieces.last_mut() {
                // Extend the previous piece when it is contiguous text of the same span.
                Some(p) if tok.end > tok.first && p.span == si && p.end == start => p.end = start + g.len(),
                _ => {
                    pieces.push(Piece { span: si, start, end: start + g.len() });
                    tok.end = pieces.len();
                }
            }
        }
    }
    (tokens, pieces)
}

/// Word-wrap styled `spans` into lines of at most `width` cells.
///
/// Breaks at spaces and around wide (CJK/emoji) graphemes; a word longer than `width` is
/// broken between graphemes; spaces at a break are dropped, leading spaces of the first line
/// are kept (indentation), trailing spaces are dropped. A wide grapheme that cannot fit even
/// on an empty line (`width == 1`) is shown as `…`. Adjacent pieces with equal styles are
/// merged into one span.
///
/// Returns no lines when `width == 0`; otherwise at least one (possibly empty) line.
pub fn wrap(spans: &[Span], width: usize) -> Vec<Line> {
    if width == 0 {
        return Vec::new();
    }
    let mut lines: Vec<Line> = Vec::new();
    let mut cur = Line::new();
    let mut cur_w = 0usize;
    let mut pending: Option<Token> = None;
    let (tokens, pieces) = tokenize(spans);
    for tok in tokens {
        if tok.space {
            if cur_w == 0 && !lines.is_empty() {
                continue;
            }
            pending = Some(tok);
            continue;
        }
        let pw = pending.as_ref().map_or(0, |p| p.width);
        if cur_w + pw + tok.width <= width {
            for p in
                pending.take().iter().flat_map(|t| &pieces[t.first..t.end]).chain(&pieces[tok.first..tok.end])
            {
                push_piece(&mut cur, spans, p);
            }
            cur_w += pw + tok.width;
            continue;
        }
        if tok.width <= width && cur_w > 0 {
            lines.push(std::mem::take(&mut cur));
            pending = None;
            for p in &pieces[tok.first..tok.end] {
                push_piece(&mut cur, spans, p);
            }
            cur_w = tok.width;
            continue;
        }
        // The word does not fit on a line of its own (or we are at a line start with
        // indentation that leaves no room): break it between graphemes.
        if cur_w > 0 {
            if cur_w + pw < width {
                for p in pending.iter().flat_map(|t| &pieces[t.first..t.end]) {
                    push_piece(&mut cur, spans, p);
                }
                cur_w += pw;
            } else {
                lines.push(std::mem::take(&mut cur));
                cur_w = 0;
            }
        }
        pending = None;
        for p in &pieces[tok.first..tok.end] {
            let style = spans[p.span].style;
            for g in spans[p.span].text[p.start..p.end].graphemes(true) {
                let gw = grapheme_width(g);
                if cur_w + gw > width && cur_w > 0 {
                    lines.push(std::mem::take(&mut cur));
                    cur_w = 0;
                }
                if gw > width {
                    push_merged(&mut cur, ELLIPSIS, style);
                    cur_w += 1;
                } else {
                    push_merged(&mut cur, g, style);
                    cur_w += gw;
                }
            }
        }
    }
    if !cur.spans.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::text::Role;

    fn plain(lines: &[Line]) -> Vec<String> {
        lines.iter().map(Line::plain).collect()
    }

    #[test]
    fn width_of_cjk_emoji_and_combining() {
        assert_eq!(str_width("abc"), 3);
        assert_eq!(str_width("中文"), 4);
        assert_eq!(str_width("e\u{301}"), 1);
        assert_eq!(str_width("👍"), 2);
    }

    proptest::proptest! {
        #[test]
        fn fast_width_equals_grapheme_sum(s in "\\PC{0,30}|[a\u{1100}\u{1161}\u{200D}\u{FE0F}\u{1F1E6}\u{1F3FB}👍e\u{301}]{0,12}") {
            let slow: usize = s.graphemes(true).map(grapheme_width).sum();
            proptest::prop_assert_eq!(str_width(&s), slow);
        }
    }

    #[test]
    fn truncate_cases() {
        assert_eq!(truncate("hello", 5), "hello");
        assert_eq!(truncate("hello", 4), "hel…");
        assert_eq!(truncate("hello", 1), "…");
        assert_eq!(truncate("hello", 0), "");
        // A 2-cell char that does not fit is dropped; the … takes the free cell.
        assert_eq!(truncate("a中文", 4), "a中…");
        assert_eq!(truncate("中文字", 4), "中…");
        assert_eq!(truncate("中文字", 3), "中…");
        assert_eq!(truncate("中文字", 2), "…");
        // Combining sequences are not split.
        assert_eq!(truncate("e\u{301}e\u{301}e\u{301}", 2), "e\u{301}…");
    }

    #[test]
    fn wrap_breaks_at_spaces_and_keeps_styles() {
        let spans = vec![
            Span::role("hello ", Role::Text),
            Span::role("big", Role::Strong),
            Span::role(" world", Role::Text),
        ];
        let lines = wrap(&spans, 9);
        assert_eq!(plain(&lines), vec!["hello big", "world"]);
        assert_eq!(lines[0].spans[1].style.role, Role::Strong);
    }

    #[test]
    fn wrap_breaks_long_words_and_cjk() {
        let lines = wrap(&[Span::role("abcdefgh xy", Role::Text)], 3);
        assert_eq!(plain(&lines), vec!["abc", "def", "gh", "xy"]);
        let lines = wrap(&[Span::role("中文字符", Role::Text)], 5);
        assert_eq!(plain(&lines), vec!["中文", "字符"]);
        let lines = wrap(&[Span::role("中文", Role::Text)], 1);
        assert_eq!(plain(&lines), vec!["…", "…"]);
    }

    #[test]
    fn wrap_width_zero_gives_no_lines() {
        assert!(wrap(&[Span::role("abc", Role::Text)], 0).is_empty());
        assert_eq!(plain(&wrap(&[], 4)), vec![""]);
    }
}
