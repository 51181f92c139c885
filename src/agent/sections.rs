//! Sections as resources: every text unit an agent may see is `skillnav://<id>` (the id
//! percent-encoded, so `#` survives), listed a page at a time; `explicit` ones are not
//! listed but read by URI, `hidden` ones never. Also the passage rule of `resources/read`
//! (docs/MCP.md "Result size caps"): a text or file over the result caps is served a
//! passage at a time, the next one at `<uri>?offset=<byte>`.

use std::ops::Range;

use super::error::{AgentResult, err};
use super::limits::Limits;
use super::outline::{link_target, served};
use super::passage::{self, Measure};
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
    format!("{SCHEME}{}", encode_path(&ws.corpus.id(id)))
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
    let all = listed(ws);
    let page: Vec<SectionResource> = all
        .iter()
        .skip(start)
        .take(PAGE)
        .map(|id| {
            let n = c.node(*id);
            SectionResource {
                uri: uri_of(ws, *id),
                id: c.id(*id),
                title: n.title.clone(),
                summary: c.summary(*id).to_string(),
                bytes: n.bytes,
            }
        })
        .collect();
    let next = (start + PAGE < all.len()).then(|| (start + PAGE).to_string());
    Ok((page, next))
}

/// Every section `resources/list` lists (text units at the `always` and `on-demand`
/// levels), in tree order.
pub fn listed(ws: &Workspace) -> Vec<NodeId> {
    let c = &ws.corpus;
    c.all_preorder()
        .into_iter()
        .filter(|id| {
            is_unit(ws, *id)
                && matches!(
                    ws.exposure.level(c, *id),
                    Exposure::Always | Exposure::OnDemand
                )
        })
        .collect()
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

/// The visible text of the section at `uri` (a URI without `?offset=`); a link to a file of
/// the same root reads as that file. Errors: as [`resolve_uri`], a link out of the root,
/// and a node without text of its own (a folder, a root, a binary file), which the `read`
/// tool serves instead.
pub fn read(ws: &Workspace, uri: &str) -> AgentResult<String> {
    let asked = resolve_uri(ws, uri)?;
    let id = link_target(ws, &ws.corpus.id(asked), asked)?;
    let node = ws.corpus.node(id);
    if node.span.is_none() {
        let what = if node.children.is_empty() {
            "has no text (a binary or unread file)"
        } else {
            "is a folder: each file under it is a resource of its own (resources/list), or call the read tool with its id to get them all"
        };
        return err(format!("{uri} {what}"));
    }
    Ok(ws
        .exposure
        .visible_text(&ws.corpus, id)
        .replace('\u{1A}', "\u{FFFD}"))
}

/// The query that asks a resource for its passage from a byte offset: `<uri>?offset=<n>`.
pub const OFFSET_QUERY: &str = "?offset=";
/// Characters of a resource result kept free for everything beside the passage (its URI,
/// the pointer to the next passage, the JSON-RPC frame).
const RESOURCE_FRAME: usize = 1_000;

/// One passage of a resource: bytes `range` of a text or file of `total` bytes, and the URI
/// of the next passage (`None` for the last).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourcePassage {
    /// Byte range served (character boundaries for a text).
    pub range: Range<usize>,
    /// Bytes of the whole text or file.
    pub total: usize,
    /// `<uri>?offset=<range.end>` while bytes remain.
    pub next: Option<String>,
}

impl ResourcePassage {
    /// Whether this passage is the whole resource.
    pub fn is_whole(&self) -> bool {
        self.range.start == 0 && self.range.end == self.total
    }
}

/// Split `?offset=<n>` (a byte offset, digits only) off a resource URI: the URI without it
/// and the offset (0 without one). Ids and skill paths in URIs are percent-encoded, so a
/// literal `?` starts this query. Errors: any other query, or an offset that is not a
/// number.
pub fn split_offset(uri: &str) -> AgentResult<(&str, usize)> {
    let Some(q) = uri.find('?') else {
        return Ok((uri, 0));
    };
    let (base, query) = uri.split_at(q);
    let Some(n) = query.strip_prefix(OFFSET_QUERY) else {
        return err(format!(
            "{uri:?}: the only query a resource takes is ?offset=<byte> (from the last passage)"
        ));
    };
    match n.parse::<usize>() {
        Ok(n) => Ok((base, n)),
        Err(_) => err(format!("{uri:?}: offset {n:?} is not a byte offset")),
    }
}

/// The passage of `text` (the resource at `base`) from byte `offset` that stays under
/// `limits` (characters as the result's JSON string holds them, escapes counted, and tokens
/// of `counter`), cut by [`passage::fit`]; the
/// whole text when it fits. Errors: `offset` past the end or inside a character.
pub fn text_passage(
    limits: Limits,
    counter: crate::tokens::TokenCounter,
    base: &str,
    text: &str,
    offset: usize,
) -> AgentResult<ResourcePassage> {
    check_offset(base, text.len(), offset)?;
    if !text.is_char_boundary(offset) {
        return err(format!(
            "{base}{OFFSET_QUERY}{offset} is inside a character: use the offset the last passage gave"
        ));
    }
    let room = limits.max_chars.saturating_sub(RESOURCE_FRAME + base.len());
    let rest = &text[offset..];
    // Measured as the result's JSON holds the text (escapes counted), as tool results are.
    let fits = Measure::JsonChars.of(rest) <= room && counter.count(rest) <= limits.max_tokens;
    let end = if fits {
        text.len()
    } else {
        passage::fit(
            text,
            offset,
            room,
            Measure::JsonChars,
            limits.max_tokens,
            counter,
        )
        .0
        .end
    };
    Ok(resource_passage(base, offset..end, text.len()))
}

/// The passage of a binary file of `total` bytes (the resource at `base`, served as
/// base64) from byte `offset`: as many bytes as fit in `limits`' characters once encoded
/// (4 characters per 3 bytes). Errors: `offset` past the end.
pub fn bytes_passage(
    limits: Limits,
    base: &str,
    total: usize,
    offset: usize,
) -> AgentResult<ResourcePassage> {
    check_offset(base, total, offset)?;
    let room = limits.max_chars.saturating_sub(RESOURCE_FRAME + base.len());
    let step = (room / 4 * 3).max(3);
    Ok(resource_passage(
        base,
        offset..total.min(offset + step),
        total,
    ))
}

fn check_offset(base: &str, total: usize, offset: usize) -> AgentResult<()> {
    if offset > total {
        return err(format!(
            "{base}{OFFSET_QUERY}{offset} is past the end ({total} bytes)"
        ));
    }
    Ok(())
}

fn resource_passage(base: &str, range: Range<usize>, total: usize) -> ResourcePassage {
    let next = (range.end < total).then(|| format!("{base}{OFFSET_QUERY}{}", range.end));
    ResourcePassage { range, total, next }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{Encoding, TokenCounter};

    #[test]
    fn an_offset_query_is_split_off_and_others_are_refused() {
        assert_eq!(
            split_offset("skillnav://a%23b"),
            Ok(("skillnav://a%23b", 0))
        );
        assert_eq!(
            split_offset("skillnav://a%23b?offset=120"),
            Ok(("skillnav://a%23b", 120))
        );
        assert!(split_offset("skillnav://a?page=2").is_err());
        assert!(split_offset("skillnav://a?offset=-1").is_err());
    }

    #[test]
    fn a_long_text_is_served_in_passages_that_reassemble() {
        let limits = Limits {
            max_tokens: 25_000,
            max_chars: 3_000,
        };
        let counter = TokenCounter::new(Encoding::Bytes4);
        let text = "Paragraph with a few words in it.\r\n\r\n".repeat(400);
        let (mut at, mut got, mut calls) = (0, String::new(), 0);
        loop {
            let p = text_passage(limits, counter, "skillnav://x", &text, at)
                .unwrap_or_else(|e| panic!("{e}"));
            // Counted as the result's JSON holds it: each `\r\n` takes 4 characters.
            assert!(
                Measure::JsonChars.of(&text[p.range.clone()]) <= 2_000 - "skillnav://x".len(),
                "{:?}",
                p.range
            );
            got.push_str(&text[p.range.clone()]);
            assert!(
                text[..p.range.end].ends_with("it.\r\n\r\n"),
                "cut inside a paragraph at {}",
                p.range.end
            );
            calls += 1;
            match p.next {
                Some(n) => {
                    assert_eq!(n, format!("skillnav://x?offset={}", p.range.end));
                    at = p.range.end;
                }
                None => break,
            }
        }
        assert_eq!((got == text, text.len(), calls), (true, 14_800, 9));
    }

    #[test]
    fn a_folder_uri_is_an_error_that_names_the_way_and_a_link_reads_as_its_file() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("sub")).unwrap();
        std::fs::write(tmp.path().join("sub/a.md"), "# A\n\nalpha\n").unwrap();
        std::os::unix::fs::symlink("sub/a.md", tmp.path().join("link.md")).unwrap();
        let ws = Workspace::open(crate::agent::outline::tree_tests::config(tmp.path()));
        let root = ws.corpus.id(ws.corpus.roots[0]);
        let folder = read(&ws, &format!("{SCHEME}{root}%2Fsub")).unwrap_err();
        assert!(
            folder
                .0
                .contains("is a folder: each file under it is a resource"),
            "{}",
            folder.0
        );
        let link = read(&ws, &format!("{SCHEME}{root}%2Flink.md"));
        assert_eq!(link.map_err(|e| e.0), Ok("# A\n\nalpha\n".to_string()));
    }

    #[test]
    fn offsets_past_the_end_or_inside_a_character_are_errors() {
        let counter = TokenCounter::new(Encoding::Bytes4);
        let l = Limits::default();
        assert!(text_passage(l, counter, "skillnav://x", "héllo", 2).is_err());
        assert!(text_passage(l, counter, "skillnav://x", "héllo", 7).is_err());
        let whole = text_passage(l, counter, "skillnav://x", "héllo", 0);
        assert_eq!(whole.map(|p| p.is_whole()), Ok(true));
        let b = bytes_passage(
            Limits {
                max_tokens: 10,
                max_chars: 1_400,
            },
            "skill://s/a.bin",
            1_000,
            0,
        );
        assert_eq!(
            b.map(|p| (p.range, p.next)),
            Ok((0..288, Some("skill://s/a.bin?offset=288".to_string())))
        );
    }
}
