//! What each agent client really lists (docs/AGENTS.md "Client profiles"): one profile per
//! client — Claude Code, Codex, Copilot CLI, Gemini CLI, OpenCode, Cursor — saying which
//! skills it loads at all ([`rules`]), how it settles two skills of one name, what its
//! listing entry is made of, and how its budget cuts, drops or omits entries
//! ([`budgets`], [`codex`], `shape`). [`client_listing`] applies a profile to a loaded
//! corpus and gives every skill a [`Status`]; the CLI (`list --agent`, `validate
//! --profile`), the trigger eval and the TUI's client columns all read it.
//!
//! Lengths are chars (Unicode scalar values) unless a field says tokens.

pub mod budgets;
pub mod candidate;
pub mod client;
pub mod codex;
pub mod options;
pub mod report;
pub mod rules;
mod shape;

use crate::formats::agents::Scope;
use crate::model::{Corpus, NodeId};

pub use budgets::Budget;
pub use client::Client;
pub use options::ClientOptions;

/// What a client does with one skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// Listed with its whole entry.
    Full,
    /// Listed with its entry cut (Claude Code's 1,536 cap, Codex's even shortening).
    Truncated,
    /// Listed by name only: the description was dropped for the budget.
    Dropped,
    /// Loaded but left out of the listing: the model cannot see it (Copilot CLI: not even
    /// invocable by name).
    Unreachable,
    /// Never loaded (file name, frontmatter, limits, or a same-named skill wins).
    NotLoaded,
}

impl Status {
    /// `full` / `truncated` / `dropped` / `unreachable` / `not-loaded`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Truncated => "truncated",
            Self::Dropped => "dropped",
            Self::Unreachable => "unreachable",
            Self::NotLoaded => "not-loaded",
        }
    }

    /// Whether the model sees the skill's name in the listing.
    pub fn listed(self) -> bool {
        matches!(self, Self::Full | Self::Truncated | Self::Dropped)
    }
}

/// One skill as a client lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientSkill {
    /// The skill node.
    pub node: NodeId,
    /// The name the client lists.
    pub name: String,
    /// Scope of its folder.
    pub scope: Scope,
    /// Path of its skill file (absolute when the corpus knows it).
    pub path: std::path::PathBuf,
    /// What the client does with it.
    pub status: Status,
    /// Chars of the entry text before the client's cuts (without the name).
    pub entry_chars: usize,
    /// Chars of the entry text the model sees, without the name (0 unless listed with a
    /// description).
    pub chars_shown: usize,
    /// The entry text the model sees (empty when dropped, unreachable or not loaded).
    pub shown: String,
    /// Why it is cut, dropped, unreachable or not loaded; `None` when full.
    pub why: Option<String>,
    /// Its entry exactly as the client sends it (Codex's line with its path, Copilot's
    /// `<skill>` element); `None` when not listed.
    pub line: Option<String>,
}

/// A client's listing of a corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientListing {
    /// The client.
    pub client: Client,
    /// Its budget; `None` when the client documents none (nothing is cut).
    pub budget: Option<Budget>,
    /// The budget in chars (a token budget × 4).
    pub budget_chars: Option<usize>,
    /// What the listing needs with every entry whole, in the budget's unit.
    pub needed: usize,
    /// What the listing as sent uses, in the budget's unit.
    pub used: usize,
    /// The listing text as the client sends it (entries in its order, joined by `\n`).
    pub text: String,
    /// Names of the skills that lost their description, in the order they lost it.
    pub dropped: Vec<String>,
    /// Every candidate skill, in tree order.
    pub skills: Vec<ClientSkill>,
}

impl ClientListing {
    /// The entry of node `id`.
    pub fn skill(&self, id: NodeId) -> Option<&ClientSkill> {
        self.skills.iter().find(|s| s.node == id)
    }

    /// How many skills have `status`.
    pub fn count(&self, status: Status) -> usize {
        self.skills.iter().filter(|s| s.status == status).count()
    }
}

/// The name `client` lists `c` under: Codex collapses whitespace; every client takes the
/// frontmatter `name`, else the folder; plugin skills keep their `plugin:` prefix.
fn client_name(client: Client, c: &candidate::Candidate) -> String {
    let base = c.fm_name.clone().unwrap_or_else(|| c.folder.clone());
    let base = match client {
        Client::Codex => rules::collapse_whitespace(&base),
        _ => base,
    };
    if c.title.ends_with(&format!(":{base}")) {
        c.title.clone()
    } else {
        base
    }
}

/// Apply `client`'s profile to every skill of `corpus` ([`candidate::gather`]): the skills
/// it never loads ([`rules::refusal`]) and those a same-named skill hides
/// ([`rules::hidden_by`]) are `not-loaded`; the rest go through its budget.
pub fn client_listing(corpus: &Corpus, client: Client, opts: &ClientOptions) -> ClientListing {
    listing_of(&candidate::gather(corpus), client, opts)
}

/// [`client_listing`] of candidates already gathered ([`candidate::gather_with`]).
pub fn listing_of(
    cands: &[candidate::Candidate],
    client: Client,
    opts: &ClientOptions,
) -> ClientListing {
    let mut names: Vec<String> = cands.iter().map(|c| client_name(client, c)).collect();
    let refusals: Vec<Option<String>> = cands.iter().map(|c| rules::refusal(client, c)).collect();
    let loaded: Vec<bool> = refusals.iter().map(Option::is_none).collect();
    if client == Client::ClaudeCode {
        rules::nested_names(cands, &mut names, &loaded);
    }
    let hidden = rules::hidden_by(rules::SameName::of(client), cands, &names, &loaded);
    let mut skills: Vec<ClientSkill> = cands
        .iter()
        .enumerate()
        .map(|(i, c)| ClientSkill {
            node: c.node,
            name: names[i].clone(),
            scope: c.scope,
            path: c.path.clone(),
            status: Status::NotLoaded,
            entry_chars: 0,
            chars_shown: 0,
            shown: String::new(),
            line: None,
            why: refusals[i]
                .clone()
                .or_else(|| hidden[i].map(|w| hidden_why(client, &cands[i], &cands[w]))),
        })
        .collect();
    let listed: Vec<usize> = (0..cands.len())
        .filter(|i| loaded[*i] && hidden[*i].is_none())
        .collect();
    let budget = opts.budget(client);
    let shaped = shape::apply(client, opts, budget, cands, &listed, &mut skills);
    ClientListing {
        client,
        budget,
        budget_chars: budget.map(Budget::chars),
        needed: shaped.needed,
        used: shaped.used,
        text: shaped.text,
        dropped: shaped.dropped,
        skills,
    }
}

/// Why a same-named skill hides `loser`: both files, and whose rule it is (between
/// two skills of one scope, the scope rule says nothing: the one found first wins).
fn hidden_why(
    client: Client,
    loser: &candidate::Candidate,
    winner: &candidate::Candidate,
) -> String {
    let rule = match rules::SameName::of(client) {
        rules::SameName::UserFirst | rules::SameName::ProjectFirst
            if loser.scope == winner.scope =>
        {
            "both in one scope, whose order is not documented: skillnav keeps the first found"
        }
        rules::SameName::UserFirst => "personal over project",
        rules::SameName::ProjectFirst => "workspace over user",
        _ => "no documented rule; skillnav applies --precedence",
    };
    format!(
        "{} is hidden by the same-named {} skill {} ({}: {rule})",
        loser.path.display(),
        winner.scope.as_str(),
        winner.path.display(),
        client.display()
    )
}

/// [`client_listing`] for every client, in [`Client::ALL`] order; with `over`, skill node
/// `over.0` is read from the text `over.1` (an unsaved edit).
pub fn all_listings(
    corpus: &Corpus,
    opts: &ClientOptions,
    over: Option<(NodeId, &str)>,
) -> Vec<ClientListing> {
    listings_of(&candidate::gather_with(corpus, over), opts)
}

/// [`listing_of`] for every client, in [`Client::ALL`] order.
pub fn listings_of(cands: &[candidate::Candidate], opts: &ClientOptions) -> Vec<ClientListing> {
    Client::ALL
        .iter()
        .map(|c| listing_of(cands, *c, opts))
        .collect()
}

impl ClientListing {
    /// This listing in the shape of Claude Code's budget model
    /// ([`crate::skill::budget::CorpusBudget`]): the listed skills in listing order, each
    /// entry's fate and line, for the views that show the Claude Code meter and row marks.
    pub fn to_corpus_budget(&self) -> crate::skill::budget::CorpusBudget {
        use crate::skill::budget::{CorpusBudget, EntryFate, ListingBudget};
        let listed: Vec<&ClientSkill> = self.skills.iter().filter(|s| s.status.listed()).collect();
        let entries = listed
            .iter()
            .map(|s| EntryFate {
                name: s.name.clone(),
                entry_chars: s.entry_chars,
                truncated_by: if s.status == Status::Truncated {
                    s.entry_chars.saturating_sub(s.chars_shown)
                } else {
                    0
                },
                dropped: s.status == Status::Dropped,
                line: s.line.clone().unwrap_or_else(|| format!("- {}", s.name)),
            })
            .collect();
        CorpusBudget {
            listing: ListingBudget {
                budget_chars: self.budget_chars.unwrap_or(0),
                needed_chars: self.needed,
                sent_chars: self.used,
                entries,
                dropped: self.dropped.clone(),
            },
            skills: listed.iter().map(|s| s.node).collect(),
        }
    }
}
