//! What is open over the panes: a stack of [`Popup`]s (the top one gets the keys; a prompt
//! or question opened from another popup sits on top of it and gives the keys back when it
//! closes). The keymap mode of the app is the top popup's [`Popup::mode`], else the search
//! box's or the panes'.

use crate::tui::input::keymap::Mode;
use crate::tui::state::collisions::Collisions;
use crate::tui::state::curate::{Ask, InputBox, PreviewPopup, RecipeList};
use crate::tui::state::editor::Editor;
use crate::tui::state::outline::Outline;

/// One open popup with its state.
#[derive(Debug)]
pub enum Popup {
    /// The key help.
    Help {
        /// First line shown.
        scroll: usize,
    },
    /// The headings of the current file.
    Outline(Outline),
    /// The collision map.
    Collisions(Collisions),
    /// The brief / rendered-skill preview.
    Brief(PreviewPopup),
    /// The saved selections.
    Recipes(RecipeList),
    /// A one-line prompt.
    Input(Box<InputBox>),
    /// A question with a few answers.
    Ask(Ask),
    /// The frontmatter editor (its own popups are modes of the editor).
    Editor(Box<Editor>),
}

impl Popup {
    /// The keymap table that applies while this popup is on top.
    pub fn mode(&self) -> Mode {
        match self {
            Popup::Help { .. } => Mode::Help,
            Popup::Outline(_) => Mode::Outline,
            Popup::Collisions(_) => Mode::Collisions,
            Popup::Brief(_) => Mode::Brief,
            Popup::Recipes(_) => Mode::Recipes,
            Popup::Input(_) => Mode::Input,
            Popup::Ask(_) => Mode::Ask,
            Popup::Editor(ed) => ed.mode,
        }
    }
}
