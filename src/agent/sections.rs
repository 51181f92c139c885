//! Sections as resources: every text unit an agent may see is `skillnav://<id>` (the id
//! percent-encoded, so `#` survives), listed a page at a time; `explicit` ones are not
//! listed but read by URI, `hidden` ones never.

use super::error::{AgentResult, err};
use super::outline::served;
use super::skills::{decode_path, encode_path};
use super::workspace::Workspace;
use crate::curate::exposure::Exposure;
use crate::model::NodeId;

/// The URI scheme of section resources.
pub const SCHEME: &str = "skillnav://";
/// Resources per page of a listing.
pub const PAGE: usize = 500;

/// One listed section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionResource {
    /// `skillnav://<encoded id>`.
    pub uri: String,
    /// The id.
    pub id: String,
    /// Title.
    pub title: String,
    /// One-line summary.
    pub summary: String,
    /// Bytes of its text.
    pub bytes: u64,
}

/// The URI of node `id`.
pub fn uri_of(ws: &Workspace, id: NodeId) -> String {
    format!("{SCHEME}{}", encode_path(&ws.corpus.node(id).id))
}

/// Whether `id` is a unit of text a user would mention: a section, chunk, part, link or
/// ADR, or a file with text and no such children; copies are not.
fn is_unit(ws: &Workspace, id: NodeId) -> bool {
    let c = &ws.corpus;
    let n = c.node(id);
    let unit = n.kind.is_text_unit()
        || (n.span.is_some() && !n.children.iter().any(|k| c.node(*k).kind.is_text_unit()));
    unit && !c.is_copy(id)
}

/// One page of listed sections (`always` and `on-demand` units in document order) from
/// `cursor` (an offset this function returned), and the next page's cursor.
pub fn list(
    ws: &Workspace,
    cursor: Option<&str>,
) -> AgentResult<(Vec<SectionResource>, Option<String>)> {
    let start = match cursor {
        None => 0,
        Some(c) => match c.parse::<usize>() {
            Ok(n) => n,
            Err(_) => return err(format!("cursor {c:?} is not one this server made")),
        },
    };
    let c = &ws.corpus;
    let all: Vec<NodeId> = c
        .all_preorder()
        .into_iter()
        .filter(|id| {
            is_unit(ws, *id)
                && matches!(
                    ws.exposure.level(c, *id),
                    Exposure::Always | Exposure::OnDemand
                )
        })
        .collect();
    let page: Vec<SectionResource> = all
        .iter()
        .skip(start)
        .take(PAGE)
        .map(|id| {
            let n = c.node(*id);
            SectionResource {
                uri: uri_of(ws, *id),
                id: n.id.clone(),
                title: n.title.clone(),
                summary: c.summary(*id).to_string(),
                bytes: n.bytes,
            }
        })
        .collect();
    let next = (start + PAGE < all.len()).then(|| (start + PAGE).to_string());
    Ok((page, next))
}

/// The node a `skillnav://` URI names, unless hidden. Errors: not such a URI, unknown id.
pub fn resolve_uri(ws: &Workspace, uri: &str) -> AgentResult<NodeId> {
    let Some(rest) = uri.strip_prefix(SCHEME) else {
        return err(format!("{uri:?} is not a skillnav:// URI"));
    };
    let Some(id) = decode_path(rest) else {
        return err(format!("{uri:?}: not UTF-8 after decoding"));
    };
    served(ws, &id)
}

/// The visible text of the section at `uri`.
pub fn read(ws: &Workspace, uri: &str) -> AgentResult<String> {
    let id = resolve_uri(ws, uri)?;
    Ok(ws
        .exposure
        .visible_text(&ws.corpus, id)
        .replace('\u{1A}', "\u{FFFD}"))
}
