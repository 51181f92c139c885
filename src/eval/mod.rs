//! Retrieval evaluation (`skillnav eval`): a question set names, per question, the section
//! that answers it; [`run`] searches each question the way `skillnav search` does and builds
//! the brief `skillnav brief --query` would, and [`report`] turns the ranks into recall@1,
//! recall@5, MRR@10 (overall and by question kind) and brief containment at a token budget.
//!
//! Modules: [`questions`] (the JSON file and gold resolution), [`run`] (one question's
//! outcome), [`set`] (a whole file, grouped by roots), [`report`] (the aggregate figures),
//! [`policies`] (scripted agents over the MCP tools' functions: found-rate, calls and tokens
//! per found answer), [`triggers`] (the offline trigger eval: does a skill's description
//! fire on its requests under each client's listing).

pub mod policies;
pub mod questions;
pub mod report;
pub mod run;
pub mod set;
pub mod triggers;

pub use questions::{Gold, Kind, Question, QuestionSet};
pub use report::{Figures, Report};
pub use run::{EvalOptions, Outcome, evaluate};
pub use set::{evaluate_policies_set, evaluate_set};
