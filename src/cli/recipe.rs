//! `skillnav recipe save|list|load|delete` (saved selections), plus [`resolve_recipe`] and
//! [`apply_with_warnings`], which `brief --recipe` and `export` share.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::args::RecipeOp;
use super::show;
use crate::curate::exposure::{Exposure, ExposureMap};
use crate::curate::recipe::{Applied, Recipe, Store, default_dir};
use crate::model::{Corpus, Selection};
use crate::util::sanitize::sanitize_line;

/// The default recipe store (`<data dir>/recipes`).
pub fn store() -> anyhow::Result<Store> {
    match default_dir() {
        Some(d) => Ok(Store::new(d)),
        None => bail!("no user data directory on this system; use a recipe FILE path"),
    }
}

/// Whether `r` names a file rather than a stored recipe: it exists as a file, contains a
/// path separator, or ends in `.json`.
pub fn is_file_ref(r: &str) -> bool {
    crate::agent::brief::is_file_ref(r)
}

/// Read recipe `r`: a file ([`is_file_ref`]) or a name in the default store.
pub fn resolve_recipe(r: &str) -> anyhow::Result<Recipe> {
    if is_file_ref(r) {
        Ok(Recipe::read(Path::new(r))?)
    } else {
        crate::agent::brief::resolve_recipe(r, Some(&store()?)).map_err(|e| anyhow::anyhow!(e.0))
    }
}

/// Apply `recipe` to `corpus`, printing each changed/missing warning on stderr.
pub fn apply_with_warnings(recipe: &Recipe, corpus: &Corpus) -> Applied {
    let applied = recipe.apply(corpus);
    for w in applied.warnings() {
        eprintln!("skillnav: recipe {}: {w}", recipe.name);
    }
    applied
}

fn parse_exposure(pairs: &[String], corpus: &Corpus, map: &mut ExposureMap) -> anyhow::Result<()> {
    for p in pairs {
        let Some((id, level)) = p.rsplit_once('=') else {
            bail!("--exposure {p:?}: expected ID=LEVEL")
        };
        let Some(level) = Exposure::parse(level) else {
            bail!("--exposure {p:?}: level must be always, on-demand, explicit or hidden")
        };
        let Some(node) = show::find(corpus, id) else {
            bail!("no node with id or title {id:?}")
        };
        map.set(node, Some(level));
    }
    Ok(())
}

/// Refuse a recipe's mode or format that a brief would not take (a recipe saved with it
/// would only fail later, in `brief --recipe` or the TUI). Errors: the unknown value,
/// with the known ones.
fn check_brief_settings(mode: Option<&str>, format: Option<&str>) -> anyhow::Result<()> {
    if let Some(m) = mode.filter(|m| crate::brief::Mode::parse(m).is_none()) {
        bail!("unknown --mode {m:?} (auto, answer, extract, locate, summarize)")
    }
    if let Some(f) = format.filter(|f| crate::brief::BriefFormat::parse_layout(f).is_none()) {
        bail!("unknown --format {f:?} (md, xml, json)")
    }
    Ok(())
}

/// Refuse to save a recipe that would hold nothing (`empty`: no ids, levels or query).
fn something_to_save(empty: bool) -> anyhow::Result<()> {
    if empty {
        bail!("nothing to save: pass --select ids, --exposure levels or a --query");
    }
    Ok(())
}

/// `recipe` subcommands. `open` loads the roots a subcommand names.
pub fn run_recipe(
    out: &mut dyn Write,
    op: &RecipeOp,
    open: &dyn Fn(&[PathBuf]) -> anyhow::Result<Corpus>,
) -> anyhow::Result<()> {
    match op {
        RecipeOp::Save {
            name,
            paths,
            select,
            exposure,
            max_tokens,
            query,
            mode,
            format,
            file,
        } => {
            check_brief_settings(mode.as_deref(), format.as_deref())?;
            something_to_save(select.is_empty() && exposure.is_empty() && query.is_none())?;
            let corpus = open(paths)?;
            let mut sel = Selection::new();
            for key in select {
                let Some(id) = show::find(&corpus, key) else {
                    bail!("no node with id or title {key:?}")
                };
                sel.select(&corpus, id);
            }
            let mut exp = ExposureMap::from_corpus(&corpus);
            parse_exposure(exposure, &corpus, &mut exp)?;
            let mut r = Recipe::capture(name, &corpus, &sel, &exp);
            r.max_tokens = *max_tokens;
            r.query = query.clone();
            r.mode = mode.clone();
            r.format = format.clone();
            let path = if let Some(f) = file {
                r.write(f)?;
                f.clone()
            } else {
                if !crate::curate::recipe::valid_name(name) {
                    bail!(
                        "invalid recipe name {name:?} (1-64 of A-Z a-z 0-9 - _ . , not starting with . or ending in .json)"
                    );
                }
                store()?.save(&r)?
            };
            writeln!(out, "{}", path.display())?;
            eprintln!(
                "Saved recipe {name:?}: {} selected, {} exposure level(s)",
                r.selected.len(),
                r.exposure.len()
            );
        }
        RecipeOp::List => {
            let st = store()?;
            for n in st.list() {
                writeln!(out, "{}", sanitize_line(&n))?;
            }
        }
        RecipeOp::Load { recipe, paths } => {
            let r = resolve_recipe(recipe).with_context(|| format!("recipe {recipe}"))?;
            let corpus = open(paths)?;
            for n in &r.selected {
                let (_, st) = Recipe::state(&corpus, &n.id, &n.hash);
                writeln!(out, "selected {} {}", state_word(st), sanitize_line(&n.id))?;
            }
            for e in &r.exposure {
                let (_, st) = Recipe::state(&corpus, &e.id, &e.hash);
                writeln!(
                    out,
                    "{} {} {}",
                    e.level,
                    state_word(st),
                    sanitize_line(&e.id)
                )?;
            }
            if let Some(m) = r.max_tokens {
                writeln!(out, "max-tokens {m}")?;
            }
        }
        RecipeOp::Delete { name } => {
            store()?.delete(name)?;
            eprintln!("Deleted recipe {name:?}");
        }
    }
    Ok(())
}

fn state_word(st: crate::curate::recipe::NodeState) -> &'static str {
    match st {
        crate::curate::recipe::NodeState::Same => "ok",
        crate::curate::recipe::NodeState::Changed => "changed",
        crate::curate::recipe::NodeState::Missing => "missing",
    }
}
