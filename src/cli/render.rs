//! `skillnav render`: a skill's body with context-chef's substitution (docs/FORMATS.md §5.3); with
//! several skill folders, their listing followed by each rendered body.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::bail;

use super::args::RenderArgs;
use crate::skill::listing::{ListingFormat, ListingOptions};
use crate::skill::render::{RenderOptions, load_skill_dir, render_many, render_skill};
use crate::tokens::TokenCounter;

/// Parse `K=V` pairs (`K` an identifier `[A-Za-z_][A-Za-z0-9_]*`; the value may hold `=`).
pub fn parse_vars(pairs: &[String]) -> anyhow::Result<BTreeMap<String, String>> {
    let mut vars = BTreeMap::new();
    for p in pairs {
        let Some((k, v)) = p.split_once('=') else {
            bail!("--var {p:?}: expected NAME=VALUE")
        };
        let ok = k
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok {
            bail!("--var {p:?}: NAME must match [A-Za-z_][A-Za-z0-9_]*");
        }
        vars.insert(k.to_string(), v.to_string());
    }
    Ok(vars)
}

/// Render the skill(s) of `a` and deliver the text ([`super::deliver`]: printed, `-o FILE`
/// or `--copy`; sizes in tokens of `counter`). One skill: its rendered body and a newline.
pub fn run(out: &mut dyn Write, a: &RenderArgs, counter: TokenCounter) -> anyhow::Result<()> {
    let text = rendered(a)?;
    let how = super::deliver::Delivery {
        output: a.output.as_deref(),
        copy: a.copy,
        ext: "md",
    };
    // Printed, the text states no size: count it only for a file or a copy.
    let tokens = if how.copy || how.output.is_some() {
        counter.count(&text)
    } else {
        0
    };
    super::deliver::deliver(out, &text, tokens, counter, &how)
}

/// The text of `a`: one skill's rendered body and a newline, or the listing of several
/// then each body. Errors: an unreadable skill folder, an unknown listing, a bad `--var`.
fn rendered(a: &RenderArgs) -> anyhow::Result<String> {
    let opts = RenderOptions {
        args: a.args.clone(),
        vars: parse_vars(&a.var)?,
        include_base_dir: a.include_base_dir,
        append_args_if_no_placeholder: !a.no_append,
    };
    let mut skills = Vec::new();
    for d in &a.skill_dirs {
        skills.push(load_skill_dir(d)?);
    }
    if let [one] = skills.as_slice() {
        return Ok(format!("{}\n", render_skill(one, &opts)));
    }
    let Some(format) = ListingFormat::parse(&a.listing) else {
        bail!(
            "unknown --listing {:?} (plain, xml, available-skills)",
            a.listing
        )
    };
    let listing = ListingOptions {
        format,
        ..ListingOptions::default()
    };
    Ok(render_many(&skills, listing, &opts))
}
