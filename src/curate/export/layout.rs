//! Where each exported section goes (docs/FORMATS.md §14): `always` sections into
//! the SKILL.md body while they fit [`super::ALWAYS_BODY_TOKENS`], every other section
//! into its own numbered reference file (split into parts over the size limit); links
//! between exported files rewritten to follow them; and the SKILL.md body's section table,
//! with the rows that do not fit moved to `references/index.md`.

use std::collections::HashMap;

use super::{
    ALWAYS_BODY_TOKENS, ExportedSection, MAX_BODY_LINES, MAX_BODY_TOKENS, active_howto, cell,
    cut_words, demote_headings, display_title, pack, section_text, slug, split_section,
};
use crate::curate::exposure::{Exposure, ExposureMap};
use crate::model::{Corpus, NodeId, NodeKind};
use crate::tokens::TokenCounter;

/// The laid-out export, before links are rewritten.
pub(super) struct Laid {
    /// Reference files: (path relative to the skill folder, text).
    pub files: Vec<(String, String)>,
    /// The source file path of each of `files`' texts (for relative links).
    file_src: Vec<String>,
    /// One row per exported section, in table order.
    pub sections: Vec<ExportedSection>,
    /// The `always` sections' text for the body, headings demoted.
    always_body: String,
    /// Byte range of each `always` section in `always_body`, with its source file path.
    always_srcs: Vec<(usize, usize, String)>,
    /// Where each exported whole file (`path`) or section (`path#slug`) went.
    moved: HashMap<String, String>,
    /// Reference files numbered so far.
    file_no: usize,
}

/// Lay `picked` out: each section into the body or its reference files (`max` bytes per
/// file), counting tokens with `counter`.
pub(super) fn lay_out(
    corpus: &Corpus,
    exposure: &ExposureMap,
    picked: &[NodeId],
    max: usize,
    counter: TokenCounter,
) -> Laid {
    let mut laid = Laid {
        files: Vec::new(),
        file_src: Vec::new(),
        sections: Vec::new(),
        always_body: String::new(),
        always_srcs: Vec::new(),
        moved: HashMap::new(),
        file_no: 0,
    };
    let mut always_tokens = 0;
    for &id in picked {
        let text = section_text(corpus, exposure, id);
        let tokens = counter.count(&text);
        let row = row_of(corpus, exposure, id, counter);
        if row.exposure == Exposure::Always && always_tokens + tokens <= ALWAYS_BODY_TOKENS {
            always_tokens += tokens;
            laid.place_in_body(corpus, id, &text, row);
        } else {
            laid.place_in_files(corpus, exposure, id, text, max, row);
        }
    }
    laid
}

/// The table row of `id` before its references are known.
fn row_of(
    corpus: &Corpus,
    exposure: &ExposureMap,
    id: NodeId,
    counter: TokenCounter,
) -> ExportedSection {
    let (bytes, tokens) = crate::curate::units::source_size(corpus, exposure, id, false, counter);
    let summary =
        crate::curate::summary::summary_of(corpus.summary(id), &exposure.visible_text(corpus, id));
    ExportedSection {
        id: corpus.id(id),
        title: display_title(corpus, id),
        references: Vec::new(),
        summary: cut_words(&summary, 160),
        tokens,
        bytes,
        exposure: exposure.level(corpus, id),
    }
}

impl Laid {
    /// Put `id`'s `text` into the SKILL.md body (composed, not a copy of a file: no
    /// trailing blank lines).
    fn place_in_body(&mut self, corpus: &Corpus, id: NodeId, text: &str, mut row: ExportedSection) {
        if !self.always_body.is_empty() {
            self.always_body.push('\n');
        }
        let start = self.always_body.len();
        self.always_body
            .push_str(&demote_headings(&format!("{}\n", text.trim_end())));
        let path = corpus.node(id).path.to_string();
        self.always_srcs.push((start, self.always_body.len(), path));
        self.note_moved(corpus, id, "SKILL.md");
        row.references = vec!["SKILL.md".into()];
        self.sections.push(row);
    }

    /// Put `id`'s `text` into the next numbered reference file, in parts of at most `max`
    /// bytes when it is longer (files are numbered from 01 in table order; sections placed
    /// in the body take no number).
    fn place_in_files(
        &mut self,
        corpus: &Corpus,
        exposure: &ExposureMap,
        id: NodeId,
        text: String,
        max: usize,
        mut row: ExportedSection,
    ) {
        let pieces = if text.len() > max {
            pack(split_section(corpus, exposure, id, max), max)
        } else {
            vec![text]
        };
        self.file_no += 1;
        let stem = format!("references/{:02}-{}", self.file_no, slug(&row.title));
        let parts = pieces.len();
        for (k, piece) in pieces.into_iter().enumerate() {
            let file = if parts == 1 {
                format!("{stem}.md")
            } else {
                format!("{stem}-{}.md", k + 1)
            };
            row.references.push(file.clone());
            self.files.push((file, piece));
            self.file_src.push(corpus.node(id).path.to_string());
        }
        let first = row.references[0].clone();
        self.note_moved(corpus, id, &first);
        self.sections.push(row);
    }

    /// Record that `id` (a whole file, or a section by its `path#slug`) went to `to`.
    fn note_moved(&mut self, corpus: &Corpus, id: NodeId, to: &str) {
        let n = corpus.node(id);
        if n.kind == NodeKind::File {
            self.moved.insert(n.path.to_string(), to.into());
        } else if let Some(slug) = corpus
            .id(id)
            .rsplit_once('#')
            .map(|(_, s)| s.rsplit('/').next().unwrap_or(s).to_string())
        {
            self.moved.insert(format!("{}#{slug}", n.path), to.into());
        }
    }

    /// Rewrite relative links in the reference files and the body to follow the exported
    /// files; links to files left behind are named in `warnings` (they would be dead in
    /// the new skill). The body's `always` text, rewritten.
    pub fn rewrite_links(&mut self, warnings: &mut Vec<String>) -> String {
        let rewrite = super::links::rewrite;
        for ((file, text), src) in self.files.iter_mut().zip(&self.file_src) {
            *text = rewrite(text, src, file, &self.moved, warnings);
        }
        let mut body = String::new();
        for (a, b, src) in &self.always_srcs {
            let part = &self.always_body[*a..*b];
            body.push_str(&rewrite(part, src, "SKILL.md", &self.moved, warnings));
            if *b < self.always_body.len() {
                body.push('\n');
            }
        }
        body
    }
}

/// The SKILL.md body's section table of an export.
pub(super) struct SkillTable<'a> {
    /// The skill name.
    pub name: &'a str,
    /// The rows.
    pub sections: &'a [ExportedSection],
    /// An active skill: ids are the exported ones, and the body says how to fetch them.
    pub active: bool,
    /// The counter of the body's token cap.
    pub counter: TokenCounter,
}

/// The table's head line and rule.
const HEADER: &str = "| id | reference | summary | tokens | exposure |\n|---|---|---|---|---|\n";

/// The line closing a body whose table does not hold every row.
const MORE: &str = "\nMore sections: see [references/index.md](references/index.md).\n";

impl SkillTable<'_> {
    /// The body (intro, `always` text, the active how-to, and as many rows as fit
    /// [`MAX_BODY_LINES`] and [`MAX_BODY_TOKENS`]), and `references/index.md` with every
    /// row when some did not fit.
    pub fn body(&self, always_body: &str) -> (String, Option<(String, String)>) {
        let mut body = format!("{}{HEADER}", self.intro(always_body));
        let mut shown = 0;
        for s in self.sections {
            let candidate = format!("{body}{}", self.row(s));
            if candidate.lines().count() + 3 > MAX_BODY_LINES
                || self.counter.count(&candidate) + self.counter.count(MORE) > MAX_BODY_TOKENS
            {
                break;
            }
            body = candidate;
            shown += 1;
        }
        if shown == self.sections.len() {
            return (body, None);
        }
        let mut index = format!("# {}: all sections\n\n{HEADER}", self.name);
        for s in self.sections {
            index.push_str(&self.row(s));
        }
        body.push_str(MORE);
        (body, Some(("references/index.md".into(), index)))
    }

    /// The body up to the table: title, counts, the `always` text, the active how-to.
    fn intro(&self, always_body: &str) -> String {
        let total: u64 = self.sections.iter().map(|s| s.tokens).sum();
        let n = self.sections.len();
        let mut intro = format!(
            "# {}\n\n{n} section{}, {} tokens ({}). Pick a section from the table and read only its reference file.\n\n",
            self.name,
            if n == 1 { "" } else { "s" },
            crate::util::human::human_count(total),
            self.counter.encoding().as_str()
        );
        if !always_body.is_empty() {
            intro.push_str("## Always loaded\n\n");
            intro.push_str(always_body);
            intro.push('\n');
        }
        if self.active {
            intro.push_str(&active_howto(self.name));
        }
        intro.push_str("## Sections\n\n");
        intro
    }

    /// One table row. An active skill's ids are the exported ones, so
    /// `skillnav show <id> .` finds them.
    fn row(&self, s: &ExportedSection) -> String {
        let refs: Vec<String> = s
            .references
            .iter()
            .map(|r| {
                if r == "SKILL.md" {
                    "above (always loaded)".to_string()
                } else {
                    format!("[{r}]({r})")
                }
            })
            .collect();
        let id = match s
            .references
            .first()
            .filter(|r| self.active && r.as_str() != "SKILL.md")
        {
            Some(r) => format!("{}/{r}", self.name),
            None => s.id.clone(),
        };
        format!(
            "| `{}` | {} | {} | {} | {} |\n",
            cell(&id),
            refs.join(", "),
            cell(&s.summary),
            s.tokens,
            s.exposure
        )
    }
}
