//! The structured `meta` of text files (YAML, JSON, TOML: `text_file::structured_meta`, handed in as a function) parsed on a
//! worker thread while the folder walk goes on (docs/DESIGN.md §8 "to searchable"): the
//! walker hands each such file's text (a copy: the source keeps its own) to the worker and
//! goes on; [`MetaPool::finish`] hands every parsed map back before anything reads the
//! nodes' `meta`, so the corpus is the same as parsing each file as it is read.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread::JoinHandle;

use serde_json::{Map, Value};

use crate::model::NodeId;

/// What `text_file::structured_meta` read from one file: its `meta` entries, and the reason
/// it gave none when its text does not parse (the parser's message, first line, at most 200
/// chars), for a warning on the file's node.
pub type StructuredMeta = (Map<String, Value>, Option<String>);
use crossbeam_channel::{Receiver, Sender, unbounded};

/// One file to parse: its node, its extension (lower case) and its text.
type Job = (NodeId, String, String);

/// The parser: (extension, text) → top-level `meta`, and why there is none when the text
/// does not parse.
pub(crate) type Parse = fn(&str, &str) -> StructuredMeta;

/// A parsed file: its node, its extension and what the parser read (no `meta` and no
/// reason if the parser panicked, which is a bug: the file then simply exposes no `meta`).
type Done = (NodeId, String, StructuredMeta);

/// One worker thread parsing structured text files in the background. Create it with
/// [`MetaPool::start`], feed it with [`MetaPool::push`], collect with [`MetaPool::finish`].
pub(crate) struct MetaPool {
    jobs: Option<Sender<Job>>,
    job_rx: Receiver<Job>,
    done_rx: Receiver<Done>,
    worker: Option<JoinHandle<()>>,
    parse: Parse,
}

fn run(parse: Parse, (node, ext, text): Job) -> Done {
    let meta = catch_unwind(AssertUnwindSafe(|| parse(&ext, &text))).unwrap_or_default();
    (node, ext, meta)
}

impl MetaPool {
    /// Start the worker, parsing with `parse`. Returns `None` when no thread could be spawned (the caller then
    /// parses on its own thread).
    pub fn start(parse: Parse) -> Option<Self> {
        let (jobs, job_rx) = unbounded::<Job>();
        let (done_tx, done_rx) = unbounded::<Done>();
        let rx = job_rx.clone();
        let worker = std::thread::Builder::new()
            .name("skillnav-meta".into())
            .spawn(move || {
                for job in &rx {
                    if done_tx.send(run(parse, job)).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Self {
            jobs: Some(jobs),
            job_rx,
            done_rx,
            worker: Some(worker),
            parse,
        })
    }

    /// Queue the text of `node` (a file with extension `ext`, lower case) for parsing.
    pub fn push(&mut self, node: NodeId, ext: String, text: String) {
        if let Some(tx) = &self.jobs {
            // The pool holds a receiver itself, so the job is queued even when the worker is
            // gone; `finish` then runs it on the calling thread.
            let _ = tx.send((node, ext, text));
        }
    }

    /// Call `apply(node, ext, parsed)` for every pushed file (in no particular order): this
    /// thread parses the jobs still queued itself, then joins the worker.
    pub fn finish(mut self, mut apply: impl FnMut(NodeId, String, StructuredMeta)) {
        self.jobs = None;
        while let Ok(job) = self.job_rx.try_recv() {
            let (node, ext, meta) = run(self.parse, job);
            apply(node, ext, meta);
        }
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
        for (node, ext, meta) in self.done_rx.try_iter() {
            apply(node, ext, meta);
        }
    }
}
