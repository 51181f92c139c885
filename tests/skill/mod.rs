//! The Agent Skills spec: disclosure layers, rendering, listings, validation, and the lints
//! that read whole skill folders (safety, links) or the whole set (description overlap).

mod layers;
mod links;
mod lints;
mod listing;
mod overlap;
mod render;
mod report;
mod safety;
mod unreadable;
mod validate;
