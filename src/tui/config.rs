//! Settings: `assets/config.toml` (embedded) overridden by the user's `config.toml`, and the
//! config folder lookup shared with the keymap (`$SKILLNAV_CONFIG_DIR`, else the platform
//! config dir from `directories`, e.g. `~/.config/skillnav`).

use std::path::PathBuf;

use serde::Deserialize;

use super::keymap::Keymap;

/// The embedded default settings.
pub const DEFAULT_CONFIG: &str = include_str!("../../assets/config.toml");

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
        Self { theme: "dark".into(), mouse: true, tree_percent: 42, summaries: true }
    }
}

/// Search settings (`[search]`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchSettings {
    /// Hits per group.
    pub top_k: usize,
}

impl Default for SearchSettings {
    fn default() -> Self {
        Self { top_k: 50 }
    }
}

/// Brief and budget settings (`[brief]`, issue 5 §3, §5, §6).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BriefSettings {
    /// Token budget at start; 0 = no budget.
    pub budget: u64,
    /// Budgets `b` cycles through (then "no budget"), in tokens.
    pub presets: Vec<u64>,
    /// Brief layout: `md`, `xml` or `json`.
    pub format: String,
    /// Brief mode: `auto`, `answer`, `extract`, `locate` or `summarize`.
    pub mode: String,
    /// Listing before several rendered skills (`Y`): `plain`, `xml` or `available-skills`.
    pub listing: String,
    /// Reference file size limit of `X` exports, in bytes.
    pub export_max_reference_bytes: usize,
    /// `X` exports also write the active-skills `assets/catalog.json` (as `--with-catalog`).
    pub export_catalog: bool,
}

impl Default for BriefSettings {
    fn default() -> Self {
        Self {
            budget: 20_000,
            presets: vec![8_000, 20_000, 100_000],
            format: "md".into(),
            mode: "auto".into(),
            listing: "available-skills".into(),
            export_max_reference_bytes: crate::curate::export::DEFAULT_MAX_REFERENCE_BYTES,
            export_catalog: false,
        }
    }
}

/// Clipboard settings (`[clipboard]`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClipboardSettings {
    /// Bytes above which an OSC 52 copy asks first (many terminals drop large payloads).
    pub osc52_limit: usize,
}

impl Default for ClipboardSettings {
    fn default() -> Self {
        Self { osc52_limit: crate::clipboard::DEFAULT_OSC52_LIMIT }
    }
}

/// All settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
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
}

impl Settings {
    /// Parse settings TOML; unknown keys are errors (reported as warnings by [`load`]).
    pub fn from_toml(text: &str) -> Result<Settings, String> {
        toml::from_str(text).map_err(|e| format!("config: {}", e.message().trim()))
    }
}

/// The user config folder: `$SKILLNAV_CONFIG_DIR`, else the platform config dir.
pub fn config_dir() -> Option<PathBuf> {
    crate::util::paths::config_dir()
}

fn read_user(name: &str) -> Option<String> {
    let path = config_dir()?.join(name);
    std::fs::read_to_string(path).ok()
}

/// Load settings and keymap (defaults, then user files); problems become warnings.
pub fn load() -> (Settings, Keymap, Vec<String>) {
    let mut warnings = Vec::new();
    let settings = match read_user("config.toml") {
        // A user file replaces only the keys it sets; a bad key is reported and skipped,
        // the file's other keys still apply.
        Some(user) => {
            let (s, w) = merge_user(&user);
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

/// The defaults with each key of the user's `config.toml` applied that parses on its own;
/// the others become warnings naming `[table] key` and why.
fn merge_user(user: &str) -> (Settings, Vec<String>) {
    let defaults = || Settings::from_toml(DEFAULT_CONFIG).unwrap_or_default();
    let table: toml::Table = match toml::from_str(user) {
        Ok(t) => t,
        Err(e) => return (defaults(), vec![format!("config.toml: {}", e.message().trim())]),
    };
    let mut text = DEFAULT_CONFIG.to_string();
    let mut warnings = Vec::new();
    for (k, v) in table {
        let pairs: Vec<(Option<String>, toml::Value)> = match v {
            toml::Value::Table(t) => t.into_iter().map(|(kk, vv)| (Some(kk), vv)).collect(),
            other => vec![(None, other)],
        };
        for (kk, vv) in pairs {
            let mut one = toml::Table::new();
            match &kk {
                Some(kk) => {
                    let mut inner = toml::Table::new();
                    inner.insert(kk.clone(), vv);
                    one.insert(k.clone(), toml::Value::Table(inner));
                }
                None => {
                    one.insert(k.clone(), vv);
                }
            }
            let candidate =
                toml::to_string(&one).map_err(|e| e.to_string()).and_then(|u| merge_tables(&text, &u));
            match candidate.and_then(|t| Settings::from_toml(&t).map(|_| t)) {
                Ok(t) => text = t,
                Err(e) => {
                    let key = kk.map_or_else(|| k.clone(), |kk| format!("[{k}] {kk}"));
                    warnings.push(format!("config.toml {key}: {}", e.trim_start_matches("config: ")));
                }
            }
        }
    }
    (Settings::from_toml(&text).unwrap_or_else(|_| defaults()), warnings)
}

impl Settings {
    /// Values that parse but mean nothing (an unknown brief format, mode or listing, no
    /// budget presets, a pane width outside 20..=80): one warning each; the default is used.
    pub fn problems(&self) -> Vec<String> {
        let b = &self.brief;
        let mut out = Vec::new();
        if crate::brief::BriefFormat::parse(&b.format).is_none() {
            out.push(format!("config.toml [brief] format: {:?} is not md, xml or json; using md", b.format));
        }
        if crate::brief::Mode::parse(&b.mode).is_none() {
            out.push(format!(
                "config.toml [brief] mode: {:?} is not auto, answer, extract, locate or summarize; using auto",
                b.mode
            ));
        }
        if crate::skill::listing::ListingFormat::parse(&b.listing).is_none() {
            out.push(format!(
                "config.toml [brief] listing: {:?} is not plain, xml or available-skills; using available-skills",
                b.listing
            ));
        }
        if !b.presets.iter().any(|p| *p > 0) {
            out.push("config.toml [brief] presets: no budget above 0; b only switches the budget off".into());
        }
        if !(20..=80).contains(&self.ui.tree_percent) {
            out.push(format!(
                "config.toml [ui] tree_percent: {} is outside 20..80; clamped",
                self.ui.tree_percent
            ));
        }
        out
    }
}

fn merge_tables(base: &str, user: &str) -> Result<String, String> {
    let mut base: toml::Table = toml::from_str(base).map_err(|e| format!("config: {}", e.message()))?;
    let user: toml::Table = toml::from_str(user).map_err(|e| format!("config: {}", e.message()))?;
    for (k, v) in user {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(u)) => b.extend(u),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
    toml::to_string(&base).map_err(|e| format!("config: {e}"))
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
        let (s, w) = merge_user("[ui]\nmouse = false\n[brief]\nbudget = -5\nformat = \"yaml\"\n");
        assert!(!s.ui.mouse, "the good key applies");
        assert_eq!(s.brief.budget, 20_000, "the bad one keeps its default");
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("config.toml [brief] budget: "), "{w:?}");
        assert_eq!(s.problems(), ["config.toml [brief] format: \"yaml\" is not md, xml or json; using md"]);
        assert!(Settings::default().problems().is_empty());
    }

    #[test]
    fn user_config_patches_one_key() {
        let merged = merge_tables(DEFAULT_CONFIG, "[ui]\nmouse = false\n").expect("merge");
        let s = Settings::from_toml(&merged).expect("parse");
        assert!(!s.ui.mouse);
        assert_eq!(s.ui.theme, "dark");
        assert_eq!(s.search.top_k, 50);
        assert!(Settings::from_toml("[ui]\nmose = 1\n").unwrap_err().contains("mose"));
    }
}
