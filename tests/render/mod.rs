//! Rendering: syntax highlighting, markdown, themes, widths.

mod highlight;
mod markdown;
mod markup;
mod theme;
mod width;
