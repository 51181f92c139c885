//! The TUI driven headless: curation, the frontmatter editor, flows, screens.

mod agents;
mod curate;
mod editor;
mod flow;
mod navigation;
mod popups;
mod preview_kinds;
mod readable;
mod rows;
mod screens;
mod slips;
