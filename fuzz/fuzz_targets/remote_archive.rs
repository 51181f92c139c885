//! Repository archives from the network (docs/REMOTE.md "Archives"): any tar bytes, gzipped here,
//! unpacked into a fresh folder. No panic, and nothing lands outside the folder: every entry
//! written, followed through its links, stays inside it.
#![no_main]

use std::io::Write;
use std::path::Path;

use libfuzzer_sys::fuzz_target;
use skillnav::remote::archive::unpack_tar_gz;

fuzz_target!(|data: &[u8]| {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    if gz.write_all(data).is_err() {
        return;
    }
    let Ok(gz) = gz.finish() else { return };
    let Ok(dir) = tempfile::tempdir() else { return };
    let dest = dir.path().join("tree");
    if std::fs::create_dir(&dest).is_err() {
        return;
    }
    let _ = unpack_tar_gz(&gz, &dest, "fuzz", 1 << 20);
    let Ok(root) = std::fs::canonicalize(&dest) else {
        return;
    };
    stays_inside(&dest, &root);
    // Nothing beside the folder either.
    let beside: Vec<_> = std::fs::read_dir(dir.path())
        .into_iter()
        .flatten()
        .flatten()
        .collect();
    assert_eq!(beside.len(), 1, "an entry landed beside the folder");
});

fn stays_inside(dir: &Path, root: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if let Ok(real) = std::fs::canonicalize(&p) {
            assert!(real.starts_with(root), "{} leaves the folder", p.display());
        }
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            stays_inside(&p, root);
        }
    }
}
