//! Sectioning markdown files on worker threads *while* the folder walk goes on (docs/DESIGN.md §8
//! "to searchable"): the walker hands each read markdown text to the pool, a worker scans
//! it ([`sections::plan_sections`]) and hands text and plan back; the loader then adds the
//! section nodes in file order, so the corpus is the same as sectioning each file in turn.
//!
//! A text is *moved* to the pool (never copied) and put back into its source by
//! [`SectionPool::finish`]; until then that source's `text` is empty. A job pushed to be
//! spilled (`super::spill`) comes back as its length and CRC-32 only: the worker lets the
//! text go once it is scanned, so a big load never holds every text. Only the walker's
//! plain markdown files go through the pool, and nothing reads their text before the
//! loader finishes (duplicates, ids and sizes are computed afterwards).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded, unbounded};

use crate::formats::sections::{self, SectionPlan};

/// One text to scan: its index among the pool's jobs, the text and the range to section
/// (bytes).
struct Job {
    ix: usize,
    text: String,
    from: usize,
    to: usize,
    /// Let the text go once it is scanned.
    spill: bool,
    /// The length and CRC-32 of a text let go.
    spilled: Option<(u64, u32)>,
}

/// A scanned text as it comes back to its source.
pub(crate) enum Back {
    /// The text itself.
    Text(String),
    /// The text was let go: its length in bytes and CRC-32.
    Spilled {
        /// Length in bytes.
        len: u64,
        /// CRC-32 of the bytes.
        crc: u32,
    },
}

/// A scanned job with its plan (`None` only if the scanner panicked, which is a bug;
/// [`SectionPool::finish`] then scans again on its own thread).
type Done = (Job, Option<SectionPlan>);

/// Worker threads scanning markdown texts in the background. Create it with
/// [`SectionPool::start`], feed it with [`SectionPool::push`], collect with
/// [`SectionPool::finish`].
pub(crate) struct SectionPool {
    jobs: Option<Sender<Job>>,
    job_rx: Receiver<Job>,
    done_rx: Receiver<Done>,
    workers: Vec<JoinHandle<()>>,
    pushed: usize,
    /// Jobs this thread scanned itself because the queue was full.
    local: Vec<Done>,
}

/// Jobs queued per worker at most: when the walk reads faster than the workers scan, the
/// walker scans the next text itself instead of queueing it, so the texts waiting in the
/// queue stay a few per worker, not the whole tree's (docs/DESIGN.md §8 "Memory").
const QUEUED_PER_WORKER: usize = 8;

fn run(mut job: Job) -> Done {
    let plan = catch_unwind(AssertUnwindSafe(|| {
        sections::plan_sections_deferred(&job.text, job.from, job.to)
    }))
    .ok();
    if job.spill && plan.is_some() && job.text.len() <= crate::model::SPILL_MAX_BYTES {
        // Only the length and CRC-32 go back; a job whose scan failed keeps its text, to be
        // scanned again.
        let text = std::mem::take(&mut job.text);
        job.spilled = Some((text.len() as u64, crc32fast::hash(text.as_bytes())));
    }
    (job, plan)
}

/// What goes back to the source of a scanned `job`: its text, or the length and CRC-32 of
/// one let go.
fn back(job: Job) -> Back {
    match job.spilled {
        Some((len, crc)) => Back::Spilled { len, crc },
        None => Back::Text(job.text),
    }
}

impl SectionPool {
    /// Start `workers` threads (at least one). Returns `None` when no thread could be
    /// spawned (the caller then scans on its own thread).
    pub fn start(workers: usize) -> Option<Self> {
        let (jobs, job_rx) = bounded::<Job>(workers.max(1) * QUEUED_PER_WORKER);
        let (done_tx, done_rx) = unbounded::<Done>();
        let mut handles = Vec::new();
        for _ in 0..workers.max(1) {
            let rx = job_rx.clone();
            let tx = done_tx.clone();
            let spawned = std::thread::Builder::new()
                .name("skillnav-sections".into())
                .spawn(move || {
                    for job in &rx {
                        if tx.send(run(job)).is_err() {
                            break;
                        }
                    }
                });
            if let Ok(h) = spawned {
                handles.push(h);
            }
        }
        if handles.is_empty() {
            return None;
        }
        Some(Self {
            jobs: Some(jobs),
            job_rx,
            done_rx,
            workers: handles,
            pushed: 0,
            local: Vec::new(),
        })
    }

    /// Queue `text` (its range `from..to`) as the next job; jobs are numbered from 0 in
    /// push order. With `spill`, the text is let go once it is scanned ([`Back::Spilled`]).
    pub fn push(&mut self, text: String, from: usize, to: usize, spill: bool) {
        let job = Job {
            ix: self.pushed,
            text,
            from,
            to,
            spill,
            spilled: None,
        };
        self.pushed += 1;
        if let Some(tx) = &self.jobs {
            // A full queue (or, which cannot happen while the pool holds a receiver, a
            // closed one): this thread scans the job now.
            if let Err(TrySendError::Full(job) | TrySendError::Disconnected(job)) = tx.try_send(job)
            {
                self.local.push(run(job));
            }
        }
    }

    /// Number of jobs pushed so far.
    pub fn len(&self) -> usize {
        self.pushed
    }

    /// Collect every job in push order, calling `apply(ix, text, plan)` for job 0, 1, 2, …
    /// as soon as it is ready; while the next one is not, this thread scans queued jobs
    /// itself. Joins the workers.
    pub fn finish(mut self, mut apply: impl FnMut(usize, Back, SectionPlan)) {
        self.jobs = None;
        let n = self.pushed;
        let mut slots: Vec<Option<Done>> = Vec::new();
        slots.resize_with(n, || None);
        let store = |slots: &mut Vec<Option<Done>>, d: Done| {
            if let Some(s) = slots.get_mut(d.0.ix) {
                *s = Some(d);
            }
        };
        for d in std::mem::take(&mut self.local) {
            store(&mut slots, d);
        }
        for next in 0..n {
            while slots[next].is_none() {
                if let Ok(d) = self.done_rx.try_recv() {
                    store(&mut slots, d);
                } else if let Ok(job) = self.job_rx.try_recv() {
                    store(&mut slots, run(job));
                } else {
                    match self.done_rx.recv() {
                        Ok(d) => store(&mut slots, d),
                        // Every worker has exited and nothing is queued: the job is lost
                        // (cannot happen: workers return every job they take).
                        Err(_) => break,
                    }
                }
            }
            if let Some((job, plan)) = slots[next].take() {
                let plan = plan.unwrap_or_else(|| {
                    sections::plan_sections_deferred(&job.text, job.from, job.to)
                });
                apply(next, back(job), plan);
            }
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{LoadOptions, RootSpec, load_root, sections};
    use crate::model::{Corpus, Format, Node, NodeKind, Source, TextSpan};

    /// A markdown text of about `n` sections with nested headings, fences and a prelude.
    fn doc(seed: usize, n: usize) -> String {
        let mut s = format!("Intro {seed}. More words here.\n\n");
        for i in 0..n {
            s.push_str(&format!(
                "# Part {i} of {seed}\nBody {i}. Second sentence.\n\n"
            ));
            s.push_str(&format!(
                "## Sub {i}\n```\n# not a heading {i}\n```\n- item {i}. x\n\n"
            ));
            s.push_str(&format!(
                "Setext {i}\n---\nText with `code` and *emphasis* {i}.\n\n"
            ));
        }
        s
    }

    fn dump(c: &Corpus, file: crate::model::NodeId) -> Vec<String> {
        c.preorder(file)
            .into_iter()
            .skip(1)
            .map(|id| {
                let n = c.node(id);
                let s = n.span.map(|s| (s.start, s.own_end, s.end));
                format!(
                    "{} {:?} {:?} {:?} {:?} {}",
                    n.title,
                    s,
                    n.line_start,
                    n.line_end,
                    c.summary(id),
                    n.level
                )
            })
            .collect()
    }

    #[test]
    fn pool_returns_every_text_with_its_plan_in_order() {
        let texts: Vec<String> = (0..9).map(|i| doc(i, 5 + i)).collect();
        let Some(mut pool) = SectionPool::start(2) else {
            return;
        };
        for (i, t) in texts.iter().enumerate() {
            pool.push(t.clone(), 0, t.len(), i % 2 == 1);
        }
        let mut seen = Vec::new();
        pool.finish(|ix, text, plan| {
            let direct = sections::plan_sections_deferred(&texts[ix], 0, texts[ix].len());
            match text {
                Back::Text(t) => assert_eq!((ix % 2, t.as_str()), (0, texts[ix].as_str())),
                Back::Spilled { len, crc } => {
                    assert_eq!(ix % 2, 1, "only the jobs pushed to be spilled");
                    assert_eq!(len, texts[ix].len() as u64);
                    assert_eq!(crc, crc32fast::hash(texts[ix].as_bytes()));
                }
            }
            assert_eq!(format!("{plan:?}"), format!("{direct:?}"));
            seen.push(ix);
        });
        assert_eq!(seen, (0..9).collect::<Vec<_>>());
    }

    #[test]
    fn large_folder_sections_equal_sequential_sectioning() {
        // Over PARALLEL_SECTION_BYTES in total, so the walk hands texts to the pool.
        let dir = tempfile::tempdir().expect("temp dir");
        let texts: Vec<String> = (0..6).map(|i| doc(i, 900)).collect();
        assert!(texts.iter().map(String::len).sum::<usize>() > 512 * 1024);
        for (i, t) in texts.iter().enumerate() {
            std::fs::write(dir.path().join(format!("f{i}.md")), t).expect("write");
        }
        let spec = RootSpec {
            path: dir.path().to_path_buf(),
            label: "r".into(),
        };
        let c = load_root(&spec, &LoadOptions::default(), &mut |_| {});
        let spilled = super::super::spill::while_spilling(|| {
            load_root(&spec, &LoadOptions::default(), &mut |_| {})
        });
        let files: Vec<_> = c.node(c.roots[0]).children.to_vec();
        assert_eq!(files.len(), 6);
        assert!(c.sources.iter().all(Source::is_held));
        assert!(
            spilled.sources.iter().filter(|s| !s.is_held()).count() >= 4,
            "the texts the pool scanned were let go"
        );
        for (i, f) in files.into_iter().enumerate() {
            assert_eq!(c.text(f), texts[i], "source text put back");
            assert_eq!(spilled.text(f), texts[i], "spilled text read again");
            assert_eq!(dump(&spilled, f), dump(&c, f));
            let mut one = Corpus::new();
            let src = one.add_source(Source::virtual_text(texts[i].clone()));
            let root = one.add_root(Node::new(NodeKind::Root, Format::Markdown, "r", ""));
            let name = format!("f{i}.md");
            let mut n = Node::new(
                NodeKind::File,
                Format::Markdown,
                name.as_str(),
                name.as_str(),
            );
            let len = texts[i].len();
            n.span = Some(TextSpan {
                source: src,
                start: 0,
                own_end: 0,
                end: len,
            });
            let file = one.add_child(root, n);
            sections::add_sections(&mut one, file, src, 0, len, Format::Markdown);
            one.finalize();
            assert_eq!(dump(&c, f), dump(&one, file), "file {i}");
        }
    }
}
