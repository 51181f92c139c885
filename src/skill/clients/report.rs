//! A client listing for people and scripts: the `list --agent X --json` document, the notes
//! on what was cut, dropped or never loaded, and the one-line summary (docs/AGENTS.md
//! "Client profiles").

use serde_json::{Value as Json, json};
use unicode_width::UnicodeWidthStr;

use super::{Budget, Client, ClientListing, ClientOptions, ClientSkill, Status};

/// `list --agent X --json`: `{"schema": 1, "agent", "budget_chars" (null when the client
/// documents no budget), "budget_unit": "chars"|"tokens"|null, "budget", "needed", "used",
/// "dropped": [names in drop order], "skills": [{"name", "scope": "project"|"user"|"plugin",
/// "status": "full"|"truncated"|"dropped"|"unreachable"|"not-loaded", "chars_shown",
/// "entry_chars", "why" (null when full), "line" (the entry exactly as sent, null when not listed)}]}`. `chars_shown` counts the chars of the entry text the
/// model sees, without the name; `needed`/`used` are in the budget's unit. Claude Code's
/// document keeps its earlier keys too: `needed_chars`, `sent_chars`, `pct`, `entry_cap`,
/// `drop_order`, and per skill `fate` and `truncated_by`.
pub fn listing_json(l: &ClientListing, opts: &ClientOptions) -> Json {
    let mut doc = json!({
        "schema": 1,
        "agent": l.client.as_str(),
        "budget_chars": l.budget_chars,
        "budget_unit": l.budget.map(|b| match b {
            Budget::Chars(_) => "chars",
            Budget::Tokens(_) => "tokens",
        }),
        "budget": l.budget.map(Budget::limit),
        "needed": l.needed,
        "used": l.used,
        "dropped": l.dropped,
        "skills": l.skills.iter().map(|s| {
            let mut o = json!({
                "name": s.name,
                "scope": s.scope.as_str(),
                "status": s.status.as_str(),
                "chars_shown": s.chars_shown,
                "entry_chars": s.entry_chars,
                "why": s.why,
                "line": s.line,
            });
            if l.client == Client::ClaudeCode && s.status.listed() {
                o["fate"] = json!(match s.status {
                    Status::Truncated => "truncated",
                    Status::Dropped => "dropped",
                    _ => "fits",
                });
                o["truncated_by"] = json!(if s.status == Status::Truncated {
                    s.entry_chars - s.chars_shown
                } else {
                    0
                });
            }
            o
        }).collect::<Vec<_>>(),
    });
    if l.client == Client::ClaudeCode {
        let p = opts.claude_code();
        let b = l.budget_chars.unwrap_or(1).max(1);
        doc["needed_chars"] = json!(l.needed);
        doc["sent_chars"] = json!(l.used);
        doc["pct"] = json!((l.needed * 100 + b / 2) / b);
        doc["entry_cap"] = json!(p.entry_cap);
        doc["drop_order"] = json!(p.drop_order.as_str());
    }
    doc
}

/// One note per skill the client does not show whole: `  truncated  name: why`.
pub fn notes(l: &ClientListing) -> Vec<String> {
    l.skills
        .iter()
        .filter(|s| s.status != Status::Full)
        .map(|s| {
            format!(
                "  {:<11} {}: {}",
                s.status.as_str(),
                s.name,
                s.why.as_deref().unwrap_or("")
            )
        })
        .collect()
}

/// `codex: 23 skills — 18 full, 3 truncated, 1 dropped, 1 unreachable, 2 not loaded;
/// listing 9,120 of 8,000 chars`: what the listing holds and its budget.
pub fn summary(l: &ClientListing) -> String {
    let parts: Vec<String> = [
        Status::Full,
        Status::Truncated,
        Status::Dropped,
        Status::Unreachable,
        Status::NotLoaded,
    ]
    .iter()
    .filter_map(|st| {
        let n = l.count(*st);
        (n > 0 || *st == Status::Full).then(|| format!("{n} {}", st.as_str().replace('-', " ")))
    })
    .collect();
    let h = |n: usize| crate::util::human::human_count(n as u64);
    let budget = match l.budget {
        None => "no documented budget: every entry is sent whole".to_string(),
        Some(Budget::Chars(b)) => format!("listing needs {} of {} chars", h(l.needed), h(b)),
        Some(Budget::Tokens(b)) => format!(
            "listing needs {} of {} tokens (≈ bytes / 4)",
            h(l.needed),
            h(b)
        ),
    };
    format!(
        "{}: {} — {}; {budget}",
        l.client.as_str(),
        crate::util::human::plural(l.skills.len(), "skill"),
        parts.join(", ")
    )
}

/// A client's cell for one skill: `full`, `cut N` (chars lost), `dropped`, `unreachable`
/// or `not loaded`.
pub fn cell(s: &super::ClientSkill) -> String {
    match s.status {
        Status::Truncated => format!("cut {}", s.entry_chars.saturating_sub(s.chars_shown)),
        Status::NotLoaded => "not loaded".into(),
        st => st.as_str().into(),
    }
}

/// One client's meter: `listing 10,475 / 8,000 chars (131%)`, or in tokens for Codex with
/// a context window, or `no documented budget`.
pub fn meter(l: &ClientListing) -> String {
    let h = |n: usize| crate::util::human::human_count(n as u64);
    let pct = |b: usize| (l.needed * 100 + b.max(1) / 2) / b.max(1);
    match l.budget {
        None => "no documented budget".into(),
        Some(Budget::Chars(b)) => format!("listing {} / {} chars ({}%)", h(l.needed), h(b), pct(b)),
        Some(Budget::Tokens(b)) => {
            format!("listing {} / {} tokens ({}%)", h(l.needed), h(b), pct(b))
        }
    }
}

/// The row name of each skill: its name, with its scope when another skill has the name
/// too, and the end of its folder's path when that is not enough to tell them apart.
fn row_names(skills: &[ClientSkill]) -> Vec<String> {
    skills
        .iter()
        .map(|s| {
            let same = |o: &&ClientSkill| o.name == s.name;
            match skills.iter().filter(same).count() {
                1 => s.name.clone(),
                _ if skills
                    .iter()
                    .filter(same)
                    .filter(|o| o.scope == s.scope)
                    .count()
                    == 1 =>
                {
                    format!("{} ({})", s.name, s.scope.as_str())
                }
                _ => {
                    let rivals: Vec<&ClientSkill> = skills
                        .iter()
                        .filter(|o| o.name == s.name && o.scope == s.scope)
                        .collect();
                    format!(
                        "{} ({}: {})",
                        s.name,
                        s.scope.as_str(),
                        folder_tail(s, &rivals)
                    )
                }
            }
        })
        .collect()
}

/// The end of the path of `s`'s skill folder that tells it from `rivals` (same name and
/// scope, `s` among them): its last segment, else its last two, else the whole path.
fn folder_tail(s: &ClientSkill, rivals: &[&ClientSkill]) -> String {
    let tail = |c: &ClientSkill, n: usize| -> String {
        let dir = c.path.parent().unwrap_or(&c.path);
        let parts: Vec<String> = dir
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        parts[parts.len().saturating_sub(n)..].join("/")
    };
    for n in [1, 2] {
        let mine = tail(s, n);
        if rivals.iter().filter(|o| tail(o, n) == mine).count() == 1 {
            return mine;
        }
    }
    s.path.parent().unwrap_or(&s.path).display().to_string()
}

/// `text` padded with spaces to `width` terminal cells (wide and combining characters
/// counted as the terminal draws them).
fn padded(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(text.width())))
}

/// Every client side by side (all listings of one corpus, [`super::all_listings`]): a meter
/// line per client with what it cuts, then a row per skill and a column per client
/// ([`cell`]), columns aligned in terminal cells. Two skills of one name are told apart by
/// their scope (`pdf (user)`), and two of one scope by their folder.
pub fn side_by_side(listings: &[ClientListing]) -> String {
    let Some(first) = listings.first() else {
        return String::new();
    };
    let mut out = Vec::new();
    for l in listings {
        let mut line = format!("{:<12} {}", l.client.as_str(), meter(l));
        for st in [
            Status::Truncated,
            Status::Dropped,
            Status::Unreachable,
            Status::NotLoaded,
        ] {
            let n = l.count(st);
            if n > 0 {
                line.push_str(&format!(" · {n} {}", st.as_str().replace('-', " ")));
            }
        }
        out.push(line);
    }
    out.push(String::new());
    let names = row_names(&first.skills);
    let w = names.iter().map(|n| n.width()).max().unwrap_or(5).max(5);
    // Each column as wide as its client's name or its widest cell, so a listing of `full`
    // cells fits an 80-column terminal.
    let cols: Vec<usize> = listings
        .iter()
        .map(|l| {
            let widest = l.skills.iter().map(|s| cell(s).width()).max().unwrap_or(0);
            l.client.as_str().len().max(widest)
        })
        .collect();
    // Two spaces between columns, one when two would pass the 78 cells of the TUI's popup
    // on an 80-column terminal (six `not loaded` columns then fit beside a 13-cell name).
    let gap = if w + cols.iter().map(|c| c + 2).sum::<usize>() > 78 {
        " "
    } else {
        "  "
    };
    let mut head = padded("skill", w);
    for (l, c) in listings.iter().zip(&cols) {
        head.push_str(&format!("{gap}{:<c$}", l.client.as_str()));
    }
    out.push(head.trim_end().to_string());
    for (i, name) in names.iter().enumerate() {
        let mut row = padded(name, w);
        for (l, c) in listings.iter().zip(&cols) {
            let text = l.skills.get(i).map(cell).unwrap_or_default();
            row.push_str(&format!("{gap}{text:<c$}"));
        }
        out.push(row.trim_end().to_string());
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::agents::Scope;
    use crate::model::NodeId;

    fn skill(name: &str, scope: Scope, path: &str) -> ClientSkill {
        ClientSkill {
            node: NodeId(0),
            name: name.into(),
            scope,
            path: path.into(),
            status: Status::Full,
            entry_chars: 0,
            chars_shown: 0,
            shown: String::new(),
            why: None,
            line: None,
        }
    }

    #[test]
    fn same_named_rows_are_told_apart_by_scope_then_by_folder() {
        let skills = [
            skill("hono", Scope::Project, "/a/skills/hono/SKILL.md"),
            skill("hono", Scope::Project, "/b/skills/hono/SKILL.md"),
            skill("hono", Scope::Project, "/c/hono-unified/SKILL.md"),
            skill("deploy", Scope::User, "/h/team-a/deploy/SKILL.md"),
            skill("deploy", Scope::User, "/h/team-b/deploy/SKILL.md"),
            skill("pdf", Scope::Project, "/a/skills/pdf/SKILL.md"),
            skill("pdf", Scope::User, "/h/skills/pdf/SKILL.md"),
            skill("one", Scope::Project, "/a/skills/one/SKILL.md"),
        ];
        assert_eq!(
            row_names(&skills),
            [
                // The last segment that tells them apart, else the whole path.
                "hono (project: /a/skills/hono)",
                "hono (project: /b/skills/hono)",
                "hono (project: hono-unified)",
                "deploy (user: team-a/deploy)",
                "deploy (user: team-b/deploy)",
                "pdf (project)",
                "pdf (user)",
                "one"
            ]
        );
    }

    #[test]
    fn wide_characters_are_padded_by_the_cells_they_take() {
        assert_eq!(padded("漢字", 6), "漢字  ");
        assert_eq!(padded("e\u{301}", 3), "e\u{301}  ");
        assert_eq!(padded("toolong", 3), "toolong");
    }
}
