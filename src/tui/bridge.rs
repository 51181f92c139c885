//! The one bridge from the core's styled text ([`crate::render::Line`]) to ratatui text.
//!
//! Each span's style is resolved through the render [`crate::render::Theme`]; under
//! `NO_COLOR` the colours are dropped and only bold, italic, underline, strikethrough and dim
//! remain, with search matches shown reversed so they stay visible. Span text was sanitised
//! when the span was built ([`crate::render::Span::new`]), so no control character or escape
//! sequence reaches the terminal from here.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use crate::render::{self, Role};

use crate::tui::theme::UiTheme;

/// The ratatui style of a core style under `theme`.
pub fn style(s: &render::Style, theme: &UiTheme) -> Style {
    let r = theme.md.resolve(s);
    let mut out = Style::new();
    if !theme.no_color {
        if let Some(fg) = r.fg {
            out = out.fg(Color::Rgb(fg.0, fg.1, fg.2));
        }
        if let Some(bg) = r.bg {
            out = out.bg(Color::Rgb(bg.0, bg.1, bg.2));
        }
    }
    let mut m = Modifier::empty();
    for (on, bit) in [
        (r.bold, Modifier::BOLD),
        (r.italic, Modifier::ITALIC),
        (r.underline, Modifier::UNDERLINED),
        (r.strike, Modifier::CROSSED_OUT),
        (r.dim, Modifier::DIM),
        (theme.no_color && r.role == Role::Match, Modifier::REVERSED),
    ] {
        if on {
            m |= bit;
        }
    }
    out.add_modifier(m)
}

/// Convert one core line.
pub fn line(l: &render::Line, theme: &UiTheme) -> Line<'static> {
    Line::from(
        l.spans
            .iter()
            .map(|s| Span::styled(s.text.clone(), style(&s.style, theme)))
            .collect::<Vec<_>>(),
    )
}

/// A span of untrusted `text` in a chrome style: the text is sanitised on the way
/// (control characters and escape sequences are neutralised).
pub fn text(text: &str, style: Style) -> Span<'static> {
    Span::styled(
        crate::util::sanitize::sanitize_line(text).into_owned(),
        style,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Theme;

    #[test]
    fn no_color_keeps_attributes_and_reverses_matches() {
        let mut l = render::Line::new();
        l.push(render::Span::role("# Title", Role::Heading(1)));
        l.push(render::Span::role("cors", Role::Match));
        let colored = line(&l, &UiTheme::new(Theme::dark(), false));
        assert!(colored.spans[0].style.fg.is_some());
        let plain = line(&l, &UiTheme::new(Theme::dark(), true));
        assert_eq!(plain.spans[0].style.fg, None);
        assert!(plain.spans[0].style.add_modifier.contains(Modifier::BOLD));
        assert_eq!(plain.spans[1].style.bg, None);
        assert!(
            plain.spans[1]
                .style
                .add_modifier
                .contains(Modifier::REVERSED)
        );
    }

    #[test]
    fn chrome_text_is_sanitised() {
        assert_eq!(
            text("a\x1b]0;pwned\x07b", Style::new()).content,
            "a␛]0;pwned␇b"
        );
    }
}
