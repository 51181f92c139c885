//! Shell integration: `skillnav completions bash|zsh|fish`, `skillnav man` and the commit in
//! `--version`, run on the real binary.

use std::process::{Command, Output};

fn skillnav(args: &[&str]) -> Output {
    crate::support::child::skillnav_command()
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"))
}

fn stdout_of(args: &[&str]) -> String {
    let out = skillnav(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{args:?}: not UTF-8: {e}"))
}

/// Every subcommand name, in the order `skillnav --help` lists them.
const SUBCOMMANDS: [&str; 22] = [
    "tree",
    "search",
    "eval",
    "show",
    "brief",
    "fm",
    "validate",
    "list",
    "topics",
    "catalog",
    "build",
    "render",
    "export",
    "doctree",
    "cache",
    "model",
    "recipe",
    "mcp",
    "install-skill",
    "completions",
    "man",
    "help",
];

/// What bash offers for `skillnav WORDS…` (the last word is the one being completed), by
/// sourcing the script and calling its function the way `complete -F` does.
fn bash_offers(words: &[&str]) -> String {
    let bin = env!("CARGO_BIN_EXE_skillnav");
    let cword = words.len();
    let cur = words.last().copied().unwrap_or("");
    let prev = if cword >= 2 {
        words[cword - 2]
    } else {
        "skillnav"
    };
    let script = format!(
        "source <('{bin}' completions bash) && COMP_WORDS=(skillnav {}) && COMP_CWORD={cword} \
         && _skillnav skillnav '{cur}' '{prev}' && echo \"${{COMPREPLY[@]}}\"",
        words.join(" ")
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .output()
        .unwrap_or_else(|e| panic!("cannot run bash: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn bash_completion_completes_subcommands_and_shell_names() {
    assert_eq!(bash_offers(&["com"]), "completions");
    assert_eq!(bash_offers(&["ins"]), "install-skill");
    assert_eq!(bash_offers(&["completions", "z"]), "zsh");
    assert_eq!(bash_offers(&["completions", "f"]), "fish");
    let all = bash_offers(&[""]);
    for sub in SUBCOMMANDS {
        assert!(all.split(' ').any(|w| w == sub), "{sub} missing from {all}");
    }
}

#[test]
fn zsh_and_fish_completions_name_the_program_and_every_subcommand() {
    let zsh = stdout_of(&["completions", "zsh"]);
    assert_eq!(zsh.lines().next(), Some("#compdef skillnav"));
    assert!(zsh.contains("'completions:Print a shell completion script"));
    let fish = stdout_of(&["completions", "fish"]);
    let subs: Vec<&str> = fish
        .lines()
        .filter(|l| {
            l.starts_with("complete -c skillnav -n \"__fish_skillnav_needs_command\" -a \"")
        })
        .filter_map(|l| l.split('"').nth(3))
        .collect();
    assert_eq!(subs, SUBCOMMANDS);
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let out = skillnav(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).lines().next(),
        Some("skillnav: invalid value 'tcsh' for '<SHELL>'")
    );
}

#[test]
fn man_page_is_roff_with_every_subcommand_and_the_version_line() {
    let page = stdout_of(&["man"]);
    let version = stdout_of(&["--version"]);
    let version = version.trim_end().trim_start_matches("skillnav ");
    let th = page
        .lines()
        .find(|l| l.starts_with(".TH "))
        .unwrap_or_else(|| panic!("no .TH line"));
    assert_eq!(
        th.trim_end(),
        format!(".TH skillnav 1  \"skillnav {version}\"")
    );
    let sections: Vec<&str> = page.lines().filter(|l| l.starts_with(".SH ")).collect();
    assert_eq!(
        sections,
        [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH DESCRIPTION",
            ".SH OPTIONS",
            ".SH SUBCOMMANDS",
            ".SH EXTRA",
            ".SH VERSION"
        ]
    );
    for sub in SUBCOMMANDS.iter().filter(|s| **s != "help") {
        let entry = format!("skillnav\\-{}(1)", sub.replace('-', "\\-"));
        assert!(page.contains(&entry), "{entry} missing");
    }
    assert!(
        !page.contains("skillnav\\-help(1)"),
        "help has no page of its own"
    );
}

#[test]
fn man_out_dir_writes_the_page_every_subcommands_entry_names() {
    let dir = tempfile::tempdir().unwrap();
    let listed = stdout_of(&["man", "--out-dir", dir.path().to_str().unwrap()]);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(listed.lines().count(), names.len());
    assert!(names.contains(&"skillnav.1".to_string()));
    for sub in SUBCOMMANDS.iter().filter(|s| **s != "help") {
        let page = format!("skillnav-{sub}.1");
        assert!(names.contains(&page), "{page} missing from {names:?}");
    }
    // Nested subcommands get pages too, named by their path.
    assert!(
        names.contains(&"skillnav-fm-set.1".to_string()),
        "{names:?}"
    );
    let fm = std::fs::read_to_string(dir.path().join("skillnav-fm.1")).unwrap();
    let th = fm.lines().find(|l| l.starts_with(".TH ")).unwrap();
    let version = stdout_of(&["--version"]);
    let version = version.trim_end().trim_start_matches("skillnav ");
    assert_eq!(
        th.trim_end(),
        format!(".TH skillnav-fm 1  \"fm {version}\"")
    );
}

#[test]
fn version_names_the_commit_of_the_checkout() {
    let version = stdout_of(&["--version"]);
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let expected = match commit {
        Some(c) => format!("skillnav {} ({c})\n", env!("CARGO_PKG_VERSION")),
        None => format!("skillnav {}\n", env!("CARGO_PKG_VERSION")),
    };
    assert_eq!(version, expected);
}
