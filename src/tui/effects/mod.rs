//! Work `update` queues and its results: [`crate::tui::effect::Effect`] (what to do), [`jobs`] (the one
//! body of every job), [`workers`] (runs jobs on threads), [`headless`] (runs them inline,
//! for tests and benchmarks) and [`worker_msg::WorkerMsg`] (what comes back). The job bodies:
//! [`text_job`] (briefs and rendered skills), [`export`], [`preview_doc`], [`layers`], and
//! [`work`] (the indexes, layers, highlighting and rendering jobs).

pub mod export;
pub mod headless;
pub mod jobs;
pub mod layers;
pub mod preview_doc;
pub mod text_job;
pub mod work;
pub mod worker_msg;
pub mod workers;
