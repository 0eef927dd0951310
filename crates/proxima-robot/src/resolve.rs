//! Where a mesh URI of a description points to.
//!
//! * `package://PKG/REST`: for each package directory D, in order, `D/PKG/REST`, and
//!   `D/REST` when D itself is named PKG; then the directories of the `ROS_PACKAGE_PATH`
//!   environment variable the same way; then every ancestor of the description's directory
//!   that is named PKG (a description inside its own package).
//! * `file://PATH`: PATH (relative paths against the description's directory).
//! * An absolute path: itself.
//! * A relative path: against the description's directory (the current directory for a
//!   description read from a string without one), then against each package directory.
//!
//! The first candidate that is a file wins. Otherwise [`RobotError::MeshNotFound`] names the
//! URI and every path tried.

use std::path::{Path, PathBuf};

use crate::error::RobotError;

/// Resolves `uri` (see the module docs).
pub fn resolve_uri(
    uri: &str,
    description_dir: Option<&Path>,
    package_dirs: &[PathBuf],
) -> Result<PathBuf, RobotError> {
    let mut tried = Vec::new();
    let base = description_dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let attempt = |p: PathBuf, tried: &mut Vec<PathBuf>| -> Option<PathBuf> {
        if tried.contains(&p) {
            return None;
        }
        let found = p.is_file();
        tried.push(p.clone());
        found.then_some(p)
    };
    if let Some(rest) = uri.strip_prefix("package://") {
        let (pkg, rel) = rest.split_once('/').unwrap_or((rest, ""));
        let env: Vec<PathBuf> = std::env::var_os("ROS_PACKAGE_PATH")
            .map(|v| std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect())
            .unwrap_or_default();
        for d in package_dirs.iter().chain(&env) {
            if let Some(p) = attempt(d.join(pkg).join(rel), &mut tried) {
                return Ok(p);
            }
            if d.file_name().is_some_and(|n| n == pkg)
                && let Some(p) = attempt(d.join(rel), &mut tried)
            {
                return Ok(p);
            }
        }
        if let Some(dir) = description_dir {
            let abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
            for a in abs.ancestors() {
                if a.file_name().is_some_and(|n| n == pkg)
                    && let Some(p) = attempt(a.join(rel), &mut tried)
                {
                    return Ok(p);
                }
            }
        }
    } else {
        let path = PathBuf::from(uri.strip_prefix("file://").unwrap_or(uri));
        if path.is_absolute() {
            if let Some(p) = attempt(path, &mut tried) {
                return Ok(p);
            }
        } else {
            if let Some(p) = attempt(base.join(&path), &mut tried) {
                return Ok(p);
            }
            for d in package_dirs {
                if let Some(p) = attempt(d.join(&path), &mut tried) {
                    return Ok(p);
                }
            }
        }
    }
    Err(RobotError::MeshNotFound { uri: uri.to_string(), tried })
}
