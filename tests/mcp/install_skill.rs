//! `skillnav install-skill DIR`: the bundled agent skill lands in `DIR/skillnav/SKILL.md`,
//! validates, and is only replaced with `--force` once changed.

use crate::support::fs::{manifest, tempdir};

fn skillnav(args: &[&str]) -> std::process::Output {
    crate::support::child::skillnav_command()
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("skillnav: {e}"))
}

#[test]
fn install_skill_writes_the_agent_skill_which_validates() {
    let tmp = tempdir();
    let dir = tmp.path().to_str().unwrap_or_else(|| panic!("path"));
    let out = skillnav(&["install-skill", dir]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = tmp.path().join("skillnav/SKILL.md");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        path.display().to_string()
    );
    let want = std::fs::read(manifest("assets/agent-skill/SKILL.md"))
        .unwrap_or_else(|e| panic!("asset: {e}"));
    assert_eq!(std::fs::read(&path).unwrap_or_default(), want);
    let v = skillnav(&[
        "validate",
        tmp.path().join("skillnav").to_str().unwrap_or_default(),
    ]);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
    // Installing again is a no-op; a changed file is kept unless --force.
    assert!(skillnav(&["install-skill", dir]).status.success());
    std::fs::write(&path, "changed").unwrap_or_else(|e| panic!("write: {e}"));
    assert_eq!(skillnav(&["install-skill", dir]).status.code(), Some(2));
    assert!(
        skillnav(&["install-skill", dir, "--force"])
            .status
            .success()
    );
    assert_eq!(std::fs::read(&path).unwrap_or_default(), want);
}
