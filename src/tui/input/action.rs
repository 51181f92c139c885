//! Every user intent as one [`Action`] value (docs/DESIGN.md §6).
//!
//! Key handling only maps keys to actions ([`crate::tui::input::keymap`]); [`crate::tui::update`]
//! alone mutates the app. The serde names (`snake_case`) are the names used in
//! `assets/keymap.toml`; variants that carry data are produced by the event loop, never by
//! the keymap.

use serde::Deserialize;

/// One user intent.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Leave skillnav (`q`, `Ctrl-C`).
    Quit,
    /// Move the cursor down one row (tree, results) or scroll the preview one line.
    MoveDown,
    /// Move the cursor up one row or scroll the preview up one line.
    MoveUp,
    /// Jump to the first row / top of the preview.
    Top,
    /// Jump to the last row / bottom of the preview.
    Bottom,
    /// Expand the node, or drill into its first child when already expanded; on a search
    /// result, jump to it.
    Expand,
    /// Collapse the node, or move to its parent when collapsed or a leaf.
    Collapse,
    /// Move the focus to the other pane (tree ↔ preview).
    FocusNext,
    /// Select or deselect the node and its subtree (partial selection shows as `◐`).
    ToggleSelect,
    /// [`Action::ToggleSelect`], then move down one row in the tree or the results (`Space`,
    /// as in yazi and lazygit: select a run of rows with repeated presses).
    SelectDown,
    /// Copy a brief of the selection (or of the current node when nothing is selected).
    CopyBrief,
    /// Focus the search box.
    SearchOpen,
    /// Close the popup, leave the search box, or clear the search.
    Escape,
    /// Scroll the preview to the next search match.
    NextMatch,
    /// Scroll the preview to the previous search match.
    PrevMatch,
    /// Page the focused pane down (the tree's cursor, or the preview).
    PageDown,
    /// Page the focused pane up.
    PageUp,
    /// Move the focused pane down half a page.
    HalfPageDown,
    /// Move the focused pane up half a page.
    HalfPageUp,
    /// Show or hide the key help.
    Help,
    /// Clear and redraw the whole screen (after another program wrote over it).
    Redraw,
    /// Search box: jump to the highlighted result.
    SearchAccept,
    /// Search box: delete the character before the cursor.
    SearchBackspace,
    /// Search box: delete the character under the cursor.
    SearchDelete,
    /// Search box: delete the word before the cursor.
    SearchDeleteWord,
    /// Search box: clear the query.
    SearchClear,
    /// Search box: move the cursor left.
    SearchLeft,
    /// Search box: move the cursor right.
    SearchRight,
    /// Search box: move the cursor to the start.
    SearchHome,
    /// Search box: move the cursor to the end.
    SearchEnd,
    /// Edit the frontmatter of the SKILL.md of the current node in the form editor.
    EditOpen,
    /// Open the SKILL.md of the current node in `$VISUAL`/`$EDITOR` (default `vi`), then
    /// reload it.
    EditExternal,
    /// Undo the last save made in this session (restores the previous bytes; again redoes).
    UndoSave,
    /// Editor: show the diff of the edit and ask to save it.
    EditorSave,
    /// Editor: move to the next field (the text area keeps the focus when it had it).
    NextField,
    /// Editor: move to the previous field.
    PrevField,
    /// Editor: edit the value of the selected field (focus its text area).
    EditField,
    /// Editor: add a key (asks for its name; `metadata.x` adds a metadata entry).
    AddKey,
    /// Editor: delete the selected key or metadata entry (again restores it).
    DeleteKey,
    /// Editor: switch between the form and the raw YAML text.
    ToggleRaw,
    /// Editor: switch the validation profile (Claude Code ↔ Agent Skills spec).
    ToggleProfile,
    /// Popup: confirm (save the shown diff, discard changes, add the typed key).
    Confirm,
    /// Editor: reload the file from disk after a refused save (drops the edits).
    Reload,
    /// Show the headings of the current file; `Enter` jumps to one.
    Outline,
    /// Load every root again from disk (files changed outside skillnav); the selection,
    /// exposure levels and cursor follow their node ids.
    ReloadAll,
    /// Set the exposure level of the node (inherit → always → on-demand → explicit →
    /// hidden → inherit); it applies to the subtree unless a descendant sets its own.
    CycleExposure,
    /// Switch the token budget to the next smaller preset (then "no budget", then the largest).
    CycleBudget,
    /// Type a custom token budget.
    CustomBudget,
    /// Open the brief preview: the exact text, bytes and tokens before copying.
    BriefPreview,
    /// Copy the rendered skill of the node (several selected skills: listing + bodies).
    CopySkill,
    /// Open the saved selections (recipes).
    Recipes,
    /// Export the curated selection as a new Agent Skills folder.
    Export,
    /// Open every client's listing side by side (docs/AGENTS.md "Client profiles").
    AgentListing,
    /// Open the collision map: pairs of skills whose descriptions compete for the same
    /// requests (docs/AGENTS.md "Description overlap"); `Enter` edits the first skill.
    Collisions,
    /// Collision map: edit the second skill of the pair under the cursor.
    CollisionOther,
    /// Brief preview: next layout (md → xml → json).
    CycleFormat,
    /// Brief preview: next mode (auto → answer → extract → locate → summarize).
    CycleMode,
    /// Brief preview: add or drop the sections retrieved by the search query.
    ToggleQuery,
    /// Brief preview: switch between the brief and the rendered skill(s).
    ToggleKind,
    /// Brief preview: type the arguments of the rendered skill (`$ARGUMENTS`).
    SetArgs,
    /// Brief preview: next listing format before several skills.
    CycleListing,
    /// Brief preview: type `${NAME}` values of the rendered skill (`NAME=value …`).
    SetVars,
    /// Brief preview: add or drop the `Base directory for this skill:` header.
    ToggleBaseDir,
    /// Copy the text shown in the preview.
    CopyText,
    /// Save the text (or the OSC 52 oversize copy) to a file instead.
    SaveFile,
    /// Recipes: save the current selection, exposure levels and budget under a name.
    RecipeSave,
    /// Recipes: delete the recipe under the cursor (asks first).
    RecipeDelete,
    /// Tree: collapse every node except the roots.
    CollapseAll,
    /// Tree: open every visible row one level more.
    ExpandLevel,
    /// Tree: move the cursor to the parent row (without collapsing).
    GoParent,
    /// Tree: order the open folder (or the one holding the cursor) by tokens, bytes, name,
    /// then back to the natural order.
    SortFolder,
    /// Preview: scroll the code rows (every row of the raw text) left.
    ScrollLeft,
    /// Preview: scroll the code rows (every row of the raw text) right.
    ScrollRight,
    /// Preview: long code lines wrap ↔ scroll sideways.
    ToggleWrap,
    /// Preview: the whole width ↔ beside the tree.
    ToggleWide,
    /// Preview: the raw text ↔ the rendered markdown.
    PreviewRaw,
    /// Search box: type a character (any printable key not bound in search mode).
    #[serde(skip)]
    SearchInsert(char),
    /// Typing in the search box paused (the loop's one-shot deadline,
    /// `SearchState::refine_at`): rank the query as finished and re-rank it.
    #[serde(skip)]
    TypingPaused,
    /// A key typed into an editor text area (any key not bound in that mode).
    #[serde(skip)]
    TextKey(crate::tui::input::key::KeyChord),
    /// Text pasted into the search box (newlines become spaces).
    #[serde(skip)]
    Paste(String),
    /// The terminal was resized to (columns, rows).
    #[serde(skip)]
    Resize(u16, u16),
    /// Mouse wheel over the cell (column, row); `down` scrolls forward.
    #[serde(skip)]
    ScrollAt {
        /// Column (0-based).
        col: u16,
        /// Row (0-based).
        row: u16,
        /// Wheel down (forward) when true.
        down: bool,
    },
    /// Left click on the cell (column, row).
    #[serde(skip)]
    ClickAt {
        /// Column (0-based).
        col: u16,
        /// Row (0-based).
        row: u16,
    },
}

impl Action {
    /// Actions that can be bound in the keymap, in the order the help popup lists them.
    pub const BINDABLE: [Action; 76] = [
        Action::MoveDown,
        Action::MoveUp,
        Action::Top,
        Action::Bottom,
        Action::Expand,
        Action::Collapse,
        // Tree navigation.
        Action::CollapseAll,
        Action::ExpandLevel,
        Action::GoParent,
        Action::SortFolder,
        Action::FocusNext,
        Action::SelectDown,
        Action::ToggleSelect,
        Action::CopyBrief,
        Action::SearchOpen,
        Action::NextMatch,
        Action::PrevMatch,
        Action::PageDown,
        Action::PageUp,
        Action::HalfPageDown,
        Action::HalfPageUp,
        Action::ScrollLeft,
        Action::ScrollRight,
        Action::ToggleWrap,
        Action::ToggleWide,
        Action::PreviewRaw,
        Action::Outline,
        Action::ReloadAll,
        Action::CycleExposure,
        Action::CycleBudget,
        Action::CustomBudget,
        Action::BriefPreview,
        Action::CopySkill,
        Action::Recipes,
        Action::Export,
        Action::AgentListing,
        Action::Collisions,
        Action::CollisionOther,
        Action::CycleFormat,
        Action::CycleMode,
        Action::ToggleQuery,
        Action::ToggleKind,
        Action::SetArgs,
        Action::CycleListing,
        Action::SetVars,
        Action::ToggleBaseDir,
        Action::CopyText,
        Action::SaveFile,
        Action::RecipeSave,
        Action::RecipeDelete,
        Action::EditOpen,
        Action::EditExternal,
        Action::UndoSave,
        Action::EditField,
        Action::NextField,
        Action::PrevField,
        Action::AddKey,
        Action::DeleteKey,
        Action::ToggleRaw,
        Action::ToggleProfile,
        Action::EditorSave,
        Action::Confirm,
        Action::Reload,
        Action::Escape,
        Action::Help,
        Action::Redraw,
        Action::Quit,
        Action::SearchAccept,
        Action::SearchBackspace,
        Action::SearchDelete,
        Action::SearchDeleteWord,
        Action::SearchClear,
        Action::SearchLeft,
        Action::SearchRight,
        Action::SearchHome,
        Action::SearchEnd,
    ];

    /// One-line description shown in the help popup.
    pub fn desc(&self) -> &'static str {
        self.pane_desc()
            .or_else(|| self.search_box_desc())
            .or_else(|| self.editor_desc())
            .or_else(|| self.tool_desc())
            .or_else(|| self.brief_popup_desc())
            .or_else(|| self.view_desc())
            .or_else(|| self.event_desc())
            .unwrap_or_default()
    }

    /// The help popup's description of a basic key of the panes (moving, selecting, copying,
    /// searching, paging, help, quitting); `None` for the others.
    fn pane_desc(&self) -> Option<&'static str> {
        Some(match self {
            Action::Quit => "quit",
            Action::MoveDown => "move down / scroll down",
            Action::MoveUp => "move up / scroll up",
            Action::Top => "go to top",
            Action::Bottom => "go to bottom",
            Action::Expand => "expand / drill in / open result",
            Action::Collapse => "collapse / up to parent",
            Action::FocusNext => "switch pane",
            Action::ToggleSelect => "select / deselect subtree",
            Action::SelectDown => "select / deselect subtree, then move down",
            Action::CopyBrief => "copy brief of selection",
            Action::SearchOpen => "search",
            Action::Escape => "close / clear",
            Action::NextMatch => "next match",
            Action::PrevMatch => "previous match",
            Action::PageDown => "page down",
            Action::PageUp => "page up",
            Action::HalfPageDown => "half page down",
            Action::HalfPageUp => "half page up",
            Action::Help => "help",
            Action::Redraw => "redraw the screen",
            _ => return None,
        })
    }

    /// The help popup's description of a search box key; `None` for the others.
    fn search_box_desc(&self) -> Option<&'static str> {
        Some(match self {
            Action::SearchAccept => "jump to result",
            Action::SearchBackspace => "delete back",
            Action::SearchDelete => "delete forward",
            Action::SearchDeleteWord => "delete word",
            Action::SearchClear => "clear query",
            Action::SearchLeft => "cursor left",
            Action::SearchRight => "cursor right",
            Action::SearchHome => "cursor to start",
            Action::SearchEnd => "cursor to end",
            _ => return None,
        })
    }

    /// The help popup's description of an action of the frontmatter editor; `None` for the others.
    fn editor_desc(&self) -> Option<&'static str> {
        Some(match self {
            Action::EditOpen => "edit the skill's frontmatter (form)",
            Action::EditExternal => "open SKILL.md in $EDITOR",
            Action::UndoSave => "undo the last save (again: redo)",
            Action::EditorSave => "save: show the diff first",
            Action::NextField => "next field",
            Action::PrevField => "previous field",
            Action::EditField => "edit the field's value",
            Action::AddKey => "add a key (metadata.x: metadata entry)",
            Action::DeleteKey => "delete / restore the key",
            Action::ToggleRaw => "switch form ↔ raw YAML",
            Action::ToggleProfile => "validation profile claude-code ↔ spec",
            Action::Confirm => "confirm",
            Action::Reload => "reload the file (drops edits)",
            _ => return None,
        })
    }

    /// The help popup's description of an action of the tree's tools: outline, reload, exposure,
    /// budget, copy, recipes, export and the clients and collision popups; `None` for the others.
    fn tool_desc(&self) -> Option<&'static str> {
        Some(match self {
            Action::Outline => "outline: the headings of this file",
            Action::ReloadAll => "reload from disk (files changed outside)",
            Action::CycleExposure => "exposure: inherit/always/on-demand/explicit/hidden",
            Action::CycleBudget => "token budget: next smaller preset / none",
            Action::CustomBudget => "token budget: type a value",
            Action::BriefPreview => "preview the brief before copying",
            Action::CopySkill => "copy rendered skill(s)",
            Action::Recipes => "saved selections (recipes)",
            Action::Export => "export the selection as a new skill",
            Action::AgentListing => "every client's listing side by side",
            Action::Collisions => "skills whose descriptions compete (collision map)",
            Action::CollisionOther => "edit the pair's second skill",
            _ => return None,
        })
    }

    /// The help popup's description of an action of the brief preview and recipe popups; `None` for
    /// the others.
    fn brief_popup_desc(&self) -> Option<&'static str> {
        Some(match self {
            Action::CycleFormat => "format md / xml / json",
            Action::CycleMode => "mode auto / answer / extract / locate / summarize",
            Action::ToggleQuery => "add / drop the search query's hits",
            Action::ToggleKind => "brief ↔ rendered skill",
            Action::SetArgs => "skill arguments ($ARGUMENTS)",
            Action::CycleListing => "skill listing plain / xml / available-skills",
            Action::SetVars => "skill variables (${NAME}: NAME=value …)",
            Action::ToggleBaseDir => "skill base-directory header on / off",
            Action::CopyText => "copy this text",
            Action::SaveFile => "save to a file instead",
            Action::RecipeSave => "save the selection as a recipe",
            Action::RecipeDelete => "delete the recipe",
            _ => return None,
        })
    }

    /// The help popup's description of an action of the tree's folding and sorting and the
    /// preview's display; `None` for the others.
    fn view_desc(&self) -> Option<&'static str> {
        Some(match self {
            Action::CollapseAll => "collapse all",
            Action::ExpandLevel => "expand one level everywhere",
            Action::GoParent => "go to the parent row",
            Action::SortFolder => "sort folder: tokens / bytes / name / natural",
            Action::ScrollLeft => "preview: scroll code left",
            Action::ScrollRight => "preview: scroll code right",
            Action::ToggleWrap => "preview: wrap long code lines / scroll them",
            Action::ToggleWide => "preview: full width / beside the tree",
            Action::PreviewRaw => "preview: raw text / rendered markdown",
            _ => return None,
        })
    }

    /// The help popup's description of an action the event loop makes (typing, paste,
    /// resize, mouse); `None` for the others.
    fn event_desc(&self) -> Option<&'static str> {
        Some(match self {
            Action::SearchInsert(_) => "type",
            Action::TypingPaused => "refine the search",
            Action::TextKey(_) => "type",
            Action::Paste(_) => "paste",
            Action::Resize(..) => "resize",
            Action::ScrollAt { .. } => "mouse wheel",
            Action::ClickAt { .. } => "mouse click",
            _ => return None,
        })
    }

    /// Short label for the key-hint bar (`select`, `copy`, …).
    pub fn hint(&self) -> &'static str {
        match self {
            Action::ToggleSelect | Action::SelectDown => "select",
            Action::CopyBrief => "copy",
            Action::SearchOpen => "search",
            Action::Help => "help",
            Action::Quit => "quit",
            Action::SearchAccept => "open",
            Action::Escape => "close",
            Action::NextMatch => "next",
            Action::FocusNext => "pane",
            Action::EditOpen => "edit",
            Action::EditorSave => "save",
            Action::NextField => "next field",
            Action::EditField => "edit value",
            Action::AddKey => "add key",
            Action::DeleteKey => "delete key",
            Action::ToggleRaw => "raw/form",
            Action::ToggleProfile => "profile",
            Action::Confirm => "confirm",
            Action::Reload => "reload",
            Action::Outline => "outline",
            Action::ReloadAll => "reload",
            Action::CycleExposure => "expose",
            Action::CycleBudget => "budget",
            Action::BriefPreview => "preview",
            Action::CopySkill => "skill",
            Action::Recipes => "recipes",
            Action::CycleFormat => "format",
            Action::CycleMode => "mode",
            Action::ToggleQuery => "query hits",
            Action::ToggleKind => "brief/skill",
            Action::SetArgs => "args",
            Action::CycleListing => "listing",
            Action::SetVars => "vars",
            Action::ToggleBaseDir => "base dir",
            Action::CopyText => "copy",
            Action::SaveFile => "to file",
            Action::RecipeSave => "save",
            Action::RecipeDelete => "delete",
            _ => self.desc(),
        }
    }
}
