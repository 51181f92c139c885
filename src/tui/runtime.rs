//! The event loop: a crossterm input thread and the worker result channel, multiplexed
//! with `crossbeam_channel::select!`. After an event arrives, every pending event and result
//! is drained and applied, queued effects are dispatched to workers, and the screen is
//! drawn once. Nothing is drawn without an event (no timer).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, select};
use crossterm::event::{self, Event, KeyEventKind, MouseButton, MouseEventKind};

use super::action::Action;
use super::app::{App, Effect};
use super::keymap::KeyChord;
use super::terminal::Session;
use super::update::{apply, update};
use super::view;
use super::workers::{self, SearchJob, WorkerMsg};

/// Turn a terminal event into an action for the current mode (`None`: ignored).
pub fn action_for(app: &App, ev: &Event) -> Option<Action> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            app.keymap.lookup(app.mode, &KeyChord::from_event(k))
        }
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        Event::Paste(s) => Some(Action::Paste(s.clone())),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => Some(Action::ScrollAt { col: m.column, row: m.row, down: true }),
            MouseEventKind::ScrollUp => Some(Action::ScrollAt { col: m.column, row: m.row, down: false }),
            MouseEventKind::Down(MouseButton::Left) => Some(Action::ClickAt { col: m.column, row: m.row }),
            _ => None,
        },
        _ => None,
    }
}

fn input_thread(tx: Sender<Event>, stop: Arc<AtomicBool>) {
    let _ = std::thread::Builder::new().name("skillnav-input".into()).spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            match event::poll(Duration::from_millis(50)) {
                Ok(true) => match event::read() {
                    Ok(ev) => {
                        if tx.send(ev).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                },
                Ok(false) => {}
                Err(_) => return,
            }
        }
    });
}

/// The worker side of the loop: the result channel and the long-lived search worker.
pub struct Workers {
    /// Results from every worker.
    pub tx: Sender<WorkerMsg>,
    /// Where results arrive.
    pub rx: Receiver<WorkerMsg>,
    /// Queries for the search worker.
    pub search: Sender<SearchJob>,
}

impl Workers {
    /// Channels and the search worker.
    pub fn start() -> Workers {
        let (tx, rx) = crossbeam_channel::unbounded();
        let search = workers::search_worker(&tx);
        Workers { tx, rx, search }
    }

    /// Run the effects `app` queued.
    pub fn dispatch(&self, app: &mut App) {
        for effect in std::mem::take(&mut app.effects) {
            match effect {
                Effect::Search { generation, query } => {
                    let _ = self.search.send(SearchJob {
                        generation,
                        query,
                        corpus: Arc::clone(&app.corpus),
                        index: app.index.clone(),
                        fuzzy: app.fuzzy.clone(),
                        top_k: app.settings.search.top_k,
                    });
                }
                Effect::Copy { units } => {
                    workers::copy(&self.tx, Arc::clone(&app.corpus), units, app.encoding())
                }
                Effect::Highlight { generation, node, width, blocks } => {
                    workers::highlight(&self.tx, generation, node, width, blocks, app.theme.md.syntax());
                }
                Effect::Render { generation, node, width, terms } => {
                    workers::render(&self.tx, Arc::clone(&app.corpus), generation, node, width, terms);
                }
                Effect::StartBackground => {
                    workers::count_tokens(&self.tx, Arc::clone(&app.corpus), app.encoding(), app.data_gen);
                    workers::build_indexes(&self.tx, Arc::clone(&app.corpus), app.data_gen);
                }
            }
        }
    }
}

/// Termination signals (SIGTERM, SIGHUP, SIGQUIT, SIGINT) arrive on the returned channel, so
/// the loop ends normally and the terminal is restored. The handle stops the thread.
#[cfg(unix)]
fn signal_thread() -> (Receiver<i32>, Option<signal_hook::iterator::Handle>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let (tx, rx) = crossbeam_channel::unbounded();
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGQUIT, SIGINT]) else {
        return (rx, None);
    };
    let handle = signals.handle();
    let _ = std::thread::Builder::new().name("skillnav-signals".into()).spawn(move || {
        for sig in signals.forever() {
            if tx.send(sig).is_err() {
                return;
            }
        }
    });
    (rx, Some(handle))
}

#[cfg(not(unix))]
fn signal_thread() -> (Receiver<i32>, Option<()>) {
    (crossbeam_channel::never(), None)
}

/// Run the loop until the app quits.
///
/// Errors: drawing to the terminal failed, or a termination signal arrived (the message
/// names it; the terminal is restored by the caller's [`Session`] either way).
pub fn run_loop(session: &mut Session, app: &mut App, workers: &Workers) -> anyhow::Result<()> {
    let (etx, erx) = crossbeam_channel::unbounded();
    let stop = Arc::new(AtomicBool::new(false));
    input_thread(etx, Arc::clone(&stop));
    let (sig_rx, sig_handle) = signal_thread();
    let result = (|| -> anyhow::Result<()> {
        loop {
            workers.dispatch(app);
            if std::mem::take(&mut app.redraw) {
                super::terminal::clear(&mut session.terminal)?;
            }
            session.terminal.draw(|f| view::draw(f, app))?;
            if app.quit {
                return Ok(());
            }
            select! {
                recv(erx) -> ev => match ev {
                    Ok(ev) => handle_event(app, &ev),
                    Err(_) => return Ok(()),
                },
                recv(workers.rx) -> msg => if let Ok(msg) = msg { apply(app, msg) },
                recv(sig_rx) -> sig => if let Ok(sig) = sig {
                    anyhow::bail!("terminated by signal {sig}");
                },
            }
            // Drain everything pending, then draw once.
            loop {
                if let Ok(ev) = erx.try_recv() {
                    handle_event(app, &ev);
                } else if let Ok(msg) = workers.rx.try_recv() {
                    apply(app, msg);
                } else {
                    break;
                }
                if app.quit {
                    break;
                }
            }
        }
    })();
    stop.store(true, Ordering::Relaxed);
    #[cfg(unix)]
    if let Some(h) = sig_handle {
        h.close();
    }
    #[cfg(not(unix))]
    let _ = sig_handle;
    result
}

fn handle_event(app: &mut App, ev: &Event) {
    if let Some(a) = action_for(app, ev) {
        update(app, a);
    }
}
