//! Settings every front end reads: `[search]`, `[brief]`, `[clipboard]` and `[agent.*]` of
//! `assets/config.toml` (embedded), overridden key by key by the user's `config.toml` in
//! [`crate::util::paths::config_dir`]. The TUI adds its `[ui]` table on top
//! (`crate::tui::config`); [`Settings`] here ignores tables it does not know.

use std::path::PathBuf;

use serde::Deserialize;
use serde::de::DeserializeOwned;

/// The embedded default settings (all tables, `[ui]` included).
pub const DEFAULT_CONFIG: &str = include_str!("../assets/config.toml");

/// Search settings (`[search]`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchSettings {
    /// Hits per group.
    pub top_k: usize,
    /// Which semantic signals finished queries get (docs/DESIGN.md §3 "Semantic signal" and
    /// "Re-rank"): `search`, `brief --query`, `eval`, the MCP server and the TUI; the
    /// command-line flag `--semantic auto|on|off` overrides it.
    pub semantic: Semantic,
    /// Removed: the re-rank tier now runs whenever a model is installed and `semantic` is
    /// not off. Still read so an old `config.toml` loads; [`load`] warns once when it is set.
    pub rerank: Option<bool>,
    /// An explicit re-rank model folder (`config.json`, `vocab.txt`, `model.safetensors`)
    /// used instead of the installed default model; a leading `~/` is the home folder;
    /// `SKILLNAV_RERANK_MODEL` overrides it. Empty: the installed model, if any.
    pub rerank_model: String,
    /// Hits re-ranked per query (the first `rerank_depth` content hits; 1..=200).
    pub rerank_depth: usize,
    /// Weight of the transformer's cosine in the re-rank score, 0..=1 (the rest is the
    /// first-stage score over its best; `crate::rerank::fuse`).
    pub rerank_weight: f64,
}

impl Default for SearchSettings {
    fn default() -> Self {
        Self {
            top_k: 50,
            semantic: Semantic::Auto,
            rerank: None,
            rerank_model: String::new(),
            rerank_depth: 50,
            rerank_weight: 0.8,
        }
    }
}

/// The semantic signals search may use (`[search] semantic`, `--semantic`).
///
/// The TOML setting takes `"auto"`, `"on"`, `"off"`, or a boolean (`true` is `"on"`,
/// `false` is `"off"`, as the setting was a boolean before the re-rank tier was built in).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(try_from = "SemanticSetting")]
pub enum Semantic {
    /// The transformer re-rank tier when a model is installed, and no static table
    /// (the default: without a model, search is lexical).
    #[default]
    Auto,
    /// The static embedding table fused with BM25, and the re-rank tier when a model is
    /// installed.
    On,
    /// Lexical only: neither the static table nor the model.
    Off,
}

impl Semantic {
    /// Whether the static embedding table is fused with BM25.
    pub fn table(self) -> bool {
        self == Self::On
    }

    /// Whether the re-rank tier runs (when a model is installed).
    pub fn model(self) -> bool {
        self != Self::Off
    }
}

/// The TOML shapes of `[search] semantic`.
#[derive(Deserialize)]
#[serde(untagged)]
enum SemanticSetting {
    Bool(bool),
    Word(String),
}

impl TryFrom<SemanticSetting> for Semantic {
    type Error = String;

    fn try_from(v: SemanticSetting) -> Result<Self, String> {
        match v {
            SemanticSetting::Bool(true) => Ok(Self::On),
            SemanticSetting::Bool(false) => Ok(Self::Off),
            SemanticSetting::Word(w) => match w.as_str() {
                "auto" => Ok(Self::Auto),
                "on" => Ok(Self::On),
                "off" => Ok(Self::Off),
                _ => Err(format!("{w:?} is not auto, on, off, true or false")),
            },
        }
    }
}

/// The `[search] semantic` setting in force (embedded default, then the user's file).
pub fn semantic_setting() -> Semantic {
    load().0.search.semantic
}

/// Brief and budget settings (`[brief]`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BriefSettings {
    /// Token budget at start; 0 = no budget.
    pub budget: u64,
    /// Budgets `b` steps down through, largest first (then "no budget"), in tokens.
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
    /// `X` exports write an active skill (as `export --active`): its SKILL.md tells the agent
    /// to fetch sections with `skillnav search/show/brief` or the MCP tools.
    pub export_active: bool,
}

impl Default for BriefSettings {
    fn default() -> Self {
        Self {
            budget: 20_000,
            presets: vec![4_000, 8_000, 20_000, 100_000],
            format: "md".into(),
            mode: "auto".into(),
            listing: "available-skills".into(),
            export_max_reference_bytes: crate::curate::export::DEFAULT_MAX_REFERENCE_BYTES,
            export_catalog: false,
            export_active: false,
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

impl ClipboardSettings {
    /// The copy options these settings give (the OSC 52 limit; the rest default), for
    /// [`crate::clipboard::deliver`].
    pub fn copy_options(&self) -> crate::clipboard::CopyOptions {
        crate::clipboard::CopyOptions {
            osc52_limit: self.osc52_limit,
            ..crate::clipboard::CopyOptions::default()
        }
    }
}

impl Default for ClipboardSettings {
    fn default() -> Self {
        Self {
            osc52_limit: crate::clipboard::DEFAULT_OSC52_LIMIT,
        }
    }
}

/// Agent listing budgets (`[agent.<name>]`, docs/AGENTS.md "Client profiles"): Claude
/// Code's, Codex's and Copilot CLI's (the other clients document none).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AgentSettings {
    /// `[agent.claude-code]`: Claude Code's skill listing budget.
    #[serde(rename = "claude-code")]
    pub claude_code: crate::skill::budget::BudgetProfile,
    /// `[agent.codex]`: Codex's metadata budget.
    pub codex: crate::skill::clients::budgets::CodexProfile,
    /// `[agent.copilot]`: Copilot CLI's fixed listing budget.
    pub copilot: crate::skill::clients::budgets::CopilotProfile,
}

impl AgentSettings {
    /// `[agent.claude-code]` with `SLASH_COMMAND_TOOL_CHAR_BUDGET` pinning the budget when
    /// set (as it does in Claude Code).
    pub fn claude_code_profile(&self) -> crate::skill::budget::BudgetProfile {
        let pinned = std::env::var("SLASH_COMMAND_TOOL_CHAR_BUDGET").ok();
        self.claude_code.clone().with_override(pinned.as_deref())
    }
}

/// The settings of `[search]`, `[brief]`, `[clipboard]` and `[agent]` (other tables are
/// ignored).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// `[search]`.
    pub search: SearchSettings,
    /// `[brief]`.
    pub brief: BriefSettings,
    /// `[clipboard]`.
    pub clipboard: ClipboardSettings,
    /// `[agent.*]`.
    pub agent: AgentSettings,
}

impl Settings {
    /// Parse settings TOML; unknown keys inside the known tables are errors.
    pub fn from_toml(text: &str) -> Result<Settings, String> {
        from_toml(text)
    }
}

/// Load the settings (defaults, then the user's `config.toml`); problems become warnings.
pub fn load() -> (Settings, Vec<String>) {
    let (settings, mut warnings) = match read_user("config.toml") {
        Some(user) => merge_user::<Settings>(&user),
        None => (
            Settings::from_toml(DEFAULT_CONFIG).unwrap_or_default(),
            Vec::new(),
        ),
    };
    warnings.extend(brief_problems(&settings.brief));
    if settings.search.rerank.is_some() {
        warnings.push(REMOVED_RERANK.into());
    }
    (settings, warnings)
}

/// The warning for the removed `[search] rerank` key.
pub const REMOVED_RERANK: &str = "config.toml [search] rerank: no longer used (ignored); the re-rank tier runs whenever a model is installed (`skillnav model list`), and `semantic = false` turns it off";

/// Values of `[brief]` that parse but mean nothing (an unknown format, mode or listing, no
/// budget presets): one warning each; the default is used.
pub fn brief_problems(b: &BriefSettings) -> Vec<String> {
    let mut out = Vec::new();
    if crate::brief::BriefFormat::parse_layout(&b.format).is_none() {
        out.push(format!(
            "config.toml [brief] format: {:?} is not md, xml or json; using md",
            b.format
        ));
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
        out.push(
            "config.toml [brief] presets: no budget above 0; b only switches the budget off".into(),
        );
    }
    out
}

/// The user config folder: `$SKILLNAV_CONFIG_DIR`, else the platform config dir.
pub fn config_dir() -> Option<PathBuf> {
    crate::util::paths::config_dir()
}

/// The text of the user's file `name` in [`config_dir`], if it can be read.
pub fn read_user(name: &str) -> Option<String> {
    let path = config_dir()?.join(name);
    std::fs::read_to_string(path).ok()
}

/// Parse settings TOML into `T`; errors are `config: <message>`.
pub fn from_toml<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    toml::from_str(text).map_err(|e| format!("config: {}", e.message().trim()))
}

/// The defaults ([`DEFAULT_CONFIG`]) with each key of the user's `config.toml` applied that
/// parses into `T` on its own; the others become warnings naming `[table] key` and why.
pub fn merge_user<T: DeserializeOwned + Default>(user: &str) -> (T, Vec<String>) {
    let defaults = || from_toml::<T>(DEFAULT_CONFIG).unwrap_or_default();
    let table: toml::Table = match toml::from_str(user) {
        Ok(t) => t,
        Err(e) => {
            return (
                defaults(),
                vec![format!("config.toml: {}", e.message().trim())],
            );
        }
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
            let candidate = toml::to_string(&one)
                .map_err(|e| e.to_string())
                .and_then(|u| merge_tables(&text, &u));
            match candidate.and_then(|t| from_toml::<T>(&t).map(|_| t)) {
                Ok(t) => text = t,
                Err(e) => {
                    let key = kk.map_or_else(|| k.clone(), |kk| format!("[{k}] {kk}"));
                    warnings.push(format!(
                        "config.toml {key}: {}",
                        e.trim_start_matches("config: ")
                    ));
                }
            }
        }
    }
    (
        from_toml::<T>(&text).unwrap_or_else(|_| defaults()),
        warnings,
    )
}

/// `base` TOML with the keys of `user` TOML set over it (one table level deep).
///
/// Errors: either text is not TOML.
pub fn merge_tables(base: &str, user: &str) -> Result<String, String> {
    let mut base: toml::Table =
        toml::from_str(base).map_err(|e| format!("config: {}", e.message()))?;
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
    fn embedded_config_parses_and_the_ui_table_is_ignored() {
        assert_eq!(Settings::from_toml(DEFAULT_CONFIG), Ok(Settings::default()));
        let (s, w) = merge_user::<Settings>("[ui]\nmouse = false\n[search]\ntop_k = 7\n");
        assert_eq!((s.search.top_k, w), (7, Vec::<String>::new()));
        assert!(brief_problems(&BriefSettings::default()).is_empty());
    }

    #[test]
    fn semantic_takes_words_and_the_old_booleans() {
        let (s, w) = merge_user::<Settings>("[search]\nsemantic = false\n");
        assert_eq!(
            (s.search.semantic, w),
            (Semantic::Off, Vec::<String>::new())
        );
        let (s, _) = merge_user::<Settings>("[search]\nsemantic = true\n");
        assert_eq!(s.search.semantic, Semantic::On);
        let (s, _) = merge_user::<Settings>("[search]\nsemantic = \"auto\"\n");
        assert_eq!(s.search.semantic, Semantic::Auto);
        let (s, w) = merge_user::<Settings>("[search]\nsemantic = \"maybe\"\n");
        assert_eq!(s.search.semantic, Semantic::Auto);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("\"maybe\" is not auto, on, off"), "{w:?}");
    }

    #[test]
    fn an_old_rerank_key_still_loads_and_is_named_as_removed() {
        let (s, w) = merge_user::<Settings>("[search]\nrerank = true\ntop_k = 9\n");
        assert_eq!(
            (s.search.top_k, s.search.rerank, w),
            (9, Some(true), Vec::<String>::new())
        );
        assert_eq!(Settings::default().search.rerank, None);
    }
}
