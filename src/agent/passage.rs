//! Passages: how a text larger than one result is served in pieces that reassemble into its
//! exact bytes (docs/MCP.md "Result size caps"). This module owns the cut rule every
//! transport shares: where a passage may end (a paragraph, else a code-block fence, else a
//! line, else a word boundary; inside a word only when one word is longer than a whole
//! passage, and then at a character boundary), how its size is measured (characters as
//! is, or as escaped inside a JSON string), and fitting a passage under a token budget too.
//!
//! Offsets are bytes of the UTF-8 text and always fall on character boundaries, so the
//! passages `text[0..a]`, `text[a..b]`, … concatenate to `text` exactly (CRLF included: a
//! cut follows a `\n`, never a lone `\r`).

use crate::tokens::TokenCounter;

/// What a passage's size is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Characters (Unicode scalar values) of the text as is.
    Chars,
    /// Characters the text takes inside a JSON string, as a tool result or a `resources/read`
    /// result holds it:
    /// `"`, `\` and the escaped controls (`\n`, `\r`, `\t`, `\b`, `\f`) count 2, other
    /// control characters 6 (`\u001f`), everything else 1.
    JsonChars,
}

impl Measure {
    /// Size of one character, in this measure's units (1, 2 or 6).
    pub fn of_char(self, c: char) -> usize {
        match self {
            Measure::Chars => 1,
            Measure::JsonChars => match c {
                '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
                c if u32::from(c) < 0x20 => 6,
                _ => 1,
            },
        }
    }

    /// Size of `s`, in this measure's units.
    pub fn of(self, s: &str) -> usize {
        match self {
            Measure::Chars => s.chars().count(),
            Measure::JsonChars => s.chars().map(|c| self.of_char(c)).sum(),
        }
    }
}

/// Where a passage ends, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Boundary {
    /// The end of the text: the last passage.
    End,
    /// Before a paragraph: a non-blank line after a blank one, outside a code block.
    Paragraph,
    /// Before a code block's opening fence or after its closing fence (```` ``` ```` or `~~~`).
    Fence,
    /// After a line's `\n` (inside a code block too).
    Line,
    /// Before a word that follows whitespace, on a line longer than a passage.
    Word,
    /// At a character boundary inside a word longer than a whole passage.
    Char,
}

/// One cut: the passage is `text[start..end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Byte offset just after the passage's last byte (a character boundary, `> start`
    /// unless the text is exhausted).
    pub end: usize,
    /// The kind of boundary it ends on.
    pub boundary: Boundary,
}

/// The largest character boundary of `text` at or below byte `i` (`text.len()` when `i` is
/// past the end).
pub fn floor_boundary(text: &str, i: usize) -> usize {
    if i >= text.len() {
        return text.len();
    }
    (0..=i)
        .rev()
        .find(|b| text.is_char_boundary(*b))
        .unwrap_or(0)
}

/// The passage of `text` starting at byte `start` (a character boundary; others are moved
/// down to one) that holds at most `max` units of `measure`, ending at the best boundary:
/// the best kind of [`Boundary`] found in the window's second half, else the best kind
/// anywhere in the window, else a character boundary. A passage holds at least one
/// character, even when that one character measures more than `max`, so a reader always
/// advances. `start` at or past the end gives an empty passage ending there.
pub fn cut(text: &str, start: usize, max: usize, measure: Measure) -> Cut {
    let start = floor_boundary(text, start);
    let window = window_end(text, start, max, measure);
    if window == text.len() {
        return Cut {
            end: window,
            boundary: Boundary::End,
        };
    }
    if window == start {
        let one = text[start..].chars().next().map_or(0, char::len_utf8);
        return Cut {
            end: start + one,
            boundary: Boundary::Char,
        };
    }
    let found = boundaries(text, start, window);
    let half = start + (window - start) / 2;
    let best = found
        .iter()
        .flatten()
        .find(|c| c.end > half)
        .or_else(|| found.iter().flatten().next());
    best.copied().unwrap_or(Cut {
        end: window,
        boundary: Boundary::Char,
    })
}

/// The passage from `start` that holds at most `max` units of `measure` and at most
/// `max_tokens` tokens of `counter`, with its token count: [`cut`] under a window shrunk
/// until the tokens fit. When even the first word is over `max_tokens`, that word is the
/// passage (its tokens may then exceed `max_tokens`), so a reader always advances and never
/// gets half a word because of the token budget.
pub fn fit(
    text: &str,
    start: usize,
    max: usize,
    measure: Measure,
    max_tokens: u64,
    counter: TokenCounter,
) -> (Cut, u64) {
    let start = floor_boundary(text, start);
    let mut units = max;
    for _ in 0..12 {
        let c = cut(text, start, units, measure);
        let tokens = counter.count(&text[start..c.end]);
        if tokens <= max_tokens {
            return word_over_shrunk_cut(text, start, max, measure, (c, tokens), counter);
        }
        let measured = measure.of(&text[start..c.end]);
        let scaled = u128::from(max_tokens) * measured as u128 * 9 / 10 / u128::from(tokens);
        units = usize::try_from(scaled)
            .unwrap_or(usize::MAX)
            .min(measured - 1);
        if units == 0 {
            break;
        }
    }
    let c = first_word(text, start, max, measure);
    (c, counter.count(&text[start..c.end]))
}

/// `fitted` unless the token budget shrank the window into a word that the full window of
/// `max` units holds: then that first word instead (over the budget, never half of it).
fn word_over_shrunk_cut(
    text: &str,
    start: usize,
    max: usize,
    measure: Measure,
    fitted: (Cut, u64),
    counter: TokenCounter,
) -> (Cut, u64) {
    if fitted.0.boundary != Boundary::Char {
        return fitted;
    }
    let word = first_word(text, start, max, measure);
    if word.boundary == Boundary::Char {
        return fitted;
    }
    (word, counter.count(&text[start..word.end]))
}

/// The shortest passage from `start` ending on a boundary better than [`Boundary::Char`]
/// within `max` units (its first word, or its first line when that is shorter), else
/// [`cut`]'s passage under `max`.
fn first_word(text: &str, start: usize, max: usize, measure: Measure) -> Cut {
    let window = window_end(text, start, max, measure);
    let (mut seen_word, mut prev_space) = (false, false);
    for (i, ch) in text[start..window].char_indices() {
        let at = start + i;
        if seen_word && prev_space && !ch.is_whitespace() {
            return Cut {
                end: at,
                boundary: Boundary::Word,
            };
        }
        if ch == '\n' {
            let end = at + 1;
            let boundary = if end == text.len() {
                Boundary::End
            } else {
                Boundary::Line
            };
            return Cut { end, boundary };
        }
        prev_space = ch.is_whitespace();
        seen_word |= !prev_space;
    }
    cut(text, start, max, measure)
}

/// The byte offset where `max` units of `measure` from `start` run out (a character
/// boundary, `text.len()` when the rest fits).
fn window_end(text: &str, start: usize, max: usize, measure: Measure) -> usize {
    let mut used = 0usize;
    for (i, ch) in text[start..].char_indices() {
        used += measure.of_char(ch);
        if used > max {
            return start + i;
        }
    }
    text.len()
}

/// The last boundary of each kind (paragraph, fence, line, word, in that order) in
/// `(start, window]`. Lines are scanned from the text's start so a code block opened
/// before `start` is known.
fn boundaries(text: &str, start: usize, window: usize) -> [Option<Cut>; 4] {
    let mut found: [Option<Cut>; 4] = [None; 4];
    let mut note = |slot: usize, end: usize, boundary: Boundary| {
        if end > start && end <= window {
            found[slot] = Some(Cut { end, boundary });
        }
    };
    let mut fence: Option<(char, usize)> = None;
    let mut prev_blank = false;
    let mut at = 0usize;
    for line in text[..window].split_inclusive('\n') {
        let (ls, le) = (at, at + line.len());
        at = le;
        let complete = line.ends_with('\n');
        let blank = line.trim().is_empty();
        match (fence, fence_of(line)) {
            (None, Some(open)) => {
                note(1, ls, Boundary::Fence);
                fence = Some(open);
            }
            (Some((ch, n)), Some((c2, n2))) if c2 == ch && n2 >= n && is_bare_fence(line) => {
                if complete {
                    note(1, le, Boundary::Fence);
                }
                fence = None;
            }
            (None, None) if prev_blank && !blank => note(0, ls, Boundary::Paragraph),
            _ => {}
        }
        if complete {
            note(2, le, Boundary::Line);
        }
        prev_blank = blank;
    }
    if found[2].is_none() {
        found[3] = last_word(text, start, window);
    }
    found
}

/// The last offset in `(start, window]` where whitespace is followed by a non-whitespace
/// character.
fn last_word(text: &str, start: usize, window: usize) -> Option<Cut> {
    let mut next_is_word = text[window..]
        .chars()
        .next()
        .is_some_and(|c| !c.is_whitespace());
    for (i, ch) in text[start..window].char_indices().rev() {
        let at = start + i;
        if ch.is_whitespace() {
            if next_is_word {
                let end = at + ch.len_utf8();
                return Some(Cut {
                    end,
                    boundary: Boundary::Word,
                });
            }
        } else {
            next_is_word = true;
            continue;
        }
        next_is_word = false;
    }
    None
}

/// The fence a line opens or may close: up to 3 spaces, then 3 or more backticks or
/// tildes (the character and the run's length).
fn fence_of(line: &str) -> Option<(char, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = rest.chars().take_while(|c| *c == ch).count();
    (run >= 3).then_some((ch, run))
}

/// Whether a fence line holds nothing after its run (a closing fence may not carry an info
/// string).
fn is_bare_fence(line: &str) -> bool {
    let t = line.trim();
    t.chars().all(|c| c == '`') || t.chars().all(|c| c == '~')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Encoding;

    /// Every passage of `text` under `max` units, cut after cut.
    fn passages(text: &str, max: usize, measure: Measure) -> Vec<(String, Boundary)> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let c = cut(text, at, max, measure);
            assert!(c.end > at, "no progress at {at}");
            out.push((text[at..c.end].to_string(), c.boundary));
            at = c.end;
        }
        out
    }

    fn joined(p: &[(String, Boundary)]) -> String {
        p.iter().map(|(t, _)| t.as_str()).collect()
    }

    #[test]
    fn a_paragraph_boundary_beats_a_later_line_boundary() {
        let text = "alpha beta\ngamma\n\ndelta\nepsilon zeta eta theta iota kappa\n";
        let c = cut(text, 0, 30, Measure::Chars);
        assert_eq!(
            (&text[..c.end], c.boundary),
            ("alpha beta\ngamma\n\n", Boundary::Paragraph)
        );
    }

    #[test]
    fn a_code_block_is_cut_at_its_fence_not_at_a_blank_line_inside_it() {
        let text =
            "intro line\n```rust\nfn a() {}\n\nfn b() {}\n```\nafter the block and more words\n";
        let c = cut(text, 0, 50, Measure::Chars);
        assert_eq!(
            (&text[..c.end], c.boundary),
            (
                "intro line\n```rust\nfn a() {}\n\nfn b() {}\n```\n",
                Boundary::Fence
            )
        );
    }

    #[test]
    fn a_closing_fence_beats_a_later_line_boundary() {
        let text = "prose words here\n```\nx = 1\n```\nab\nmore words beyond the window\n";
        let c = cut(text, 0, 40, Measure::Chars);
        assert_eq!(
            (&text[..c.end], c.boundary),
            ("prose words here\n```\nx = 1\n```\n", Boundary::Fence)
        );
    }

    #[test]
    fn a_paragraph_beats_a_later_fence() {
        let text = "one two three four five\n\nsix\n```\ncode\n```\nseven eight nine ten\n";
        let c = cut(text, 0, 45, Measure::Chars);
        assert_eq!(
            (&text[..c.end], c.boundary),
            ("one two three four five\n\n", Boundary::Paragraph)
        );
    }

    #[test]
    fn a_fence_opened_before_the_start_is_still_known() {
        let text = "```\nline one\n\nline two\nline three\n";
        let c = cut(text, 4, 25, Measure::Chars);
        assert_eq!(
            (&text[4..c.end], c.boundary),
            ("line one\n\nline two\n", Boundary::Line)
        );
    }

    #[test]
    fn without_paragraphs_a_line_boundary_is_used() {
        let text = "one two three\nfour five six\nseven eight nine\n";
        let c = cut(text, 0, 30, Measure::Chars);
        assert_eq!(
            (&text[..c.end], c.boundary),
            ("one two three\nfour five six\n", Boundary::Line)
        );
    }

    #[test]
    fn a_huge_single_line_is_cut_between_words_and_reassembles() {
        let line = (0..5_000)
            .map(|i| format!("word{i} "))
            .collect::<Vec<_>>()
            .concat();
        let got = passages(&line, 1_000, Measure::Chars);
        assert_eq!(joined(&got), line);
        assert_eq!((line.len(), got.len()), (43_890, 44));
        for (i, (p, b)) in got.iter().enumerate() {
            // Filled to within one word (at most 10 characters) of the window.
            let n = p.chars().count();
            assert!(
                n <= 1_000 && (n > 990 || i + 1 == got.len()),
                "passage {i}: {n}"
            );
            if i + 1 < got.len() {
                assert_eq!(*b, Boundary::Word);
                assert!(
                    p.ends_with(' '),
                    "passage {i} ends mid-word: {:?}",
                    &p[p.len() - 10..]
                );
            }
        }
    }

    #[test]
    fn a_word_longer_than_a_passage_is_cut_at_character_boundaries() {
        let text = "é".repeat(2_500) + " tail";
        let got = passages(&text, 1_000, Measure::Chars);
        assert_eq!(joined(&got), text);
        let sizes: Vec<usize> = got.iter().map(|(p, _)| p.chars().count()).collect();
        assert_eq!(sizes, vec![1_000, 1_000, 505]);
        assert_eq!(got[0].1, Boundary::Char);
    }

    #[test]
    fn crlf_text_reassembles_and_never_splits_a_line_ending() {
        let text: String = (0..300)
            .map(|i| {
                if i % 7 == 0 {
                    "\r\n".to_string()
                } else {
                    format!("line {i} with some words\r\n")
                }
            })
            .collect();
        let got = passages(&text, 500, Measure::JsonChars);
        assert_eq!(joined(&got), text);
        for (p, _) in &got[..got.len() - 1] {
            assert!(p.ends_with("\r\n"), "{:?}", &p[p.len() - 6..]);
            assert!(Measure::JsonChars.of(p) <= 500);
        }
    }

    #[test]
    fn json_escapes_count_against_the_window() {
        let s = "a\"b\\c\nd\u{1}é";
        let json = serde_json::to_string(s).unwrap_or_default();
        assert_eq!(
            (Measure::JsonChars.of(s), json.chars().count() - 2),
            (17, 17)
        );
        let text = "\"\"\"\"\"\"\"\"\"\" tail";
        let c = cut(text, 0, 10, Measure::JsonChars);
        assert_eq!(c.end, 5);
    }

    #[test]
    fn multibyte_text_never_splits_a_character() {
        let text: String = "日本語のテキスト 한국어 텍스트 ".repeat(400);
        for max in [7, 64, 333] {
            let got = passages(&text, max, Measure::Chars);
            assert_eq!(joined(&got), text, "max {max}");
        }
        let c = cut(&text, 1, 10, Measure::Chars);
        assert!(text.is_char_boundary(c.end));
        assert_eq!(&text[..c.end], "日本語のテキスト ");
    }

    #[test]
    fn mixed_markdown_reassembles_byte_for_byte_at_every_size() {
        let text = "# Title\r\n\r\nSome prose here.\r\n\r\n```sh\r\necho hi\r\n\r\necho there\r\n```\r\n\
                    - item one\n- item two\n\nA closing paragraph with ünïcödé and \"quotes\".\n";
        for max in 1..=120 {
            let got = passages(text, max, Measure::JsonChars);
            assert_eq!(joined(&got), text, "max {max}");
            // Only a word longer than the window is cut inside: every other passage ends
            // after whitespace.
            for (p, b) in &got {
                let ends_on_space = p.chars().last().is_some_and(char::is_whitespace);
                assert!(
                    ends_on_space || *b == Boundary::Char || *b == Boundary::End,
                    "max {max}: {p:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn a_passage_always_holds_a_character_even_over_the_window() {
        let c = cut("\u{1}abc", 0, 3, Measure::JsonChars);
        assert_eq!(
            c,
            Cut {
                end: 1,
                boundary: Boundary::Char
            }
        );
        assert_eq!(
            cut("abc", 3, 10, Measure::Chars),
            Cut {
                end: 3,
                boundary: Boundary::End
            }
        );
    }

    #[test]
    fn fit_shrinks_the_window_until_the_tokens_fit() {
        let counter = TokenCounter::new(Encoding::Bytes4);
        let text = "word ".repeat(1_000);
        let (c, tokens) = fit(&text, 0, 10_000, Measure::Chars, 100, counter);
        assert!(tokens <= 100, "{tokens}");
        assert!(c.end > 300, "{}", c.end);
        assert_eq!(c.boundary, Boundary::Word);
        assert_eq!(tokens, counter.count(&text[..c.end]));
    }

    #[test]
    fn fit_keeps_a_whole_word_when_the_budget_is_smaller_than_it() {
        let counter = TokenCounter::new(Encoding::Bytes4);
        let text = "extraordinarily long words follow";
        let (c, tokens) = fit(text, 0, 1_000, Measure::Chars, 1, counter);
        assert_eq!((&text[..c.end], tokens), ("extraordinarily ", 4));
    }
}
