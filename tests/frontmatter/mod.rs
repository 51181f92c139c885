//! The frontmatter parser and editor: real shapes, edits, properties, regressions, and
//! real-world edge cases (block-scalar `---`, CR-only files, fuzz findings).

mod edit;
mod parse;
mod props;
mod real_world;
mod regressions;
mod structure;
