//! SEP-2640 over rmcp: the core's skill manifests ([`crate::agent::skills`]) as
//! `skills/list` entries (listed skills only) and `skills/get` results (listed and
//! `explicit` skills); rmcp checks each entry against the spec before it is sent, so a
//! skill it would refuse is left out here.

use rmcp::ErrorData;
use rmcp::model::{
    GetSkillResult, ListSkillsResult, Skill, SkillFrontmatter, SkillResource, SkillResources,
};

use crate::agent::skills::{SkillManifest, manifests};
use crate::agent::workspace::Workspace;

/// The rmcp entry of one manifest; `None` when rmcp's checks refuse it.
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
    skill.validate().ok().map(|()| skill)
}

/// `skills/list`: every listed skill (`always`, `on-demand`), on one page.
pub fn list(ws: &Workspace) -> ListSkillsResult {
    let skills = manifests(ws)
        .iter()
        .filter(|m| m.listed)
        .filter_map(entry)
        .collect();
    ListSkillsResult::with_all_items(skills)
}

/// `skills/get`: the skill at `uri`, listed or `explicit`. Error `-32602` when no servable
/// skill has that URI (hidden skills included).
pub fn get(ws: &Workspace, uri: &str) -> Result<GetSkillResult, ErrorData> {
    manifests(ws)
        .iter()
        .filter(|m| m.uri == uri)
        .find_map(entry)
        .map(GetSkillResult::new)
        .ok_or_else(|| {
            ErrorData::invalid_params(
                format!("no skill at {uri} (skills/list gives the URIs)"),
                None,
            )
        })
}
