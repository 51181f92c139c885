//! List-changed notifications (docs/MCP.md "Reloading"): after the watcher reports a
//! change ([`super::watch`]) and no other change follows for [`DEBOUNCE`] (or [`MAX_WAIT`]
//! has passed since the first), reload and send `notifications/resources/list_changed`,
//! `notifications/prompts/list_changed` and `notifications/skills/list_changed` for each
//! list whose entries differ from the ones last announced. A list is compared by a
//! fingerprint of what identifies its entries: resource URIs, names and titles (not sizes:
//! an edited text is not a changed list); prompt names; each listed skill's URI,
//! frontmatter and file digests (a host verifies files against them, so a changed digest
//! is a changed listing).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{CustomNotification, ServerNotification};
use rmcp::{Peer, RoleServer};

use super::state::State;
use crate::agent::sections;
use crate::agent::skills::{SkillManifest, manifests};
use crate::agent::workspace::Workspace;

/// Quiet time after the last file event before the lists are compared.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// Longest wait after the first event of a burst, however busy the files stay.
pub const MAX_WAIT: Duration = Duration::from_secs(2);

/// The skills list-changed method (SEP-2640 names none; this is the name of the other
/// skills proposal and of the `tools`, `prompts`, `resources` pattern).
pub const SKILLS_LIST_CHANGED: &str = "notifications/skills/list_changed";

/// Fingerprints of the three lists a client may keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lists {
    /// `resources/list`: skill files and sections.
    pub resources: u64,
    /// `prompts/list`: the saved recipes.
    pub prompts: u64,
    /// `skills/list`: the listed skills' entries.
    pub skills: u64,
}

impl Lists {
    /// The fingerprints of `ws`'s lists.
    pub fn of(ws: &Workspace) -> Lists {
        let listed: Vec<SkillManifest> = manifests(ws)
            .into_iter()
            .filter(SkillManifest::in_skills_list)
            .collect();
        Lists {
            resources: resources(ws, &listed),
            prompts: prompts(ws),
            skills: skills(&listed),
        }
    }
}

fn hash_of(parts: impl IntoIterator<Item = String>) -> u64 {
    let mut h = DefaultHasher::new();
    for p in parts {
        p.hash(&mut h);
    }
    h.finish()
}

/// The fingerprint of the resources list, hashed one entry at a time: a list of every
/// section's URI, id and title would be about the size of the corpus's text.
fn resources(ws: &Workspace, listed: &[SkillManifest]) -> u64 {
    let files = listed
        .iter()
        .flat_map(|m| m.files.iter().map(|f| f.uri.clone()));
    let sections = sections::listed(ws).into_iter().map(|id| {
        let n = ws.corpus.node(id);
        format!(
            "{} {} {}",
            sections::uri_of(ws, id),
            ws.corpus.id(id),
            n.title
        )
    });
    hash_of(files.chain(sections))
}

fn prompts(ws: &Workspace) -> u64 {
    hash_of(ws.store().map(|s| s.list()).unwrap_or_default())
}

fn skills(listed: &[SkillManifest]) -> u64 {
    hash_of(listed.iter().map(|m| {
        let files: Vec<String> = m
            .files
            .iter()
            .map(|f| format!("{} {} {}", f.uri, f.digest, f.size))
            .collect();
        format!(
            "{} {} {:?} {:?} {files:?}",
            m.uri, m.name, m.description, m.extra
        )
    }))
}

/// Follow `state`'s change signal until `peer` is gone: debounce each burst, reload, and
/// send the notifications of the lists that changed since the last ones sent (or since the
/// start).
pub async fn follow(state: Arc<State>, peer: Peer<RoleServer>) {
    let s = Arc::clone(&state);
    let Ok(mut last) = tokio::task::spawn_blocking(move || Lists::of(&s.snapshot())).await else {
        return;
    };
    loop {
        state.changed.notified().await;
        settle(&state).await;
        let s = Arc::clone(&state);
        let Ok(now) = tokio::task::spawn_blocking(move || Lists::of(&s.fresh(&[]))).await else {
            return;
        };
        if send(&peer, &last, &now).await.is_err() {
            return;
        }
        last = now;
    }
}

/// Wait until no change came for [`DEBOUNCE`], or [`MAX_WAIT`] after the burst began.
async fn settle(state: &State) {
    let start = Instant::now();
    while start.elapsed() < MAX_WAIT
        && tokio::time::timeout(DEBOUNCE, state.changed.notified())
            .await
            .is_ok()
    {}
}

/// Send one notification per list that differs between `old` and `new`, to a client that
/// made the `initialize` handshake (a client of the 2026-07-28 protocol without one gets
/// change notifications only on a `subscriptions/listen` stream, which this server does
/// not serve yet). Errors: the client is gone.
async fn send(peer: &Peer<RoleServer>, old: &Lists, new: &Lists) -> Result<(), rmcp::ServiceError> {
    if peer.peer_info().is_none() {
        return Ok(());
    }
    if old.resources != new.resources {
        peer.notify_resource_list_changed().await?;
    }
    if old.prompts != new.prompts {
        peer.notify_prompt_list_changed().await?;
    }
    if old.skills != new.skills {
        let n = CustomNotification::new(SKILLS_LIST_CHANGED, None);
        peer.send_notification(ServerNotification::CustomNotification(n))
            .await?;
    }
    Ok(())
}
