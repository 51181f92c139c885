//! Styles of the UI chrome (tree rows, marks, bars, popups), derived from the render
//! [`Theme`] (`themes/*.toml`: its `[ui]` colours), and `NO_COLOR` handling: with colours
//! off every style keeps only its attributes (bold, underline, reverse, dim), so the cursor
//! and the matches stay visible.
//!
//! Markdown roles are styled by the same [`Theme`] through [`crate::tui::bridge`].

use ratatui::style::{Color, Modifier, Style};

use crate::render::{Rgb, Theme};

/// Styles of the UI elements, plus the render theme they come from.
#[derive(Clone, Debug, PartialEq)]
pub struct UiTheme {
    /// The render theme (markdown roles, syntax theme, UI colours).
    pub md: Theme,
    /// Colours disabled (`NO_COLOR`).
    pub no_color: bool,
    /// Cursor row of the focused pane.
    pub cursor: Style,
    /// Cursor row of the unfocused pane.
    pub cursor_dim: Style,
    /// De-emphasised text (summaries, hints).
    pub dim: Style,
    /// Byte sizes.
    pub bytes: Style,
    /// Token sizes.
    pub tokens: Style,
    /// Full selection mark `✓`.
    pub mark: Style,
    /// Partial selection mark `◐`.
    pub partial: Style,
    /// Warning flag `!` and warning text.
    pub warn: Style,
    /// Errors in the status bar.
    pub error: Style,
    /// Kind glyphs of containers (root, skill, dir, group) and the expand arrow.
    pub glyph_dir: Style,
    /// Kind glyphs of files.
    pub glyph_file: Style,
    /// Kind glyphs of sections, chunks, parts, links, ADRs.
    pub glyph_section: Style,
    /// Node titles.
    pub title: Style,
    /// The top bar.
    pub top: Style,
    /// The query text in the top bar.
    pub query: Style,
    /// The status bar.
    pub status: Style,
    /// Key names in the hint bar and help.
    pub key: Style,
    /// Group headers in the results list and help.
    pub header: Style,
    /// Pane separators and popup borders.
    pub border: Style,
    /// Popup background.
    pub popup: Style,
}

fn c(rgb: Rgb) -> Color {
    Color::Rgb(rgb.0, rgb.1, rgb.2)
}

impl UiTheme {
    /// The chrome styles of `md`, with colours dropped when `no_color`.
    pub fn new(md: Theme, no_color: bool) -> UiTheme {
        let u = md.ui.clone();
        let t = UiTheme {
            no_color,
            cursor: Style::new().bg(c(u.cursor_bg)).add_modifier(Modifier::BOLD),
            cursor_dim: Style::new().bg(c(u.selection_bg)),
            dim: Style::new().fg(c(u.dim)),
            bytes: Style::new().fg(c(u.bytes)),
            tokens: Style::new().fg(c(u.tokens)),
            mark: Style::new().fg(c(u.success)).add_modifier(Modifier::BOLD),
            partial: Style::new().fg(c(u.warning)).add_modifier(Modifier::BOLD),
            warn: Style::new().fg(c(u.warning)).add_modifier(Modifier::BOLD),
            error: Style::new().fg(c(u.error)).add_modifier(Modifier::BOLD),
            glyph_dir: Style::new().fg(c(u.tree_dir)),
            glyph_file: Style::new().fg(c(u.tree_file)),
            glyph_section: Style::new().fg(c(u.tree_section)),
            title: Style::new().fg(c(u.foreground)),
            top: Style::new().bg(c(u.status_bg)).fg(c(u.status_fg)),
            query: Style::new().fg(c(u.title)).add_modifier(Modifier::BOLD),
            status: Style::new().bg(c(u.status_bg)).fg(c(u.status_fg)),
            key: Style::new().fg(c(u.accent)).add_modifier(Modifier::BOLD),
            header: Style::new().fg(c(u.accent)).add_modifier(Modifier::BOLD),
            border: Style::new().fg(c(u.border)),
            popup: Style::new().bg(c(u.background)).fg(c(u.foreground)),
            md,
        };
        if no_color { t.without_colors() } else { t }
    }

    /// Load the theme named by `spec`: `"dark"`, `"light"`, or a path to a theme TOML. A
    /// file that cannot be read or parsed gives the dark theme and a warning.
    pub fn load(spec: &str, no_color: bool) -> (UiTheme, Option<String>) {
        let (md, warning) = match spec.to_ascii_lowercase().as_str() {
            "" | "dark" => (Theme::dark(), None),
            "light" => (Theme::light(), None),
            _ => match std::fs::read_to_string(spec) {
                Ok(text) => match Theme::from_toml(&text) {
                    Ok(t) => (t, None),
                    Err(e) => (Theme::dark(), Some(format!("theme {spec}: {e}"))),
                },
                Err(e) => (Theme::dark(), Some(format!("theme {spec}: {e}"))),
            },
        };
        (UiTheme::new(md, no_color), warning)
    }

    fn without_colors(self) -> UiTheme {
        let s = strip;
        UiTheme {
            // Colours carried the cursor; without them it is shown reversed.
            cursor: s(self.cursor).add_modifier(Modifier::REVERSED),
            cursor_dim: s(self.cursor_dim).add_modifier(Modifier::UNDERLINED),
            dim: s(self.dim).add_modifier(Modifier::DIM),
            bytes: s(self.bytes),
            tokens: s(self.tokens),
            mark: s(self.mark),
            partial: s(self.partial),
            warn: s(self.warn),
            error: s(self.error),
            glyph_dir: s(self.glyph_dir),
            glyph_file: s(self.glyph_file),
            glyph_section: s(self.glyph_section),
            title: s(self.title),
            top: s(self.top).add_modifier(Modifier::REVERSED),
            query: s(self.query),
            status: s(self.status),
            key: s(self.key),
            header: s(self.header).add_modifier(Modifier::UNDERLINED),
            border: s(self.border),
            popup: s(self.popup),
            ..self
        }
    }
}

/// Drop colours, keep attributes (the `NO_COLOR` rule).
pub fn strip(style: Style) -> Style {
    Style {
        fg: None,
        bg: None,
        underline_color: None,
        ..style
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_keeps_attributes_only() {
        let t = UiTheme::new(Theme::dark(), true);
        assert_eq!(t.mark.fg, None);
        assert!(t.mark.add_modifier.contains(Modifier::BOLD));
        assert_eq!(t.status.bg, None);
        assert!(t.cursor.add_modifier.contains(Modifier::REVERSED));
        let colored = UiTheme::new(Theme::dark(), false);
        assert_eq!(colored.mark.fg, Some(c(Theme::dark().ui.success)));
    }

    #[test]
    fn theme_specs_load_or_warn() {
        let (light, w) = UiTheme::load("light", false);
        assert_eq!((light.md.clone(), w), (Theme::light(), None));
        let (dark, w) = UiTheme::load("/nonexistent/theme.toml", false);
        assert_eq!(dark.md, Theme::dark());
        assert!(w.is_some_and(|w| w.starts_with("theme /nonexistent/theme.toml: ")));
    }
}
