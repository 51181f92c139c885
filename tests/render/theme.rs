//! Themes: built-ins, TOML round trip, partial overrides, errors, `NO_COLOR`.

use skillnav::render::{Rgb, Role, SyntaxTheme, Theme, ThemeError};

use crate::support::child::{ran_one, test_name};

#[test]
fn toml_round_trip() {
    for theme in [Theme::dark(), Theme::light()] {
        let text = theme.to_toml();
        assert_eq!(Theme::from_toml(&text), Ok(theme));
    }
}

#[test]
fn partial_override_keeps_base_values() {
    let t = Theme::from_toml("[ui]\naccent = \"#FF0000\"\n[markdown]\nlink = \"#00ff00\"\n")
        .expect("valid");
    let dark = Theme::dark();
    assert_eq!(t.ui.accent, Rgb(255, 0, 0));
    assert_eq!(t.markdown.link, Rgb(0, 255, 0));
    assert_eq!(t.ui.border, dark.ui.border);
    assert_eq!(t.syntax_theme, "Monokai Extended");
    assert_eq!(t.style_for(Role::Link).fg, Some(Rgb(0, 255, 0)));

    let l = Theme::from_toml("base = \"light\"\nname = \"mine\"\n").expect("valid");
    assert_eq!(l.name, "mine");
    assert_eq!(l.ui, Theme::light().ui);
    assert_eq!(l.syntax(), SyntaxTheme::LIGHT);
}

#[test]
fn bad_themes_are_errors() {
    assert!(
        matches!(Theme::from_toml("[ui]\naccent = \"red\"\n"), Err(ThemeError::Toml(m)) if m.contains("#rrggbb"))
    );
    assert!(
        matches!(Theme::from_toml("[ui]\nacent = \"#000000\"\n"), Err(ThemeError::Toml(m)) if m.contains("acent"))
    );
    assert!(matches!(
        Theme::from_toml("[ui\n"),
        Err(ThemeError::Toml(_))
    ));
    assert_eq!(
        Theme::from_toml("base = \"blue\"\n"),
        Err(ThemeError::UnknownBase("blue".into()))
    );
    assert_eq!(
        Theme::from_toml("syntax_theme = \"Nope\"\n"),
        Err(ThemeError::UnknownSyntaxTheme("Nope".into()))
    );
}

#[test]
fn style_for_roles() {
    let t = Theme::dark();
    let h1 = t.style_for(Role::Heading(1));
    assert!(h1.bold);
    assert_eq!(h1.fg, Some(t.markdown.heading1));
    assert_eq!(t.style_for(Role::Heading(5)).fg, Some(t.markdown.heading3));
    assert!(t.style_for(Role::Link).underline);
    assert!(t.style_for(Role::LinkUrl).dim);
    assert_eq!(
        t.style_for(Role::InlineCode).bg,
        Some(t.markdown.inline_code_bg)
    );
    assert_eq!(t.style_for(Role::Match).bg, Some(t.ui.match_bg));
}

#[test]
fn no_color_reads_env() {
    // `std::env::set_var` is unsafe in edition 2024 (and the crate forbids unsafe), so the
    // test re-runs itself as a child process with NO_COLOR set in its environment.
    let exe = std::env::current_exe().expect("test exe");
    if std::env::var_os("SKILLNAV_NO_COLOR_CHILD").is_some() {
        let expected = std::env::var("SKILLNAV_EXPECT").ok() == Some("1".into());
        assert_eq!(skillnav::render::no_color(), expected);
        return;
    }
    for (value, expect) in [("1", "1"), ("", "0")] {
        let out = std::process::Command::new(&exe)
            .args([
                "--exact",
                &test_name(module_path!(), "no_color_reads_env"),
                "--quiet",
            ])
            .env("SKILLNAV_NO_COLOR_CHILD", "1")
            .env("SKILLNAV_EXPECT", expect)
            .env("NO_COLOR", value)
            .output()
            .expect("child runs");
        assert!(out.status.success(), "NO_COLOR={value:?}");
        assert!(
            ran_one(&out.stdout),
            "the child ran the test: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}
