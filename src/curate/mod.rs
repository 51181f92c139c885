//! What the user picks and how eagerly it is exposed: exposure levels ([`exposure`]), the
//! units a brief holds and their tokens ([`units`]), typed budgets and variables
//! ([`input`]), saved selections ([`recipe`]), exporting a selection as a new skill
//! ([`export`]) and the one-paragraph summary of a section ([`summary`]).

pub mod export;
pub mod exposure;
pub mod input;
pub mod recipe;
pub mod summary;
pub mod units;
