//! Inflection folding at query time: the singular and plural forms of an English query word
//! (`uploads` ↔ `upload`, `statuses` ↔ `status`, `policies` ↔ `policy`, `boxes` ↔ `box`).
//! Each form found in a root's vocabulary joins the word's group, whose score in a document
//! is the best over its forms (as for prefix expansions), so a document holding the exact
//! word scores as before and one holding only the other form is no longer missed.
//!
//! Only lower-case ASCII words of at least 3 letters are folded; identifiers and their parts
//! are left as typed. The number rules are suffix rules; beside them, `same_stem` finds the
//! vocabulary terms with the word's Snowball English stem (`forward` ↔ `forwarding`,
//! `indent` ↔ `indentation`), which join the group the same way.

use rust_stemmers::{Algorithm, Stemmer};

use super::bm25::Vocab;

/// Most vocabulary terms `same_stem` stems for one word (the run of terms starting with
/// the stem, in byte order): bounds the cost of a short stem in a large vocabulary.
pub const MAX_STEM_SCAN: usize = 4096;

/// Longest a term sharing a word's stem may be: this many bytes past the stem (longer ones,
/// such as compounds starting with the stem, are not stemmed at all).
pub const MAX_STEM_SUFFIX: usize = 8;

/// The other number's forms of `term` (lower-case), without `term` itself; empty when
/// `term` is not folded (see the module doc).
pub fn variants(term: &str) -> Vec<String> {
    if !foldable(term) {
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

/// Whether `term` is a word [`variants`] and [`same_stem`] fold: lower-case ASCII letters
/// only, at least 3 of them.
fn foldable(term: &str) -> bool {
    term.len() >= 3 && term.bytes().all(|c| c.is_ascii_lowercase())
}

/// The ids of the terms of `vocab`, other than `term` itself, whose Snowball English stem
/// (Porter2, the `rust-stemmers` crate) is `term`'s, in byte order; empty when `term` is not
/// folded (see the module doc) or its stem has fewer than 3 letters. Only the terms starting
/// with the stem (less a final `i` or `e`, which Porter2 writes for `y` and drops from
/// `-e` words) are candidates, at most [`MAX_STEM_SCAN`] of them, each at most
/// [`MAX_STEM_SUFFIX`] bytes longer than the stem.
pub(crate) fn same_stem(vocab: &Vocab, term: &str) -> Vec<u32> {
    if !foldable(term) {
        return Vec::new();
    }
    thread_local! {
        static ENGLISH: Stemmer = Stemmer::create(Algorithm::English);
    }
    ENGLISH.with(|stemmer| {
        let stem = stemmer.stem(term);
        if stem.len() < 3 {
            return Vec::new();
        }
        let lead = stem.trim_end_matches(['i', 'e']);
        let lead = if lead.len() < 3 { &stem[..3] } else { lead };
        vocab
            .prefix_range(lead)
            .take(MAX_STEM_SCAN)
            .filter(|&t| {
                let v = vocab.term(t);
                v != term
                    && v.len() <= stem.len() + MAX_STEM_SUFFIX
                    && foldable(v)
                    && stemmer.stem(v) == stem
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems_of(vocab: &[&str], term: &str) -> Vec<String> {
        let v = Vocab::from_sorted(vocab.iter().copied());
        same_stem(&v, term)
            .into_iter()
            .map(|t| v.term(t).to_owned())
            .collect()
    }

    #[test]
    fn forward_finds_forwarding_and_forwarded() {
        let vocab = [
            "forward",
            "forwarded",
            "forwarding",
            "forwards",
            "fork",
            "foreword",
        ];
        assert_eq!(
            stems_of(&vocab, "forward"),
            ["forwarded", "forwarding", "forwards"]
        );
        assert_eq!(
            stems_of(&vocab, "forwarding"),
            ["forward", "forwarded", "forwards"]
        );
    }

    #[test]
    fn y_and_e_stems_find_their_words() {
        let vocab = [
            "generate",
            "generated",
            "generating",
            "generation",
            "general",
        ];
        assert_eq!(
            stems_of(&vocab, "generates"),
            ["generate", "generated", "generating", "generation"]
        );
        let vocab = ["policies", "policy", "polish"];
        assert_eq!(stems_of(&vocab, "policy"), ["policies"]);
    }

    #[test]
    fn identifiers_short_stems_and_long_terms_are_not_stemmed() {
        let vocab = [
            "app.get",
            "config",
            "configs",
            "configuration",
            "configurationsnapshot",
        ];
        assert!(stems_of(&vocab, "app.get").is_empty());
        assert!(stems_of(&vocab, "base64").is_empty());
        assert!(stems_of(&vocab, "io").is_empty());
        assert_eq!(stems_of(&vocab, "config"), ["configs"]);
        assert_eq!(stems_of(&vocab, "configure"), ["configuration"]);
    }

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
