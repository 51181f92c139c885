//! The one-line prompt (recipe name, budget, export folder, skill arguments and variables)
//! and the question popup (delete a recipe, oversize OSC 52 copy, replace a folder):
//! opening them and their keys (letters type into the prompt).

use crossterm::event::{KeyCode, KeyModifiers};

use crate::clipboard::Route;
use crate::curate::recipe::name_char;
use crate::tui::effect::Effect;
use crate::tui::input::action::Action;
use crate::tui::input::key::to_input;
use crate::tui::state::curate::{Ask, Curate, InputBox, InputPurpose, Question};
use crate::tui::state::editor::fields::text_area;
use crate::tui::state::followup::Msg;
use crate::tui::state::popup::Popup;

use super::ctx::{Ctx, Shared};

/// What the recipe name box says when a character is refused.
const NAME_CHARS: &str = "Recipe names take A-Z a-z 0-9 - _ . (no spaces)";

/// `B`: the prompt to type a custom budget, prefilled with the current `budget`.
pub fn open_custom_budget(budget: Option<u64>) -> Popup {
    let now = budget.map(|b| b.to_string()).unwrap_or_default();
    open_input(InputPurpose::Budget, now)
}

/// A one-line prompt for `purpose`, prefilled with `text` (selected, so that typing
/// replaces it).
pub fn open_input(purpose: InputPurpose, text: String) -> Popup {
    let mut area = text_area(&text);
    // The text shown is selected: typing replaces it, an arrow key keeps it to edit.
    area.select_all();
    // A description is a sentence or two: it wraps over the box's lines.
    if matches!(purpose, InputPurpose::ExportDescription(_)) {
        area.set_wrap_mode(ratatui_textarea::WrapMode::WordOrGlyph);
    }
    Popup::Input(Box::new(InputBox { purpose, area }))
}

/// Keys of the prompt `input`, taken off the stack: the prompt to put back, or `None` when
/// the key closes it (a confirmed value sets `curate` or goes to its feature as a
/// follow-up).
pub fn input_action(
    mut input: Box<InputBox>,
    action: Action,
    curate: &mut Curate,
    ctx: &mut Ctx,
) -> Option<Box<InputBox>> {
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
            ctx.say(NAME_CHARS);
        }
        Action::TextKey(k) => {
            input.area.input(to_input(k));
        }
        Action::Paste(s) if input.purpose == InputPurpose::RecipeName => {
            let kept: String = s.chars().filter(|c| name_char(*c)).collect();
            if kept.chars().count() < s.chars().count() {
                ctx.say(NAME_CHARS);
            }
            input.area.insert_str(kept);
        }
        Action::Paste(s) => {
            input.area.insert_str(s.replace(['\r', '\n'], " "));
        }
        Action::Escape => return None,
        Action::Confirm => return confirm(input, curate, ctx),
        _ => {}
    }
    Some(input)
}

/// `Enter` in the prompt `input`: the typed value is checked and taken; the prompt stays
/// open (returned) when the value is refused.
fn confirm(input: Box<InputBox>, curate: &mut Curate, ctx: &mut Ctx) -> Option<Box<InputBox>> {
    let text = input.area.lines().join("");
    match input.purpose {
        InputPurpose::Budget => match crate::curate::input::parse_budget(&text) {
            Ok(b) => ctx.follow(Msg::SetBudget(b)),
            Err(e) => {
                ctx.say(e);
                return Some(input);
            }
        },
        InputPurpose::SkillArgs => {
            // An empty prompt means "no arguments": placeholders stay as written;
            // `""` means empty arguments: placeholders become empty (docs/FORMATS.md §5.3).
            curate.args = match text.trim() {
                "" => None,
                "\"\"" | "''" => Some(String::new()),
                _ => Some(text),
            };
            ctx.follow(Msg::RefreshPreview);
        }
        InputPurpose::SkillVars => match crate::curate::input::parse_vars(&text) {
            Ok(v) => {
                curate.vars = v;
                ctx.follow(Msg::RefreshPreview);
            }
            Err(e) => {
                ctx.say(e);
                return Some(input);
            }
        },
        InputPurpose::RecipeName => {
            ctx.follow(Msg::SaveRecipe(text.trim().to_string()));
        }
        InputPurpose::ExportDir => {
            ctx.follow(Msg::ExportDescribe(text.trim().to_string()));
        }
        InputPurpose::ExportDescription(dir) => {
            let d = text.trim();
            curate.export_description = (!d.is_empty()).then(|| d.to_string());
            ctx.follow(Msg::ExportTo { dir, force: false });
        }
    }
    None
}

/// The popup asking `question`; the answer comes back through [`ask_action`].
pub fn ask(question: Question) -> Popup {
    Popup::Ask(Ask { question })
}

/// Keys of the question `a`, taken off the stack: the question to put back, or `None` when
/// the key answers it (an oversize copy sets `copying` and queues the copy with the
/// clipboard options of `shared`).
pub fn ask_action(
    a: Ask,
    action: Action,
    copying: &mut bool,
    shared: &Shared,
    ctx: &mut Ctx,
) -> Option<Ask> {
    match (a.question, action) {
        (Question::DeleteRecipe(entry), Action::Confirm) => {
            ctx.follow(Msg::DeleteRecipe(entry));
        }
        (Question::Oversize(built), Action::Confirm) => {
            *copying = true;
            ctx.say("Sending via OSC 52…");
            ctx.queue(Effect::CopyText {
                built,
                route: Route::Osc52,
                opts: shared.copy_options(),
            });
        }
        (Question::Oversize(built), Action::SaveFile) => {
            *copying = true;
            ctx.say("Saving to a file…");
            ctx.queue(Effect::CopyText {
                built,
                route: Route::File,
                opts: shared.copy_options(),
            });
        }
        (Question::ReplaceFolder(dir), Action::Confirm) => {
            ctx.follow(Msg::ExportTo {
                dir: dir.to_string_lossy().into_owned(),
                force: true,
            });
        }
        (Question::Oversize(_), Action::Escape) => ctx.say("Copy cancelled"),
        (_, Action::Escape) => ctx.say("Cancelled"),
        // Any other key keeps the question open.
        (q, _) => return Some(Ask { question: q }),
    }
    None
}
