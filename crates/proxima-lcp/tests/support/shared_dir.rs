//! Where the shared data (`shared/testdata`, `shared/bench`) is: beside the checkout, or beside
//! the main checkout when this one is a git worktree in a sibling directory (`wt/<name>`).

use std::path::Path;

/// `shared/<rel>` as a path string (the first candidate that exists; the usual one otherwise,
/// so a missing directory fails with its expected path).
pub fn shared(rel: &str) -> String {
    let base = env!("CARGO_MANIFEST_DIR");
    let candidates = [format!("{base}/../../../shared/{rel}"), format!("{base}/../../../../shared/{rel}")];
    candidates.iter().find(|p| Path::new(p).exists()).unwrap_or(&candidates[0]).clone()
}
