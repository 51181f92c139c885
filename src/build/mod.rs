//! `skillnav build`: write a lazytools-format bundle (FORMATS §2, version 3.0.0).
//!
//! CONTRACT (owned by the lazytools helper).
