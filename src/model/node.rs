//! One node of the corpus arena: kinds, formats, flags, warnings and the [`Node`] record.
//!
//! Sizes are in **bytes** (exact, of the UTF-8/raw file bytes) unless a field says tokens.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thin_vec::ThinVec;

use super::meta::Meta;

/// Index of a node in [`crate::model::Corpus::nodes`]. Stable only within one loaded corpus;
/// the string id ([`crate::model::Corpus::id`]) is what survives reloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The arena index as `usize`.
    pub fn ix(self) -> usize {
        self.0 as usize
    }
}

/// Closed set of node kinds (docs/DESIGN.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeKind {
    /// One opened root (a PATH argument or a discovered scope).
    Root,
    /// A skill folder (holds a `SKILL.md`).
    Skill,
    /// A plain folder.
    Dir,
    /// A file.
    File,
    /// A markdown heading section.
    Section,
    /// A bundle chunk (lazytools `chunks.jsonl` line).
    Chunk,
    /// A piece of a merged doc.md or an llms-ctx `<doc>`.
    Part,
    /// An llms.txt link entry.
    Link,
    /// An architecture decision record.
    Adr,
    /// A synthetic grouping (llms variants, a scope, a duplicate tree).
    Group,
}

impl NodeKind {
    /// Lower-case name as used in JSON and the UI.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Root => "root",
            Self::Skill => "skill",
            Self::Dir => "dir",
            Self::File => "file",
            Self::Section => "section",
            Self::Chunk => "chunk",
            Self::Part => "part",
            Self::Link => "link",
            Self::Adr => "adr",
            Self::Group => "group",
        }
    }

    /// Kinds whose own text is a search/brief unit (a "document" for BM25).
    pub fn is_text_unit(self) -> bool {
        matches!(
            self,
            Self::Section | Self::Chunk | Self::Part | Self::Link | Self::Adr
        )
    }
}

/// Which loader produced a node (docs/FORMATS.md families plus plain markdown/text/assets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Agent Skills / Claude Code skill folder (docs/FORMATS.md §3).
    Skill,
    /// A folder holding many skill folders.
    SkillsDir,
    /// `Skill_Seekers` output (docs/FORMATS.md §1).
    Seekers,
    /// Active-skills `catalog.json` (docs/FORMATS.md §1.6).
    Catalog,
    /// lazytools doc-skill bundle (docs/FORMATS.md §2).
    Lazytools,
    /// Progressive-exposure README/doc.md tree (docs/FORMATS.md §6).
    DocTree,
    /// llms.txt family (docs/FORMATS.md §7).
    LlmsTxt,
    /// Plain markdown, sectioned by headings.
    Markdown,
    /// git-adr skill and ADR notes (docs/FORMATS.md §4).
    GitAdr,
    /// Plain text (`.txt`) not otherwise recognised.
    Text,
    /// Listed with its size, never parsed or executed (scripts/, assets/, binaries).
    Asset,
}

impl Format {
    /// `snake_case` name as used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Skill => "skill",
            Self::SkillsDir => "skills_dir",
            Self::Seekers => "seekers",
            Self::Catalog => "catalog",
            Self::Lazytools => "lazytools",
            Self::DocTree => "doc_tree",
            Self::LlmsTxt => "llms_txt",
            Self::Markdown => "markdown",
            Self::GitAdr => "git_adr",
            Self::Text => "text",
            Self::Asset => "asset",
        }
    }
}

/// Node flags (docs/DESIGN.md §2). Stored as a bit set; serialised as a list of kebab-case names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flag {
    /// Same content exists elsewhere in the root; not counted in container sums, not indexed.
    Duplicate,
    /// A same-named skill from another scope wins over this one.
    Shadowed,
    /// Skippable for a short context (llms.txt `## Optional`).
    Optional,
    /// A placeholder summary or file (crawler placeholder, `*.placeholder`).
    Placeholder,
    /// A symlink to a file already in the corpus; not counted, not indexed.
    Alias,
    /// The file had bytes that are not valid UTF-8 (shown as U+FFFD).
    InvalidUtf8,
    /// Binary content; listed with its size only.
    Binary,
    /// Never loaded as text (scripts/assets).
    Asset,
    /// Only part of the file was read (over the size limit).
    Truncated,
    /// A symlink escaping the opened roots; listed, not read.
    ExternalLink,
    /// An alternative rendering of content the skill holds elsewhere (`Skill_Seekers`'
    /// `llms-small`/`llms`/`llms-full` variants beside the category references): shown with
    /// its size, but like a duplicate not summed into containers nor indexed.
    Variant,
}

impl Flag {
    /// Every flag, in bit order.
    pub const ALL: [Flag; 11] = [
        Flag::Duplicate,
        Flag::Shadowed,
        Flag::Optional,
        Flag::Placeholder,
        Flag::Alias,
        Flag::InvalidUtf8,
        Flag::Binary,
        Flag::Asset,
        Flag::Truncated,
        Flag::ExternalLink,
        Flag::Variant,
    ];

    fn bit(self) -> u16 {
        1 << (Self::ALL.iter().position(|f| *f == self).unwrap_or(0) as u16)
    }

    /// kebab-case name as used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Duplicate => "duplicate",
            Self::Shadowed => "shadowed",
            Self::Optional => "optional",
            Self::Placeholder => "placeholder",
            Self::Alias => "alias",
            Self::InvalidUtf8 => "invalid-utf8",
            Self::Binary => "binary",
            Self::Asset => "asset",
            Self::Truncated => "truncated",
            Self::ExternalLink => "external-link",
            Self::Variant => "variant",
        }
    }
}

/// A set of [`Flag`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(u16);

impl Flags {
    /// Whether `f` is set.
    pub fn has(self, f: Flag) -> bool {
        self.0 & f.bit() != 0
    }
    /// Set `f`.
    pub fn set(&mut self, f: Flag) {
        self.0 |= f.bit();
    }
    /// Clear `f`.
    pub fn clear(&mut self, f: Flag) {
        self.0 &= !f.bit();
    }
    /// The bits (for the persisted index).
    pub fn bits(self) -> u16 {
        self.0
    }
    /// Flags from [`Flags::bits`].
    pub fn from_bits(bits: u16) -> Self {
        Self(bits)
    }
    /// The set flags in bit order.
    pub fn iter(self) -> impl Iterator<Item = Flag> {
        Flag::ALL.into_iter().filter(move |f| self.has(*f))
    }
    /// True for `duplicate`, `alias` or `variant`: excluded from container sums and from
    /// the index.
    pub fn is_copy(self) -> bool {
        self.has(Flag::Duplicate) || self.has(Flag::Alias) || self.has(Flag::Variant)
    }
}

impl Serialize for Flags {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(Flag::as_str))
    }
}

/// A problem found while loading: never fatal, attached to the node it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// Human-readable message (one line).
    pub message: String,
    /// File the problem is in, relative to its root when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 1-based line in that file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl Warning {
    /// A warning with no location.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            path: None,
            line: None,
        }
    }
    /// A warning at `path` (and `line`, 1-based, if known).
    pub fn at(message: impl Into<String>, path: impl Into<String>, line: Option<u32>) -> Self {
        Self {
            message: message.into(),
            path: Some(path.into()),
            line,
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.path, self.line) {
            (Some(p), Some(l)) => write!(f, "{p}:{l}: {}", self.message),
            (Some(p), None) => write!(f, "{p}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// Index of a [`crate::model::Source`] in [`crate::model::Corpus::sources`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SourceId(pub u32);

/// Where a node's text lives: byte offsets into one source's text.
///
/// The node's full text is `start..end`; its *own* text (without child nodes) is the prefix
/// `start..own_end` (a section's heading and body up to its first sub-heading, a file's
/// frontmatter). Offsets are bytes, `start <= own_end <= end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextSpan {
    /// The source holding the text.
    pub source: SourceId,
    /// First byte (inclusive).
    pub start: usize,
    /// End of the node's own text (exclusive).
    pub own_end: usize,
    /// End of the full text including children (exclusive).
    pub end: usize,
}

/// The title of the level-0 section holding the text before a file's first heading
/// (docs/DESIGN.md §2 "Sectioning").
pub const PREAMBLE_TITLE: &str = "(preamble)";

/// `meta` key (value `true`) of a doc-tree `doc.md` that a crawler wrote for a failed
/// fetch (docs/FORMATS.md §6): it is no page.
pub const FETCH_FAILED: &str = "fetch_failed";

/// One node of the arena. See docs/DESIGN.md §2 for field meanings; sizes are bytes. Token
/// counts live outside the node, in a [`crate::tokens::TokenTable`], because they are
/// counted in the background and depend on the chosen encoding. Its serde shape is the
/// persisted index's (`src/model/stored.rs`), not an output format.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Node {
    /// This node's own id segment below its file (`slug`, `chunk-3`, `part-2`, `link-5`);
    /// `None` for file-level and container nodes.
    /// Read it with [`Node::seg`]: when `seg_title` is set, the segment is made from the
    /// title and this is `None`.
    pub seg: Option<Box<str>>,
    /// The segment is the slug of `title` (`model::id::slug`), made when asked for instead
    /// of held: most markdown sections (12 MB of segments on 16 copies of `large`). Set only
    /// where the title is final (`formats::sections`).
    pub seg_title: bool,
    /// `seg` was given by the author (a `{#id}` heading attribute), not made from the title:
    /// among its siblings it keeps its name, and made segments take the `-2`, `-3` suffixes
    /// (docs/FORMATS.md §10).
    pub seg_given: bool,
    /// The collision number of `seg` among its siblings: 0 when `seg` is the id segment as
    /// it is, else `N` for `seg-N` (set by `Corpus::finalize`; docs/FORMATS.md §10).
    pub seg_n: u32,
    /// Kind.
    pub kind: NodeKind,
    /// Producing loader.
    pub format: Format,
    /// Display title (heading text, skill name, file name).
    pub title: String,
    /// One-line summary (frontmatter description, README bullet, llms note, first sentence).
    /// Read it with [`crate::model::Corpus::summary`]: a markdown section's first sentence may
    /// be made on first read (`lazy_summary`) and is then not here.
    pub summary: String,
    /// The summaries of this section's file, made when first read, when `summary` was left
    /// empty at load (docs/DESIGN.md §8).
    #[serde(skip)]
    pub lazy_summary: Option<std::sync::Arc<super::lazy_summary::LazySummary>>,
    /// Longer summary when the format has one.
    pub detail: Option<Box<str>>,
    /// Path relative to its root, `/`-separated (the file the node lives in, or the folder);
    /// one allocation shared by a file's nodes.
    pub path: Arc<str>,
    /// 1-based first line in its file.
    pub line_start: Option<u32>,
    /// 1-based last line in its file (inclusive).
    pub line_end: Option<u32>,
    /// Total bytes: file size on disk; a section's byte range; a container's sum of its
    /// children that are not `duplicate`/`alias`.
    pub bytes: u64,
    /// Bytes of the node's own text without its children.
    pub own_bytes: u64,
    /// Flags.
    #[serde(with = "super::stored::flag_bits")]
    pub flags: Flags,
    /// Format-specific fields (frontmatter keys, ADR status, link url, ...).
    #[serde(with = "super::stored::json_map")]
    pub meta: Meta,
    /// Load problems.
    #[serde(with = "super::stored::warnings")]
    pub warnings: ThinVec<Warning>,
    /// Children in display order.
    pub children: ThinVec<NodeId>,
    /// Parent (`None` for roots).
    pub parent: Option<NodeId>,
    /// Text location, for nodes that have text.
    pub span: Option<TextSpan>,
    /// Heading level for sections (1–6), 0 otherwise.
    pub level: u8,
}

impl Node {
    /// This node's own id segment below its file (see the `seg` field): `None` for
    /// file-level and container nodes.
    pub fn seg(&self) -> Option<std::borrow::Cow<'_, str>> {
        if self.seg_title {
            return Some(std::borrow::Cow::Owned(super::id::slug(&self.title)));
        }
        self.seg.as_deref().map(std::borrow::Cow::Borrowed)
    }

    /// Name a heading's section: by the slug of the author's `{#anchor}` when it gives a
    /// non-empty one (held, `seg_given`), else by the slug of the title, made when asked for
    /// (`seg_title`; docs/FORMATS.md §10). Call once the title is final.
    pub fn name_by_heading(&mut self, anchor: Option<&str>) {
        let given = anchor.map(super::id::slug).filter(|a| !a.is_empty());
        self.seg_given = given.is_some();
        self.seg_title = given.is_none();
        self.seg = given.map(Into::into);
    }

    /// Whether this node has an id segment ([`Node::seg`] is `Some`).
    pub fn has_seg(&self) -> bool {
        self.seg_title || self.seg.is_some()
    }

    /// A node with the given kind, format, title and relative path; everything else empty.
    pub fn new(
        kind: NodeKind,
        format: Format,
        title: impl Into<String>,
        path: impl Into<Arc<str>>,
    ) -> Self {
        Self {
            seg: None,
            seg_title: false,
            seg_n: 0,
            seg_given: false,
            kind,
            format,
            title: title.into(),
            summary: String::new(),
            lazy_summary: None,
            detail: None,
            path: path.into(),
            line_start: None,
            line_end: None,
            bytes: 0,
            own_bytes: 0,
            flags: Flags::default(),
            meta: Meta::new(),
            warnings: ThinVec::new(),
            children: ThinVec::new(),
            parent: None,
            span: None,
            level: 0,
        }
    }
}
