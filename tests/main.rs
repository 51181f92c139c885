//! The one integration-test crate: every area of skillnav as a module, sharing the harness
//! in `support/`. Tests run as threads of one process, so none may change process-wide
//! state (environment, current folder); child processes get their environment explicitly.

mod support;

mod brief;
mod cli;
mod clipboard;
mod curate;
mod e2e;
mod formats;
mod frontmatter;
mod index;
mod lazytools;
#[cfg(feature = "mcp")]
mod mcp;
mod render;
mod skill;
#[cfg(feature = "tui")]
mod tui;
