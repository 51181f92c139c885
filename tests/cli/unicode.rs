//! Unicode names and invisible controls: a file name and a heading spelled in NFD (as macOS
//! writes file names) are found by their NFC spelling and the other way round — ids,
//! `show`, `--select`, slugs, BM25 and fuzzy search — and the direction marks U+061C,
//! U+200E, U+200F never reach a terminal (the CLI on a pseudo-terminal, the TUI in one),
//! while piped output keeps the file's own bytes; an escape in an `fm` key is shown as a
//! stand-in in the error message.

use std::io::Read;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use skillnav::agent::lookup::resolve;
use skillnav::index::{FuzzyIndex, Index, SearchOptions};

use crate::support::corpus::{get, load_as};
use crate::support::fs::{tempdir, write};

/// `Café.md` decomposed: `e` + U+0301.
const NFD_FILE: &str = "Cafe\u{301}.md";
/// `Café.md` composed: U+00E9.
const NFC_FILE: &str = "Caf\u{e9}.md";
/// The file's text: an NFD heading and body.
const NFD_TEXT: &str = "# Cre\u{300}me bru\u{302}le\u{301}e\n\nThe cafe\u{301} serves it warm.\n";

fn nfd_tree() -> tempfile::TempDir {
    let t = tempdir();
    write(t.path(), NFD_FILE, NFD_TEXT.as_bytes());
    t
}

#[test]
fn nfd_file_name_and_heading_are_found_by_their_nfc_spelling() {
    let t = nfd_tree();
    let c = load_as(t.path(), "r");
    // The id keeps the name as on disk; both spellings find it.
    let file = get(&c, &format!("r/{NFD_FILE}"));
    assert_eq!(c.find(&format!("r/{NFC_FILE}")), Some(file));
    // The slug of a decomposed heading is the composed one.
    let sec = c.find("r/Caf\u{e9}.md#cr\u{e8}me-br\u{fb}l\u{e9}e");
    assert_eq!(
        sec.map(|s| c.id(s)),
        Some(format!("r/{NFD_FILE}#cr\u{e8}me-br\u{fb}l\u{e9}e"))
    );
    let sec = sec.unwrap_or_else(|| panic!("no section"));
    assert_eq!(
        c.find("r/Cafe\u{301}.md#cre\u{300}me-bru\u{302}le\u{301}e"),
        Some(sec)
    );
    // A title typed composed.
    assert_eq!(resolve(&c, NFC_FILE), Some(file));
    // BM25: the composed query finds the decomposed text, and the other way round.
    let idx = Index::build(&c, &mut |_, _| {});
    for q in ["caf\u{e9}", "cafe\u{301}", "br\u{fb}l\u{e9}e"] {
        let hits = idx.search(&c, q, &SearchOptions::default());
        assert_eq!(hits.hits.first().map(|h| h.node), Some(sec), "{q:?}");
    }
    // Fuzzy titles: a composed query matches the decomposed file name.
    let fuzzy = FuzzyIndex::build(&c);
    let hits = fuzzy.search("Caf\u{e9}.md", 5);
    assert_eq!(hits.first().map(|h| h.node), Some(file));
}

#[test]
fn show_and_select_take_the_nfc_spelling_of_an_nfd_id() {
    let t = nfd_tree();
    let root = t.path().to_string_lossy().into_owned();
    let label = t
        .path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = format!("{label}/{NFC_FILE}#cr\u{e8}me-br\u{fb}l\u{e9}e");
    let out = crate::support::child::skillnav_command()
        .args(["show", &id, &root])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Piped: the file's own bytes.
    assert_eq!(String::from_utf8_lossy(&out.stdout), NFD_TEXT);
    let out = crate::support::child::skillnav_command()
        .args(["brief", "--select", &id, "--format", "md", &root])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let brief = String::from_utf8_lossy(&out.stdout);
    assert!(brief.contains("The cafe\u{301} serves it warm."), "{brief}");
}

/// A doc whose heading and body carry the three invisible direction marks.
const MARKED: &str = "# Shalom \u{200F}world\u{200E} notes\n\nArabic letter mark\u{061C} here.\n";

/// Whether `bytes` hold ALM, LRM or RLM.
fn has_direction_mark(bytes: &[u8]) -> bool {
    let marks: [&[u8]; 3] = [
        "\u{061C}".as_bytes(),
        "\u{200E}".as_bytes(),
        "\u{200F}".as_bytes(),
    ];
    marks
        .iter()
        .any(|m| bytes.windows(m.len()).any(|w| w == *m))
}

/// Run the real binary with `args` in a 100×30 pseudo-terminal; each step's keys are typed
/// once its text has appeared in the raw output (as lossy text) since the previous step.
/// Returns every byte it wrote, once it has exited.
pub(crate) fn in_pty(args: &[&str], steps: &[(&str, &[u8])]) -> Vec<u8> {
    let config = tempdir();
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 30,
            cols: 100,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap_or_else(|e| panic!("open a pseudo-terminal: {e}"));
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_skillnav"));
    cmd.args(args);
    cmd.env("TERM", "xterm-256color");
    cmd.env("XDG_CACHE_HOME", crate::support::child::TEST_CACHE_HOME);
    cmd.env("SKILLNAV_CONFIG_DIR", config.path());
    let mut child = pair
        .slave
        .spawn_command(cmd)
        .unwrap_or_else(|e| panic!("spawn: {e}"));
    drop(pair.slave);
    let mut reader = pair
        .master
        .try_clone_reader()
        .unwrap_or_else(|e| panic!("reader: {e}"));
    let mut writer = pair
        .master
        .take_writer()
        .unwrap_or_else(|e| panic!("writer: {e}"));
    let master = pair.master;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _master = master;
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut raw = Vec::new();
    let (mut step, mut since) = (0, 0);
    loop {
        if let Ok(b) = rx.recv_timeout(Duration::from_millis(50)) {
            raw.extend_from_slice(&b);
        }
        if let Some((ready, keys)) = steps.get(step)
            && String::from_utf8_lossy(&raw[since..]).contains(ready)
        {
            std::io::Write::write_all(&mut writer, keys).unwrap_or_else(|e| panic!("{e}"));
            std::io::Write::flush(&mut writer).unwrap_or_else(|e| panic!("{e}"));
            step += 1;
            since = raw.len();
        }
        if step == steps.len()
            && child
                .try_wait()
                .unwrap_or_else(|e| panic!("wait: {e}"))
                .is_some()
        {
            while let Ok(b) = rx.recv_timeout(Duration::from_millis(200)) {
                raw.extend_from_slice(&b);
            }
            return raw;
        }
        assert!(
            Instant::now() < deadline,
            "timed out; output: {}",
            String::from_utf8_lossy(&raw)
        );
    }
}

fn marked_tree() -> tempfile::TempDir {
    let t = tempdir();
    write(t.path(), "notes.md", MARKED.as_bytes());
    t
}

fn path_str(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

#[test]
fn direction_marks_never_reach_a_terminal_from_the_cli() {
    let t = marked_tree();
    let root = path_str(t.path());
    let label = t
        .path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = format!("{label}/notes.md");
    let raw = in_pty(&["show", &id, &root], &[]);
    let text = String::from_utf8_lossy(&raw);
    assert!(
        text.contains("Shalom \u{FFFD}world\u{FFFD} notes"),
        "{text}"
    );
    assert!(!has_direction_mark(&raw), "{text:?}");
    let raw = in_pty(&["tree", &root], &[]);
    assert!(
        String::from_utf8_lossy(&raw).contains("Shalom"),
        "{}",
        String::from_utf8_lossy(&raw)
    );
    assert!(!has_direction_mark(&raw));
    // Piped, `show` writes the file's own bytes, marks included.
    let out = crate::support::child::skillnav_command()
        .args(["show", &id, &root])
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(String::from_utf8_lossy(&out.stdout), MARKED);
}

#[test]
fn direction_marks_never_reach_a_terminal_from_the_tui() {
    let t = marked_tree();
    let root = path_str(t.path());
    // The tree shows the file; `j` moves onto it so the preview renders its heading; `q`
    // quits.
    let raw = in_pty(&[&root], &[("notes.md", b"j"), ("Shalom", b"q")]);
    let text = String::from_utf8_lossy(&raw);
    assert!(text.contains("Shalom"), "{text:?}");
    assert!(!has_direction_mark(&raw), "{text:?}");
}

#[test]
fn fm_errors_show_an_escape_in_the_key_as_a_stand_in() {
    let t = tempdir();
    write(t.path(), "SKILL.md", b"---\nname: a\n---\n");
    let fm = |args: &[&str]| {
        let out = crate::support::child::skillnav_command()
            .arg("fm")
            .args(args)
            .current_dir(t.path())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    assert_eq!(
        fm(&["set", "SKILL.md", ".\u{1b}[31mRED", "x"]),
        (
            Some(2),
            "skillnav: SKILL.md: bad key path `.\u{241b}[31mRED`\n".to_string()
        )
    );
    assert_eq!(
        fm(&["get", "SKILL.md", "k\u{1b}[31m"]),
        (
            Some(2),
            "skillnav: SKILL.md: no key `k\u{241b}[31m` in the frontmatter\n".to_string()
        )
    );
    assert_eq!(
        std::fs::read_to_string(t.path().join("SKILL.md")).unwrap(),
        "---\nname: a\n---\n"
    );
}
