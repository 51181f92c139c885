//! A skill whose `$name` arguments held other placeholders (`$a` → eight `$b`, `$b` → eight
//! `$c`, …) grew the rendered text 8× per name: 16 MB from a 190-byte input. Substitution
//! is now one pass (argument text is inserted literally), and rendering still stops at
//! `MAX_RENDERED_BYTES` and says so when many placeholders copy a long argument string.

use skillnav::skill::render::{
    CAP_NOTE, MAX_RENDERED_BYTES, RenderOptions, render_body, skill_from_text,
};

#[test]
fn chained_dollar_name_arguments_are_inserted_literally() {
    let text = "---\nname: chain\ndescription: x\narguments: a b c d e f g h\n---\n$a\n";
    let skill = skill_from_text(text, "chain", "/s/chain/SKILL.md", None);
    assert_eq!(
        skill.argument_names,
        ["a", "b", "c", "d", "e", "f", "g", "h"]
    );
    let args: Vec<String> = ["b", "c", "d", "e", "f", "g", "h"]
        .iter()
        .map(|n| format!("${n}").repeat(8))
        .chain(["end".to_string()])
        .collect();
    let args = args.join(" ");
    assert_eq!(text.len() + args.len(), 187);
    let opts = RenderOptions {
        args: Some(args),
        ..RenderOptions::default()
    };
    let out = render_body(&skill.body, &skill.argument_names, None, &opts);
    assert_eq!(out, "$b$b$b$b$b$b$b$b");
}

#[test]
fn many_arguments_placeholders_stop_at_one_mebibyte_with_a_note() {
    let body = "$ARGUMENTS ".repeat(2048);
    let opts = RenderOptions {
        args: Some("x".repeat(1023)),
        ..RenderOptions::default()
    };
    let out = render_body(&body, &[], None, &opts);
    // 2,048 copies of 1,024 bytes = 2 MiB: cut at 1 MiB.
    assert_eq!(MAX_RENDERED_BYTES, 1024 * 1024);
    let unit = format!("{} ", "x".repeat(1023));
    let want = format!("{}\n\n{CAP_NOTE}", unit.repeat(1024));
    assert_eq!(out.len(), want.len());
    assert!(out == want, "ends with {:?}", &out[out.len() - 100..]);
}
