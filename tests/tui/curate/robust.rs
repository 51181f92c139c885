//! Robustness: every curation popup draws at tiny sizes; random key sequences never panic.

use crossterm::event::{KeyCode, KeyModifiers};
use skillnav::tui::effects::headless;
use skillnav::tui::effects::worker_msg::WorkerMsg;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::update::{apply, update};

use super::*;
use crate::support::fs::fixture_path;
use crate::support::tui::*;

#[test]
fn curation_popups_draw_at_tiny_sizes() {
    let mut app = hono(100, 30);
    let other = id(&app, OTHER_MD);
    select(&mut app, &[other]);
    let opens: [&[Action]; 5] = [
        &[Action::BriefPreview],
        &[Action::BriefPreview, Action::ToggleKind],
        &[Action::CustomBudget],
        &[Action::Recipes],
        &[Action::Recipes, Action::RecipeSave],
    ];
    for (w, h) in [
        (1, 1),
        (2, 2),
        (3, 3),
        (10, 4),
        (20, 5),
        (40, 8),
        (200, 3),
        (3, 60),
    ] {
        act(&mut app, &[Action::Resize(w, h)]);
        for open in opens {
            act(&mut app, open);
            draw(&app);
            act(&mut app, &[Action::Escape, Action::Escape]);
            assert_eq!(app.mode(), Mode::Normal, "{open:?} at {w}x{h}");
        }
        apply(&mut app, WorkerMsg::CopyAsk(big_text()));
        draw(&app);
        act(&mut app, &[Action::Escape]);
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn action() -> impl Strategy<Value = Action> {
        let chord = |c: char| {
            Action::TextKey(skillnav::tui::input::keymap::KeyChord {
                code: KeyCode::Char(c),
                mods: KeyModifiers::NONE,
            })
        };
        prop_oneof![
            Just(Action::MoveDown),
            Just(Action::MoveUp),
            Just(Action::Expand),
            Just(Action::ToggleSelect),
            Just(Action::CycleExposure),
            Just(Action::CycleBudget),
            Just(Action::CustomBudget),
            Just(Action::BriefPreview),
            Just(Action::CopyBrief),
            Just(Action::CopySkill),
            Just(Action::CopyText),
            Just(Action::SaveFile),
            Just(Action::CycleFormat),
            Just(Action::CycleMode),
            Just(Action::CycleListing),
            Just(Action::ToggleKind),
            Just(Action::ToggleQuery),
            Just(Action::SetArgs),
            Just(Action::Recipes),
            Just(Action::RecipeSave),
            Just(Action::RecipeDelete),
            Just(Action::Confirm),
            Just(Action::Escape),
            Just(Action::PageDown),
            Just(Action::Bottom),
            prop::sample::select(vec!['1', 'k', 'a', '0', ' ', '中', '$']).prop_map(chord),
            Just(Action::TextKey(skillnav::tui::input::keymap::KeyChord {
                code: KeyCode::Backspace,
                mods: KeyModifiers::NONE
            })),
            Just(Action::Paste("a b\nc".into())),
            (1u16..130, 1u16..45).prop_map(|(w, h)| Action::Resize(w, h)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]
        /// Random curation key sequences at random sizes never panic, and the mode always
        /// has its popup state.
        #[test]
        fn random_curation_actions_never_panic(actions in prop::collection::vec(action(), 1..40)) {
                    let dir = fixture_path("tui_curate/skills");
            let mut app = tui_over(&dir, "skills", 80, 24);
            for a in actions {
                update(&mut app, a);
                headless::settle(&mut app);
                if matches!(app.effects.as_slice(), []) && app.copying {
                    apply(&mut app, WorkerMsg::Copied(Ok("done".into())));
                }
                draw(&app);
                match app.mode() {
                    Mode::Brief => prop_assert!(app.brief_preview().is_some()),
                    Mode::Recipes => prop_assert!(app.recipe_list().is_some()),
                    Mode::Input => prop_assert!(app.input_box().is_some()),
                    Mode::Ask => prop_assert!(app.question().is_some()),
                    _ => {}
                }
            }
        }
    }
}
