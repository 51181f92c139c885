//! Worker threads: every [`Job`] runs [`jobs::run`] on a named thread of its own, except
//! queries, which go to one long-lived search worker that always runs only the newest.
//!
//! Every worker body runs under `catch_unwind`: a panic becomes [`WorkerMsg::Failed`] (a
//! status message), never a crash. Results carry the generation they were asked for; the
//! UI drops stale ones.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crossbeam_channel::{Receiver, Sender};

use super::jobs::{self, Job, SearchJob};
use super::worker_msg::WorkerMsg;

/// Run `f`, turning a panic into [`WorkerMsg::Failed`] on `tx`.
pub fn guarded(tx: &Sender<WorkerMsg>, worker: &'static str, f: impl FnOnce()) {
    if let Err(p) = catch_unwind(AssertUnwindSafe(f)) {
        let message = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panicked".into());
        let _ = tx.send(WorkerMsg::Failed { worker, message });
    }
}

/// Spawn a named thread running `f` under [`guarded`]. A thread that cannot start is
/// reported as [`WorkerMsg::Failed`].
pub fn spawn(
    tx: &Sender<WorkerMsg>,
    worker: &'static str,
    f: impl FnOnce(&Sender<WorkerMsg>) + Send + 'static,
) {
    let thread_tx = tx.clone();
    let res = std::thread::Builder::new()
        .name(format!("skillnav-{worker}"))
        .spawn(move || {
            guarded(&thread_tx, worker, || f(&thread_tx));
        });
    if let Err(e) = res {
        let _ = tx.send(WorkerMsg::Failed {
            worker,
            message: format!("cannot start a thread: {e}"),
        });
    }
}

/// Run `job` on a thread of its own, sending each result to `tx`.
pub fn start(tx: &Sender<WorkerMsg>, job: Job) {
    spawn(tx, job.worker(), move |tx| {
        jobs::run(job, &mut |msg| {
            let _ = tx.send(msg);
        });
    });
}

/// Fetch the linked pages of each remote root on a thread of its own, reporting
/// [`WorkerMsg::RemotePages`] after each page and once with the outcome.
pub fn fetch_pages(tx: &Sender<WorkerMsg>, pending: Vec<crate::remote::Pending>) {
    for p in pending {
        spawn(tx, "remote-pages", move |tx| {
            let (root, label) = (p.root, p.label);
            let report = p.plan.run(&|done, total| {
                let _ = tx.send(WorkerMsg::RemotePages {
                    root,
                    label: label.clone(),
                    done: (done, total),
                    report: None,
                });
            });
            let done = report.fetched + report.unchanged + report.failed.len();
            let _ = tx.send(WorkerMsg::RemotePages {
                root,
                label,
                done: (done, done),
                report: Some(report),
            });
        });
    }
}

/// Start the long-lived search worker; it always runs only the newest queued query.
pub fn search_worker(tx: &Sender<WorkerMsg>) -> Sender<SearchJob> {
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<SearchJob>();
    spawn(tx, "search", move |tx| search_loop(tx, &job_rx));
    job_tx
}

fn search_loop(tx: &Sender<WorkerMsg>, rx: &Receiver<SearchJob>) {
    while let Ok(mut job) = rx.recv() {
        // Skip queries typed over: only the newest matters.
        while let Ok(newer) = rx.try_recv() {
            job = newer;
        }
        let query = job.query.clone();
        let mut out = Vec::new();
        let ran = catch_unwind(AssertUnwindSafe(|| {
            jobs::run(Job::Search(job), &mut |m| out.push(m));
        }));
        if ran.is_err() {
            out = vec![WorkerMsg::Failed {
                worker: "search",
                message: format!("query {query:?} failed"),
            }];
        }
        for msg in out {
            if tx.send(msg).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_panic_becomes_a_failed_message() {
        let (tx, rx) = crossbeam_channel::unbounded();
        guarded(&tx, "index", || panic!("index exploded"));
        match rx.try_recv() {
            Ok(WorkerMsg::Failed { worker, message }) => {
                assert_eq!((worker, message.as_str()), ("index", "index exploded"));
            }
            _ => panic!("expected a Failed message"),
        }
        spawn(&tx, "search", |_| panic!("formatted {}", 42));
        match rx.recv_timeout(std::time::Duration::from_secs(10)) {
            Ok(WorkerMsg::Failed { worker, message }) => {
                assert_eq!((worker, message.as_str()), ("search", "formatted 42"));
            }
            _ => panic!("expected a Failed message from the thread"),
        }
    }
}
