//! The frontmatter parser and editor: real shapes, edits, properties, regressions.

mod edit;
mod parse;
mod props;
mod regressions;
