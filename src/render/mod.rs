//! Markdown → our own styled-text model (no ratatui types), with fenced code highlighted by
//! syntect. The TUI converts these lines to ratatui text in one bridge.
//!
//! CONTRACT (owned by the render helper).
