//! The parsed frontmatter model: [`Frontmatter`] (its entries and block span), each key's
//! [`Entry`] with spans and style, its [`Value`], and the file's [`LineEnding`].

use std::ops::Range;
use std::sync::Arc;

/// How a value is written in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueStyle {
    /// `key: value` (plain scalar, possibly continued on indented lines).
    Plain,
    /// `key: 'value'`.
    SingleQuoted,
    /// `key: "value"` (with escapes).
    DoubleQuoted,
    /// `key: >` / `>-` / `>+` folded block scalar.
    Folded,
    /// `key: |` / `|-` / `|+` literal block scalar.
    Literal,
    /// `key: [a, b]`.
    FlowList,
    /// `key:` followed by indented `- item` lines.
    BlockList,
    /// `key:` followed by an indented map (e.g. `metadata`).
    Map,
    /// `key:` with nothing after it.
    Empty,
}

/// A parsed value. Scalars are never coerced: `1.10`, `yes`, `null` stay text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A scalar, as text (quotes removed, escapes processed, blocks folded per YAML).
    Str(String),
    /// A list of scalars.
    List(Vec<String>),
    /// A nested map, in file order. Shared: the key tree and every enclosing map hold the
    /// same pairs, so a map nested `d` levels deep is stored once, not `d` times
    /// (docs/DESIGN.md §9).
    Map(Arc<Vec<(String, Value)>>),
}

impl Value {
    /// The scalar text, or the list joined with `", "`, or `""` for a map.
    pub fn as_text(&self) -> String {
        match self {
            Self::Str(s) => s.clone(),
            Self::List(l) => l.join(", "),
            Self::Map(_) => String::new(),
        }
    }
}

/// One top-level key of the frontmatter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The key as written.
    pub key: String,
    /// The value.
    pub value: Value,
    /// How the value is written.
    pub style: ValueStyle,
    /// Bytes of the whole entry in the file: from the key's first byte to the end of its
    /// last line including the line ending (so removing this range removes the entry).
    pub span: Range<usize>,
    /// Bytes of the value text: from after `key:` and spaces (or the first byte of a value
    /// that starts on the next line, e.g. a `- item` list or nested map) through the last
    /// content byte of its last line, excluding the line ending and a trailing `# comment`.
    /// Block scalars include their header (`|-`); quoted values include the quotes. An
    /// empty value has an empty span where the value would start.
    pub value_span: Range<usize>,
    /// 1-based file lines of the entry (inclusive start, exclusive end).
    pub lines: Range<u32>,
    /// The keys of a nested block map (style [`ValueStyle::Map`] written as indented
    /// lines), each with its own spans and lines, in file order; empty otherwise.
    pub children: Vec<Entry>,
}

/// Line ending used by the frontmatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`.
    Lf,
    /// `\r\n`.
    CrLf,
    /// A lone `\r` (classic Mac OS).
    Cr,
}

impl LineEnding {
    /// The line break as text.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lf => "\n",
            Self::CrLf => "\r\n",
            Self::Cr => "\r",
        }
    }
}

/// A frontmatter block found at the start of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frontmatter {
    /// The file starts with a UTF-8 BOM (before `---`).
    pub bom: bool,
    /// Line ending of the opening fence line.
    pub line_ending: LineEnding,
    /// Bytes from the opening `---` through the closing `---` line (including its line
    /// ending); the body starts at `block.end`.
    pub block: Range<usize>,
    /// Bytes of the YAML between the fences.
    pub yaml: Range<usize>,
    /// Top-level entries in file order (duplicates kept; [`Frontmatter::get`] returns the last).
    pub entries: Vec<Entry>,
    /// Problems: (1-based file line, message). E.g. an unquoted `: ` inside a plain value,
    /// a line without a colon, an unclosed quote, a missing closing fence.
    pub warnings: Vec<(u32, String)>,
}

impl Frontmatter {
    /// The entry for `key` (exact spelling), last one wins.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.key == key)
    }

    /// The first present key among `aliases` (e.g. `when_to_use`, `when-to-use`, `whenToUse`).
    pub fn get_any(&self, aliases: &[&str]) -> Option<&Entry> {
        aliases.iter().find_map(|k| self.get(k))
    }

    /// `name` as text.
    pub fn name(&self) -> Option<String> {
        self.get("name").map(|e| e.value.as_text())
    }

    /// `description` as text (block scalars folded per YAML).
    pub fn description(&self) -> Option<String> {
        self.get("description").map(|e| e.value.as_text())
    }

    /// `allowed-tools`/`allowedTools` in any of the three real shapes: a space-separated
    /// string (spec, `Bash(git:*) Read`), a comma-separated string (`Read, Grep`), or a list.
    pub fn allowed_tools(&self) -> Vec<String> {
        match self
            .get_any(&["allowed-tools", "allowedTools"])
            .map(|e| &e.value)
        {
            Some(Value::List(l)) => l
                .iter()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
            Some(Value::Str(s)) if s.contains(',') => s
                .split(',')
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .collect(),
            Some(Value::Str(s)) => split_space_tools(s),
            _ => Vec::new(),
        }
    }
}

/// Split a space-separated tool list, keeping parenthesised arguments together
/// (`Bash(git add:*) Read` → `["Bash(git add:*)", "Read"]`).
fn split_space_tools(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c.is_whitespace() && depth <= 0 => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}
