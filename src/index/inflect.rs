//! Inflection folding at query time: the singular and plural forms of an English query word
//! (`uploads` ↔ `upload`, `statuses` ↔ `status`, `policies` ↔ `policy`, `boxes` ↔ `box`).
//! Each form found in a root's vocabulary joins the word's group, whose score in a document
//! is the best over its forms (as for prefix expansions), so a document holding the exact
//! word scores as before and one holding only the other form is no longer missed.
//!
//! Only lower-case ASCII words of at least 3 letters are folded; identifiers and their parts
//! are left as typed. The rules are suffix rules, not a stemmer: no `-ing`/`-ed`.

/// The other number's forms of `term` (lower-case), without `term` itself; empty when
/// `term` is not folded (see the module doc).
pub fn variants(term: &str) -> Vec<String> {
    let b = term.as_bytes();
    if b.len() < 3 || !b.iter().all(u8::is_ascii_lowercase) {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    let mut push = |s: String| {
        if s.len() >= 2 && s != term && !out.contains(&s) {
            out.push(s);
        }
    };
    let sibilant = |s: &str| ["s", "x", "z", "ch", "sh"].iter().any(|e| s.ends_with(e));
    let consonant_y = |s: &str| {
        s.len() >= 2
            && s.ends_with('y')
            && !matches!(s.as_bytes()[s.len() - 2], b'a' | b'e' | b'i' | b'o' | b'u')
    };
    if let Some(stem) = term.strip_suffix("ies").filter(|s| s.len() >= 2) {
        push(format!("{stem}y"));
    } else if let Some(stem) = term.strip_suffix("es").filter(|s| sibilant(s)) {
        // `statuses` → `status`, `boxes` → `box`; `cases` → `case` too.
        push(stem.to_string());
        push(term[..term.len() - 1].to_string());
    } else if term.ends_with('s')
        && !term.ends_with("ss")
        && !term.ends_with("us")
        && !term.ends_with("is")
    {
        push(term[..term.len() - 1].to_string());
    } else if sibilant(term) {
        push(format!("{term}es"));
    } else if consonant_y(term) {
        push(format!("{}ies", &term[..term.len() - 1]));
        push(format!("{term}s"));
    } else {
        push(format!("{term}s"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_and_singular_forms() {
        assert_eq!(variants("uploads"), ["upload"]);
        assert_eq!(variants("upload"), ["uploads"]);
        assert_eq!(variants("statuses"), ["status", "statuse"]);
        assert_eq!(variants("status"), ["statuses"]);
        assert_eq!(variants("policies"), ["policy"]);
        assert_eq!(variants("policy"), ["policies", "policys"]);
        assert_eq!(variants("boxes"), ["box", "boxe"]);
        assert_eq!(variants("key"), ["keys"]);
        assert_eq!(variants("class"), ["classes"]);
    }

    #[test]
    fn identifiers_and_short_words_are_not_folded() {
        assert!(variants("getuserbyid2").is_empty());
        assert!(variants("app.get").is_empty());
        assert!(variants("io").is_empty());
    }
}
