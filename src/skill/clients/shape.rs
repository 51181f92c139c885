//! Each client's listing of its loaded skills: the entry text, the order, and what its
//! budget does to each entry (docs/AGENTS.md "Client profiles").

use super::candidate::Candidate;
use super::codex::{self, Allocation};
use super::{Budget, Client, ClientOptions, ClientSkill, Status};
use crate::formats::agents::Scope;
use crate::skill::budget;
use crate::skill::listing::ListingEntry;

/// The listing's totals, in the budget's unit.
pub(super) struct Shaped {
    pub needed: usize,
    pub used: usize,
    pub text: String,
    pub dropped: Vec<String>,
}

/// Shape the listing of the `listed` candidates (indexes into `cands` and `skills`, in tree
/// order) and set their status, shown text and reason.
pub(super) fn apply(
    client: Client,
    opts: &ClientOptions,
    budget: Option<Budget>,
    cands: &[Candidate],
    listed: &[usize],
    skills: &mut [ClientSkill],
) -> Shaped {
    match (client, budget) {
        (Client::ClaudeCode, _) => claude(opts, cands, listed, skills),
        (Client::Codex, Some(b)) => codex_listing(b, cands, listed, skills),
        (Client::Copilot, Some(b)) => copilot(b.limit(), cands, listed, skills),
        _ => whole(cands, listed, skills),
    }
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

fn claude(
    opts: &ClientOptions,
    cands: &[Candidate],
    listed: &[usize],
    skills: &mut [ClientSkill],
) -> Shaped {
    let profile = opts.claude_code();
    let entries: Vec<ListingEntry> = listed
        .iter()
        .map(|i| ListingEntry {
            name: skills[*i].name.clone(),
            description: if cands[*i].description.is_empty() {
                cands[*i].first_paragraph.clone()
            } else {
                cands[*i].description.clone()
            },
            when_to_use: cands[*i].when_to_use.clone(),
            location: cands[*i].path.display().to_string(),
        })
        .collect();
    let b = budget::apply(&entries, &profile);
    for ((i, e), fate) in listed.iter().zip(&entries).zip(&b.entries) {
        let s = &mut skills[*i];
        let text = budget::entry_text(e);
        s.entry_chars = fate.entry_chars;
        s.line = Some(fate.line.clone());
        s.status = match fate.fate() {
            budget::Fate::Fits => Status::Full,
            budget::Fate::Truncated => Status::Truncated,
            budget::Fate::Dropped => Status::Dropped,
        };
        if s.status != Status::Dropped {
            s.shown = text.chars().take(profile.entry_cap).collect();
            s.chars_shown = chars(&s.shown);
        }
        s.why = match s.status {
            Status::Truncated => Some(format!(
                "description + when_to_use is {} chars; Claude Code cuts the entry at {} ({} lost)",
                fate.entry_chars, profile.entry_cap, fate.truncated_by
            )),
            Status::Dropped => Some(format!(
                "description dropped: the listing needs {} of {} chars; only the name is sent",
                b.needed_chars, b.budget_chars
            )),
            _ => None,
        };
    }
    Shaped {
        needed: b.needed_chars,
        used: b.sent_chars,
        text: b.text(),
        dropped: b.dropped.clone(),
    }
}

/// Codex's prompt scope order: admin, repo (project), user (plugins are user skills).
fn codex_rank(scope: Scope) -> u8 {
    match scope {
        Scope::Project => 2,
        Scope::User | Scope::Plugin => 3,
    }
}

fn codex_listing(
    budget: Budget,
    cands: &[Candidate],
    listed: &[usize],
    skills: &mut [ClientSkill],
) -> Shaped {
    let mut order = listed.to_vec();
    order.sort_by(|a, b| {
        (
            codex_rank(cands[*a].scope),
            &skills[*a].name,
            &cands[*a].path,
        )
            .cmp(&(
                codex_rank(cands[*b].scope),
                &skills[*b].name,
                &cands[*b].path,
            ))
    });
    let lines: Vec<codex::Line> = order
        .iter()
        .map(|i| codex::Line {
            name: skills[*i].name.clone(),
            description: codex::catalog_description(&super::rules::collapse_whitespace(
                &cands[*i].description,
            )),
            path: cands[*i].path.display().to_string(),
        })
        .collect();
    let alloc = codex::allocate(&lines, budget);
    let cost = |t: &str| match budget {
        Budget::Tokens(_) => (t.len() + 1).div_ceil(4),
        Budget::Chars(_) => chars(t) + 1,
    };
    let needed = lines.iter().map(|l| cost(&l.render(usize::MAX))).sum();
    let mut sent = Vec::new();
    for ((i, line), a) in order.iter().zip(&lines).zip(&alloc) {
        let s = &mut skills[*i];
        let full = chars(&line.description);
        s.entry_chars = full;
        match *a {
            Allocation::Omitted => {
                s.status = Status::Unreachable;
                s.why = Some(
                    "omitted: not even its name fits Codex's budget (the model does not see it; naming it explicitly still works)"
                        .into(),
                );
            }
            Allocation::Chars(n) => {
                sent.push(line.render(n));
                s.line = Some(line.render(n));
                s.shown = line.description.chars().take(n).collect();
                s.chars_shown = n;
                (s.status, s.why) = codex_status(n, full);
            }
        }
    }
    let dropped = order
        .iter()
        .filter(|i| skills[**i].status == Status::Dropped)
        .map(|i| skills[*i].name.clone())
        .collect();
    Shaped {
        needed,
        used: sent.iter().map(|l| cost(l)).sum(),
        text: sent.join("\n"),
        dropped,
    }
}

fn codex_status(shown: usize, full: usize) -> (Status, Option<String>) {
    if shown >= full {
        (Status::Full, None)
    } else if shown == 0 {
        (
            Status::Dropped,
            Some("no room for its description in Codex's budget: only the name is sent".into()),
        )
    } else {
        (
            Status::Truncated,
            Some(format!(
                "Codex shortens every description evenly to fit its budget: {shown} of {full} chars shown"
            )),
        )
    }
}

/// Copilot CLI's entry: a `<skill>` element with name, description and location, one tag
/// or value per line.
pub fn copilot_entry(name: &str, description: &str, scope: Scope) -> String {
    let location = match scope {
        Scope::Project => "project",
        Scope::User | Scope::Plugin => "user",
    };
    format!(
        "<skill>\n<name>\n{name}\n</name>\n<description>\n{description}\n</description>\n<location>\n{location}\n</location>\n</skill>"
    )
}

fn copilot(
    budget: usize,
    cands: &[Candidate],
    listed: &[usize],
    skills: &mut [ClientSkill],
) -> Shaped {
    let mut order = listed.to_vec();
    order.sort_by(|a, b| {
        (&skills[*a].name, &cands[*a].path).cmp(&(&skills[*b].name, &cands[*b].path))
    });
    let (mut needed, mut used, mut cut) = (0usize, 0usize, false);
    let mut sent = Vec::new();
    for i in order {
        let d = cands[i].description.clone();
        let entry = copilot_entry(&skills[i].name, &d, cands[i].scope);
        let cost = chars(&entry) + 1;
        needed += cost;
        let s = &mut skills[i];
        s.entry_chars = chars(&d);
        if cut || used + cost > budget {
            cut = true;
            s.status = Status::Unreachable;
            s.why = Some(format!(
                "past Copilot CLI's {budget}-char listing (name order): neither listed nor invocable by name"
            ));
            continue;
        }
        used += cost;
        s.line = Some(entry.clone());
        sent.push(entry);
        s.status = Status::Full;
        s.chars_shown = s.entry_chars;
        s.shown = d;
    }
    Shaped {
        needed,
        used,
        text: sent.join("\n"),
        dropped: Vec::new(),
    }
}

/// Clients that document no budget: every loaded skill is listed whole, `- name: description`.
fn whole(cands: &[Candidate], listed: &[usize], skills: &mut [ClientSkill]) -> Shaped {
    let mut lines = Vec::new();
    for i in listed {
        let s = &mut skills[*i];
        s.status = Status::Full;
        s.shown = cands[*i].description.clone();
        s.entry_chars = chars(&s.shown);
        s.chars_shown = s.entry_chars;
        let line = format!("- {}: {}", s.name, s.shown);
        s.line = Some(line.clone());
        lines.push(line);
    }
    let text = lines.join("\n");
    let n = chars(&text);
    Shaped {
        needed: n,
        used: n,
        text,
        dropped: Vec::new(),
    }
}
