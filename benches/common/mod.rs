//! Helpers the in-process benches share (`search`, `semantic`): loading a corpus the way
//! the CLI does, percentiles of sorted durations, and this process's memory figures from
//! `/proc/self/status`.

use std::path::Path;
use std::time::Duration;

use skillnav::agent::workspace::load_corpus;
use skillnav::formats::{LoadOptions, root_specs};
use skillnav::model::Corpus;

/// The `p`-th percentile (0–100, nearest rank) of `sorted` durations; zero when empty.
pub fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let k = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[k.min(sorted.len() - 1)]
}

/// `d` in milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A `/proc/self/status` memory field (`"VmRSS:"`, `"VmHWM:"`) in MiB; `None` off Linux.
pub fn status_mb(field: &str) -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Every root under `path`, loaded with default options exactly as every CLI subcommand
/// loads them (`agent::workspace::load_corpus`: each root finalized by `load_root`, scopes
/// resolved, lints attached).
pub fn load(path: &Path) -> Corpus {
    load_corpus(&root_specs(&[path.to_path_buf()]), &LoadOptions::default())
}
