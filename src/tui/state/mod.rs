//! Plain UI data: the [`app::App`] (sub-states, status, effects queue) and the state of
//! each feature. Nothing here takes `&mut App` or runs work; the mutators live in
//! [`crate::tui::update`].

pub mod app;
pub mod built_text;
pub mod collisions;
pub mod curate;
pub mod editor;
pub mod followup;
pub mod outline;
pub mod persisted;
pub mod popup;
pub mod preview;
pub mod results;
pub mod search;
pub mod tree;
