//! Disclosure layers in the preview: what each layer of a skill costs an agent
//! (metadata always, SKILL.md body on activation, each reference on demand, assets never as
//! text), and for a root the always-loaded `<available_skills>` listing of its skills.
//! Computed on a worker ([`compute`], exact counts of [`crate::skill::layers`]); drawn by
//! [`crate::tui::view::layers::lines`].

use crate::model::{Corpus, NodeId, NodeKind};
use crate::skill::layers::{root_layers, skill_layers};
use crate::tokens::TokenCounter;
use crate::tui::state::preview::LayerView;

/// Whether `id` gets a layers section: skills, and roots holding skills.
pub fn wants_layers(corpus: &Corpus, id: NodeId) -> bool {
    let n = corpus.node(id);
    match n.kind {
        NodeKind::Skill => !corpus.is_copy(id),
        NodeKind::Root => corpus
            .preorder(id)
            .iter()
            .any(|d| corpus.node(*d).kind == NodeKind::Skill),
        _ => false,
    }
}

/// Compute the layers of `id` (a skill or a root) with exact counts; a root also gets the
/// Claude Code listing (its client profile, docs/AGENTS.md "Client profiles") over all roots
/// under the `[agent.*]` settings `profile` when `show_budget` is set or
/// the listing is over budget.
pub fn compute(
    corpus: &Corpus,
    id: NodeId,
    counter: TokenCounter,
    profile: &crate::config::AgentSettings,
    show_budget: bool,
) -> LayerView {
    if corpus.node(id).kind == NodeKind::Root {
        let opts = crate::skill::clients::ClientOptions {
            settings: profile.clone(),
            context_tokens: None,
        };
        let b = crate::skill::clients::client_listing(
            corpus,
            crate::skill::clients::Client::ClaudeCode,
            &opts,
        )
        .to_corpus_budget()
        .listing;
        let shown = (show_budget || b.needed_chars > b.budget_chars).then_some(b);
        LayerView::Root(root_layers(corpus, id, counter), shown)
    } else {
        LayerView::Skill(skill_layers(corpus, id, counter))
    }
}
