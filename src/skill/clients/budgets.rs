//! The listing budget of each client profile (`[agent.codex]`, `[agent.copilot]` in
//! config.toml; Claude Code's is [`crate::skill::budget::BudgetProfile`]) and its unit
//! (docs/AGENTS.md "Client profiles"). `super::options` scales them by `--context-tokens N`.

use serde::Deserialize;

/// A listing budget: chars, or tokens (Codex with a known context window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Chars of listing text.
    Chars(usize),
    /// Tokens, approximated as ⌈bytes / 4⌉ per line.
    Tokens(usize),
}

impl Budget {
    /// The number, in its own unit.
    pub fn limit(self) -> usize {
        match self {
            Self::Chars(n) | Self::Tokens(n) => n,
        }
    }

    /// The budget in chars (tokens × 4 for a token budget).
    pub fn chars(self) -> usize {
        match self {
            Self::Chars(n) => n,
            Self::Tokens(n) => n.saturating_mul(4),
        }
    }
}

/// `[agent.codex]`: Codex's metadata budget.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CodexProfile {
    /// The model's context window in tokens; 0 = not known, which gives Codex's fallback of
    /// 8,000 chars.
    pub context_tokens: u64,
    /// Share of the context window, in percent (`SKILL_METADATA_CONTEXT_WINDOW_PERCENT`).
    pub percent: u64,
    /// A fixed budget in chars overriding both (0 = compute it).
    pub budget_chars: usize,
}

impl Default for CodexProfile {
    fn default() -> Self {
        Self {
            context_tokens: 0,
            percent: 2,
            budget_chars: 0,
        }
    }
}

/// Codex's budget when it knows no context window (`DEFAULT_SKILL_METADATA_CHAR_BUDGET`).
pub const CODEX_FALLBACK_CHARS: usize = 8000;

impl CodexProfile {
    /// `budget_chars` when set; else ⌊context × percent / 100⌋ tokens (at least 1) when the
    /// window is known; else 8,000 chars.
    pub fn budget(&self) -> Budget {
        if self.budget_chars > 0 {
            return Budget::Chars(self.budget_chars);
        }
        if self.context_tokens == 0 {
            return Budget::Chars(CODEX_FALLBACK_CHARS);
        }
        let t = self.context_tokens.saturating_mul(self.percent) / 100;
        Budget::Tokens(usize::try_from(t.max(1)).unwrap_or(usize::MAX))
    }
}

/// `[agent.copilot]`: Copilot CLI's fixed listing budget.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CopilotProfile {
    /// Chars of `<skill>` entries (each plus a newline) the listing may hold.
    pub budget_chars: usize,
}

/// Copilot CLI's listing budget in chars (github/copilot-cli#2314, GitHub-Copilot-for-Azure#1227).
pub const COPILOT_BUDGET_CHARS: usize = 15_000;

impl Default for CopilotProfile {
    fn default() -> Self {
        Self {
            budget_chars: COPILOT_BUDGET_CHARS,
        }
    }
}
