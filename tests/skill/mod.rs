//! The Agent Skills spec: disclosure layers, rendering, listings, validation.

mod layers;
mod listing;
mod render;
mod validate;
