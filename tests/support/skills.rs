//! Generated skill folders: one SKILL.md with a name, description and optional
//! `when_to_use`, and the 30-skill listing-budget fixture.

use std::path::Path;

use super::fs::write;

/// Write `dir/<name>/SKILL.md` with `name`, `description` and, if given, `when_to_use`.
pub fn skill(dir: &Path, name: &str, description: &str, when: Option<&str>) {
    let when = when
        .map(|w| format!("when_to_use: {w}\n"))
        .unwrap_or_default();
    let text =
        format!("---\nname: {name}\ndescription: {description}\n{when}---\n\n# {name}\n\nBody.\n");
    write(dir, &format!("{name}/SKILL.md"), text.as_bytes());
}

/// 30 skills `s01`…`s30` under `root`, each with a 300-char description except `s05`,
/// whose description (1,000 chars), ` - ` and `when_to_use` (699 chars) make a 1,702-char
/// entry: the listing needs 10,475 chars of Claude Code's default 8,000, so `s22`…`s30` lose
/// their description and `s05` is cut by 166 chars.
pub fn thirty_skills(root: &Path) {
    for i in 1..=30 {
        let name = format!("s{i:02}");
        if i == 5 {
            skill(root, &name, &"d".repeat(1000), Some(&"w".repeat(699)));
        } else {
            skill(root, &name, &"d".repeat(300), None);
        }
    }
}
