//! Which skills an SEP-2640 listing may carry, and the frontmatter it serves for each
//! (docs/MCP.md "Which skills are listed"). A skill is listable when its `SKILL.md` keeps
//! the Agent Skills rules ([`crate::skill::validate::listing_blockers`]: the Spec profile's
//! errors but `unknown-key` and `name-folder`) and an SEP-2640 host can read back exactly
//! the frontmatter served: the fences a host looks for, and `name` and `description` as
//! YAML strings a host accepts. The served frontmatter is every field as a YAML 1.2 reader
//! gives it ([`crate::frontmatter::typed::typed_values`]), never a trimmed or re-folded
//! copy. A skill that is not listable is still served by the tools (search, read,
//! outline, brief, `load_skill`); this module only says why it is left out of the SEP
//! surfaces.

use serde_json::{Map, Value as Json};

use crate::frontmatter::{self, Frontmatter, LineEnding};
use crate::model::{Corpus, Flag, NodeId};
use crate::skill::validate::{DESCRIPTION_MAX_CHARS, Finding, listing_blockers};

/// Why a skill is left out of `skills/list`: a rule id (a `validate` rule such as
/// `description-length`, or one of the `sep-…` rules of this module) and one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// The rule id.
    pub rule: String,
    /// What is wrong, in one line.
    pub message: String,
}

impl Reason {
    fn new(rule: &str, message: impl Into<String>) -> Self {
        Self {
            rule: rule.to_string(),
            message: message.into(),
        }
    }
}

impl From<Finding> for Reason {
    fn from(f: Finding) -> Self {
        let message = match f.line {
            Some(l) => format!("{} (line {l})", f.message),
            None => f.message,
        };
        Self {
            rule: f.rule.to_string(),
            message,
        }
    }
}

/// The `sep-duplicate-name` reason of the skill node `skill` (listed as `name`) when the
/// loader's same-name rule shadows it, citing the loader's warning (`shadowed by <id> (same
/// skill name…)`); `None` when it is not shadowed.
pub fn shadowed(corpus: &Corpus, skill: NodeId, name: &str) -> Option<Reason> {
    let node = corpus.node(skill);
    if !node.flags.has(Flag::Shadowed) {
        return None;
    }
    let why = node
        .warnings
        .iter()
        .find(|w| w.message.starts_with("shadowed by"))
        .map_or("shadowed by a skill of the same name", |w| &w.message);
    Some(Reason::new(
        "sep-duplicate-name",
        format!("skill://{name}/SKILL.md: {why}"),
    ))
}

/// The `sep-duplicate-name` reason of a listable skill named `name` when the skill whose
/// `SKILL.md` is `first` already serves that name (one URI, `skill://<name>/SKILL.md`).
pub fn duplicate(name: &str, first: &std::path::Path) -> Reason {
    Reason::new(
        "sep-duplicate-name",
        format!(
            "skill://{name}/SKILL.md is already served by {}",
            first.display()
        ),
    )
}

/// A skill the SEP-2640 surfaces leave out ([`super::skills::left_out`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    /// Its name (the frontmatter's, else the folder's).
    pub name: String,
    /// Its `SKILL.md`: the absolute path when known.
    pub path: String,
    /// The skill node's id, which `read` and `outline` take; `None` for a `SKILL.md` that
    /// could not be read.
    pub id: Option<String>,
    /// Why, in rule order.
    pub reasons: Vec<Reason>,
}

impl LeftOut {
    /// `rule: message; rule: message`.
    fn reasons_text(&self) -> String {
        self.reasons
            .iter()
            .map(|r| format!("{}: {}", r.rule, r.message))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// What the server writes to standard error after each load that leaves skills out: a
/// head line, then one line per skill, `  NAME (PATH): rule: message; …`, every line
/// starting with `skillnav: `. Empty when nothing is left out.
pub fn stderr_lines(left: &[LeftOut]) -> Vec<String> {
    if left.is_empty() {
        return Vec::new();
    }
    let mut out = vec![format!(
        "skillnav: skills/list leaves out {} (Agent Skills rules, docs/MCP.md); search, read, outline, brief and load_skill still serve {}:",
        crate::util::human::plural(left.len(), "skill"),
        if left.len() == 1 { "it" } else { "them" }
    )];
    out.extend(
        left.iter()
            .map(|l| format!("skillnav:   {} ({}): {}", l.name, l.path, l.reasons_text())),
    );
    out
}

/// The `instructions` section naming the skills left out of `skills/list`, one
/// `- NAME (id ID): rule: message; …` line each, ending in a newline; empty when none is.
pub fn instructions_section(left: &[LeftOut]) -> String {
    if left.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\nLeft out of skills/list because they break the Agent Skills rules (still served by search, read, outline, brief and load_skill):\n",
    );
    for l in left {
        let at = l.id.as_deref().unwrap_or(&l.path);
        out.push_str(&format!("- {} (id {at}): {}\n", l.name, l.reasons_text()));
    }
    out
}

/// A skill's frontmatter as SEP-2640 serves it: every field as a YAML 1.2 core-schema reader
/// gives it (a clip-chomped block scalar keeps its final line break, `1.10` is a number).
#[derive(Clone, Debug, PartialEq)]
pub struct ServedFrontmatter {
    /// `name`, exactly as the YAML holds it.
    pub name: String,
    /// `description`, exactly as the YAML holds it.
    pub description: String,
    /// Every other field, keys sorted.
    pub extra: Map<String, Json>,
}

/// Whether `name` is a skill name an SEP-2640 host accepts as written, untrimmed: 1–64
/// characters of `a`–`z`, `0`–`9` and `-`, no leading, trailing or doubled hyphen (the
/// Agent Skills name rule; the hosts' check, like the MCP Inspector's, is ASCII only).
pub fn sep_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= crate::skill::NAME_MAX_CHARS
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// Check the `SKILL.md` text of a skill in folder `folder_name`: the frontmatter to serve,
/// or every reason it may not be listed. The reasons come in steps, each only when the
/// previous passed: the Agent Skills rules (`validate`'s findings, with their file line),
/// then the `sep-fence` rule (a host reads the YAML between a `---` first line and the next
/// `---` line: no byte-order mark, no lone-CR line breaks, no `...` closing fence), then
/// `sep-yaml` (the values have a JSON form), then `sep-name` and `sep-description` (YAML
/// strings, a host-valid name, a description of 1–1024 characters counted untrimmed).
pub fn check(text: &str, folder_name: &str) -> Result<ServedFrontmatter, Vec<Reason>> {
    let blockers = listing_blockers(text, folder_name);
    if !blockers.is_empty() {
        return Err(blockers.into_iter().map(Reason::from).collect());
    }
    let fm = frontmatter::parse(text)
        .filter(|f| f.block.end > 0)
        .ok_or_else(|| {
            vec![Reason::new(
                "frontmatter-missing",
                "SKILL.md must start with a --- frontmatter block",
            )]
        })?;
    if let Some(r) = fence_problem(text, &fm) {
        return Err(vec![r]);
    }
    let yaml = host_yaml(text.get(fm.yaml.clone()).unwrap_or(""));
    if let Some(why) = readers_disagree(yaml) {
        return Err(vec![Reason::new(
            "sep-yaml",
            format!(
                "{why}: YAML readers give it different values, so a host may not read back the frontmatter served; quote the value"
            ),
        )]);
    }
    if let Some(line) = not_utf8_line(yaml) {
        return Err(vec![Reason::new(
            "sep-yaml",
            format!(
                "line {} of the frontmatter holds bytes that are not UTF-8, which no host reads back as written; save SKILL.md as UTF-8",
                line + 1
            ),
        )]);
    }
    let values = frontmatter::typed::typed_values(yaml).map_err(|(_, msg)| {
        vec![Reason::new(
            "sep-yaml",
            format!("the frontmatter has no JSON form to serve: {msg}"),
        )]
    })?;
    served(values)
}

/// The 0-based line of `yaml` (the text between the fences) holding the stand-in of a byte
/// that is not UTF-8 ([`crate::model::INVALID_BYTE_PLACEHOLDER`]), if any.
fn not_utf8_line(yaml: &str) -> Option<usize> {
    let stand_in = char::from(crate::model::INVALID_BYTE_PLACEHOLDER);
    yaml.lines().position(|l| l.contains(stand_in))
}

/// The YAML an SEP-2640 host reads between the fences: the lines up to the closing `---`
/// less the line break that ends the last one (it belongs to the fence). Only a keep-chomped
/// block scalar (`|+`, `>+`) at the end sees the difference: its trailing blank lines.
fn host_yaml(between: &str) -> &str {
    between
        .strip_suffix("\r\n")
        .or_else(|| between.strip_suffix('\n'))
        .unwrap_or(between)
}

/// What in `yaml` YAML readers give different values for, if anything: an explicit tag
/// (`!!binary`, `!!float 1`: a reader may resolve it, keep the text or refuse it), a merge
/// key (`<<`, YAML 1.1 only), or a plain scalar that YAML 1.1 reads as a number and the
/// YAML 1.2 core schema as text (`0b101`, `+0x1`, `-0o7`; serde-saphyr reads them as
/// numbers). Node starts are looked for where block and flow nodes begin (after `key: `,
/// `- `, `[`, `{`, `,`), never inside quotes or block scalar bodies.
fn readers_disagree(yaml: &str) -> Option<&'static str> {
    let mut block: Option<usize> = None;
    for line in yaml.lines() {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim();
        match block {
            Some(at) if body.is_empty() || indent > at => continue,
            _ => block = None,
        }
        if body.starts_with('#') {
            continue;
        }
        if let Some(why) = nodes(body).find_map(node_problem) {
            return Some(why);
        }
        let value = body.split(" #").next().unwrap_or(body).trim_end();
        let last = value.rsplit([' ', ':']).next().unwrap_or("");
        if (value.ends_with(['|', '>']) || last.starts_with(['|', '>'])) && !last.is_empty() {
            block = Some(indent);
        }
    }
    None
}

/// The node texts that start on one trimmed line: the first, and each after `: `, `- `,
/// `[`, `{` or `,` outside quotes, up to the next indicator.
fn nodes(line: &str) -> impl Iterator<Item = &str> {
    let mut starts = vec![0];
    let (mut single, mut double) = (false, false);
    let bytes = line.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'[' | b'{' | b',' if !single && !double => starts.push(i + 1),
            b':' | b'-' if !single && !double && bytes.get(i + 1) == Some(&b' ') => {
                starts.push(i + 2);
            }
            _ => {}
        }
    }
    starts.into_iter().map(move |s| {
        let rest = line[s..].trim_start();
        let end = rest.find([',', ']', '}', '#']).unwrap_or(rest.len());
        rest[..end].trim_end()
    })
}

/// Why the node text `node` reads differently across YAML readers ([`readers_disagree`]).
fn node_problem(node: &str) -> Option<&'static str> {
    if node.starts_with('!') {
        return Some("an explicit tag");
    }
    if node == "<<" || node.starts_with("<<:") {
        return Some("a merge key (<<)");
    }
    let token = node.split(": ").next().unwrap_or(node);
    let unsigned = token.strip_prefix(['+', '-']).unwrap_or(token);
    let digits = |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c.is_digit(radix));
    let binary = unsigned.strip_prefix("0b").is_some_and(|d| digits(d, 2));
    let signed = token.len() != unsigned.len()
        && (unsigned.strip_prefix("0x").is_some_and(|d| digits(d, 16))
            || unsigned.strip_prefix("0o").is_some_and(|d| digits(d, 8)));
    (binary || signed).then_some("a YAML 1.1 number such as 0b101 or +0x1")
}

/// The `sep-fence` reason when a host would not find the frontmatter block `fm` of `text`
/// where the lenient parser found it.
fn fence_problem(text: &str, fm: &Frontmatter) -> Option<Reason> {
    let block = text.get(..fm.block.end).unwrap_or(text);
    let why = if fm.bom {
        "the file starts with a byte-order mark"
    } else if fm.line_ending == LineEnding::Cr {
        "its lines end in a lone CR"
    } else if block
        .match_indices('\r')
        .any(|(i, _)| !block[i + 1..].starts_with('\n'))
    {
        "a line of the frontmatter ends in a lone CR (hosts disagree where its lines end)"
    } else if fence_after_separator(block) {
        "a `---` follows a U+2028 or U+2029 (JavaScript hosts read those as line breaks and close the frontmatter there)"
    } else if !text
        .get(fm.yaml.end..fm.block.end)
        .is_some_and(|close| close.starts_with("---"))
    {
        "the frontmatter closes with `...`"
    } else {
        return None;
    };
    Some(Reason::new(
        "sep-fence",
        format!(
            "{why}; SEP-2640 hosts read the frontmatter between a first `---` line and the next `---` line"
        ),
    ))
}

/// Whether `block` holds a U+2028 or U+2029 followed by `---` and then only spaces or tabs
/// up to a line end: a JavaScript multiline `^---[ \t]*$` (the Inspector's fence) matches
/// there.
fn fence_after_separator(block: &str) -> bool {
    block
        .match_indices(['\u{2028}', '\u{2029}'])
        .any(|(i, sep)| {
            let rest = &block[i + sep.len()..];
            rest.strip_prefix("---").is_some_and(|after| {
                let after = after.trim_start_matches([' ', '\t']);
                after.is_empty() || after.starts_with(['\r', '\n', '\u{2028}', '\u{2029}'])
            })
        })
}

/// Whether `c` is white space to JavaScript's `String.prototype.trim` (ECMAScript
/// `WhiteSpace` and `LineTerminator`), as SEP-2640 hosts written in it test a description for
/// emptiness: U+FEFF is (Rust's `char::is_whitespace` says it is not).
fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{B}' | '\u{C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// Split `values` into the served frontmatter, or the `sep-name` / `sep-description`
/// reasons.
fn served(mut values: Map<String, Json>) -> Result<ServedFrontmatter, Vec<Reason>> {
    let name = values.remove("name");
    let description = values.remove("description");
    let mut reasons = Vec::new();
    let name = match name {
        Some(Json::String(n)) if sep_name(&n) => Some(n),
        other => {
            reasons.push(Reason::new(
                "sep-name",
                format!(
                    "name {} is not a YAML string of 1–64 a-z, 0-9 and single inner hyphens",
                    shown(other.as_ref())
                ),
            ));
            None
        }
    };
    let description = match description {
        Some(Json::String(d)) if !d.trim_matches(js_space).is_empty() => {
            let n = d.chars().count();
            if n > DESCRIPTION_MAX_CHARS {
                reasons.push(Reason::new(
                    "sep-description",
                    format!(
                        "description is {n} characters as served (untrimmed); the limit is {DESCRIPTION_MAX_CHARS}"
                    ),
                ));
            }
            Some(d)
        }
        other => {
            reasons.push(Reason::new(
                "sep-description",
                format!(
                    "description {} is not a non-empty YAML string",
                    shown(other.as_ref())
                ),
            ));
            None
        }
    };
    match (name, description) {
        (Some(name), Some(description)) if reasons.is_empty() => Ok(ServedFrontmatter {
            name,
            description,
            extra: values,
        }),
        _ => Err(reasons),
    }
}

/// A value in a message: its JSON, or `(missing)`.
fn shown(v: Option<&Json>) -> String {
    v.map_or_else(|| "(missing)".to_string(), Json::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(r: Result<ServedFrontmatter, Vec<Reason>>) -> Vec<String> {
        r.err()
            .unwrap_or_default()
            .into_iter()
            .map(|r| r.rule)
            .collect()
    }

    #[test]
    fn clip_chomped_block_description_keeps_its_final_line_break() {
        let text = "---\nname: pdf\ndescription: >\n  Folded multi-line\n  text.\nversion: 2.1.0\n---\nbody\n";
        let fm = check(text, "pdf").unwrap_or_else(|r| panic!("{r:?}"));
        assert_eq!(fm.description, "Folded multi-line text.\n");
        assert_eq!(fm.extra.get("version"), Some(&Json::from("2.1.0")));
    }

    #[test]
    fn a_cp1252_quote_in_the_frontmatter_is_named_as_bytes_that_are_not_utf8() {
        // `\x93hello\x94` read from a cp1252 file: each bad byte is held as its stand-in.
        let text = "---\nname: s1\ndescription: Use when the user says \u{1a}hello\u{1a}.\n---\n";
        let reasons = check(text, "s1").unwrap_err();
        assert_eq!(reasons.len(), 1);
        assert_eq!(reasons[0].rule, "sep-yaml");
        assert!(
            reasons[0]
                .message
                .starts_with("line 2 of the frontmatter holds bytes that are not UTF-8"),
            "{}",
            reasons[0].message
        );
        assert!(
            !reasons[0].message.contains("\\u{1a}"),
            "{}",
            reasons[0].message
        );
    }

    #[test]
    fn unknown_keys_and_another_folder_name_do_not_block_listing() {
        let text = "---\nname: db-debug\ndescription: Diagnose\nwhenToUse: slow SQL\n---\n";
        let fm = check(text, "valid-full").unwrap_or_else(|r| panic!("{r:?}"));
        assert_eq!(fm.name, "db-debug");
        assert_eq!(fm.extra.get("whenToUse"), Some(&Json::from("slow SQL")));
    }

    #[test]
    fn an_unclosed_frontmatter_is_left_out_for_its_missing_fields() {
        let text = "---\nname: broken\ndescription: never closes\n\nbody\n";
        assert_eq!(
            rules(check(text, "broken")),
            ["name-missing", "description-missing"]
        );
    }

    #[test]
    fn a_description_over_1024_characters_is_left_out() {
        let text = format!("---\nname: long\ndescription: {}\n---\n", "x".repeat(1025));
        assert_eq!(rules(check(&text, "long")), ["description-length"]);
    }

    #[test]
    fn a_description_over_the_limit_only_with_its_kept_line_break_is_left_out() {
        let text = format!(
            "---\nname: edge\ndescription: |\n  {}\n---\n",
            "x".repeat(1024)
        );
        assert_eq!(rules(check(&text, "edge")), ["sep-description"]);
    }

    #[test]
    fn a_name_a_yaml_reader_types_as_a_number_is_left_out() {
        let text = "---\nname: 2024\ndescription: d\n---\n";
        assert_eq!(rules(check(text, "2024")), ["sep-name"]);
    }

    #[test]
    fn a_keep_chomped_description_is_served_without_the_line_break_of_the_closing_fence() {
        let text = "---\nname: k\ndescription: |+\n  a\n\n---\nB\n";
        let fm = check(text, "k").unwrap_or_else(|r| panic!("{r:?}"));
        assert_eq!(fm.description, "a\n");
        let crlf = text.replace('\n', "\r\n");
        let fm = check(&crlf, "k").unwrap_or_else(|r| panic!("{r:?}"));
        assert_eq!(fm.description, "a\n");
    }

    #[test]
    fn tags_merge_keys_and_yaml_1_1_numbers_are_left_out_and_their_look_alikes_are_not() {
        for yaml in [
            "license: 0b11",
            "metadata: {a: 0b101}",
            "metadata:\n  a: +0x1",
            "keywords:\n  - -0o7",
            "metadata:\n  a: !!float 1",
            "description2: !!binary aGVsbG8=",
            "keywords: [1, !custom x]",
            "base: &b {a: 1}\nmetadata:\n  <<: *b",
        ] {
            let text = format!("---\nname: k\ndescription: d\n{yaml}\n---\n");
            assert_eq!(rules(check(&text, "k")), ["sep-yaml"], "{yaml}");
        }
        for yaml in [
            "license: '0b11'",
            "metadata: {a: \"+0x1\"}",
            "note: flags such as 0b101 or +0x1 stay text here!",
            "note: Hello! !important",
            "metadata: {a: 0x1F, b: 0o17}",
            "note: |\n  !!binary in a block scalar\n  0b101\nafter: 1",
        ] {
            let text = format!("---\nname: k\ndescription: d\n{yaml}\n---\n");
            assert!(
                check(&text, "k").is_ok(),
                "{yaml}: {:?}",
                rules(check(&text, "k"))
            );
        }
    }

    #[test]
    fn fences_a_host_cannot_find_are_left_out() {
        let bom = "\u{FEFF}---\nname: a\ndescription: d\n---\n";
        let dots = "---\nname: a\ndescription: d\n...\n";
        let cr_before_fence = "---\r\nname: a\r\ndescription: d\r\r\n---\r\n";
        let separator = "---\nname: a\ndescription: d\u{2028}---\n---\n";
        let commented = "---\nname: a\n# note\u{2029}--- \t\ndescription: d\n---\n";
        for text in [bom, dots, cr_before_fence, separator, commented] {
            assert_eq!(rules(check(text, "a")), ["sep-fence"], "{text:?}");
        }
        // A separator not followed by a fence, and CRLF throughout, are read alike.
        for text in [
            "---\nname: a\ndescription: d\u{2028}--- e\n---\n",
            "---\r\nname: a\r\ndescription: d\r\n---\r\n",
        ] {
            assert!(check(text, "a").is_ok(), "{text:?}");
        }
    }

    #[test]
    fn a_description_empty_to_a_javascript_trim_is_left_out() {
        let bom_only = "---\nname: a\ndescription: \"\\uFEFF \"\n---\n";
        assert_eq!(rules(check(bom_only, "a")), ["sep-description"]);
        let text = "---\nname: a\ndescription: \"\\uFEFF d\"\n---\n";
        assert!(check(text, "a").is_ok());
    }

    /// Tolerating a rule only means something for a rule the Spec profile calls an error.
    #[test]
    fn tolerated_rules_are_spec_errors_that_claude_code_tolerates() {
        use crate::skill::severity::{Severity, severity};
        use crate::skill::validate::{LISTING_TOLERATED, Profile};
        for rule in LISTING_TOLERATED {
            assert_eq!(
                (
                    severity(rule, Profile::Spec),
                    severity(rule, Profile::ClaudeCode)
                ),
                (Severity::Error, Severity::Warning),
                "{rule}"
            );
        }
    }

    #[test]
    fn sep_names_are_ascii_lower_case_with_single_inner_hyphens() {
        assert!(sep_name("pdf-tools-2"));
        for bad in [
            "",
            "Pdf",
            "pdf ",
            "-pdf",
            "pdf-",
            "a--b",
            "café",
            &"a".repeat(65),
        ] {
            assert!(!sep_name(bad), "{bad:?}");
        }
    }
}
