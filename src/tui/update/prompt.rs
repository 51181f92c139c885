//! The one-line prompt (recipe name, budget, export folder, skill arguments and variables)
//! and the question popup (delete a recipe, oversize OSC 52 copy, replace a folder):
//! opening them and their keys (letters type into the prompt).

use crossterm::event::{KeyCode, KeyModifiers};

use crate::clipboard::Route;
use crate::curate::recipe::name_char;
use crate::tui::effect::Effect;
use crate::tui::input::action::Action;
use crate::tui::input::key::to_input;
use crate::tui::state::app::App;
use crate::tui::state::curate::{Ask, InputBox, InputPurpose, Question};
use crate::tui::state::editor::fields::text_area;
use crate::tui::state::followup::Msg;
use crate::tui::state::popup::Popup;

/// What the recipe name box says when a character is refused.
const NAME_CHARS: &str = "Recipe names take A-Z a-z 0-9 - _ . (no spaces)";

/// `B`: type a custom budget.
pub fn open_custom_budget(app: &mut App) {
    let now = app.curate.budget.map(|b| b.to_string()).unwrap_or_default();
    open_input(app, InputPurpose::Budget, now);
}

/// Open a one-line prompt for `purpose`, prefilled with `text` (selected, so that typing
/// replaces it).
pub fn open_input(app: &mut App, purpose: InputPurpose, text: String) {
    let mut area = text_area(&text);
    // The text shown is selected: typing replaces it, an arrow key keeps it to edit.
    area.select_all();
    // A description is a sentence or two: it wraps over the box's lines.
    if matches!(purpose, InputPurpose::ExportDescription(_)) {
        area.set_wrap_mode(ratatui_textarea::WrapMode::WordOrGlyph);
    }
    app.popups
        .push(Popup::Input(Box::new(InputBox { purpose, area })));
}

/// Keys of the prompt `input`, taken off the stack (put back unless they close it).
pub fn input_action(app: &mut App, mut input: Box<InputBox>, action: Action) {
    match action {
        // Ctrl-U clears the line, as in a shell (the text area would undo).
        Action::TextKey(k) if k.code == KeyCode::Char('u') && k.mods == KeyModifiers::CONTROL => {
            input.area.select_all();
            input.area.cut();
        }
        // The recipe name box takes only the characters a name may hold, as they are
        // typed (a space or `/` never gets in, rather than failing on Enter).
        Action::TextKey(k)
            if input.purpose == InputPurpose::RecipeName
                && matches!(k.code, KeyCode::Char(c) if !name_char(c))
                && k.is_text() =>
        {
            app.status = NAME_CHARS.into();
        }
        Action::TextKey(k) => {
            input.area.input(to_input(k));
        }
        Action::Paste(s) if input.purpose == InputPurpose::RecipeName => {
            let kept: String = s.chars().filter(|c| name_char(*c)).collect();
            if kept.chars().count() < s.chars().count() {
                app.status = NAME_CHARS.into();
            }
            input.area.insert_str(kept);
        }
        Action::Paste(s) => {
            input.area.insert_str(s.replace(['\r', '\n'], " "));
        }
        Action::Escape => return,
        Action::Confirm => {
            let text = input.area.lines().join("");
            match input.purpose {
                InputPurpose::Budget => match crate::curate::input::parse_budget(&text) {
                    Ok(b) => app.followups.push(Msg::SetBudget(b)),
                    Err(e) => {
                        app.status = e;
                        app.popups.push(Popup::Input(input));
                    }
                },
                InputPurpose::SkillArgs => {
                    // An empty prompt means "no arguments": placeholders stay as written;
                    // `""` means empty arguments: placeholders become empty (docs/FORMATS.md §5.3).
                    app.curate.args = match text.trim() {
                        "" => None,
                        "\"\"" | "''" => Some(String::new()),
                        _ => Some(text),
                    };
                    app.followups.push(Msg::RefreshPreview);
                }
                InputPurpose::SkillVars => match crate::curate::input::parse_vars(&text) {
                    Ok(v) => {
                        app.curate.vars = v;
                        app.followups.push(Msg::RefreshPreview);
                    }
                    Err(e) => {
                        app.status = e;
                        app.popups.push(Popup::Input(input));
                    }
                },
                InputPurpose::RecipeName => {
                    app.followups.push(Msg::SaveRecipe(text.trim().to_string()));
                }
                InputPurpose::ExportDir => {
                    app.followups
                        .push(Msg::ExportDescribe(text.trim().to_string()));
                }
                InputPurpose::ExportDescription(dir) => {
                    let d = text.trim();
                    app.curate.export_description = (!d.is_empty()).then(|| d.to_string());
                    app.followups.push(Msg::ExportTo { dir, force: false });
                }
            }
            return;
        }
        _ => {}
    }
    app.popups.push(Popup::Input(input));
}

/// Ask `question`; the answer comes back through [`ask_action`].
pub fn ask(app: &mut App, question: Question) {
    app.popups.push(Popup::Ask(Ask { question }));
}

/// Keys of the question `a`, taken off the stack (put back unless they answer it).
pub fn ask_action(app: &mut App, a: Ask, action: Action) {
    match (a.question, action) {
        (Question::DeleteRecipe(entry), Action::Confirm) => {
            app.followups.push(Msg::DeleteRecipe(entry));
        }
        (Question::Oversize(built), Action::Confirm) => {
            app.copying = true;
            app.status = "Sending via OSC 52…".into();
            app.effects.push(Effect::CopyText {
                built,
                route: Route::Osc52,
            });
        }
        (Question::Oversize(built), Action::SaveFile) => {
            app.copying = true;
            app.status = "Saving to a file…".into();
            app.effects.push(Effect::CopyText {
                built,
                route: Route::File,
            });
        }
        (Question::ReplaceFolder(dir), Action::Confirm) => {
            app.followups.push(Msg::ExportTo {
                dir: dir.to_string_lossy().into_owned(),
                force: true,
            });
        }
        (Question::Oversize(_), Action::Escape) => app.status = "Copy cancelled".into(),
        (_, Action::Escape) => app.status = "Cancelled".into(),
        (q, _) => {
            // Any other key keeps the question open.
            app.popups.push(Popup::Ask(Ask { question: q }));
        }
    }
}
