//! `render_skill`: context-chef's `renderSkill` rules (docs/FORMATS.md §5.3), one test per rule.

use std::collections::BTreeMap;
use std::path::Path;

use skillnav::skill::listing::{ListingFormat, ListingOptions};
use skillnav::skill::render::{
    RenderOptions, load_skill_dir, render_body, render_many, skill_from_text, split_args,
};

use crate::support::fs::fixture_path;

fn args(a: &str) -> RenderOptions {
    RenderOptions {
        args: Some(a.to_string()),
        ..RenderOptions::default()
    }
}

fn names(n: &[&str]) -> Vec<String> {
    n.iter().map(std::string::ToString::to_string).collect()
}

#[test]
fn split_args_is_quote_aware() {
    assert_eq!(
        split_args(r#"a "b c" 'd e' f"#),
        names(&["a", "b c", "d e", "f"])
    );
    assert_eq!(split_args("  "), Vec::<String>::new());
    assert_eq!(
        split_args(r#"x "unclosed y"#),
        names(&["x", "\"unclosed", "y"])
    );
    assert_eq!(split_args(r#""""#), names(&[""]));
}

#[test]
fn named_args_take_positional_tokens_on_word_boundary() {
    let body = "File: $file, mode $mode; not $fileX nor $file[0]; missing $extra.";
    let out = render_body(
        body,
        &names(&["file", "mode", "extra"]),
        None,
        &args("a.rs fast"),
    );
    assert_eq!(
        out,
        "File: a.rs, mode fast; not $fileX nor $file[0]; missing ."
    );
}

#[test]
fn indexed_arguments_are_zero_based_and_out_of_range_is_empty() {
    let body = "first=$ARGUMENTS[0] second=$1 third=$ARGUMENTS[2] ninth=$9 word=$1abc";
    let out = render_body(body, &[], None, &args("x 'y z'"));
    assert_eq!(out, "first=x second=y z third= ninth= word=$1abc");
}

#[test]
fn arguments_placeholder_gets_the_raw_string() {
    let out = render_body("Run with $ARGUMENTS now", &[], None, &args("  -v  'a b'"));
    assert_eq!(out, "Run with   -v  'a b' now");
}

#[test]
fn absent_args_leave_placeholders_untouched() {
    let body = "$ARGUMENTS $0 $ARGUMENTS[1] $name";
    let out = render_body(body, &names(&["name"]), None, &RenderOptions::default());
    assert_eq!(out, body);
}

#[test]
fn empty_args_empty_every_placeholder_and_append_nothing() {
    let out = render_body(
        "[$ARGUMENTS][$0][$ARGUMENTS[1]][$name]",
        &names(&["name"]),
        None,
        &args(""),
    );
    assert_eq!(out, "[][][][]");
    assert_eq!(
        render_body("no placeholders", &[], None, &args("")),
        "no placeholders"
    );
}

#[test]
fn args_without_placeholders_are_appended() {
    assert_eq!(
        render_body("Do it.", &[], None, &args("now please")),
        "Do it.\n\nARGUMENTS: now please"
    );
    let no_append = RenderOptions {
        append_args_if_no_placeholder: false,
        ..args("now")
    };
    assert_eq!(render_body("Do it.", &[], None, &no_append), "Do it.");
}

#[test]
fn vars_are_substituted_before_dollar_arguments() {
    let mut vars = BTreeMap::new();
    vars.insert("TARGET".to_string(), "$0".to_string());
    vars.insert("SKILL_DIR".to_string(), "/s".to_string());
    let opts = RenderOptions {
        vars,
        ..args("main.rs")
    };
    let out = render_body(
        "Edit ${TARGET} in ${SKILL_DIR}; keep ${UNKNOWN} and ${1BAD}",
        &[],
        None,
        &opts,
    );
    assert_eq!(out, "Edit main.rs in /s; keep ${UNKNOWN} and ${1BAD}");
}

#[test]
fn vars_alone_do_not_trigger_the_arguments_append() {
    let mut vars = BTreeMap::new();
    vars.insert("X".to_string(), "1".to_string());
    let opts = RenderOptions { vars, ..args("go") };
    assert_eq!(render_body("${X}", &[], None, &opts), "1\n\nARGUMENTS: go");
}

#[test]
fn base_dir_is_prepended_when_asked() {
    let opts = RenderOptions {
        include_base_dir: true,
        ..RenderOptions::default()
    };
    assert_eq!(
        render_body("Body", &[], Some(Path::new("/sk/a")), &opts),
        "Base directory for this skill: /sk/a\n\nBody"
    );
    assert_eq!(render_body("Body", &[], None, &opts), "Body");
}

#[test]
fn skill_text_reads_arguments_from_frontmatter() {
    let text = "---\nname: fix\ndescription: Fix a file\narguments: [file, level]\n---\n\n  Fix $file at $level.\n";
    let s = skill_from_text(text, "fix", "/x/fix/SKILL.md", None);
    assert_eq!(s.argument_names, names(&["file", "level"]));
    assert_eq!(s.body, "Fix $file at $level.");
    let out = skillnav::skill::render::render_skill(&s, &args("a.rs 3"));
    assert_eq!(out, "Fix a.rs at 3.");
    let spaced = skill_from_text("---\nname: a\narguments: one two\n---\nx", "a", "", None);
    assert_eq!(spaced.argument_names, names(&["one", "two"]));
}

#[test]
fn render_many_lists_then_renders_each_body() {
    let a = skill_from_text(
        "---\nname: a\ndescription: A <1>\n---\nDo $0.",
        "a",
        "/s/a/SKILL.md",
        None,
    );
    let b = skill_from_text(
        "---\nname: b\ndescription: B\n---\nPlain.",
        "b",
        "/s/b/SKILL.md",
        None,
    );
    let plain = ListingOptions {
        format: ListingFormat::Plain,
        ..ListingOptions::default()
    };
    let out = render_many(&[a.clone(), b.clone()], plain, &args("x"));
    assert_eq!(
        out,
        "- a: A <1>\n- b: B\n\n## a\n\nDo x.\n\n## b\n\nPlain.\n\nARGUMENTS: x\n"
    );
    let xml = ListingOptions {
        format: ListingFormat::Xml,
        ..ListingOptions::default()
    };
    let out = render_many(&[a], xml, &RenderOptions::default());
    assert_eq!(
        out,
        "<skills>\n  <skill name=\"a\">\n    <description>A &lt;1&gt;</description>\n  </skill>\n</skills>\n\n## a\n\nDo $0.\n"
    );
}

#[test]
fn load_skill_dir_reads_the_fixture() {
    let dir = fixture_path("curate/render-skill");
    let s = load_skill_dir(&dir).expect("fixture loads");
    assert_eq!(s.entry.name, "render-skill");
    assert_eq!(s.argument_names, names(&["issue", "branch"]));
    let out = skillnav::skill::render::render_skill(&s, &args("42 main"));
    assert_eq!(
        out,
        "# Fix issue\n\nFix issue 42 on branch main (all: 42 main)."
    );
    assert!(load_skill_dir(&dir.join("missing")).is_err());
}

#[test]
fn whitespace_only_args_are_appended_like_context_chef() {
    // context-chef tests `args` for truthiness (non-empty), not for non-blank text.
    assert_eq!(
        render_body("Go.", &[], None, &args("  ")),
        "Go.\n\nARGUMENTS:   "
    );
    assert_eq!(render_body("[$0]", &[], None, &args("  ")), "[]");
}

#[test]
fn malformed_placeholders_stay_as_written() {
    let out = render_body(
        "$ARGUMENTS[x] $ARGUMENTS[1 $ $_ ${} ${A",
        &[],
        None,
        &args("a b"),
    );
    assert_eq!(out, "a b[x] a b[1 $ $_ ${} ${A");
    let huge = render_body("[$99999999999999999999999]", &[], None, &args("a"));
    assert_eq!(huge, "[]");
}

#[test]
fn argument_text_holding_placeholders_is_inserted_literally() {
    let body = "name=$name first=$0 second=$1 all=[$ARGUMENTS] past=$80";
    let raw = "'$1 and $name' '$ARGUMENTS costs $80'";
    let out = render_body(body, &names(&["name"]), None, &args(raw));
    assert_eq!(
        out,
        "name=$1 and $name first=$1 and $name second=$ARGUMENTS costs $80 \
         all=['$1 and $name' '$ARGUMENTS costs $80'] past="
    );
}
