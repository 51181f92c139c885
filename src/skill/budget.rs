//! What survives an agent client's skill listing budget (docs/AGENTS.md "Listing budget").
//! Claude Code puts one entry per skill into the model's context: every name stays, each
//! entry's `description` + `when_to_use` is cut at an entry cap (1,536 chars), and when the
//! whole listing is over its character budget (context tokens × 4 × fraction, 8,000 chars
//! by default) descriptions are dropped, skills of lowest rank first, leaving bare names.
//!
//! All lengths here are chars (Unicode scalar values), never bytes or tokens.

use serde::Deserialize;

use crate::model::NodeId;
use crate::skill::listing::ListingEntry;

/// Which skills lose their description first when the listing is over budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DropOrder {
    /// Rank is the listing order: the last listed skill loses its description first.
    /// Claude Code ranks by how often each skill was used; skillnav sees no usage counts,
    /// so every skill ties and the listing order decides.
    LastListed,
    /// The longest entry loses its description first (ties: the last listed first).
    LongestFirst,
}

impl DropOrder {
    /// `last-listed` / `longest-first`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::LastListed => "last-listed",
            Self::LongestFirst => "longest-first",
        }
    }
}

/// The listing budget of one agent profile (`[agent.claude-code]` in config.toml).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BudgetProfile {
    /// The model's context window, in tokens.
    pub context_tokens: u64,
    /// Share of the context window the listing may use (`skillListingBudgetFraction`).
    pub fraction: f64,
    /// Chars per token used to turn the token share into chars.
    pub chars_per_token: u64,
    /// A fixed budget in chars, overriding the computed one (0 = compute it); the
    /// `SLASH_COMMAND_TOOL_CHAR_BUDGET` variable does the same in Claude Code.
    pub budget_chars: usize,
    /// Max chars of one entry's description + `when_to_use`.
    pub entry_cap: usize,
    /// Who loses the description first on overflow.
    pub drop_order: DropOrder,
}

impl Default for BudgetProfile {
    fn default() -> Self {
        Self {
            context_tokens: 200_000,
            fraction: 0.01,
            chars_per_token: 4,
            budget_chars: 0,
            entry_cap: ENTRY_CAP,
            drop_order: DropOrder::LastListed,
        }
    }
}

/// Claude Code's per-entry cap on description + `when_to_use`, in chars.
pub const ENTRY_CAP: usize = 1536;

impl BudgetProfile {
    /// The listing budget in chars: [`BudgetProfile::budget_chars`] when set, else
    /// ⌊`context_tokens` × `chars_per_token` × `fraction`⌋, at least 1.
    pub fn budget(&self) -> usize {
        if self.budget_chars > 0 {
            return self.budget_chars;
        }
        let chars = self.context_tokens.saturating_mul(self.chars_per_token) as f64 * self.fraction;
        if chars.is_finite() && chars >= 1.0 {
            chars.floor() as usize
        } else {
            1
        }
    }

    /// This profile with a fixed budget taken from an override value (the text of
    /// `SLASH_COMMAND_TOOL_CHAR_BUDGET`), when it is a positive integer.
    #[must_use]
    pub fn with_override(mut self, value: Option<&str>) -> Self {
        if let Some(n) = value
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|n| *n > 0)
        {
            self.budget_chars = n;
        }
        self
    }
}

/// What happened to one skill's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Sent whole.
    Fits,
    /// Sent, cut at the entry cap.
    Truncated,
    /// Only the name is sent: the description was dropped for the budget.
    Dropped,
}

impl Fate {
    /// `fits` / `truncated` / `dropped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fits => "fits",
            Self::Truncated => "truncated",
            Self::Dropped => "dropped",
        }
    }
}

/// One skill in the listing as sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryFate {
    /// Skill name (kept in every case).
    pub name: String,
    /// Chars of description + `when_to_use` before the cap.
    pub entry_chars: usize,
    /// Chars the entry cap cut off (0 when it fits the cap).
    pub truncated_by: usize,
    /// Whether the description was dropped for the budget.
    pub dropped: bool,
    /// The listing line as sent: `- name: text`, or `- name` when dropped.
    pub line: String,
}

impl EntryFate {
    /// [`Fate::Dropped`] when dropped, else [`Fate::Truncated`] when cut, else [`Fate::Fits`].
    pub fn fate(&self) -> Fate {
        if self.dropped {
            Fate::Dropped
        } else if self.truncated_by > 0 {
            Fate::Truncated
        } else {
            Fate::Fits
        }
    }
}

/// The listing an agent would see, with the fate of each entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingBudget {
    /// The budget in chars.
    pub budget_chars: usize,
    /// Chars the listing needs with every description (each cut at the cap).
    pub needed_chars: usize,
    /// Chars of the listing as sent.
    pub sent_chars: usize,
    /// Entries in listing order.
    pub entries: Vec<EntryFate>,
    /// Names of the skills that lost their description, in drop order.
    pub dropped: Vec<String>,
}

impl ListingBudget {
    /// The listing as sent: the entries' lines joined with `\n`.
    pub fn text(&self) -> String {
        self.entries
            .iter()
            .map(|e| e.line.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `needed_chars` as a percentage of the budget, rounded to the nearest integer.
    pub fn pct(&self) -> u64 {
        let b = self.budget_chars.max(1) as u64;
        (self.needed_chars as u64 * 100 + b / 2) / b
    }

    /// `listing 10,990 / 8,000 chars (137%)`: the chars the listing needs against the
    /// budget, as the top bar and the root preview show it.
    pub fn meter(&self) -> String {
        format!(
            "listing {} / {} chars ({}%)",
            crate::util::human::human_count(self.needed_chars as u64),
            crate::util::human::human_count(self.budget_chars as u64),
            self.pct()
        )
    }
}

/// The text of an entry: the description, then ` - ` and the `when_to_use` text (Claude
/// Code's entry, anthropics/claude-code#60560).
pub fn entry_text(e: &ListingEntry) -> String {
    let d = e.description.trim();
    match e
        .when_to_use
        .as_deref()
        .map(str::trim)
        .filter(|w| !w.is_empty())
    {
        Some(w) if d.is_empty() => w.to_string(),
        Some(w) => format!("{d} - {w}"),
        None => d.to_string(),
    }
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

fn name_line(name: &str) -> String {
    format!("- {name}")
}

/// Apply `profile` to `entries` (in listing order): cut each entry at the cap, then, while
/// the listing is over budget, keep descriptions in rank order (the reverse of the drop
/// order) as long as they fit; the first one that does not fit and every one ranked after
/// it keep only the name.
pub fn apply(entries: &[ListingEntry], profile: &BudgetProfile) -> ListingBudget {
    let budget = profile.budget();
    let mut out: Vec<EntryFate> = entries
        .iter()
        .map(|e| {
            let text = entry_text(e);
            let n = chars(&text);
            let cut: String = text.chars().take(profile.entry_cap).collect();
            let line = if cut.is_empty() {
                name_line(&e.name)
            } else {
                format!("- {}: {cut}", e.name)
            };
            EntryFate {
                name: e.name.clone(),
                entry_chars: n,
                truncated_by: n.saturating_sub(profile.entry_cap),
                dropped: false,
                line,
            }
        })
        .collect();
    let newlines = out.len().saturating_sub(1);
    let needed = out.iter().map(|e| chars(&e.line)).sum::<usize>() + newlines;
    let mut dropped = Vec::new();
    if needed > budget {
        // Rank: who keeps the description first.
        let mut rank: Vec<usize> = (0..out.len()).collect();
        if profile.drop_order == DropOrder::LongestFirst {
            rank.sort_by_key(|i| (chars(&out[*i].line), *i));
        }
        let mut used = out
            .iter()
            .map(|e| chars(&name_line(&e.name)))
            .sum::<usize>()
            + newlines;
        let mut cut_from = rank.len();
        for (k, i) in rank.iter().enumerate() {
            let extra = chars(&out[*i].line) - chars(&name_line(&out[*i].name));
            if used + extra > budget {
                cut_from = k;
                break;
            }
            used += extra;
        }
        for i in rank[cut_from..].iter().rev() {
            let e = &mut out[*i];
            if e.line != name_line(&e.name) {
                e.dropped = true;
                e.line = name_line(&e.name);
                dropped.push(e.name.clone());
            }
        }
    }
    let sent = out.iter().map(|e| chars(&e.line)).sum::<usize>() + newlines;
    ListingBudget {
        budget_chars: budget,
        needed_chars: needed,
        sent_chars: sent,
        entries: out,
        dropped,
    }
}

/// The listing of a whole corpus as Claude Code sees it, in listing order, made by
/// [`crate::skill::clients::ClientListing::to_corpus_budget`] (the skills Claude Code loads
/// and lists).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusBudget {
    /// The listing and each entry's fate.
    pub listing: ListingBudget,
    /// The skill node of each entry (same order as `listing.entries`).
    pub skills: Vec<NodeId>,
}

impl CorpusBudget {
    /// The fate of skill node `id`, `None` when it is not listed (not loaded, a copy).
    pub fn fate_of(&self, id: NodeId) -> Option<&EntryFate> {
        self.skills
            .iter()
            .position(|s| *s == id)
            .and_then(|i| self.listing.entries.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, desc: &str) -> ListingEntry {
        ListingEntry {
            name: name.into(),
            description: desc.into(),
            when_to_use: None,
            location: String::new(),
        }
    }

    #[test]
    fn default_budget_is_eight_thousand_chars_and_the_variable_pins_it() {
        let p = BudgetProfile::default();
        assert_eq!(p.budget(), 8000);
        assert_eq!(p.clone().with_override(Some("6000")).budget(), 6000);
        assert_eq!(p.with_override(Some("x")).budget(), 8000);
    }

    #[test]
    fn over_budget_drops_the_last_listed_first_and_keeps_names() {
        let p = BudgetProfile {
            budget_chars: 30,
            ..BudgetProfile::default()
        };
        let b = apply(
            &[
                entry("a", "0123456789"),
                entry("b", "0123456789"),
                entry("c", "x"),
            ],
            &p,
        );
        assert_eq!(b.needed_chars, 15 + 15 + 6 + 2);
        assert_eq!(b.dropped, vec!["c", "b"]);
        assert_eq!(b.text(), "- a: 0123456789\n- b\n- c");
        assert_eq!(b.sent_chars, 23);
    }

    #[test]
    fn entry_cap_cuts_description_and_when_to_use() {
        let mut e = entry("a", &"d".repeat(1000));
        e.when_to_use = Some("w".repeat(699));
        // 1000 + " - " + 699 = 1702 chars, 166 over the cap.
        let b = apply(
            &[e],
            &BudgetProfile {
                budget_chars: 10_000,
                ..BudgetProfile::default()
            },
        );
        assert_eq!(
            (b.entries[0].entry_chars, b.entries[0].truncated_by),
            (1702, 166)
        );
        assert_eq!(b.entries[0].fate(), Fate::Truncated);
    }
}
