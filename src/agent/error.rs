//! The error of an agent request: one line an agent can act on.

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
