//! Small pure helpers every layer uses: sanitising untrusted text for a terminal
//! ([`sanitize`]), UTC timestamps ([`utc`]), human-readable numbers ([`human`]) and the user
//! folders ([`paths`]), plain-number vectors as bytes for serde ([`pod_vec`]), whether a paragraph is prose for a summary ([`prose`]), reading a
//! file that must be regular, under a size cap ([`regular_file`]), giving freed memory back
//! to the system ([`memory`]), 128-bit text keys ([`digest`]). Nothing here
//! knows about corpora, formats or the terminal.

pub mod digest;
pub mod human;
pub mod memory;
pub mod paths;
pub mod pod_vec;
pub mod prose;
pub mod regular_file;
pub mod sanitize;
pub mod utc;
