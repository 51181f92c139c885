//! Stress inputs found against the release binary, replayed through the binary under test
//! in a child process with a deadline, so a regression fails the test instead of hanging
//! the suite: a SKILL.md of 1,000 nested maps (it took O(depth²) memory: 876 MB for
//! 1.3 MB), `fm set`/`fm get` on a SKILL.md that is `/dev/zero` or a FIFO (never
//! returned), a frontmatter over the 16 MiB cap (3 GB at 100 MB), and SKILL.md files
//! `validate` cannot read (it exited 0 without them, also when a `SKILL.md` folder or FIFO
//! was the only entry of its folder).

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::child::skillnav_command;
use crate::support::fs::{tempdir, write};

/// What a child run left: exit code (None when killed at the deadline), stdout, stderr.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Run `skillnav args` with output to files (a full pipe never stalls it), killing it
/// after `secs` seconds.
fn run(dir: &Path, args: &[&str], secs: u64) -> Run {
    let out = dir.join(".stdout");
    let err = dir.join(".stderr");
    let mut child = skillnav_command()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(secs);
    let code = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run {
        code,
        stdout: std::fs::read_to_string(&out).unwrap(),
        stderr: std::fs::read_to_string(&err).unwrap(),
    }
}

/// The stress input: `m0:` … `m999:`, each holding `v{i}: x` and the next map, two
/// spaces a level (2.0 MB).
fn nested_maps(levels: usize) -> String {
    let mut s = String::from("---\nname: deep\ndescription: nested maps\n");
    for i in 0..levels {
        s.push_str(&format!(
            "{}m{i}:\n{}v{i}: x\n",
            "  ".repeat(i),
            "  ".repeat(i + 1)
        ));
    }
    s.push_str("---\nbody\n");
    s
}

#[test]
fn thousand_nested_maps_go_through_fm_get_fm_set_validate_and_tree_in_time() {
    let dir = tempdir();
    let text = nested_maps(1000);
    write(dir.path(), "deep/SKILL.md", text.as_bytes());
    let r = run(
        dir.path(),
        &["fm", "get", "deep/SKILL.md", "m0.m1.m2.v2"],
        60,
    );
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(0), "x\n"),
        "{}",
        r.stderr
    );
    let r = run(
        dir.path(),
        &["fm", "set", "deep/SKILL.md", "description", "changed"],
        60,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("deep/SKILL.md")).unwrap(),
        text.replace("description: nested maps\n", "description: changed\n")
    );
    let r = run(dir.path(), &["validate", "deep"], 60);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let real = dir.path().canonicalize().unwrap();
    assert_eq!(
        r.stdout.replace(real.to_str().unwrap(), "<dir>"),
        "<dir>/deep/SKILL.md:4: error[unknown-key]: 'm0' is not a spec field (allowed: name, \
         description, license, compatibility, metadata, allowed-tools)\n\
         <dir>/deep/SKILL.md:131: error[yaml-strict]: a strict YAML reader rejects it: budget \
         breached: Depth { depth: 65 }\n\
         <dir>/deep/SKILL.md:1029: warning[yaml]: maps nested more than 512 levels deep in \
         `m512`; read as text\n\
         1 skill checked (spec): 2 errors, 1 warning\n"
    );
    let r = run(dir.path(), &["tree", "deep", "--depth", "1"], 60);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "◆ deep  2.0 MB · Σ25,236 tok\n  ★ deep  2.0 MB · Σ25,236 tok\ntokens: o200k_base\n"
    );
}

#[cfg(unix)]
#[test]
fn fm_set_and_get_on_a_skill_md_that_is_dev_zero_or_a_fifo_are_refused_at_once() {
    let dir = tempdir();
    std::fs::create_dir_all(dir.path().join("zero")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero/SKILL.md")).unwrap();
    std::fs::create_dir_all(dir.path().join("fifo")).unwrap();
    let fifo = dir.path().join("fifo/SKILL.md");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for (file, what) in [("zero/SKILL.md", "a device"), ("fifo/SKILL.md", "a FIFO")] {
        let r = run(dir.path(), &["fm", "set", file, "name", "x"], 20);
        assert_eq!(
            (r.code, r.stderr.as_str()),
            (
                Some(2),
                format!("skillnav: {file} is {what}, not a regular file; not edited\n").as_str()
            )
        );
        let r = run(dir.path(), &["fm", "get", file, "name"], 20);
        assert_eq!(r.code, Some(2), "{file}: {}", r.stderr);
    }
}

#[test]
fn fm_set_on_a_frontmatter_over_16_mib_is_refused_before_it_is_read() {
    let dir = tempdir();
    let mut text = String::from("---\nname: big\ndescription: ");
    text.push_str(&"x".repeat(16 * 1024 * 1024));
    text.push_str("\n---\n");
    write(dir.path(), "big/SKILL.md", text.as_bytes());
    let r = run(dir.path(), &["fm", "set", "big/SKILL.md", "name", "y"], 20);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            Some(2),
            "skillnav: big/SKILL.md is too large to edit (16777248 bytes; the limit is 16777216); not edited\n"
        )
    );
    assert_eq!(
        std::fs::metadata(dir.path().join("big/SKILL.md"))
            .unwrap()
            .len(),
        16_777_248
    );
}

/// `validate` run in `dir` on `args` with a deadline: exit code and stdout with `dir`'s
/// real path cut to `<dir>`.
fn validate_in(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["validate"];
    all.extend_from_slice(args);
    let r = run(dir, &all, 20);
    let real = dir.canonicalize().unwrap();
    (r.code, r.stdout.replace(real.to_str().unwrap(), "<dir>"))
}

#[cfg(unix)]
#[test]
fn validate_reports_a_skill_md_folder_or_fifo_that_is_alone_in_its_folder() {
    let dir = tempdir();
    std::fs::create_dir_all(dir.path().join("parent/d/SKILL.md")).unwrap();
    std::fs::create_dir_all(dir.path().join("parent/e")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("parent/e/SKILL.md"))
        .status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let folder =
        "error[skill-md-unreadable]: SKILL.md is a folder, not a file; the skill was not checked";
    let fifo = "error[skill-md-unreadable]: SKILL.md is a FIFO, not a regular file; the skill was not checked";
    let one = "1 skill checked (spec): 1 error, 0 warnings\n";
    assert_eq!(
        validate_in(dir.path(), &["parent/d"]),
        (Some(1), format!("<dir>/parent/d/SKILL.md: {folder}\n{one}"))
    );
    assert_eq!(
        validate_in(dir.path(), &["parent/e"]),
        (Some(1), format!("<dir>/parent/e/SKILL.md: {fifo}\n{one}"))
    );
    assert_eq!(
        validate_in(dir.path(), &["parent"]),
        (
            Some(1),
            format!(
                "<dir>/parent/d/SKILL.md: {folder}\n<dir>/parent/e/SKILL.md: {fifo}\n\
                 2 skills checked (spec): 2 errors, 0 warnings\n"
            )
        )
    );
}

#[cfg(unix)]
#[test]
fn validate_with_follow_links_does_not_blame_the_flag_for_a_skill_md_linked_to_dev_zero() {
    let dir = tempdir();
    write(dir.path(), "z/ref.md", b"# r\n");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("z/SKILL.md")).unwrap();
    let want = "<dir>/z/SKILL.md: error[skill-md-unreadable]: SKILL.md is a device, not a \
                regular file; the skill was not checked\n\
                1 skill checked (spec): 1 error, 0 warnings\n";
    for args in [&["z"][..], &["--follow-links", "z"][..]] {
        assert_eq!(
            validate_in(dir.path(), args),
            (Some(1), want.to_string()),
            "{args:?}"
        );
    }
    let r = run(dir.path(), &["tree", "--follow-links", "z"], 20);
    assert!(
        r.stdout.contains(
            "! SKILL.md: symbolic link leaves the opened root (to /dev/zero, which is a \
             device, not a regular file); not read\n"
        ),
        "{}",
        r.stdout
    );
}
