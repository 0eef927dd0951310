//! Benchmarks of the LCP-formulated kernels (divan).
//!
//! `cargo bench -p proxima-geom --bench kernels`
//!
//! Box–box inputs: 1024 random pairs (random rotations, half extents in [0.1, 2]); centers in
//! a cube of half-side 1, 3 or 6 in turn, giving a mixture of intersecting, touching/near and
//! separated pairs. Each iteration takes the next pair (input generation is not timed).
// Literals are copied verbatim from the reference listings (more digits than f64 holds).
#![allow(clippy::excessive_precision)]

use std::cell::Cell;

use divan::Bencher;
use proxima_geom::lcp_queries::{
    AlignedBox3, BoxN, CertifySettings, box_box_distance_f64, box_box_distance_f64_lcp,
    triangle_aligned_box_distance_f64,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    divan::main();
}

fn rotation(rng: &mut SmallRng) -> [[f64; 3]; 3] {
    // Random unit quaternion → rotation matrix (rows are the axes).
    let mut q: [f64; 4] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q = q.map(|v| v / n);
    let [w, x, y, z] = q;
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ]
}

fn pairs() -> Vec<(BoxN<f64, 3>, BoxN<f64, 3>)> {
    let mut rng = SmallRng::seed_from_u64(42);
    (0..1024)
        .map(|i| {
            let spread = [1.0, 3.0, 6.0][i % 3];
            let mut mk = || BoxN {
                center: core::array::from_fn(|_| rng.random_range(-spread..spread)),
                axes: rotation(&mut rng),
                half_extents: core::array::from_fn(|_| rng.random_range(0.1..2.0)),
            };
            let a = mk();
            let b = mk();
            (a, b)
        })
        .collect()
}

/// Which pairs a benchmark uses.
#[derive(Clone, Copy)]
enum Subset {
    All,
    Separated,
    Intersecting,
}

fn run_boxes(bencher: Bencher, f: fn(&BoxN<f64, 3>, &BoxN<f64, 3>, &CertifySettings) -> f64) {
    run_subset(bencher, Subset::All, f);
}

fn run_subset(
    bencher: Bencher,
    subset: Subset,
    f: fn(&BoxN<f64, 3>, &BoxN<f64, 3>, &CertifySettings) -> f64,
) {
    let data: Vec<_> = pairs()
        .into_iter()
        .filter(|(a, b)| {
            let d = box_box_distance_f64(a, b, &CertifySettings::default()).unwrap().squared_distance;
            match subset {
                Subset::All => true,
                Subset::Separated => d > 1e-18,
                Subset::Intersecting => d <= 1e-18,
            }
        })
        .collect();
    let settings = CertifySettings::default();
    let next = Cell::new(0usize);
    bencher
        .with_inputs(|| {
            let i = next.get();
            next.set((i + 1) % data.len());
            &data[i]
        })
        .bench_local_refs(|(a, b)| f(divan::black_box(a), divan::black_box(b), &settings));
}

/// Box–box, f64, specialized active-set solver with LCP/exact fallback.
#[divan::bench(sample_count = 2000)]
fn box_box_fast(bencher: Bencher) {
    run_boxes(bencher, |a, b, s| box_box_distance_f64(a, b, s).unwrap().squared_distance);
}

/// Box–box fast path, separated pairs only.
#[divan::bench(sample_count = 2000)]
fn box_box_fast_separated(bencher: Bencher) {
    run_subset(bencher, Subset::Separated, |a, b, s| box_box_distance_f64(a, b, s).unwrap().squared_distance);
}

/// Box–box fast path, intersecting pairs only.
#[divan::bench(sample_count = 2000)]
fn box_box_fast_intersecting(bencher: Bencher) {
    run_subset(bencher, Subset::Intersecting, |a, b, s| {
        box_box_distance_f64(a, b, s).unwrap().squared_distance
    });
}

/// Box–box, f64, fixed-size 12 × 12 Lemke (`solve_lemke_fixed::<f64, 12>`).
#[divan::bench(sample_count = 2000)]
fn box_box_lcp12(bencher: Bencher) {
    run_boxes(bencher, |a, b, s| box_box_distance_f64_lcp(a, b, s).unwrap().squared_distance);
}

/// Listing 4 (triangle – aligned box), certified f64.
#[divan::bench]
fn triangle_aligned_box_listing4() -> f64 {
    let tri = [[0.5, 0.5, 1.5], [0.500000000000000178, 25.5, 1.5], [-0.500000000000000355, 0.5, 1.5]];
    let b = AlignedBox3 {
        min: [-28.666800635711962, 12.285771701019407, -48.666800635711965],
        max: [-20.476286168365689, 20.476286168365682, -40.476286168365689],
    };
    triangle_aligned_box_distance_f64(
        divan::black_box(&tri),
        divan::black_box(&b),
        &CertifySettings::default(),
    )
    .unwrap()
    .squared_distance
}
