//! Embedded assets: the sample skill `assets/skillnav-sample/` (opened by `--sample` and
//! when no skills are found, docs/DESIGN.md §7), written out on demand into a per-version cache
//! folder so every loader reads it like any other skill; and the `skillnav` agent skill
//! `assets/agent-skill/SKILL.md` that `skillnav install-skill` installs. (The default config
//! and keymap are embedded by `config` and `tui::keymap`.)

use std::path::{Path, PathBuf};

/// Name of the sample skill; also its folder name (the spec requires them to be equal).
pub const SAMPLE_SKILL_NAME: &str = "skillnav-sample";

/// The sample skill's files: (path relative to the skill folder, contents).
pub const SAMPLE_FILES: [(&str, &str); 3] = [
    (
        "SKILL.md",
        include_str!("../assets/skillnav-sample/SKILL.md"),
    ),
    (
        "references/cli.md",
        include_str!("../assets/skillnav-sample/references/cli.md"),
    ),
    (
        "references/ids-and-sizes.md",
        include_str!("../assets/skillnav-sample/references/ids-and-sizes.md"),
    ),
];

/// The `skillnav` agent skill: a SKILL.md teaching an agent the `--json` CLI.
pub const AGENT_SKILL_MD: &str = include_str!("../assets/agent-skill/SKILL.md");

/// Name (and folder name) of the agent skill.
pub const AGENT_SKILL_NAME: &str = "skillnav";

/// Write the agent skill to `<dir>/skillnav/SKILL.md` and return that path. An existing
/// file with other bytes is replaced only with `force`. Errors: `Usage` when the file exists
/// and differs without `force`; `Io` on write failures.
pub fn install_agent_skill(dir: &Path, force: bool) -> crate::error::Result<PathBuf> {
    if let Some(reason) = crate::remote::cache::read_only_reason(dir) {
        return Err(crate::error::Error::Refused(reason));
    }
    let folder = dir.join(AGENT_SKILL_NAME);
    let path = folder.join("SKILL.md");
    if let Ok(old) = std::fs::read(&path)
        && old != AGENT_SKILL_MD.as_bytes()
        && !force
    {
        return Err(crate::error::Error::Usage(format!(
            "{}: exists with other content (use --force to replace it)",
            path.display()
        )));
    }
    std::fs::create_dir_all(&folder).map_err(|e| crate::error::Error::io(&folder, e))?;
    std::fs::write(&path, AGENT_SKILL_MD).map_err(|e| crate::error::Error::io(&path, e))?;
    Ok(path)
}

/// Write the sample skill under the cache folder
/// ([`crate::util::paths::cache_dir`], else the system temp
/// dir) as `<cache>/sample-<crate version>/skillnav-sample/`, rewriting a file only when it
/// is missing or its bytes differ, and return the skill folder path.
///
/// Errors: the folder or a file cannot be created or written (I/O error of the first
/// failing operation).
pub fn sample_dir() -> std::io::Result<PathBuf> {
    let base = crate::util::paths::cache_dir().unwrap_or_else(std::env::temp_dir);
    match write_sample(&base) {
        Ok(p) => Ok(p),
        // A read-only or missing cache folder: fall back to the temp dir.
        Err(_) if base != std::env::temp_dir() => {
            write_sample(&std::env::temp_dir().join("skillnav"))
        }
        Err(e) => Err(e),
    }
}

/// Materialise the sample skill below `base` (see [`sample_dir`]); returns the skill folder.
pub fn write_sample(base: &Path) -> std::io::Result<PathBuf> {
    let dir = base
        .join(format!("sample-{}", env!("CARGO_PKG_VERSION")))
        .join(SAMPLE_SKILL_NAME);
    for (rel, text) in SAMPLE_FILES {
        let path = dir.join(rel);
        if std::fs::read(&path).is_ok_and(|b| b == text.as_bytes()) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, text)?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_is_written_once_and_repaired() {
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let dir = write_sample(t.path()).unwrap_or_else(|e| panic!("write: {e}"));
        assert!(dir.ends_with(format!(
            "sample-{}/skillnav-sample",
            env!("CARGO_PKG_VERSION")
        )));
        let skill = dir.join("SKILL.md");
        assert_eq!(
            std::fs::read_to_string(&skill).unwrap_or_default(),
            SAMPLE_FILES[0].1
        );
        // A damaged file is rewritten; an intact one is left alone (same mtime).
        std::fs::write(&skill, "broken").unwrap_or_else(|e| panic!("{e}"));
        let refs = dir.join("references/cli.md");
        let before = std::fs::metadata(&refs).and_then(|m| m.modified()).ok();
        write_sample(t.path()).unwrap_or_else(|e| panic!("rewrite: {e}"));
        assert_eq!(
            std::fs::read_to_string(&skill).unwrap_or_default(),
            SAMPLE_FILES[0].1
        );
        assert_eq!(
            std::fs::metadata(&refs).and_then(|m| m.modified()).ok(),
            before
        );
    }

    #[test]
    fn sample_frontmatter_names_its_folder() {
        let text = SAMPLE_FILES[0].1;
        assert!(text.starts_with("---\nname: skillnav-sample\n"));
        for lang in ["```rust", "```bash", "```toml", "```json"] {
            let in_any = SAMPLE_FILES.iter().any(|(_, t)| t.contains(lang));
            assert!(in_any, "sample has a {lang} block");
        }
    }
}
