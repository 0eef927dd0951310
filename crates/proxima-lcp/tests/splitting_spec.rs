//! Splitting methods against the spec's worked examples and properties (§8 A3, A4, A5, B1,
//! B2, B8) and bad input.

use proxima_lcp::LcpError;
use proxima_lcp::generate::{Family, RhsKind, dense_psd, generate, make_rhs};
use proxima_lcp::iterative::splitting::{merit_106, qp_objective, relax_component};
use proxima_lcp::iterative::{
    IterativeStatus, QpPgsSettings, SplittingMethod, SplittingSettings, StoppingCriteria, solve_qp_pgs,
    solve_splitting,
};
use proxima_lcp::operator::{CsrMatrix, DenseMatrix, LinearOperator};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn a2() -> DenseMatrix {
    DenseMatrix::from_row_major(2, vec![2.0, 1.0, 1.0, 2.0]).unwrap()
}

fn tight() -> StoppingCriteria {
    // Merit (106) below 1e-14 puts x within ~1e-13 of the solution on this 2×2 problem
    // (|y_i| ≥ 1 where x_i = 0 and x_i ≥ 0.5 where y_i = 0, so |y_i| < 2e-14 there); 1e-14 is
    // still ~50 ulps above the round-off floor of y near the solution. Relative/stagnation off
    // so only the absolute test can stop the run.
    StoppingCriteria { max_iterations: 2000, absolute: 1e-14, relative: 0.0, stagnation: 0.0 }
}

fn all_methods() -> Vec<SplittingSettings> {
    let mut v = vec![SplittingSettings::jacobi(), SplittingSettings::pgs()];
    for omega in [0.5, 1.0, 1.4, 1.9] {
        v.push(SplittingSettings::psor(omega));
    }
    v.into_iter().map(|s| s.with_stopping(tight())).collect()
}

#[test]
fn a3_two_by_two_all_methods_all_right_hand_sides() {
    let cases = [
        ([-1.0, 1.0], [0.5, 0.0], [0.0, 1.5]),
        ([-3.0, -3.0], [1.0, 1.0], [0.0, 0.0]),
        ([1.0, 2.0], [0.0, 0.0], [1.0, 2.0]),
    ];
    let a = a2();
    let csr = CsrMatrix::from_dense(&a);
    for (b, x_want, y_want) in cases {
        for s in all_methods() {
            for sol in
                [solve_splitting(&a, &b, None, &s).unwrap(), solve_splitting(&csr, &b, None, &s).unwrap()]
            {
                assert_eq!(sol.status, IterativeStatus::ConvergedAbsolute, "{:?} b={b:?}", s.method);
                for i in 0..2 {
                    assert!((sol.z[i] - x_want[i]).abs() <= 1e-8, "{:?} b={b:?}: {:?}", s.method, sol.z);
                    assert!((sol.w[i] - y_want[i]).abs() <= 1e-8);
                }
                assert!(sol.residual.min_map_inf <= 1e-8);
                assert_eq!(sol.merit_history.len(), sol.iterations);
                assert!(sol.iterations >= 1);
            }
        }
        let qp =
            solve_qp_pgs(&a, &b, None, &QpPgsSettings { stopping: tight(), ..Default::default() }).unwrap();
        assert_eq!(qp.status, IterativeStatus::ConvergedAbsolute);
        assert!((qp.z[0] - x_want[0]).abs() <= 1e-8 && (qp.z[1] - x_want[1]).abs() <= 1e-8);
    }
}

#[test]
fn a4_one_jacobi_iteration_and_one_pgs_sweep() {
    let one = StoppingCriteria { max_iterations: 1, absolute: 0.0, relative: 0.0, stagnation: 0.0 };
    let b = [-3.0, -3.0];
    let j = solve_splitting(&a2(), &b, None, &SplittingSettings::jacobi().with_stopping(one)).unwrap();
    assert_eq!(j.z, vec![1.5, 1.5]);
    assert_eq!((j.iterations, j.status), (1, IterativeStatus::MaxIterations));
    let g = solve_splitting(&a2(), &b, None, &SplittingSettings::pgs().with_stopping(one)).unwrap();
    assert_eq!(g.z, vec![1.5, 0.75]);
}

/// Spec §8 A5: the single sliding particle's contact matrix has A[5][5] = 0.
fn particle_contact_matrix() -> DenseMatrix {
    #[rustfmt::skip]
    let a = vec![
        1.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 1.0, 0.0, -1.0, 0.0, 1.0,
        0.0, 0.0, 1.0, 0.0, -1.0, 1.0,
        0.0, -1.0, 0.0, 1.0, 0.0, 1.0,
        0.0, 0.0, -1.0, 0.0, 1.0, 1.0,
        0.5, -1.0, -1.0, -1.0, -1.0, 0.0,
    ];
    DenseMatrix::from_row_major(6, a).unwrap()
}

#[test]
fn a5_splitting_refuses_the_zero_diagonal_contact_matrix() {
    let a = particle_contact_matrix();
    let csr = CsrMatrix::from_dense(&a);
    let b = [-1.0, 1.0, 0.0, -1.0, 0.0, 0.0];
    let want = LcpError::ZeroDiagonal { index: 5, value: 0.0 };
    for s in [SplittingSettings::jacobi(), SplittingSettings::pgs(), SplittingSettings::psor(1.4)] {
        assert_eq!(solve_splitting(&a, &b, None, &s).unwrap_err(), want);
        assert_eq!(solve_splitting(&csr, &b, None, &s).unwrap_err(), want);
    }
    let qp = QpPgsSettings { check_symmetry: false, ..Default::default() };
    assert_eq!(solve_qp_pgs(&a, &b, None, &qp).unwrap_err(), want);
    // With the symmetry check on, the non-symmetric matrix is refused first.
    assert!(matches!(
        solve_qp_pgs(&a, &b, None, &QpPgsSettings::default()),
        Err(LcpError::InvalidProblem { .. })
    ));
    // A negative diagonal entry is refused too.
    let neg = DenseMatrix::from_row_major(2, vec![1.0, 0.0, 0.0, -2.0]).unwrap();
    assert_eq!(
        solve_splitting(&neg, &[1.0, 1.0], None, &SplittingSettings::pgs()).unwrap_err(),
        LcpError::ZeroDiagonal { index: 1, value: -2.0 }
    );
}

#[test]
fn b1_psor_with_omega_one_is_bit_identical_to_pgs() {
    let mut rng = SmallRng::seed_from_u64(21);
    let a = dense_psd(30, 0.2, &mut rng).unwrap();
    let b = make_rhs(&a, RhsKind::MAKE_LCP_QUARTER, &mut rng).unwrap().b;
    let stop = StoppingCriteria { max_iterations: 40, absolute: 0.0, relative: 0.0, stagnation: 0.0 };
    for k in 1..=40 {
        let stop = StoppingCriteria { max_iterations: k, ..stop };
        let pgs = solve_splitting(&a, &b, None, &SplittingSettings::pgs().with_stopping(stop)).unwrap();
        let psor = solve_splitting(&a, &b, None, &SplittingSettings::psor(1.0).with_stopping(stop)).unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&pgs.z), bits(&psor.z), "iterate {k}");
        assert_eq!(bits(&pgs.merit_history), bits(&psor.merit_history));
    }
}

#[test]
fn b1_on_csr_and_the_csr_kernel_agrees_with_the_generic_one() {
    // Fluid(6) in CSR (the specialised sweep kernel) and the same matrix dense (the generic
    // row_dot kernel): PGS = PSOR(1) bit for bit within CSR, and both kernels compute the same
    // update up to rounding order (a few ulps per sweep; 40 sweeps of a contraction stay
    // within 1e-12 relative).
    let p = generate(&Family::FluidBanded { g: 6 }, RhsKind::MAKE_LCP_QUARTER, 9, 0).unwrap();
    let csr = p.matrix.to_csr();
    let dense = csr.to_dense();
    let stop = StoppingCriteria { max_iterations: 40, absolute: 0.0, relative: 0.0, stagnation: 0.0 };
    let pgs = solve_splitting(&csr, &p.b, None, &SplittingSettings::pgs().with_stopping(stop)).unwrap();
    let psor1 = solve_splitting(&csr, &p.b, None, &SplittingSettings::psor(1.0).with_stopping(stop)).unwrap();
    assert!(pgs.z.iter().zip(&psor1.z).all(|(a, b)| a.to_bits() == b.to_bits()));
    for omega in [1.0, 1.4] {
        let s = SplittingSettings::psor(omega).with_stopping(stop);
        let c = solve_splitting(&csr, &p.b, None, &s).unwrap();
        let d = solve_splitting(&dense, &p.b, None, &s).unwrap();
        for (u, v) in c.z.iter().zip(&d.z) {
            assert!((u - v).abs() <= 1e-12 * (1.0 + v.abs()), "omega {omega}: {u} vs {v}");
        }
    }
}

#[test]
fn b2_qp_objective_never_increases_after_a_component_update() {
    let mut rng = SmallRng::seed_from_u64(5);
    let n = 50;
    let a = dense_psd(n, 0.3, &mut rng).unwrap();
    let b = make_rhs(&a, RhsKind::MAKE_LCP_QUARTER, &mut rng).unwrap().b;
    let mut d = vec![0.0; n];
    a.diagonal(&mut d);
    let inv: Vec<f64> = d.iter().map(|v| 1.0 / v).collect();
    // f(x) and a bound on the round-off of evaluating it from scratch: each term of
    // ½Σ x_i((Ax)_i + 2b_i) carries a relative error ≤ (n + 2)ε, so the error is at most
    // (n + 2)ε · Σ|x_i|(Σ_j|A_ij x_j| + 2|b_i|) (the standard dot-product bound γ_{n+2}).
    let f_of = |x: &[f64]| {
        let mut y = vec![0.0; n];
        a.apply(x, &mut y);
        y.iter_mut().zip(&b).for_each(|(yi, bi)| *yi += bi);
        let mut mag = 0.0;
        for i in 0..n {
            let row: f64 = (0..n).map(|j| (a.get(i, j) * x[j]).abs()).sum();
            mag += x[i].abs() * (row + 2.0 * b[i].abs());
        }
        (qp_objective(x, &y, &b), (n as f64 + 2.0) * f64::EPSILON * mag)
    };
    for omega in [0.2, 1.0, 1.4, 2.0] {
        let mut x = vec![0.0; n];
        let mut aux = ();
        let (mut f, mut err) = f_of(&x);
        for _sweep in 0..15 {
            for i in 0..n {
                let (step, r) = relax_component(&a, &b, &mut x, &mut aux, &inv, omega, i);
                let (f_new, err_new) = f_of(&x);
                // Round-off allowance from the spec, 1e-12·(1 + |f|), plus the evaluation bound
                // of both f values (it matters for ω = 2, where f stays flat while x grows).
                let slack = 1e-12 * (1.0 + f.abs()) + err + err_new;
                assert!(f_new <= f + slack, "omega {omega}: f rose {f} -> {f_new}");
                // The exact change ½τ²A_ii + τ r_i (spec §3.4).
                let predicted = 0.5 * step * step * d[i] + step * r;
                assert!((f_new - f - predicted).abs() <= slack, "omega {omega}");
                assert!(x[i] >= 0.0);
                (f, err) = (f_new, err_new);
            }
        }
    }
    // The solver's merit history (f per sweep) is non-increasing as well.
    let s = QpPgsSettings {
        omega: 1.4,
        stopping: StoppingCriteria { max_iterations: 60, absolute: 0.0, relative: 0.0, stagnation: 0.0 },
        check_symmetry: true,
    };
    let sol = solve_qp_pgs(&a, &b, None, &s).unwrap();
    for w in sol.merit_history.windows(2) {
        assert!(w[1] <= w[0] + 1e-12 * (1.0 + w[0].abs()));
    }
}

#[test]
fn b8_never_converges_on_the_start_point() {
    // x⁰ = 0 makes (106) zero whatever b is; b has negative entries, so x = 0 is not a solution.
    let b = [-1.0, 1.0];
    for s in [SplittingSettings::jacobi(), SplittingSettings::pgs(), SplittingSettings::psor(1.4)] {
        let s = s.with_stopping(StoppingCriteria { absolute: 1e-3, ..StoppingCriteria::default() });
        let sol = solve_splitting(&a2(), &b, None, &s).unwrap();
        assert!(sol.iterations >= 1);
        assert!(sol.z[0] > 0.0);
        assert!(!(sol.status == IterativeStatus::ConvergedAbsolute && sol.iterations == 0));
    }
}

#[test]
fn feasibility_guard_blocks_a_blind_merit() {
    // A = [[1, −1], [−1, 2]] (PD), b = (0.2, −1). One PGS sweep from 0: x₀ stays 0 (r₀ = 0.2),
    // then x₁ = 0.5, which makes y₀ = −0.3 < 0 at x₀ = 0 and y₁ = 0. Merit (106) is exactly 0,
    // yet x is not a solution: the run must not report ConvergedAbsolute.
    let a = DenseMatrix::from_row_major(2, vec![1.0, -1.0, -1.0, 2.0]).unwrap();
    let b = [0.2, -1.0];
    let one = StoppingCriteria { max_iterations: 1, absolute: 1e-6, relative: 0.0, stagnation: 0.0 };
    let sol = solve_splitting(&a, &b, None, &SplittingSettings::pgs().with_stopping(one)).unwrap();
    assert_eq!(sol.z, vec![0.0, 0.5]);
    assert_eq!(sol.merit_history, vec![0.0]);
    assert_eq!(merit_106(&sol.z, &sol.w), 0.0);
    assert_eq!(sol.status, IterativeStatus::MaxIterations);
    assert!((sol.residual.min_w + 0.3).abs() < 1e-15);
    // Run on, it reaches the solution (0.6, 0.8).
    let sol = solve_splitting(&a, &b, None, &SplittingSettings::pgs().with_stopping(tight())).unwrap();
    assert_eq!(sol.status, IterativeStatus::ConvergedAbsolute);
    assert!((sol.z[0] - 0.6).abs() < 1e-8 && (sol.z[1] - 0.8).abs() < 1e-8);
}

#[test]
fn warm_start_from_the_solution_converges_in_one_sweep() {
    let b = [-3.0, -3.0];
    let s = SplittingSettings::psor(1.4)
        .with_stopping(StoppingCriteria { absolute: 1e-12, ..Default::default() });
    let sol = solve_splitting(&a2(), &b, Some(&[1.0, 1.0]), &s).unwrap();
    assert_eq!((sol.status, sol.iterations), (IterativeStatus::ConvergedAbsolute, 1));
    // A negative warm start is projected onto x ≥ 0.
    let sol = solve_splitting(&a2(), &b, Some(&[-5.0, 1.0]), &SplittingSettings::pgs()).unwrap();
    assert!(sol.status.is_solved());
}

#[test]
fn stagnation_and_relative_statuses() {
    // Started at the solution with the absolute test off: nothing moves, so Stagnated after
    // one sweep (never "converged" on a start point without a sweep).
    let stop =
        StoppingCriteria { max_iterations: 50, absolute: 0.0, relative: 0.0, stagnation: f64::EPSILON };
    let sol = solve_splitting(
        &a2(),
        &[-3.0, -3.0],
        Some(&[1.0, 1.0]),
        &SplittingSettings::pgs().with_stopping(stop),
    )
    .unwrap();
    assert_eq!((sol.status, sol.iterations), (IterativeStatus::Stagnated, 1));
    // A slow PSD problem with a loose relative tolerance stops on the relative test.
    let mut rng = SmallRng::seed_from_u64(12);
    let a = dense_psd(40, 0.5, &mut rng).unwrap();
    let b = make_rhs(&a, RhsKind::MAKE_LCP_QUARTER, &mut rng).unwrap().b;
    let stop = StoppingCriteria { max_iterations: 10_000, absolute: 0.0, relative: 1e-2, stagnation: 0.0 };
    let sol = solve_splitting(&a, &b, None, &SplittingSettings::pgs().with_stopping(stop)).unwrap();
    assert_eq!(sol.status, IterativeStatus::ConvergedRelative);
    let k = sol.iterations - 1;
    let h = &sol.merit_history;
    assert!(k >= 1 && (h[k] - h[k - 1]).abs() < 1e-2 * h[k - 1]);
}

#[test]
fn divergence_is_a_status_not_an_answer() {
    // Non-symmetric with a positive diagonal: the Jacobi/PGS iteration blows up.
    let a = DenseMatrix::from_row_major(2, vec![1.0, -10.0, -10.0, 1.0]).unwrap();
    let stop = StoppingCriteria { max_iterations: 2000, ..Default::default() };
    for s in [SplittingSettings::jacobi(), SplittingSettings::pgs()] {
        let sol = solve_splitting(&a, &[-1.0, -1.0], None, &s.with_stopping(stop)).unwrap();
        assert!(
            matches!(sol.status, IterativeStatus::NumericalFailure | IterativeStatus::MaxIterations),
            "{:?}",
            sol.status
        );
    }
}

#[test]
fn bad_input_is_an_error() {
    let a = a2();
    let s = SplittingSettings::pgs();
    assert!(matches!(solve_splitting(&a, &[1.0], None, &s), Err(LcpError::DimensionMismatch { .. })));
    assert!(matches!(solve_splitting(&a, &[f64::NAN, 1.0], None, &s), Err(LcpError::NonFinite { .. })));
    assert!(matches!(
        solve_splitting(&a, &[1.0, 1.0], Some(&[1.0]), &s),
        Err(LcpError::DimensionMismatch { .. })
    ));
    assert!(matches!(
        solve_splitting(&a, &[1.0, 1.0], Some(&[f64::INFINITY, 0.0]), &s),
        Err(LcpError::NonFinite { .. })
    ));
    for omega in [0.0, -1.0, 2.5, f64::NAN] {
        assert!(matches!(
            solve_splitting(&a, &[1.0, 1.0], None, &SplittingSettings::psor(omega)),
            Err(LcpError::InvalidSettings { field: "omega", .. })
        ));
        let q = QpPgsSettings { omega, ..Default::default() };
        assert!(matches!(solve_qp_pgs(&a, &[1.0, 1.0], None, &q), Err(LcpError::InvalidSettings { .. })));
    }
    let zero_iters = StoppingCriteria { max_iterations: 0, ..Default::default() };
    assert!(matches!(
        solve_splitting(&a, &[1.0, 1.0], None, &s.with_stopping(zero_iters)),
        Err(LcpError::InvalidSettings { .. })
    ));
    let nan_tol = StoppingCriteria { absolute: f64::NAN, ..Default::default() };
    assert!(matches!(
        solve_splitting(&a, &[1.0, 1.0], None, &s.with_stopping(nan_tol)),
        Err(LcpError::InvalidSettings { .. })
    ));
    assert_eq!(SplittingMethod::Psor { omega: 1.4 }.name(), "psor");
    assert_eq!(SplittingMethod::from_name("psor", 1.2), Ok(SplittingMethod::Psor { omega: 1.2 }));
    assert_eq!(SplittingMethod::from_name("jacobi", 0.0), Ok(SplittingMethod::Jacobi));
    assert!(matches!(SplittingMethod::from_name("sor", 1.0), Err(LcpError::InvalidSettings { .. })));
}

/// The natural-residual absolute test: a `ConvergedAbsolute` answer meets ‖min(x, y)‖∞ < ε_abs
/// on the data, and a looser ε stops earlier than the spec's merit test at ε².
#[test]
fn natural_residual_absolute_test() {
    use proxima_lcp::generate::{Family, RhsKind, generate};
    use proxima_lcp::iterative::AbsoluteTest;
    for i in 0..5 {
        let p = generate(&Family::DensePd { n: 50 }, RhsKind::PLANTED_QUARTER, 3, i).unwrap();
        let eps = 1e-6;
        let stopping =
            StoppingCriteria { max_iterations: 5000, absolute: eps, ..StoppingCriteria::default() };
        let natural = SplittingSettings::psor(1.4)
            .with_stopping(stopping)
            .with_absolute_test(AbsoluteTest::NaturalResidual);
        let sol = solve_splitting(&p.matrix, &p.b, None, &natural).unwrap();
        assert_eq!(sol.status, IterativeStatus::ConvergedAbsolute);
        assert!(sol.residual.min_map_inf < eps, "{:?}", sol.residual);
        let merit =
            SplittingSettings::psor(1.4).with_stopping(StoppingCriteria { absolute: eps * eps, ..stopping });
        let strict = solve_splitting(&p.matrix, &p.b, None, &merit).unwrap();
        assert!(sol.iterations <= strict.iterations, "{} vs {}", sol.iterations, strict.iterations);
    }
}
