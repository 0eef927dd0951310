//! Benchmarks of the LCP-formulated kernels (divan).
//!
//! `cargo bench -p proxima-geom --bench kernels`
//!
//! Box–box inputs: 1024 random pairs (random rotations, half extents in [0.1, 2]); centers in
//! a cube of half-side 1, 3 or 6 in turn, giving a mixture of intersecting, touching/near and
//! separated pairs. Each iteration takes the next pair (input generation is not timed).
//!
//! Near-parallel box pairs (`box_box_near_parallel`): relative rotation within 1e-9 rad of a
//! signed axis permutation, offsets giving touching (gap 1e-7…1e-2), separated and intersecting
//! pairs, as the near-parallel half of the shared boxes workload.
//!
//! Triangle–box inputs: 1024 random triangles (vertices in a cube of half-side 1.5 around a
//! random center) against random boxes (random rotation, half extents in [0.1, 2]); centers
//! spread as for the box pairs. The aligned variant uses the box's axis-aligned bounds.
// Literals are copied verbatim from the reference listings (more digits than f64 holds).
#![allow(clippy::excessive_precision)]

use std::cell::Cell;

use divan::Bencher;
use proxima_geom::lcp_queries::{
    AlignedBox3, BoxN, CertifySettings, box_box_distance_f64, box_box_distance_f64_lcp,
    triangle_aligned_box_distance_f64, triangle_box_distance_f64,
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

/// A rotation by a tiny angle about a random axis composed with a random signed permutation.
fn near_axis_rotation(rng: &mut SmallRng) -> [[f64; 3]; 3] {
    let angle: f64 = rng.random_range(-1e-9..1e-9);
    let k = {
        let v: [f64; 3] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        v.map(|x| x / n)
    };
    let (s, c) = angle.sin_cos();
    let kk = [[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]];
    let r: [[f64; 3]; 3] = core::array::from_fn(|i| {
        core::array::from_fn(|j| {
            let k2: f64 = (0..3).map(|m| kk[i][m] * kk[m][j]).sum();
            f64::from(u8::from(i == j)) + s * kk[i][j] + (1.0 - c) * k2
        })
    });
    let perm = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]][rng.random_range(0..6)];
    core::array::from_fn(|i| {
        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        r[perm[i]].map(|v| sign * v)
    })
}

fn near_parallel_pairs() -> Vec<(BoxN<f64, 3>, BoxN<f64, 3>)> {
    let mut rng = SmallRng::seed_from_u64(43);
    let base = rotation(&mut rng);
    (0..1024)
        .map(|i| {
            let ha: [f64; 3] = core::array::from_fn(|_| rng.random_range(0.1..2.0));
            let hb: [f64; 3] = core::array::from_fn(|_| rng.random_range(0.1..2.0));
            let rel = near_axis_rotation(&mut rng);
            // b's axes: rel applied to a's axes (rows are axes).
            let axes_b: [[f64; 3]; 3] = core::array::from_fn(|j| {
                core::array::from_fn(|k| (0..3).map(|m| rel[j][m] * base[m][k]).sum())
            });
            let a = BoxN {
                center: core::array::from_fn(|_| rng.random_range(-3.0..3.0)),
                axes: base,
                half_extents: ha,
            };
            // Offset along a random face normal of a: touching, separated or intersecting.
            let axis = rng.random_range(0..3);
            let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            let extent_b: f64 =
                (0..3).map(|j| hb[j] * (0..3).map(|k| axes_b[j][k] * base[axis][k]).sum::<f64>().abs()).sum();
            let gap = match i % 3 {
                0 => 10f64.powf(rng.random_range(-7.0..-2.0)),
                1 => rng.random_range(0.01..1.0),
                _ => -rng.random_range(0.0..0.5) * ha[axis].min(extent_b),
            };
            let along = sign * (ha[axis] + extent_b + gap);
            let slide: [f64; 3] =
                core::array::from_fn(|j| if j == axis { along } else { rng.random_range(-1.0..1.0) * ha[j] });
            let center =
                core::array::from_fn(|k| a.center[k] + (0..3).map(|j| slide[j] * base[j][k]).sum::<f64>());
            (a, BoxN { center, axes: axes_b, half_extents: hb })
        })
        .collect()
}

/// Box–box fast path on near-parallel pairs (touching, separated, intersecting).
#[divan::bench(sample_count = 2000)]
fn box_box_near_parallel(bencher: Bencher) {
    let data = near_parallel_pairs();
    let settings = CertifySettings::default();
    let next = Cell::new(0usize);
    bencher
        .with_inputs(|| {
            let i = next.get();
            next.set((i + 1) % data.len());
            &data[i]
        })
        .bench_local_refs(|(a, b)| {
            box_box_distance_f64(divan::black_box(a), divan::black_box(b), &settings)
                .unwrap()
                .squared_distance
        });
}

fn triangle_box_pairs() -> Vec<([[f64; 3]; 3], BoxN<f64, 3>)> {
    let mut rng = SmallRng::seed_from_u64(44);
    (0..1024)
        .map(|i| {
            let spread = [1.0, 3.0, 6.0][i % 3];
            let c: [f64; 3] = core::array::from_fn(|_| rng.random_range(-spread..spread));
            let tri = loop {
                let t: [[f64; 3]; 3] =
                    core::array::from_fn(|_| core::array::from_fn(|k| c[k] + rng.random_range(-1.5..1.5)));
                let e0: [f64; 3] = core::array::from_fn(|k| t[1][k] - t[0][k]);
                let e1: [f64; 3] = core::array::from_fn(|k| t[2][k] - t[0][k]);
                let n = [
                    e0[1] * e1[2] - e0[2] * e1[1],
                    e0[2] * e1[0] - e0[0] * e1[2],
                    e0[0] * e1[1] - e0[1] * e1[0],
                ];
                if n.iter().map(|v| v * v).sum::<f64>() > 1e-3 {
                    break t;
                }
            };
            let b = BoxN {
                center: core::array::from_fn(|_| rng.random_range(-spread..spread)),
                axes: rotation(&mut rng),
                half_extents: core::array::from_fn(|_| rng.random_range(0.1..2.0)),
            };
            (tri, b)
        })
        .collect()
}

/// Triangle–oriented box, certified f64, random pairs.
#[divan::bench(sample_count = 2000)]
fn triangle_box_random(bencher: Bencher) {
    let data = triangle_box_pairs();
    let settings = CertifySettings::default();
    let next = Cell::new(0usize);
    bencher
        .with_inputs(|| {
            let i = next.get();
            next.set((i + 1) % data.len());
            &data[i]
        })
        .bench_local_refs(|(t, b)| {
            triangle_box_distance_f64(divan::black_box(t), divan::black_box(b), &settings)
                .unwrap()
                .squared_distance
        });
}

/// Triangle–aligned box, certified f64, random pairs (the box's axis-aligned bounds).
#[divan::bench(sample_count = 2000)]
fn triangle_aligned_box_random(bencher: Bencher) {
    let data: Vec<_> = triangle_box_pairs()
        .into_iter()
        .map(|(t, b)| {
            let ext: [f64; 3] =
                core::array::from_fn(|k| (0..3).map(|j| b.half_extents[j] * b.axes[j][k].abs()).sum());
            (
                t,
                AlignedBox3 {
                    min: core::array::from_fn(|k| b.center[k] - ext[k]),
                    max: core::array::from_fn(|k| b.center[k] + ext[k]),
                },
            )
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
        .bench_local_refs(|(t, b)| {
            triangle_aligned_box_distance_f64(divan::black_box(t), divan::black_box(b), &settings)
                .unwrap()
                .squared_distance
        });
}
