//! Benchmark manifests (`<family>/manifest.json`, format_version 1).

use serde::{Deserialize, Serialize};

use super::error::{IoError, IoErrorKind};

/// The manifest format version these structs describe.
pub const MANIFEST_FORMAT_VERSION: u32 = 1;

/// One problem family: its problems and the generator's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`MANIFEST_FORMAT_VERSION`] (checked by [`read_manifest`]).
    pub format_version: u32,
    /// Family name (copied into every result record).
    pub family: String,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// The program that wrote the problems.
    #[serde(default)]
    pub generator: Option<String>,
    /// The generator's seed (`null` for converted data).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Family-level generator parameters (any JSON).
    #[serde(default)]
    pub params: serde_json::Value,
    /// The problems, in the order runners must process them.
    pub problems: Vec<ManifestProblem>,
}

/// One problem of a manifest; file names are relative to the manifest's directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestProblem {
    /// Problem name (the `problem` field of result records).
    pub name: String,
    /// MatrixMarket file of M (`coordinate real general`).
    #[serde(rename = "M")]
    pub m: String,
    /// MatrixMarket file of q (`array real general`, n × 1).
    pub q: String,
    /// Optional file with a known (planted) solution.
    #[serde(default)]
    pub z: Option<String>,
    /// Number of variables.
    pub n: usize,
    /// Stored entries of M.
    #[serde(default)]
    pub nnz: Option<usize>,
    /// Whether M is symmetric.
    #[serde(default)]
    pub symmetric: Option<bool>,
    /// Per-problem generator parameters (any JSON).
    #[serde(default)]
    pub params: serde_json::Value,
}

/// Parses a manifest and checks its `format_version`, that it names at least a family, and that
/// problem names are unique.
pub fn read_manifest(text: &str) -> Result<Manifest, IoError> {
    if text.trim().is_empty() {
        return Err(IoError::plain(IoErrorKind::Empty, "empty input: expected a manifest (JSON)"));
    }
    let manifest: Manifest = serde_json::from_str(text).map_err(|e| {
        let kind = match e.classify() {
            serde_json::error::Category::Data => IoErrorKind::Schema,
            serde_json::error::Category::Eof => IoErrorKind::Syntax,
            _ => IoErrorKind::Syntax,
        };
        // serde_json's message ends with " at line L column C": keep the line separately.
        let msg = e.to_string();
        let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
        IoError::new(kind, (e.line() > 0).then_some(e.line()), format!("manifest: {msg}"))
    })?;
    if manifest.format_version != MANIFEST_FORMAT_VERSION {
        return Err(IoError::plain(
            IoErrorKind::Unsupported,
            format!(
                "manifest format_version {} is not supported (expected {MANIFEST_FORMAT_VERSION})",
                manifest.format_version
            ),
        ));
    }
    let mut names = std::collections::HashSet::new();
    for p in &manifest.problems {
        if !names.insert(p.name.as_str()) {
            return Err(IoError::plain(
                IoErrorKind::Duplicate,
                format!("manifest: problem {:?} listed twice", p.name),
            ));
        }
    }
    Ok(manifest)
}
