//! A skill whose `$name` arguments chain into each other (`$a` → eight `$b`, `$b` → eight
//! `$c`, …) grew the rendered text 8× per name: 16 MB from a 190-byte input. Rendering now
//! stops at `MAX_RENDERED_BYTES` and says so.

use skillnav::skill::render::{
    CAP_NOTE, MAX_RENDERED_BYTES, RenderOptions, render_body, skill_from_text,
};

#[test]
fn chained_dollar_name_arguments_stop_at_one_mebibyte_with_a_note() {
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
    // Seven names deep the text is 2,097,152 `$h` (4 MiB): cut at 1 MiB of them.
    assert_eq!(MAX_RENDERED_BYTES, 1024 * 1024);
    let want = format!("{}\n\n{CAP_NOTE}", "$h".repeat(MAX_RENDERED_BYTES / 2));
    assert_eq!(out.len(), want.len());
    assert!(out == want, "ends with {:?}", &out[out.len() - 100..]);
}

#[test]
fn a_chain_that_stays_small_renders_in_full() {
    let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let opts = RenderOptions {
        args: Some("$b$b $c$c end".into()),
        ..RenderOptions::default()
    };
    assert_eq!(
        render_body("go: $a", &names, None, &opts),
        "go: endendendend"
    );
}
