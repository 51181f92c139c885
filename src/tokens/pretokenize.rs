//! The pre-tokenizer of a BPE encoding: tiktoken's split of a text into pieces, each of which
//! is BPE-counted on its own. It needs only a regex, which compiles in about 10 ms, so pieces
//! can be split while the BPE tables are still loading (`staged`, docs/DESIGN.md §4).
//!
//! The patterns are `bpe-openai`'s rewrite of tiktoken's (a negative look-ahead becomes a
//! second pattern whose last character is dropped from the match); [`Pre::split_in`] does what
//! that crate's iterator does, with a search cache per worker instead of the regex's shared
//! pool.

use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};

use super::Encoding;

/// tiktoken's `o200k_base` pattern as `bpe-openai` rewrites it, and the two look-ahead parts.
fn o200k_patterns() -> [String; 3] {
    let pat1 = [
        "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        "\\p{N}{1,3}",
        " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
        "\\s*[\\r\\n]+",
        "\\s+$",
    ]
    .join("|");
    [pat1, "\\s+\\s".to_string(), "\\s+".to_string()]
}

/// tiktoken's `cl100k_base` pattern as `bpe-openai` rewrites it.
fn cl100k_patterns() -> [String; 3] {
    [
        "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+$".to_string(),
        "\\s+\\s".to_string(),
        "\\s+".to_string(),
    ]
}

/// Which of the three patterns ends in one look-ahead character (dropped from the match).
const LOOKAHEAD: [bool; 3] = [false, true, false];

/// The compiled pre-tokenizer of one BPE encoding.
pub struct Pre {
    regex: Regex,
}

impl Pre {
    /// The pre-tokenizer of `encoding`; `None` for `bytes4` (no pieces) or if the pattern
    /// does not compile (never expected: the callers then count with `bpe-openai`).
    pub fn new(encoding: Encoding) -> Option<Self> {
        let patterns = match encoding {
            Encoding::O200kBase => o200k_patterns(),
            Encoding::Cl100kBase => cl100k_patterns(),
            Encoding::Bytes4 => return None,
        };
        Regex::new_many(&patterns).ok().map(|regex| Self { regex })
    }

    /// A search cache for one worker ([`Pre::split_in`]).
    pub fn cache(&self) -> Cache {
        self.regex.create_cache()
    }

    /// Call `piece` with each piece of `text`, in order, searching with the regex's shared
    /// cache pool.
    pub fn split<'t>(&self, text: &'t str, mut piece: impl FnMut(&'t str)) {
        split(
            text,
            |input| self.regex.search(input),
            |p| {
                piece(p);
                true
            },
        );
    }

    /// [`Pre::split`] with a worker's own search `cache`.
    pub fn split_in<'t>(&self, cache: &mut Cache, text: &'t str, mut piece: impl FnMut(&'t str)) {
        self.split_in_while(cache, text, |p| {
            piece(p);
            true
        });
    }

    /// [`Pre::split_in`] that stops as soon as `piece` returns `false`; `false` when it
    /// stopped early.
    pub fn split_in_while<'t>(
        &self,
        cache: &mut Cache,
        text: &'t str,
        piece: impl FnMut(&'t str) -> bool,
    ) -> bool {
        split(text, |input| self.regex.search_with(cache, input), piece)
    }
}

/// `bpe-openai`'s split: the anchored match at the current position is the next piece; a
/// look-ahead pattern's last character is given back; no match ends the text. Stops when
/// `piece` returns `false`, and then returns `false`.
fn split<'t>(
    text: &'t str,
    mut find: impl FnMut(&Input<'_>) -> Option<regex_automata::Match>,
    mut piece: impl FnMut(&'t str) -> bool,
) -> bool {
    let mut last = 0;
    while last < text.len() {
        let rest = &text[last..];
        let input = Input::new(rest).anchored(Anchored::Yes);
        let Some(m) = find(&input) else { return true };
        let mut end = m.range().end;
        if LOOKAHEAD.get(m.pattern().as_usize()) == Some(&true)
            && let Some(c) = rest[..end].chars().next_back()
            && end - c.len_utf8() > 0
        {
            end -= c.len_utf8();
        }
        if end == 0 {
            return true;
        }
        if !piece(&rest[..end]) {
            return false;
        }
        last += end;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_bpe_openais_pieces_in_both_encodings() {
        let text = "Hello  world's 12345\r\n\n  x — naïve CAFÉ's 渐进式披露 \t\n\n   end  ";
        for (encoding, reference) in [
            (Encoding::O200kBase, bpe_openai::o200k_base()),
            (Encoding::Cl100kBase, bpe_openai::cl100k_base()),
        ] {
            let pre = Pre::new(encoding).unwrap();
            let expect: Vec<&str> = reference.split(text).collect();
            let mut pieces = Vec::new();
            pre.split(text, |p| pieces.push(p));
            assert_eq!(pieces, expect, "{encoding}");
            // A look-ahead piece gives one space back to the next piece.
            assert!(pieces.contains(&" x"), "{encoding}: {pieces:?}");
            let mut again = Vec::new();
            pre.split_in(&mut pre.cache(), text, |p| again.push(p));
            assert_eq!(again, expect, "{encoding}");
        }
        assert!(Pre::new(Encoding::Bytes4).is_none());
    }
}
