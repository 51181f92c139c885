//! Follow-up messages: what one feature's handler asks of another (refresh the brief
//! preview, recount the total, open a prompt, ask a question, …). Handlers push them onto
//! [`crate::tui::state::app::App::followups`]; `update` routes each to its feature after the
//! handler returns, in the order they were pushed, so handlers never call each other.

use std::path::PathBuf;

use crate::tui::state::curate::{InputPurpose, Question, RecipeEntry};

/// One follow-up.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// Recompute the number beside the budget (selection, exposure or query changed).
    Recount,
    /// Rebuild the brief preview's text (a setting changed; no-op when it is closed).
    RefreshPreview,
    /// Replace the search query (and ask for its results).
    SetQuery(String),
    /// Jump to the selected search hit.
    JumpToHit,
    /// Focus the search box.
    OpenSearch,
    /// Open a one-line prompt for a purpose, prefilled with a text.
    OpenInput(InputPurpose, String),
    /// Ask a question.
    Ask(Question),
    /// Set the token budget (`None`: no budget).
    SetBudget(Option<u64>),
    /// Load the recipe in this file.
    LoadRecipe(PathBuf),
    /// Save the current state as the recipe of this name.
    SaveRecipe(String),
    /// Delete this recipe (the question was answered yes).
    DeleteRecipe(RecipeEntry),
    /// Ask for the description of the export into this folder (typed).
    ExportDescribe(String),
    /// Export the selection into this folder (typed; `force` replaces a non-empty one),
    /// with the description typed last ([`crate::tui::state::curate::Curate`]).
    ExportTo {
        /// The folder as typed.
        dir: String,
        /// Replace a non-empty folder.
        force: bool,
    },
    /// Scroll the preview's wide code rows sideways (`true`: right), from `h`/`l` and the
    /// arrows in the preview.
    PreviewSideways(bool),
    /// The selection changed under this label (`Selected x`): say so with the new total.
    SelectionStatus(String),
}
