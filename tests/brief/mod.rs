//! Briefs: the markdown layout golden and the curated md/xml/json briefs.

mod curated;
mod golden;
mod pack;
