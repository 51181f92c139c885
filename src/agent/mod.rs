//! What an agent pulls from skillnav, as plain functions over a loaded [`Workspace`]: search
//! hits as pointers with sizes ([`search`]), an outline with exposure levels and layer costs
//! ([`outline`]), whole sections read under a size cap with a continuation cursor
//! ([`read`]), the one brief pipeline with `skillnav brief`'s arguments ([`brief`]), a
//! rendered skill with its files ([`load_skill`]), SEP-2640 skill manifests with SHA-256
//! digests ([`skills`]) and section resources ([`sections`]).
//!
//! Every rule lives here, not in a transport: the MCP server (`crate::mcp`, feature `mcp`)
//! only parses arguments and wraps these results, and the CLI shares the JSON builders
//! ([`json`]) and the brief request ([`brief::prepare`]). No async, no terminal.
//!
//! Exposure levels are a contract for everything here: `hidden` nodes are never returned
//! (not as hits, outline entries, texts, skills or resources), `explicit` ones only when
//! asked for by id (never as search hits or listed skills), `always` ones are what
//! [`instructions`] puts in front of every conversation.

pub mod brief;
pub mod instructions;
pub mod json;
pub mod limits;
pub mod load_skill;
pub mod outline;
pub mod read;
pub mod search;
pub mod sections;
pub mod skills;
pub mod workspace;

pub use limits::Limits;
pub use workspace::Workspace;

use crate::model::{Corpus, NodeId};

/// Find a node by exact id, else by exact title (first in document order, copies skipped),
/// else by case-insensitive title.
pub fn resolve(corpus: &Corpus, key: &str) -> Option<NodeId> {
    if let Some(id) = corpus.find(key) {
        return Some(id);
    }
    let all = corpus.all_preorder();
    all.iter().copied().find(|n| corpus.node(*n).title == key && !corpus.is_copy(*n)).or_else(|| {
        all.iter().copied().find(|n| corpus.node(*n).title.eq_ignore_ascii_case(key) && !corpus.is_copy(*n))
    })
}

/// A failed request: what was wrong, in one line an agent can act on (which argument, what
/// to pass instead). Never a panic; the MCP server turns it into a tool error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentError(pub String);

impl std::fmt::Display for AgentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AgentError {}

/// Shorthand for an [`AgentError`] result.
pub type AgentResult<T> = std::result::Result<T, AgentError>;

/// An [`AgentError`] from any message.
pub fn err<T>(msg: impl Into<String>) -> AgentResult<T> {
    Err(AgentError(msg.into()))
}
