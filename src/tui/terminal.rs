//! Terminal setup and restore: raw mode, alternate screen, mouse capture and bracketed
//! paste on entry; the reverse on every exit path — normal return, error (the [`Session`]
//! guard's `Drop`) and panic (the hook installed by [`install_panic_hook`] restores first,
//! then prints the panic).

use std::io::{self, Stdout, Write};
use std::sync::Once;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// Install (once per process) a panic hook that restores the terminal before the previous
/// hook prints the panic. Call before anything touches the terminal.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Worker panics are caught and reported in the status bar; only a panic on
            // the UI thread ends the session.
            let on_worker = std::thread::current().name().is_some_and(|n| n.starts_with("skillnav-"));
            if !on_worker {
                restore();
                previous(info);
            }
        }));
    });
}

/// Leave raw mode, the alternate screen, mouse capture and bracketed paste; show the cursor.
/// Safe to call more than once and when the terminal was never set up.
pub fn restore() {
    let _ = disable_raw_mode();
    let mut out = io::stdout();
    let _ = execute!(out, DisableMouseCapture, DisableBracketedPaste, LeaveAlternateScreen, cursor::Show);
    let _ = out.flush();
}

/// An active terminal session; dropping it restores the terminal.
pub struct Session {
    /// The ratatui terminal over stdout.
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Session {
    /// Enter raw mode and the alternate screen (and mouse capture when `mouse`).
    /// Errors: the terminal cannot be set up (not a TTY); it is restored before returning.
    pub fn enter(mouse: bool) -> io::Result<Session> {
        let setup = || -> io::Result<Terminal<CrosstermBackend<Stdout>>> {
            enable_raw_mode()?;
            let mut out = io::stdout();
            execute!(out, EnterAlternateScreen, EnableBracketedPaste)?;
            if mouse {
                execute!(out, EnableMouseCapture)?;
            }
            let mut t = Terminal::new(CrosstermBackend::new(out))?;
            t.clear()?;
            Ok(t)
        };
        match setup() {
            Ok(terminal) => Ok(Session { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}
