//! UI and markdown colour themes (docs/DESIGN.md §6): the built-in `themes/dark.toml` and
//! `themes/light.toml` (embedded), user overrides in the same TOML shape, role → [`Style`]
//! resolution for the TUI bridge, and the `NO_COLOR` switch.
//!
//! TOML shape: top-level `name`, `syntax_theme` (a bat theme name, see
//! [`SyntaxTheme::names`]) and optional `base = "dark" | "light"`; tables `[ui]` and
//! `[markdown]` of `key = "#rrggbb"` colours (keys as the fields of [`UiColors`] and
//! [`MarkdownColors`]). Unknown keys and malformed colours are errors.

use serde::{Deserialize, Serialize};

use crate::render::highlight::SyntaxTheme;
use crate::render::text::{Rgb, Role, Style};

const DARK_TOML: &str = include_str!("../../themes/dark.toml");
const LIGHT_TOML: &str = include_str!("../../themes/light.toml");

/// Why a theme could not be loaded.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ThemeError {
    /// Not valid TOML, an unknown key, a wrong type or a colour not in `#rrggbb` form (the
    /// message names the key and position).
    #[error("theme: {0}")]
    Toml(String),
    /// `base` is neither `"dark"` nor `"light"`.
    #[error("theme: unknown base {0:?} (expected \"dark\" or \"light\")")]
    UnknownBase(String),
    /// `syntax_theme` names no embedded syntax theme.
    #[error("theme: unknown syntax_theme {0:?}")]
    UnknownSyntaxTheme(String),
}

/// Colours of the TUI chrome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct UiColors {
    pub background: Rgb,
    pub foreground: Rgb,
    pub border: Rgb,
    pub border_focused: Rgb,
    pub title: Rgb,
    pub selection_bg: Rgb,
    pub cursor_bg: Rgb,
    pub dim: Rgb,
    pub accent: Rgb,
    pub warning: Rgb,
    pub error: Rgb,
    pub success: Rgb,
    /// Search hit foreground ([`Role::Match`]).
    pub match_fg: Rgb,
    /// Search hit background ([`Role::Match`]).
    pub match_bg: Rgb,
    pub tree_dir: Rgb,
    pub tree_file: Rgb,
    pub tree_section: Rgb,
    /// Token counts.
    pub tokens: Rgb,
    /// Byte sizes.
    pub bytes: Rgb,
    pub status_bg: Rgb,
    pub status_fg: Rgb,
}

/// Foreground (and a few background) colours of the markdown [`Role`]s.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct MarkdownColors {
    pub text: Rgb,
    pub heading1: Rgb,
    pub heading2: Rgb,
    /// Headings of level 3 to 6.
    pub heading3: Rgb,
    pub emphasis: Rgb,
    pub strong: Rgb,
    pub strike: Rgb,
    pub inline_code: Rgb,
    pub inline_code_bg: Rgb,
    pub code_block: Rgb,
    pub code_block_bg: Rgb,
    pub code_lang: Rgb,
    pub link: Rgb,
    pub link_url: Rgb,
    pub quote: Rgb,
    pub list_marker: Rgb,
    pub rule: Rgb,
    pub table_border: Rgb,
    pub table_header: Rgb,
    pub html: Rgb,
    pub image: Rgb,
    pub front_matter: Rgb,
    pub footnote: Rgb,
    pub dim: Rgb,
}

/// A complete theme.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    /// Display name.
    pub name: String,
    /// bat/two-face syntax theme for code blocks (validated on load).
    pub syntax_theme: String,
    /// TUI chrome colours.
    pub ui: UiColors,
    /// Markdown role colours.
    pub markdown: MarkdownColors,
}

/// Recursively overlay `over` onto `base` (tables merge key by key; other values replace).
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

fn parse_table(s: &str) -> Result<toml::Table, ThemeError> {
    s.parse::<toml::Table>()
        .map_err(|e| ThemeError::Toml(e.to_string()))
}

impl Theme {
    /// The built-in dark theme (`themes/dark.toml`).
    pub fn dark() -> Theme {
        Theme::builtin(DARK_TOML)
    }

    /// The built-in light theme (`themes/light.toml`).
    pub fn light() -> Theme {
        Theme::builtin(LIGHT_TOML)
    }

    fn builtin(src: &str) -> Theme {
        // The embedded files are checked by the tests `builtin_themes_parse`; should one be
        // broken anyway, fall back to a valid theme instead of panicking.
        toml::from_str(src).unwrap_or_else(|_| Theme::fallback())
    }

    fn fallback() -> Theme {
        let grey = Rgb(0xc0, 0xc0, 0xc0);
        let dark = Rgb(0x20, 0x20, 0x20);
        let ui = UiColors {
            background: dark,
            foreground: grey,
            border: grey,
            border_focused: grey,
            title: grey,
            selection_bg: Rgb(0x40, 0x40, 0x40),
            cursor_bg: Rgb(0x40, 0x40, 0x40),
            dim: Rgb(0x80, 0x80, 0x80),
            accent: grey,
            warning: grey,
            error: grey,
            success: grey,
            match_fg: dark,
            match_bg: grey,
            tree_dir: grey,
            tree_file: grey,
            tree_section: grey,
            tokens: grey,
            bytes: grey,
            status_bg: dark,
            status_fg: grey,
        };
        let markdown = MarkdownColors {
            text: grey,
            heading1: grey,
            heading2: grey,
            heading3: grey,
            emphasis: grey,
            strong: grey,
            strike: grey,
            inline_code: grey,
            inline_code_bg: dark,
            code_block: grey,
            code_block_bg: dark,
            code_lang: grey,
            link: grey,
            link_url: grey,
            quote: grey,
            list_marker: grey,
            rule: grey,
            table_border: grey,
            table_header: grey,
            html: grey,
            image: grey,
            front_matter: grey,
            footnote: grey,
            dim: grey,
        };
        Theme {
            name: "fallback".into(),
            syntax_theme: SyntaxTheme::DARK.name().into(),
            ui,
            markdown,
        }
    }

    /// Parse a theme from TOML, overlaying it on a base theme: the base is `base = "dark" |
    /// "light"` from the same text (default `dark`); every key missing from `src` keeps the
    /// base's value, so a file with just `[ui]\naccent = "#ff0000"` is valid.
    ///
    /// Errors: [`ThemeError::Toml`] for syntax errors, unknown keys, wrong types and colours
    /// not in `#rrggbb` form; [`ThemeError::UnknownBase`]; [`ThemeError::UnknownSyntaxTheme`].
    pub fn from_toml(src: &str) -> Result<Theme, ThemeError> {
        let mut over = parse_table(src)?;
        let base_src = match over.remove("base") {
            None => DARK_TOML,
            Some(toml::Value::String(b)) if b.eq_ignore_ascii_case("dark") => DARK_TOML,
            Some(toml::Value::String(b)) if b.eq_ignore_ascii_case("light") => LIGHT_TOML,
            Some(other) => {
                let name = other
                    .as_str()
                    .map_or_else(|| other.to_string(), str::to_string);
                return Err(ThemeError::UnknownBase(name));
            }
        };
        let mut base = parse_table(base_src)?;
        merge(&mut base, over);
        let theme: Theme = toml::Value::Table(base)
            .try_into()
            .map_err(|e| ThemeError::Toml(e.to_string()))?;
        if SyntaxTheme::from_name(&theme.syntax_theme).is_none() {
            return Err(ThemeError::UnknownSyntaxTheme(theme.syntax_theme));
        }
        Ok(theme)
    }

    /// The full theme as TOML (parses back with [`Theme::from_toml`] to an equal theme).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// The syntax theme for code blocks ([`SyntaxTheme::DARK`] if the name is unknown).
    pub fn syntax(&self) -> SyntaxTheme {
        SyntaxTheme::from_name(&self.syntax_theme).unwrap_or(SyntaxTheme::DARK)
    }

    /// The theme's style for `role`: colours from the theme plus the role's attributes
    /// (headings and strong bold, emphasis italic, strike, links underlined, URLs, code
    /// labels, HTML and frontmatter dim, matches bold on `match_bg`).
    pub fn style_for(&self, role: Role) -> Style {
        let m = &self.markdown;
        let s = Style::new(role);
        match role {
            Role::Text => s.fg(m.text),
            Role::Heading(1) => s.fg(m.heading1).bold(),
            Role::Heading(2) => s.fg(m.heading2).bold(),
            Role::Heading(_) => s.fg(m.heading3).bold(),
            Role::Emphasis => s.fg(m.emphasis).italic(),
            Role::Strong => s.fg(m.strong).bold(),
            Role::Strike => s.fg(m.strike).strike(),
            Role::InlineCode => Style {
                bg: Some(m.inline_code_bg),
                ..s.fg(m.inline_code)
            },
            Role::CodeBlock => Style {
                bg: Some(m.code_block_bg),
                ..s.fg(m.code_block)
            },
            Role::CodeLang => s.fg(m.code_lang).dim(),
            Role::Link => s.fg(m.link).underline(),
            Role::LinkUrl => s.fg(m.link_url).dim(),
            Role::Quote => s.fg(m.quote),
            Role::ListMarker => s.fg(m.list_marker),
            Role::Rule => s.fg(m.rule),
            Role::TableBorder => s.fg(m.table_border),
            Role::TableHeader => s.fg(m.table_header).bold(),
            Role::Html => s.fg(m.html).dim(),
            Role::Image => s.fg(m.image).italic(),
            Role::Match => Style {
                bg: Some(self.ui.match_bg),
                ..s.fg(self.ui.match_fg).bold()
            },
            Role::FrontMatter => s.fg(m.front_matter).dim(),
            Role::Footnote => s.fg(m.footnote),
            Role::Dim => s.fg(m.dim).dim(),
        }
    }

    /// Resolve a span's style for display: colours the span fixed itself (syntax
    /// highlighting) win, except for [`Role::Match`] which always uses the match colours;
    /// missing colours come from [`Theme::style_for`]; attributes are the union of both.
    pub fn resolve(&self, span: &Style) -> Style {
        let base = self.style_for(span.role);
        let (fg, bg) = if span.role == Role::Match {
            (base.fg, base.bg)
        } else {
            (span.fg.or(base.fg), span.bg.or(base.bg))
        };
        Style {
            role: span.role,
            fg,
            bg,
            bold: span.bold || base.bold,
            italic: span.italic || base.italic,
            underline: span.underline || base.underline,
            strike: span.strike || base.strike,
            dim: span.dim || base.dim,
        }
    }
}

impl Default for Theme {
    fn default() -> Self {
        Theme::dark()
    }
}

/// True when colours are disabled: the `NO_COLOR` environment variable is set and non-empty
/// (<https://no-color.org>). The TUI then drops colours but keeps bold, underline and reverse.
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_themes_parse() {
        let dark: Theme = toml::from_str(DARK_TOML).expect("dark.toml parses");
        let light: Theme = toml::from_str(LIGHT_TOML).expect("light.toml parses");
        assert_eq!(dark.name, "dark");
        assert_eq!(light.name, "light");
        assert_eq!(dark.syntax(), SyntaxTheme::DARK);
        assert_eq!(light.syntax(), SyntaxTheme::LIGHT);
        assert_eq!(
            SyntaxTheme::from_name(&dark.syntax_theme).map(SyntaxTheme::name),
            Some("Monokai Extended")
        );
        assert_eq!(
            SyntaxTheme::from_name(&light.syntax_theme).map(SyntaxTheme::name),
            Some("GitHub")
        );
    }

    #[test]
    fn resolve_prefers_span_colour_but_not_for_matches() {
        let t = Theme::dark();
        let code = Style::new(Role::CodeBlock).fg(Rgb(1, 2, 3));
        let r = t.resolve(&code);
        assert_eq!(r.fg, Some(Rgb(1, 2, 3)));
        assert_eq!(r.bg, Some(t.markdown.code_block_bg));
        let hit = Style {
            role: Role::Match,
            ..code
        };
        let r = t.resolve(&hit);
        assert_eq!(r.fg, Some(t.ui.match_fg));
        assert_eq!(r.bg, Some(t.ui.match_bg));
        assert!(r.bold);
    }
}
