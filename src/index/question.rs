//! Question-shaped queries (docs/DESIGN.md §3 "Whole questions"): a query of at least
//! [`QUESTION_WORDS`] words is a question someone asks or an agent forwards, and its words
//! about the asking ("where is it explained", "I need to find a way…", "what exactly
//! does it say") outnumber the words of the answer. Such a query drops its
//! [`FRAME_WORDS`] before scoring (`query::drop_frame_words`), as long as [`MIN_KEPT`]
//! words are left. The documents are indexed as always: this applies to the query only,
//! and shorter queries keep every word (`find` and `docs` stay searchable on their own).

/// Fewest whitespace-separated words that make a query question-shaped.
pub const QUESTION_WORDS: usize = 8;

/// Fewest query words left after dropping frame words; with fewer, none is dropped.
pub const MIN_KEPT: usize = 2;

/// Words of the asking, not of the answer, sorted for binary search: asking about the
/// docs themselves (`explained`, `section`, `documented`), wanting (`need`, `trying`,
/// `way`), vague nouns (`thing`, `something`), hedges (`actually`, `exactly`, `just`) and
/// question glue (`whether`, `any`). Words that can carry the answer's meaning (`after`,
/// `before`, `up` as in "clean up", `out`) are not frame words.
pub const FRAME_WORDS: [&str; 56] = [
    "able",
    "actually",
    "any",
    "anybody",
    "anyone",
    "anything",
    "describe",
    "described",
    "describes",
    "doc",
    "docs",
    "documentation",
    "documented",
    "else",
    "even",
    "exactly",
    "explain",
    "explained",
    "explains",
    "find",
    "get",
    "go",
    "goes",
    "happen",
    "happens",
    "instead",
    "just",
    "know",
    "let",
    "lets",
    "make",
    "need",
    "needs",
    "ours",
    "page",
    "possible",
    "really",
    "say",
    "says",
    "section",
    "some",
    "someone",
    "something",
    "still",
    "supposed",
    "sure",
    "tell",
    "thing",
    "things",
    "try",
    "trying",
    "want",
    "wants",
    "way",
    "whether",
    "wondering",
];

/// Whether `term` (lower case) is one of [`FRAME_WORDS`].
pub fn is_frame_word(term: &str) -> bool {
    FRAME_WORDS.binary_search(&term).is_ok()
}

/// Whether `query` is question-shaped: at least [`QUESTION_WORDS`] words.
pub fn is_question(query: &str) -> bool {
    query.split_whitespace().nth(QUESTION_WORDS - 1).is_some()
}

#[cfg(test)]
mod tests {
    use crate::index::query::{drop_frame_words, parse};

    fn terms(query: &str) -> Vec<String> {
        drop_frame_words(query, parse(query, false))
            .into_iter()
            .map(|w| w.term)
            .collect()
    }

    #[test]
    fn a_whole_question_drops_the_words_of_the_asking() {
        assert_eq!(
            terms("Where is it explained how I can find a way to limit the request body size?"),
            ["limit", "request", "body", "size"]
        );
    }

    #[test]
    fn a_short_query_keeps_every_word() {
        assert_eq!(terms("find docs section"), ["find", "docs", "section"]);
        assert_eq!(
            terms("explain the way to get out"),
            ["explain", "way", "get", "out"]
        );
        // `up` and `after` carry meaning even in a question.
        assert_eq!(
            terms("how do I automatically clean up finished jobs after some time"),
            [
                "automatically",
                "clean",
                "up",
                "finished",
                "jobs",
                "after",
                "time"
            ]
        );
    }

    #[test]
    fn a_question_of_frame_words_only_keeps_them_all() {
        assert_eq!(
            terms("is there any way I can actually find something in the docs"),
            ["any", "way", "actually", "find", "something", "docs"]
        );
    }

    #[test]
    fn a_question_keeps_the_word_being_typed() {
        let q = "where is it explained how we can limit the size of a section";
        let words = drop_frame_words(q, parse(q, true));
        let last = words.last().expect("a prefix word");
        assert_eq!((last.term.as_str(), last.prefix), ("section", true));
    }
}
