//! Small pure helpers every layer uses: sanitising untrusted text for a terminal
//! ([`sanitize`]), UTC timestamps ([`utc`]), human-readable numbers ([`human`]) and the user
//! folders ([`paths`]). Nothing here knows about corpora, formats or the terminal.

pub mod human;
pub mod paths;
pub mod sanitize;
pub mod utc;
