//! Terminal setup and restore: raw mode, alternate screen, mouse capture and bracketed
//! paste on entry; the reverse on every exit path — normal return, error (the [`Session`]
//! guard's `Drop`) and panic (the hook installed by [`install_panic_hook`] restores first,
//! then prints the panic).

use std::io::{self, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use std::thread::ThreadId;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// Whether a session is active (the terminal is in raw mode on the alternate screen).
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// The thread that runs the session (the UI thread).
static UI_THREAD: Mutex<Option<ThreadId>> = Mutex::new(None);

/// Install (once per process) a panic hook that restores the terminal before the previous
/// hook prints the panic. Call before anything touches the terminal.
///
/// While a session is active, a panic on another thread (a worker, or a thread a worker
/// started) is left to the worker's `catch_unwind`, which reports it in the status bar:
/// printing it would scribble over the screen, and restoring would break the live session.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let ui = UI_THREAD.lock().map_or(None, |t| *t);
            let on_ui = ui.is_none_or(|t| t == std::thread::current().id());
            if !ACTIVE.load(Ordering::SeqCst) {
                previous(info);
            } else if on_ui {
                restore();
                previous(info);
            }
        }));
    });
}

/// Leave raw mode, the alternate screen, mouse capture and bracketed paste; show the cursor.
/// Does nothing unless a session is active, so it is safe to call more than once and
/// never writes escape sequences to a stdout that was not set up.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = disable_raw_mode();
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = out.flush();
}

/// Clear the screen and force a full redraw on the next draw. Unlike `Terminal::clear`,
/// this never asks the terminal for the cursor position (a query some terminals and
/// terminal emulators in tests never answer).
pub fn clear(t: &mut Terminal<CrosstermBackend<Stdout>>) -> io::Result<()> {
    let size = t.size()?;
    t.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
}

/// An active terminal session; dropping it restores the terminal.
pub struct Session {
    /// The ratatui terminal over stdout.
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl Session {
    /// Enter raw mode and the alternate screen (and mouse capture when `mouse`).
    /// Errors: stdout is not a terminal, or the terminal cannot be set up (it is restored
    /// before returning).
    pub fn enter(mouse: bool) -> io::Result<Session> {
        use std::io::IsTerminal;
        if !io::stdout().is_terminal() {
            return Err(io::Error::other(
                "the TUI needs a terminal (stdout is not a TTY); use a subcommand such as `skillnav tree`",
            ));
        }
        let setup = || -> io::Result<Terminal<CrosstermBackend<Stdout>>> {
            enable_raw_mode()?;
            let mut out = io::stdout();
            execute!(out, EnterAlternateScreen, EnableBracketedPaste)?;
            if mouse {
                execute!(out, EnableMouseCapture)?;
            }
            let mut t = Terminal::new(CrosstermBackend::new(out))?;
            clear(&mut t)?;
            Ok(t)
        };
        if let Ok(mut t) = UI_THREAD.lock() {
            *t = Some(std::thread::current().id());
        }
        ACTIVE.store(true, Ordering::SeqCst);
        match setup() {
            Ok(terminal) => Ok(Session { terminal }),
            Err(e) => {
                restore();
                Err(e)
            }
        }
    }
}

impl Session {
    /// Hand the terminal to another program (`$EDITOR`): leave raw mode, the alternate
    /// screen, mouse capture and bracketed paste, show the cursor.
    pub fn suspend(&mut self) {
        restore();
    }

    /// Take the terminal back after [`Session::suspend`]: raw mode, alternate screen,
    /// bracketed paste (and mouse capture when `mouse`), then a full redraw on the next draw.
    /// Errors: the terminal cannot be set up again (it is restored before returning).
    pub fn resume(&mut self, mouse: bool) -> io::Result<()> {
        ACTIVE.store(true, Ordering::SeqCst);
        let setup = |t: &mut Terminal<CrosstermBackend<Stdout>>| -> io::Result<()> {
            enable_raw_mode()?;
            let mut out = io::stdout();
            execute!(out, EnterAlternateScreen, EnableBracketedPaste)?;
            if mouse {
                execute!(out, EnableMouseCapture)?;
            }
            clear(t)
        };
        setup(&mut self.terminal).inspect_err(|_| restore())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
    }
}
