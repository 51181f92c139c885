//! The agent clients that have a profile (docs/AGENTS.md "Client profiles"), with their
//! `--agent` names and product names.

/// An agent client with a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Client {
    /// Anthropic's Claude Code.
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// GitHub Copilot CLI (and VS Code's agent mode, which reads the same folders).
    Copilot,
    /// Google's Gemini CLI.
    Gemini,
    /// OpenCode.
    OpenCode,
    /// Cursor.
    Cursor,
}

impl Client {
    /// Every client, in the order columns and reports show them.
    pub const ALL: [Client; 6] = [
        Client::ClaudeCode,
        Client::Codex,
        Client::Copilot,
        Client::Gemini,
        Client::OpenCode,
        Client::Cursor,
    ];

    /// The `--agent` name: `claude-code`, `codex`, `copilot`, `gemini`, `opencode`, `cursor`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
            Self::Copilot => "copilot",
            Self::Gemini => "gemini",
            Self::OpenCode => "opencode",
            Self::Cursor => "cursor",
        }
    }

    /// The product name (`Claude Code`, `Copilot CLI`).
    pub fn display(self) -> &'static str {
        match self {
            Self::ClaudeCode => "Claude Code",
            Self::Codex => "Codex",
            Self::Copilot => "Copilot CLI",
            Self::Gemini => "Gemini CLI",
            Self::OpenCode => "OpenCode",
            Self::Cursor => "Cursor",
        }
    }

    /// Parse an `--agent` name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }
}
