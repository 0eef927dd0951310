//! The vectorized `f64` LU solve (`linalg::lu_solve_f64`, the Newton methods' direct
//! sub-solve) against the generic elimination (`linalg::solve_in_place`, the sub-solve it
//! replaced) and against exact answers:
//!
//! * random dense, diagonally weighted and contact-like sparse systems of every size around
//!   the panel width (4) and the vector width (4), up to the harness's reduced sizes (~190):
//!   both return the same numbers (the same operations in the same order; only zeros may
//!   differ in sign, which `==` ignores) and backward-stable residuals;
//! * integer systems with a planted integer solution: both recover it;
//! * systems that need row exchanges (zero diagonal);
//! * singular systems (repeated row, zero column, rank k − 1 in the last column, NaN column):
//!   both say so (`false`) at the same tolerance, none panics;
//! * Newton runs whose direct systems are singular end with a status, not a panic, and claim
//!   nothing their residuals do not show.

use proxima_lcp::iterative::{
    FischerSettings, IterativeStatus, NewtonSettings, SubSolver, solve_fischer_newton, solve_minmap_newton,
};
use proxima_lcp::linalg::{lu_solve_f64, solve_in_place};
use proxima_lcp::operator::{DenseMatrix, LinearOperator};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn gauss(rng: &mut SmallRng) -> f64 {
    let u: f64 = rng.random::<f64>().max(1e-300);
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (2.0 * core::f64::consts::PI * v).cos()
}

fn matvec(a: &[f64], x: &[f64]) -> Vec<f64> {
    let k = x.len();
    (0..k).map(|i| (0..k).map(|j| a[i * k + j] * x[j]).sum()).collect()
}

fn inf_norm(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

/// A row-major k × k matrix column by column (the vectorized solver's storage).
fn columns(a: &[f64], k: usize) -> Vec<f64> {
    (0..k * k).map(|m| a[(m % k) * k + m / k]).collect()
}

/// Both solvers on copies of (a, b), a row-major: (generic, vectorized), `None` where one
/// reports singular.
fn both(a: &[f64], b: &[f64], tolerance: f64) -> (Option<Vec<f64>>, Option<Vec<f64>>) {
    let (mut a1, mut b1) = (a.to_vec(), b.to_vec());
    let (mut a2, mut b2) = (columns(a, b.len()), b.to_vec());
    let generic = solve_in_place(&mut a1, &mut b1, &tolerance).then_some(b1);
    let vectorized = lu_solve_f64(&mut a2, &mut b2, tolerance).then_some(b2);
    (generic, vectorized)
}

/// Checks the two solutions are equal entry by entry and the vectorized one is backward
/// stable: ‖A x − b‖∞ ≤ c·k·ε·(‖A‖∞‖x‖∞ + ‖b‖∞) with c = 64 (partial pivoting's growth on
/// these well-scaled random matrices stays small; the bound is loose by design).
fn check_agree(a: &[f64], b: &[f64], what: &str) {
    let k = b.len();
    let (generic, vectorized) = both(a, b, 1e-300);
    let (x1, x2) = (generic.expect(what), vectorized.expect(what));
    let norm_a = (0..k).map(|i| inf_norm(&a[i * k..(i + 1) * k]) * k as f64).fold(0.0, f64::max);
    let r: Vec<f64> = matvec(a, &x2).iter().zip(b).map(|(ax, bi)| ax - bi).collect();
    let bound = 64.0 * k as f64 * f64::EPSILON * (norm_a * inf_norm(&x2) + inf_norm(b));
    assert!(inf_norm(&r) <= bound, "{what}: residual {} > {bound}", inf_norm(&r));
    assert_eq!(x1, x2, "{what}: the two eliminations differ");
}

const SIZES: [usize; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 31, 64, 72, 97, 150, 190];

#[test]
fn random_dense_systems_agree_with_the_generic_elimination() {
    let mut rng = SmallRng::seed_from_u64(11);
    for k in SIZES {
        for trial in 0..3 {
            let mut a: Vec<f64> = (0..k * k).map(|_| gauss(&mut rng)).collect();
            // Trial 0: plain Gaussian (pivoting everywhere); 1–2: a weighted diagonal.
            if trial > 0 {
                for i in 0..k {
                    a[i * k + i] += 2.0 * (k as f64).sqrt() * if i % 2 == 0 { 1.0 } else { -1.0 };
                }
            }
            let b: Vec<f64> = (0..k).map(|_| gauss(&mut rng)).collect();
            check_agree(&a, &b, &format!("k = {k}, trial {trial}"));
        }
    }
}

#[test]
fn contact_like_sparse_systems_agree() {
    // Zero blocks as in a contact Jacobian D_p + D_q A (6 × 6 blocks, half of them empty):
    // the elimination skips zero multipliers until fill-in reaches them.
    let mut rng = SmallRng::seed_from_u64(12);
    for k in [6, 12, 30, 78, 120, 186] {
        let mut a = vec![0.0; k * k];
        for i in 0..k {
            for j in 0..k {
                let filled = (i / 6 + j / 6) % 2 == 0 || i / 6 == j / 6;
                if filled && rng.random::<f64>() < 0.7 {
                    a[i * k + j] = gauss(&mut rng);
                }
            }
            a[i * k + i] += (k as f64).sqrt();
        }
        let b: Vec<f64> = (0..k).map(|_| gauss(&mut rng)).collect();
        check_agree(&a, &b, &format!("contact-like k = {k}"));
    }
}

/// −1, 0 or 1, non-zero with probability 0.3.
fn sparse_unit(rng: &mut SmallRng) -> f64 {
    let r: f64 = rng.random();
    if r < 0.15 {
        -1.0
    } else if r < 0.3 {
        1.0
    } else {
        0.0
    }
}

#[test]
fn integer_systems_recover_the_planted_solution() {
    // A unit lower times a unit upper triangular integer matrix (det = 1; ±1 after the row
    // reversal): the exact solution is the planted integer vector; both eliminations land
    // on it to a few ulps of its size.
    let mut rng = SmallRng::seed_from_u64(13);
    for k in [3, 4, 5, 9, 17, 24] {
        let mut l = vec![0.0; k * k];
        let mut u = vec![0.0; k * k];
        for i in 0..k {
            l[i * k + i] = 1.0;
            u[i * k + i] = 1.0;
            for j in 0..i {
                l[i * k + j] = sparse_unit(&mut rng);
            }
            for j in i + 1..k {
                u[i * k + j] = sparse_unit(&mut rng);
            }
        }
        let mut a = vec![0.0; k * k];
        for i in 0..k {
            for j in 0..k {
                a[i * k + j] = (0..k).map(|m| l[i * k + m] * u[m * k + j]).sum();
            }
        }
        // Reverse the rows: the first pivot is no longer on the diagonal.
        let a: Vec<f64> = (0..k).rev().flat_map(|i| a[i * k..(i + 1) * k].to_vec()).collect();
        let x: Vec<f64> = (0..k).map(|_| f64::from(rng.random_range(-9i32..=9))).collect();
        let b = matvec(&a, &x);
        let (generic, vectorized) = both(&a, &b, 1e-300);
        for (name, sol) in [("generic", generic.unwrap()), ("vectorized", vectorized.unwrap())] {
            let gap = sol.iter().zip(&x).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max);
            // Condition numbers of these unimodular matrices with sparse ±1 factors stay
            // below ~1e4 for k ≤ 24: 1e-9 leaves room for the rounding of either method.
            assert!(gap <= 1e-9, "{name}, k = {k}: {gap} from the planted solution");
        }
    }
}

#[test]
fn zero_diagonals_need_row_exchanges() {
    // An anti-diagonal permutation times 3, plus a cyclic shift: no diagonal entry is usable.
    for k in [2, 5, 8, 23] {
        let mut a = vec![0.0; k * k];
        for i in 0..k {
            a[i * k + (k - 1 - i)] = 3.0;
            a[i * k + (k - i) % k] += 1.0;
        }
        let b: Vec<f64> = (0..k).map(|i| i as f64 - 2.0).collect();
        check_agree(&a, &b, &format!("zero diagonal k = {k}"));
    }
}

#[test]
fn singular_systems_are_reported_by_both() {
    let tolerance = |a: &[f64], k: usize| inf_norm(a) * f64::EPSILON * k as f64;
    let mut rng = SmallRng::seed_from_u64(14);
    for k in [2, 3, 4, 5, 8, 17, 64] {
        let base: Vec<f64> = (0..k * k).map(|_| gauss(&mut rng)).collect();
        let b: Vec<f64> = (0..k).map(|_| gauss(&mut rng)).collect();
        let mut repeated_row = base.clone();
        let (first, rest) = repeated_row.split_at_mut(k);
        rest[(k - 2) * k..].copy_from_slice(first);
        let mut zero_column = base.clone();
        for i in 0..k {
            zero_column[i * k + k / 2] = 0.0;
        }
        // Last column = the sum of the others: rank k − 1, found only at the last pivot.
        let mut dependent_last = base.clone();
        for i in 0..k {
            dependent_last[i * k + k - 1] = (0..k - 1).map(|j| base[i * k + j]).sum();
        }
        let mut nan_column = base.clone();
        for i in 0..k {
            nan_column[i * k] = f64::NAN;
        }
        for (name, a) in [
            ("repeated row", repeated_row),
            ("zero column", zero_column),
            ("dependent last column", dependent_last),
            ("NaN column", nan_column),
        ] {
            let t = 16.0 * tolerance(&a, k);
            let (generic, vectorized) = both(&a, &b, t);
            assert!(generic.is_none(), "k = {k}, {name}: the generic elimination solved it");
            assert!(vectorized.is_none(), "k = {k}, {name}: the vectorized elimination solved it");
        }
    }
    assert!(!lu_solve_f64(&mut [0.0; 9], &mut [1.0, 2.0, 3.0], 0.0));
}

#[test]
#[should_panic(expected = "must be n x n")]
fn mismatched_sizes_are_a_programming_error() {
    lu_solve_f64(&mut [1.0, 2.0, 3.0], &mut [1.0, 2.0], 0.0);
}

/// Every status but `ConvergedAbsolute` is a non-answer; a claimed answer must verify.
fn assert_honest(status: IterativeStatus, a: &DenseMatrix, b: &[f64], z: &[f64], tol: f64, what: &str) {
    if status == IterativeStatus::ConvergedAbsolute {
        let mut w = vec![0.0; b.len()];
        a.apply(z, &mut w);
        let res =
            z.iter().zip(w.iter().zip(b)).map(|(zi, (wi, bi))| zi.min(wi + bi).abs()).fold(0.0, f64::max);
        assert!(res <= tol, "{what}: claimed converged with natural residual {res}");
    }
}

#[test]
fn singular_newton_systems_end_with_a_status() {
    let direct = NewtonSettings { sub_solver: SubSolver::Direct, ..NewtonSettings::default() };
    let n = 6;
    // A = 0, b < 0: no solution (w = b < 0 for every z); every min-map Newton system is 0.
    let zero = DenseMatrix::from_row_major(n, vec![0.0; n * n]).unwrap();
    let b = vec![-1.0; n];
    let mm = solve_minmap_newton(&zero, &b, None, &direct).unwrap();
    assert_ne!(mm.status, IterativeStatus::ConvergedAbsolute);
    let fb = solve_fischer_newton(&zero, &b, None, &FischerSettings { newton: direct, ..Default::default() })
        .unwrap();
    assert_ne!(fb.status, IterativeStatus::ConvergedAbsolute);
    // A of rank 1 (all ones), mixed signs in b: the reduced systems of size ≥ 2 are singular.
    let ones = DenseMatrix::from_row_major(n, vec![1.0; n * n]).unwrap();
    let b: Vec<f64> = (0..n).map(|i| if i % 2 == 0 { -1.0 } else { 0.5 }).collect();
    // The default absolute test θ < 1e-12 gives |F_i| ≤ √2·1e-6 and |min(x, y)| ≤ |φ|/(2 − √2).
    let tol = 2.5e-6;
    let mm = solve_minmap_newton(&ones, &b, None, &direct).unwrap();
    assert_honest(mm.status, &ones, &b, &mm.z, tol, "min-map, rank 1");
    let fb = solve_fischer_newton(&ones, &b, None, &FischerSettings { newton: direct, ..Default::default() })
        .unwrap();
    assert_honest(fb.status, &ones, &b, &fb.z, tol, "Fischer, rank 1");
}
