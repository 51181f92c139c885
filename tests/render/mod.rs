//! Rendering: syntax highlighting, markdown, themes, widths.

mod highlight;
mod markdown;
mod theme;
mod width;
