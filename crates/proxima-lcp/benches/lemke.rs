//! Lemke benchmarks (divan): `cargo bench -p proxima-lcp --bench lemke`.
//!
//! * `box_box_12`: the 12 × 12 LCP of the distance between two separated 3D boxes (Eberly §3.1:
//!   A = [[I, -R0ᵀR1], [-R1ᵀR0, I]], b = [-R0ᵀΔ; R1ᵀΔ], D = -I, e = -(ℓ0; ℓ1),
//!   M = [[A, -Dᵀ], [D, 0]], q = [b; -e]) in f64 through the fixed path and through a reused
//!   workspace, and in exact Rational (the same f64 data converted exactly).
//! * `small_5`: a 5 × 5 planted P-matrix problem (fixed path).
//! * `dense_pd_100`: n = 100, M = B Bᵀ + I with a planted solution (workspace).

use divan::{Bencher, black_box};
use proxima_lcp::lemke::LemkeWorkspace;
use proxima_lcp::{Lcp, LcpStatus, LemkeSettings, Rational, solve_lemke_fixed};

fn main() {
    divan::main();
}

type Mat3 = [[f64; 3]; 3];

/// Rotation about a unit axis by an angle (Rodrigues).
fn rotation(axis: [f64; 3], angle: f64) -> Mat3 {
    let norm = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let [x, y, z] = axis.map(|v| v / norm);
    let (s, c) = angle.sin_cos();
    let t = 1.0 - c;
    [
        [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
        [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
        [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
    ]
}

/// The 12 × 12 box–box distance LCP for two separated, rotated boxes.
fn box_box_lcp() -> ([[f64; 12]; 12], [f64; 12]) {
    let r0 = rotation([1.0, 2.0, 3.0], 0.7);
    let r1 = rotation([-2.0, 1.0, 0.5], 1.9);
    let (k0, k1) = ([0.0, 0.0, 0.0], [3.5, -1.0, 2.0]);
    let (l0, l1) = ([1.0, 2.0, 0.5], [1.5, 0.75, 1.25]);
    let delta = [k1[0] - k0[0], k1[1] - k0[1], k1[2] - k0[2]];
    // (R0ᵀ R1)ᵢⱼ = column i of R0 · column j of R1.
    let r0t_r1: Mat3 =
        core::array::from_fn(|i| core::array::from_fn(|j| (0..3).map(|k| r0[k][i] * r1[k][j]).sum()));
    let mut m = [[0.0; 12]; 12];
    let mut q = [0.0; 12];
    for i in 0..3 {
        m[i][i] = 1.0;
        m[3 + i][3 + i] = 1.0;
        for j in 0..3 {
            m[i][3 + j] = -r0t_r1[i][j];
            m[3 + j][i] = -r0t_r1[i][j];
        }
        q[i] = -(0..3).map(|k| r0[k][i] * delta[k]).sum::<f64>();
        q[3 + i] = (0..3).map(|k| r1[k][i] * delta[k]).sum::<f64>();
        q[6 + i] = l0[i];
        q[9 + i] = l1[i];
    }
    // -Dᵀ = I in the upper right block, D = -I in the lower left one.
    for i in 0..6 {
        m[i][6 + i] = 1.0;
        m[6 + i][i] = -1.0;
    }
    (m, q)
}

/// A planted P-matrix problem of size n: M = B Bᵀ + I (B from a fixed LCG), z* with zeros.
fn planted_pd(n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    let b: Vec<f64> = (0..n * n).map(|_| next()).collect();
    let mut m = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            m[i * n + j] =
                (0..n).map(|k| b[i * n + k] * b[j * n + k]).sum::<f64>() + if i == j { 1.0 } else { 0.0 };
        }
    }
    let z: Vec<f64> = (0..n).map(|i| if i % 3 == 0 { 0.0 } else { 1.0 + next().abs() }).collect();
    let q = (0..n)
        .map(|i| {
            let w = if z[i] == 0.0 { 0.5 + next().abs() } else { 0.0 };
            w - (0..n).map(|j| m[i * n + j] * z[j]).sum::<f64>()
        })
        .collect();
    (m, q)
}

#[divan::bench]
fn box_box_12_fixed_f64(bencher: Bencher) {
    let (m, q) = box_box_lcp();
    let settings = LemkeSettings::default();
    assert_eq!(solve_lemke_fixed(&m, &q, &settings).unwrap().status, LcpStatus::Solved);
    bencher.bench_local(|| solve_lemke_fixed(black_box(&m), black_box(&q), &settings).unwrap());
}

#[divan::bench]
fn box_box_12_workspace_f64(bencher: Bencher) {
    let (m, q) = box_box_lcp();
    let lcp = Lcp::new(m.as_flattened().to_vec(), q.to_vec()).unwrap();
    let settings = LemkeSettings::default();
    let mut ws = LemkeWorkspace::with_capacity(12);
    assert_eq!(ws.solve(lcp.view(), &settings).unwrap().status, LcpStatus::Solved);
    bencher.bench_local(|| ws.solve(black_box(lcp.view()), &settings).unwrap().pivots);
}

#[divan::bench]
fn box_box_12_workspace_rational(bencher: Bencher) {
    let (m, q) = box_box_lcp();
    let lcp: Lcp<Rational> = Lcp::new(m.as_flattened().to_vec(), q.to_vec()).unwrap().convert();
    let settings = LemkeSettings::default();
    let mut ws = LemkeWorkspace::with_capacity(12);
    assert_eq!(ws.solve(lcp.view(), &settings).unwrap().status, LcpStatus::Solved);
    bencher.bench_local(|| ws.solve(black_box(lcp.view()), &settings).unwrap().pivots);
}

#[divan::bench]
fn box_box_12_fixed_rational(bencher: Bencher) {
    let (m, q) = box_box_lcp();
    let to_r = |v: f64| Rational::from_f64_exact(v).unwrap();
    let m: [[Rational; 12]; 12] = m.map(|row| row.map(to_r));
    let q: [Rational; 12] = q.map(to_r);
    let settings = LemkeSettings::default();
    bencher.bench_local(|| solve_lemke_fixed(black_box(&m), black_box(&q), &settings).unwrap().pivots);
}

#[divan::bench]
fn small_5_fixed_f64(bencher: Bencher) {
    let (m, q) = planted_pd(5);
    let m: [[f64; 5]; 5] = core::array::from_fn(|i| core::array::from_fn(|j| m[i * 5 + j]));
    let q: [f64; 5] = core::array::from_fn(|i| q[i]);
    let settings = LemkeSettings::default();
    assert_eq!(solve_lemke_fixed(&m, &q, &settings).unwrap().status, LcpStatus::Solved);
    bencher.bench_local(|| solve_lemke_fixed(black_box(&m), black_box(&q), &settings).unwrap().pivots);
}

#[divan::bench]
fn dense_pd_100_workspace_f64(bencher: Bencher) {
    let (m, q) = planted_pd(100);
    let lcp = Lcp::new(m, q).unwrap();
    let settings = LemkeSettings::default();
    let mut ws = LemkeWorkspace::with_capacity(100);
    assert_eq!(ws.solve(lcp.view(), &settings).unwrap().status, LcpStatus::Solved);
    bencher.bench_local(|| ws.solve(black_box(lcp.view()), &settings).unwrap().pivots);
}
