//! What the user picks and how eagerly it is exposed: exposure levels ([`exposure`]), saved
//! selections ([`recipe`]) and exporting a selection as a new skill ([`export`]).

pub mod export;
pub mod exposure;
pub mod recipe;
