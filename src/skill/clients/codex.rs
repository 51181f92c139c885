//! Codex's skill listing under its metadata budget (docs/AGENTS.md "Codex"), as
//! `codex-rs/core-skills/src/render.rs` builds it: one line per skill,
//! `- name: description (file: path)`, ordered by scope (admin, repo, user) then name.
//! When every full line fits the budget, all are sent whole; else, when every line fits
//! without its description, the room left is shared out one description char at a time,
//! round-robin, so every description is shortened evenly; else lines without description
//! are kept in order while they fit and the rest are omitted.
//!
//! The budget is 2% of the context window in tokens, a line costing ⌈(bytes + 1) / 4⌉
//! (the line and its newline), or 8,000 chars when no window is known.

use super::Budget;

/// One skill line of the Codex listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Skill name.
    pub name: String,
    /// The description after whitespace is collapsed and the 1,024-char catalog cap.
    pub description: String,
    /// The SKILL.md path shown after `file:`.
    pub path: String,
}

/// What the budget gave one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// Left out of the listing.
    Omitted,
    /// Listed with this many chars of its description.
    Chars(usize),
}

/// Codex's catalog cap: a description over 1,024 chars keeps 1,021 and gains `...`.
pub fn catalog_description(d: &str) -> String {
    if d.chars().count() <= 1024 {
        return d.to_string();
    }
    let mut s: String = d.chars().take(1021).collect();
    s.push_str("...");
    s
}

impl Line {
    /// The line with the first `chars` chars of the description.
    pub fn render(&self, chars: usize) -> String {
        let d: String = self.description.chars().take(chars).collect();
        if d.is_empty() {
            format!("- {}: (file: {})", self.name, self.path)
        } else {
            format!("- {}: {d} (file: {})", self.name, self.path)
        }
    }

    fn desc_chars(&self) -> usize {
        self.description.chars().count()
    }
}

/// The cost of `text` plus its newline under `budget`.
fn cost(budget: Budget, text: &str) -> usize {
    match budget {
        Budget::Tokens(_) => (text.len() + 1).div_ceil(4),
        Budget::Chars(_) => text.chars().count() + 1,
    }
}

/// The allocation of each line (same order as `lines`, which must already be in Codex's
/// order).
pub fn allocate(lines: &[Line], budget: Budget) -> Vec<Allocation> {
    let limit = budget.limit();
    let full: usize = lines
        .iter()
        .map(|l| cost(budget, &l.render(usize::MAX)))
        .sum();
    if full <= limit {
        return lines
            .iter()
            .map(|l| Allocation::Chars(l.desc_chars()))
            .collect();
    }
    let minimum: usize = lines.iter().map(|l| cost(budget, &l.render(0))).sum();
    if minimum <= limit {
        return round_robin(lines, budget, limit - minimum)
            .into_iter()
            .map(Allocation::Chars)
            .collect();
    }
    let mut used = 0usize;
    lines
        .iter()
        .map(|l| {
            let next = used + cost(budget, &l.render(0));
            if next <= limit {
                used = next;
                Allocation::Chars(0)
            } else {
                Allocation::Omitted
            }
        })
        .collect()
}

/// The extra cost of each description length `0..=len` over the line without description.
fn extra_costs(line: &Line, budget: Budget) -> Vec<usize> {
    let min = line.render(0);
    let (min_chars, min_bytes) = (min.chars().count() + 1, min.len() + 1);
    let of = |chars: usize, bytes: usize| match budget {
        Budget::Tokens(_) => bytes.div_ceil(4),
        Budget::Chars(_) => chars,
    };
    let base = of(min_chars, min_bytes);
    let mut out = vec![0];
    let (mut c, mut b) = (0usize, 0usize);
    for ch in line.description.chars() {
        c += 1;
        b += ch.len_utf8();
        // The description also brings the space before it.
        out.push(of(min_chars + c + 1, min_bytes + b + 1) - base);
    }
    out
}

/// Codex's round-robin: one more description char per line per round while its extra cost
/// fits what is left.
fn round_robin(lines: &[Line], budget: Budget, mut remaining: usize) -> Vec<usize> {
    let costs: Vec<Vec<usize>> = lines.iter().map(|l| extra_costs(l, budget)).collect();
    let mut alloc = vec![0usize; lines.len()];
    loop {
        let mut changed = false;
        for (i, c) in costs.iter().enumerate() {
            if alloc[i] + 1 >= c.len() {
                continue;
            }
            let delta = c[alloc[i] + 1] - c[alloc[i]];
            if delta <= remaining {
                alloc[i] += 1;
                remaining -= delta;
                changed = true;
            }
        }
        if !changed {
            return alloc;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, d: &str) -> Line {
        Line {
            name: name.into(),
            description: d.into(),
            path: "/p/SKILL.md".into(),
        }
    }

    #[test]
    fn everything_fits_whole_when_the_full_cost_is_within_the_budget() {
        let l = [line("a", "one two"), line("b", "three")];
        let a = allocate(&l, Budget::Chars(1000));
        assert_eq!(a, vec![Allocation::Chars(7), Allocation::Chars(5)]);
    }

    #[test]
    fn descriptions_are_shortened_evenly_when_only_names_fit_whole() {
        // Minimum lines: "- a: (file: /p/SKILL.md)" = 24 chars + newline each.
        let l = [line("a", &"x".repeat(40)), line("b", &"y".repeat(10))];
        let a = allocate(&l, Budget::Chars(50 + 21));
        // 21 chars of room: the first char of each costs 2 (it brings the space), then
        // one char each per round; a, first in order, takes the last char left.
        assert_eq!(a, vec![Allocation::Chars(10), Allocation::Chars(9)]);
    }

    #[test]
    fn lines_past_the_budget_are_omitted_when_even_names_do_not_fit() {
        let l = [line("a", "d"), line("b", "d"), line("c", "d")];
        let a = allocate(&l, Budget::Chars(60));
        assert_eq!(
            a,
            vec![
                Allocation::Chars(0),
                Allocation::Chars(0),
                Allocation::Omitted
            ]
        );
    }

    #[test]
    fn token_budget_counts_bytes_over_four_rounded_up() {
        assert_eq!(cost(Budget::Tokens(10), "abc"), 1);
        assert_eq!(cost(Budget::Tokens(10), "abcd"), 2);
        assert_eq!(catalog_description(&"z".repeat(1030)).chars().count(), 1024);
    }
}
