//! `skillnav validate`, `list`, `topics` and `catalog`: the per-skill subcommands.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::formats::catalog;
use crate::frontmatter;
use crate::model::{Corpus, Flag, NodeId, NodeKind};
use crate::skill::listing::{ListingEntry, ListingFormat, ListingOptions, format_listing};
use crate::skill::validate::{
    Profile, SkillReport, has_errors, report_json, report_lines, validate_skill_md,
};
use crate::tokens::TokenCounter;
use crate::util::sanitize::sanitize_line;

/// A skill node with its SKILL.md file node, text and absolute path.
struct SkillFile<'a> {
    skill: NodeId,
    text: &'a str,
    path: PathBuf,
    folder: String,
}

fn skill_files(corpus: &Corpus) -> Vec<SkillFile<'_>> {
    let mut out = Vec::new();
    for n in corpus.all_preorder() {
        let node = corpus.node(n);
        if node.kind != NodeKind::Skill || corpus.is_copy(n) {
            continue;
        }
        let Some(file) = node.children.iter().copied().find(|c| {
            let f = corpus.node(*c);
            f.kind == NodeKind::File && (f.title == "SKILL.md" || f.title == "skill.md")
        }) else {
            continue;
        };
        let Some(span) = corpus.node(file).span else { continue };
        let src = &corpus.sources[span.source.0 as usize];
        let path = src.abs_path.clone().unwrap_or_else(|| PathBuf::from(&corpus.node(file).path));
        let folder = path
            .parent()
            .and_then(Path::file_name)
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push(SkillFile { skill: n, text: &src.text, path, folder });
    }
    out
}

/// `validate`: findings per skill; returns the exit code (1 when any error, else 0).
pub fn validate(
    out: &mut dyn Write,
    corpus: &Corpus,
    profile: &str,
    counter: TokenCounter,
    as_json: bool,
) -> anyhow::Result<i32> {
    let profile = Profile::parse(profile).context("unknown --profile")?;
    let mut reports = Vec::new();
    for s in skill_files(corpus) {
        let body = frontmatter::parse(s.text).map_or(s.text, |fm| s.text.get(fm.block.end..).unwrap_or(""));
        let findings = validate_skill_md(s.text, &s.folder, Some(counter.count(body)), profile);
        reports.push(SkillReport {
            path: s.path.display().to_string(),
            name: corpus.node(s.skill).title.clone(),
            findings,
        });
    }
    let errors = reports.iter().any(|r| has_errors(&r.findings));
    if as_json {
        serde_json::to_writer_pretty(&mut *out, &report_json(profile, &reports))?;
        writeln!(out)?;
    } else {
        for r in &reports {
            for line in report_lines(r) {
                writeln!(out, "{}", sanitize_line(&line))?;
            }
        }
        let (e, w) = reports.iter().flat_map(|r| &r.findings).fold((0, 0), |(e, w), f| {
            if f.severity == crate::skill::validate::Severity::Error { (e + 1, w) } else { (e, w + 1) }
        });
        let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        writeln!(
            out,
            "{} checked ({}): {}, {}",
            n(reports.len(), "skill", "skills"),
            profile.as_str(),
            n(e, "error", "errors"),
            n(w, "warning", "warnings")
        )?;
    }
    Ok(i32::from(errors))
}

/// `list`: the listing of every skill that is not shadowed, in tree order.
pub fn list(
    out: &mut dyn Write,
    corpus: &Corpus,
    format: &str,
    max_chars: Option<usize>,
) -> anyhow::Result<()> {
    let format = ListingFormat::parse(format).context("unknown --format")?;
    let entries: Vec<ListingEntry> = skill_files(corpus)
        .into_iter()
        .filter(|s| !corpus.node(s.skill).flags.has(Flag::Shadowed))
        .map(|s| {
            let location = s.path.display().to_string();
            let mut e = match frontmatter::parse(s.text) {
                Some(fm) => ListingEntry::from_frontmatter(&fm, &s.folder, &location),
                None => ListingEntry {
                    name: s.folder.clone(),
                    description: String::new(),
                    when_to_use: None,
                    location,
                },
            };
            // Namespaced titles (`--namespace`) carry the scope prefix.
            if corpus.node(s.skill).title.ends_with(&format!(":{}", e.name)) {
                e.name = corpus.node(s.skill).title.clone();
            }
            e
        })
        .collect();
    let text = format_listing(&entries, ListingOptions { format, max_chars, ..Default::default() });
    writeln!(out, "{text}")?;
    Ok(())
}

/// `topics`: catalog sections by complexity with sizes, per skill that has (or, for a
/// `Skill_Seekers` skill, can generate) a catalog.
pub fn topics(out: &mut dyn Write, corpus: &Corpus) -> anyhow::Result<()> {
    let mut any = false;
    for s in skill_files(corpus) {
        let Some(dir) = s.path.parent() else { continue };
        let text = match catalog::find_catalog(dir) {
            Some(p) => std::fs::read_to_string(&p).with_context(|| p.display().to_string())?,
            None => match catalog::generate_catalog(dir) {
                Ok(v) => v.to_string(),
                Err(_) => continue,
            },
        };
        let cat = catalog::parse_catalog(&text).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
        any = true;
        writeln!(out, "{}", sanitize_line(&corpus.node(s.skill).title))?;
        for g in catalog::topics(&cat) {
            let size = crate::util::human::human_bytes(g.size_bytes);
            writeln!(out, "  {} — {} sections, {size}", g.complexity, g.sections.len())?;
            for sec in &g.sections {
                let sz = crate::util::human::human_bytes(sec.size_bytes);
                writeln!(out, "    {}  {sz}  [{}]", sanitize_line(&sec.title), sanitize_line(&sec.id))?;
            }
        }
    }
    if !any {
        anyhow::bail!("no catalog.json found and no Skill_Seekers skill to generate one from");
    }
    Ok(())
}

/// `catalog SKILL_DIR`: the generated catalog.json, pretty-printed.
pub fn catalog(out: &mut dyn Write, skill_dir: &Path) -> anyhow::Result<()> {
    let v = catalog::generate_catalog(skill_dir)?;
    serde_json::to_writer_pretty(&mut *out, &v)?;
    writeln!(out)?;
    Ok(())
}
