//! Skill rendering (`$name`, `$0`, `$ARGUMENTS`, `${VAR}`): the input is a SKILL.md, a NUL,
//! then the argument string. No panic; output never past `MAX_RENDERED_BYTES` plus the note.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::skill::render::{
    CAP_NOTE, MAX_RENDERED_BYTES, RenderOptions, render_body, skill_from_text,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (md, args) = text.split_once('\0').unwrap_or((&text, "a b"));
    let skill = skill_from_text(md, "fuzz", "/fuzz/SKILL.md", None);
    let mut vars = std::collections::BTreeMap::new();
    vars.insert("A".to_string(), "$0 ${A}".to_string());
    let opts = RenderOptions {
        args: Some(args.to_string()),
        vars,
        include_base_dir: true,
        append_args_if_no_placeholder: true,
    };
    let out = render_body(
        &skill.body,
        &skill.argument_names,
        Some(std::path::Path::new("/b")),
        &opts,
    );
    let limit = MAX_RENDERED_BYTES + 2 + CAP_NOTE.len() + "\n\nARGUMENTS: ".len() + args.len();
    assert!(out.len() <= limit, "{} bytes", out.len());
});
