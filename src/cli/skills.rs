//! `skillnav validate`, `list`, `topics` and `catalog`: the per-skill subcommands.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::formats::catalog;
use crate::frontmatter;
use crate::model::{Corpus, Flag, NodeId, NodeKind};
use crate::skill::clients::{self, Client, ClientOptions, Status, report};
use crate::skill::listing::{ListingEntry, ListingFormat, ListingOptions, format_listing};
use crate::skill::validate::{
    Finding, Profile, Severity, SkillReport, has_errors, report_json, report_lines,
    validate_skill_md,
};
use crate::tokens::TokenCounter;
use crate::util::sanitize::{sanitize, sanitize_line};

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
        // A `SKILL.md` that links to another file of the root is read from that file.
        let (file, path) = match crate::formats::skill::md_file(corpus, file) {
            Some(found) => found,
            None => (file, PathBuf::from(&*corpus.node(file).path)),
        };
        let Some(span) = corpus.node(file).span else {
            continue;
        };
        let src = &corpus.sources[span.source.0 as usize];
        let folder = path
            .parent()
            .and_then(Path::file_name)
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push(SkillFile {
            skill: n,
            text: src.text(),
            path,
            folder,
        });
    }
    out
}

/// The skill files `validate` cannot read: those the loaded tree shows, then those only a
/// scan of the opened folders finds (a folder whose only entry is a `SKILL.md` folder or
/// FIFO has no node), each path once, in natural path order.
fn unreadable(
    corpus: &Corpus,
    paths: &[PathBuf],
    profile: Profile,
) -> Vec<crate::skill::unreadable::Unreadable> {
    use crate::skill::unreadable::{special_skill_files_under, unreadable_skill_files};
    let mut all = unreadable_skill_files(corpus, profile);
    all.extend(special_skill_files_under(paths, profile));
    // Stable: of two findings about one path (a linked device is seen both from its
    // folder and as a file the loader did not read), the tree's first one stays.
    all.sort_by(|a, b| crate::formats::walk::natural_path_cmp(&a.path, &b.path));
    all.dedup_by(|b, a| a.path == b.path);
    all
}

/// `validate`: findings per skill; returns the exit code (1 when any error, else 0).
pub fn validate(
    out: &mut dyn Write,
    corpus: &Corpus,
    paths: &[PathBuf],
    profile_name: &str,
    context_tokens: Option<u64>,
    counter: TokenCounter,
    as_json: bool,
) -> anyhow::Result<i32> {
    let client = Client::parse(profile_name);
    // A client profile other than Claude Code checks the frontmatter by the spec's rules.
    let profile = match client {
        Some(Client::ClaudeCode) => Profile::ClaudeCode,
        Some(_) => Profile::Spec,
        None => Profile::parse(profile_name).context("unknown --profile")?,
    };
    let (mut reports, report_skills) = skill_reports(corpus, profile, counter);
    for u in unreadable(corpus, paths, profile) {
        reports.push(SkillReport {
            path: u.path,
            name: u.name,
            findings: vec![u.finding],
        });
    }
    let skills_checked = reports.len();
    add_corpus_lints(corpus, profile, &report_skills, &mut reports);
    if let Some(client) = client {
        for (node, f) in client_findings(corpus, client, context_tokens, profile) {
            if let Some(i) = report_skills.iter().position(|n| *n == node) {
                reports[i].findings.push(f);
            }
        }
    }
    let pairs = super::collisions::add_overlaps(&listing_entries(corpus), profile, &mut reports);
    let errors = reports.iter().any(|r| has_errors(&r.findings));
    if as_json {
        let mut doc = report_json(profile, &reports);
        doc["profile"] = serde_json::Value::from(profile_name);
        if !pairs.is_empty() {
            doc["overlaps"] = serde_json::Value::Array(pairs);
        }
        super::json_out::write_json(out, &doc)?;
    } else {
        write_text_report(out, profile_name, skills_checked, &reports)?;
    }
    Ok(i32::from(errors))
}

/// One report per readable skill file: its SKILL.md findings, then the findings of the
/// lints that read the whole skill folder ([`crate::skill::folder_lints`]); with the
/// skill node of each report, in the same order.
fn skill_reports(
    corpus: &Corpus,
    profile: Profile,
    counter: TokenCounter,
) -> (Vec<SkillReport>, Vec<NodeId>) {
    let mut reports = Vec::new();
    let mut report_skills = Vec::new();
    let mut served: std::collections::HashMap<String, PathBuf> = std::collections::HashMap::new();
    for s in skill_files(corpus) {
        report_skills.push(s.skill);
        let body = frontmatter::parse(s.text)
            .map_or(s.text, |fm| s.text.get(fm.block.end..).unwrap_or(""));
        let mut findings = validate_skill_md(s.text, &s.folder, Some(counter.count(body)), profile);
        findings.extend(sep_findings(corpus, &s, profile, &mut served));
        findings.extend(
            s.path
                .parent()
                .map(|d| crate::skill::folder_lints(d, profile))
                .unwrap_or_default(),
        );
        reports.push(SkillReport {
            path: s.path.display().to_string(),
            name: corpus.node(s.skill).title.clone(),
            findings,
        });
    }
    (reports, report_skills)
}

/// Why `skillnav mcp` leaves the skill `s` out of its SEP-2640 `skills/list` when the
/// Agent Skills rules do not say it, as findings, so `validate` names every skill the
/// server leaves out: the `sep-…` rules of [`crate::agent::listable::check`], and
/// `sep-duplicate-name` for a skill the loader's same-name rule shadows or whose name a
/// skill before it in `served` (names to `SKILL.md` paths, filled here) already serves.
fn sep_findings(
    corpus: &Corpus,
    s: &SkillFile<'_>,
    profile: Profile,
    served: &mut std::collections::HashMap<String, PathBuf>,
) -> Vec<Finding> {
    sep_reasons(corpus, s, served)
        .into_iter()
        .filter_map(|r| {
            let rule = SEP_RULES.into_iter().find(|id| *id == r.rule)?;
            Some(Finding {
                file: None,
                severity: crate::skill::severity::severity(rule, profile),
                rule,
                message: format!("left out of an SEP-2640 skills/list: {}", r.message),
                line: None,
            })
        })
        .collect()
}

/// The reasons `skillnav mcp` leaves `s` out of its listing, as [`sep_findings`] says.
fn sep_reasons(
    corpus: &Corpus,
    s: &SkillFile<'_>,
    served: &mut std::collections::HashMap<String, PathBuf>,
) -> Vec<crate::agent::listable::Reason> {
    use crate::agent::listable;
    if let Some(r) = listable::shadowed(corpus, s.skill, &corpus.node(s.skill).title) {
        return vec![r];
    }
    let fm = match listable::check(s.text, &s.folder) {
        Ok(fm) => fm,
        Err(reasons) => return reasons,
    };
    if let Some(first) = served.get(&fm.name) {
        return vec![listable::duplicate(&fm.name, first)];
    }
    served.insert(fm.name, s.path.clone());
    Vec::new()
}

/// The `sep-…` rules of [`crate::agent::listable`] that `validate` reports (the others
/// are Agent Skills rules it reports already).
const SEP_RULES: [&str; 5] = [
    "sep-fence",
    "sep-yaml",
    "sep-name",
    "sep-description",
    "sep-duplicate-name",
];

/// The corpus-wide lints `validate` reports ([`crate::skill::lints::in_validate`]), each
/// added to its skill's report, or as a report of its own for a file outside any skill.
fn add_corpus_lints(
    corpus: &Corpus,
    profile: Profile,
    report_skills: &[NodeId],
    reports: &mut Vec<SkillReport>,
) {
    let first_other = reports.len();
    for mut l in crate::skill::lints::lints(corpus) {
        let rule = l.finding.rule;
        l.finding.severity = crate::skill::severity::severity(rule, profile);
        if !crate::skill::lints::in_validate(rule)
            || (crate::skill::lints::claude_code_only(rule) && profile != Profile::ClaudeCode)
        {
            continue;
        }
        if let Some((i, sk)) = l
            .skill
            .and_then(|sk| report_skills.iter().position(|r| *r == sk).map(|i| (i, sk)))
        {
            // A finding in another file of the skill (a doc tree under references/) names
            // that file, relative to the skill folder.
            if l.node != sk && l.finding.file.is_none() {
                l.finding.file = relative_to_skill(corpus, l.node, sk);
            }
            reports[i].findings.push(l.finding);
        } else {
            let n = corpus.node(l.node);
            let path = disk_path(corpus, l.node)
                .map_or_else(|| n.path.to_string(), |p| p.display().to_string());
            // One report per path, however many findings it has.
            match reports
                .iter_mut()
                .skip(first_other)
                .find(|r| r.path == path)
            {
                Some(r) => r.findings.push(l.finding),
                None => reports.push(SkillReport {
                    path,
                    name: n.title.clone(),
                    findings: vec![l.finding],
                }),
            }
        }
    }
}

/// The path of node `id`'s file or folder relative to skill `skill`'s folder, `/`-separated.
fn relative_to_skill(corpus: &Corpus, id: NodeId, skill: NodeId) -> Option<String> {
    let at = disk_path(corpus, id)?;
    let md = disk_path(corpus, crate::skill::skill_md(corpus, skill)?)?;
    let rel = at.strip_prefix(md.parent()?).ok()?;
    Some(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// Where node `id` is on disk: its file's path, or for a folder the folder of a file below
/// it; `None` for a node without files (or none read from disk).
fn disk_path(corpus: &Corpus, id: NodeId) -> Option<PathBuf> {
    let n = corpus.node(id);
    if let Some(sp) = n.span {
        return corpus.sources.get(sp.source.0 as usize)?.abs_path.clone();
    }
    n.children
        .iter()
        .find_map(|c| disk_path(corpus, *c))
        .and_then(|p| p.parent().map(std::path::Path::to_path_buf))
}

/// The plain-text report: one line per finding ([`report_lines`], through
/// [`sanitize_line`]), then `N skills checked (profile): E errors, W warnings`, where N
/// counts the first `skills` reports (one per skill file); findings in files outside any
/// skill (a doc tree's, an `llms.txt`) add `, M other paths with findings` after it.
fn write_text_report(
    out: &mut dyn Write,
    profile: &str,
    skills: usize,
    reports: &[SkillReport],
) -> anyhow::Result<()> {
    for r in reports {
        for line in report_lines(r) {
            writeln!(out, "{}", sanitize_line(&line))?;
        }
    }
    let (e, w) = reports
        .iter()
        .flat_map(|r| &r.findings)
        .fold((0, 0), |(e, w), f| {
            if f.severity == Severity::Error {
                (e + 1, w)
            } else {
                (e, w + 1)
            }
        });
    let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let others = reports.len().saturating_sub(skills);
    let others = if others > 0 {
        format!(", {} with findings", n(others, "other path", "other paths"))
    } else {
        String::new()
    };
    writeln!(
        out,
        "{} checked{others} ({}): {}, {}",
        n(skills, "skill", "skills"),
        profile,
        n(e, "error", "errors"),
        n(w, "warning", "warnings")
    )?;
    Ok(())
}

/// The listing entries of every skill that is not shadowed, in tree order.
pub(super) fn listing_entries(corpus: &Corpus) -> Vec<ListingEntry> {
    skill_files(corpus)
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
            if corpus
                .node(s.skill)
                .title
                .ends_with(&format!(":{}", e.name))
            {
                e.name = corpus.node(s.skill).title.clone();
            }
            e
        })
        .collect()
}

/// `list`: the listing of every skill that is not shadowed, in tree order, through
/// [`sanitize`] (control characters and escape sequences never reach the terminal).
pub fn list(
    out: &mut dyn Write,
    corpus: &Corpus,
    format: &str,
    max_chars: Option<usize>,
) -> anyhow::Result<()> {
    let format = ListingFormat::parse(format).context("unknown --format")?;
    let entries = listing_entries(corpus);
    let text = format_listing(
        &entries,
        ListingOptions {
            format,
            max_chars,
            ..Default::default()
        },
    );
    // Names and descriptions come from frontmatter: never let their controls reach a
    // terminal (docs/FORMATS.md §3.5).
    writeln!(out, "{}", sanitize(&text))?;
    Ok(())
}

/// `list --agent X`: the listing as `client` sends it on stdout (through [`sanitize`], as
/// in [`list`]), and on stderr a note per skill it cuts, drops, leaves out or never loads,
/// then the summary line ([`crate::skill::clients::report`]); with `as_json` the
/// [`crate::skill::clients::report::listing_json`] document instead.
pub fn list_client(
    out: &mut dyn Write,
    corpus: &Corpus,
    client: Client,
    context_tokens: Option<u64>,
    as_json: bool,
) -> anyhow::Result<()> {
    let opts = ClientOptions::load(context_tokens);
    let l = clients::client_listing(corpus, client, &opts);
    if as_json {
        super::json_out::write_json(out, &report::listing_json(&l, &opts))?;
        return Ok(());
    }
    if !l.text.is_empty() {
        writeln!(out, "{}", sanitize(&l.text))?;
    }
    let mut err = std::io::stderr().lock();
    for n in report::notes(&l) {
        writeln!(err, "{}", sanitize_line(&n))?;
    }
    writeln!(err, "{}", sanitize_line(&report::summary(&l)))?;
    Ok(())
}

/// `validate --profile X` findings from `client`'s listing, per skill node: a skill it never
/// loads is `client-not-loaded` (an error); for Claude Code an entry over the cap is
/// `listing-entry-cap` and a dropped description `listing-budget`; for the other clients a
/// cut, dropped or unreachable entry is `client-listing` (warnings).
fn client_findings(
    corpus: &Corpus,
    client: Client,
    context_tokens: Option<u64>,
    profile: Profile,
) -> Vec<(NodeId, Finding)> {
    let opts = ClientOptions::load(context_tokens);
    let l = clients::client_listing(corpus, client, &opts);
    let cap = opts.claude_code().entry_cap;
    let mut out = Vec::new();
    for s in &l.skills {
        let (rule, message) = match (s.status, client) {
            (Status::Full, _) => continue,
            (Status::NotLoaded, _) => (
                "client-not-loaded",
                format!(
                    "{} never loads this skill: {}",
                    client.display(),
                    s.why.as_deref().unwrap_or("")
                ),
            ),
            (Status::Truncated, Client::ClaudeCode) => (
                "listing-entry-cap",
                format!(
                    "description + when_to_use is {} chars; Claude Code cuts the entry at {cap} ({} chars lost)",
                    s.entry_chars,
                    s.entry_chars - s.chars_shown
                ),
            ),
            (Status::Dropped, Client::ClaudeCode) => (
                "listing-budget",
                format!(
                    "description dropped from the Claude Code listing: it needs {} of {} chars; only the name is sent",
                    l.needed,
                    l.budget_chars.unwrap_or(0)
                ),
            ),
            (st, _) => (
                "client-listing",
                format!(
                    "{} {}: {}",
                    client.display(),
                    st.as_str(),
                    s.why.as_deref().unwrap_or("")
                ),
            ),
        };
        out.push((
            s.node,
            Finding {
                file: None,
                severity: crate::skill::severity::severity(rule, profile),
                rule,
                message,
                line: None,
            },
        ));
    }
    out
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
        let cat =
            catalog::parse_catalog(&text).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
        any = true;
        writeln!(out, "{}", sanitize_line(&corpus.node(s.skill).title))?;
        for g in catalog::topics(&cat) {
            let size = crate::util::human::human_bytes(g.size_bytes);
            writeln!(
                out,
                "  {} — {} sections, {size}",
                g.complexity,
                g.sections.len()
            )?;
            for sec in &g.sections {
                let sz = crate::util::human::human_bytes(sec.size_bytes);
                writeln!(
                    out,
                    "    {}  {sz}  [{}]",
                    sanitize_line(&sec.title),
                    sanitize_line(&sec.id)
                )?;
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
    super::json_out::write_json(out, &v)?;
    Ok(())
}
