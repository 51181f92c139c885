//! Resources: the files of every skill `skills/list` lists (`skill://<name>/<path>`, bytes
//! as on disk: text, else base64) and every listed section (`skillnav://<id>`), listed a
//! page at a time; `resources/read` also serves `explicit` skills and sections by URI,
//! never hidden ones nor the skills left out of `skills/list`, serves a skill file whole
//! and a section over the result caps a passage at a time; `resources/directory/read` lists a served
//! skill folder's direct children (SEP-2640, [`crate::agent::skill_dirs`]).

use base64::Engine;
use rmcp::ErrorData;
use rmcp::model::{
    DIRECTORY_MIME_TYPE, ListResourcesResult, MetaObject, ReadResourceDirectoryResult,
    ReadResourceResult, Resource, ResourceContents,
};
use serde_json::{Map, json};

use crate::agent::sections::{self, ResourcePassage};
use crate::agent::skill_dirs;
use crate::agent::skills::{self, manifests};
use crate::agent::workspace::Workspace;

/// The cursor prefix of section pages (skill files all come on the first page).
const SECTIONS: &str = "sections:";

/// One page of resources: the first holds every listed skill's files and the first
/// sections; later pages hold more sections.
pub fn list(ws: &Workspace, cursor: Option<&str>) -> Result<ListResourcesResult, ErrorData> {
    let mut items = Vec::new();
    let section_cursor = match cursor {
        None => {
            for m in manifests(ws).iter().filter(|m| m.in_skills_list()) {
                for f in &m.files {
                    let r = Resource::new(f.uri.clone(), format!("{}/{}", m.name, f.rel))
                        .with_mime_type(mime(&f.rel))
                        .with_size(f.size);
                    items.push(r);
                }
            }
            None
        }
        Some(c) => match c.strip_prefix(SECTIONS) {
            Some(rest) => Some(rest.to_string()),
            None => {
                return Err(ErrorData::invalid_params(
                    format!("cursor {c:?} is not one this server made"),
                    None,
                ));
            }
        },
    };
    let (page, next) = sections::list(ws, section_cursor.as_deref())
        .map_err(|e| ErrorData::invalid_params(e.0, None))?;
    for s in page {
        let mut r = Resource::new(s.uri, s.id)
            .with_title(s.title)
            .with_mime_type("text/markdown")
            .with_size(s.bytes);
        if !s.summary.is_empty() {
            r = r.with_description(s.summary);
        }
        items.push(r);
    }
    let mut result = ListResourcesResult::with_all_items(items);
    result.next_cursor = next.map(|n| format!("{SECTIONS}{n}"));
    Ok(result)
}

/// `resources/read` of a `skill://` file (whole, whatever its size: SEP-2640 checks its
/// bytes against the manifest) or a `skillnav://` section, a passage at a time when it is
/// over the result caps ([`sections::text_passage`]): `contents[0]` holds the passage (its
/// `_meta` `skillnav/passage` gives `from`, `to`, `bytes` and `next`), and while more follows
/// `contents[1]` is a one-line pointer whose `uri` is the next passage's
/// (`<uri>?offset=<byte>`; a `skill://` file read with `?offset=` is served in passages
/// too). Error `-32002` (resource not found) for an unknown URI, hidden ones included;
/// `-32602` for a bad `?offset=`.
pub fn read(ws: &Workspace, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let not_found = |msg: String| ErrorData::resource_not_found(msg, None);
    let bad = |e: crate::agent::error::AgentError| ErrorData::invalid_params(e.0, None);
    let (base, offset) = sections::split_offset(uri).map_err(bad)?;
    let (limits, counter) = (ws.limits(), ws.counter());
    if base.starts_with(skills::SCHEME) {
        let (bytes, rel) = skills::read_file(ws, base).map_err(|e| not_found(e.0))?;
        if base.len() == uri.len() {
            return Ok(ReadResourceResult::new(vec![whole_file(bytes, uri, &rel)]));
        }
        return Ok(match String::from_utf8(bytes) {
            Ok(text) => {
                let p =
                    sections::text_passage(limits, counter, base, &text, offset).map_err(bad)?;
                let body =
                    ResourceContents::text(&text[p.range.clone()], uri).with_mime_type(mime(&rel));
                passage_result(body, &p)
            }
            Err(e) => {
                let bytes = e.into_bytes();
                let p = sections::bytes_passage(limits, base, bytes.len(), offset).map_err(bad)?;
                let b64 = base64::engine::general_purpose::STANDARD.encode(&bytes[p.range.clone()]);
                let body =
                    ResourceContents::blob(b64, uri).with_mime_type("application/octet-stream");
                passage_result(body, &p)
            }
        });
    }
    let text = sections::read(ws, base).map_err(|e| not_found(e.0))?;
    let p = sections::text_passage(limits, counter, base, &text, offset).map_err(bad)?;
    let body = ResourceContents::text(&text[p.range.clone()], uri).with_mime_type("text/markdown");
    Ok(passage_result(body, &p))
}

/// A skill file whole, as SEP-2640 has hosts check it (its manifest's `size` and `digest`
/// cover every byte, and a read of another length fails): UTF-8 as text, else base64.
fn whole_file(bytes: Vec<u8>, uri: &str, rel: &str) -> ResourceContents {
    match String::from_utf8(bytes) {
        Ok(text) => ResourceContents::text(text, uri).with_mime_type(mime(rel)),
        Err(e) => {
            let b64 = base64::engine::general_purpose::STANDARD.encode(e.into_bytes());
            ResourceContents::blob(b64, uri).with_mime_type("application/octet-stream")
        }
    }
}

/// The result holding `body`, the passage `p` of its resource: as is when `p` is the whole
/// resource, else with the passage's `_meta` and, while more follows, the pointer to the
/// next passage.
fn passage_result(body: ResourceContents, p: &ResourcePassage) -> ReadResourceResult {
    if p.is_whole() {
        return ReadResourceResult::new(vec![body]);
    }
    let mut meta = Map::new();
    meta.insert(
        "skillnav/passage".into(),
        json!({"from": p.range.start, "to": p.range.end, "bytes": p.total, "next": p.next}),
    );
    let mut contents = vec![body.with_meta(MetaObject(meta))];
    if let Some(next) = &p.next {
        let line = format!(
            "This resource is served in passages: bytes {}-{} of {} above; read {next} for the next passage.",
            p.range.start, p.range.end, p.total
        );
        contents.push(ResourceContents::text(line, next.clone()));
    }
    ReadResourceResult::new(contents)
}

/// `resources/directory/read` (SEP-2640): the direct children of the served skill folder at
/// `uri` (`skill://<name>`, `skill://<name>/`, or a sub-folder), on one page: files with
/// their MIME type and size, folders as `inode/directory`. Error `-32602` for any other URI
/// (not a folder of a served skill: unknown, hidden, left out, or a file).
pub fn read_directory(ws: &Workspace, uri: &str) -> Result<ReadResourceDirectoryResult, ErrorData> {
    let children =
        skill_dirs::read_dir(ws, uri).map_err(|e| ErrorData::invalid_params(e.0, None))?;
    let items = children
        .into_iter()
        .map(|c| {
            let r = Resource::new(c.uri, c.name);
            match c.size {
                Some(size) if !c.dir => r.with_mime_type(mime(&c.rel)).with_size(size),
                _ => r.with_mime_type(DIRECTORY_MIME_TYPE),
            }
        })
        .collect();
    Ok(ReadResourceDirectoryResult::with_all_items(items))
}

/// The MIME type `resources/list` gives a file by its extension: Markdown, JSON, else
/// plain text.
fn mime(rel: &str) -> &'static str {
    let lower = rel.to_ascii_lowercase();
    if lower.ends_with(".md") || lower.ends_with(".markdown") || lower.ends_with(".mdx") {
        "text/markdown"
    } else if lower.ends_with(".json") {
        "application/json"
    } else {
        "text/plain"
    }
}
