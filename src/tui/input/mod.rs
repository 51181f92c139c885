//! Keys to intents: [`action::Action`] (every user intent), [`key::KeyChord`] (a key with
//! its modifiers) and [`keymap::Keymap`] (per-mode bindings from `assets/keymap.toml` and the
//! user's file).

pub mod action;
pub mod key;
pub mod keymap;
