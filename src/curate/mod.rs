//! What the user picks and how eagerly it is exposed: exposure levels ([`exposure`]), the
//! units a brief holds and their tokens ([`units`]), typed budgets and variables
//! ([`input`]), saved selections ([`recipe`]) and exporting a selection as a new skill
//! ([`export`]).

pub mod export;
pub mod exposure;
pub mod input;
pub mod recipe;
pub mod units;
