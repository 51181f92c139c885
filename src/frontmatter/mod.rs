//! SKILL.md frontmatter: a lenient, span-recording parser of our own (docs/DESIGN.md §10). It
//! reads every real-world shape (docs/FORMATS.md §3.3, §5.1) without coercing values, records where
//! each key and value lives (byte spans, 1-based lines, value style, indentation) so edits
//! are spliced in without touching any other byte, and reports problems as
//! warnings with line numbers instead of failing. Values agree exactly with `PyYAML`'s
//! string-only `BaseLoader` on every strict-valid input tested (tests/frontmatter/parse.rs);
//! not modelled: anchors, aliases and tags (`&a`, `*a`, `!t` are read as text), complex
//! `?` keys, multi-document streams.
//!
//! Layout: `entry` (the parsed model: [`Frontmatter`], [`Entry`], [`Value`]), `lines` (line table), `scalar` (YAML scalar rules), `parse` (the structural
//! parser and key tree), `values` (its value parsers), `strict` (verification with a
//! strict YAML reader), `typed` (the values as a YAML 1.2 reader types them, as JSON, for
//! SEP-2640); write side: `resolve` (which plain scalars YAML 1.1/1.2 readers
//! type as numbers, bools, nulls, dates), `quote` (least quoting), `edit` (splicing edits into
//! raw bytes), `guard` (what an edit must keep: anchors, aliases, tags, strict validity),
//! `save` (atomic save, undo), `diff` (changed lines), `ops` (`fm get/set/unset` for the
//! CLI). `toml_block` reads Hugo's `+++` TOML front matter (metadata only, never
//! edited).

pub mod diff;
pub mod edit;
pub mod entry;
mod guard;
mod lines;
pub mod ops;
pub mod parse;
pub mod quote;
pub mod resolve;
pub mod save;
pub mod scalar;
mod strict;
pub mod toml_block;
pub mod typed;
mod values;

pub use diff::{DiffKind, DiffLine, describe as describe_diff, line_diff};
pub use edit::{EditValue, repair, set, unset};
pub use entry::{Entry, Frontmatter, LineEnding, Value, ValueStyle};
pub use ops::{GetMode, SetReport, fm_get, fm_set, fm_unset};
pub use parse::{KeyNode, Parsed, parse_tree};
pub use save::{LoadedFile, SaveReport, load, save, undo};
pub use scalar::{BlockHeader, Chomp};
pub use strict::verify_strict;
pub use toml_block::{TomlFrontmatter, parse_toml};

/// Parse the frontmatter at the start of `text` (after an optional BOM). Returns `None`
/// when the file does not start with a `---` line. Never panics; problems go to `warnings`.
/// A `---` later in the body (a thematic break) is body text.
///
/// Rules (docs/FORMATS.md §3.2–3.3, §5.1, §9.1): the opening fence is the first line,
/// exactly `---` (trailing spaces allowed); the closing fence is the next line that is `---`
/// or `...` at column 0 (trailing spaces allowed; an indented `---` inside a block scalar or
/// a quoted value is content). Line breaks are `\n`, `\r\n` or a lone `\r`. Without a closing fence the result has `block: 0..0`, no entries and
/// the warning `(1, "no closing --- fence; treated as body")`. All spans are byte offsets
/// into `text` (BOM bytes included); O(n) in the length of the frontmatter. The loader's
/// invalid-UTF-8 placeholder byte (U+001A) reads as U+FFFD in keys and values.
pub fn parse(text: &str) -> Option<Frontmatter> {
    parse_tree(text).map(|p| p.fm)
}
