//! `validate` on SKILL.md files it cannot read: each is a `skill-md-unreadable` error and
//! the run exits 1 (it exited 0 and left the skill out). Tests run as root, where a
//! `chmod 000` file stays readable, so the permission case runs the binary as `nobody`
//! through `setpriv` when it is there (or directly when the tests do not run as root).

use std::path::Path;

use crate::support::child::skillnav_command;
use crate::support::fs::{tempdir, write};

/// `validate DIR` as text: exit code and stdout with the folder's path cut to `<dir>`.
fn validate(dir: &Path, as_nobody: bool) -> (Option<i32>, String) {
    let mut cmd = if as_nobody {
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_skillnav"))
            .env("XDG_CACHE_HOME", dir.join(".cache"));
        c
    } else {
        skillnav_command()
    };
    let out = cmd
        .arg("validate")
        .arg(dir)
        .env("SKILLNAV_CONFIG_DIR", dir.join("no-config"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace(dir.to_str().unwrap(), "<dir>");
    (out.status.code(), text)
}

#[test]
fn validate_reports_a_binary_a_dangling_link_a_fifo_and_a_folder_skill_md_as_errors() {
    let t = tempdir();
    let dir = t.path();
    write(dir, "ok/SKILL.md", b"---\nname: ok\ndescription: d\n---\n");
    write(dir, "binary/SKILL.md", b"---\nname: binary\n---\n\0\n");
    write(dir, "folder/SKILL.md/a.md", b"# a\n");
    std::fs::create_dir_all(dir.join("dangling")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("/nonexistent", dir.join("dangling/SKILL.md")).unwrap();
    write(dir, "fifo/ref.md", b"# r\n");
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("fifo/SKILL.md"))
        .status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let (code, out) = validate(dir, false);
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        "<dir>/binary/SKILL.md: error[skill-md-unreadable]: SKILL.md cannot be read: binary content (NUL byte); not parsed; the skill was not checked\n\
         <dir>/dangling/SKILL.md: error[skill-md-unreadable]: SKILL.md cannot be read: broken symbolic link to /nonexistent; the skill was not checked\n\
         <dir>/fifo/SKILL.md: error[skill-md-unreadable]: SKILL.md is a FIFO, not a regular file; the skill was not checked\n\
         <dir>/folder/SKILL.md: error[skill-md-unreadable]: SKILL.md is a folder, not a file; the skill was not checked\n\
         5 skills checked (spec): 4 errors, 0 warnings\n"
    );
}

#[cfg(unix)]
#[test]
fn validate_reports_a_skill_md_it_may_not_read_as_an_error() {
    use std::os::unix::fs::PermissionsExt;
    let root = std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
    });
    let setpriv = std::process::Command::new("setpriv")
        .arg("--help")
        .output()
        .is_ok_and(|o| o.status.success());
    if root && !setpriv {
        assert!(!crate::support::child::under_ci(), "setpriv is missing");
        return;
    }
    let t = tempdir();
    let dir = t.path();
    write(dir, "ok/SKILL.md", b"---\nname: ok\ndescription: d\n---\n");
    let p = write(
        dir,
        "perm/SKILL.md",
        b"---\nname: perm\ndescription: d\n---\n",
    );
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    for d in [dir, &dir.join("ok"), &dir.join("perm")] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let (code, out) = validate(dir, root);
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        "<dir>/perm/SKILL.md: error[skill-md-unreadable]: SKILL.md cannot be read: Permission denied (os error 13); the skill was not checked\n\
         2 skills checked (spec): 1 error, 0 warnings\n"
    );
}
