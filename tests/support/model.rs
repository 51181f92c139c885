//! The default re-rank model for the tests that need it (docs/DESIGN.md §3 "Re-rank"):
//! fetched once per run by `tools/fetch-model.sh` (pip; cached in `target/rerank-model`)
//! and installed with `skillnav model install --from` into a models folder under Cargo's
//! temporary folder, never the user's. Without it (no network and no cached copy) such a
//! test is skipped with a message, except under CI, where it fails.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::child::{skillnav_command, under_ci};

/// The models folder holding the installed default model, or `None` (after a message on
/// stderr) when it cannot be fetched outside CI. Panics under CI when it cannot be.
pub fn installed_models() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(install).as_deref()
}

/// The installed default model's folder (see [`installed_models`]).
pub fn installed_model_dir() -> Option<PathBuf> {
    installed_models().map(|m| m.join(skillnav::rerank::registry::DEFAULT_MODEL))
}

fn install() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fetched = std::process::Command::new("bash")
        .arg(root.join("tools/fetch-model.sh"))
        .output();
    let copy = match fetched {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .lines()
            .last()
            .map(str::to_string),
        Ok(o) => {
            eprintln!(
                "tools/fetch-model.sh: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            None
        }
        Err(e) => {
            eprintln!("tools/fetch-model.sh: {e}");
            None
        }
    };
    let Some(copy) = copy else {
        assert!(!under_ci(), "CI: tools/fetch-model.sh failed");
        eprintln!("skipped: no re-rank model (tools/fetch-model.sh failed)");
        return None;
    };
    let models = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("models-installed");
    let out = skillnav_command()
        .env("SKILLNAV_MODELS_DIR", &models)
        .args(["model", "install", "--from", &copy])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "model install --from {copy}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(models)
}
