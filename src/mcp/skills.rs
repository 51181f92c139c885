//! SEP-2640 over rmcp: the core's skill manifests ([`crate::agent::skills`]) as
//! `skills/list` entries (listed skills the core serves) and `skills/get` results (served
//! listed and `explicit` skills); a skill the core leaves out for breaking the Agent Skills
//! rules is in neither (docs/MCP.md "Which skills are listed"). rmcp checks each entry
//! against the spec before it is sent, so a skill it would refuse is left out here too, and
//! said on standard error.

use rmcp::ErrorData;
use rmcp::model::{
    GetSkillResult, ListSkillsResult, Skill, SkillFrontmatter, SkillResource, SkillResources,
};

use crate::agent::skills::{SkillManifest, manifests};
use crate::agent::workspace::Workspace;

/// The rmcp entry of one manifest; `None` (and a line on standard error) when rmcp's checks
/// refuse it.
pub fn entry(m: &SkillManifest) -> Option<Skill> {
    let mut fm = SkillFrontmatter::new(m.name.clone(), m.description.clone());
    for (k, v) in &m.extra {
        fm = fm.with_field(k.clone(), v.clone());
    }
    let files = m
        .files
        .iter()
        .map(|f| SkillResource::new(f.uri.clone(), f.digest.clone(), f.size))
        .collect();
    let skill = Skill::new(m.uri.clone(), fm, SkillResources::Files(files));
    match skill.validate() {
        Ok(()) => Some(skill),
        Err(e) => {
            eprintln!("skillnav: {} left out of skills/list: {e}", m.uri);
            None
        }
    }
}

/// `skills/list`: every listed skill (`always`, `on-demand`) the core serves, on one page.
pub fn list(ws: &Workspace) -> ListSkillsResult {
    let skills = manifests(ws)
        .iter()
        .filter(|m| m.in_skills_list())
        .filter_map(entry)
        .collect();
    ListSkillsResult::with_all_items(skills)
}

/// `skills/get`: the skill at `uri`, listed or `explicit`. Error `-32602` when no served
/// skill has that URI (hidden skills and the ones left out included).
pub fn get(ws: &Workspace, uri: &str) -> Result<GetSkillResult, ErrorData> {
    manifests(ws)
        .iter()
        .filter(|m| m.served() && m.uri == uri)
        .find_map(entry)
        .map(GetSkillResult::new)
        .ok_or_else(|| {
            ErrorData::invalid_params(
                format!("no skill at {uri} (skills/list gives the URIs)"),
                None,
            )
        })
}
