//! Deterministic stand-in for the cargo-fuzz target `scene_file` (`fuzz/`): the scene-file
//! reader over the W25 scene and thousands of seeded byte-level mutations of it (the mutator of
//! the LCP readers' stand-in). It must never panic: every input is a scene or an error.

use proxima_scene::parse_scene;
use rand::SeedableRng;
use rand::rngs::SmallRng;

#[path = "../../proxima-lcp/tests/support/mutate.rs"]
mod mutate;

const W25: &str = include_str!("data/w25.json");

#[test]
fn scene_reader_never_panics_on_mutations() {
    assert!(parse_scene(W25).is_ok());
    // PROXIMA_FUZZ_SCALE=N multiplies the number of mutations (longer local runs).
    let scale: usize = std::env::var("PROXIMA_FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = SmallRng::seed_from_u64(0x5cefe);
    let (mut runs, mut still_valid) = (0usize, 0usize);
    for _ in 0..scale * 2000 {
        let mutated = mutate::mutate(&mut rng, W25.as_bytes());
        if parse_scene(&String::from_utf8_lossy(&mutated)).is_ok() {
            still_valid += 1;
        }
        runs += 1;
    }
    // Not everything is rejected at the first byte: the deeper checks run too. (Most edits hit
    // a number the checks then refuse or a name the references no longer find; ~4% of the
    // seeded edits stay a valid scene.)
    assert!(still_valid * 50 >= runs, "{still_valid} of {runs} mutated scenes still parse");
}
