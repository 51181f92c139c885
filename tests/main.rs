//! The one integration-test crate: every area of skillnav as a module, sharing the harness
//! in `support/`. Tests run as threads of one process, so none may change process-wide
//! state (environment, current folder); child processes get their environment explicitly.

// Tests and benchmarks may unwrap, expect and panic: a failure there is the report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Parity tests compare scores exactly: they must equal the reference digit for digit.
#![allow(clippy::float_cmp)]
// Test panics name paths with their Debug form (quotes show empty or odd names).
#![allow(clippy::unnecessary_debug_formatting)]
// Fixture texts are built with `map(format!).collect()`: the plainest way to write them.
#![allow(clippy::format_collect)]

mod support;

mod brief;
mod cli;
mod clipboard;
mod curate;
mod e2e;
mod formats;
mod frontmatter;
mod fuzzed;
mod index;
mod lazytools;
#[cfg(feature = "mcp")]
mod mcp;
mod remote;
mod render;
mod rerank;
#[cfg(feature = "tui")]
mod sizes;
mod skill;
mod tokens;
#[cfg(feature = "tui")]
mod tui;
