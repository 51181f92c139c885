//! The search bench's rank-bm25 baseline (docs/DESIGN.md §8), driven one round at a time:
//! `benches/baseline_rank_bm25.py --serve` runs in a child process and builds its index only
//! when asked, so each of its rounds runs right after one of ours and both sides meet the same
//! state of a shared machine. The child is idle (blocked on its stdin) while we measure.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use skillnav::index::Index;
use skillnav::model::Corpus;

/// One round of the baseline, in seconds: reading and parsing the JSONL, tokenizing every
/// text, and the `BM25Okapi` constructor.
#[derive(Clone, Copy, Debug)]
pub struct Round {
    pub docs: u64,
    pub read_s: f64,
    pub tokenize_s: f64,
    pub index_s: f64,
}

impl Round {
    /// Tokenize + index (s): the baseline's "indexing the same sections".
    pub fn indexing_s(&self) -> f64 {
        self.tokenize_s + self.index_s
    }

    /// Read + tokenize + index (s): the baseline's "to searchable from files".
    pub fn files_to_searchable_s(&self) -> f64 {
        self.read_s + self.indexing_s()
    }
}

/// The running baseline process and the files it reads (removed with it).
pub struct Baseline {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    queries_path: PathBuf,
    _dir: tempfile::TempDir,
}

fn python_has_rank_bm25() -> bool {
    Command::new("python3")
        .args(["-c", "import rank_bm25"])
        .output()
        .is_ok_and(|o| o.status.success())
}

impl Baseline {
    /// Write the own text of every document `index` holds (one JSON object a line, as the
    /// script reads them) and `queries` (one a line) to a temporary folder, and start the
    /// script on them. Installs rank-bm25 with pip when it is missing. `None`, with a printed
    /// line saying why, when python3 or rank-bm25 is unavailable or a file cannot be written.
    pub fn start(corpus: &Corpus, index: &Index, queries: &[String]) -> Option<Self> {
        if !python_has_rank_bm25() {
            println!("baseline: installing rank-bm25 (pip install rank-bm25)");
            let _ = Command::new("python3")
                .args(["-m", "pip", "install", "--quiet", "rank-bm25"])
                .status();
            if !python_has_rank_bm25() {
                println!("baseline: python3 with rank_bm25 unavailable; ratio not measured");
                return None;
            }
        }
        let Ok(dir) = tempfile::tempdir() else {
            println!("baseline: cannot create a temp dir; ratio not measured");
            return None;
        };
        let docs_path = dir.path().join("docs.jsonl");
        let queries_path = dir.path().join("queries.txt");
        let write = || -> std::io::Result<()> {
            let mut f = std::io::BufWriter::new(std::fs::File::create(&docs_path)?);
            for n in index.documents() {
                let line = serde_json::json!({ "id": corpus.id(n), "text": corpus.own_text(n) });
                writeln!(f, "{line}")?;
            }
            f.flush()?;
            std::fs::write(&queries_path, queries.join("\n"))
        };
        if let Err(e) = write() {
            println!("baseline: cannot write {}: {e}", docs_path.display());
            return None;
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/baseline_rank_bm25.py");
        let spawned = Command::new("python3")
            .arg(&script)
            .arg(&docs_path)
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn();
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                println!("baseline: cannot run python3: {e}");
                return None;
            }
        };
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            println!("baseline: no pipe to python3; ratio not measured");
            let _ = child.kill();
            return None;
        };
        let mut base = Self {
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            queries_path,
            _dir: dir,
        };
        // Python's start (its imports) must not run beside our first measured round.
        base.ask("ready")?;
        Some(base)
    }

    /// Send one command line and read the JSON line it answers; `None` (printed) when the
    /// process is gone, answers something unreadable or reports an error.
    fn ask(&mut self, command: &str) -> Option<serde_json::Value> {
        let stdin = self.stdin.as_mut()?;
        if let Err(e) = writeln!(stdin, "{command}").and_then(|()| stdin.flush()) {
            println!("baseline: python3 stopped ({e})");
            return None;
        }
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(n) if n > 0 => {}
            _ => {
                println!("baseline: python3 gave no answer to {command:?}");
                return None;
            }
        }
        let v: serde_json::Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                println!("baseline: unreadable answer ({e}): {}", line.trim());
                return None;
            }
        };
        if let Some(err) = v.get("error") {
            println!("baseline: {err}");
            return None;
        }
        Some(v)
    }

    /// Run one read + tokenize + index round now.
    pub fn round(&mut self) -> Option<Round> {
        let v = self.ask("round")?;
        let f = |k: &str| v.get(k).and_then(serde_json::Value::as_f64);
        Some(Round {
            docs: v.get("docs").and_then(serde_json::Value::as_u64)?,
            read_s: f("read_s")?,
            tokenize_s: f("tokenize_s")?,
            index_s: f("index_s")?,
        })
    }

    /// Score every query on the last round's index: (p50, p95) in ms.
    pub fn query_p50_p95_ms(&mut self) -> Option<(f64, f64)> {
        let command = format!("queries {}", self.queries_path.display());
        let v = self.ask(&command)?;
        let f = |k: &str| v.get(k).and_then(serde_json::Value::as_f64);
        Some((f("query_p50_ms")?, f("query_p95_ms")?))
    }
}

impl Drop for Baseline {
    /// Close the script's stdin (it ends at the end of its input) and wait for it.
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}
