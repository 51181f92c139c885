//! The agreement walk (docs/DESIGN.md §2 Sizes): for every text-bearing node of a corpus
//! (and every skill), the size `tree --json` states, the `Sources:` line of its brief, the
//! number the TUI's top bar shows against the brief `y` copies, and its export (the table's
//! tokens and bytes, the reference file's length) agree. Used by the fixture test and, over
//! any folder, by the `#[ignore]`d test that reads `SKILLNAV_AGREE_PATH`.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use skillnav::brief::{BriefFormat, Mode, Request};
use skillnav::curate::export::{ExportOptions, export_skill};
use skillnav::curate::exposure::{Exposure, ExposureMap};
use skillnav::curate::units::selection_units;
use skillnav::model::{Corpus, NodeId, NodeKind, Selection};
use skillnav::tokens::{Encoding, TokenCounter, TokenTable};
use skillnav::tui::effects::text_job::{Text, TextJob, brief_size};

/// What a walk found: nodes checked, disagreements (one line each), and the documented
/// reasons an exported file's length differs from the node's bytes, counted.
#[derive(Debug, Default)]
pub struct Walk {
    pub checked: usize,
    pub problems: Vec<String>,
    pub file_changes: BTreeMap<&'static str, usize>,
}

/// `(bytes, tokens)` on a brief's `Sources:` line.
fn sources(brief: &str) -> Option<(u64, u64)> {
    let line = brief.lines().find(|l| l.starts_with("Sources: "))?;
    let num = |suffix: &str| -> Option<u64> {
        let part = line.split(" · ").find(|p| p.ends_with(suffix))?;
        part.split(' ').next()?.replace(',', "").parse().ok()
    };
    Some((num(" bytes")?, num(" (o200k_base)")?))
}

/// The size `tree --json` states for `id`, less what a selected container does not send:
/// its `explicit` files (licence files, ADRs, docs/DESIGN.md §5) and its files without text
/// (binary files, placeholders: bytes in the tree, never in a brief; §2 Sizes).
fn expected(corpus: &Corpus, levels: &ExposureMap, table: &TokenTable, id: NodeId) -> (u64, u64) {
    let v = skillnav::agent::json::node(corpus, table, id, Some(0));
    let (mut bytes, mut tokens) = (v["bytes"].as_u64().unwrap(), v["tokens"].as_u64().unwrap());
    if corpus.node(id).span.is_none() {
        for n in corpus.preorder(id) {
            let node = corpus.node(n);
            let top = node
                .parent
                .is_none_or(|p| levels.level(corpus, p) != Exposure::Explicit);
            let explicit =
                node.span.is_some() && top && levels.level(corpus, n) == Exposure::Explicit;
            let textless = node.span.is_none() && node.children.is_empty();
            if (explicit || textless) && !corpus.is_copy(n) {
                bytes -= node.bytes;
                tokens -= table.total(n).unwrap_or(0);
            }
        }
    }
    (bytes, tokens)
}

/// Why an exported file's text differs from the node's stored text, by the documented rules
/// (docs/FORMATS.md §14); `None` when nothing explains it.
fn file_change(stored: &str, file: &str) -> Option<&'static str> {
    if skillnav::frontmatter::parse(stored).is_some_and(|fm| fm.block.end > 0) {
        return Some("frontmatter dropped");
    }
    let body = stored.trim_start_matches(['\n', '\r']);
    if body.len() != stored.len() {
        return Some("leading blank lines dropped");
    }
    if !body.starts_with('#') {
        return Some("`# title` added");
    }
    if !stored.ends_with('\n') && file.len() == stored.len() + 1 {
        return Some("final newline added");
    }
    if stored.contains("](") {
        return Some("relative links rewritten");
    }
    None
}

/// Check `id` selected alone, with the corpus's own levels as the CLI takes them; problems
/// go to `w`.
fn check(shared: &Arc<Corpus>, table: &TokenTable, id: NodeId, tmp: &Path, w: &mut Walk) {
    let corpus: &Corpus = shared;
    let counter = TokenCounter::new(Encoding::O200kBase);
    let levels = ExposureMap::from_corpus(corpus);
    let mut sel = Selection::new();
    sel.select(corpus, id);
    let units = selection_units(corpus, &sel, &levels);
    if units.is_empty() {
        return;
    }
    w.checked += 1;
    let name = &corpus.id(id);
    let want = expected(corpus, &levels, table, id);
    // `skillnav brief --select ID`: the same function, the same units and levels.
    let req = Request {
        exposure: levels.clone(),
        ..Request::new(&units, None)
    };
    let brief = skillnav::brief::build(corpus, None, &req, counter);
    match sources(&brief.text) {
        Some(got) if got == want => {}
        got => w
            .problems
            .push(format!("{name}: tree {want:?}, brief Sources {got:?}")),
    }
    // The top bar: the TUI's job for the same selection, no budget.
    let job = TextJob {
        corpus: Arc::clone(shared),
        index: None,
        encoding: Encoding::O200kBase,
        text: Text::Brief(Request {
            format: BriefFormat::Md,
            mode: Mode::Auto,
            ..req.clone()
        }),
    };
    let bar = brief_size(&job);
    if bar != (brief.tokens, 0) {
        w.problems.push(format!(
            "{name}: brief {} tokens, bar {bar:?}",
            brief.tokens
        ));
    }
    check_export(corpus, &units, &levels, want, tmp, name, w);
}

/// The export of `units` (the selection of node `name`): its sections' sizes sum to `want`,
/// and each one-file reference holds the stored text or differs by a documented rule.
fn check_export(
    corpus: &Corpus,
    units: &[NodeId],
    levels: &ExposureMap,
    want: (u64, u64),
    tmp: &Path,
    name: &str,
    w: &mut Walk,
) {
    let opts = ExportOptions {
        description: None,
        max_reference_bytes: skillnav::curate::export::DEFAULT_MAX_REFERENCE_BYTES,
        with_catalog: false,
        force: true,
        counter: TokenCounter::new(Encoding::O200kBase),
    };
    let dir = tmp.join("agree");
    let Ok(report) = export_skill(corpus, units, levels, &dir, &opts) else {
        *w.file_changes.entry("export refused").or_default() += 1;
        return;
    };
    let bytes: u64 = report.sections.iter().map(|s| s.bytes).sum();
    let tokens: u64 = report.sections.iter().map(|s| s.tokens).sum();
    if (bytes, tokens) != want {
        w.problems.push(format!(
            "{name}: tree {want:?}, export table {:?}",
            (bytes, tokens)
        ));
    }
    for (s, unit) in report.sections.iter().zip(units) {
        let [file] = s.references.as_slice() else {
            *w.file_changes.entry("split into parts").or_default() += 1;
            continue;
        };
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        if text.len() as u64 == s.bytes {
            continue;
        }
        match file_change(corpus.text(*unit), &text) {
            Some(why) => *w.file_changes.entry(why).or_default() += 1,
            None => w.problems.push(format!(
                "{}: {} bytes as stored, {} in {file}",
                s.id,
                s.bytes,
                text.len()
            )),
        }
    }
}

/// Walk every node of `path` (loaded as the CLI loads one folder) that has text, and every
/// skill, checking each selected alone.
pub fn walk(path: &Path) -> Walk {
    let corpus = Arc::new(crate::support::corpus::load(path));
    let table = TokenTable::count_all(&corpus, TokenCounter::new(Encoding::O200kBase));
    let tmp = tempfile::tempdir().unwrap();
    let mut w = Walk::default();
    for i in 0..corpus.len() {
        let id = NodeId(i as u32);
        let n = corpus.node(id);
        let wanted = n.span.is_some() || n.kind == NodeKind::Skill;
        if wanted && !corpus.is_copy(id) {
            check(&corpus, &table, id, tmp.path(), &mut w);
        }
    }
    w
}
