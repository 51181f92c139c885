//! Curated briefs (src/brief/curated.rs): md, xml and json goldens, modes, exposure
//! filtering, select + query combination and budgets, on `tests/fixtures/curate/skills`.

use skillnav::brief::Mode;
use skillnav::brief::{BriefFormat, Request, effective_mode};
use skillnav::curate::exposure::{Exposure, ExposureMap};
use skillnav::curate::summary::summary_of;
use skillnav::formats::{LoadOptions, RootSpec, load_root};
use skillnav::index::Index;
use skillnav::model::{Corpus, NodeId};
use skillnav::tokens::{Encoding, TokenCounter};

use crate::support::corpus::load_as;
use crate::support::fs::fixture_path;

fn fixture() -> Corpus {
    load_as(&fixture_path("curate/skills"), "skills")
}

fn id(c: &Corpus, s: &str) -> NodeId {
    c.find(s).unwrap_or_else(|| {
        let all: Vec<String> = (0..c.nodes.len() as u32)
            .map(|i| c.id(skillnav::model::NodeId(i)))
            .collect();
        panic!("no node {s:?}; ids: {all:#?}")
    })
}

fn counter() -> TokenCounter {
    TokenCounter::new(Encoding::O200kBase)
}

fn req<'a>(selected: &'a [NodeId], query: Option<&'a str>, format: BriefFormat) -> Request {
    Request {
        units: selected.to_vec(),
        query: query.map(str::to_string),
        top_k: 2,
        mode: Mode::Auto,
        format,
        budget: None,
        exposure: ExposureMap::new(),
        from_recipe: false,
        max_chars: None,
        quotes: true,
    }
}

fn golden(name: &str, text: &str) {
    let path = fixture_path("curate/golden").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(text, want, "golden {name}");
}

const RECORD: &str = "skills/notes/SKILL.md#notes/record";
const TAGS: &str = "skills/notes/references/format.md#note-format/tags";
const ROLLBACK: &str = "skills/deploy/SKILL.md#deploy/rollback";

#[test]
fn md_golden_selected_then_retrieved() {
    let c = fixture();
    let index = Index::build(&c, &mut |_, _| {});
    let sel = [id(&c, RECORD)];
    let b = curated_brief(
        &c,
        Some(&index),
        &req(&sel, Some("note heading"), BriefFormat::Md),
        counter(),
    );
    golden("combined.md", &b.text);
    assert_eq!(b.sections, 3);
    assert!(b.left_out.is_empty());
    assert_eq!(b.tokens, counter().count(&b.text));
}

/// The TUI's case: the hits of the query are already selected, so the brief holds none of
/// them as retrieved and says `top 0`, not the `top 2` it asked for.
#[test]
fn a_query_whose_hits_are_all_selected_says_it_holds_no_hits() {
    let c = fixture();
    let index = Index::build(&c, &mut |_, _| {});
    let asked = req(&[], Some("where are tags"), BriefFormat::Md);
    let hits = curated_brief(&c, Some(&index), &asked, counter());
    let held: Vec<NodeId> = c
        .all_preorder()
        .into_iter()
        .filter(|n| hits.text.contains(&format!("`{}`", c.id(*n))))
        .collect();
    assert!(!held.is_empty(), "{}", hits.text);
    let b = curated_brief(
        &c,
        Some(&index),
        &req(&held, Some("where are tags"), BriefFormat::Md),
        counter(),
    );
    assert!(
        b.text.contains("Query: where are tags · top 0 by BM25\n"),
        "{}",
        b.text
    );
}

#[test]
fn xml_golden_has_one_document_per_source() {
    let c = fixture();
    let index = Index::build(&c, &mut |_, _| {});
    let sel = [id(&c, ROLLBACK)];
    let b = curated_brief(
        &c,
        Some(&index),
        &req(&sel, Some("note heading"), BriefFormat::Xml),
        counter(),
    );
    golden("combined.xml", &b.text);
    assert_eq!(b.text.matches("<document ").count(), 3);
}

#[test]
fn json_golden_parses_and_names_origins() {
    let c = fixture();
    let index = Index::build(&c, &mut |_, _| {});
    let sel = [id(&c, ROLLBACK)];
    let b = curated_brief(
        &c,
        Some(&index),
        &req(&sel, Some("note heading"), BriefFormat::Json),
        counter(),
    );
    golden("combined.json", &b.text);
    let v: serde_json::Value = serde_json::from_str(&b.text).expect("valid JSON");
    let origins: Vec<&str> = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["origin"].as_str().unwrap())
        .collect();
    assert_eq!(origins, ["selected", "retrieved", "retrieved"]);
    assert_eq!(v["mode"], "answer");
}

#[test]
fn auto_mode_follows_lazytools_intent_rules() {
    assert_eq!(
        effective_mode(Mode::Auto, Some("where are tags set")),
        Mode::Locate
    );
    assert_eq!(
        effective_mode(Mode::Auto, Some("list all tags")),
        Mode::Extract
    );
    assert_eq!(
        effective_mode(Mode::Auto, Some("give an overview")),
        Mode::Summarize
    );
    assert_eq!(
        effective_mode(Mode::Auto, Some("how do tags work")),
        Mode::Answer
    );
    assert_eq!(effective_mode(Mode::Auto, None), Mode::Answer);
    assert_eq!(effective_mode(Mode::Extract, Some("where")), Mode::Extract);
}

#[test]
fn locate_mode_golden_has_no_text() {
    let c = fixture();
    let index = Index::build(&c, &mut |_, _| {});
    let b = curated_brief(
        &c,
        Some(&index),
        &req(&[], Some("where are tags"), BriefFormat::Md),
        counter(),
    );
    golden("locate.md", &b.text);
    assert!(!b.text.contains("Tags go on"));
}

#[test]
fn summarize_mode_golden_condenses_each_section() {
    let c = fixture();
    let sel = [id(&c, "skills/notes/SKILL.md#notes"), id(&c, TAGS)];
    let r = Request {
        mode: Mode::Summarize,
        ..req(&sel, None, BriefFormat::Md)
    };
    let b = curated_brief(&c, None, &r, counter());
    golden("summarize.md", &b.text);
    assert_eq!(
        summary_of("", "# T\n\nFirst  para\ngoes on.\n\nSecond."),
        "First para goes on."
    );
    assert_eq!(summary_of(&"x".repeat(400), "").chars().count(), 300);
}

#[test]
fn extract_mode_gives_retrieved_hits_their_whole_text() {
    let c = fixture();
    let index = Index::build(&c, &mut |_, _| {});
    let top = Request {
        top_k: 1,
        mode: Mode::Extract,
        ..req(&[], Some("note format heading"), BriefFormat::Md)
    };
    let b = curated_brief(&c, Some(&index), &top, counter());
    let answer = Request {
        mode: Mode::Answer,
        ..top.clone()
    };
    let a = curated_brief(&c, Some(&index), &answer, counter());
    assert!(
        b.text
            .contains("`skills/notes/references/format.md#note-format`"),
        "{}",
        b.text
    );
    assert!(
        b.text.contains("Old notes move to archive/"),
        "extract includes sub-sections"
    );
    assert!(
        !a.text.contains("Old notes move to archive/"),
        "answer shows the hit's own text"
    );
}

#[test]
fn exposure_filters_briefs() {
    let c = fixture();
    let index = Index::build(&c, &mut |_, _| {});
    let mut exp = ExposureMap::new();
    exp.set(id(&c, "skills/deploy"), Some(Exposure::Always));
    exp.set(id(&c, ROLLBACK), Some(Exposure::Hidden));
    exp.set(id(&c, "skills/notes/references"), Some(Exposure::Explicit));
    let r = Request {
        exposure: exp.clone(),
        ..req(&[], Some("note heading"), BriefFormat::Json)
    };
    let b = curated_brief(&c, Some(&index), &r, counter());
    let v: serde_json::Value = serde_json::from_str(&b.text).unwrap();
    let got: Vec<(String, String)> = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                s["origin"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // deploy is always (its hidden Rollback is part of the Deploy section text); the
    // explicit references are never retrieved; a retrieved notes section fills in.
    assert_eq!(
        got[0],
        (
            "skills/deploy/SKILL.md#deploy".to_string(),
            "always".to_string()
        )
    );
    assert!(
        got.iter()
            .all(|(i, _)| !i.starts_with("skills/notes/references")),
        "{got:?}"
    );
    // Selected by id, an explicit section is included.
    let sel = [id(&c, TAGS)];
    let r = Request {
        exposure: exp.clone(),
        ..req(&sel, None, BriefFormat::Md)
    };
    let b = curated_brief(&c, None, &r, counter());
    assert!(
        b.text
            .contains("`skills/notes/references/format.md#note-format/tags`")
    );
    // A hidden node is never included, even when selected.
    let sel = [id(&c, ROLLBACK)];
    let r = Request {
        exposure: exp.clone(),
        ..req(&sel, None, BriefFormat::Md)
    };
    let b = curated_brief(&c, None, &r, counter());
    assert!(!b.text.contains("· selected"));
}

#[test]
fn over_budget_brief_names_what_it_left_out() {
    let c = fixture();
    let sel = [id(&c, RECORD), id(&c, TAGS), id(&c, ROLLBACK)];
    for format in [BriefFormat::Md, BriefFormat::Xml, BriefFormat::Json] {
        let full = curated_brief(&c, None, &req(&sel, None, format), counter());
        let max = full.tokens - 20;
        let r = Request {
            budget: Some(max),
            ..req(&sel, None, format)
        };
        let b = curated_brief(&c, None, &r, counter());
        assert!(b.tokens <= max, "{format:?}: {} > {max}", b.tokens);
        assert!(!b.left_out.is_empty(), "{format:?}");
        for gone in &b.left_out {
            assert!(b.text.contains(gone.as_str()), "{format:?} names {gone}");
        }
        assert_eq!(b.sections + b.left_out.len(), 3);
    }
    let r = Request {
        budget: Some(120),
        ..req(&sel, None, BriefFormat::Md)
    };
    let b = curated_brief(&c, None, &r, counter());
    golden("budget.md", &b.text);
}

#[test]
fn hidden_sub_sections_never_leak_through_a_visible_parent() {
    let c = fixture();
    let mut exp = ExposureMap::new();
    exp.set(
        id(&c, "skills/notes/references/format.md#note-format"),
        Some(Exposure::Always),
    );
    exp.set(id(&c, TAGS), Some(Exposure::Hidden));
    let r = Request {
        exposure: exp.clone(),
        ..req(&[], None, BriefFormat::Md)
    };
    let b = curated_brief(&c, None, &r, counter());
    assert!(
        b.text
            .contains("Every note starts with a level-one heading."),
        "{}",
        b.text
    );
    assert!(b.text.contains("Old notes move to archive/"));
    assert!(!b.text.contains("Tags go on"), "{}", b.text);
    assert!(!b.text.contains("## Tags"));
}

#[test]
fn selected_file_holding_an_always_section_lists_it_once() {
    let c = fixture();
    let mut exp = ExposureMap::new();
    exp.set(id(&c, RECORD), Some(Exposure::Always));
    let file = id(&c, "skills/notes/SKILL.md");
    let sel = [file];
    let r = Request {
        exposure: exp.clone(),
        ..req(&sel, None, BriefFormat::Json)
    };
    let b = curated_brief(&c, None, &r, counter());
    let v: serde_json::Value = serde_json::from_str(&b.text).unwrap();
    let ids: Vec<&str> = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    // The file's text holds the `always` Record section: one section, not the section and
    // then the file again.
    assert_eq!(ids, ["skills/notes/SKILL.md"]);
    assert_eq!(
        b.text
            .matches("Write the note with a dated heading")
            .count(),
        1
    );
}

#[test]
fn large_over_budget_briefs_pack_on_estimates_and_list_at_most_50_ids() {
    // 120 sections (over EXACT_PACK_MAX): packed on estimates, then checked exactly.
    let tmp = tempfile::tempdir().unwrap();
    let mut doc = String::from("# Big\n\n");
    for i in 0..120 {
        doc.push_str(&format!(
            "## Part {i}\n\nThe text of part {i} talks about topic number {i} at length.\n\n"
        ));
    }
    std::fs::write(tmp.path().join("big.md"), &doc).unwrap();
    let c = load_root(
        &RootSpec {
            path: tmp.path().to_path_buf(),
            label: "big".into(),
        },
        &LoadOptions::default(),
        &mut |_| {},
    );
    let units: Vec<NodeId> = c
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.title.starts_with("Part "))
        .map(|(i, _)| NodeId(i as u32))
        .collect();
    assert_eq!(units.len(), 120);
    assert!(units.len() > skillnav::brief::select::EXACT_PACK_MAX);
    for format in [BriefFormat::Md, BriefFormat::Xml, BriefFormat::Json] {
        let r = Request {
            budget: Some(1500),
            ..req(&units, None, format)
        };
        let b = curated_brief(&c, None, &r, counter());
        assert!(b.tokens <= 1500, "{format:?}: {}", b.tokens);
        assert_eq!(b.sections + b.left_out.len(), 120, "{format:?}");
        assert!(
            b.sections >= 5,
            "{format:?}: only {} sections fit",
            b.sections
        );
        // Equal sections: the kept ones are the first ones (first-fit in order of value).
        let first_left = b.left_out[0].clone();
        assert!(
            first_left.ends_with(&format!("part-{}", b.sections)),
            "{format:?}: {first_left}"
        );
        let n = b.left_out.len();
        match format {
            BriefFormat::Json => {
                let v: serde_json::Value = serde_json::from_str(&b.text).unwrap();
                assert_eq!(v["left_out"].as_array().unwrap().len(), 50);
                assert_eq!(v["left_out_count"], n);
            }
            BriefFormat::Xml => {
                assert!(b.text.contains(&format!("count=\"{n}\"")), "{}", b.text);
                assert!(
                    b.text
                        .contains(&format!(", and {} more</left_out>", n - 50)),
                    "{}",
                    b.text
                );
            }
            BriefFormat::Md => {
                assert!(
                    b.text
                        .contains(&format!("and {} more ({n} in all)", n - 50)),
                    "{}",
                    b.text
                );
            }
            BriefFormat::Lazytools => unreachable!("not one of the layouts"),
        }
    }
}

/// The curated layout of `req.format`, whatever layout `build` would choose (these tests pin
/// the curated layouts).
fn curated_brief(
    c: &skillnav::model::Corpus,
    index: Option<&skillnav::index::Index>,
    req: &Request,
    counter: skillnav::tokens::TokenCounter,
) -> skillnav::brief::Brief {
    skillnav::brief::build_in(
        c,
        index,
        req,
        skillnav::brief::Layout::curated(req.format),
        counter,
    )
}
