//! Input and output files, with errors that name the file.

use std::fs::{File, OpenOptions};
use std::path::Path;

use anyhow::{Context, Result};

/// Reads a whole text file; the error names the file.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Reads `path` and parses it with `parse(text, file stem)` (the stem names a workload whose
/// file has no name); errors name the file.
pub fn parse_file<T>(path: &Path, parse: impl FnOnce(&str, &str) -> Result<T>) -> Result<T> {
    let text = read_text(path)?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    parse(&text, &stem).map_err(|e| anyhow::anyhow!("{e:#} ({})", path.display()))
}

/// Opens an output file, creating its parent directories: truncated, or appended to when
/// `append`.
pub fn create_output(path: &Path, append: bool) -> Result<File> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))
}
