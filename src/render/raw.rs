//! The raw text of a node as preview lines (the preview's "raw" view beside the rendered
//! markdown): one row per source line, tabs expanded, search terms marked, long lines cut,
//! kept whole for a sideways scroll, or wrapped as [`RenderOptions::long_code`] says. The
//! whole text is one [`CodeBlock`] without a language, so every row scrolls sideways and
//! nothing asks for highlighting. A code file (JSON, YAML, a script: [`code_language`]) is
//! laid out the same way by [`render_code`], as one block in its language for the
//! highlighter (docs/DESIGN.md §6).

use crate::render::markdown::{CodeBlock, RenderOptions, Rendered, code_rows, expand_tabs};
use crate::render::terms::Terms;
use crate::render::text::{Line, Role, Span, Style};

/// Lay `text` out as raw lines at `opts.width` cells (`opts.show_frontmatter` is ignored:
/// the raw text is shown whole). A width of 0 gives an empty [`Rendered`].
pub fn render_raw(text: &str, opts: &RenderOptions) -> Rendered {
    lay_out(text, opts, "", Role::Text)
}

/// Lay `text`, the whole of a code file, out as [`render_raw`] does, as one code block in
/// `lang` (a fence language, [`code_language`]): rows styled [`Role::CodeBlock`] until the
/// highlighter's lines replace them ([`crate::render::highlight::apply`] on block 0).
pub fn render_code(text: &str, lang: &str, opts: &RenderOptions) -> Rendered {
    lay_out(text, opts, lang, Role::CodeBlock)
}

/// Extensions (lower case) of files shown as code, with the fence language each is
/// highlighted as.
const CODE_EXTS: [(&str, &str); 40] = [
    ("json", "json"),
    ("jsonl", "json"),
    ("ndjson", "json"),
    ("json5", "json"),
    ("geojson", "json"),
    ("ipynb", "json"),
    ("yaml", "yaml"),
    ("yml", "yaml"),
    ("toml", "toml"),
    ("xml", "xml"),
    ("csv", "csv"),
    ("ini", "ini"),
    ("py", "python"),
    ("rs", "rust"),
    ("js", "js"),
    ("mjs", "js"),
    ("cjs", "js"),
    ("ts", "ts"),
    ("tsx", "tsx"),
    ("jsx", "jsx"),
    ("sh", "bash"),
    ("bash", "bash"),
    ("zsh", "bash"),
    ("go", "go"),
    ("java", "java"),
    ("kt", "kotlin"),
    ("swift", "swift"),
    ("c", "c"),
    ("h", "c"),
    ("cc", "cpp"),
    ("cpp", "cpp"),
    ("hpp", "cpp"),
    ("cs", "c#"),
    ("rb", "ruby"),
    ("php", "php"),
    ("lua", "lua"),
    ("sql", "sql"),
    ("css", "css"),
    ("scss", "scss"),
    ("r", "r"),
];

/// The fence language a file at `path` (any `/`-separated path) is shown in as code, from
/// its extension (case-insensitive): `"a/b.JSON"` → `Some("json")`; `None` for markdown,
/// plain text and unknown extensions (those keep the markdown view).
pub fn code_language(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next()?;
    let (_, ext) = name.rsplit_once('.')?;
    CODE_EXTS
        .iter()
        .find(|(e, _)| e.eq_ignore_ascii_case(ext))
        .map(|&(_, lang)| lang)
}

/// [`render_raw`]'s layout with the block's language and the rows' role.
fn lay_out(text: &str, opts: &RenderOptions, lang: &str, role: Role) -> Rendered {
    let mut out = Rendered {
        width: opts.width,
        terms: opts.terms.clone(),
        long_code: opts.long_code,
        ..Rendered::default()
    };
    if opts.width == 0 {
        return out;
    }
    let terms = Terms::new(&opts.terms);
    let width = usize::from(opts.width);
    let empty = Line::new();
    let mut rows = Vec::new();
    let mut pos = 0;
    for src in text.split_inclusive('\n') {
        let line = src.trim_end_matches(['\n', '\r']);
        let mut content = vec![Span::new(expand_tabs(line), Style::new(role))];
        terms.mark(&mut content);
        let laid = code_rows(&empty, &empty, content, width, opts.long_code);
        rows.push(laid.len());
        for l in laid {
            if l.spans.iter().any(|s| s.style.role == Role::Match) {
                out.match_lines.push(out.lines.len());
            }
            out.lines.push(l);
            out.line_offsets.push(pos);
        }
        pos += src.len();
    }
    let line_count = rows.len();
    out.code_blocks.push(CodeBlock {
        lang: lang.to_string(),
        code: if lang.is_empty() {
            String::new()
        } else {
            text.to_string()
        },
        first_line: 0,
        line_count,
        prefixes: vec![Line::new(); line_count],
        cont_prefix: Line::new(),
        rows,
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::markdown::LongLines;

    fn raw(text: &str, width: u16, long_code: LongLines) -> Vec<String> {
        let opts = RenderOptions {
            width,
            terms: vec!["toc".into()],
            long_code,
            ..RenderOptions::default()
        };
        render_raw(text, &opts).plain_lines()
    }

    #[test]
    fn raw_keeps_the_markup_and_every_line() {
        let text = "# T\n\n<!-- toc -->\n- [S](#s)\n\tx\n";
        assert_eq!(
            raw(text, 40, LongLines::Cut),
            ["# T", "", "<!-- toc -->", "- [S](#s)", "    x"]
        );
        let r = render_raw(
            text,
            &RenderOptions {
                width: 40,
                terms: vec!["toc".into()],
                ..RenderOptions::default()
            },
        );
        assert_eq!(r.match_lines, [2]);
        assert!(r.is_code_row(0) && r.is_code_row(4) && !r.is_code_row(5));
    }

    #[test]
    fn raw_long_lines_cut_keep_or_wrap() {
        let text = "abcdefghij\nxy";
        assert_eq!(raw(text, 4, LongLines::Cut), ["abc…", "xy"]);
        assert_eq!(raw(text, 4, LongLines::Keep), ["abcdefghij", "xy"]);
        assert_eq!(raw(text, 4, LongLines::Wrap), ["abcd", "efgh", "ij", "xy"]);
    }

    #[test]
    fn code_files_get_their_language_and_one_highlightable_block() {
        assert_eq!(code_language("a/summary.JSON"), Some("json"));
        assert_eq!(code_language("x.yml"), Some("yaml"));
        assert_eq!(code_language("run.sh"), Some("bash"));
        assert_eq!(code_language("README.md"), None);
        assert_eq!(code_language("notes.txt"), None);
        assert_eq!(code_language("Makefile"), None);
        let text = "{\n  \"a\": 1\n}\n";
        let r = render_code(text, "json", &RenderOptions::default());
        assert_eq!(r.plain_lines(), ["{", "  \"a\": 1", "}"]);
        assert_eq!(r.line_offsets, [0, 2, 11]);
        assert_eq!(r.code_blocks.len(), 1);
        assert_eq!(
            (
                r.code_blocks[0].lang.as_str(),
                r.code_blocks[0].code.as_str()
            ),
            ("json", text)
        );
        assert!(
            r.lines[1]
                .spans
                .iter()
                .all(|s| s.style.role == Role::CodeBlock)
        );
    }
}
