//! Markdown → our own styled-text model (no ratatui types), with fenced code highlighted by
//! syntect. The TUI converts these lines to ratatui text in one bridge.
//!
//! - [`text`]: [`Rgb`], [`Role`], [`Style`], [`Span`], [`Line`] (sanitised text).
//! - [`width`]: cell widths, [`truncate`] with `…`.
//! - [`wrap`](mod@wrap): [`wrap`](fn@wrap) of styled spans, [`truncate_line`], and
//!   [`wrap_text`](wrap::wrap_text) of plain text that keeps every character.
//! - [`markdown`]: [`render_markdown`] → [`Rendered`] (lines, source offsets, code blocks,
//!   headings, search-hit lines).
//! - [`html`]: raw HTML as a reader wants it (comments hidden, badges as text).
//! - [`raw`]: [`render_raw`](raw::render_raw), the raw text as preview lines.
//! - [`highlight`]: [`Highlighter`] (syntect + two-face) and [`apply`] to swap highlighted
//!   code lines into a [`Rendered`].
//! - [`theme`]: [`Theme`] (built-in dark/light TOML, user overrides), [`no_color`].
//! - [`terms`]: search-term hit marking ([`Role::Match`]).

pub mod containers;
pub mod highlight;
pub mod html;
pub mod markdown;
pub mod raw;
mod table;
pub mod terms;
pub mod text;
pub mod theme;
pub mod width;
pub mod wrap;

pub use highlight::{Highlighter, SyntaxTheme, apply};
pub use markdown::{CodeBlock, LongLines, RenderOptions, Rendered, render_markdown};
pub use text::{Line, Rgb, Role, Span, Style};
pub use theme::{Theme, ThemeError, no_color};
pub use width::{str_width, truncate};
pub use wrap::{slice_line, truncate_line, wrap};
