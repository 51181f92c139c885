//! Syntax highlighting of code blocks with syntect, using bat's syntax and theme sets as
//! shipped by two-face (docs/DESIGN.md §6: only visible code blocks are highlighted, off the UI
//! thread, so [`Highlighter`] is `Send + Sync` and caches its results).
//!
//! Flow: [`crate::render::markdown::render_markdown`] emits plain [`Role::CodeBlock`] lines
//! and a [`CodeBlock`](crate::render::markdown::CodeBlock) record; a worker calls
//! [`Highlighter::highlight`] on the block's code and language; the UI thread swaps the lines
//! in with [`apply`].

use std::collections::{HashMap, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Mutex, OnceLock};

use syntect::easy::HighlightLines;
use syntect::highlighting::FontStyle;
use syntect::parsing::{SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;
use two_face::theme::{EmbeddedLazyThemeSet, EmbeddedThemeName};

use crate::render::markdown::Rendered;
use crate::render::markdown::code_rows;
use crate::render::terms::Terms;
use crate::render::text::{Line, Rgb, Role, Span, Style};

/// How many highlighted blocks the cache keeps (least recently used evicted first).
pub const CACHE_CAPACITY: usize = 128;

/// A syntect colour theme from two-face's embedded set (bat's themes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyntaxTheme(pub EmbeddedThemeName);

impl SyntaxTheme {
    /// The dark default: "Monokai Extended".
    pub const DARK: SyntaxTheme = SyntaxTheme(EmbeddedThemeName::MonokaiExtended);
    /// The light default: "GitHub".
    pub const LIGHT: SyntaxTheme = SyntaxTheme(EmbeddedThemeName::Github);

    /// Look a theme up by its bat name (`"Monokai Extended"`, `"GitHub"`, `"InspiredGitHub"`,
    /// `"Solarized (dark)"`, …), ignoring ASCII case. `None` when unknown.
    pub fn from_name(name: &str) -> Option<SyntaxTheme> {
        EmbeddedLazyThemeSet::theme_names()
            .iter()
            .find(|t| t.as_name().eq_ignore_ascii_case(name.trim()))
            .map(|&t| SyntaxTheme(t))
    }

    /// The bat name of the theme.
    pub fn name(self) -> &'static str {
        self.0.as_name()
    }

    /// Names of every available theme.
    pub fn names() -> Vec<&'static str> {
        EmbeddedLazyThemeSet::theme_names()
            .iter()
            .map(|t| t.as_name())
            .collect()
    }
}

struct Entry {
    code: String,
    lines: Vec<Line>,
}

type Key = (u64, String, SyntaxTheme);

#[derive(Default)]
struct Cache {
    map: HashMap<Key, Entry>,
    order: VecDeque<Key>,
}

/// Highlights code; built once (syntaxes and themes load lazily on first use, ~tens of ms)
/// and shared between threads.
#[derive(Default)]
pub struct Highlighter {
    syntaxes: OnceLock<SyntaxSet>,
    themes: OnceLock<EmbeddedLazyThemeSet>,
    cache: Mutex<Cache>,
}

impl std::fmt::Debug for Highlighter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Highlighter")
            .field("loaded", &self.syntaxes.get().is_some())
            .finish_non_exhaustive()
    }
}

/// Map a fence info word to a syntect lookup token (extension or name); `None` = plain.
fn lookup_token(lang: &str) -> Option<String> {
    let lang = lang.trim().to_ascii_lowercase();
    let token = match lang.as_str() {
        "" | "text" | "txt" | "plain" | "plaintext" | "none" | "output" => return None,
        "rs" | "rust" => "rs",
        "ts" | "typescript" | "mts" | "cts" => "ts",
        "tsx" => "tsx",
        "js" | "javascript" | "node" | "mjs" | "cjs" => "js",
        "jsx" => "jsx",
        "sh" | "shell" | "bash" | "zsh" | "console" | "shellsession" | "terminal"
        | "shell-session" => "bash",
        "py" | "python" | "python3" => "py",
        "c#" | "csharp" | "cs" => "cs",
        "go" | "golang" => "go",
        "yml" | "yaml" => "yaml",
        "md" | "markdown" => "md",
        "rb" | "ruby" => "rb",
        "c++" | "cpp" | "cxx" => "cpp",
        "diff" | "patch" => "diff",
        "docker" | "dockerfile" => "Dockerfile",
        "jsonc" | "json5" | "json" => "json",
        "ps1" | "powershell" | "pwsh" => "ps1",
        "kt" | "kotlin" => "kt",
        "objc" | "objective-c" => "m",
        "htm" | "html" => "html",
        other => return Some(other.to_string()),
    };
    Some(token.to_string())
}

/// One plain [`Role::CodeBlock`] line per source line of `code` (tabs expanded, sanitised).
pub fn plain_lines(code: &str) -> Vec<Line> {
    code.lines()
        .map(|l| {
            Line::from_spans(vec![Span::new(
                crate::render::markdown::expand_tabs(l),
                Style::new(Role::CodeBlock),
            )])
        })
        .collect()
}

fn convert(regions: &[(syntect::highlighting::Style, &str)], col: &mut usize) -> Line {
    let mut line = Line::new();
    for (st, text) in regions {
        let text = text.trim_end_matches(['\n', '\r']);
        let mut expanded = String::with_capacity(text.len());
        for c in text.chars() {
            if c == '\t' {
                let n = 4 - *col % 4;
                expanded.extend(std::iter::repeat_n(' ', n));
                *col += n;
            } else {
                expanded.push(c);
                *col += 1;
            }
        }
        let fg = st.foreground;
        let style = Style {
            role: Role::CodeBlock,
            fg: Some(Rgb(fg.r, fg.g, fg.b)),
            bold: st.font_style.contains(FontStyle::BOLD),
            italic: st.font_style.contains(FontStyle::ITALIC),
            underline: st.font_style.contains(FontStyle::UNDERLINE),
            ..Style::default()
        };
        line.push(Span::new(expanded, style));
    }
    line
}

impl Highlighter {
    /// A highlighter; nothing is loaded until the first [`Highlighter::highlight`].
    pub fn new() -> Highlighter {
        Highlighter::default()
    }

    /// A process-wide shared instance.
    pub fn shared() -> &'static Highlighter {
        static SHARED: OnceLock<Highlighter> = OnceLock::new();
        SHARED.get_or_init(Highlighter::new)
    }

    fn syntaxes(&self) -> &SyntaxSet {
        self.syntaxes.get_or_init(two_face::syntax::extra_newlines)
    }

    fn themes(&self) -> &EmbeddedLazyThemeSet {
        self.themes.get_or_init(two_face::theme::extra)
    }

    fn find_syntax(&self, lang: &str) -> Option<&SyntaxReference> {
        let token = lookup_token(lang)?;
        let ss = self.syntaxes();
        let syntax = ss
            .find_syntax_by_token(&token)
            .or_else(|| ss.find_syntax_by_name(lang.trim()))?;
        (syntax.name != "Plain Text").then_some(syntax)
    }

    /// The syntect syntax name a fence language maps to (`"rs"` → `Some("Rust")`), or `None`
    /// when the code would be shown plain.
    pub fn syntax_name(&self, lang: &str) -> Option<String> {
        self.find_syntax(lang).map(|s| s.name.clone())
    }

    /// Highlight `code` (a code block's text) as `lang` (a fence info word such as `rust`,
    /// `ts`, `sh`, `c#`; see the alias table) with `theme`. Returns one [`Line`] per source
    /// line (`code.lines()`), full length (the caller truncates), spans with
    /// [`Role::CodeBlock`] and `fg` from the theme (bold/italic/underline from its font
    /// styles); tabs expanded to 4-column stops, text sanitised. An unknown or empty `lang`
    /// gives [`plain_lines`] (no `fg`). If syntect fails on a line, that line and the rest are
    /// plain. Results are cached by (hash of code, lang, theme) — a hit also compares the code
    /// itself — keeping the [`CACHE_CAPACITY`] most recently used.
    pub fn highlight(&self, code: &str, lang: &str, theme: SyntaxTheme) -> Vec<Line> {
        let Some(syntax) = self.find_syntax(lang) else {
            return plain_lines(code);
        };
        let mut hasher = DefaultHasher::new();
        code.hash(&mut hasher);
        let key: Key = (hasher.finish(), lang.trim().to_ascii_lowercase(), theme);
        {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            let hit = cache
                .map
                .get(&key)
                .filter(|e| e.code == code)
                .map(|e| e.lines.clone());
            if let Some(lines) = hit {
                // Least recently used goes first: move this key to the back.
                if let Some(pos) = cache.order.iter().position(|k| *k == key) {
                    cache.order.remove(pos);
                }
                cache.order.push_back(key);
                return lines;
            }
        }
        let ss = self.syntaxes();
        let mut h = HighlightLines::new(syntax, self.themes().get(theme.0));
        let mut lines = Vec::new();
        for src in LinesWithEndings::from(code) {
            match h.highlight_line(src, ss) {
                Ok(regions) => lines.push(convert(&regions, &mut 0)),
                Err(_) => break,
            }
        }
        let done = lines.len();
        lines.extend(plain_lines(code).into_iter().skip(done));
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if !cache.map.contains_key(&key) {
            cache.order.push_back(key.clone());
        }
        cache.map.insert(
            key,
            Entry {
                code: code.to_string(),
                lines: lines.clone(),
            },
        );
        while cache.map.len() > CACHE_CAPACITY {
            let Some(old) = cache.order.pop_front() else {
                break;
            };
            cache.map.remove(&old);
        }
        lines
    }
}

/// Replace the plain lines of code block `block_index` of `rendered` by `highlighted` (from
/// [`Highlighter::highlight`] on that block), keeping each line's prefix (quote bars, list
/// indentation), re-marking the rendered search terms, and laying each line out as the
/// rendering did ([`Rendered::long_code`]: cut to `width` cells with `…`, kept whole, or
/// wrapped). Does nothing when the index is out of range or the line count differs from
/// the block's `line_count` (a stale result); a line whose row count changed is left plain.
pub fn apply(rendered: &mut Rendered, block_index: usize, highlighted: Vec<Line>, width: u16) {
    let Some(block) = rendered.code_blocks.get(block_index) else {
        return;
    };
    if highlighted.len() != block.line_count
        || block.first_line + block.row_count() > rendered.lines.len()
    {
        return;
    }
    let terms = Terms::new(&rendered.terms);
    let mut row = block.first_line;
    for (i, hl) in highlighted.into_iter().enumerate() {
        let want = block.rows.get(i).copied().unwrap_or(1);
        let mut content = hl.spans;
        terms.mark(&mut content);
        let prefix = block.prefixes.get(i).cloned().unwrap_or_default();
        let lines = code_rows(
            &prefix,
            &block.cont_prefix,
            content,
            usize::from(width),
            rendered.long_code,
        );
        if lines.len() == want {
            for (k, line) in lines.into_iter().enumerate() {
                rendered.lines[row + k] = line;
            }
        }
        row += want;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_is_bounded_and_keeps_recently_used() {
        let h = Highlighter::new();
        let first = "let keep = 0;\n";
        h.highlight(first, "rust", SyntaxTheme::DARK);
        for i in 0..CACHE_CAPACITY + 10 {
            h.highlight(&format!("let x{i} = {i};\n"), "rust", SyntaxTheme::DARK);
            // Touch `first` so it stays among the most recently used.
            h.highlight(first, "rust", SyntaxTheme::DARK);
        }
        let cache = h.cache.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(cache.map.len(), CACHE_CAPACITY);
        assert_eq!(cache.order.len(), CACHE_CAPACITY);
        assert!(cache.map.values().any(|e| e.code == first));
        assert!(!cache.map.values().any(|e| e.code == "let x0 = 0;\n"));
    }
}
