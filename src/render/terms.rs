//! Search-term hit marking for the preview (docs/DESIGN.md §6 `n/N`): finds query terms in display
//! text as case-insensitive whole tokens or identifier parts and re-styles them as
//! [`Role::Match`].
//!
//! A *token* is a maximal run of alphanumeric characters; its *identifier parts* are split at
//! camelCase humps (`corsMiddleware` → `cors`, `Middleware`; `HTTPServer` → `HTTP`, `Server`)
//! and letter/digit changes (`utf8` → `utf`, `8`). A term matches a token or one of its parts
//! when they are equal ignoring case. A term with punctuation (`x-api-key`) is split into its
//! tokens, each matched on its own.

use std::ops::Range;

use crate::render::text::{Role, Span, Style};

/// True when `hay` (ASCII) contains `needle` ignoring ASCII case.
fn contains_ignore_ascii_case(hay: &str, needle: &str) -> bool {
    let n = needle.len();
    n <= hay.len()
        && hay
            .as_bytes()
            .windows(n)
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Lowercased query tokens, ready to match.
#[derive(Clone, Debug, Default)]
pub struct Terms {
    words: Vec<String>,
}

impl Terms {
    /// Split every term into alphanumeric tokens, lowercased and deduplicated.
    pub fn new(terms: &[String]) -> Terms {
        let mut words: Vec<String> = Vec::new();
        for term in terms {
            for w in term
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
            {
                let w = w.to_lowercase();
                if !words.contains(&w) {
                    words.push(w);
                }
            }
        }
        Terms { words }
    }

    /// True when there is nothing to match.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    fn matches(&self, token: &str) -> bool {
        if token.is_ascii() {
            self.words
                .iter()
                .any(|w| w.len() == token.len() && w.eq_ignore_ascii_case(token))
        } else {
            let lower = token.to_lowercase();
            self.words.contains(&lower)
        }
    }

    /// Byte ranges of `text` that match, in order, non-overlapping.
    pub fn ranges(&self, text: &str) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        if self.is_empty() {
            return out;
        }
        let mut run_start: Option<usize> = None;
        for (i, c) in text
            .char_indices()
            .chain(std::iter::once((text.len(), ' ')))
        {
            match (c.is_alphanumeric(), run_start) {
                (true, None) => run_start = Some(i),
                (false, Some(s)) => {
                    self.match_run(text, s..i, &mut out);
                    run_start = None;
                }
                _ => {}
            }
        }
        out
    }

    fn match_run(&self, text: &str, run: Range<usize>, out: &mut Vec<Range<usize>>) {
        if self.matches(&text[run.clone()]) {
            out.push(run);
            return;
        }
        // Fast reject: an identifier part equal to a term contains it as a substring.
        let run_text = &text[run.clone()];
        let possible = if run_text.is_ascii() {
            self.words
                .iter()
                .any(|w| contains_ignore_ascii_case(run_text, w))
        } else {
            let lower = run_text.to_lowercase();
            self.words.iter().any(|w| lower.contains(w.as_str()))
        };
        if !possible {
            return;
        }
        let chars: Vec<(usize, char)> = run_text.char_indices().collect();
        let mut part_start = 0usize;
        for k in 1..chars.len() {
            let (prev, cur) = (chars[k - 1].1, chars[k].1);
            let next_lower = chars.get(k + 1).is_some_and(|(_, c)| c.is_lowercase());
            let boundary = (prev.is_lowercase() && cur.is_uppercase())
                || (prev.is_uppercase() && cur.is_uppercase() && next_lower)
                || (prev.is_alphabetic() && cur.is_numeric())
                || (prev.is_numeric() && cur.is_alphabetic());
            if boundary {
                let r = run.start + part_start..run.start + chars[k].0;
                if self.matches(&text[r.clone()]) {
                    out.push(r);
                }
                part_start = chars[k].0;
            }
        }
        if part_start > 0 {
            let r = run.start + part_start..run.end;
            if self.matches(&text[r.clone()]) {
                out.push(r);
            }
        }
    }

    /// Re-style the matching parts of `spans` as [`Role::Match`] (other attributes kept).
    /// Returns whether anything matched.
    pub fn mark(&self, spans: &mut Vec<Span>) -> bool {
        if self.is_empty() {
            return false;
        }
        let mut any = false;
        let mut out: Vec<Span> = Vec::with_capacity(spans.len());
        for span in spans.drain(..) {
            if span.style.role == Role::Match {
                out.push(span);
                continue;
            }
            let ranges = self.ranges(&span.text);
            if ranges.is_empty() {
                out.push(span);
                continue;
            }
            any = true;
            let hit = Style {
                role: Role::Match,
                ..span.style
            };
            let mut at = 0;
            for r in ranges {
                if r.start > at {
                    out.push(Span {
                        text: span.text[at..r.start].to_string(),
                        style: span.style,
                    });
                }
                out.push(Span {
                    text: span.text[r.clone()].to_string(),
                    style: hit,
                });
                at = r.end;
            }
            if at < span.text.len() {
                out.push(Span {
                    text: span.text[at..].to_string(),
                    style: span.style,
                });
            }
        }
        *spans = out;
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(terms: &[&str], text: &str) -> Vec<String> {
        let t = Terms::new(&terms.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        t.ranges(text)
            .into_iter()
            .map(|r| text[r].to_string())
            .collect()
    }

    #[test]
    fn whole_tokens_case_insensitive() {
        assert_eq!(
            hits(&["cors"], "CORS Middleware, cors."),
            vec!["CORS", "cors"]
        );
        assert_eq!(hits(&["cors"], "scorsese"), Vec::<String>::new());
    }

    #[test]
    fn identifier_parts() {
        assert_eq!(
            hits(&["cors"], "corsMiddleware cors_options HTTPCors"),
            vec!["cors", "cors", "Cors"]
        );
        assert_eq!(hits(&["server"], "HTTPServer"), vec!["Server"]);
        assert_eq!(hits(&["utf"], "utf8"), vec!["utf"]);
        assert_eq!(
            hits(&["corsmiddleware"], "CorsMiddleware"),
            vec!["CorsMiddleware"]
        );
    }

    #[test]
    fn punctuated_terms_split_and_unicode_lowercase() {
        assert_eq!(hits(&["x-api-key"], "X-Api-Key"), vec!["X", "Api", "Key"]);
        assert_eq!(hits(&["ÉCOLE"], "une école"), vec!["école"]);
    }

    #[test]
    fn mark_splits_spans() {
        let t = Terms::new(&["cors".to_string()]);
        let mut spans = vec![Span::new(
            "CORS Middleware",
            Style::new(Role::Heading(2)).bold(),
        )];
        assert!(t.mark(&mut spans));
        assert_eq!(spans.len(), 2);
        assert_eq!(spans[0].text, "CORS");
        assert_eq!(spans[0].style.role, Role::Match);
        assert!(spans[0].style.bold);
        assert_eq!(spans[1].text, " Middleware");
        assert_eq!(spans[1].style.role, Role::Heading(2));
    }
}
