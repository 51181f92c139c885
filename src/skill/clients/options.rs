//! The settings a client listing is computed with: config.toml's `[agent.*]` and
//! `--context-tokens N` (docs/AGENTS.md "Client profiles").

use super::budgets::Budget;
use super::client::Client;
use crate::config::AgentSettings;

/// The settings a client listing is computed with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientOptions {
    /// `[agent.*]` of config.toml.
    pub settings: AgentSettings,
    /// `--context-tokens N`: the model's context window, scaling every budget that is a
    /// share of it (Claude Code, Codex); Copilot CLI's is fixed.
    pub context_tokens: Option<u64>,
}

impl ClientOptions {
    /// The options of config.toml (`SLASH_COMMAND_TOOL_CHAR_BUDGET` included) with
    /// `context_tokens`.
    pub fn load(context_tokens: Option<u64>) -> Self {
        Self {
            settings: crate::config::load().0.agent,
            context_tokens,
        }
    }

    /// Claude Code's profile with the context window of `--context-tokens` (a pinned
    /// `budget_chars` still wins).
    pub fn claude_code(&self) -> crate::skill::budget::BudgetProfile {
        let mut p = self.settings.claude_code_profile();
        if let Some(t) = self.context_tokens {
            p.context_tokens = t;
        }
        p
    }

    /// The budget of `client`, `None` where the client documents none.
    pub fn budget(&self, client: Client) -> Option<Budget> {
        match client {
            Client::ClaudeCode => Some(Budget::Chars(self.claude_code().budget())),
            Client::Codex => {
                let mut p = self.settings.codex.clone();
                if let Some(t) = self.context_tokens {
                    p.context_tokens = t;
                }
                Some(p.budget())
            }
            Client::Copilot => Some(Budget::Chars(self.settings.copilot.budget_chars.max(1))),
            Client::Gemini | Client::OpenCode | Client::Cursor => None,
        }
    }
}
