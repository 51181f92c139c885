//! Commands that run what they download (docs/AGENTS.md "Safety lints"):
//!
//! - `safety-pipe-shell`: a downloader (`curl`, `wget`, `iwr`/`Invoke-WebRequest`, `irm`/
//!   `Invoke-RestMethod`) piped into an interpreter that runs its standard input (`sh`,
//!   `bash`, `zsh`, `python`, `perl`, `ruby`, `node`, `pwsh`, `iex`), also through filters
//!   (`| tee log | sh`) and across `\` line continuations, or fed to one by substitution
//!   (`bash <(curl …)`, `python3 <(curl …)`, `sh -c "$(curl …)"`, `ruby -e "$(curl …)"`,
//!   `source <(wget …)`), or PowerShell's `iex (iwr …)` / `iex ((New-Object
//!   Net.WebClient).DownloadString(…))`. `| python -m json.tool`, `| jq` and `| python
//!   script.py` read the download as data and are not flagged.
//! - `safety-download-exec`: a file downloaded to disk (`curl -o/-O`, `wget`, `iwr
//!   -OutFile`, `certutil -urlcache`, `.DownloadFile(…)`) and then run or made executable
//!   (`chmod +x`, `./file`, `sh file`, `python file`, `Start-Process file`) on that line
//!   or one of the next [`EXEC_WINDOW`] lines; and, outside code blocks of markdown, a
//!   sentence telling the reader to download something and run it that names a URL or an
//!   installer file (`.exe`, `.msi`, `.sh`, `.ps1`, …).

use super::unicode::Hit;

/// Lines after a download that are searched for the command running the file.
pub const EXEC_WINDOW: usize = 3;

const DOWNLOADERS: [&str; 6] = [
    "curl",
    "wget",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
];
const SHELLS: [&str; 8] = [
    "sh",
    "bash",
    "zsh",
    "ksh",
    "dash",
    "fish",
    "pwsh",
    "powershell",
];
const INTERPRETERS: [&str; 9] = [
    "python", "python2", "python3", "perl", "ruby", "node", "php", "deno", "bun",
];
/// Installer-like file extensions for the prose rule.
const INSTALLER_EXTS: [&str; 12] = [
    ".exe",
    ".msi",
    ".sh",
    ".ps1",
    ".bat",
    ".cmd",
    ".pkg",
    ".dmg",
    ".appimage",
    ".run",
    ".bin",
    ".deb",
];

/// Words that must be on a line (lower-case) for the command rules to look at it.
const CUES: [&str; 8] = [
    "curl",
    "wget",
    "iwr",
    "irm",
    "invoke-",
    "download",
    "certutil",
    "bitstransfer",
];

/// The findings of `text` (compared in ASCII lower case); `markdown` enables the prose
/// rule (outside fenced code).
pub fn scan(text: &str, markdown: bool) -> Vec<Hit> {
    let lower_text = text.to_ascii_lowercase();
    let lines: Vec<(u32, &str)> = crate::skill::files::numbered_lines(&lower_text).collect();
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for (i, (n, physical)) in lines.iter().enumerate() {
        let in_code = markdown && track_fence(&mut fence, physical);
        // A line a `\` continues was scanned as part of the line it continues.
        if i > 0 && continued(lines[i - 1].1) {
            continue;
        }
        let joined = joined_line(&lines[i..]);
        let lower = joined.as_ref();
        if !CUES.iter().any(|c| lower.contains(c)) {
            continue;
        }
        // A markdown table row's `|` are cell borders, not pipes (`| curl | bash |`).
        let table_row = markdown && {
            let t = lower.trim();
            t.len() > 1 && t.starts_with('|') && t.ends_with('|')
        };
        let how = if table_row {
            substituted_download(lower)
        } else {
            pipe_to_interpreter(lower)
        };
        if let Some(how) = how {
            out.push((
                "safety-pipe-shell",
                *n,
                format!("{how}: code from the network runs unseen, without a file to review"),
            ));
            continue;
        }
        if let Some(file) = downloaded_file(lower) {
            let window = &lines[i..(i + 1 + EXEC_WINDOW).min(lines.len())];
            if window.iter().any(|(_, l)| runs_file(l, &file)) {
                out.push((
                    "safety-download-exec",
                    *n,
                    format!("downloads {file:?} and then runs it or makes it executable"),
                ));
                continue;
            }
        }
        if markdown && !in_code && prose_download_and_run(lower) {
            out.push((
                "safety-download-exec",
                *n,
                "tells the reader to download a program and run it".into(),
            ));
        }
    }
    out
}

/// Whether `line` ends in a shell line continuation (`\`).
fn continued(line: &str) -> bool {
    line.trim_end().ends_with('\\')
}

/// The command line that starts at `lines[0]`: joined with the lines its `\` continuations
/// take in (at most [`MAX_CONTINUED`]), each `\` and line break read as a space.
fn joined_line<'a>(lines: &[(u32, &'a str)]) -> std::borrow::Cow<'a, str> {
    let first = lines[0].1;
    if !continued(first) {
        return std::borrow::Cow::Borrowed(first);
    }
    let mut out = String::new();
    for (_, l) in lines.iter().take(MAX_CONTINUED + 1) {
        let more = continued(l);
        out.push_str(if more {
            &l.trim_end()[..l.trim_end().len() - 1]
        } else {
            l
        });
        out.push(' ');
        if !more {
            break;
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Most lines a `\` continuation joins to the line it starts on.
const MAX_CONTINUED: usize = 20;

/// Track fenced code blocks (```` ``` ```` / `~~~`): returns whether `line` is inside one
/// (fence lines included).
fn track_fence(fence: &mut Option<String>, line: &str) -> bool {
    let t = line.trim_start();
    let marker: String = t.chars().take_while(|c| *c == '`' || *c == '~').collect();
    let is_fence = marker.len() >= 3
        && marker
            .chars()
            .all(|c| c == marker.chars().next().unwrap_or('`'));
    match fence {
        Some(open) => {
            if is_fence && marker.starts_with(open.as_str()) && t[marker.len()..].trim().is_empty()
            {
                *fence = None;
            }
            true
        }
        None if is_fence => {
            *fence = Some(marker);
            true
        }
        None => false,
    }
}

/// Shell-like words of a command line: split at white space, parentheses, braces, `;`, `&`,
/// `|`, quotes and backquotes.
fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| c.is_whitespace() || "();&\"'`{}|".contains(c))
        .filter(|w| !w.is_empty())
        .collect()
}

/// A program word's base name (`/usr/bin/bash` → `bash`, `python3.12` → `python3`).
fn program(word: &str) -> &str {
    let base = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let base = base.strip_suffix(".exe").unwrap_or(base);
    match base.find('.') {
        Some(i) if base.starts_with("python") => &base[..i],
        _ => base,
    }
}

fn has_downloader(s: &str) -> bool {
    s.contains("downloadstring") || words(s).iter().any(|w| DOWNLOADERS.contains(&program(w)))
}

/// How `line` (lower-case) runs a download without saving it, when it does.
pub fn pipe_to_interpreter(line: &str) -> Option<&'static str> {
    let ws = words(line);
    let iex_at = ws
        .iter()
        .position(|w| *w == "iex" || *w == "invoke-expression");
    if let Some(at) = iex_at {
        let rest = ws[at + 1..].join(" ");
        let before = ws[..at].join(" ");
        if has_downloader(&rest) || (has_downloader(&before) && line.contains('|')) {
            return Some("a download is run by Invoke-Expression");
        }
    }
    // A download flows down the pipeline through any filters (`| tee log | sh`) until a
    // `||` (an empty segment) starts another command.
    let mut downloaded = false;
    for segment in line.split('|') {
        if segment.is_empty() {
            downloaded = false;
            continue;
        }
        if downloaded && runs_stdin(&words(segment)) {
            return Some("a download is piped into an interpreter");
        }
        downloaded |= has_downloader(segment);
    }
    substituted_download(line)
}

/// How `line` (lower-case) runs a download through a substitution (`bash <(curl …)`,
/// `sh -c "$(curl …)"`), when it does.
fn substituted_download(line: &str) -> Option<&'static str> {
    for sub in ["<(", "$("] {
        for (at, _) in line.match_indices(sub) {
            let inner = &line[at + 2..];
            let first = inner
                .split(|c: char| c.is_whitespace() || "();&\"'`{}|".contains(c))
                .find(|w| !w.is_empty())
                .map_or("", program);
            if !DOWNLOADERS.contains(&first) {
                continue;
            }
            let before = words(&line[..at]);
            let runner = before.last().copied().unwrap_or("");
            let runs = SHELLS.contains(&program(runner))
                || INTERPRETERS.contains(&program(runner))
                || matches!(runner, "source" | "." | "eval" | "-c" | "-e");
            if runs {
                return Some("a download is run through a substitution");
            }
        }
    }
    None
}

/// Whether the command words `ws` (the right side of a pipe) run their standard input.
fn runs_stdin(ws: &[&str]) -> bool {
    let mut i = 0;
    while i < ws.len()
        && (matches!(ws[i], "sudo" | "env" | "exec" | "command")
            || ws[i].contains('=')
            || (i > 0 && ws[i].starts_with('-') && matches!(ws[i - 1], "sudo")))
    {
        i += 1;
    }
    let Some(cmd) = ws.get(i).map(|w| program(w)) else {
        return false;
    };
    if cmd == "iex" || cmd == "invoke-expression" {
        return true;
    }
    if !SHELLS.contains(&cmd) && !INTERPRETERS.contains(&cmd) {
        return false;
    }
    match ws.get(i + 1) {
        None => true,
        Some(&"-" | &"--") => true,
        Some(a) if a.starts_with('-') => !matches!(
            *a,
            "-c" | "-m"
                | "-e"
                | "-E"
                | "-r"
                | "-p"
                | "-n"
                | "-command"
                | "-file"
                | "--version"
                | "-h"
                | "--help"
        ),
        Some(_) => false,
    }
}

/// The name of the file `line` (lower-case) downloads to disk, when it does.
pub fn downloaded_file(line: &str) -> Option<String> {
    let ws = words(line);
    let at = ws.iter().position(|w| {
        let p = program(w);
        matches!(
            p,
            "curl" | "wget" | "iwr" | "invoke-webrequest" | "certutil" | "start-bitstransfer"
        )
    });
    if let Some(dl) = line.find(".downloadfile") {
        let args = words(&line[dl..]);
        return args.get(2).map(|s| base_name(s));
    }
    let at = at?;
    let cmd = program(ws[at]);
    let args = &ws[at + 1..];
    let url = args.iter().find(|a| a.contains("://"));
    let value_of = |flags: &[&str]| {
        args.iter()
            .position(|a| flags.contains(a))
            .and_then(|p| args.get(p + 1))
            .map(|s| base_name(s))
    };
    match cmd {
        "curl" => {
            if let Some(f) = value_of(&["-o", "--output"]).or_else(|| {
                args.iter()
                    .position(|a| a.starts_with('-') && !a.starts_with("--") && a.ends_with('o'))
                    .and_then(|p| args.get(p + 1))
                    .map(|s| base_name(s))
            }) {
                return (f != "-" && f != "/dev/null").then_some(f);
            }
            // The line is lower-case, so `-O` (name from the URL) reads as `-o`: a short-flag
            // group holding `o` anywhere but last saves under the URL's name.
            let remote = args.iter().any(|a| {
                *a == "--remote-name"
                    || (a.starts_with('-') && !a.starts_with("--") && a.contains('o'))
            });
            remote.then(|| url.map(|u| base_name(u))).flatten()
        }
        "wget" => {
            if let Some(f) = value_of(&["-o", "--output-document"]) {
                return (f != "-").then_some(f);
            }
            if args
                .iter()
                .any(|a| a.starts_with("-qo-") || a.ends_with("o-"))
            {
                return None;
            }
            url.map(|u| base_name(u))
        }
        "iwr" | "invoke-webrequest" => value_of(&["-outfile"]),
        "certutil" if args.iter().any(|a| a.contains("urlcache")) => args
            .iter()
            .rev()
            .find(|a| !a.contains("://") && !a.starts_with('-'))
            .map(|s| base_name(s)),
        "start-bitstransfer" => value_of(&["-destination"]),
        _ => None,
    }
}

/// The last path segment of `s`, without a query and surrounding quotes.
fn base_name(s: &str) -> String {
    let s = s.split(['?', '#']).next().unwrap_or(s);
    let s = s.trim_end_matches(['/', '\\']);
    s.rsplit(['/', '\\']).next().unwrap_or(s).to_string()
}

/// Whether `line` (lower-case) runs `file` or makes it executable.
fn runs_file(line: &str, file: &str) -> bool {
    if file.is_empty() {
        return false;
    }
    let ws = words(line);
    ws.iter().enumerate().any(|(i, w)| {
        if base_name(w) != file {
            return false;
        }
        let prev = if i > 0 { ws[i - 1] } else { "" };
        let runner = program(prev);
        w.starts_with("./")
            || w.starts_with(".\\")
            || SHELLS.contains(&runner)
            || INTERPRETERS.contains(&runner)
            || matches!(
                runner,
                "start-process"
                    | "msiexec"
                    | "&"
                    | "+x"
                    | "u+x"
                    | "a+x"
                    | "755"
                    | "0755"
                    | "700"
                    | "/i"
            )
    })
}

/// A sentence of prose (lower-case) telling the reader to download something and run it,
/// naming a URL or an installer file. Sentences end at `. `, `!`, `?` and `;`.
fn prose_download_and_run(line: &str) -> bool {
    line.split(". ")
        .flat_map(|s| s.split(['!', '?', ';']))
        .any(|s| {
            let Some(d) = s.find("download") else {
                return false;
            };
            let after = &s[d..];
            let runs = [
                " and run",
                " then run",
                " and execute",
                " then execute",
                " and launch",
                " and double-click",
            ]
            .iter()
            .any(|p| after.contains(p));
            runs && (s.contains("://") || INSTALLER_EXTS.iter().any(|e| s.contains(e)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installers_piped_to_shells_are_flagged() {
        for l in [
            "curl -LsSf https://astral.sh/uv/install.sh | sh",
            "curl -fsSL https://bun.sh/install | bash",
            "wget -qO- https://example.com/i.sh | sudo -E bash -s -- --yes",
            "powershell -c \"irm https://astral.sh/uv/install.ps1 | iex\"",
            "iex (iwr https://example.com/setup.ps1 -UseBasicParsing)",
            "iex ((New-Object System.Net.WebClient).DownloadString('https://x.test/a.ps1'))",
            "/bin/bash -c \"$(curl -fsSL https://raw.githubusercontent.com/x/install.sh)\"",
            "bash <(curl -s https://example.com/setup)",
            "curl https://x.test/get.py | python3 -",
            "python3 <(curl -s https://x.example/i.py)",
            "curl -s https://x.example/i.sh | tee /tmp/x | bash",
        ] {
            assert!(pipe_to_interpreter(&l.to_lowercase()).is_some(), "{l}");
        }
    }

    #[test]
    fn a_pipe_into_a_shell_on_a_continued_line_is_flagged_at_its_first_line() {
        let text = "```sh\ncurl -s https://x.example/i.sh \\\n  | bash\n```\n";
        let hits = scan(text, true);
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!((hits[0].0, hits[0].1), ("safety-pipe-shell", 2));
        // A continued line that runs nothing stays quiet.
        assert!(
            scan(
                "curl -s \\\n  https://x.example/a.json \\\n  | jq .\n",
                false
            )
            .is_empty()
        );
    }

    #[test]
    fn downloads_read_as_data_are_not_flagged() {
        for l in [
            "curl https://api.anthropic.com/v1/models | jq .",
            "curl -s https://x.test/a.json | python3 -m json.tool",
            "curl https://x.test | python parse.py",
            "cat install.sh | less",
            "a || b",
            "curl https://x.test/a || echo failed | bash",
            "diff <(curl -s https://x.test/a) <(curl -s https://x.test/b)",
        ] {
            assert_eq!(pipe_to_interpreter(&l.to_lowercase()), None, "{l}");
        }
    }

    #[test]
    fn table_cells_naming_a_downloader_and_a_shell_are_no_pipe() {
        let row = "| `curl` | `bash` | fetches and runs |";
        assert!(
            pipe_to_interpreter(&row.to_lowercase()).is_some(),
            "as a command line"
        );
        assert!(scan(row, true).is_empty(), "as a markdown table row");
        assert!(!scan("| x | `bash <(curl -s https://x.test/i)` |", true).is_empty());
    }

    #[test]
    fn a_saved_download_that_is_run_is_flagged() {
        let text = "curl -fsSLo get.sh https://x.test/get.sh\nchmod +x get.sh\n./get.sh\n";
        assert_eq!(
            scan(text, false)
                .iter()
                .map(|h| (h.0, h.1))
                .collect::<Vec<_>>(),
            [("safety-download-exec", 1)]
        );
        let not_run = "curl -o data.json https://x.test/data.json\ncat data.json\n";
        assert!(scan(not_run, false).is_empty());
    }
}
