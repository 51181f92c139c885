//! Result size caps: every answer stays under common client limits (25,000 tokens and
//! fewer than 50,000 characters by default, both configurable), and a request's own
//! `max_tokens` is checked against them.

use super::error::{AgentResult, err};

/// Default cap on one result, in tokens.
pub const DEFAULT_MAX_TOKENS: u64 = 25_000;
/// Default cap on one result, in characters (Unicode scalar values).
pub const DEFAULT_MAX_CHARS: usize = 49_999;
/// Most search hits one request may ask for (`top_k`).
pub const MAX_TOP_K: usize = 100;
/// Most words a query may hold (longer queries are refused, not cut).
pub const MAX_QUERY_WORDS: usize = 256;
/// Most bytes a query may hold.
pub const MAX_QUERY_BYTES: usize = 4_096;

/// The caps of one server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most tokens in one result.
    pub max_tokens: u64,
    /// Most characters in one result.
    pub max_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_tokens: DEFAULT_MAX_TOKENS,
            max_chars: DEFAULT_MAX_CHARS,
        }
    }
}

/// A request's budget: the tokens asked for, and the note that says when it was lowered to
/// the server's cap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Tokens to use (≥ 1, ≤ the cap).
    pub tokens: u64,
    /// Set when the request asked for more than the cap.
    pub note: Option<String>,
}

impl Limits {
    /// The budget for a request's `max_tokens` (`None`: `default`): 0 is an error naming the
    /// argument; more than the cap is lowered to the cap, with a note saying so.
    pub fn budget(&self, asked: Option<u64>, default: u64) -> AgentResult<Budget> {
        let tokens = asked.unwrap_or(default.min(self.max_tokens));
        if tokens == 0 {
            return err("max_tokens must be at least 1");
        }
        if tokens > self.max_tokens {
            let note = format!(
                "max_tokens {tokens} is over this server's limit; used {} (start the server with --max-result-tokens to change it)",
                self.max_tokens
            );
            return Ok(Budget {
                tokens: self.max_tokens,
                note: Some(note),
            });
        }
        Ok(Budget { tokens, note: None })
    }
}

/// Check a query: at most [`MAX_QUERY_WORDS`] words and [`MAX_QUERY_BYTES`] bytes, and not
/// blank ([`check_query_has_words`]). Errors name the argument and the limit.
pub fn check_query(query: &str) -> AgentResult<()> {
    check_query_has_words(query)?;
    let words = query.split_whitespace().count();
    if words > MAX_QUERY_WORDS || query.len() > MAX_QUERY_BYTES {
        return err(format!(
            "query is too long ({words} words, {} bytes; at most {MAX_QUERY_WORDS} words and {MAX_QUERY_BYTES} bytes): search for a few key words",
            query.len()
        ));
    }
    Ok(())
}

/// Check that a query holds a word: an empty or whitespace-only query is refused, never
/// run as "no query". The one rule for every transport: the MCP `search` and `brief` tools
/// (through [`check_query`]), `skillnav brief` (through [`super::brief::prepare`]) and
/// `skillnav search`, so all refuse `''` with the same message (docs/MCP.md, README.md "CLI").
pub fn check_query_has_words(query: &str) -> AgentResult<()> {
    if query.split_whitespace().next().is_none() {
        return err("query is empty: pass a few words to search for");
    }
    Ok(())
}

/// Check `top_k`: 1 to [`MAX_TOP_K`].
pub fn check_top_k(top_k: usize) -> AgentResult<()> {
    if top_k == 0 || top_k > MAX_TOP_K {
        return err(format!(
            "top_k must be between 1 and {MAX_TOP_K} (got {top_k})"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_refuse_zero_and_lower_huge_values_with_a_note() {
        let l = Limits::default();
        assert!(l.budget(Some(0), 8000).is_err());
        assert_eq!(
            l.budget(None, 8000),
            Ok(Budget {
                tokens: 8000,
                note: None
            })
        );
        let b = l.budget(Some(u64::MAX), 8000).unwrap_or(Budget {
            tokens: 0,
            note: None,
        });
        assert_eq!(b.tokens, DEFAULT_MAX_TOKENS);
        assert!(b.note.is_some());
    }

    #[test]
    fn long_queries_are_refused() {
        assert!(check_query(&"word ".repeat(10_000)).is_err());
        assert!(check_query("  ").is_err());
        assert_eq!(check_query("routing middleware"), Ok(()));
    }
}
