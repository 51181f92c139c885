//! The question file of `skillnav eval`: JSON with optional default `paths` and a list of
//! questions, each with a query, a kind and one or more gold sections (any of them counts as
//! the answer). Gold sections are named by node id or by `(path, heading)`.
//!
//! ```json
//! {
//!   "paths": ["docs"],
//!   "questions": [
//!     {"id": "cookie-set", "kind": "paraphrase", "query": "how do I set a cookie",
//!      "gold": [{"path": "references/helpers.md", "heading": "Cookie Helper"}]},
//!     {"id": "jwt", "kind": "identifier", "query": "jwt()", "gold": ["hono/references/helpers.md#jwt"],
//!      "paths": ["other-docs"]}
//!   ]
//! }
//! ```
//!
//! `paths` (of the file or of one question, which then replaces the file's) are relative to
//! the base directory the caller gives (the question file's folder by default).

use serde::{Deserialize, Serialize};

use crate::model::{Corpus, NodeId};

/// What kind of question: how much its words overlap the answer's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Words taken from the answer's text.
    Verbatim,
    /// The answer's meaning in other words.
    Paraphrase,
    /// An API name, option, flag or other identifier the answer holds.
    Identifier,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 3] = [Kind::Verbatim, Kind::Paraphrase, Kind::Identifier];

    /// `verbatim`, `paraphrase`, `identifier`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Verbatim => "verbatim",
            Kind::Paraphrase => "paraphrase",
            Kind::Identifier => "identifier",
        }
    }
}

/// One gold section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Gold {
    /// A node id (`root/path#section/sub`).
    Id(String),
    /// A node whose path (relative to its root) is `path`, or ends with `/path`, and whose
    /// title equals `heading` (ASCII case-insensitive, surrounding spaces ignored).
    Section {
        /// File path relative to the root.
        path: String,
        /// The section's heading text.
        heading: String,
    },
}

impl Gold {
    /// Every node of `corpus` this gold names (empty when none).
    pub fn resolve(&self, corpus: &Corpus) -> Vec<NodeId> {
        let all = corpus.all_preorder();
        match self {
            Gold::Id(id) => all.into_iter().filter(|n| corpus.id(*n) == *id).collect(),
            Gold::Section { path, heading } => {
                let suffix = format!("/{path}");
                let heading = heading.trim();
                all.into_iter()
                    .filter(|n| {
                        let node = corpus.node(*n);
                        (*node.path == **path || node.path.ends_with(&suffix))
                            && node.title.trim().eq_ignore_ascii_case(heading)
                    })
                    .collect()
            }
        }
    }
}

impl std::fmt::Display for Gold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Gold::Id(id) => f.write_str(id),
            Gold::Section { path, heading } => write!(f, "{path} § {heading}"),
        }
    }
}

/// One question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// A short stable name (reported with misses).
    pub id: String,
    /// Its kind.
    pub kind: Kind,
    /// The query as a user would type it.
    pub query: String,
    /// The sections that answer it (any one counts).
    pub gold: Vec<Gold>,
    /// Roots to search for this question, replacing the file's `paths`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<String>>,
}

/// A whole question file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QuestionSet {
    /// Default roots of every question.
    #[serde(default)]
    pub paths: Vec<String>,
    /// The questions, in file order.
    pub questions: Vec<Question>,
}

impl QuestionSet {
    /// Parse a question file's text. Errors: malformed JSON or a missing field, as serde
    /// describes it (with line and column); then the file's own rules (docs/FORMATS.md §16):
    /// an empty `questions` list, and a question whose `query` holds no word (the rule of
    /// [`crate::agent::limits::check_query_has_words`], as `skillnav search` refuses it) or
    /// whose `gold` list is empty, named by the question's id.
    pub fn parse(text: &str) -> Result<Self, serde_json::Error> {
        let set: Self = serde_json::from_str(text)?;
        set.check()
            .map_err(<serde_json::Error as serde::de::Error>::custom)?;
        Ok(set)
    }

    fn check(&self) -> Result<(), String> {
        if self.questions.is_empty() {
            return Err("`questions` is empty: the file needs at least one question".into());
        }
        for q in &self.questions {
            if let Err(e) = crate::agent::limits::check_query_has_words(&q.query) {
                return Err(format!("question {:?}: {e}", q.id));
            }
            if q.gold.is_empty() {
                return Err(format!(
                    "question {:?}: `gold` is empty: name at least one section that answers it",
                    q.id
                ));
            }
        }
        Ok(())
    }

    /// The roots of question `q`: its own `paths`, else the file's.
    pub fn paths_of<'a>(&'a self, q: &'a Question) -> &'a [String] {
        q.paths.as_deref().unwrap_or(&self.paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_by_id_or_path_and_heading() {
        let s = QuestionSet::parse(
            r#"{"paths": ["d"], "questions": [{"id": "a", "kind": "verbatim", "query": "q",
                "gold": ["r/x.md#y", {"path": "x.md", "heading": "Y"}]}]}"#,
        )
        .unwrap();
        assert_eq!(
            s.questions[0].gold,
            [
                Gold::Id("r/x.md#y".into()),
                Gold::Section {
                    path: "x.md".into(),
                    heading: "Y".into()
                }
            ]
        );
        assert_eq!(s.paths_of(&s.questions[0]), ["d".to_string()]);
    }
}
