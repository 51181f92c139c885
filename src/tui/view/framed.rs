//! The one bordered popup box: clear an area, draw the border (accent colour), the popup
//! background and a title cut to fit, and return the inner area.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Clear};

use crate::tui::state::app::App;
use crate::tui::view::row::fit;

/// Draw a popup box over `area` titled `title` (untrusted text is sanitised by `fit`);
/// returns the area inside the border.
pub fn framed(frame: &mut Frame, app: &App, area: Rect, title: String) -> Rect {
    frame.render_widget(Clear, area);
    let t = &app.theme;
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(t.key)
        .style(t.popup)
        .title(fit(
            vec![(title, t.header)],
            vec![],
            area.width.saturating_sub(2) as usize,
            0,
        ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    inner
}
