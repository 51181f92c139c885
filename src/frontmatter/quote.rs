//! Writing scalars and lists back as YAML with the least quoting that reads back as the
//! same string (YAML 1.2 §7.3 plain-scalar rules; the goal: "quoted correctly", "never
//! re-quoted" when untouched). Two rules: [`plain_ok`] is structural (the plain text parses
//! back to the same characters; `repair` uses it on values already in a file, so an unedited
//! `version: 1.10` stays plain), and [`least_quoting`] adds type safety for values being
//! written (no YAML 1.1/1.2 reader may read them as a number, bool, null or date; see
//! `resolve`). Renderings are checked by re-parsing in `edit`.

use super::scalar::Chomp;

/// How a scalar is rendered on one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quoting {
    /// As written, no quotes.
    Plain,
    /// `'…'` with `''` for a quote.
    Single,
    /// `"…"` with backslash escapes.
    Double,
}

/// Context a scalar is written in: a block value (`key: v`, `- v`) or a flow item
/// (`[v, …]`), where `,[]{}` also end a plain scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// After `key: ` or `- `.
    Block,
    /// Inside `[…]`.
    Flow,
}

fn is_printable(c: char) -> bool {
    !(c.is_control() || c == '\u{feff}' || c == '\u{2028}' || c == '\u{2029}')
}

/// True when `s` can be written plain in `ctx` and parses back as exactly the characters
/// of `s` (structure only: a string-typed reader keeps `1.10` and `yes` as written, so
/// this is true for them; [`least_quoting`] also rules out typed values).
pub fn plain_ok(s: &str, ctx: Context) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if s.starts_with([' ', '\t'])
        || s.ends_with([' ', '\t'])
        || !s.chars().all(|c| c != '\t' && is_printable(c))
    {
        return false;
    }
    let second = s[first.len_utf8()..].chars().next();
    let bad_start = match first {
        '-' | '?' | ':' => {
            second.is_none_or(|c| c == ' ' || (ctx == Context::Flow && ",[]{}".contains(c)))
        }
        ',' | '[' | ']' | '{' | '}' | '#' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%'
        | '@' | '`' => true,
        _ => false,
    };
    if bad_start {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.ends_with(':') || s == "---" || s == "..." {
        return false;
    }
    if ctx == Context::Flow && s.contains([',', '[', ']', '{', '}']) {
        return false;
    }
    if ctx == Context::Flow && s.contains(':') {
        return false;
    }
    true
}

/// The YAML c-indicator characters (YAML 1.2 §5.3, production 22 `c-indicator`).
pub const INDICATORS: &str = "-?:,[]{}#&*!|>'\"%@`";

/// True when a value being WRITTEN may be plain in `ctx`: [`plain_ok`], it does not start
/// with an indicator character ([`INDICATORS`]; even `-x` or `:x`, which YAML would allow),
/// and no YAML 1.1 or 1.2 reader resolves it to a non-string
/// ([`super::resolve::is_typed_plain`]: numbers of any form such as `2.10`, `1e3`, `0x1F`,
/// `.inf`; `yes`/`no`/`on`/`off`/`y`/`n`/`true`/`false` in any case; `null`, `~`, empty;
/// dates and timestamps such as `2024-01-01`; `<<`, `=`). Anything else is clearly a
/// string and stays plain (`Read`, `v1.0`, `my-skill`, `Use when asked`).
pub fn plain_safe(s: &str, ctx: Context) -> bool {
    plain_ok(s, ctx)
        && !s.starts_with(|c| INDICATORS.contains(c))
        && !super::resolve::is_typed_plain(s)
}

/// The least quoting for a one-line value `s` being written in `ctx`: plain when
/// [`plain_safe`], single quotes when `s` has only printable characters, double quotes
/// otherwise. So `2.10` → `'2.10'`, `no` → `'no'`, `hello` → `hello`.
pub fn least_quoting(s: &str, ctx: Context) -> Quoting {
    if plain_safe(s, ctx) {
        Quoting::Plain
    } else if s.chars().all(is_printable) {
        Quoting::Single
    } else {
        Quoting::Double
    }
}

/// Render `s` with `q`; falls back to double quotes when `q` cannot hold `s`.
pub fn render(s: &str, q: Quoting, ctx: Context) -> String {
    match q {
        Quoting::Plain if plain_ok(s, ctx) => s.to_string(),
        Quoting::Single | Quoting::Plain if s.chars().all(is_printable) => {
            format!("'{}'", s.replace('\'', "''"))
        }
        _ => double_quote(s),
    }
}

/// `s` as a double-quoted YAML scalar with escapes for `"`, `\` and non-printables.
pub fn double_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            '\u{1b}' => out.push_str("\\e"),
            '\u{85}' => out.push_str("\\N"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            c if !is_printable(c) => {
                let n = u32::from(c);
                if n <= 0xff {
                    out.push_str(&format!("\\x{n:02X}"));
                } else {
                    out.push_str(&format!("\\u{n:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Split a multi-line value into body lines and chomping: the value without its trailing
/// newlines, and the chomping indicator plus trailing empty-line count it needs.
fn chomp_of(s: &str) -> (&str, Chomp, usize) {
    let body = s.trim_end_matches('\n');
    let n = s.len() - body.len();
    match n {
        0 => (body, Chomp::Strip, 0),
        1 => (body, Chomp::Clip, 0),
        n => (body, Chomp::Keep, n - 1),
    }
}

fn chomp_char(c: Chomp) -> &'static str {
    match c {
        Chomp::Strip => "-",
        Chomp::Clip => "",
        Chomp::Keep => "+",
    }
}

/// A block scalar rendering: the header (`|-`, `>`, `|2+`) and the content lines, each
/// already indented by `indent` spaces (empty lines stay empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockText {
    /// Header text, e.g. `|-`.
    pub header: String,
    /// Content lines without line endings.
    pub lines: Vec<String>,
}

/// Render `s` as a literal block (`|`) whose content is indented `step` (1–9) spaces deeper
/// than the key at column `parent`, or `None` when a literal block cannot hold it
/// (non-printable characters, `\r`, a whitespace-only line).
pub fn literal_block(s: &str, parent: usize, step: usize) -> Option<BlockText> {
    let indent = parent + step;
    if !s.chars().all(|c| c == '\n' || c == '\t' || is_printable(c)) || s.is_empty() {
        return None;
    }
    let (body, chomp, extra) = chomp_of(s);
    if body.is_empty() {
        return None;
    }
    let pad = " ".repeat(indent);
    let mut lines: Vec<String> = body
        .split('\n')
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{pad}{l}")
            }
        })
        .collect();
    // A whitespace-only line shorter than or equal to the indentation would read as empty.
    if body
        .split('\n')
        .any(|l| !l.is_empty() && l.trim_matches([' ', '\t']).is_empty())
    {
        return None;
    }
    let first = body.split('\n').find(|l| !l.is_empty()).unwrap_or("");
    let ind = if first.starts_with([' ', '\t']) {
        step.to_string()
    } else {
        String::new()
    };
    lines.extend(std::iter::repeat_n(String::new(), extra));
    Some(BlockText {
        header: format!("|{ind}{}", chomp_char(chomp)),
        lines,
    })
}

/// Render `s` as a folded block (`>`) indented by `indent` spaces, wrapping at single
/// spaces so content lines stay within about `width` columns; `None` when folding cannot
/// hold `s` exactly (a line starting or ending with white space, tabs, non-printables).
pub fn folded_block(s: &str, indent: usize, width: usize) -> Option<BlockText> {
    if s.is_empty()
        || !s
            .chars()
            .all(|c| c == '\n' || (c != '\t' && is_printable(c)))
    {
        return None;
    }
    let (body, chomp, extra) = chomp_of(s);
    if body.is_empty() {
        return None;
    }
    let pad = " ".repeat(indent);
    let mut lines = Vec::new();
    let segs: Vec<&str> = body.split('\n').collect();
    let mut pending_breaks = 0usize;
    let mut first = true;
    for seg in segs {
        if seg.is_empty() {
            pending_breaks += 1;
            continue;
        }
        if seg.starts_with(' ') || seg.ends_with(' ') {
            return None;
        }
        // Between two content segments YAML folds k empty lines into k newlines, and a
        // single break into a space; a value newline therefore needs one empty line.
        let empties = if first {
            pending_breaks
        } else {
            pending_breaks + 1
        };
        lines.extend(std::iter::repeat_n(String::new(), empties));
        pending_breaks = 0;
        first = false;
        wrap(seg, width.saturating_sub(indent).max(20), &pad, &mut lines);
    }
    if first {
        return None;
    }
    lines.extend(std::iter::repeat_n(String::new(), extra));
    Some(BlockText {
        header: format!(">{}", chomp_char(chomp)),
        lines,
    })
}

/// Wrap `seg` at single spaces (never where a space run would be split) into lines of at
/// most `width` bytes where possible.
fn wrap(seg: &str, width: usize, pad: &str, out: &mut Vec<String>) {
    let b = seg.as_bytes();
    let mut start = 0;
    let mut last_break = None;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b' ' && i > 0 && b[i - 1] != b' ' && b.get(i + 1).is_some_and(|&c| c != b' ') {
            last_break = Some(i);
        }
        if i - start >= width
            && let Some(br) = last_break.filter(|&br| br > start)
        {
            out.push(format!("{pad}{}", &seg[start..br]));
            start = br + 1;
            last_break = None;
        }
        i += 1;
    }
    out.push(format!("{pad}{}", &seg[start..]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_when_safe_quotes_otherwise() {
        assert_eq!(least_quoting("v1.10", Context::Block), Quoting::Plain);
        assert_eq!(least_quoting("yesterday", Context::Block), Quoting::Plain);
        assert_eq!(
            least_quoting("Use when: x", Context::Block),
            Quoting::Single
        );
        assert_eq!(least_quoting("'q' start", Context::Block), Quoting::Single);
        assert_eq!(least_quoting("# hash", Context::Block), Quoting::Single);
        assert_eq!(least_quoting("a #b", Context::Block), Quoting::Single);
        assert_eq!(least_quoting("a#b", Context::Block), Quoting::Plain);
        assert_eq!(least_quoting("", Context::Block), Quoting::Single);
        assert_eq!(least_quoting("tab\there", Context::Block), Quoting::Double);
        assert_eq!(least_quoting("b, c", Context::Flow), Quoting::Single);
        assert_eq!(least_quoting("Bash(git:*)", Context::Flow), Quoting::Single);
        assert_eq!(least_quoting("Bash(git:*)", Context::Block), Quoting::Plain);
        assert_eq!(least_quoting("- x", Context::Block), Quoting::Single);
    }

    #[test]
    fn set_values_yaml_readers_would_coerce_are_quoted() {
        for s in [
            "2.10", "1.0", "no", "No", "ON", "y", "1e3", ".5", "0x1F", "0o7", "+1", "1_000",
            ".inf", ".nan",
        ] {
            assert_eq!(least_quoting(s, Context::Block), Quoting::Single, "{s}");
            assert_eq!(least_quoting(s, Context::Flow), Quoting::Single, "{s}");
            assert!(
                plain_ok(s, Context::Block),
                "{s} stays plain when merely repaired"
            );
        }
        for s in [
            "null",
            "Null",
            "~",
            "2024-01-01",
            "-x",
            ":x",
            "?x",
            "@x",
            "%x",
            "`x",
        ] {
            assert_eq!(least_quoting(s, Context::Block), Quoting::Single, "{s}");
        }
        assert_eq!(
            render(
                "2.10",
                least_quoting("2.10", Context::Block),
                Context::Block
            ),
            "'2.10'"
        );
        for s in [
            "v1.0",
            "1.0-beta",
            "Read",
            "my-skill",
            "Use when asked",
            "a-b",
            "x:y",
        ] {
            assert_eq!(least_quoting(s, Context::Block), Quoting::Plain, "{s}");
        }
    }

    #[test]
    fn renders_single_and_double() {
        assert_eq!(
            render("it's: x", Quoting::Single, Context::Block),
            "'it''s: x'"
        );
        assert_eq!(
            render("a\"b\\\n\u{1}", Quoting::Double, Context::Block),
            "\"a\\\"b\\\\\\n\\x01\""
        );
    }

    #[test]
    fn literal_block_chomping_and_indent_indicator() {
        let b = literal_block("a\n\nb", 0, 2).unwrap();
        assert_eq!(
            b,
            BlockText {
                header: "|-".into(),
                lines: vec!["  a".into(), String::new(), "  b".into()]
            }
        );
        assert_eq!(literal_block("a\n", 0, 2).unwrap().header, "|");
        assert_eq!(
            literal_block("a\n\n\n", 0, 2).unwrap().lines,
            ["  a", "", ""]
        );
        assert_eq!(literal_block("  x\ny", 2, 2).unwrap().header, "|2-");
        assert_eq!(
            literal_block("  x\ny", 2, 2).unwrap().lines,
            ["      x", "    y"]
        );
    }

    #[test]
    fn folded_block_wraps_and_marks_newlines_with_empty_lines() {
        let b = folded_block("aaaa bbbb cccc dddd eeee ffff\nggg\n", 2, 22).unwrap();
        assert_eq!(b.header, ">");
        assert_eq!(
            b.lines,
            ["  aaaa bbbb cccc dddd", "  eeee ffff", "", "  ggg"]
        );
        assert_eq!(folded_block(" x", 2, 80), None);
    }
}
