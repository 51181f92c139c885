//! Queries longer than any title (docs/DESIGN.md §3): a 3,000-char word, alone or beside a
//! real one, gets a normal answer (it panicked nucleo's `u16` score in a debug build).

use skillnav::index::filter::search_all;
use skillnav::index::{FuzzyIndex, Index, SearchOptions};

use crate::support::corpus::load;
use crate::support::fs::fixture_path;

/// Content hit ids and title hit ids of `query` on the KEP fixtures.
fn ids(query: &str) -> (Vec<String>, Vec<String>) {
    let c = load(&fixture_path("index/keps"));
    let idx = Index::build(&c, &mut |_, _| {});
    let fz = FuzzyIndex::build(&c);
    let opts = SearchOptions {
        top_k: 3,
        ..SearchOptions::default()
    };
    let (content, titles) = search_all(&c, Some(&idx), Some(&fz), query, &opts);
    let id = |h: &skillnav::index::Hit| c.id(h.node);
    (
        content.hits.iter().map(id).collect(),
        titles.iter().map(id).collect(),
    )
}

#[test]
fn a_3000_char_query_of_one_or_several_words_gets_a_normal_result() {
    let long = "a".repeat(3000);
    assert_eq!(ids(&long), (Vec::new(), Vec::new()));
    // Beside a real word the long one costs nothing: the same content hits as that word
    // alone, and no title hits (a query longer than any title).
    let several = format!("gates {}", "a".repeat(2994));
    assert_eq!(several.chars().count(), 3000);
    let (content, titles) = ids(&several);
    assert_eq!(content, ids("gates").0);
    let kep = "keps/sig-scheduling/3521-pod-scheduling-readiness/README.md#kep-3521-pod-scheduling-readiness";
    let prr = format!("{kep}/production-readiness-review-questionnaire");
    assert_eq!(
        content,
        [
            format!("{prr}/monitoring-requirements"),
            format!(
                "{prr}/feature-enablement-and-rollback/how-can-this-feature-be-enabled--disabled-in-a-live-cluster"
            ),
            format!("{kep}/design-details/api"),
        ]
    );
    assert_eq!(titles, Vec::<String>::new());
}
