//! DIA storage and its blocked Gauss–Seidel kernel against independent truth: the CSR matrix
//! and CSR sweep kernel, and a straightforward dense reference loop.
//!
//! Tolerance of the sweep comparisons: the DIA kernel computes the same update in another
//! rounding order (scaled entries, b/A_ii + x_i first, paired composition), so each x_i of a
//! sweep differs from the CSR kernel's by a few ulps of the row's terms, and those
//! differences travel along later rows and sweeps through the (contractive, diagonally
//! dominant) iteration. On these matrices (|terms| ≲ 10, ≤ 7 per row, ≤ 6 sweeps) the
//! measured differences stay below 1e-14 · max(1, ‖x‖∞); the tests allow 1e-12 · max(1, ‖x‖∞),
//! far below any change of iterate that could alter a stopping decision at the spec's
//! tolerances (≥ 1e-8), and far above rounding.

use proxima_lcp::LcpError;
use proxima_lcp::generate::{FluidGridSettings, fluid_banded, fluid_grid};
use proxima_lcp::iterative::splitting::{inverse_diagonal, projected_sweep};
use proxima_lcp::iterative::{SplittingSettings, StoppingCriteria, solve_splitting};
use proxima_lcp::operator::{CsrMatrix, DiaMatrix, LinearOperator, RowAccess};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const TOL: f64 = 1e-12;

fn random_vec(rng: &mut SmallRng, n: usize, lo: f64, hi: f64) -> Vec<f64> {
    (0..n).map(|_| rng.random_range(lo..hi)).collect()
}

/// The textbook sweep: x_i ← max(0, x_i − ω (A_{i*}x + b_i)/A_ii) on dense rows.
fn reference_sweep(a: &CsrMatrix, b: &[f64], x: &mut [f64], omega: f64) -> f64 {
    let mut max_change = 0.0f64;
    for i in 0..a.n() {
        let (cols, vals) = a.row(i);
        let r: f64 = cols.iter().zip(vals).map(|(&j, &v)| v * x[j as usize]).sum::<f64>() + b[i];
        let old = x[i];
        x[i] = (old - omega * r / a.get(i, i)).max(0.0);
        max_change = max_change.max((x[i] - old).abs());
    }
    max_change
}

/// DIA sweeps track the CSR kernel and the reference loop within `TOL` (see the module docs).
fn assert_sweeps_agree(a: &CsrMatrix, b: &[f64], x0: &[f64], sweeps: usize) {
    let d = DiaMatrix::from_csr(a, 16).expect("few diagonals");
    let inv = inverse_diagonal(a).unwrap();
    for omega in [1.0, 1.4, 0.6] {
        let (mut x, mut x_csr, mut x_ref) = (x0.to_vec(), x0.to_vec(), x0.to_vec());
        for k in 0..sweeps {
            let c = projected_sweep(&d, b, &mut x, &mut (), &inv, omega);
            let c_csr = projected_sweep(a, b, &mut x_csr, &mut (), &inv, omega);
            let c_ref = reference_sweep(a, b, &mut x_ref, omega);
            let scale = x_csr.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for (name, other, change) in [("CSR", &x_csr, c_csr), ("reference", &x_ref, c_ref)] {
                let diff = x.iter().zip(other.iter()).fold(0.0f64, |m, (u, v)| m.max((u - v).abs()));
                assert!(diff <= TOL * scale, "{name}: ω {omega}, sweep {k}: |Δ| = {diff:e}");
                assert!((c - change).abs() <= TOL * scale, "{name}: max change, ω {omega}, sweep {k}");
            }
            assert!(x.iter().all(|v| *v >= 0.0));
        }
    }
}

fn grid(settings: &FluidGridSettings, seed: u64) -> (CsrMatrix, Vec<f64>) {
    let g = fluid_grid(settings, &mut SmallRng::seed_from_u64(seed)).unwrap();
    (g.matrix, g.b)
}

#[test]
fn fluid_grids_round_trip_and_sweep_like_csr() {
    let mut rng = SmallRng::seed_from_u64(3);
    for (k, s) in [
        FluidGridSettings::grid_2d(20, 15),
        FluidGridSettings::grid_2d(2, 9),
        FluidGridSettings::grid_2d(300, 4), // blocks of 128 rows inside grid rows
        FluidGridSettings::grid_3d(16, 5, 4),
        FluidGridSettings::grid_3d(3, 2, 7),
    ]
    .iter()
    .enumerate()
    {
        let (a, b) = grid(s, k as u64);
        let d = DiaMatrix::from_csr(&a, 7).expect("a stencil has at most 7 diagonals");
        assert_eq!(d.to_csr(), a, "round trip");
        assert_eq!(d.stored(), d.offsets().len() * a.n());
        assert_eq!(d.lower_reach(), s.dims[0], "the grid width");
        assert_eq!(d.is_symmetric(), a.is_symmetric());
        let x = random_vec(&mut rng, a.n(), -1.0, 1.0);
        let (mut y, mut y_csr) = (vec![0.0; a.n()], vec![0.0; a.n()]);
        d.apply(&x, &mut y);
        a.apply(&x, &mut y_csr);
        assert_eq!(y, y_csr, "same products, same summation order");
        assert_sweeps_agree(&a, &b, &vec![0.0; a.n()], 6);
        assert_sweeps_agree(&a, &b, &random_vec(&mut rng, a.n(), -0.5, 1.0), 6);
    }
}

#[test]
fn banded_fluid_sweeps_like_csr() {
    let mut rng = SmallRng::seed_from_u64(5);
    let f = fluid_banded(4, &mut rng).unwrap();
    let d = DiaMatrix::from_csr(&f.matrix, 7).unwrap();
    assert_eq!(d.offsets(), &[-3, -2, -1, 0, 1, 2, 3]);
    assert_eq!(d.lower_reach(), 2);
    assert_eq!(d.to_csr(), f.matrix);
    let b = random_vec(&mut rng, 64, -1.0, 1.0);
    assert_sweeps_agree(&f.matrix, &b, &vec![0.0; 64], 6);
}

/// A random banded, strictly diagonally dominant matrix on the given offsets, entries of
/// either sign (so the row-by-row recurrence, not only the paired one, is exercised).
fn random_banded(rng: &mut SmallRng, n: usize, offsets: &[isize], signed: bool) -> CsrMatrix {
    let rows = (0..n).map(|i| {
        let mut row: Vec<(usize, f64)> = Vec::new();
        let mut off = 0.0;
        for &o in offsets {
            let j = i as isize + o;
            if o != 0 && (0..n as isize).contains(&j) && rng.random_bool(0.9) {
                let v = if signed { rng.random_range(-1.0..1.0) } else { rng.random_range(-1.0..-0.01) };
                off += f64::abs(v);
                row.push((j as usize, v));
            }
        }
        row.push((i, off + rng.random_range(0.2..2.0)));
        row
    });
    CsrMatrix::from_rows(n, rows.collect::<Vec<_>>()).unwrap()
}

#[test]
fn random_banded_matrices_sweep_like_csr() {
    let mut rng = SmallRng::seed_from_u64(9);
    let shapes: [&[isize]; 6] = [
        &[-1, 0, 1],
        &[-7, -1, 0, 1, 7],
        &[-40, -5, -1, 0, 2, 40],
        &[-300, -1, 0, 1, 300],
        &[-2, 0, 3],
        &[0, 1, 4],
    ];
    for case in 0..60 {
        let n = rng.random_range(1..700);
        let offsets = shapes[case % shapes.len()];
        let a = random_banded(&mut rng, n, offsets, case % 2 == 0);
        let d = DiaMatrix::from_csr(&a, 9).unwrap();
        assert_eq!(d.to_csr(), a);
        assert_eq!(d.is_symmetric(), a.is_symmetric());
        let b = random_vec(&mut rng, n, -1.0, 1.0);
        let x0 = random_vec(&mut rng, n, -0.5, 1.0);
        assert_sweeps_agree(&a, &b, &x0, 4);
    }
}

#[test]
fn solves_take_the_csr_iteration_counts() {
    for (k, s) in
        [FluidGridSettings::grid_2d(32, 32), FluidGridSettings::grid_3d(10, 10, 10)].iter().enumerate()
    {
        let (a, b) = grid(s, 20 + k as u64);
        let d = DiaMatrix::from_csr(&a, 9).unwrap();
        for settings in [SplittingSettings::pgs(), SplittingSettings::psor(1.4)] {
            let settings = settings.with_stopping(StoppingCriteria {
                max_iterations: 5000,
                absolute: 1e-8,
                relative: 0.0,
                stagnation: 0.0,
            });
            let csr = solve_splitting(&a, &b, None, &settings).unwrap();
            let dia = solve_splitting(&d, &b, None, &settings).unwrap();
            assert_eq!((dia.status, dia.iterations), (csr.status, csr.iterations));
            let diff = dia.z.iter().zip(&csr.z).fold(0.0f64, |m, (u, v)| m.max((u - v).abs()));
            assert!(diff < 1e-10, "{diff:e}");
        }
    }
}

#[test]
fn symmetry_is_read_from_the_diagonal_pairs() {
    let sym = DiaMatrix::from_diagonals(
        4,
        vec![(-2, vec![0.0, 0.0, 0.5, 0.25]), (0, vec![2.0; 4]), (2, vec![0.5, 0.25, 0.0, 0.0])],
    )
    .unwrap();
    assert!(sym.is_symmetric());
    let skew = DiaMatrix::from_diagonals(
        4,
        vec![(-2, vec![0.0, 0.0, 0.5, 0.3]), (0, vec![2.0; 4]), (2, vec![0.5, 0.25, 0.0, 0.0])],
    )
    .unwrap();
    assert!(!skew.is_symmetric());
    let one_sided =
        DiaMatrix::from_diagonals(4, vec![(0, vec![2.0; 4]), (1, vec![0.5, 0.5, 0.5, 0.0])]).unwrap();
    assert!(!one_sided.is_symmetric());
    assert_eq!(one_sided.is_symmetric(), one_sided.to_csr().is_symmetric());
}

#[test]
fn from_csr_respects_the_offset_limit() {
    let a = random_banded(&mut SmallRng::seed_from_u64(1), 50, &[-10, -1, 0, 1, 10], true);
    assert!(DiaMatrix::from_csr(&a, 4).is_none());
    assert_eq!(DiaMatrix::from_csr(&a, 5).unwrap().offsets(), &[-10, -1, 0, 1, 10]);
    assert_eq!(DiaMatrix::from_csr(&a, 5).unwrap().lower_reach(), 10);
    // No main diagonal stored: it is added as zeros and counts towards the limit.
    let off = CsrMatrix::from_rows(3, vec![vec![(1, 1.0)], vec![(2, 1.0)], vec![]]).unwrap();
    assert!(DiaMatrix::from_csr(&off, 1).is_none());
    assert_eq!(DiaMatrix::from_csr(&off, 2).unwrap().offsets(), &[0, 1]);
}

#[test]
fn from_diagonals_builds_and_refuses_bad_input() {
    let d = DiaMatrix::from_diagonals(
        3,
        vec![(1, vec![-1.0, -1.0, 0.0]), (0, vec![2.0; 3]), (-1, vec![0.0, -1.0, -1.0])],
    )
    .unwrap();
    let dense = d.to_dense();
    assert_eq!(dense.get(0, 1), -1.0);
    assert_eq!(dense.get(2, 1), -1.0);
    assert_eq!(d.to_csr().nnz(), 7);
    assert!(d.is_symmetric());
    assert_eq!(d.lower_reach(), usize::MAX, "tridiagonal: no offset below −1");
    assert_eq!(DiaMatrix::from_diagonals(0, vec![]), Err(LcpError::Empty));
    let bad = [
        vec![(0, vec![1.0; 2])],                    // wrong length
        vec![(0, vec![1.0, f64::NAN, 1.0])],        // NaN
        vec![(1, vec![1.0, 1.0, 1.0])],             // padding row 2 not zero
        vec![(3, vec![0.0; 3])],                    // offset outside
        vec![(0, vec![1.0; 3]), (0, vec![1.0; 3])], // repeated
    ];
    for diags in bad {
        assert!(DiaMatrix::from_diagonals(3, diags).is_err());
    }
    assert!(matches!(
        DiaMatrix::from_diagonals(3, vec![(0, vec![1.0, f64::INFINITY, 1.0])]),
        Err(LcpError::NonFinite { .. })
    ));
}

#[test]
fn zero_or_negative_diagonal_is_an_error_not_a_panic() {
    for bad in [0.0, -1.0] {
        let d = DiaMatrix::from_diagonals(3, vec![(0, vec![1.0, bad, 1.0]), (-1, vec![0.0, -0.5, -0.5])])
            .unwrap();
        let e = solve_splitting(&d, &[-1.0; 3], None, &SplittingSettings::pgs()).unwrap_err();
        assert!(matches!(e, LcpError::ZeroDiagonal { index: 1, .. }), "{e:?}");
        // A direct sweep (no scaled copy) falls back to the plain loop and does not panic.
        let mut x = vec![0.0; 3];
        projected_sweep(&d, &[-1.0; 3], &mut x, &mut (), &[1.0; 3], 1.0);
    }
}

#[test]
fn one_by_one() {
    let d = DiaMatrix::from_diagonals(1, vec![(0, vec![2.0])]).unwrap();
    let mut x = [0.0];
    let c = projected_sweep(&d, &[-1.0], &mut x, &mut (), &[0.5], 1.0);
    assert_eq!((x[0], c), (0.5, 0.5));
    assert_eq!(d.row_dot(0, &[3.0], &()), 6.0);
}
