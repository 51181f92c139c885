//! Rendered skills: placeholders and typed arguments, variables and the base-directory
//! header, two skills behind their listing, copies of skills.

use std::path::PathBuf;

use crossterm::event::KeyCode;
use skillnav::skill::listing::{ListingFormat, ListingOptions};
use skillnav::skill::render::{RenderOptions, render_body, render_many, skill_from_text};
use skillnav::tui::effects::worker_msg::WorkerMsg;
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::curate::{InputPurpose, PreviewKind};
use skillnav::tui::update::apply;

use super::*;
use crate::support::fs::{copy_dir, fixture_path};
use crate::support::tui::*;

const REPORT_BODY: &str = "# Convert a report\n\nConvert $file to text (first argument: $ARGUMENTS[0]).\n\n\
Write the result to ${OUT_DIR}/summary.md and quote all arguments: $ARGUMENTS.";

/// An app on the hand-made skills with the preview of `report-skill` open on the rendered
/// skill (`p`, then `Tab`); returns the skills folder too.
fn report_skill_preview() -> (Tui, PathBuf) {
    let dir = fixture_path("tui_curate/skills");
    let mut app = tui_over(&dir, "skills", 100, 30);
    let skill = id(&app, "skills/report-skill");
    goto(&mut app, skill);
    press(&mut app, KeyCode::Char('p'));
    // Tab: the rendered skill instead of the brief.
    press(&mut app, KeyCode::Tab);
    (app, dir)
}

#[test]
fn typed_arguments_holding_placeholders_are_inserted_literally() {
    let (mut app, _dir) = report_skill_preview();
    press(&mut app, KeyCode::Char('a'));
    type_text(&mut app, "'$ARGUMENTS costs $80' $1");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        built(&app).text,
        "# Convert a report\n\nConvert $ARGUMENTS costs $80 to text (first argument: \
         $ARGUMENTS costs $80).\n\nWrite the result to ${OUT_DIR}/summary.md and quote all \
         arguments: '$ARGUMENTS costs $80' $1.\n"
    );
}

#[test]
fn rendered_skill_preview_keeps_placeholders_then_substitutes_typed_arguments() {
    let (mut app, dir) = report_skill_preview();
    assert_eq!(
        app.brief_preview().as_ref().map(|p| p.kind),
        Some(PreviewKind::Skill)
    );
    let b = built(&app);
    let file_text = std::fs::read_to_string(dir.join("report-skill/SKILL.md")).expect("fixture");
    let parsed = skill_from_text(&file_text, "report-skill", "", None);
    assert_eq!(parsed.body, REPORT_BODY);
    assert_eq!(parsed.argument_names, vec!["file".to_string()]);
    // No arguments: every placeholder as written.
    assert_eq!(b.text, format!("{REPORT_BODY}\n"));
    assert_eq!(b.label, "rendered skill report-skill");
    assert_eq!(
        (b.bytes, b.tokens),
        (b.text.len() as u64, counter().count(&b.text))
    );
    let text = screen(&app);
    assert!(text.contains(" Rendered skill preview "), "{text}");
    assert!(
        text.contains("Convert $file to text (first argument: $ARGUMENTS[0])."),
        "{text}"
    );
    // `a`: type the arguments.
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(input_purpose(&app), Some(InputPurpose::SkillArgs));
    assert_eq!(input_text(&app), "");
    type_text(&mut app, "report.pdf");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Brief);
    assert_eq!(app.curate.args.as_deref(), Some("report.pdf"));
    let b = built(&app);
    let opts = RenderOptions {
        args: Some("report.pdf".into()),
        ..RenderOptions::default()
    };
    let want = render_body(&parsed.body, &parsed.argument_names, None, &opts);
    assert_eq!(
        want,
        "# Convert a report\n\nConvert report.pdf to text (first argument: report.pdf).\n\n\
         Write the result to ${OUT_DIR}/summary.md and quote all arguments: report.pdf."
    );
    assert_eq!(b.text, format!("{want}\n"));
    assert_eq!(b.label, "rendered skill report-skill · args \"report.pdf\"");
    let text = screen(&app);
    assert!(
        text.contains("Convert report.pdf to text (first argument: report.pdf)."),
        "{text}"
    );
    assert!(
        text.contains("rendered skill report-skill · args \"report.pdf\" · "),
        "{text}"
    );
    // An empty prompt means no arguments again.
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(input_text(&app), "report.pdf");
    clear_input(&mut app);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.curate.args, None);
    assert_eq!(built(&app).text, format!("{REPORT_BODY}\n"));
    // Tab back: the brief of the skill.
    press(&mut app, KeyCode::Tab);
    assert_eq!(
        app.brief_preview().as_ref().map(|p| p.kind),
        Some(PreviewKind::Brief)
    );
    assert!(built(&app).label.starts_with("brief · md · "));
}

#[test]
fn skill_variables_are_substituted_before_arguments_and_the_base_dir_header_toggles() {
    let (mut app, dir) = report_skill_preview();
    // `v`: `${NAME}` values, quote-aware; a value holding `$0` is substituted later by the
    // arguments (docs/FORMATS.md §5.3: vars run first).
    press(&mut app, KeyCode::Char('v'));
    assert_eq!(input_purpose(&app), Some(InputPurpose::SkillVars));
    type_text(&mut app, "OUT_DIR=\"out $0\"");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.mode(),
        Mode::Brief,
        "{} / {:?}",
        app.status,
        input_text(&app)
    );
    assert_eq!(
        app.curate.vars.get("OUT_DIR").map(String::as_str),
        Some("out $0")
    );
    press(&mut app, KeyCode::Char('a'));
    type_text(&mut app, "q3.pdf");
    press(&mut app, KeyCode::Enter);
    let b = built(&app);
    assert!(
        b.text.contains("Write the result to out q3.pdf/summary.md"),
        "{}",
        b.text
    );
    // The prompt shows the values back in a form it parses.
    press(&mut app, KeyCode::Char('v'));
    assert_eq!(input_text(&app), "OUT_DIR=\"out $0\"");
    clear_input(&mut app);
    type_text(&mut app, "1BAD=x");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Input, "a bad name keeps the prompt open");
    assert_eq!(app.status, "not NAME=value: \"1BAD=x\"");
    press(&mut app, KeyCode::Esc);
    // `d`: the base-directory header of the interop design.
    press(&mut app, KeyCode::Char('d'));
    let base = std::fs::canonicalize(dir.join("report-skill")).expect("dir");
    let b = built(&app);
    assert!(
        b.text.starts_with(&format!(
            "Base directory for this skill: {}\n\n# Convert a report",
            base.display()
        )),
        "{}",
        b.text
    );
    press(&mut app, KeyCode::Char('d'));
    assert!(built(&app).text.starts_with("# Convert a report"));
}

#[test]
fn two_selected_skills_copy_and_preview_with_the_listing_first() {
    let dir = fixture_path("formats/skills");
    let mut app = tui_over(&dir, "skills", 100, 30);
    let brand = id(&app, "skills/brand-guidelines");
    let theme = id(&app, "skills/theme-factory");
    select(&mut app, &[theme, brand]);
    // `Y`: the skills in tree order are copied.
    let copies = press(&mut app, KeyCode::Char('Y'));
    assert_eq!(copies, vec![vec![brand, theme]]);
    assert!(app.copying);
    assert_eq!(app.status, "Copying 2 rendered skills…");
    apply(&mut app, WorkerMsg::Copied(Ok("Copied".into())));
    assert!(!app.copying);
    // The preview of both: the available-skills listing, then each body.
    press(&mut app, KeyCode::Char('p'));
    press(&mut app, KeyCode::Tab);
    let b = built(&app);
    let skill = |folder: &str| {
        let file = dir.join(folder).join("SKILL.md");
        let text = std::fs::read_to_string(&file).expect("fixture");
        skill_from_text(
            &text,
            folder,
            &file.to_string_lossy(),
            Some(dir.join(folder)),
        )
    };
    let skills = [skill("brand-guidelines"), skill("theme-factory")];
    let listing = ListingOptions {
        format: ListingFormat::AvailableSkills,
        ..ListingOptions::default()
    };
    let want = render_many(&skills, listing, &RenderOptions::default());
    assert_eq!(b.text, want);
    let location = dir.join("brand-guidelines/SKILL.md");
    let head = "<available_skills>\n<skill>\n<name>\nbrand-guidelines\n</name>\n<description>\n";
    assert!(b.text.starts_with(head), "{}", &b.text[..120]);
    assert!(
        b.text
            .contains(&format!("<location>\n{}\n</location>", location.display()))
    );
    assert!(
        b.text
            .contains("\n</available_skills>\n\n## brand-guidelines\n\n")
    );
    assert!(b.text.contains("\n\n## theme-factory\n\n"));
    assert_eq!(b.label, "2 skills · available-skills listing");
    assert_eq!(b.parts, 2);
    let t = draw(&app);
    assert_eq!(
        span_text(t.backend().buffer(), 3, 1, 99).trim_end(),
        "<available_skills>"
    );
    // `l`: plain listing.
    press(&mut app, KeyCode::Char('l'));
    assert_eq!(app.curate.listing, ListingFormat::Plain);
    let b = built(&app);
    let plain = ListingOptions {
        format: ListingFormat::Plain,
        ..ListingOptions::default()
    };
    assert_eq!(
        b.text,
        render_many(&skills, plain, &RenderOptions::default())
    );
    assert!(
        b.text.starts_with("- brand-guidelines: "),
        "{}",
        &b.text[..60]
    );
    assert_eq!(b.label, "2 skills · plain listing");
}

#[test]
fn copy_skill_with_no_skill_here_says_so() {
    // A plain doc folder has no skills.
    let tmp = tempfile::tempdir().expect("tmp");
    std::fs::write(tmp.path().join("guide.md"), "# Guide\n\nText.\n").expect("write");
    let mut app = tui_over(tmp.path(), "docs", 100, 30);
    let copies = press(&mut app, KeyCode::Char('Y'));
    assert!(copies.is_empty());
    assert!(!app.copying);
    assert_eq!(
        app.status,
        "No skill here: Y renders a skill folder's SKILL.md"
    );
}

#[test]
fn copy_skill_names_selected_items_outside_every_skill() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("mixed");
    copy_dir(&fixture_path("tui_curate/skills"), &root);
    std::fs::write(
        root.join("NOTES.md"),
        "# Loose notes\n\nNot part of any skill.\n",
    )
    .expect("write");
    let mut app = tui_over(&root, "mixed", 100, 30);
    let skill = id(&app, "mixed/report-skill");
    let loose = id(&app, "mixed/NOTES.md");
    select(&mut app, &[skill, loose]);
    let copies = press(&mut app, KeyCode::Char('Y'));
    assert_eq!(copies, vec![vec![skill]]);
    assert_eq!(
        app.status,
        "Copying the rendered skill… (1 selected item not in a skill, left out)"
    );
    apply(
        &mut app,
        WorkerMsg::Copied(Ok("Copied 1.2 kB · 300 tokens (o200k_base)".into())),
    );
    assert_eq!(
        app.status,
        "Copied 1.2 kB · 300 tokens (o200k_base) (1 selected item not in a skill, left out)"
    );
    // The next copy starts without the note.
    press(&mut app, KeyCode::Char('y'));
    apply(
        &mut app,
        WorkerMsg::Copied(Ok("Copied 2 kB · 500 tokens (o200k_base)".into())),
    );
    assert_eq!(app.status, "Copied 2 kB · 500 tokens (o200k_base)");
}
