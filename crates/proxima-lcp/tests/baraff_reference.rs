//! Baraff incremental pivoting against the spec (lcp-methods.md §8 A1, A3, B6), against
//! Lemke's method, brute-force checks of the boxed variant, warm starts and bad input.

use proxima_lcp::baraff::{
    BaraffSettings, IndexState, boxed_residual, solve_baraff, solve_baraff_boxed, solve_baraff_observed,
    solve_baraff_warm,
};
use proxima_lcp::operator::DenseMatrix;
use proxima_lcp::{Lcp, LcpError, LcpStatus, LemkeSettings, solve_lemke};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn dense(n: usize, data: &[f64]) -> DenseMatrix {
    DenseMatrix::from_row_major(n, data.to_vec()).unwrap()
}

/// Standard normal by Box–Muller (rand without rand_distr).
fn gauss(rng: &mut SmallRng) -> f64 {
    let u: f64 = rng.random::<f64>().max(1e-300);
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (2.0 * core::f64::consts::PI * v).cos()
}

/// The spec's B6 family: A = R Rᵀ + 0.1 I (R Gaussian n × n), b Gaussian × 3.
fn spd_problem(n: usize, rng: &mut SmallRng) -> (DenseMatrix, Vec<f64>) {
    let r: Vec<f64> = (0..n * n).map(|_| gauss(rng)).collect();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = (0..n).map(|k| r[i * n + k] * r[j * n + k]).sum::<f64>();
        }
        a[i * n + i] += 0.1;
    }
    let b = (0..n).map(|_| 3.0 * gauss(rng)).collect();
    (DenseMatrix::from_row_major(n, a).unwrap(), b)
}

#[test]
fn a1_one_dimensional_lcps() {
    let s = BaraffSettings::default();
    let run = |a: f64, b: f64| solve_baraff(&dense(1, &[a]), &[b], &s).unwrap();
    let sol = run(2.0, -4.0);
    assert_eq!(sol.status, LcpStatus::Solved);
    assert_eq!((sol.z[0], sol.w[0]), (2.0, 0.0));
    let sol = run(2.0, 3.0);
    assert!(sol.status.is_solved());
    assert_eq!((sol.z[0], sol.w[0]), (0.0, 3.0));
    // Two solutions {0, 2}: pivoting from x = 0 returns the one at 0.
    let sol = run(-1.0, 2.0);
    assert!(sol.status.is_solved());
    assert_eq!(sol.z[0], 0.0);
    // No solution: the driven x grows without bound, and the ray d = 1 is a Farkas
    // certificate (d ≥ 0, Aᵀd ≤ 0, bᵀd < 0).
    for a in [-1.0, 0.0] {
        let sol = run(a, -1.0);
        assert_eq!(sol.status, LcpStatus::NoSolution);
        assert_eq!(sol.infeasibility_certificate, Some(vec![1.0]));
    }
    // Every x ≥ 0 solves (0, 0).
    let sol = run(0.0, 0.0);
    assert!(sol.status.is_solved() && sol.z[0] >= 0.0);
}

#[test]
fn a3_two_by_two_pd() {
    let a = dense(2, &[2.0, 1.0, 1.0, 2.0]);
    let cases = [
        ([-1.0, 1.0], [0.5, 0.0], [0.0, 1.5]),
        ([-3.0, -3.0], [1.0, 1.0], [0.0, 0.0]),
        ([1.0, 2.0], [0.0, 0.0], [1.0, 2.0]),
    ];
    for (b, x, y) in cases {
        let sol = solve_baraff(&a, &b, &BaraffSettings::default()).unwrap();
        assert!(sol.status.is_solved(), "{b:?}: {:?}", sol.status);
        for i in 0..2 {
            assert!((sol.z[i] - x[i]).abs() <= 1e-12 && (sol.w[i] - y[i]).abs() <= 1e-12, "{b:?}: {sol:?}");
        }
    }
}

/// B6: 300 random SPD problems, n = 2..40; residual ≤ 1e-10, ≤ n outer passes, and the
/// invariants x_ℱ = 0, y_𝒜 = 0, x_𝒜 ≥ 0, y_ℱ ≥ 0 after every pivot (1e-10, scaled by the
/// problem's magnitude: |b| ~ 3 and |A| ~ n, so round-off stays far below it).
#[test]
fn b6_random_spd_invariants_after_every_pivot() {
    let mut rng = SmallRng::seed_from_u64(6);
    let settings = BaraffSettings::default();
    let mut worst = 0.0f64;
    for case in 0..300 {
        let n = 2 + case % 39;
        let (a, b) = spd_problem(n, &mut rng);
        let mut events = 0;
        let sol = solve_baraff_observed(&a, &b, &[], &settings, &mut |e| {
            events += 1;
            for i in 0..n {
                match e.states[i] {
                    IndexState::AtLower => {
                        assert_eq!(e.x[i], 0.0, "case {case} pivot {}: x_F != 0", e.pivot);
                        assert!(e.y[i] >= -1e-10, "case {case} pivot {}: y_F = {}", e.pivot, e.y[i]);
                    }
                    IndexState::Clamped => {
                        assert!(e.y[i].abs() <= 1e-10, "case {case}: y_A = {}", e.y[i]);
                        assert!(e.x[i] >= 0.0, "case {case}: x_A = {}", e.x[i]);
                    }
                    // The driven index is still unprocessed while x_j grows.
                    IndexState::Unprocessed if e.driving == Some(i) => assert!(e.x[i] >= 0.0),
                    IndexState::Unprocessed => assert_eq!(e.x[i], 0.0),
                    IndexState::AtUpper => panic!("no upper bounds in a plain LCP"),
                }
            }
        })
        .unwrap();
        assert!(sol.status.is_solved(), "case {case}: {:?}", sol.status);
        assert!(sol.outer_passes <= n, "case {case}: {} passes", sol.outer_passes);
        assert_eq!(events, sol.pivots + 1);
        let r = sol.residual;
        let violation = (-r.min_z).max(-r.min_w).max(r.complementarity);
        worst = worst.max(violation);
        assert!(violation <= 1e-10, "case {case}: {r:?}");
    }
    eprintln!("B6 worst violation {worst:e}");
}

/// Baraff and Lemke agree on symmetric PD problems (the solution is unique) to 1e-10.
#[test]
fn agrees_with_lemke_on_spd() {
    let mut rng = SmallRng::seed_from_u64(11);
    for case in 0..40 {
        let n = 2 + case % 25;
        let (a, b) = spd_problem(n, &mut rng);
        let baraff = solve_baraff(&a, &b, &BaraffSettings::default()).unwrap();
        let lcp = Lcp::new(a.data().to_vec(), b.clone()).unwrap();
        let lemke = solve_lemke(&lcp, &LemkeSettings::default()).unwrap();
        assert!(baraff.status.is_solved() && lemke.status.is_solved());
        for i in 0..n {
            assert!((baraff.z[i] - lemke.z[i]).abs() <= 1e-10, "case {case} i {i}");
        }
    }
}

#[test]
fn periodic_refactorization_keeps_accuracy() {
    let mut rng = SmallRng::seed_from_u64(5);
    let (a, b) = spd_problem(40, &mut rng);
    let every = BaraffSettings { refactor_interval: Some(1), ..BaraffSettings::default() };
    let rare = BaraffSettings { refactor_interval: Some(1000), ..BaraffSettings::default() };
    let s1 = solve_baraff(&a, &b, &every).unwrap();
    let s2 = solve_baraff(&a, &b, &rare).unwrap();
    assert!(s1.status.is_solved() && s2.status.is_solved());
    assert!(s1.refactorizations >= s1.pivots.saturating_sub(1));
    for i in 0..40 {
        assert!((s1.z[i] - s2.z[i]).abs() <= 1e-10);
    }
}

#[test]
fn warm_start_from_the_solution_needs_no_pivot() {
    let mut rng = SmallRng::seed_from_u64(8);
    let (a, b) = spd_problem(20, &mut rng);
    let cold = solve_baraff(&a, &b, &BaraffSettings::default()).unwrap();
    let warm = solve_baraff_warm(&a, &b, &cold.active, &BaraffSettings::default()).unwrap();
    assert_eq!(warm.status, LcpStatus::Solved);
    assert_eq!(warm.pivots, 0);
    for i in 0..20 {
        assert!((warm.z[i] - cold.z[i]).abs() <= 1e-10);
    }
    // A wrong guess (every index) is repaired and still solves.
    let all: Vec<usize> = (0..20).collect();
    let repaired = solve_baraff_warm(&a, &b, &all, &BaraffSettings::default()).unwrap();
    assert_eq!(repaired.status, LcpStatus::Solved);
    assert!(repaired.residual.min_map_inf <= 1e-10);
}

#[test]
fn singular_active_block_is_numerical_failure_not_an_answer() {
    // A = [[1, 1], [1, 1]] (PSD, singular 2 × 2 block), b = (−1, −2): driving x₂ after x₁
    // needs the singular block.
    let a = dense(2, &[1.0, 1.0, 1.0, 1.0]);
    let sol = solve_baraff(&a, &[-1.0, -2.0], &BaraffSettings::default()).unwrap();
    // x = (0, 2) solves it; either Baraff finds it or it reports a failure, never a wrong answer.
    if sol.status.is_solved() {
        assert!(sol.residual.min_map_inf <= 1e-10);
    } else {
        assert!(matches!(sol.status, LcpStatus::NumericalFailure | LcpStatus::NoSolution));
    }
}

/// The spec's A5 contact matrix (non-symmetric, zero diagonal) is outside Baraff's class; a
/// solution exists, so whatever happens the method must not claim `NoSolution`.
#[test]
fn contact_matrix_never_gets_a_false_no_solution() {
    #[rustfmt::skip]
    let a = dense(6, &[
        1.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 1.0, 0.0, -1.0, 0.0, 1.0,
        0.0, 0.0, 1.0, 0.0, -1.0, 1.0,
        0.0, -1.0, 0.0, 1.0, 0.0, 1.0,
        0.0, 0.0, -1.0, 0.0, 1.0, 1.0,
        0.5, -1.0, -1.0, -1.0, -1.0, 0.0,
    ]);
    for b in [[-1.0, 1.0, 0.0, -1.0, 0.0, 0.0], [-1.0, 0.2, 0.0, -0.2, 0.0, 0.0]] {
        let sol = solve_baraff(&a, &b, &BaraffSettings::default()).unwrap();
        assert_ne!(sol.status, LcpStatus::NoSolution);
        if sol.status.is_solved() {
            assert!(sol.residual.min_map_inf <= 1e-10);
        }
    }
}

#[test]
fn boxed_free_variable_with_singular_block_has_certified_no_solution() {
    // 0·x + 1 = 0 has no solution for a free x.
    let s = solve_baraff_boxed(
        &dense(1, &[0.0]),
        &[1.0],
        &[f64::NEG_INFINITY],
        &[f64::INFINITY],
        &[],
        &Default::default(),
    )
    .unwrap();
    assert_eq!(s.status, LcpStatus::NoSolution);
    assert_eq!(s.infeasibility_certificate, Some(vec![-1.0]));
    // With a finite lower bound the same row has the solution x = lo.
    let s =
        solve_baraff_boxed(&dense(1, &[0.0]), &[1.0], &[-2.0], &[f64::INFINITY], &[], &Default::default())
            .unwrap();
    assert_eq!((s.status, s.x[0]), (LcpStatus::Solved, -2.0));
}

#[test]
fn pivot_limit_is_max_iterations() {
    // A = 2I, b = −1: three pivots needed (one per index); a limit of 2 stops early.
    let a = dense(3, &[2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0]);
    let s = BaraffSettings { max_pivots: Some(2), ..BaraffSettings::default() };
    let sol = solve_baraff(&a, &[-1.0, -1.0, -1.0], &s).unwrap();
    assert_eq!((sol.status, sol.pivots), (LcpStatus::MaxIterations, 2));
    assert!(sol.residual.min_map_inf > 0.1);
}

/// Brute-force check of a boxed solution: natural residual and the sign conditions.
fn assert_boxed_solution(a: &DenseMatrix, b: &[f64], lo: &[f64], hi: &[f64], x: &[f64]) {
    let n = b.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = b[i] + (0..n).map(|j| a.get(i, j) * x[j]).sum::<f64>();
    }
    let r = boxed_residual(lo, hi, x, &y);
    assert!(r.natural_inf <= 1e-9 && r.bound_violation <= 0.0, "{r:?}");
    for i in 0..n {
        if x[i] > lo[i] + 1e-9 && x[i] < hi[i] - 1e-9 {
            assert!(y[i].abs() <= 1e-9);
        } else if x[i] <= lo[i] + 1e-9 {
            assert!(y[i] >= -1e-9);
        } else {
            assert!(y[i] <= 1e-9);
        }
    }
}

#[test]
fn boxed_random_spd_with_finite_and_infinite_bounds() {
    let mut rng = SmallRng::seed_from_u64(12);
    for case in 0..60 {
        let n = 2 + case % 20;
        let (a, b) = spd_problem(n, &mut rng);
        let lo: Vec<f64> =
            (0..n).map(|i| if i % 4 == 3 { f64::NEG_INFINITY } else { -rng.random::<f64>() }).collect();
        let hi: Vec<f64> =
            (0..n).map(|i| if i % 5 == 4 { f64::INFINITY } else { rng.random::<f64>() }).collect();
        let sol = solve_baraff_boxed(&a, &b, &lo, &hi, &[], &BaraffSettings::default()).unwrap();
        assert!(sol.status.is_solved(), "case {case}: {:?}", sol.status);
        assert!(sol.outer_passes <= n);
        assert_boxed_solution(&a, &b, &lo, &hi, &sol.x);
        assert!(sol.states.iter().all(|s| *s != IndexState::Unprocessed));
    }
}

#[test]
fn boxed_reduces_to_plain_and_to_linear_solve() {
    let mut rng = SmallRng::seed_from_u64(13);
    let (a, b) = spd_problem(12, &mut rng);
    let plain = solve_baraff(&a, &b, &BaraffSettings::default()).unwrap();
    let boxed = solve_baraff_boxed(&a, &b, &[0.0; 12], &[f64::INFINITY; 12], &[], &BaraffSettings::default())
        .unwrap();
    for i in 0..12 {
        assert!((plain.z[i] - boxed.x[i]).abs() <= 1e-12);
    }
    // Unbounded in both directions: A x = −b.
    let free =
        solve_baraff_boxed(&a, &b, &[f64::NEG_INFINITY; 12], &[f64::INFINITY; 12], &[], &Default::default())
            .unwrap();
    assert_eq!(free.status, LcpStatus::Solved);
    assert!(free.y.iter().all(|v| v.abs() <= 1e-9));
    // A friction-like 1-D box: x = clamp(−b/a, lo, hi).
    let one = dense(1, &[2.0]);
    let s = solve_baraff_boxed(&one, &[-10.0], &[-1.0], &[1.0], &[], &Default::default()).unwrap();
    assert_eq!((s.status, s.x[0], s.states[0]), (LcpStatus::Solved, 1.0, IndexState::AtUpper));
    let s = solve_baraff_boxed(&one, &[10.0], &[-1.0], &[1.0], &[], &Default::default()).unwrap();
    assert_eq!((s.x[0], s.states[0]), (-1.0, IndexState::AtLower));
    let s = solve_baraff_boxed(&one, &[1.0], &[-1.0], &[1.0], &[], &Default::default()).unwrap();
    assert_eq!((s.x[0], s.states[0]), (-0.5, IndexState::Clamped));
    // Warm start of the boxed variant.
    let clamped: Vec<usize> = (0..12).filter(|&i| boxed.states[i] == IndexState::Clamped).collect();
    let warm =
        solve_baraff_boxed(&a, &b, &[0.0; 12], &[f64::INFINITY; 12], &clamped, &Default::default()).unwrap();
    assert_eq!(warm.pivots, 0);
}

#[test]
fn bad_input_is_an_error() {
    let a = dense(2, &[2.0, 1.0, 1.0, 2.0]);
    let s = BaraffSettings::default();
    assert!(matches!(solve_baraff(&a, &[1.0], &s), Err(LcpError::DimensionMismatch { .. })));
    assert!(matches!(solve_baraff(&a, &[f64::NAN, 1.0], &s), Err(LcpError::NonFinite { .. })));
    assert!(matches!(solve_baraff(&a, &[f64::INFINITY, 1.0], &s), Err(LcpError::NonFinite { .. })));
    assert!(DenseMatrix::from_row_major(2, vec![1.0, f64::NAN, 0.0, 1.0]).is_err());
    let bad = BaraffSettings { pivot_tolerance: f64::NAN, ..s.clone() };
    assert!(matches!(solve_baraff(&a, &[1.0, 1.0], &bad), Err(LcpError::InvalidSettings { .. })));
    let bad = BaraffSettings { refactor_interval: Some(0), ..s.clone() };
    assert!(matches!(solve_baraff(&a, &[1.0, 1.0], &bad), Err(LcpError::InvalidSettings { .. })));
    let bad = BaraffSettings { max_pivots: Some(0), ..s.clone() };
    assert!(matches!(solve_baraff(&a, &[1.0, 1.0], &bad), Err(LcpError::InvalidSettings { .. })));
    assert!(matches!(solve_baraff_warm(&a, &[1.0, 1.0], &[5], &s), Err(LcpError::DimensionMismatch { .. })));
    let bounds = |lo: f64, hi: f64| solve_baraff_boxed(&a, &[1.0, 1.0], &[0.0, lo], &[1.0, hi], &[], &s);
    assert!(matches!(bounds(2.0, 1.0), Err(LcpError::InvalidBounds { index: 1, .. })));
    assert!(matches!(bounds(f64::NAN, 1.0), Err(LcpError::InvalidBounds { .. })));
    assert!(matches!(bounds(f64::INFINITY, f64::INFINITY), Err(LcpError::InvalidBounds { .. })));
    assert!(matches!(
        solve_baraff_boxed(&a, &[1.0, 1.0], &[0.0], &[1.0, 1.0], &[], &s),
        Err(LcpError::DimensionMismatch { .. })
    ));
}

/// Any `LinearOperator` works: an operator that only knows y = A x (assembled by probing).
#[test]
fn matrix_free_operator_is_assembled_by_probing() {
    struct Implicit(DenseMatrix);
    impl proxima_lcp::operator::LinearOperator for Implicit {
        fn dim(&self) -> usize {
            self.0.n()
        }
        fn apply(&self, x: &[f64], y: &mut [f64]) {
            self.0.apply(x, y)
        }
    }
    let mut rng = SmallRng::seed_from_u64(17);
    let (a, b) = spd_problem(15, &mut rng);
    let direct = solve_baraff(&a, &b, &BaraffSettings::default()).unwrap();
    let implicit = solve_baraff(&Implicit(a), &b, &BaraffSettings::default()).unwrap();
    assert_eq!(direct.z, implicit.z);
    assert!(implicit.status.is_solved());
}
