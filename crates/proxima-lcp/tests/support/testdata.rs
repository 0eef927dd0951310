//! The repository's `testdata/` folder (vendored data: the tests read nothing outside the
//! repository).

/// `testdata/<rel>` under the repository root, as a path string.
pub fn testdata(rel: &str) -> String {
    format!("{}/../../testdata/{rel}", env!("CARGO_MANIFEST_DIR"))
}
