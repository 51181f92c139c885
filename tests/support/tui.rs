//! The headless TUI harness: build an app over fixtures, drive it by actions or by real key
//! presses (through the keymap), run the queued worker jobs (`tui::headless`), and read the
//! screen back from a `TestBackend` as text (cells covered by wide characters skipped).

use std::ops::{Deref, DerefMut};
use std::path::Path;
use std::sync::Arc;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use skillnav::curate::recipe::Store;
use skillnav::formats::{LoadOptions, RootSpec};
use skillnav::model::{Corpus, NodeId};
use skillnav::render::Theme;
use skillnav::tokens::Encoding;
use skillnav::tui::config::Settings;
use skillnav::tui::effects::headless;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::Keymap;
use skillnav::tui::state::app::App;
use skillnav::tui::state::built_text::BuiltText;
use skillnav::tui::state::curate::InputPurpose;
use skillnav::tui::theme::UiTheme;
use skillnav::tui::{update::update, view};

// ---------------------------------------------------------------- building an app

/// An empty app of `w`×`h` cells counting in `encoding`: default keymap and settings, the
/// dark theme (`no_color` drops its colours).
pub fn blank_app(encoding: Encoding, no_color: bool, w: u16, h: u16) -> App {
    let theme = UiTheme::new(Theme::dark(), no_color);
    // No re-rank tier unless a test asks for it: what the user's data folder holds never
    // changes a TUI test.
    let mut settings = Settings::default();
    settings.search.semantic = skillnav::config::Semantic::Off;
    let mut app = App::new(Corpus::new(), encoding, Keymap::defaults(), settings, theme);
    update(&mut app, Action::Resize(w, h));
    app
}

/// [`blank_app`] with `corpus` loaded, counted and indexed.
pub fn app_on_corpus(corpus: Corpus, encoding: Encoding, no_color: bool, w: u16, h: u16) -> App {
    let mut app = blank_app(encoding, no_color, w, h);
    headless::load(&mut app, corpus);
    headless::settle(&mut app);
    app
}

/// A root spec of `path` shown as `label`.
pub fn spec(path: &Path, label: &str) -> RootSpec {
    RootSpec {
        path: path.to_path_buf(),
        label: label.into(),
    }
}

/// An o200k app of `w`×`h` cells over `specs`, loaded, counted and indexed; `store` replaces
/// the user's recipe folder (never the real one); `before_load` runs before loading.
pub fn app_with(
    specs: Vec<RootSpec>,
    w: u16,
    h: u16,
    store: &Path,
    before_load: impl FnOnce(&mut App),
) -> App {
    let mut app = blank_app(Encoding::O200kBase, false, w, h);
    app.curate.store = Some(Store::new(store));
    before_load(&mut app);
    headless::load_specs(&mut app, specs, LoadOptions::default());
    headless::settle(&mut app);
    app
}

/// [`app_with`] over one folder, the load's status cleared.
pub fn app_over(path: &Path, label: &str, w: u16, h: u16, store: &Path) -> App {
    let mut app = app_with(vec![spec(path, label)], w, h, store, |_| {});
    app.status.clear();
    app
}

/// An app with its own temporary recipe folder (removed on drop); derefs to the [`App`].
pub struct Tui {
    app: App,
    store: tempfile::TempDir,
}

impl Tui {
    /// The recipe folder this app saves into.
    pub fn store(&self) -> &Path {
        self.store.path()
    }
}

impl Deref for Tui {
    type Target = App;
    fn deref(&self) -> &App {
        &self.app
    }
}

impl DerefMut for Tui {
    fn deref_mut(&mut self) -> &mut App {
        &mut self.app
    }
}

/// [`app_over`] with a fresh temporary recipe folder.
pub fn tui_over(path: &Path, label: &str, w: u16, h: u16) -> Tui {
    let store = tempfile::tempdir().expect("tmp");
    Tui {
        app: app_over(path, label, w, h, store.path()),
        store,
    }
}

// ---------------------------------------------------------------- driving it

/// Apply `actions` one by one through `update`, running the queued jobs after each; the
/// copy jobs' nodes.
pub fn act(app: &mut App, actions: &[Action]) -> Vec<Vec<NodeId>> {
    let mut copies = Vec::new();
    for a in actions {
        update(app, a.clone());
        copies.extend(headless::settle(app));
    }
    copies
}

/// The action a real key press gives in the current mode (through the keymap).
pub fn key_action(app: &App, code: KeyCode, mods: KeyModifiers) -> Action {
    let ev = Event::Key(KeyEvent::new(code, mods));
    skillnav::tui::runtime::action_for(app, &ev).expect("the key maps to an action")
}

/// Press one key (through the keymap) and run the queued jobs; the copy jobs' nodes.
pub fn press(app: &mut App, code: KeyCode) -> Vec<Vec<NodeId>> {
    let a = key_action(app, code, KeyModifiers::NONE);
    act(app, &[a])
}

/// Press a key through the keymap without running the queued jobs.
pub fn press_no_settle(app: &mut App, code: KeyCode) {
    let a = key_action(app, code, KeyModifiers::NONE);
    update(app, a);
}

/// Type `text` into the open prompt, key by key.
pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        let a = key_action(app, KeyCode::Char(c), KeyModifiers::NONE);
        assert!(
            matches!(a, Action::TextKey(_)),
            "{c:?} types in the prompt, got {a:?}"
        );
        act(app, &[a]);
    }
}

/// The prompt's text.
pub fn input_text(app: &App) -> String {
    app.input_box()
        .as_ref()
        .expect("a prompt is open")
        .area
        .lines()
        .join("")
}

/// What the open prompt asks for (`None` when no prompt is open).
pub fn input_purpose(app: &App) -> Option<InputPurpose> {
    app.input_box().as_ref().map(|i| i.purpose.clone())
}

/// Empty the open prompt with Backspace (the cursor starts at its end).
pub fn clear_input(app: &mut App) {
    let n = input_text(app).chars().count();
    for _ in 0..n {
        let a = key_action(app, KeyCode::Backspace, KeyModifiers::NONE);
        act(app, &[a]);
    }
    assert_eq!(input_text(app), "");
}

/// The node with string id `node_id` (panics when missing).
pub fn id(app: &App, node_id: &str) -> NodeId {
    app.corpus
        .find(node_id)
        .unwrap_or_else(|| panic!("no node {node_id}"))
}

/// Put the tree cursor on `node` (its ancestors opened) and let the preview follow.
pub fn goto(app: &mut App, node: NodeId) {
    let corpus = Arc::clone(&app.corpus);
    app.tree.reveal(&corpus, node);
    act(app, &[Action::Redraw]);
    assert_eq!(app.current_node(), Some(node));
}

/// Select each of `nodes` (cursor on it, then Space).
pub fn select(app: &mut App, nodes: &[NodeId]) {
    for n in nodes {
        goto(app, *n);
        act(app, &[Action::ToggleSelect]);
    }
}

/// The text of the open brief / skill preview (panics while it is building or failed).
pub fn built(app: &App) -> Arc<BuiltText> {
    match app.brief_preview().as_ref().and_then(|p| p.built.clone()) {
        Some(Ok(b)) => b,
        other => panic!("no built preview text: {other:?}"),
    }
}

// ---------------------------------------------------------------- reading the screen

/// Draw `app` at its size on a new `TestBackend`.
pub fn draw(app: &App) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(app.size.0, app.size.1)).expect("terminal");
    t.draw(|f| view::draw(f, app)).expect("draw");
    t
}

/// The whole screen of `app` as text, rows joined with `\n`.
pub fn screen(app: &App) -> String {
    screen_text(draw(app).backend().buffer())
}

/// The top line's text.
pub fn top_line(app: &App) -> String {
    row_text(draw(app).backend().buffer(), 0)
}

/// Text of row `y` from column `x0` to `x1`, skipping cells covered by wide characters.
pub fn span_text(buf: &Buffer, y: u16, x0: u16, x1: u16) -> String {
    let mut out = String::new();
    let mut skip = 0;
    for x in x0..x1.min(buf.area.width) {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let sym = buf[(x, y)].symbol();
        skip = unicode_width::UnicodeWidthStr::width(sym).saturating_sub(1);
        out.push_str(sym);
    }
    out
}

/// Text of row `y`.
pub fn row_text(buf: &Buffer, y: u16) -> String {
    span_text(buf, y, 0, buf.area.width)
}

/// All rows, joined with `\n`.
pub fn screen_text(buf: &Buffer) -> String {
    (0..buf.area.height)
        .map(|y| row_text(buf, y))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tree pane's text of the row showing `title` (the tree is the left pane).
pub fn tree_row(app: &App, buf: &Buffer, title: &str) -> Option<String> {
    let a = skillnav::tui::view::layout::areas(app);
    (a.left.y..a.left.y + a.left.height)
        .map(|y| span_text(buf, y, a.left.x, a.left.x + a.left.width))
        .find(|row| row.contains(title))
}

/// The preview pane's rows.
pub fn preview_rows(app: &App) -> Vec<String> {
    let t = draw(app);
    let buf = t.backend().buffer();
    let a = skillnav::tui::view::layout::areas(app);
    (a.preview.y..a.preview.y + a.preview.height)
        .map(|y| span_text(buf, y, a.preview.x, a.preview.x + a.preview.width))
        .collect()
}
