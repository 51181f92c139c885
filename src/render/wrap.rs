//! Wrapping and cutting styled and plain text to a width in terminal cells: [`wrap`]
//! (styled spans, breaks at spaces, drops the spaces at a break), [`truncate_line`] (a styled
//! line cut with `…`), [`chop`] (styled text cut into rows keeping every character),
//! [`slice_line`] (a window of a wide line, for horizontal scroll) and [`wrap_text`] (plain text cut into lines without dropping a
//! character, for showing an exact text). Widths and grapheme cuts come from
//! [`crate::render::width`].

use unicode_segmentation::UnicodeSegmentation;

use crate::render::text::{Line, Role, Span, Style};
use crate::render::width::{ELLIPSIS, grapheme_width, is_printable_ascii, str_width};

/// Cut a styled line to at most `max_cells` cells, like [`crate::render::width::truncate`]:
/// the `…` takes the style of the span in which the cut happened. Returns a clone when the line fits.
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
            out.push(Span {
                text: kept,
                style: span.style,
            });
            return out;
        }
        out.push(Span {
            text: kept,
            style: span.style,
        });
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
        _ => line.spans.push(Span {
            text: text.to_string(),
            style,
        }),
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
        Box::new((0..s.len()).map(move |i| (i, &s[i..=i])))
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
            let Some(tok) = tokens.last_mut() else {
                continue;
            };
            tok.width += w;
            match pieces.last_mut() {
                // Extend the previous piece when it is contiguous text of the same span.
                Some(p) if tok.end > tok.first && p.span == si && p.end == start => {
                    p.end = start + g.len();
                }
                _ => {
                    pieces.push(Piece {
                        span: si,
                        start,
                        end: start + g.len(),
                    });
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
    // Span boundaries on grapheme boundaries, so per-span widths add up to the line's.
    let spans = &*crate::render::text::align_graphemes(spans);
    let mut w = Wrapper {
        spans,
        width,
        lines: Vec::new(),
        cur: Line::new(),
        cur_w: 0,
    };
    let mut pending: Option<Token> = None;
    let (tokens, pieces) = tokenize(spans);
    for tok in tokens {
        if tok.space {
            if w.cur_w == 0 && !w.lines.is_empty() {
                continue;
            }
            pending = Some(tok);
            continue;
        }
        let pw = pending.as_ref().map_or(0, |p| p.width);
        let space = pending
            .take()
            .map_or(&pieces[..0], |t| &pieces[t.first..t.end]);
        let word = &pieces[tok.first..tok.end];
        if w.cur_w + pw + tok.width <= width {
            w.push(space);
            w.push(word);
            w.cur_w += pw + tok.width;
            continue;
        }
        if tok.width <= width && w.cur_w > 0 {
            w.new_line();
            w.push(word);
            w.cur_w = tok.width;
            continue;
        }
        // The word does not fit on a line of its own (or we are at a line start with
        // indentation that leaves no room): break it between graphemes.
        if w.cur_w > 0 {
            if w.cur_w + pw < width {
                w.push(space);
                w.cur_w += pw;
            } else {
                w.new_line();
            }
        }
        w.break_word(&word_graphemes(spans, word));
    }
    if !w.cur.spans.is_empty() || w.lines.is_empty() {
        w.lines.push(w.cur);
    }
    w.lines
}

/// The graphemes of a word's `pieces`: text, width, style, and whether a URL may break
/// after it. A URL (a link, its shown address, or a word holding `://`) breaks after the
/// last `/`, `?`, `&`, `#`, `=` or `-` that fits: at its path parts, not mid-name.
fn word_graphemes<'s>(spans: &'s [Span], pieces: &[Piece]) -> Vec<(&'s str, usize, Style, bool)> {
    let bare_url = pieces
        .iter()
        .map(|p| &spans[p.span].text[p.start..p.end])
        .collect::<String>()
        .contains("://");
    pieces
        .iter()
        .flat_map(|p| {
            let span = &spans[p.span];
            let url = bare_url || matches!(span.style.role, Role::Link | Role::LinkUrl);
            span.text[p.start..p.end].graphemes(true).map(move |g| {
                let brk = url && matches!(g, "/" | "?" | "&" | "#" | "=" | "-");
                (g, grapheme_width(g), span.style, brk)
            })
        })
        .collect()
}

/// The state of [`wrap`]: the lines so far and the line being filled.
struct Wrapper<'s> {
    spans: &'s [Span],
    width: usize,
    lines: Vec<Line>,
    cur: Line,
    /// Width of `cur` in cells.
    cur_w: usize,
}

impl Wrapper<'_> {
    /// Append `pieces` to the current line (its width is the caller's to add).
    fn push(&mut self, pieces: &[Piece]) {
        for p in pieces {
            push_piece(&mut self.cur, self.spans, p);
        }
    }

    /// End the current line and start an empty one.
    fn new_line(&mut self) {
        self.lines.push(std::mem::take(&mut self.cur));
        self.cur_w = 0;
    }

    /// A word too long for the room left, broken between its graphemes `gs` (after a URL's
    /// last break character that fits, when it has one); a grapheme wider than a whole
    /// line is shown as `…`.
    fn break_word(&mut self, gs: &[(&str, usize, Style, bool)]) {
        let width = self.width;
        let mut i = 0;
        while i < gs.len() {
            let room = width - self.cur_w.min(width);
            let (mut j, mut w) = (i, 0);
            while j < gs.len() && w + gs[j].1 <= room {
                w += gs[j].1;
                j += 1;
            }
            if j == i {
                if self.cur_w > 0 {
                    self.new_line();
                } else {
                    // Wider than a whole line (a wide grapheme at width 1).
                    push_merged(&mut self.cur, ELLIPSIS, gs[i].2);
                    self.cur_w += 1;
                    i += 1;
                }
                continue;
            }
            let cut = if j == gs.len() {
                j
            } else {
                (i..j).rev().find(|&k| gs[k].3).map_or(j, |k| k + 1)
            };
            for &(g, gw, style, _) in &gs[i..cut] {
                push_merged(&mut self.cur, g, style);
                self.cur_w += gw;
            }
            i = cut;
            if i < gs.len() {
                self.new_line();
            }
        }
    }
}

/// Cut `text` into lines of at most `width` cells (tabs shown as four spaces): after the
/// last space that fits when there is one in the second half of the line, else on a
/// grapheme boundary. No character is dropped, so the popup shows the exact text; only a
/// window of the lines is drawn.
pub fn wrap_text(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for raw in text.split('\n') {
        let line = raw.trim_end_matches('\r').replace('\t', "    ");
        if str_width(&line) <= width {
            out.push(line);
            continue;
        }
        // `cur` holds graphemes with their widths; `brk` is the index after the last space.
        let mut cur: Vec<(&str, usize)> = Vec::new();
        let (mut w, mut brk) = (0usize, None::<usize>);
        for g in line.graphemes(true) {
            let gw = grapheme_width(g);
            if w + gw > width && !cur.is_empty() {
                let cut = match brk {
                    Some(b) if b * 2 >= cur.len() && b < cur.len() => b,
                    _ => cur.len(),
                };
                let rest = cur.split_off(cut);
                out.push(cur.iter().map(|(g, _)| *g).collect());
                cur = rest;
                w = cur.iter().map(|(_, w)| *w).sum();
                brk = None;
            }
            cur.push((g, gw));
            w += gw;
            if g == " " {
                brk = Some(cur.len());
            }
        }
        out.push(cur.iter().map(|(g, _)| *g).collect());
    }
    if text.ends_with('\n') {
        out.pop();
    }
    out
}

/// Cut styled `spans` into rows of at most `width` cells on grapheme boundaries, keeping
/// every character (code lines in wrap mode). A wide grapheme that does not fit the rest of
/// a row starts the next one; one wider than `width` gets a row of its own. Returns at least
/// one (possibly empty) row; none when `width == 0`.
pub fn chop(spans: &[Span], width: usize) -> Vec<Line> {
    if width == 0 {
        return Vec::new();
    }
    let mut rows = Vec::new();
    let mut cur = Line::new();
    let mut used = 0;
    for span in spans {
        for g in span.text.graphemes(true) {
            let w = grapheme_width(g);
            if used + w > width && used > 0 {
                rows.push(std::mem::take(&mut cur));
                used = 0;
            }
            push_merged(&mut cur, g, span.style);
            used += w;
        }
    }
    rows.push(cur);
    rows
}

/// The cells `skip..skip + width` of `line` (horizontal scroll): the first `skip` cells
/// dropped (a wide grapheme cut by the edge becomes a space), then cut to `width` with `…`
/// when longer.
pub fn slice_line(line: &Line, skip: usize, width: usize) -> Line {
    let mut out = Line::new();
    let mut at = 0;
    for span in &line.spans {
        for g in span.text.graphemes(true) {
            let w = grapheme_width(g);
            if at >= skip {
                push_merged(&mut out, g, span.style);
            } else if at + w > skip {
                push_merged(&mut out, &" ".repeat(at + w - skip), span.style);
            }
            at += w;
        }
    }
    truncate_line(&out, width)
}

/// The largest byte index `≤ max` that is a char boundary of `s` (`s.len()` when `s` is
/// shorter): where a text cut at `max` bytes may end without splitting a character.
pub fn floor_char_boundary(s: &str, max: usize) -> usize {
    if s.len() <= max {
        return s.len();
    }
    (0..=max)
        .rev()
        .find(|i| s.is_char_boundary(*i))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_char_boundary_never_splits_a_character() {
        assert_eq!(floor_char_boundary("abc", 10), 3);
        assert_eq!(floor_char_boundary("aé", 2), 1);
        assert_eq!(floor_char_boundary("aé", 3), 3);
        assert_eq!(floor_char_boundary("é", 0), 0);
    }
    use crate::render::text::Role;

    fn plain(lines: &[Line]) -> Vec<String> {
        lines.iter().map(Line::plain).collect()
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
    fn long_urls_break_at_their_path_parts() {
        let spans = vec![
            Span::role("see ", Role::Text),
            Span::role("(https://git.k8s.io/sig-release/releases)", Role::LinkUrl),
        ];
        let lines = wrap(&spans, 24);
        assert_eq!(
            plain(&lines),
            ["see (https://git.k8s.io/", "sig-release/releases)"]
        );
        // A URL that fits a line of its own moves there whole.
        let lines = wrap(&spans, 42);
        assert_eq!(
            plain(&lines),
            ["see", "(https://git.k8s.io/sig-release/releases)"]
        );
        // A bare address in text too; plain words keep breaking only at spaces.
        let lines = wrap(
            &[Span::role(
                "at https://storage.example.com/k8s-triage/index.html",
                Role::Text,
            )],
            31,
        );
        assert_eq!(
            plain(&lines),
            ["at https://storage.example.com/", "k8s-triage/index.html"]
        );
        let lines = wrap(&[Span::role("see a/b-c d", Role::Text)], 7);
        assert_eq!(plain(&lines), ["see", "a/b-c d"]);
    }

    #[test]
    fn chop_keeps_every_character() {
        let rows = chop(&[Span::role("abcdefg", Role::CodeBlock)], 3);
        assert_eq!(plain(&rows), ["abc", "def", "g"]);
        assert_eq!(
            plain(&chop(&[Span::role("a中文", Role::Text)], 2)),
            ["a", "中", "文"]
        );
        assert_eq!(plain(&chop(&[], 4)), [""]);
        assert!(chop(&[Span::role("x", Role::Text)], 0).is_empty());
    }

    #[test]
    fn slice_line_scrolls_by_cells() {
        let line = Line::from_spans(vec![
            Span::role("ab", Role::Text),
            Span::role("中cdefgh", Role::CodeBlock),
        ]);
        assert_eq!(slice_line(&line, 0, 5).plain(), "ab中…");
        assert_eq!(slice_line(&line, 3, 4).plain(), " cd…");
        assert_eq!(slice_line(&line, 4, 9).plain(), "cdefgh");
        assert_eq!(slice_line(&line, 40, 9).plain(), "");
    }

    #[test]
    fn wrap_width_zero_gives_no_lines() {
        assert!(wrap(&[Span::role("abc", Role::Text)], 0).is_empty());
        assert_eq!(plain(&wrap(&[], 4)), vec![""]);
    }

    #[test]
    fn wrap_text_breaks_after_spaces_and_keeps_every_character() {
        let text = "alpha beta gamma delta\nx\n";
        let lines = wrap_text(text, 12);
        assert_eq!(lines, ["alpha beta ", "gamma delta", "x"]);
        assert_eq!(lines.concat(), "alpha beta gamma deltax");
        // No space in the second half: cut on a grapheme boundary.
        assert_eq!(wrap_text("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        // Wide graphemes never split.
        assert_eq!(wrap_text("技能文档", 5), ["技能", "文档"]);
        assert_eq!(wrap_text("a\tb", 80), ["a    b"]);
    }
}
