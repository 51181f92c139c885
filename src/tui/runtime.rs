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
                Effect::StartBackground => {
                    workers::count_tokens(&self.tx, Arc::clone(&app.corpus), app.encoding(), app.data_gen);
                    workers::build_indexes(&self.tx, Arc::clone(&app.corpus), app.data_gen);
                }
            }
        }
    }
}

/// Run the loop until the app quits. Errors: drawing to the terminal failed.
pub fn run_loop(session: &mut Session, app: &mut App, workers: &Workers) -> anyhow::Result<()> {
    let (etx, erx) = crossbeam_channel::unbounded();
    let stop = Arc::new(AtomicBool::new(false));
    input_thread(etx, Arc::clone(&stop));
    let result = (|| -> anyhow::Result<()> {
        loop {
            workers.dispatch(app);
            if std::mem::take(&mut app.redraw) {
                session.terminal.clear()?;
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
    result
}

fn handle_event(app: &mut App, ev: &Event) {
    if let Some(a) = action_for(app, ev) {
        update(app, a);
    }
}
