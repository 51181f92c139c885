//! A key with its modifiers ([`KeyChord`]): normalised from crossterm events, parsed from
//! keymap names (`"ctrl-d"`, `"pgdn"`, `"G"`), labelled for help and hints, and turned into
//! a text-area key.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{Input, Key};

/// A key with its modifiers, normalised (shift is implied by the character for char keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyChord {
    /// The key.
    pub code: KeyCode,
    /// Ctrl/Alt/Shift (Shift only for non-character keys).
    pub mods: KeyModifiers,
}

impl KeyChord {
    /// Normalise a crossterm key event.
    pub fn from_event(ev: &KeyEvent) -> KeyChord {
        let mut mods =
            ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let code = match ev.code {
            KeyCode::Char(c) => {
                mods.remove(KeyModifiers::SHIFT);
                // Ctrl-letters arrive lower-case on most terminals; keep them lower-case.
                if mods.contains(KeyModifiers::CONTROL) {
                    KeyCode::Char(c.to_ascii_lowercase())
                } else {
                    KeyCode::Char(c)
                }
            }
            KeyCode::BackTab => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            other => other,
        };
        KeyChord { code, mods }
    }

    /// Parse `"ctrl-d"`, `"G"`, `"pgdn"`, `"space"`, `"-"`. `None` for an unknown name.
    pub fn parse(s: &str) -> Option<KeyChord> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            let (m, len) = if lower.starts_with("ctrl-") && rest.len() > 5 {
                (KeyModifiers::CONTROL, 5)
            } else if lower.starts_with("alt-") && rest.len() > 4 {
                (KeyModifiers::ALT, 4)
            } else if lower.starts_with("shift-") && rest.len() > 6 {
                (KeyModifiers::SHIFT, 6)
            } else {
                break;
            };
            mods |= m;
            rest = &rest[len..];
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => {
                if mods.contains(KeyModifiers::SHIFT) {
                    mods.remove(KeyModifiers::SHIFT);
                    KeyCode::Char(c.to_ascii_uppercase())
                } else if mods.contains(KeyModifiers::CONTROL) {
                    KeyCode::Char(c.to_ascii_lowercase())
                } else {
                    KeyCode::Char(c)
                }
            }
            _ => named_key(&rest.to_ascii_lowercase())?,
        };
        if code == KeyCode::BackTab {
            mods.remove(KeyModifiers::SHIFT);
        }
        Some(KeyChord { code, mods })
    }

    /// Whether this is a plain printable key (no ctrl/alt): text in the search box.
    pub fn is_text(&self) -> bool {
        matches!(self.code, KeyCode::Char(_))
            && !self
                .mods
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    }

    /// Short display label (`j`, `↓`, `C-d`, `␣`, `PgDn`).
    pub fn label(&self) -> String {
        let mut s = String::new();
        if self.mods.contains(KeyModifiers::CONTROL) {
            s.push_str("C-");
        }
        if self.mods.contains(KeyModifiers::ALT) {
            s.push_str("M-");
        }
        if self.mods.contains(KeyModifiers::SHIFT) {
            s.push_str("S-");
        }
        let key = match self.code {
            KeyCode::Char(' ') => "␣".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Backspace => "Bksp".into(),
            KeyCode::Delete => "Del".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        s.push_str(&key);
        s
    }
}

fn named_key(name: &str) -> Option<KeyCode> {
    Some(match name {
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "enter" | "return" => KeyCode::Enter,
        "esc" | "escape" => KeyCode::Esc,
        "tab" => KeyCode::Tab,
        "backtab" => KeyCode::BackTab,
        "space" => KeyCode::Char(' '),
        "backspace" => KeyCode::Backspace,
        "delete" | "del" => KeyCode::Delete,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "pgup" | "pageup" => KeyCode::PageUp,
        "pgdn" | "pagedown" => KeyCode::PageDown,
        f if f.starts_with('f') => {
            KeyCode::F(f[1..].parse().ok().filter(|n| (1..=12).contains(n))?)
        }
        _ => return None,
    })
}

/// A key for a text area.
pub fn to_input(k: KeyChord) -> Input {
    let key = match k.code {
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Enter => Key::Enter,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Tab => Key::Tab,
        KeyCode::Delete => Key::Delete,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::F(n) => Key::F(n),
        _ => Key::Null,
    };
    Input {
        key,
        ctrl: k.mods.contains(KeyModifiers::CONTROL),
        alt: k.mods.contains(KeyModifiers::ALT),
        shift: k.mods.contains(KeyModifiers::SHIFT),
    }
}
