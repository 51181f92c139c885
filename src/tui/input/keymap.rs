//! Per-mode keymaps: `assets/keymap.toml` (embedded) merged with the user's file, key
//! parsing (`"ctrl-d"`, `"pgdn"`, `"G"`), lookup `(mode, key) → Action`, and the entries the
//! help popup and the hint bar are generated from.
//!
//! Typing into the search box never triggers a command: printable keys without ctrl/alt
//! become [`Action::SearchInsert`] in [`Mode::Search`], and the loader refuses to bind them.
//! The editor's text areas ([`Mode::Field`], [`Mode::Raw`], [`Mode::Prompt`]) work the same
//! way: every key not bound there (printable or not) becomes [`Action::TextKey`].

use std::collections::BTreeMap;

use crossterm::event::KeyCode;

use crate::tui::input::action::Action;
pub use crate::tui::input::key::KeyChord;

/// The embedded default keymap.
pub const DEFAULT_KEYMAP: &str = include_str!("../../../assets/keymap.toml");

/// Which keymap table applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// Tree, results and preview.
    Normal,
    /// The search box has the focus.
    Search,
    /// The help popup is open.
    Help,
    /// Frontmatter editor, the field list has the focus (letters are commands).
    Form,
    /// Frontmatter editor, a field's text area has the focus (letters type).
    Field,
    /// Frontmatter editor in raw mode: the whole YAML block in one text area.
    Raw,
    /// The diff popup of a save.
    Diff,
    /// The editor asks for the name of a new key.
    Prompt,
    /// The editor asks whether to discard unsaved changes.
    Confirm,
    /// The outline popup (headings of the current file).
    Outline,
    /// The collision map popup (skills whose descriptions compete).
    Collisions,
    /// The brief / rendered-skill preview popup.
    Brief,
    /// The recipe list popup.
    Recipes,
    /// A one-line text prompt (recipe name, budget, export folder, skill arguments).
    Input,
    /// A question with a few answers (delete a recipe, oversize OSC 52 copy, replace a
    /// folder).
    Ask,
}

impl Mode {
    /// All modes, in help order.
    pub const ALL: [Mode; 15] = [
        Mode::Normal,
        Mode::Search,
        Mode::Help,
        Mode::Outline,
        Mode::Collisions,
        Mode::Brief,
        Mode::Recipes,
        Mode::Input,
        Mode::Ask,
        Mode::Form,
        Mode::Field,
        Mode::Raw,
        Mode::Diff,
        Mode::Prompt,
        Mode::Confirm,
    ];

    /// The table name in `keymap.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Normal => "normal",
            Mode::Search => "search",
            Mode::Help => "help",
            Mode::Form => "form",
            Mode::Field => "field",
            Mode::Raw => "raw",
            Mode::Diff => "diff",
            Mode::Prompt => "prompt",
            Mode::Confirm => "confirm",
            Mode::Outline => "outline",
            Mode::Collisions => "collisions",
            Mode::Brief => "brief",
            Mode::Recipes => "recipes",
            Mode::Input => "input",
            Mode::Ask => "ask",
        }
    }

    /// Modes where a text area has the focus: printable keys type and cannot be bound.
    pub fn types_text(self) -> bool {
        matches!(
            self,
            Mode::Search | Mode::Field | Mode::Raw | Mode::Prompt | Mode::Input
        )
    }
}

/// Bindings of every mode: mode → action → keys, in [`Action::BINDABLE`] order for help.
#[derive(Clone, Debug, Default)]
pub struct Keymap {
    modes: BTreeMap<Mode, Vec<(Action, Vec<KeyChord>)>>,
}

type RawKeymap = BTreeMap<String, BTreeMap<String, Vec<String>>>;

impl Keymap {
    /// The embedded default keymap.
    pub fn defaults() -> Keymap {
        let mut km = Keymap::default();
        // The embedded file is tested (`default_keymap_loads_clean`); warnings cannot occur.
        let _ = km.merge_toml(DEFAULT_KEYMAP);
        km
    }

    /// Defaults merged with `user` TOML text; returns the keymap and one warning per
    /// problem (bad TOML, unknown mode/action/key, a printable key bound in search mode).
    pub fn with_user(user: Option<&str>) -> (Keymap, Vec<String>) {
        let mut km = Keymap::defaults();
        let warnings = match user {
            Some(text) => km.merge_toml(text),
            None => Vec::new(),
        };
        (km, warnings)
    }

    /// Merge bindings from TOML text: each listed action replaces its keys in that mode.
    pub fn merge_toml(&mut self, text: &str) -> Vec<String> {
        let raw: RawKeymap = match toml::from_str(text) {
            Ok(r) => r,
            Err(e) => return vec![format!("keymap: {}", e.message())],
        };
        let mut warnings = Vec::new();
        for (mode_name, table) in raw {
            let Some(mode) = Mode::ALL.into_iter().find(|m| m.as_str() == mode_name) else {
                warnings.push(format!("keymap: unknown mode [{mode_name}]"));
                continue;
            };
            for (action_name, keys) in table {
                let action: Action =
                    if let Ok(a) = toml::Value::String(action_name.clone()).try_into() {
                        a
                    } else {
                        warnings.push(format!(
                            "keymap: unknown action {action_name:?} in [{mode_name}]"
                        ));
                        continue;
                    };
                let mut chords = Vec::new();
                for k in keys {
                    match KeyChord::parse(&k) {
                        Some(c) if mode.types_text() && c.is_text() => warnings.push(format!(
                            "keymap: {k:?} types text in [{mode_name}] and cannot be bound there"
                        )),
                        Some(c) => chords.push(c),
                        None => {
                            warnings.push(format!("keymap: unknown key {k:?} for {action_name}"));
                        }
                    }
                }
                self.set(mode, action, chords);
            }
        }
        warnings
    }

    fn set(&mut self, mode: Mode, action: Action, chords: Vec<KeyChord>) {
        let entries = self.modes.entry(mode).or_default();
        // A key moves to the action that claims it last.
        for (_, ks) in entries.iter_mut() {
            ks.retain(|k| !chords.contains(k));
        }
        match entries.iter_mut().find(|(a, _)| *a == action) {
            Some((_, ks)) => *ks = chords,
            None => entries.push((action, chords)),
        }
        let order = |a: &Action| {
            Action::BINDABLE
                .iter()
                .position(|b| b == a)
                .unwrap_or(usize::MAX)
        };
        entries.sort_by_key(|(a, _)| order(a));
    }

    /// The action bound to `key` in `mode`; in search mode an unbound printable key types,
    /// in the editor's text modes every unbound key goes to the text area.
    pub fn lookup(&self, mode: Mode, key: &KeyChord) -> Option<Action> {
        let bound = self.modes.get(&mode).and_then(|es| {
            es.iter()
                .find(|(_, ks)| ks.contains(key))
                .map(|(a, _)| a.clone())
        });
        match (bound, mode, key.code) {
            (Some(a), ..) => Some(a),
            (None, Mode::Search, KeyCode::Char(c)) if key.is_text() => {
                Some(Action::SearchInsert(c))
            }
            (None, Mode::Field | Mode::Raw | Mode::Prompt | Mode::Input, _) => {
                Some(Action::TextKey(*key))
            }
            _ => None,
        }
    }

    /// `(keys label, description)` of every bound action in `mode`, in help order.
    pub fn entries(&self, mode: Mode) -> Vec<(String, &'static str)> {
        self.modes
            .get(&mode)
            .map(|es| {
                es.iter()
                    .filter(|(_, ks)| !ks.is_empty())
                    .map(|(a, ks)| {
                        (
                            ks.iter().map(KeyChord::label).collect::<Vec<_>>().join(" "),
                            a.desc(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The first key label of `action` in `mode`, if bound.
    pub fn first_key(&self, mode: Mode, action: &Action) -> Option<String> {
        self.modes
            .get(&mode)?
            .iter()
            .find(|(a, _)| a == action)
            .and_then(|(_, ks)| ks.first())
            .map(KeyChord::label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyEvent, KeyModifiers};

    fn key(s: &str) -> KeyChord {
        KeyChord::parse(s).unwrap_or_else(|| panic!("bad key {s}"))
    }

    #[test]
    fn default_keymap_loads_clean() {
        let mut km = Keymap::default();
        assert_eq!(km.merge_toml(DEFAULT_KEYMAP), Vec::<String>::new());
        assert_eq!(km.lookup(Mode::Normal, &key("j")), Some(Action::MoveDown));
        assert_eq!(km.lookup(Mode::Normal, &key("G")), Some(Action::Bottom));
        assert_eq!(
            km.lookup(Mode::Normal, &key("ctrl-d")),
            Some(Action::HalfPageDown)
        );
        assert_eq!(
            km.lookup(Mode::Normal, &key("space")),
            Some(Action::SelectDown)
        );
        assert_eq!(km.lookup(Mode::Help, &key("q")), Some(Action::Escape));
    }

    #[test]
    fn search_mode_keys_type_text() {
        let km = Keymap::defaults();
        for c in ['q', 'j', 'y', '/', '?', ' ', 'G'] {
            assert_eq!(
                km.lookup(Mode::Search, &key(&c.to_string())),
                Some(Action::SearchInsert(c))
            );
        }
        assert_eq!(km.lookup(Mode::Search, &key("ctrl-c")), Some(Action::Quit));
        assert_eq!(
            km.lookup(Mode::Search, &key("enter")),
            Some(Action::SearchAccept)
        );
    }

    #[test]
    fn editor_text_modes_send_unbound_keys_to_the_text_area() {
        let km = Keymap::defaults();
        for mode in [Mode::Field, Mode::Raw, Mode::Prompt] {
            for k in [
                "q",
                "a",
                "d",
                "e",
                "j",
                "enter",
                "backspace",
                "home",
                "ctrl-k",
            ] {
                let chord = key(k);
                if mode == Mode::Prompt && k == "enter" {
                    continue;
                }
                assert_eq!(
                    km.lookup(mode, &chord),
                    Some(Action::TextKey(chord)),
                    "{k} in {mode:?}"
                );
            }
            let save = km.lookup(mode, &key("ctrl-s")) == Some(Action::EditorSave);
            assert_eq!(save, mode != Mode::Prompt, "ctrl-s in {mode:?}");
            assert_eq!(km.lookup(mode, &key("esc")), Some(Action::Escape));
        }
        assert_eq!(km.lookup(Mode::Field, &key("tab")), Some(Action::NextField));
        assert_eq!(
            km.lookup(Mode::Field, &key("backtab")),
            Some(Action::PrevField)
        );
        assert_eq!(km.lookup(Mode::Form, &key("a")), Some(Action::AddKey));
        assert_eq!(km.lookup(Mode::Form, &key("d")), Some(Action::DeleteKey));
        assert_eq!(
            km.lookup(Mode::Form, &key("x")),
            None,
            "letters are not text in the field list"
        );
        assert_eq!(
            km.lookup(Mode::Prompt, &key("enter")),
            Some(Action::Confirm)
        );
        assert_eq!(km.lookup(Mode::Diff, &key("y")), Some(Action::Confirm));
        assert_eq!(km.lookup(Mode::Normal, &key("e")), Some(Action::EditOpen));
        assert_eq!(
            km.lookup(Mode::Normal, &key("E")),
            Some(Action::EditExternal)
        );
        assert_eq!(km.lookup(Mode::Normal, &key("u")), Some(Action::UndoSave));
        let (_, warnings) = Keymap::with_user(Some("[field]\nadd_key = [\"a\"]\n"));
        assert_eq!(
            warnings,
            vec!["keymap: \"a\" types text in [field] and cannot be bound there".to_string()]
        );
    }

    #[test]
    fn user_overrides_replace_and_warn() {
        let user = "[normal]\nselect_down = [\"x\"]\nbogus = [\"z\"]\n[search]\nquit = [\"q\"]\n";
        let (km, warnings) = Keymap::with_user(Some(user));
        assert_eq!(km.lookup(Mode::Normal, &key("x")), Some(Action::SelectDown));
        assert_eq!(km.lookup(Mode::Normal, &key("space")), None);
        assert_eq!(
            km.lookup(Mode::Search, &key("q")),
            Some(Action::SearchInsert('q'))
        );
        assert_eq!(
            warnings,
            vec![
                "keymap: unknown action \"bogus\" in [normal]".to_string(),
                "keymap: \"q\" types text in [search] and cannot be bound there".to_string(),
            ]
        );
    }

    #[test]
    fn shifted_chars_and_labels() {
        let ev = KeyEvent::new(KeyCode::Char('N'), KeyModifiers::SHIFT);
        assert_eq!(KeyChord::from_event(&ev), key("N"));
        assert_eq!(key("shift-n"), key("N"));
        assert_eq!(key("ctrl-d").label(), "C-d");
        assert_eq!(key("space").label(), "␣");
        assert_eq!(
            key("f1"),
            KeyChord {
                code: KeyCode::F(1),
                mods: KeyModifiers::NONE
            }
        );
        assert_eq!(KeyChord::parse("f13"), None);
        assert_eq!(KeyChord::parse("hyper-x"), None);
        assert_eq!(key("-").code, KeyCode::Char('-'));
    }

    #[test]
    fn help_entries_follow_action_order() {
        let km = Keymap::defaults();
        let e = km.entries(Mode::Normal);
        assert_eq!(e[0], ("j ↓".to_string(), "move down / scroll down"));
        assert_eq!(e.last().map(|x| x.1), Some("quit"));
    }
}
