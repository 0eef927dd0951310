//! Deterministic stand-in for the cargo-fuzz target `workload` (`fuzz/`): the geometry workload
//! reader over the repository's workload files and thousands of seeded byte-level mutations of
//! them (the mutator of the LCP readers' stand-in). It must never panic.

use proxima_cli_support::workload::parse;
use rand::SeedableRng;
use rand::rngs::SmallRng;

#[path = "../../proxima-lcp/tests/support/mutate.rs"]
mod mutate;

const TESTDATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/geometry");

#[test]
fn workload_reader_never_panics_on_mutations() {
    let mut corpus = Vec::new();
    for name in
        ["tiny.json", "boxes_regression.json", "bad_rotation.json", "malformed.json", "unknown_type.json"]
    {
        corpus.push(std::fs::read(format!("{TESTDATA}/{name}")).unwrap());
    }
    // The first 3000 bytes of a hull workload (its shapes): vertices and faces.
    let hulls = std::fs::read(format!("{TESTDATA}/workloads/polytope_64.json")).unwrap();
    corpus.push(hulls[..3000.min(hulls.len())].to_vec());
    assert!(parse(&String::from_utf8_lossy(&corpus[0]), "tiny").is_ok());
    let scale: usize = std::env::var("PROXIMA_FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = SmallRng::seed_from_u64(0x3017);
    // Mutations of the valid seeds that still parse: the reader's deeper checks (shape
    // constructors, pose validation, id lookups) run, not only the JSON syntax.
    let (mut runs_of_valid, mut still_valid) = (0usize, 0usize);
    for input in &corpus {
        let valid_seed = parse(&String::from_utf8_lossy(input), "seed").is_ok();
        for _ in 0..scale * 500 {
            let mutated = mutate::mutate(&mut rng, input);
            let ok = parse(&String::from_utf8_lossy(&mutated), "fuzz").is_ok();
            if valid_seed {
                runs_of_valid += 1;
                still_valid += usize::from(ok);
            }
        }
    }
    // Most edits of a workload hit a pose (a changed digit of a rotation is no rotation any
    // more, see bad_rotation.json) and are rejected; a few percent stay valid.
    println!("{still_valid} of {runs_of_valid} mutations of valid workloads still parse");
    assert!(
        still_valid * 100 >= runs_of_valid,
        "{still_valid} of {runs_of_valid} mutated workloads still parse"
    );
}
