//! Where a skill keeps its programs (docs/AGENTS.md "Safety lints"). The Agent Skills
//! specification puts executable code in `scripts/`, documentation in `references/` and
//! static resources in `assets/`, and allows any other folder:
//!
//! - `safety-script-location`: a runnable script (a `#!` line, a shell, batch or
//!   PowerShell extension, or a native executable) at the top of the skill or anywhere
//!   under `references/`, `reference/` or `assets/`, where a reviewer expects text. Code in
//!   other folders (`eval-viewer/`, `core/`, `examples/`, `templates/`, as Anthropic's own
//!   skills have) is not flagged.
//! - `safety-exec-bit`: an executable bit on a file that is no program: no `#!` line, no
//!   script or program extension, not a native executable. When every file of the skill
//!   is executable the file system records no modes (FAT, a WSL mount of a Windows drive)
//!   and [`super::scan_files`] drops the rule.

use crate::skill::files::SkillFile;

/// Extensions of files that run as programs by themselves (shells, batch, PowerShell).
pub const SHELL_EXTS: [&str; 10] = [
    "sh", "bash", "zsh", "ksh", "fish", "ps1", "psm1", "bat", "cmd", "command",
];
/// Extensions of source code that an interpreter runs (an executable bit on them is
/// expected).
pub const CODE_EXTS: [&str; 14] = [
    "py", "rb", "pl", "js", "mjs", "cjs", "ts", "php", "lua", "r", "jl", "tcl", "swift", "exe",
];
/// Top folders whose content the specification calls documentation or static resources.
const TEXT_FOLDERS: [&str; 3] = ["references", "reference", "assets"];

fn ext(f: &SkillFile) -> String {
    let name = f.rel.rsplit('/').next().unwrap_or(&f.rel);
    match name.rfind('.') {
        Some(i) if i > 0 => name[i + 1..].to_ascii_lowercase(),
        _ => String::new(),
    }
}

fn has_shebang(f: &SkillFile) -> bool {
    f.text.as_deref().is_some_and(|t| t.starts_with("#!"))
}

/// A runnable script: a `#!` line, a [`SHELL_EXTS`] extension, or a native executable.
pub fn is_script(f: &SkillFile) -> bool {
    has_shebang(f) || SHELL_EXTS.contains(&ext(f).as_str()) || f.native_executable
}

/// Code of any kind: [`is_script`] or a [`CODE_EXTS`] extension.
pub fn is_code(f: &SkillFile) -> bool {
    is_script(f) || CODE_EXTS.contains(&ext(f).as_str())
}

/// The layout findings of `f`: rule id and message.
pub fn check(f: &SkillFile) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let top = f.rel.split('/').next().unwrap_or("");
    let at_top = !f.rel.contains('/');
    if is_script(f) && !f.is_skill_md() && (at_top || TEXT_FOLDERS.contains(&top)) {
        let place = if at_top {
            "at the top of the skill".to_string()
        } else {
            format!("in {top}/, which holds documentation and resources")
        };
        out.push((
            "safety-script-location",
            format!(
                "{} is a script {place}; the Agent Skills layout keeps code in scripts/",
                f.rel
            ),
        ));
    }
    if f.executable && !is_code(f) {
        out.push((
            "safety-exec-bit",
            format!(
                "{} is executable but is not a script (no #! line, no script extension)",
                f.rel
            ),
        ));
    }
    out
}
