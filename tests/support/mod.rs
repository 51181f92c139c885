//! The shared harness of the integration tests: fixture paths and files, corpus loading and
//! dumps, child processes of this test binary, generated skill folders, the MCP Python SDK
//! gate, and (feature `tui`) a headless app.

pub mod child;
pub mod corpus;
pub mod fs;
pub mod http;
pub mod model;
pub mod python;
pub mod skills;
#[cfg(feature = "tui")]
pub mod tui;
