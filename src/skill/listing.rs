//! Skill listings shown to a model (docs/FORMATS.md §3.5, §5.4): context-chef's `plain` and `xml`
//! layouts (`formatSkillListing`) and Anthropic's `<available_skills>` block
//! (`skills_ref/prompt.py` `to_prompt`), with a `max_chars` budget cut with `...`. Also the
//! frontmatter alias helpers for `when_to_use` and `allowed-tools`.

use crate::frontmatter::Frontmatter;

/// The spellings of the "when to use" key, in lookup order: Claude Code's `when_to_use`,
/// then context-chef's `when-to-use` and `whenToUse` (docs/FORMATS.md §3.2, §5.2).
pub const WHEN_TO_USE_KEYS: [&str; 3] = ["when_to_use", "when-to-use", "whenToUse"];

/// The "when to use" text of a skill under any of [`WHEN_TO_USE_KEYS`] (first present key
/// wins), trimmed; `None` when absent or blank.
pub fn when_to_use(fm: &Frontmatter) -> Option<String> {
    fm.get_any(&WHEN_TO_USE_KEYS)
        .map(|e| e.value.as_text().trim().to_string())
        .filter(|s| !s.is_empty())
}

/// `allowed-tools` / `allowedTools` in any of the three real shapes (space-separated string,
/// comma-separated string, list), as a list of tool names (docs/FORMATS.md §3.2).
pub fn allowed_tools(fm: &Frontmatter) -> Vec<String> {
    fm.allowed_tools()
}

/// One skill in a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingEntry {
    /// Skill name.
    pub name: String,
    /// Description (one line or several; written as is, escaped per layout).
    pub description: String,
    /// "When to use" text, if any.
    pub when_to_use: Option<String>,
    /// Absolute path of the SKILL.md (used by `available-skills`).
    pub location: String,
}

impl ListingEntry {
    /// An entry from a skill's frontmatter: `name` (else `folder_name`), `description`
    /// (else empty), [`when_to_use`], and `location`.
    pub fn from_frontmatter(fm: &Frontmatter, folder_name: &str, location: &str) -> Self {
        Self {
            name: fm
                .name()
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| folder_name.into()),
            description: fm
                .description()
                .map(|d| d.trim().to_string())
                .unwrap_or_default(),
            when_to_use: when_to_use(fm),
            location: location.to_string(),
        }
    }
}

/// Listing layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListingFormat {
    /// `- <name>: <description> (when: <when>)`, one line per skill (context-chef default).
    Plain,
    /// context-chef `<skills>` XML.
    Xml,
    /// Anthropic `<available_skills>` block.
    AvailableSkills,
}

impl ListingFormat {
    /// `plain`, `xml` or `available-skills` (the names [`ListingFormat::parse`] reads).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Plain => "plain",
            Self::Xml => "xml",
            Self::AvailableSkills => "available-skills",
        }
    }

    /// Parse `plain` / `xml` / `available-skills`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "plain" => Some(Self::Plain),
            "xml" => Some(Self::Xml),
            "available-skills" => Some(Self::AvailableSkills),
            _ => None,
        }
    }
}

/// Options of [`format_listing`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListingOptions {
    /// Layout.
    pub format: ListingFormat,
    /// Include `when_to_use` in `plain` and `xml` (context-chef default: true).
    pub include_when_to_use: bool,
    /// Budget in chars (Unicode scalar values); `None` = unlimited. See [`truncate_listing`].
    pub max_chars: Option<usize>,
}

impl Default for ListingOptions {
    fn default() -> Self {
        Self {
            format: ListingFormat::Plain,
            include_when_to_use: true,
            max_chars: None,
        }
    }
}

/// Whether XML 1.0 allows `c` in a document (its `Char` production): tab, LF, CR,
/// U+0020–U+D7FF, U+E000–U+FFFD and U+10000 up. Other C0 controls (ESC, BEL, the
/// invalid-UTF-8 placeholder U+001A, …) and U+FFFE/U+FFFF are not allowed, not even as
/// character references.
pub fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
        || c >= '\u{10000}'
}

/// Escape `&`, `<`, `>`, `"` (context-chef's XML escaping, docs/FORMATS.md §5.4), and
/// replace each character XML 1.0 forbids ([`is_xml_char`]) with U+FFFD, so the result is
/// always well-formed.
pub fn escape_xml(s: &str) -> String {
    escape_xml_with(s, true)
}

/// [`escape_xml`], escaping `"` only when `quote` (element text keeps it as it is).
pub fn escape_xml_with(s: &str, quote: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quote => out.push_str("&quot;"),
            c if !is_xml_char(c) => out.push('\u{FFFD}'),
            _ => out.push(c),
        }
    }
    out
}

/// Python's `html.escape(s, quote=True)`: `&`, `<`, `>`, `"` → `&quot;`, `'` → `&#x27;`
/// (the escaping of `to_prompt`, docs/FORMATS.md §3.5); characters XML 1.0 forbids become
/// U+FFFD as in [`escape_xml`].
pub fn escape_html(s: &str) -> String {
    escape_xml(s).replace('\'', "&#x27;")
}

/// Cut `s` to at most `max_chars` chars: unchanged when it fits; else the first
/// `max_chars − 3` chars plus `...`; when `max_chars ≤ 3`, a hard cut to `max_chars`
/// chars (0 → empty). Chars are Unicode scalar values (context-chef counts UTF-16 units, so
/// it differs only for characters outside the BMP, e.g. emoji).
pub fn truncate_listing(s: &str, max_chars: usize) -> String {
    let n = s.chars().count();
    if n <= max_chars {
        return s.to_string();
    }
    if max_chars <= 3 {
        return s.chars().take(max_chars).collect();
    }
    let mut out: String = s.chars().take(max_chars - 3).collect();
    out.push_str("...");
    out
}

/// Format a skill listing (docs/FORMATS.md §3.5, §5.4):
/// - `plain`: `- <name>: <description>` plus ` (when: <when>)` when present and
///   `include_when_to_use`; lines joined with `\n`; nothing escaped; empty list → `""`.
/// - `xml`: `<skills>`, per skill `  <skill name="…">`, `    <description>…</description>`,
///   optional `    <whenToUse>…</whenToUse>`, `  </skill>`, then `</skills>`, joined with
///   `\n`; [`escape_xml`] on name, description and when; empty list → `<skills></skills>`.
/// - `available-skills`: `<available_skills>`, per skill `<skill>`, `<name>`, name,
///   `</name>`, `<description>`, description, `</description>`, `<location>`, location,
///   `</location>`, `</skill>`, then `</available_skills>`, each on its own line; name and
///   description through [`escape_html`], the location as is; empty list →
///   `<available_skills>\n</available_skills>`.
///
/// Then `max_chars` applies to the whole text ([`truncate_listing`]).
pub fn format_listing(entries: &[ListingEntry], opts: ListingOptions) -> String {
    let text = match opts.format {
        ListingFormat::Plain => entries
            .iter()
            .map(|e| {
                let mut l = format!("- {}: {}", e.name, e.description);
                if opts.include_when_to_use
                    && let Some(w) = &e.when_to_use
                {
                    l.push_str(&format!(" (when: {w})"));
                }
                l
            })
            .collect::<Vec<_>>()
            .join("\n"),
        ListingFormat::Xml if entries.is_empty() => "<skills></skills>".to_string(),
        ListingFormat::Xml => {
            let mut lines = vec!["<skills>".to_string()];
            for e in entries {
                lines.push(format!("  <skill name=\"{}\">", escape_xml(&e.name)));
                lines.push(format!(
                    "    <description>{}</description>",
                    escape_xml(&e.description)
                ));
                if opts.include_when_to_use
                    && let Some(w) = &e.when_to_use
                {
                    lines.push(format!("    <whenToUse>{}</whenToUse>", escape_xml(w)));
                }
                lines.push("  </skill>".to_string());
            }
            lines.push("</skills>".to_string());
            lines.join("\n")
        }
        ListingFormat::AvailableSkills => {
            let mut lines = vec!["<available_skills>".to_string()];
            for e in entries {
                lines.extend([
                    "<skill>".to_string(),
                    "<name>".to_string(),
                    escape_html(&e.name),
                    "</name>".to_string(),
                    "<description>".to_string(),
                    escape_html(&e.description),
                    "</description>".to_string(),
                    "<location>".to_string(),
                    e.location.clone(),
                    "</location>".to_string(),
                    "</skill>".to_string(),
                ]);
            }
            lines.push("</available_skills>".to_string());
            lines.join("\n")
        }
    };
    match opts.max_chars {
        Some(m) => truncate_listing(&text, m),
        None => text,
    }
}
