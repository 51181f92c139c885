//! The form editor's rows: the known Agent Skills / Claude Code keys in a fixed
//! order, `metadata` entries as `metadata.<key>` rows, then every other key of the file in
//! file order; each with its original value and a text area. Building the new bytes chains
//! [`crate::frontmatter::set`] / [`crate::frontmatter::unset`] over the changed rows only, so
//! unchanged keys stay byte-identical.

use ratatui_textarea::{TextArea, WrapMode};

use crate::frontmatter::{EditValue, KeyNode, Value, set, unset};

/// The keys the form always lists, in this order (docs/FORMATS.md §3.2: spec keys and the Claude
/// Code profile's most used keys). `metadata` is a map shown as one row per entry.
pub const KNOWN_KEYS: [&str; 11] = [
    "name",
    "description",
    "license",
    "compatibility",
    "allowed-tools",
    "argument-hint",
    "when_to_use",
    "model",
    "disable-model-invocation",
    "user-invocable",
    "metadata",
];

/// Text keys whose values are prose that may run over several lines (block scalars): Enter
/// adds a line in them. In every other text row Enter confirms the value (a `name`, a
/// `license`, a `model` is one line), unless the file already holds a multi-line value there.
pub const MULTI_LINE_KEYS: [&str; 4] = ["description", "when_to_use", "when-to-use", "whenToUse"];

/// What a row holds and whether it can be edited in the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A scalar (possibly multi-line; a `\n` in the text becomes a block scalar on save).
    Text,
    /// A list of scalars, one item per line of the text area.
    List,
    /// The `metadata` map itself (its entries are the rows below it); only deletable.
    Map,
    /// A value the form cannot edit safely (a nested map other than `metadata`, a metadata
    /// entry that is itself a map or whose key contains a `.`): edit it in raw mode.
    ReadOnly,
}

/// One row of the form.
#[derive(Debug)]
pub struct Field {
    /// Key path for `set`/`unset` (`description`, `metadata.version`).
    pub key: String,
    /// Kind of value.
    pub kind: FieldKind,
    /// The value in the file the form was built from; `None` when the key is absent.
    pub original: Option<Value>,
    /// The value being edited (one list item per line for [`FieldKind::List`]).
    pub text: TextArea<'static>,
    /// Marked for removal (`d`); saving removes the key.
    pub removed: bool,
    /// Added with `a` in this session (saved even when left empty).
    pub added: bool,
}

/// A text area holding `text` (lines split at `\n`), soft-wrapped at word boundaries.
pub fn text_area(text: &str) -> TextArea<'static> {
    let mut t = TextArea::new(text.split('\n').map(str::to_string).collect());
    t.set_wrap_mode(WrapMode::WordOrGlyph);
    t
}

/// The text of a text area (lines joined with `\n`).
pub fn area_text(t: &TextArea<'_>) -> String {
    t.lines().join("\n")
}

fn initial_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::Str(s)) => s.clone(),
        Some(Value::List(l)) => l.join("\n"),
        _ => String::new(),
    }
}

impl Field {
    /// A row for `key` with `original` (absent when `None`).
    pub fn new(key: String, kind: FieldKind, original: Option<Value>) -> Field {
        let text = text_area(&initial_text(original.as_ref()));
        Field {
            key,
            kind,
            original,
            text,
            removed: false,
            added: false,
        }
    }

    /// Whether the text area can be edited.
    pub fn editable(&self) -> bool {
        matches!(self.kind, FieldKind::Text | FieldKind::List)
    }

    /// Whether Enter adds a line to the text area: list rows (one item per line), the
    /// [`MULTI_LINE_KEYS`], and any text row whose value in the file holds a line break. In
    /// the other rows Enter confirms the value and pasted line breaks become spaces.
    pub fn multi_line(&self) -> bool {
        match self.kind {
            FieldKind::List => true,
            FieldKind::Text => {
                MULTI_LINE_KEYS.contains(&self.key.as_str())
                    || matches!(&self.original, Some(Value::Str(s)) if s.contains('\n'))
            }
            FieldKind::Map | FieldKind::ReadOnly => false,
        }
    }

    /// The value the text area now holds (lists: one trimmed, non-empty item per line).
    pub fn value(&self) -> EditValue {
        let text = area_text(&self.text);
        match self.kind {
            FieldKind::List => EditValue::List(
                text.lines()
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
            ),
            _ => EditValue::Str(text),
        }
    }

    /// Whether the row differs from the file (edited, added or marked for removal).
    pub fn changed(&self) -> bool {
        if self.removed {
            return self.original.is_some();
        }
        if !self.editable() {
            return false;
        }
        match (&self.original, self.value()) {
            (None, EditValue::Str(s)) => self.added || !s.is_empty(),
            (None, EditValue::List(l)) => self.added || !l.is_empty(),
            (Some(Value::Str(o)), EditValue::Str(s)) => *o != s,
            (Some(Value::List(o)), EditValue::List(l)) => *o != l,
            _ => true,
        }
    }

    /// The control characters (other than tabs) in the value being edited, in order: a
    /// text area draws them as nothing, so the editor names them.
    pub fn controls(&self) -> Vec<char> {
        if !self.editable() || self.removed {
            return Vec::new();
        }
        self.text
            .lines()
            .iter()
            .flat_map(|l| l.chars())
            .filter(|c| c.is_control() && *c != '\t')
            .collect()
    }

    /// One-line preview of the value for the field list (first line, `…` when more), with
    /// control characters shown as stand-ins ([`crate::util::sanitize::sanitize_line`]).
    pub fn preview(&self) -> String {
        match self.kind {
            FieldKind::Map => "(map: entries below)".into(),
            FieldKind::ReadOnly => "(nested: edit in raw mode)".into(),
            _ => {
                let lines = self.text.lines();
                let first = lines.first().map_or("", String::as_str);
                let first = crate::util::sanitize::sanitize_line(first);
                if lines.len() > 1 {
                    format!("{first} …")
                } else {
                    first.to_string()
                }
            }
        }
    }
}

fn kind_of(v: &Value) -> FieldKind {
    match v {
        Value::Str(_) => FieldKind::Text,
        Value::List(_) => FieldKind::List,
        Value::Map(_) => FieldKind::ReadOnly,
    }
}

/// The last node spelled `key` (the parser keeps duplicates; the last one wins).
fn last<'a>(nodes: &'a [KeyNode], key: &str) -> Option<&'a KeyNode> {
    nodes.iter().rev().find(|n| n.key == key)
}

fn push_metadata(out: &mut Vec<Field>, node: Option<&KeyNode>) {
    match node {
        None => out.push(Field::new("metadata".into(), FieldKind::Map, None)),
        Some(n) if matches!(n.value, Value::Map(_)) => {
            out.push(Field::new(
                "metadata".into(),
                FieldKind::Map,
                Some(n.value.clone()),
            ));
            let mut seen = Vec::new();
            for c in n.children.iter().rev() {
                if seen.contains(&c.key) {
                    continue;
                }
                seen.push(c.key.clone());
            }
            for key in seen.into_iter().rev() {
                let Some(c) = last(&n.children, &key) else {
                    continue;
                };
                let kind = if key.contains('.') {
                    FieldKind::ReadOnly
                } else {
                    kind_of(&c.value)
                };
                out.push(Field::new(
                    format!("metadata.{key}"),
                    kind,
                    Some(c.value.clone()),
                ));
            }
        }
        Some(n) => out.push(Field::new(
            "metadata".into(),
            kind_of(&n.value),
            Some(n.value.clone()),
        )),
    }
}

/// The rows for a frontmatter key tree (`nodes` of [`crate::frontmatter::parse_tree`];
/// empty for a file without frontmatter): known keys first, then the other keys of the
/// file in file order (each once).
pub fn build(nodes: &[KeyNode]) -> Vec<Field> {
    let mut out = Vec::new();
    for key in KNOWN_KEYS {
        let node = last(nodes, key);
        if key == "metadata" {
            push_metadata(&mut out, node);
        } else {
            let kind = node.map_or(FieldKind::Text, |n| kind_of(&n.value));
            out.push(Field::new(key.into(), kind, node.map(|n| n.value.clone())));
        }
    }
    let mut others: Vec<&str> = Vec::new();
    for n in nodes {
        if !KNOWN_KEYS.contains(&n.key.as_str()) && !others.contains(&n.key.as_str()) {
            others.push(&n.key);
        }
    }
    for key in others {
        if let Some(n) = last(nodes, key) {
            out.push(Field::new(
                key.to_string(),
                kind_of(&n.value),
                Some(n.value.clone()),
            ));
        }
    }
    out
}

/// Apply every changed row to `base` with `set`/`unset` (in row order; a removed `metadata`
/// map drops its entries' edits). Errors: `"<key>: <reason>"` of the first edit the core
/// refuses.
pub fn apply(base: &[u8], fields: &[Field]) -> Result<Vec<u8>, String> {
    let mut out = base.to_vec();
    let metadata_removed = fields.iter().any(|f| f.key == "metadata" && f.removed);
    for f in fields.iter().filter(|f| f.changed()) {
        if metadata_removed && f.key.starts_with("metadata.") {
            continue;
        }
        out = if f.removed {
            unset(&out, &f.key)
        } else {
            set(&out, &f.key, &f.value())
        }
        .map_err(|e| format!("{}: {e}", f.key))?;
    }
    Ok(out)
}
