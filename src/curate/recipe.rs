//! Saved selections — "recipes": a named selection with its exposure
//! levels, budget and brief settings, saved as JSON with each node's stable id and a hash of
//! its text, so that on load a section whose text changed, or that no longer exists, is
//! reported instead of silently dropped or silently different.
//!
//! Recipes live in the user data dir (`directories`: `<data_dir>/recipes/<name>.json`, e.g.
//! `~/.local/share/skillnav/recipes/` on Linux) or in any file the user names.
//!
//! File shape (pretty JSON, 2-space indent):
//! `{"schema": 1, "name": "…", "selected": [{"id", "hash"}], "exposure": [{"id", "level",
//! "hash"}], "max_tokens": N|null, "query": "…"|null, "mode": "…"|null, "format": "…"|null}`.
//! `hash` = the first 16 hex digits of SHA-256 ([`node_hash`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::curate::exposure::{Exposure, ExposureMap};
use crate::error::{Error, Result};
use crate::model::{Corpus, NodeId, NodeKind, Selection};

/// Current recipe schema.
pub const SCHEMA: u32 = 1;

/// One selected node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecipeNode {
    /// Stable node id (`root/path#section`).
    pub id: String,
    /// [`node_hash`] when saved.
    pub hash: String,
}

/// One exposure level set on a node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecipeExposure {
    /// Stable node id.
    pub id: String,
    /// `always`, `on-demand`, `explicit` or `hidden`.
    pub level: String,
    /// [`node_hash`] when saved.
    pub hash: String,
}

/// A saved selection.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recipe {
    /// Schema version ([`SCHEMA`]).
    pub schema: u32,
    /// Name (also the file stem in the recipe dir; see [`valid_name`]).
    pub name: String,
    /// Selected nodes, in node order.
    #[serde(default)]
    pub selected: Vec<RecipeNode>,
    /// Exposure levels set on nodes (not inherited ones), in node order.
    #[serde(default)]
    pub exposure: Vec<RecipeExposure>,
    /// Brief budget in tokens.
    #[serde(default)]
    pub max_tokens: Option<u64>,
    /// Brief query.
    #[serde(default)]
    pub query: Option<String>,
    /// Brief mode name.
    #[serde(default)]
    pub mode: Option<String>,
    /// Brief format name.
    #[serde(default)]
    pub format: Option<String>,
}

/// State of one recipe node against the open corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeState {
    /// Found, same text.
    Same,
    /// Found, text changed since the recipe was saved.
    Changed,
    /// No node with that id.
    Missing,
}

/// A recipe applied to a corpus.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The selection of every found node (changed ones included).
    pub selection: Selection,
    /// Levels of every found node, on top of the corpus's own (`meta.exposure`).
    pub exposure: ExposureMap,
    /// Ids whose text changed since saving (selected or with a level), in recipe order.
    pub changed: Vec<String>,
    /// Ids not found, in recipe order.
    pub missing: Vec<String>,
}

impl Applied {
    /// One warning line per changed or missing id: `changed since the recipe was saved: <id>`
    /// / `missing (no node with this id): <id>`.
    pub fn warnings(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .changed
            .iter()
            .map(|i| format!("changed since the recipe was saved: {i}"))
            .collect();
        out.extend(
            self.missing
                .iter()
                .map(|i| format!("missing (no node with this id): {i}")),
        );
        out
    }
}

/// A stable hash of a node's content: SHA-256 of its text (`Corpus::text`) when it has a
/// span; for containers (skills, folders) of each descendant file's path, a NUL, its text
/// (or its byte size when it has no text) and a NUL, in tree order. First 16 hex digits.
pub fn node_hash(corpus: &Corpus, id: NodeId) -> String {
    let mut h = Sha256::new();
    if corpus.node(id).span.is_some() {
        h.update(corpus.text(id).as_bytes());
    } else {
        for n in corpus.preorder(id) {
            let node = corpus.node(n);
            if node.kind != NodeKind::File {
                continue;
            }
            h.update(node.path.as_bytes());
            h.update([0]);
            if node.span.is_some() {
                h.update(corpus.text(n).as_bytes());
            } else {
                h.update(node.bytes.to_string().as_bytes());
            }
            h.update([0]);
        }
    }
    h.finalize()
        .iter()
        .take(8)
        .fold(String::with_capacity(16), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
}

/// Whether `name` can name a recipe file: 1–64 chars of ASCII letters, digits, `-`, `_`,
/// `.`, not starting with `.` and not ending in `.json` (such an argument is read as a
/// recipe FILE by `--recipe`, so the name could never be loaded).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && !name.to_ascii_lowercase().ends_with(".json")
        && name.chars().all(name_char)
}

/// Whether `c` may appear in a recipe name (ASCII letter, digit, `-`, `_`, `.`); the TUI's
/// name box refuses other characters as they are typed.
pub fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

impl Recipe {
    /// A recipe of the current state: the selection's members and the exposure levels set
    /// in `exposure` (all of them, including those from node metadata), with their hashes.
    pub fn capture(
        name: &str,
        corpus: &Corpus,
        selection: &Selection,
        exposure: &ExposureMap,
    ) -> Recipe {
        Recipe {
            schema: SCHEMA,
            name: name.to_string(),
            selected: selection
                .members()
                .map(|id| RecipeNode {
                    id: corpus.id(id),
                    hash: node_hash(corpus, id),
                })
                .collect(),
            exposure: exposure
                .entries()
                .into_iter()
                .map(|(id, e)| RecipeExposure {
                    id: corpus.id(id),
                    level: e.as_str().to_string(),
                    hash: node_hash(corpus, id),
                })
                .collect(),
            max_tokens: None,
            query: None,
            mode: None,
            format: None,
        }
    }

    /// State of a saved id/hash in `corpus`.
    pub fn state(corpus: &Corpus, id: &str, hash: &str) -> (Option<NodeId>, NodeState) {
        match corpus.find(id) {
            None => (None, NodeState::Missing),
            Some(n) if node_hash(corpus, n) == hash => (Some(n), NodeState::Same),
            Some(n) => (Some(n), NodeState::Changed),
        }
    }

    /// Apply to `corpus`: select every found node, set every found level on top of
    /// `ExposureMap::from_corpus`, and report changed and missing ids (each id once).
    /// An unknown level name is reported as missing with its id and level.
    pub fn apply(&self, corpus: &Corpus) -> Applied {
        let mut a = Applied {
            exposure: ExposureMap::from_corpus(corpus),
            ..Applied::default()
        };
        let note = |a: &mut Applied, id: &str, st: NodeState| {
            let list = match st {
                NodeState::Same => return,
                NodeState::Changed => &mut a.changed,
                NodeState::Missing => &mut a.missing,
            };
            if !list.iter().any(|x| x == id) {
                list.push(id.to_string());
            }
        };
        for n in &self.selected {
            let (found, st) = Self::state(corpus, &n.id, &n.hash);
            if let Some(f) = found {
                a.selection.select(corpus, f);
            }
            note(&mut a, &n.id, st);
        }
        for e in &self.exposure {
            let (found, st) = Self::state(corpus, &e.id, &e.hash);
            match (found, Exposure::parse(&e.level)) {
                (Some(f), Some(level)) => {
                    a.exposure.set(f, Some(level));
                    note(&mut a, &e.id, st);
                }
                (Some(_), None) => {
                    note(
                        &mut a,
                        &format!("{} (unknown level {:?})", e.id, e.level),
                        NodeState::Missing,
                    );
                }
                (None, _) => note(&mut a, &e.id, st),
            }
        }
        a
    }

    /// Pretty JSON with a trailing newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".to_string());
        s.push('\n');
        s
    }

    /// Parse a recipe. Errors (`Error::Parse` at `path`): invalid JSON or a schema newer
    /// than [`SCHEMA`].
    pub fn from_json(text: &str, path: &Path) -> Result<Recipe> {
        let r: Recipe = serde_json::from_str(text).map_err(|e| Error::Parse {
            path: path.to_path_buf(),
            line: Some(e.line() as u32),
            message: format!("not a skillnav recipe: {e}"),
        })?;
        if r.schema > SCHEMA {
            return Err(Error::Parse {
                path: path.to_path_buf(),
                line: None,
                message: format!(
                    "recipe schema {} is newer than this skillnav ({SCHEMA})",
                    r.schema
                ),
            });
        }
        Ok(r)
    }

    /// Read a recipe file.
    pub fn read(path: &Path) -> Result<Recipe> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Self::from_json(&text, path)
    }

    /// Write to `path` atomically (a temp file in the same folder, then rename), creating
    /// the folder.
    pub fn write(&self, path: &Path) -> Result<()> {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
        std::io::Write::write_all(&mut tmp, self.to_json().as_bytes())
            .map_err(|e| Error::io(path, e))?;
        tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
        Ok(())
    }
}

/// The default recipe folder: `<user data dir>/recipes` (`directories::ProjectDirs` for
/// `skillnav`); `None` when the platform has no home directory.
pub fn default_dir() -> Option<PathBuf> {
    crate::util::paths::data_dir().map(|d| d.join("recipes"))
}

/// A recipe store: one `<name>.json` per recipe in `dir`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    /// The folder.
    pub dir: PathBuf,
}

impl Store {
    /// A store in `dir` (created on the first save).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The file of recipe `name`. Error `Usage` for an invalid name ([`valid_name`]).
    pub fn path(&self, name: &str) -> Result<PathBuf> {
        if !valid_name(name) {
            return Err(Error::Usage(format!(
                "invalid recipe name {name:?} (1-64 of A-Z a-z 0-9 - _ . , not starting with . or ending in .json)"
            )));
        }
        Ok(self.dir.join(format!("{name}.json")))
    }

    /// Save `recipe` under its name (replacing one of the same name); returns the path.
    pub fn save(&self, recipe: &Recipe) -> Result<PathBuf> {
        let path = self.path(&recipe.name)?;
        recipe.write(&path)?;
        Ok(path)
    }

    /// Load recipe `name`.
    pub fn load(&self, name: &str) -> Result<Recipe> {
        Recipe::read(&self.path(name)?)
    }

    /// Delete recipe `name`. Error `Io` (not found) when there is none.
    pub fn delete(&self, name: &str) -> Result<()> {
        let path = self.path(name)?;
        std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))
    }

    /// Names of the saved recipes (file stems of `*.json` with a valid name), sorted. A
    /// missing folder lists nothing.
    pub fn list(&self) -> Vec<String> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".json"))
                    .map(str::to_string)
            })
            .filter(|n| valid_name(n))
            .collect();
        names.sort();
        names
    }
}
