//! A build without the cargo feature `rerank`: `--rerank` is refused with a clear message
//! (exit 2), never silently ignored.

use crate::support::child::skillnav_command;

fn refused(args: &[&str]) -> (i32, String) {
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/index/hono");
    let out = skillnav_command()
        .args(args)
        .arg(&fixture)
        .output()
        .unwrap();
    assert!(out.stdout.is_empty());
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const LACKS: &str = "skillnav: --rerank: this build of skillnav lacks the re-ranker: rebuild with `cargo build --release --features rerank`\n";

#[test]
fn search_rerank_without_the_feature_says_the_build_lacks_it() {
    assert_eq!(
        refused(&["search", "--rerank", "body limit"]),
        (2, LACKS.into())
    );
}

#[test]
fn brief_rerank_without_the_feature_says_the_build_lacks_it() {
    assert_eq!(
        refused(&["brief", "--rerank", "--query", "body limit"]),
        (2, LACKS.into())
    );
}
