//! The event loop: a crossterm input thread and the worker result channel, multiplexed
//! with `crossbeam_channel::select!`. After an event arrives, every pending event and result
//! is drained and applied, queued effects are dispatched to workers, and the screen is
//! drawn once. Nothing is drawn without an event: the one timer is the one-shot deadline
//! of a paused search (`SearchState::refine_at`), which arms only while a re-ranker is on.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, select};
use crossterm::event::{self, Event, KeyEventKind, MouseButton, MouseEventKind};

use super::effect::Effect;
use super::effects::jobs::{Job, Live, SearchJob, jobs_for};
use super::effects::worker_msg::WorkerMsg;
use super::effects::workers;
use super::input::action::Action;
use super::input::key::KeyChord;
use super::state::app::App;
use super::terminal::Session;
use super::update::editor::before_external;
use super::update::{after_external, apply, update};
use super::view;

/// Turn a terminal event into an action for the current mode (`None`: ignored).
pub fn action_for(app: &App, ev: &Event) -> Option<Action> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            app.keymap.lookup(app.mode(), &KeyChord::from_event(k))
        }
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        Event::Paste(s) => Some(Action::Paste(s.clone())),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => Some(Action::ScrollAt {
                col: m.column,
                row: m.row,
                down: true,
            }),
            MouseEventKind::ScrollUp => Some(Action::ScrollAt {
                col: m.column,
                row: m.row,
                down: false,
            }),
            MouseEventKind::Down(MouseButton::Left) => Some(Action::ClickAt {
                col: m.column,
                row: m.row,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// Flags shared with the input thread: `stop` ends it; while `paused` it does not touch
/// the terminal (another program owns it) and sets `idle` once it has stopped polling.
#[derive(Default)]
struct InputControl {
    stop: AtomicBool,
    paused: AtomicBool,
    idle: AtomicBool,
}

impl InputControl {
    /// Pause the reader and wait (up to 1 s) until it no longer polls, so no key typed
    /// into the other program is stolen.
    fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
        let deadline = std::time::Instant::now() + Duration::from_secs(1);
        while !self.idle.load(Ordering::SeqCst) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }
}

fn input_thread(tx: Sender<Event>, ctl: Arc<InputControl>) {
    let _ = std::thread::Builder::new()
        .name("skillnav-input".into())
        .spawn(move || {
            while !ctl.stop.load(Ordering::Relaxed) {
                if ctl.paused.load(Ordering::SeqCst) {
                    ctl.idle.store(true, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                ctl.idle.store(false, Ordering::SeqCst);
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

    /// Run the effects `app` queued: queries go to the search worker, every other job to a
    /// thread of its own.
    pub fn dispatch(&self, app: &mut App) {
        for effect in std::mem::take(&mut app.effects) {
            for job in jobs_for(effect, &Live::of(app)) {
                match job {
                    Job::Search(q) => {
                        let _ = self.search.send(q);
                    }
                    job => workers::start(&self.tx, job),
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
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGQUIT, SIGINT])
    else {
        return (rx, None);
    };
    let handle = signals.handle();
    let _ = std::thread::Builder::new()
        .name("skillnav-signals".into())
        .spawn(move || {
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
    let ctl = Arc::new(InputControl::default());
    input_thread(etx, Arc::clone(&ctl));
    let (sig_rx, sig_handle) = signal_thread();
    let result = (|| -> anyhow::Result<()> {
        loop {
            run_external_editors(session, app, &ctl)?;
            workers.dispatch(app);
            if std::mem::take(&mut app.redraw) {
                crate::tui::terminal::clear(&mut session.terminal)?;
            }
            session.terminal.draw(|f| view::draw(f, app))?;
            if app.quit {
                return Ok(());
            }
            let refine = app
                .search
                .refine_at
                .map_or_else(crossbeam_channel::never, |t| {
                    crossbeam_channel::at(t.max(std::time::Instant::now()))
                });
            select! {
                recv(refine) -> _ => update(app, Action::TypingPaused),
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
    ctl.stop.store(true, Ordering::Relaxed);
    #[cfg(unix)]
    if let Some(h) = sig_handle {
        h.close();
    }
    #[cfg(not(unix))]
    let _ = sig_handle;
    result
}

/// Run each queued `$EDITOR` request: pause the input thread, hand the terminal over, wait
/// for the editor, take the terminal back, then reload the file's root.
///
/// Errors: the terminal cannot be set up again.
fn run_external_editors(
    session: &mut Session,
    app: &mut App,
    ctl: &InputControl,
) -> anyhow::Result<()> {
    let (external, rest): (Vec<Effect>, Vec<Effect>) = std::mem::take(&mut app.effects)
        .into_iter()
        .partition(|e| matches!(e, Effect::External { .. }));
    app.effects = rest;
    for effect in external {
        let Effect::External { path, root } = effect else {
            continue;
        };
        let before = before_external(&path);
        ctl.pause();
        session.suspend();
        let outcome = run_editor(&path);
        let resumed = session.resume(app.settings.ui.mouse);
        ctl.resume();
        resumed?;
        let size = session.terminal.size()?;
        update(app, Action::Resize(size.width, size.height));
        after_external(app, &path, root, before, outcome);
    }
    Ok(())
}

/// The editor command: `$VISUAL`, else `$EDITOR`, else `vi` (may carry arguments, run
/// through `sh -c` with the file as `$1`).
fn editor_command() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".into())
}

/// Run the editor on `path` and wait. Errors: a message for the status line.
fn run_editor(path: &std::path::Path) -> Result<(), String> {
    let cmd = editor_command();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{cmd} \"$1\""))
        .arg("skillnav-editor")
        .arg(path)
        .status()
        .map_err(|e| format!("cannot run {cmd}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd} exited with {status}; reloading anyway"))
    }
}

fn handle_event(app: &mut App, ev: &Event) {
    if let Some(a) = action_for(app, ev) {
        update(app, a);
    }
}
