//! Rendered skills: context-chef's `renderSkill` substitution on a skill's
//! body (docs/FORMATS.md §5.3, the interop design's locked semantics), loading a skill folder for
//! it, and the "copy several skills" text: their listing followed by each rendered body.
//!
//! Pure string work; the only I/O is [`load_skill_dir`] reading one `SKILL.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::frontmatter::{self, Value};
use crate::skill::listing::{ListingEntry, ListingOptions, format_listing};

/// Most bytes [`render_body`] produces. Each placeholder copies its argument (`$ARGUMENTS`
/// the whole argument string), so a body of many placeholders can multiply the text:
/// substitution stops at this size and the text ends with [`CAP_NOTE`].
pub const MAX_RENDERED_BYTES: usize = 1024 * 1024;

/// The line appended (after a blank line) when a rendering reached [`MAX_RENDERED_BYTES`].
pub const CAP_NOTE: &str = "[skillnav: rendering stopped at 1 MiB]";

/// Options of [`render_body`] (context-chef `RenderSkillOptions`, docs/FORMATS.md §5.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// The raw argument string. `None` leaves every `$`-placeholder untouched; `Some("")`
    /// empties them all.
    pub args: Option<String>,
    /// `${NAME}` values; names not present are left as written.
    pub vars: BTreeMap<String, String>,
    /// Prepend `Base directory for this skill: <base_dir>` and a blank line (only when the
    /// skill has a base directory).
    pub include_base_dir: bool,
    /// Append `\n\nARGUMENTS: <args>` when no `$`-placeholder changed the text and `args`
    /// is non-empty (context-chef default: true).
    pub append_args_if_no_placeholder: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            args: None,
            vars: BTreeMap::new(),
            include_base_dir: false,
            append_args_if_no_placeholder: true,
        }
    }
}

/// A skill as `renderSkill` sees it: its name, body and argument names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillText {
    /// Listing entry (name, description, when-to-use, absolute SKILL.md location).
    pub entry: ListingEntry,
    /// The body after the frontmatter, trimmed (context-chef `instructions`).
    pub body: String,
    /// Names for `$name` placeholders, in position order (from the frontmatter `arguments`
    /// key: a list, or a string split on whitespace and commas).
    pub argument_names: Vec<String>,
    /// Absolute directory of the SKILL.md (context-chef `baseDir`).
    pub base_dir: Option<PathBuf>,
}

/// Quote-aware split of an argument string (context-chef `parseArgs`): at each position
/// after whitespace, a `"…"` or `'…'` pair (quotes removed, may contain spaces and line
/// breaks, no escapes) or else a run of non-whitespace (an unmatched quote stays in it).
/// Blank input → no tokens. Example: `a "b c" 'd'` → `["a", "b c", "d"]`.
pub fn split_args(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = raw;
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else {
            break;
        };
        if (first == '"' || first == '\'')
            && let Some(close) = rest[1..].find(first)
        {
            out.push(rest[1..=close].to_string());
            rest = &rest[close + 2..];
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        out.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Replace every `${NAME}` (`NAME` = `[A-Za-z_][A-Za-z0-9_]*`) found in `vars`; others kept.
fn substitute_vars(text: &str, vars: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("${") {
        if out.len() > MAX_RENDERED_BYTES {
            return out;
        }
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 2..];
        let name_len = after
            .char_indices()
            .find(|&(i, c)| !(c.is_ascii_alphabetic() || c == '_' || (i > 0 && c.is_ascii_digit())))
            .map_or(after.len(), |(i, _)| i);
        let name = &after[..name_len];
        match vars.get(name) {
            Some(v) if name_len > 0 && after[name_len..].starts_with('}') => {
                out.push_str(v);
                rest = &after[name_len + 1..];
            }
            _ => {
                out.push_str("${");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The placeholder at the start of `at` (which begins with `$`) and its value, in the
/// order context-chef tries them: a named argument `$<name>` not followed by `[` or a word
/// char, `$ARGUMENTS[<digits>]`, `$<digits>` not followed by a word char, `$ARGUMENTS`.
/// Returns (placeholder length in bytes, value); `None` when no placeholder starts here.
/// An index past the tokens gives `""`.
fn placeholder_at<'a>(
    at: &str,
    names: &[String],
    tokens: &'a [String],
    args: &'a str,
) -> Option<(usize, &'a str)> {
    let after = &at[1..];
    let boundary = |rest: &str, bracket_too: bool| {
        !rest
            .chars()
            .next()
            .is_some_and(|c| is_word(c) || (bracket_too && c == '['))
    };
    for (i, name) in names.iter().enumerate() {
        if !name.is_empty()
            && after.starts_with(name.as_str())
            && boundary(&after[name.len()..], true)
        {
            return Some((1 + name.len(), tokens.get(i).map_or("", String::as_str)));
        }
    }
    let token = |digits: &str| {
        digits
            .parse::<usize>()
            .ok()
            .and_then(|i| tokens.get(i))
            .map_or("", String::as_str)
    };
    if let Some(inner) = after.strip_prefix("ARGUMENTS[") {
        let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && inner[digits..].starts_with(']') {
            return Some((11 + digits + 1, token(&inner[..digits])));
        }
    }
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && boundary(&after[digits..], false) {
        return Some((1 + digits, token(&after[..digits])));
    }
    after.starts_with("ARGUMENTS").then_some((10, args))
}

/// One pass over `text`: every `$` placeholder ([`placeholder_at`]) becomes its value,
/// inserted literally (a value holding `$1` or `$ARGUMENTS` is not substituted again).
/// Stops once the output passes [`MAX_RENDERED_BYTES`].
fn substitute_args(text: &str, names: &[String], tokens: &[String], args: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find('$') {
        if out.len() > MAX_RENDERED_BYTES {
            return out;
        }
        out.push_str(&rest[..pos]);
        let at = &rest[pos..];
        if let Some((len, value)) = placeholder_at(at, names, tokens, args) {
            out.push_str(value);
            rest = &at[len..];
        } else {
            out.push('$');
            rest = &at[1..];
        }
    }
    out.push_str(rest);
    out
}

/// context-chef `renderSkill` on `body` (docs/FORMATS.md §5.3), in this order:
/// 1. `include_base_dir` and `base_dir` set → prepend `Base directory for this skill: <dir>\n\n`;
/// 2. `${NAME}` → `vars[NAME]` when present (before the `$` family, so a value holding `$0`
///    is substituted next);
/// 3. only when `args` is `Some`: tokens = [`split_args`], then one pass over the text, at
///    each `$` the first that fits: (a) for each non-empty `argument_names[i]`, `$<name>`
///    not followed by `[` or a word char → token i or `""`; (b) `$ARGUMENTS[i]` → token i or
///    `""`; (c) `$i` not followed by a word char → token i or `""` (0-based: `$0` is the
///    first; an index past the tokens, such as `$80` with two arguments, gives `""`);
///    (d) `$ARGUMENTS` → the raw args; (e) if a–d changed nothing, `args` is non-empty and
///    `append_args_if_no_placeholder` → append `\n\nARGUMENTS: <args>`.
///
/// Argument text is inserted literally: a token holding `$1`, `$name`, `$ARGUMENTS` or
/// `$80` stays as typed (context-chef's chained `String.replace` calls would substitute it
/// again, and its `$&`-style replacement patterns are not reproduced either). Output is
/// capped at [`MAX_RENDERED_BYTES`] (cut on a char boundary, then a blank line and
/// [`CAP_NOTE`]): many placeholders times a long argument string can still grow large.
/// No escape exists for a literal `$ARGUMENTS`.
pub fn render_body(
    body: &str,
    argument_names: &[String],
    base_dir: Option<&Path>,
    opts: &RenderOptions,
) -> String {
    let mut text = match (opts.include_base_dir, base_dir) {
        (true, Some(dir)) => format!("Base directory for this skill: {}\n\n{body}", dir.display()),
        _ => body.to_string(),
    };
    text = substitute_vars(&text, &opts.vars);
    if text.len() > MAX_RENDERED_BYTES {
        return capped(text);
    }
    let Some(args) = &opts.args else { return text };
    let before = text.clone();
    let tokens = split_args(args);
    text = substitute_args(&text, argument_names, &tokens, args);
    if text.len() > MAX_RENDERED_BYTES {
        return capped(text);
    }
    if text == before && opts.append_args_if_no_placeholder && !args.is_empty() {
        text.push_str("\n\nARGUMENTS: ");
        text.push_str(args);
    }
    text
}

/// `text` cut to [`MAX_RENDERED_BYTES`] on a char boundary, then a blank line and [`CAP_NOTE`].
fn capped(mut text: String) -> String {
    let mut end = MAX_RENDERED_BYTES.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str("\n\n");
    text.push_str(CAP_NOTE);
    text
}

/// Render a loaded skill's body ([`render_body`] with its argument names and base dir).
pub fn render_skill(skill: &SkillText, opts: &RenderOptions) -> String {
    render_body(
        &skill.body,
        &skill.argument_names,
        skill.base_dir.as_deref(),
        opts,
    )
}

/// Argument names from a frontmatter `arguments` value: a list as is, a string split on
/// whitespace and commas; empties dropped; a nested map gives none.
pub fn argument_names(value: &Value) -> Vec<String> {
    let items: Vec<String> = match value {
        Value::List(l) => l.clone(),
        Value::Str(s) => s
            .split(|c: char| c.is_whitespace() || c == ',')
            .map(str::to_string)
            .collect(),
        Value::Map(_) => Vec::new(),
    };
    items
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A skill from its text: frontmatter (our lenient parser) → name (else `folder_name`),
/// description, when-to-use and `arguments`; body = the text after the closing fence,
/// trimmed (the whole text trimmed when there is no frontmatter).
pub fn skill_from_text(
    text: &str,
    folder_name: &str,
    location: &str,
    base_dir: Option<PathBuf>,
) -> SkillText {
    match frontmatter::parse(text) {
        Some(fm) if fm.block.end > 0 => SkillText {
            entry: ListingEntry::from_frontmatter(&fm, folder_name, location),
            body: text.get(fm.block.end..).unwrap_or("").trim().to_string(),
            argument_names: fm
                .get("arguments")
                .map(|e| argument_names(&e.value))
                .unwrap_or_default(),
            base_dir,
        },
        _ => SkillText {
            entry: ListingEntry {
                name: folder_name.to_string(),
                description: String::new(),
                when_to_use: None,
                location: location.to_string(),
            },
            body: text.trim().to_string(),
            argument_names: Vec::new(),
            base_dir,
        },
    }
}

/// Load `dir/SKILL.md` (or `dir/skill.md`). The base dir and location are made absolute
/// (canonicalised when possible). Errors: `Error::Usage` when there is no SKILL.md,
/// `Error::Io` when it is unreadable or not UTF-8.
pub fn load_skill_dir(dir: &Path) -> crate::error::Result<SkillText> {
    let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let file = ["SKILL.md", "skill.md"]
        .iter()
        .map(|n| abs.join(n))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            crate::error::Error::Usage(format!("{}: no SKILL.md in this folder", dir.display()))
        })?;
    let text = std::fs::read_to_string(&file).map_err(|e| crate::error::Error::io(&file, e))?;
    let folder = abs
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(skill_from_text(
        &text,
        &folder,
        &file.to_string_lossy(),
        Some(abs),
    ))
}

/// The text copied for several skills: their listing (`listing` options: plain, xml or
/// available-skills) then, per skill in order, a blank line, a `## <name>` heading, a
/// blank line and its rendered body. Output ends with one `\n`.
pub fn render_many(skills: &[SkillText], listing: ListingOptions, opts: &RenderOptions) -> String {
    let entries: Vec<ListingEntry> = skills.iter().map(|s| s.entry.clone()).collect();
    let mut out = format_listing(&entries, listing);
    for s in skills {
        out.push_str("\n\n## ");
        out.push_str(&s.entry.name);
        out.push_str("\n\n");
        out.push_str(render_skill(s, opts).trim_end());
    }
    out.push('\n');
    out
}
