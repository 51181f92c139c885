//! TUI settings: the `[ui]` table beside the shared `[search]`, `[brief]` and `[clipboard]`
//! settings of [`crate::config`], and the keymap; both read from the user config folder
//! ([`crate::util::paths::config_dir`]) over the embedded defaults.

use serde::Deserialize;

pub use crate::config::{
    BriefSettings, ClipboardSettings, DEFAULT_CONFIG, SearchSettings, config_dir,
};
use crate::config::{merge_user, read_user};

use crate::tui::input::keymap::Keymap;

/// UI settings (`[ui]`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UiSettings {
    /// `"dark"`, `"light"` or a theme TOML path.
    pub theme: String,
    /// Capture the mouse.
    pub mouse: bool,
    /// Tree pane width in percent (clamped to 20..=80).
    pub tree_percent: u16,
    /// Show dim summaries in tree rows.
    pub summaries: bool,
}

impl Default for UiSettings {
    fn default() -> Self {
        Self {
            theme: "dark".into(),
            mouse: true,
            tree_percent: 42,
            summaries: true,
        }
    }
}

/// All settings.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// `[ui]`.
    pub ui: UiSettings,
    /// `[search]`.
    pub search: SearchSettings,
    /// `[brief]`.
    pub brief: BriefSettings,
    /// `[clipboard]`.
    pub clipboard: ClipboardSettings,
    /// `[agent.*]`.
    pub agent: crate::config::AgentSettings,
}

impl Settings {
    /// Parse settings TOML; unknown keys are errors (reported as warnings by [`load`]).
    pub fn from_toml(text: &str) -> Result<Settings, String> {
        crate::config::from_toml(text)
    }
}

/// Load settings and keymap (defaults, then user files); problems become warnings.
pub fn load() -> (Settings, Keymap, Vec<String>) {
    let mut warnings = Vec::new();
    let settings = match read_user("config.toml") {
        // A user file replaces only the keys it sets; a bad key is reported and skipped,
        // the file's other keys still apply.
        Some(user) => {
            let (s, w) = merge_user::<Settings>(&user);
            warnings.extend(w);
            s
        }
        None => Settings::from_toml(DEFAULT_CONFIG).unwrap_or_default(),
    };
    warnings.extend(settings.problems());
    let (keymap, kw) = Keymap::with_user(read_user("keymap.toml").as_deref());
    warnings.extend(kw);
    (settings, keymap, warnings)
}

impl Settings {
    /// Values that parse but mean nothing (an unknown brief format, mode or listing, no
    /// budget presets, a pane width outside 20..=80): one warning each; the default is used.
    pub fn problems(&self) -> Vec<String> {
        let mut out = crate::config::brief_problems(&self.brief);
        if !(20..=80).contains(&self.ui.tree_percent) {
            out.push(format!(
                "config.toml [ui] tree_percent: {} is outside 20..80; clamped",
                self.ui.tree_percent
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_config_parses() {
        let s = Settings::from_toml(DEFAULT_CONFIG).expect("embedded config");
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn a_bad_key_is_reported_and_the_others_still_apply() {
        let (s, w) = merge_user::<Settings>(
            "[ui]\nmouse = false\n[brief]\nbudget = -5\nformat = \"yaml\"\n",
        );
        assert!(!s.ui.mouse, "the good key applies");
        assert_eq!(s.brief.budget, 20_000, "the bad one keeps its default");
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("config.toml [brief] budget: "), "{w:?}");
        assert_eq!(
            s.problems(),
            ["config.toml [brief] format: \"yaml\" is not md, xml or json; using md"]
        );
        assert!(Settings::default().problems().is_empty());
    }

    #[test]
    fn user_config_patches_one_key() {
        let merged =
            crate::config::merge_tables(DEFAULT_CONFIG, "[ui]\nmouse = false\n").expect("merge");
        let s = Settings::from_toml(&merged).expect("parse");
        assert!(!s.ui.mouse);
        assert_eq!(s.ui.theme, "dark");
        assert_eq!(s.search.top_k, 50);
        assert!(
            Settings::from_toml("[ui]\nmose = 1\n")
                .unwrap_err()
                .contains("mose")
        );
    }
}
