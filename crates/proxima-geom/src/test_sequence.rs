//! A reproducible pseudo-random sequence for the unit tests' brute-force comparisons (no
//! dependency, the same numbers on every platform): a 64-bit linear congruential generator
//! (multiplier 6364136223846793005, increment 1442695040888963407) whose top 53 bits give a
//! uniform f64 in [0, 1), mapped to [lo, hi).

/// The sequence from `seed`, uniform in [lo, hi).
pub(crate) fn uniform(seed: u64, lo: f64, hi: f64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo) + lo
    }
}
