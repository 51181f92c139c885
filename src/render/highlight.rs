//! Syntax highlighting of code blocks with syntect, using bat's syntax and theme sets as
//! shipped by two-face (docs/DESIGN.md §6: only visible code blocks are highlighted, off the UI
//! thread, so [`Highlighter`] is `Send + Sync` and caches its results).
//!
//! Flow: [`crate::render::markdown::render_markdown`] emits plain [`Role::CodeBlock`] lines
//! and a [`CodeBlock`](crate::render::markdown::CodeBlock) record; a worker calls
//! [`Highlighter::highlight`] on the block's code and language; the UI thread swaps the lines
//! in with [`apply`].
//!
//! Bounds (docs/FUZZING.md): the JavaScript and TypeScript syntaxes two-face ships make
//! syntect's `parse_line` loop forever on `a /* c */`-like lines (a non-consuming `set` its
//! loop guard misses), so `js`/`jsx`/`ts`/`tsx` use syntect's own JavaScript syntax instead.
//! One call highlights at most [`MAX_CODE_BYTES`] and lines up to [`MAX_LINE_BYTES`], and
//! stops after [`TIME_BUDGET`]; the rest of the block stays plain. Workers call
//! [`Highlighter::highlight_within`], which runs the call on a bounded set of threads and
//! gives plain lines when it misses its deadline (that syntax is then never highlighted again
//! in this process, so a loop syntect cannot escape holds at most one thread).

use std::collections::HashSet;
use std::collections::{HashMap, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

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

/// Bytes of code one highlight call colours; the rest of a larger block stays plain.
pub const MAX_CODE_BYTES: usize = 256 * 1024;

/// A source line longer than this many bytes (minified code, pathological nesting: syntect
/// is quadratic in nested contexts on one line) ends highlighting: it and the rest are plain.
pub const MAX_LINE_BYTES: usize = 4096;

/// Wall-clock time after which one highlight call stops colouring (checked between lines).
pub const TIME_BUDGET: Duration = Duration::from_millis(300);

/// How many highlight threads [`Highlighter::highlight_within`] keeps at once, counting
/// ones still busy after their deadline.
pub const MAX_THREADS: usize = 2;

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
    /// syntect's own syntaxes, for the JavaScript family (see the module header).
    defaults: OnceLock<SyntaxSet>,
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
        "ts" | "typescript" | "mts" | "cts" | "tsx" | "js" | "javascript" | "node" | "mjs"
        | "cjs" | "jsx" => JS_TOKEN,
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

/// The lookup token of the JavaScript family, answered from syntect's own syntax set.
const JS_TOKEN: &str = "js";

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

    /// The syntax for `lang` and the set it belongs to.
    fn find_syntax(&self, lang: &str) -> Option<(&SyntaxReference, &SyntaxSet)> {
        let token = lookup_token(lang)?;
        let ss = if token == JS_TOKEN {
            self.defaults.get_or_init(SyntaxSet::load_defaults_newlines)
        } else {
            self.syntaxes()
        };
        let syntax = ss
            .find_syntax_by_token(&token)
            .or_else(|| ss.find_syntax_by_name(lang.trim()))?;
        (syntax.name != "Plain Text").then_some((syntax, ss))
    }

    /// The syntect syntax name a fence language maps to (`"rs"` → `Some("Rust")`), or `None`
    /// when the code would be shown plain.
    pub fn syntax_name(&self, lang: &str) -> Option<String> {
        self.find_syntax(lang).map(|(s, _)| s.name.clone())
    }

    /// [`Highlighter::highlight`] on a thread of a bounded set ([`MAX_THREADS`]), waiting at
    /// most `deadline` (for a free thread and for the result together). Gives
    /// [`plain_lines`] when the deadline passes, when every thread is busy, or when the
    /// syntax of `lang` already missed a deadline in this process.
    pub fn highlight_within(
        &'static self,
        code: &str,
        lang: &str,
        theme: SyntaxTheme,
        deadline: Duration,
    ) -> Vec<Line> {
        let Some(name) = self.syntax_name(lang) else {
            return plain_lines(code);
        };
        let (code_owned, lang_owned) = (code.to_string(), lang.to_string());
        bounded(&name, deadline, move || {
            self.highlight(&code_owned, &lang_owned, theme)
        })
        .unwrap_or_else(|| plain_lines(code))
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
        let Some((syntax, ss)) = self.find_syntax(lang) else {
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
        let started = Instant::now();
        let mut h = HighlightLines::new(syntax, self.themes().get(theme.0));
        let mut lines = Vec::new();
        let mut seen = 0usize;
        for src in LinesWithEndings::from(code) {
            seen += src.len();
            if src.len() > MAX_LINE_BYTES
                || seen > MAX_CODE_BYTES
                || started.elapsed() > TIME_BUDGET
            {
                break;
            }
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

/// Threads running [`bounded`] work, counting ones past their deadline.
static LIVE: Mutex<usize> = Mutex::new(0);
/// Signalled when a [`LIVE`] thread ends.
static FREED: Condvar = Condvar::new();
/// Syntax names whose highlighting missed a deadline: shown plain from then on.
static OVERRAN: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Run `work` on a new thread when fewer than [`MAX_THREADS`] are live (waiting for one to
/// end until `deadline`), and wait for its result until `deadline`. `None` when `name` overran
/// before, no thread was free in time, the thread could not start, or the deadline passed
/// (then `name` is remembered in [`OVERRAN`]).
fn bounded(
    name: &str,
    deadline: Duration,
    work: impl FnOnce() -> Vec<Line> + Send + 'static,
) -> Option<Vec<Line>> {
    let overran = |name: &str| {
        OVERRAN
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|s| s.contains(name))
    };
    if overran(name) {
        return None;
    }
    let end = Instant::now() + deadline;
    {
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        while *live >= MAX_THREADS {
            let left = end.checked_duration_since(Instant::now())?;
            live = FREED
                .wait_timeout(live, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        *live += 1;
    }
    let (tx, rx) = crossbeam_channel::bounded(1);
    let spawned = std::thread::Builder::new()
        .name("skillnav-highlight".into())
        .spawn(move || {
            // Free the slot even if `work` panics.
            struct Slot;
            impl Drop for Slot {
                fn drop(&mut self) {
                    let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
                    *live = live.saturating_sub(1);
                    FREED.notify_one();
                }
            }
            let _slot = Slot;
            let _ = tx.send(work());
        });
    if spawned.is_err() {
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        *live = live.saturating_sub(1);
        return None;
    }
    let left = end.saturating_duration_since(Instant::now());
    match rx.recv_timeout(left) {
        Ok(lines) => Some(lines),
        Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
            OVERRAN
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert_with(HashSet::new)
                .insert(name.to_string());
            None
        }
        Err(crossbeam_channel::RecvTimeoutError::Disconnected) => None,
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

    /// Run `f` on a thread and fail (instead of hanging the test run) if it has not returned
    /// after a generous 60 s: a hang guard, not a timing assertion.
    fn returns<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(60))
            .expect("the highlight call never returned")
    }

    fn text(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    #[test]
    fn js_fence_with_a_trailing_block_comment_returns_highlighted() {
        for (lang, code) in [
            ("js", "export default app /* comment */\n"),
            ("javascript", "a /*\n"),
            ("jsx", "x++ /* c */\n"),
            ("ts", "let a = b /* c */\n"),
            ("tsx", "1 /* c */\n"),
        ] {
            let lines =
                returns(move || Highlighter::new().highlight(code, lang, SyntaxTheme::DARK));
            assert_eq!(text(&lines), vec![code.trim_end().to_string()], "{lang}");
            assert!(
                lines[0].spans.iter().all(|s| s.style.fg.is_some()),
                "{lang} coloured"
            );
        }
        assert_eq!(
            Highlighter::new().syntax_name("ts").as_deref(),
            Some("JavaScript")
        );
    }

    #[test]
    fn bash_line_of_20000_nested_parameter_expansions_returns_plain() {
        let code = format!("{}\n", "${".repeat(20_000));
        let lines = returns(move || Highlighter::new().highlight(&code, "bash", SyntaxTheme::DARK));
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].spans.len(), 1);
        assert_eq!(
            lines[0].spans[0].style.fg, None,
            "over MAX_LINE_BYTES: plain"
        );
        assert_eq!(lines[0].spans[0].text.len(), 40_000);
    }

    #[test]
    fn bounded_gives_none_past_its_deadline_and_then_skips_that_syntax() {
        let slow = || {
            std::thread::sleep(Duration::from_secs(2));
            Vec::new()
        };
        assert!(bounded("Slow Test Syntax", Duration::from_millis(50), slow).is_none());
        // Remembered: a second call does not start another thread.
        let ran = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = ran.clone();
        let again = bounded("Slow Test Syntax", Duration::from_secs(5), move || {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            Vec::new()
        });
        assert!(again.is_none());
        assert!(!ran.load(std::sync::atomic::Ordering::SeqCst));
        // Another syntax still runs and returns its lines.
        let quick = bounded("Quick Test Syntax", Duration::from_secs(30), || {
            plain_lines("x")
        });
        assert_eq!(quick.map(|l| text(&l)), Some(vec!["x".to_string()]));
    }

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
