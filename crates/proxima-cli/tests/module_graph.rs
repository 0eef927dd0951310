//! The binary's three crates keep a one-way module graph: no two top-level modules of
//! proxima-cli, proxima-bench or proxima-cli-support refer to each other (`crate::a` in b and
//! `crate::b` in a). The crate root (`main.rs` / `lib.rs`), which declares and dispatches every
//! module, is left out. A file `src/x.rs` or `src/x/...` belongs to module `x`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Edges (from module, to module) of one crate's `src/`.
fn edges(src: &Path) -> BTreeSet<(String, String)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges = BTreeSet::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        let from = first.trim_end_matches(".rs").to_string();
        if from == "main" || from == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (i, _) in line.match_indices("crate::") {
                let rest = &line[i + "crate::".len()..];
                let to: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                // `crate::{a, b}` groups: every name in the braces.
                let names: Vec<String> = if to.is_empty() && rest.starts_with('{') {
                    rest[1..rest.find('}').unwrap_or(rest.len())]
                        .split(',')
                        .map(|n| n.trim().split("::").next().unwrap_or("").to_string())
                        .collect()
                } else {
                    vec![to]
                };
                for to in names.into_iter().filter(|n| !n.is_empty() && *n != from) {
                    edges.insert((from.clone(), to));
                }
            }
        }
    }
    edges
}

#[test]
fn no_two_modules_import_each_other() {
    let crates = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    for name in ["proxima-cli", "proxima-bench", "proxima-cli-support"] {
        let e = edges(&crates.join(name).join("src"));
        assert!(
            !e.is_empty() || name == "proxima-cli-support",
            "{name}: no module edges found; is the scan broken?"
        );
        let cycles: Vec<_> = e.iter().filter(|(a, b)| a < b && e.contains(&(b.clone(), a.clone()))).collect();
        assert!(cycles.is_empty(), "{name}: modules importing each other: {cycles:?}");
    }
}
