//! The frontmatter editor's state: the file as read (for the hash-checked save),
//! the form rows or the raw YAML text, the new bytes they produce, and validation of those
//! bytes as you type — the strict YAML check (an error blocks saving) and the Agent Skills
//! rules under a profile (warnings the user may accept). Key handling lives in
//! `actions.rs`, reloading after a save in [`crate::tui::update::reload`], drawing in
//! `view/editor.rs`. No terminal I/O here.

pub mod fields;

use std::path::{Path, PathBuf};

use ratatui_textarea::TextArea;

use crate::frontmatter::{self, LoadedFile, parse_tree, verify_strict};
use crate::skill::validate::{Finding, Profile, validate_skill_md};
use crate::tui::input::keymap::Mode;

use fields::{Field, FieldKind, text_area};

/// Which editor view is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// One row per key.
    Form,
    /// The whole YAML block in one text area.
    Raw,
}

/// The raw view: the YAML text between the fences and the bytes around it.
#[derive(Debug)]
pub struct RawText {
    /// The YAML lines (line endings removed; `\r` of CRLF files too).
    pub area: TextArea<'static>,
    /// Bytes before the YAML (BOM and opening fence line).
    pub prefix: Vec<u8>,
    /// Bytes from the closing fence to the end of the file.
    pub suffix: Vec<u8>,
    /// Line ending written after each YAML line (the opening fence's).
    pub eol: &'static str,
    /// 1-based file line of the opening fence (YAML line `n` is file line `n + fence`).
    pub fence: u32,
}

impl RawText {
    /// The raw view of `bytes`: its YAML block, or an empty one to be inserted after the
    /// BOM when the file has no frontmatter. `None` when the frontmatter never closes.
    pub fn of(bytes: &[u8]) -> Option<RawText> {
        let valid = frontmatter_text(bytes);
        // The file's line break (`\n`, `\r\n` or a lone `\r`): the opening fence's, or the
        // first one of a file without frontmatter.
        let parsed = parse_tree(valid);
        let eol = match &parsed {
            Some(p) => p.fm.line_ending.as_str(),
            None => match bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') => "\r\n",
                Some(i) if bytes[i] == b'\r' => "\r",
                _ => "\n",
            },
        };
        match parsed {
            Some(p) if p.fm.block.is_empty() => None,
            Some(p) => {
                let yaml = &valid[p.fm.yaml.clone()];
                let lines: Vec<String> = if yaml.is_empty() {
                    Vec::new()
                } else {
                    let body = yaml
                        .strip_suffix("\r\n")
                        .or_else(|| yaml.strip_suffix(['\n', '\r']))
                        .unwrap_or(yaml);
                    body.replace("\r\n", "\n")
                        .split(['\n', '\r'])
                        .map(str::to_string)
                        .collect()
                };
                // Lines before the YAML: the opening fence line (after an optional BOM).
                let fence = 1;
                let mut area = text_area(&lines.join("\n"));
                area.set_wrap_mode(ratatui_textarea::WrapMode::None);
                area.set_tab_length(2);
                Some(RawText {
                    area,
                    prefix: bytes[..p.fm.yaml.start].to_vec(),
                    suffix: bytes[p.fm.yaml.end..].to_vec(),
                    eol,
                    fence,
                })
            }
            None => {
                let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
                    3
                } else {
                    0
                };
                let mut prefix = bytes[..bom].to_vec();
                prefix.extend_from_slice(format!("---{eol}").as_bytes());
                let mut suffix = format!("---{eol}").into_bytes();
                suffix.extend_from_slice(&bytes[bom..]);
                let mut area = text_area("");
                area.set_wrap_mode(ratatui_textarea::WrapMode::None);
                area.set_tab_length(2);
                Some(RawText {
                    area,
                    prefix,
                    suffix,
                    eol,
                    fence: 1,
                })
            }
        }
    }

    /// The YAML as typed, with `\n` line endings (what the strict check reads).
    pub fn yaml(&self) -> String {
        let lines = self.area.lines();
        if lines.len() == 1 && lines[0].is_empty() {
            return String::new();
        }
        let mut s = lines.join("\n");
        s.push('\n');
        s
    }

    /// The whole file: prefix, the YAML lines in the file's line ending, suffix.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = self.prefix.clone();
        let yaml = self.yaml();
        out.extend_from_slice(
            if self.eol == "\n" {
                yaml
            } else {
                yaml.replace('\n', self.eol)
            }
            .as_bytes(),
        );
        out.extend_from_slice(&self.suffix);
        out
    }
}

/// The strict reader's message without its own location (`error: line 2 column 22: …`
/// counts lines from the start of the YAML, not the file): `column 22: …`.
fn strip_location(msg: &str) -> String {
    let m = msg.strip_prefix("error: ").unwrap_or(msg);
    if let Some(rest) = m.strip_prefix("line ")
        && let Some((num, tail)) = rest.split_once(' ')
        && num.bytes().all(|b| b.is_ascii_digit())
        && tail.starts_with("column ")
    {
        return tail.to_string();
    }
    m.to_string()
}

/// The longest valid UTF-8 prefix of `bytes` (the frontmatter lies inside it).
fn frontmatter_text(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    }
}

/// The editor of one SKILL.md's frontmatter.
#[derive(Debug)]
pub struct Editor {
    /// The file as read: its bytes and SHA-256 (a save refuses when the file changed).
    pub file: LoadedFile,
    /// Path shown in titles (relative to its root when known).
    pub shown: String,
    /// Name of the skill folder (the `name` rule compares with it).
    pub folder: String,
    /// Index of the root the file belongs to (reloaded after a save).
    pub root: Option<usize>,
    /// The bytes the form rows were built from (the file, or the raw text last applied).
    pub base: Vec<u8>,
    /// Whether `base`'s YAML was invalid (strict): the form's result is then repaired.
    pub base_invalid: bool,
    /// Form rows.
    pub fields: Vec<Field>,
    /// Selected row.
    pub selected: usize,
    /// Form or raw.
    pub view: View,
    /// The raw view (built when switching to it).
    pub raw: Option<RawText>,
    /// Name typed for a new key ([`Mode::Prompt`]).
    pub prompt: TextArea<'static>,
    /// Validation profile.
    pub profile: Profile,
    /// The new file bytes, or why they cannot be built.
    pub candidate: Result<Vec<u8>, String>,
    /// File lines of values `repair` quoted (shown in the diff).
    pub repaired: Vec<u32>,
    /// Strict YAML error of the candidate: (1-based file line or 0, message). Blocks saving.
    pub yaml_error: Option<(u32, String)>,
    /// Agent Skills findings on the candidate (warnings the user may accept).
    pub findings: Vec<Finding>,
    /// The changed lines shown in the diff popup.
    pub diff: Vec<frontmatter::DiffLine>,
    /// First diff line drawn.
    pub diff_scroll: usize,
    /// A message in the popup (a refused save, a failed reload).
    pub message: Option<String>,
    /// The file changed on disk since it was read: `r` reloads it.
    pub stale: bool,
    /// The editor's keymap mode: form, field, raw, or one of its popups (diff, prompt,
    /// confirm).
    pub mode: Mode,
    /// Mode to return to from the diff/confirm/prompt popups.
    pub back: Mode,
    /// The skill node edited, when the tree has one (the client line needs it).
    pub skill: Option<crate::model::NodeId>,
    /// What each client does with this skill as edited (`full`, `cut 120`, `not loaded`),
    /// in `Client::ALL` order; recomputed by the update step when the candidate changes.
    pub clients: Vec<(crate::skill::clients::Client, String)>,
    /// A hash of the candidate bytes `clients` was computed from.
    pub clients_of: Option<u64>,
    /// Every skill as the clients' loaders meet it, read once when the editor opens; a
    /// keystroke re-reads only the edited skill.
    pub client_base: Vec<crate::skill::clients::candidate::Candidate>,
    /// The app's data generation `client_base` was read at (a reload reads it again).
    pub client_gen: u64,
}

impl Editor {
    /// Open `path` for editing. `shown` is the path for titles, `folder` the skill folder
    /// name. Errors: the file cannot be read, or its frontmatter never closes (no edit can
    /// be placed; fix it with `E`).
    pub fn open(
        path: &Path,
        shown: String,
        folder: String,
        root: Option<usize>,
    ) -> Result<Editor, String> {
        let file = frontmatter::load(path).map_err(|e| e.to_string())?;
        if RawText::of(&file.bytes).is_none() {
            // The form reads the UTF-8 text up to the first byte that is not UTF-8: a
            // frontmatter cut there looks unclosed.
            let why = if std::str::from_utf8(&file.bytes).is_err() {
                "the frontmatter holds bytes that are not UTF-8 (or never closes); save it as UTF-8 with E ($EDITOR)"
            } else {
                "the frontmatter has no closing --- fence; fix it with E ($EDITOR)"
            };
            return Err(format!("{shown}: {why}"));
        }
        let mut ed = Editor {
            base: file.bytes.clone(),
            file,
            shown,
            folder,
            root,
            base_invalid: false,
            fields: Vec::new(),
            selected: 0,
            view: View::Form,
            raw: None,
            prompt: text_area(""),
            profile: Profile::ClaudeCode,
            candidate: Ok(Vec::new()),
            repaired: Vec::new(),
            yaml_error: None,
            findings: Vec::new(),
            diff: Vec::new(),
            diff_scroll: 0,
            message: None,
            stale: false,
            mode: Mode::Form,
            back: Mode::Form,
            skill: None,
            clients: Vec::new(),
            clients_of: None,
            client_base: Vec::new(),
            client_gen: 0,
        };
        ed.rebuild_form();
        Ok(ed)
    }

    /// The real path written by a save.
    pub fn path(&self) -> PathBuf {
        self.file.path.clone()
    }

    /// Rebuild the form rows from `base` (keeps the selected row index when possible).
    pub fn rebuild_form(&mut self) {
        let text = frontmatter_text(&self.base);
        let parsed = parse_tree(text);
        self.base_invalid = parsed
            .as_ref()
            .and_then(|p| text.get(p.fm.yaml.clone()))
            .is_some_and(|y| verify_strict(y).is_err());
        self.fields = fields::build(parsed.as_ref().map_or(&[][..], |p| &p.nodes));
        self.selected = self.selected.min(self.fields.len().saturating_sub(1));
        self.recompute();
    }

    /// The selected row.
    pub fn field(&self) -> Option<&Field> {
        self.fields.get(self.selected)
    }

    /// Whether the user changed something (a row, or the raw text). A repair the form
    /// would apply to invalid YAML alone does not count: closing then asks nothing, while
    /// `Ctrl-s` still offers the repair in the diff.
    pub fn dirty(&self) -> bool {
        match (self.view, &self.candidate) {
            (View::Form, _) => {
                self.base != self.file.bytes || self.fields.iter().any(Field::changed)
            }
            (View::Raw, Ok(b)) => *b != self.file.bytes,
            (View::Raw, Err(_)) => true,
        }
    }

    /// Rebuild the candidate bytes from the form or the raw text and validate them.
    pub fn recompute(&mut self) {
        self.repaired.clear();
        self.candidate = match (self.view, &self.raw) {
            (View::Raw, Some(raw)) => Ok(raw.bytes()),
            _ => fields::apply(&self.base, &self.fields).map(|b| {
                if self.base_invalid {
                    let (fixed, lines) = frontmatter::repair(&b);
                    self.repaired = lines;
                    fixed
                } else {
                    b
                }
            }),
        };
        self.yaml_error = None;
        self.findings.clear();
        let Ok(bytes) = &self.candidate else { return };
        let text = frontmatter_text(bytes);
        if let Some(p) = parse_tree(text)
            && !p.fm.block.is_empty()
            && let Some(yaml) = text.get(p.fm.yaml.clone())
            && let Err((line, msg)) = verify_strict(yaml)
        {
            let fence = text[..p.fm.yaml.start].matches('\n').count() as u32;
            self.yaml_error = Some((
                if line > 0 { line + fence } else { 0 },
                strip_location(&msg),
            ));
        }
        let lossy = String::from_utf8_lossy(bytes);
        self.findings = validate_skill_md(&lossy, &self.folder, None, self.profile)
            .into_iter()
            .filter(|f| f.rule != "yaml-strict")
            .collect();
    }

    /// Switch to raw mode (seeded with the current candidate, so form edits carry over) or
    /// back to the form (rebuilt from the raw text). Errors: the text cannot be switched
    /// (the form's edit cannot be built, or the frontmatter no longer closes).
    pub fn toggle_view(&mut self) -> Result<(), String> {
        match self.view {
            View::Form => {
                // Without form edits, show the file as it is (a YAML error included, not
                // the repair the form would apply).
                let bytes = if self.fields.iter().any(|f| f.changed()) {
                    self.candidate.clone()?
                } else {
                    self.base.clone()
                };
                let raw = RawText::of(&bytes).ok_or("the frontmatter has no closing --- fence")?;
                self.raw = Some(raw);
                self.view = View::Raw;
            }
            View::Raw => {
                let bytes = self.candidate.clone()?;
                if RawText::of(&bytes).is_none() {
                    return Err("the frontmatter has no closing --- fence".into());
                }
                self.base = bytes;
                self.view = View::Form;
                self.raw = None;
                self.rebuild_form();
            }
        }
        self.recompute();
        Ok(())
    }

    /// The text area that has the focus in the editor's mode, if any.
    pub fn area_mut(&mut self) -> Option<&mut TextArea<'static>> {
        match self.mode {
            Mode::Prompt => Some(&mut self.prompt),
            Mode::Raw => self.raw.as_mut().map(|r| &mut r.area),
            Mode::Field => self
                .fields
                .get_mut(self.selected)
                .filter(|f| f.editable())
                .map(|f| &mut f.text),
            _ => None,
        }
    }

    /// Add a row for `key` (a top-level key or `metadata.<entry>`) and select it. Errors:
    /// an empty or malformed name, or a key already present.
    pub fn add_key(&mut self, key: &str) -> Result<(), String> {
        let key = key.trim();
        if key.is_empty() {
            return Err("a key needs a name".into());
        }
        if key.contains(": ")
            || key.ends_with(':')
            || key.starts_with(['#', '-', '&', '*', '!', '[', '{', '"', '\''])
            || key.chars().any(char::is_control)
        {
            return Err(format!("`{key}` is not a usable key name"));
        }
        if let Some(i) = self.fields.iter().position(|f| f.key == key) {
            let f = &mut self.fields[i];
            if f.original.is_some() && !f.removed {
                return Err(format!("`{key}` is already there"));
            }
            f.removed = false;
            f.added = true;
            self.selected = i;
        } else {
            let at = match key.strip_prefix("metadata.") {
                Some(entry) if !entry.is_empty() && !entry.contains('.') => {
                    let last_meta = self
                        .fields
                        .iter()
                        .rposition(|f| f.key == "metadata" || f.key.starts_with("metadata."));
                    if let Some(m) = self.fields.iter_mut().find(|f| f.key == "metadata") {
                        m.removed = false;
                    }
                    last_meta.map_or(self.fields.len(), |i| i + 1)
                }
                Some(_) => return Err(format!("`{key}`: a metadata entry needs a plain name")),
                None => self.fields.len(),
            };
            let mut f = Field::new(key.to_string(), FieldKind::Text, None);
            f.added = true;
            self.fields.insert(at, f);
            self.selected = at;
        }
        self.recompute();
        Ok(())
    }

    /// `d`: remove an added row, or toggle removal of a key of the file.
    pub fn delete_selected(&mut self) {
        let Some(f) = self.fields.get_mut(self.selected) else {
            return;
        };
        if f.original.is_none() {
            if f.added {
                self.fields.remove(self.selected);
                self.selected = self.selected.min(self.fields.len().saturating_sub(1));
            } else {
                f.text = text_area("");
            }
        } else {
            f.removed = !f.removed;
        }
        self.recompute();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_text_round_trips_bom_and_crlf() {
        let file = b"\xEF\xBB\xBF---\r\nname: a\r\nlist:\r\n  - x\r\n---\r\nbody\r\n";
        let raw = RawText::of(file).expect("closed frontmatter");
        assert_eq!(raw.area.lines(), ["name: a", "list:", "  - x"]);
        assert_eq!(raw.fence, 1);
        assert_eq!(raw.bytes(), file.to_vec());
    }

    #[test]
    fn raw_text_of_cr_only_file_splits_lines_and_keeps_cr() {
        let file = b"---\rname: a\rd: |\r  x\r---\rbody\r";
        let mut raw = RawText::of(file).expect("closed frontmatter");
        assert_eq!(raw.area.lines(), ["name: a", "d: |", "  x"]);
        assert_eq!(raw.bytes(), file.to_vec());
        raw.area.insert_str("z: 1\n");
        assert_eq!(
            raw.bytes(),
            b"---\rz: 1\rname: a\rd: |\r  x\r---\rbody\r".to_vec()
        );
        let mut new = RawText::of(b"# T\rbody\r").expect("no frontmatter");
        new.area.insert_str("name: t");
        assert_eq!(new.bytes(), b"---\rname: t\r---\r# T\rbody\r".to_vec());
    }

    #[test]
    fn raw_text_of_file_without_frontmatter_inserts_a_block_after_the_bom() {
        let mut raw = RawText::of(b"\xEF\xBB\xBF# Title\n").expect("no frontmatter is fine");
        raw.area.insert_str("name: a");
        assert_eq!(
            raw.bytes(),
            b"\xEF\xBB\xBF---\nname: a\n---\n# Title\n".to_vec()
        );
        assert!(RawText::of(b"---\nname: a\nno close\n").is_none());
    }

    #[test]
    fn strict_messages_lose_their_yaml_relative_line() {
        assert_eq!(
            strip_location("error: line 2 column 22: mapping values are not allowed"),
            "column 22: mapping values are not allowed"
        );
        assert_eq!(strip_location("error: duplicate key"), "duplicate key");
    }
}
