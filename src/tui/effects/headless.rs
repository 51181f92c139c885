//! Running the app without a terminal: feed a loaded corpus, run the queued jobs inline
//! with the same [`jobs::run`] the worker threads use, apply their results. Screen tests
//! and benchmarks drive the real `update`/`apply` path through this, exactly as the event
//! loop does, minus threads.

use crate::model::{Corpus, NodeId};
use crate::tui::state::app::App;
use crate::tui::update::apply;

use super::jobs::{self, Job};
use super::text_job::Text;
use super::worker_msg::WorkerMsg;
use crate::tui::effect::{Effect, TextPurpose};

/// Append `corpus` as one loaded root batch and finish loading (as the loader would).
pub fn load(app: &mut App, corpus: Corpus) {
    apply(
        app,
        WorkerMsg::RootLoaded {
            corpus: Box::new(corpus),
            done: 1,
            total: 1,
        },
    );
    apply(app, WorkerMsg::load_done());
}

/// Load `specs` synchronously as the loader worker would, remembering them (with
/// `opts`) for reloads after edits.
pub fn load_specs(
    app: &mut App,
    specs: Vec<crate::formats::RootSpec>,
    opts: crate::formats::LoadOptions,
) {
    app.specs = specs.clone();
    app.load_opts = opts.clone();
    run_inline(app, Job::Load { specs, opts });
}

/// Run `job` with [`jobs::run`] and apply each result in order.
fn run_inline(app: &mut App, job: Job) {
    let mut results = Vec::new();
    jobs::run(job, &mut |msg| results.push(msg));
    for msg in results {
        apply(app, msg);
    }
}

/// Run every queued effect synchronously until none is left, through the same
/// [`jobs::run`] the worker threads use: token counting, indexing, searches, highlighting,
/// reloads, previews of briefs and skills, layers and exports. Copy jobs are not run: the
/// units (briefs) or skills (rendered skills) of each are returned; nor are `$EDITOR` runs
/// (no terminal).
pub fn settle(app: &mut App) -> Vec<Vec<NodeId>> {
    let mut copies = Vec::new();
    while !app.effects.is_empty() {
        for effect in std::mem::take(&mut app.effects) {
            match effect {
                // No clipboard here: the job's nodes are returned instead.
                Effect::Text {
                    job,
                    purpose: TextPurpose::Copy,
                    ..
                } => match job.text {
                    Text::Brief(req) => copies.push(req.units),
                    Text::Skills(s) => copies.push(s.skills),
                },
                Effect::CopyText { .. } => {}
                effect => {
                    for job in jobs::jobs_for(effect, &jobs::Live::of(app)) {
                        run_inline(app, job);
                    }
                }
            }
        }
    }
    copies
}
