//! Root labels (docs/DESIGN.md §2 "Ids": `<root>` is the scope label for discovered roots, else
//! the folder name, deduplicated in sorted real-path order).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::spec::RootSpec;

/// Labels for PATH arguments: the folder (or file) name of each path, deduplicated in
/// sorted real-path order with `-2`, `-3` (the path that sorts first keeps the plain
/// name). Output is in argument order. `#` and `/` in names become `-` (they delimit ids);
/// a path without a name (`/`) is labelled `root`. A path whose real path repeats an earlier
/// one is dropped (each root is opened once).
pub fn root_specs(paths: &[PathBuf]) -> Vec<RootSpec> {
    let reals: Vec<PathBuf> = paths
        .iter()
        .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
        .collect();
    let bases: Vec<String> = reals.iter().map(|r| base_label(r)).collect();
    let mut order: Vec<usize> = (0..paths.len()).collect();
    order.sort_by(|a, b| reals[*a].cmp(&reals[*b]).then(a.cmp(b)));
    let mut labels = vec![String::new(); paths.len()];
    let mut taken = crate::model::id::Taken::default();
    for i in order {
        labels[i] = unique(&bases[i], &mut taken);
    }
    // The same real folder given twice (or through a link) is opened once.
    let mut seen = HashSet::new();
    paths
        .iter()
        .zip(labels)
        .zip(&reals)
        .filter(|(_, real)| seen.insert((*real).clone()))
        .map(|((p, label), _)| RootSpec {
            path: p.clone(),
            label,
        })
        .collect()
}

/// The default roots when no PATH is given: every agent's skill folders that exist
/// ([`super::agents::discover`]: project folders under `cwd`, user folders under `$HOME`),
/// labelled `<agent>-<scope>` (`claude-code-project`, `cursor-user`), deduplicated
/// (`-2`). A folder reached twice (cwd is home) is listed once.
pub fn discover_roots(cwd: &Path) -> Vec<RootSpec> {
    discover_roots_for(cwd, None)
}

/// [`discover_roots`] for the folders one agent reads (all when `agent` is `None`).
pub fn discover_roots_for(cwd: &Path, agent: Option<&str>) -> Vec<RootSpec> {
    let home = super::agents::home_dir();
    let mut taken = crate::model::id::Taken::default();
    super::agents::discover(cwd, home.as_deref(), agent)
        .into_iter()
        .map(|(path, label)| RootSpec {
            label: unique(&label, &mut taken),
            path,
        })
        .collect()
}

fn base_label(real: &Path) -> String {
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().replace(['#', '/'], "-"))
        .unwrap_or_default();
    if name.is_empty() {
        "root".to_string()
    } else {
        name
    }
}

fn unique(base: &str, taken: &mut crate::model::id::Taken) -> String {
    crate::model::id::dedupe(base, taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_dedupe_in_real_path_order_output_in_argument_order() {
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let (a, b) = (t.path().join("a/docs"), t.path().join("b/docs"));
        for d in [&a, &b] {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("mkdir: {e}"));
        }
        let specs = root_specs(&[b.clone(), a.clone(), t.path().join("a")]);
        let labels: Vec<&str> = specs.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, vec!["docs-2", "docs", "a"]);
        assert_eq!(specs[0].path, b);
    }

    #[test]
    fn discover_project_roots() {
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        for d in [".claude/skills", ".agents/skills"] {
            std::fs::create_dir_all(t.path().join(d)).unwrap_or_else(|e| panic!("mkdir: {e}"));
        }
        let specs = discover_roots(t.path());
        let project: Vec<(&str, PathBuf)> = specs
            .iter()
            .filter(|s| s.label.ends_with("-project"))
            .map(|s| (s.label.as_str(), s.path.clone()))
            .collect();
        assert_eq!(
            project,
            vec![
                ("claude-code-project", t.path().join(".claude/skills")),
                ("agents-project", t.path().join(".agents/skills"))
            ]
        );
    }
}
