//! lazytools' `query_skill` brief layout (docs/FORMATS.md §2.8–2.9), byte for byte: intent
//! detection, the `[skill]…[execution_policy]` brief and the per-mode `[result]` part, cut to
//! `max_chars` characters.
//!
//! Lengths and limits are in characters (Python code points).

use crate::formats::lazytools::pystr::{collapse_ws, path_name, take_chars, trim};
use crate::index::lazytools::rank;
use crate::model::BundleStats;

pub use super::mode::{Mode, resolve_mode};

/// Arguments of `query_skill` besides the task (lazytools' defaults in [`Default`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuerySkillOptions {
    /// Mode; `Auto` resolves with [`resolve_mode`].
    pub mode: Mode,
    /// Chunks to retrieve (default 8; 0 behaves as 1, like lazytools' `max(1, top_k)`).
    pub top_k: usize,
    /// Cut of the whole output, in characters (default 10 000; cuts mid-line, no ellipsis).
    pub max_chars: usize,
    /// In answer mode, append the first 3 chunks as full excerpts (default true).
    pub include_quotes: bool,
}

impl Default for QuerySkillOptions {
    fn default() -> Self {
        Self {
            mode: Mode::Auto,
            top_k: 8,
            max_chars: 10_000,
            include_quotes: true,
        }
    }
}

/// One selected chunk, borrowed from the bundle.
struct Sel<'a> {
    path: &'a str,
    heading: &'a str,
    text: &'a str,
}

impl Sel<'_> {
    fn file(&self) -> &str {
        path_name(self.path)
    }
}

/// Distinct paths in first-seen order (`dict.fromkeys`).
fn distinct_paths<'a>(sel: &[Sel<'a>]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for s in sel {
        if !out.contains(&s.path) {
            out.push(s.path);
        }
    }
    out
}

/// lazytools' `query_skill(skill_dir, task, mode, top_k, max_chars, include_quotes)` on a
/// loaded bundle (docs/FORMATS.md §2.9): ranks the chunks with lazytools' BM25, then renders the
/// brief and the mode's result part, or the fixed "No relevant documentation…" text when no
/// chunk scores > 0. The whole string is cut to `opts.max_chars` characters. Byte-identical
/// to the real package on its bundles.
pub fn query_skill(bundle: &BundleStats, task: &str, opts: &QuerySkillOptions) -> String {
    let mode = if opts.mode == Mode::Auto {
        resolve_mode(task)
    } else {
        opts.mode
    };
    let ranked = rank(bundle, task, opts.top_k.max(1));
    let sel: Vec<Sel> = ranked
        .iter()
        .filter_map(|(i, _)| {
            Some(Sel {
                path: bundle.chunk_paths.get(*i)?,
                heading: bundle.chunk_headings.get(*i)?,
                text: bundle.chunk_texts.get(*i)?,
            })
        })
        .collect();
    if sel.is_empty() {
        let s = format!(
            "[skill] {}\n[task] {task}\n\nNo relevant documentation was retrieved for this task. \
             Do not answer beyond the indexed evidence.",
            bundle.name
        );
        return take_chars(&s, opts.max_chars).to_string();
    }

    let brief = brief_part(bundle, task, mode, &sel);
    let result = result_part(mode, &sel, opts.include_quotes);
    let out = format!("{brief}\n\n[result]\n{}", result.join("\n"));
    take_chars(&out, opts.max_chars).to_string()
}

/// The brief part: skill, task and mode, the skill's instructions, the sources and
/// excerpts retrieved (`sel`), and the execution policy.
fn brief_part(bundle: &BundleStats, task: &str, mode: Mode, sel: &[Sel<'_>]) -> String {
    let mut lines: Vec<String> = vec![
        format!("[skill]   {}", bundle.name),
        format!("[task]    {task}"),
        format!("[mode]    {mode}"),
        String::new(),
        "[skill_instructions]".into(),
        match bundle.skill_md.as_deref() {
            Some(md) if !md.is_empty() => trim(md, 2500),
            _ => "No SKILL.md present.".into(),
        },
        String::new(),
        "[sources_retrieved]".into(),
    ];
    lines.extend(distinct_paths(sel).iter().map(|p| format!("  • {p}")));
    lines.push(String::new());
    lines.push("[excerpts]".into());
    lines.extend(
        sel.iter()
            .take(6)
            .map(|c| format!("### {}  [{}]\n{}", c.heading, c.file(), trim(c.text, 800))),
    );
    lines.extend(
        [
            "",
            "[execution_policy]",
            "  1. Use only the evidence above.",
            "  2. Do not infer behaviour not shown in the excerpts.",
            "  3. Cite source file names in every answer.",
            "  4. If evidence is partial or missing, say so explicitly.",
        ]
        .map(String::from),
    );
    lines.join("\n")
}

/// The result part's lines in `mode`: the files (locate), the excerpts (extract), a line
/// per chunk (summarize), or the best evidence, with full excerpts when `include_quotes`.
fn result_part(mode: Mode, sel: &[Sel<'_>], include_quotes: bool) -> Vec<String> {
    let mut result: Vec<String> = Vec::new();
    match mode {
        Mode::Locate => {
            result.push("Relevant files:".into());
            result.extend(distinct_paths(sel).iter().map(|p| format!("  • {p}")));
        }
        Mode::Extract => {
            result.push("Excerpts:".into());
            for c in sel {
                result.push(format!(
                    "\n### {}  [{}]\n{}",
                    c.heading,
                    c.file(),
                    trim(c.text, 1000)
                ));
            }
        }
        Mode::Summarize => {
            result.push("Summary:".into());
            for c in sel.iter().take(6) {
                result.push(format!(
                    "  - {}  [{}]",
                    trim(&collapse_ws(c.text), 300),
                    c.file()
                ));
            }
        }
        Mode::Answer | Mode::Auto => {
            result.push("Best evidence:".into());
            for c in sel.iter().take(5) {
                result.push(format!(
                    "  - {}  [{}]",
                    trim(&collapse_ws(c.text), 400),
                    c.file()
                ));
            }
            if include_quotes {
                result.push("\nFull excerpts:".into());
                for c in sel.iter().take(3) {
                    result.push(format!(
                        "\n### {}  [{}]\n{}",
                        c.heading,
                        c.file(),
                        trim(c.text, 800)
                    ));
                }
            }
        }
    }
    result
}

/// The brief of a [`super::Request`] in [`super::BriefFormat::Lazytools`]: `query_skill` of
/// its query on the corpus's first bundle, with its mode, `top_k`, `max_chars` (lazytools'
/// 10000 when `None`) and `quotes`; an empty text without a query or a bundle (the CLI and
/// the MCP tool refuse those first). No sections, no layout: `sections` 0, `layout` `None`.
pub fn brief(
    corpus: &crate::model::Corpus,
    req: &super::Request,
    counter: crate::tokens::TokenCounter,
) -> super::Brief {
    let defaults = QuerySkillOptions::default();
    let opts = QuerySkillOptions {
        mode: req.mode,
        top_k: req.top_k,
        max_chars: req.max_chars.unwrap_or(defaults.max_chars),
        include_quotes: req.quotes,
    };
    let text = match (corpus.bundles.first(), req.query.as_deref()) {
        (Some((_, stats)), Some(task)) => query_skill(stats, task, &opts),
        _ => String::new(),
    };
    super::Brief {
        bytes: text.len(),
        tokens: counter.count(&text),
        encoding: counter.encoding(),
        sections: 0,
        included: Vec::new(),
        left_out: Vec::new(),
        layout: None,
        mode: if req.mode == Mode::Auto {
            resolve_mode(req.query.as_deref().unwrap_or(""))
        } else {
            req.mode
        },
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_mode_first_match_wins() {
        assert_eq!(resolve_mode("Where is X? Summarize it"), Mode::Locate);
        assert_eq!(resolve_mode("these findings"), Mode::Locate);
        assert_eq!(resolve_mode("List all examples"), Mode::Extract);
        assert_eq!(resolve_mode("Give me an OVERVIEW"), Mode::Summarize);
        assert_eq!(resolve_mode("a brief note"), Mode::Summarize);
        assert_eq!(resolve_mode("How do I add CORS?"), Mode::Answer);
        assert_eq!(resolve_mode("dove si trova"), Mode::Locate);
    }

    #[test]
    fn no_result_text_is_cut_in_chars() {
        let b = BundleStats {
            name: "Ünï".into(),
            avgdl: 1.0,
            ..Default::default()
        };
        let opts = QuerySkillOptions {
            max_chars: 12,
            ..Default::default()
        };
        assert_eq!(query_skill(&b, "zz", &opts), "[skill] Ünï\n");
        let full = query_skill(&b, "zz", &QuerySkillOptions::default());
        assert_eq!(
            full,
            "[skill] Ünï\n[task] zz\n\nNo relevant documentation was retrieved for this task. \
             Do not answer beyond the indexed evidence."
        );
    }
}
