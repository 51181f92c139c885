//! The Agent Skills spec: disclosure layers, rendering, listings, validation.

mod layers;
mod lints;
mod listing;
mod render;
mod unreadable;
mod validate;
