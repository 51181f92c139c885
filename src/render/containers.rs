//! Custom containers of `VitePress` and `markdown-it` (`::: warning` … `:::`, `::: code-group`,
//! `::: details Title`): the markdown is cut at their fence lines, so each stretch between
//! them is parsed on its own and the renderer draws the container as a titled block. Lines
//! inside fenced code never count as container fences.

use std::ops::Range;

/// A stretch of the source between container fences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Markdown text: a byte range of the source.
    Text(Range<usize>),
    /// An opening fence at byte `at`: its kind (`warning`, `code-group`, lower-cased) and
    /// the title shown (the words after the kind, else the kind's usual title; `""` for a
    /// code group, whose blocks carry their own labels).
    Open {
        /// Byte offset of the fence line.
        at: usize,
        /// The container kind, lower-cased.
        kind: String,
        /// The title line shown above the content.
        title: String,
    },
    /// A closing fence at byte `at`.
    Close {
        /// Byte offset of the fence line.
        at: usize,
    },
}

/// Cut `text` at its container fences. A text without any gives one [`Piece::Text`]; a
/// closing fence with nothing open stays text; containers left open close at the next
/// heading or at the end.
pub fn split(text: &str) -> Vec<Piece> {
    let mut s = Splitter::default();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let at = pos;
        pos += line.len();
        s.line(text, line, at);
    }
    s.finish(text.len())
}

/// The state of [`split`] between lines.
#[derive(Default)]
struct Splitter {
    out: Vec<Piece>,
    /// Start of the text not yet in `out`.
    start: usize,
    /// Containers open.
    depth: usize,
    /// The open code fence: its character and length.
    fence: Option<(char, usize)>,
    /// The innermost container closes at the next blank line (its content began on its
    /// fence line and no closing fence follows).
    close_at_blank: bool,
}

impl Splitter {
    /// Take in `line` of `text`, which starts at byte `at`.
    fn line(&mut self, text: &str, line: &str, at: usize) {
        let pos = at + line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start_matches(' ').len();
        let t = body.trim_start_matches(' ');
        if self.in_code(t, indent) || indent > 3 || self.code_fence_opens(t) {
            return;
        }
        if self.close_at_blank && self.depth > 0 && t.trim().is_empty() {
            self.close_at_blank = false;
            self.close(at, at, at);
            return;
        }
        // A heading ends every open container (one whose closing fence was lost, as in
        // flattened Skill_Seekers pages, must not swallow the rest of the page).
        let hashes = t.chars().take_while(|&x| x == '#').count();
        if self.depth > 0 && (1..=6).contains(&hashes) && t[hashes..].starts_with([' ', '\t']) {
            self.out.push(Piece::Text(self.start..at));
            for _ in 0..self.depth {
                self.out.push(Piece::Close { at });
            }
            self.depth = 0;
            self.start = at;
        }
        let colons = t.chars().take_while(|&x| x == ':').count();
        if colons < 3 {
            self.closes_at_line_end(body, at, pos);
            return;
        }
        let rest = t[colons..].trim();
        if rest.is_empty() {
            if self.depth > 0 {
                self.close(at, at, pos);
            }
            return;
        }
        self.opening_fence(text, line, rest, at);
    }

    /// Whether the line is inside an open code fence (closing it when it is the fence's
    /// end).
    fn in_code(&mut self, t: &str, indent: usize) -> bool {
        let Some((c, n)) = self.fence else {
            return false;
        };
        let run = t.chars().take_while(|&x| x == c).count();
        if indent <= 3 && run >= n && t[run * c.len_utf8()..].trim().is_empty() {
            self.fence = None;
        }
        true
    }

    /// Whether the line opens a code fence (three or more backticks or tildes).
    fn code_fence_opens(&mut self, t: &str) -> bool {
        if let Some(c) = t.chars().next().filter(|c| *c == '`' || *c == '~') {
            let run = t.chars().take_while(|&x| x == c).count();
            if run >= 3 {
                self.fence = Some((c, run));
                return true;
            }
        }
        false
    }

    /// Close the innermost container: the text up to `end`, the close at `at`; what
    /// follows starts at `next`.
    fn close(&mut self, end: usize, at: usize, next: usize) {
        self.depth -= 1;
        self.out.push(Piece::Text(self.start..end));
        self.out.push(Piece::Close { at });
        self.start = next;
    }

    /// A flattened container (`Skill_Seekers` output) closes at the end of a line:
    /// `… last words. :::`.
    fn closes_at_line_end(&mut self, body: &str, at: usize, pos: usize) {
        if self.depth > 0
            && let Some(cut) = body.trim_end().strip_suffix(":::")
            && cut.ends_with(' ')
        {
            let end = at + cut.trim_end().len();
            self.close(end, end, pos);
        }
    }

    /// An opening fence `::: kind …` (`rest`: what follows the colons) on `line` at `at`:
    /// a titled container, a whole container on one line, or content on the fence line.
    fn opening_fence(&mut self, text: &str, line: &str, rest: &str, at: usize) {
        let pos = at + line.len();
        let kind_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        if kind_end == 0 {
            return;
        }
        let kind = rest[..kind_end].to_lowercase();
        let own = rest[kind_end..].trim();
        // Where `own` starts in `text` (`rest` is a sub-slice of `line`).
        let own_at = at + (own.as_ptr() as usize - line.as_ptr() as usize);
        self.out.push(Piece::Text(self.start..at));
        if own.is_empty() || is_title(own) {
            let title = if own.is_empty() {
                default_title(&kind)
            } else {
                own.to_string()
            };
            self.depth += 1;
            self.out.push(Piece::Open { at, kind, title });
            self.start = pos;
        } else if let Some(body) = own.strip_suffix(":::") {
            // A whole container on one line: `::: info Some text. :::`.
            let title = default_title(&kind);
            self.out.push(Piece::Open { at, kind, title });
            self.out
                .push(Piece::Text(own_at..own_at + body.trim_end().len()));
            self.out.push(Piece::Close { at: pos });
            self.start = pos;
        } else {
            // Content on the fence line: `::: warning You can't use …`. Without a closing
            // fence ahead (flattened output lost it) the container is its paragraph.
            let title = default_title(&kind);
            self.depth += 1;
            self.out.push(Piece::Open { at, kind, title });
            self.start = own_at;
            self.close_at_blank = !closes_ahead(&text[pos..]);
        }
    }

    /// The pieces, once the text (`len` bytes) is read: the rest as text, and the
    /// containers still open closed at its end.
    fn finish(mut self, len: usize) -> Vec<Piece> {
        self.out.push(Piece::Text(self.start..len));
        for _ in 0..self.depth {
            self.out.push(Piece::Close { at: len });
        }
        self.out
            .retain(|p| !matches!(p, Piece::Text(r) if r.is_empty()));
        self.out
    }
}

/// Whether `rest` (the lines after a container's fence line) closes it before the next
/// heading or opening fence: a lone `:::` line or a line ending in ` :::`.
fn closes_ahead(rest: &str) -> bool {
    for line in rest.lines() {
        let t = line.trim();
        let colons = t.chars().take_while(|&c| c == ':').count();
        if colons >= 3 {
            // A lone fence closes; a fence with a kind opens another container.
            return t[colons..].trim().is_empty();
        }
        if t.starts_with('#') {
            return false;
        }
        if t.ends_with(" :::") {
            return true;
        }
    }
    false
}

/// Whether the words after a container's kind are its title (`::: details Click me`) rather
/// than content run onto the fence line: short, no markup, not ending a sentence.
fn is_title(own: &str) -> bool {
    own.chars().count() <= 40
        && !own.contains(['`', '*', '[', '<', '_'])
        && !own.ends_with(['.', ':', '!', '?'])
}

/// The usual title of a container kind: `TIP`, `WARNING`, … (`Details` for a details
/// block, none for a code group).
fn default_title(kind: &str) -> String {
    match kind {
        "code-group" => String::new(),
        "details" => "Details".to_string(),
        other => other.to_uppercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_one_piece() {
        assert_eq!(split("# A\n\ntext\n"), [Piece::Text(0..10)]);
        assert_eq!(split("a\n:::\nb\n"), [Piece::Text(0..8)]);
    }

    #[test]
    fn containers_cut_the_text() {
        let text = "a\n::: warning\nb\n:::\n::: tip Read this\n:::\n";
        assert_eq!(
            split(text),
            [
                Piece::Text(0..2),
                Piece::Open {
                    at: 2,
                    kind: "warning".into(),
                    title: "WARNING".into()
                },
                Piece::Text(14..16),
                Piece::Close { at: 16 },
                Piece::Open {
                    at: 20,
                    kind: "tip".into(),
                    title: "Read this".into()
                },
                Piece::Close { at: 38 },
            ]
        );
    }

    #[test]
    fn flattened_containers_keep_their_content_and_close_at_the_line_end() {
        let text = "::: info **Node.js**: uses `x`. :::\n::: warning You can't use `y`:\n\nmore. :::\nafter\n";
        let pieces = split(text);
        let texts: Vec<&str> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Text(r) => Some(&text[r.clone()]),
                _ => None,
            })
            .collect();
        assert_eq!(
            texts,
            [
                "**Node.js**: uses `x`.",
                "You can't use `y`:\n\nmore.",
                "after\n"
            ]
        );
        let titles: Vec<&str> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Open { title, .. } => Some(title.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(titles, ["INFO", "WARNING"]);
        assert_eq!(
            pieces
                .iter()
                .filter(|p| matches!(p, Piece::Close { .. }))
                .count(),
            2
        );
    }

    #[test]
    fn a_flattened_container_without_a_close_is_its_paragraph() {
        let text = "::: warning You can't use `x`:\n\nBy defining y.\n";
        assert_eq!(
            split(text),
            [
                Piece::Open {
                    at: 0,
                    kind: "warning".into(),
                    title: "WARNING".into()
                },
                Piece::Text(12..31),
                Piece::Close { at: 31 },
                Piece::Text(31..47),
            ]
        );
    }

    #[test]
    fn a_heading_closes_a_container_left_open() {
        let text = "::: warning\nx\n## Next\ny\n";
        assert_eq!(
            split(text),
            [
                Piece::Open {
                    at: 0,
                    kind: "warning".into(),
                    title: "WARNING".into()
                },
                Piece::Text(12..14),
                Piece::Close { at: 14 },
                Piece::Text(14..24),
            ]
        );
    }

    #[test]
    fn fences_inside_code_do_not_count_and_open_ones_close_at_the_end() {
        let text = "::: code-group\n```sh [npm]\n:::\n```\n";
        assert_eq!(
            split(text),
            [
                Piece::Open {
                    at: 0,
                    kind: "code-group".into(),
                    title: String::new()
                },
                Piece::Text(15..35),
                Piece::Close { at: 35 },
            ]
        );
    }
}
