//! Boxed LCPs with friction indices: a sliding / sticking particle with known answers (dense
//! and matrix-free), agreement with plain PGS when the box is [0, ∞), random boxes checked by
//! their natural residual, and bad bounds.

use proxima_lcp::LcpError;
use proxima_lcp::iterative::boxed::boxed_residual;
use proxima_lcp::iterative::{
    BoxBounds, BoxedSettings, IterativeStatus, SplittingSettings, StoppingCriteria, solve_boxed_pgs,
    solve_splitting,
};
use proxima_lcp::operator::{BlockDiagonal, ContactOperator, DenseMatrix, SprsCsr};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn tight() -> StoppingCriteria {
    StoppingCriteria { max_iterations: 10_000, absolute: 1e-13, relative: 0.0, stagnation: 0.0 }
}

/// One particle of mass `m` on the ground (normal +z), box friction along x and y with µ = 0.5
/// (ODE's model): J rows n = (0,0,1), t₁ = (1,0,0), t₂ = (0,1,0); variables (λ_n, λ_x, λ_y),
/// λ_n ≥ 0, |λ_x|, |λ_y| ≤ µλ_n; b = J u_free.
fn particle(m: f64) -> (SprsCsr, BlockDiagonal, BoxBounds) {
    let j = SprsCsr::new((3, 3), vec![0, 1, 2, 3], vec![2, 0, 1], vec![1.0, 1.0, 1.0]);
    let minv =
        BlockDiagonal::new(&[3], vec![1.0 / m, 0.0, 0.0, 0.0, 1.0 / m, 0.0, 0.0, 0.0, 1.0 / m]).unwrap();
    let bounds =
        BoxBounds::from_findex(vec![0.0, 0.0, 0.0], vec![f64::INFINITY, 0.5, 0.5], &[None, Some(0), Some(0)])
            .unwrap();
    (j, minv, bounds)
}

/// Final velocity u = u_free + M⁻¹ Jᵀ λ of the particle.
fn final_velocity(u_free: [f64; 3], lambda: &[f64], m: f64) -> [f64; 3] {
    [u_free[0] + lambda[1] / m, u_free[1] + lambda[2] / m, u_free[2] + lambda[0] / m]
}

#[test]
fn sliding_and_sticking_particle_known_answers() {
    // Sliding: u_free = (1, 0, −1). The normal impulse stops the fall (λ_n = m), friction is
    // capped at µλ_n = m/2 and opposes the motion, leaving u = (0.5, 0, 0) — the same final
    // velocity as the spec's §8 A5 sliding case. Sticking: u_free = (0.2, 0, −1): friction
    // m·0.2 < µλ_n stops the particle, u = 0.
    for m in [1.0, 2.0] {
        let (j, minv, bounds) = particle(m);
        let op = ContactOperator::new(j, &minv).unwrap();
        let dense =
            DenseMatrix::from_row_major(3, vec![1.0 / m, 0.0, 0.0, 0.0, 1.0 / m, 0.0, 0.0, 0.0, 1.0 / m])
                .unwrap();
        for (u_free, lambda_want, u_want) in [
            ([1.0, 0.0, -1.0], [m, -0.5 * m, 0.0], [0.5, 0.0, 0.0]),
            ([0.2, 0.0, -1.0], [m, -0.2 * m, 0.0], [0.0, 0.0, 0.0]),
        ] {
            let b = [u_free[2], u_free[0], u_free[1]];
            let settings = BoxedSettings { stopping: tight(), ..Default::default() };
            for sol in [
                solve_boxed_pgs(&op, &b, &bounds, None, &settings).unwrap(),
                solve_boxed_pgs(&dense, &b, &bounds, None, &settings).unwrap(),
            ] {
                assert_eq!(sol.status, IterativeStatus::ConvergedAbsolute);
                for k in 0..3 {
                    assert!((sol.x[k] - lambda_want[k]).abs() < 1e-12, "{:?}", sol.x);
                }
                let u = final_velocity(u_free, &sol.x, m);
                for k in 0..3 {
                    assert!((u[k] - u_want[k]).abs() < 1e-12, "{u:?}");
                }
                assert!(sol.residual.natural_inf < 1e-13 && sol.residual.bound_violation <= 0.0);
            }
        }
    }
}

#[test]
fn friction_bound_follows_the_normal_impulse() {
    // Two coupled rows: the normal impulse depends on the friction impulse through A, so the
    // bound µ|x_0| moves during the sweeps; the answer must satisfy the boxed conditions at
    // its own final bounds.
    let a = DenseMatrix::from_row_major(2, vec![2.0, 0.5, 0.5, 1.0]).unwrap();
    let b = [-2.0, 3.0];
    let bounds =
        BoxBounds::new(vec![0.0, 0.0], vec![f64::INFINITY, 0.0]).unwrap().with_friction(1, 0, 0.8).unwrap();
    let sol =
        solve_boxed_pgs(&a, &b, &bounds, None, &BoxedSettings { stopping: tight(), ..Default::default() })
            .unwrap();
    assert_eq!(sol.status, IterativeStatus::ConvergedAbsolute);
    // Exact answer: friction at its lower bound −0.8 x₀ (y₁ > 0), normal row at rest (y₀ = 0):
    // 2x₀ + 0.5(−0.8x₀) − 2 = 0 ⇒ x₀ = 2/1.6 = 1.25, x₁ = −1.
    assert!((sol.x[0] - 1.25).abs() < 1e-12 && (sol.x[1] + 1.0).abs() < 1e-12, "{:?}", sol.x);
    assert!(sol.y[0].abs() < 1e-12 && sol.y[1] > 0.0);
}

#[test]
fn nonnegative_box_matches_plain_pgs_iterates() {
    let mut rng = SmallRng::seed_from_u64(2);
    let n = 12;
    let r: Vec<f64> = (0..n * n).map(|_| rng.random::<f64>() - 0.5).collect();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] =
                (0..n).map(|k| r[i * n + k] * r[j * n + k]).sum::<f64>() + if i == j { 0.2 } else { 0.0 };
        }
    }
    let a = DenseMatrix::from_row_major(n, a).unwrap();
    let b: Vec<f64> = (0..n).map(|_| rng.random::<f64>() * 2.0 - 1.0).collect();
    let bounds = BoxBounds::nonnegative(n).unwrap();
    for omega in [1.0, 1.3] {
        for k in [1, 5, 30] {
            let stop = StoppingCriteria { max_iterations: k, absolute: 0.0, relative: 0.0, stagnation: 0.0 };
            let boxed =
                solve_boxed_pgs(&a, &b, &bounds, None, &BoxedSettings { omega, stopping: stop }).unwrap();
            let plain =
                solve_splitting(&a, &b, None, &SplittingSettings::psor(omega).with_stopping(stop)).unwrap();
            assert_eq!(boxed.x, plain.z, "omega {omega}, {k} sweeps");
        }
    }
}

#[test]
fn random_boxes_converge_to_a_verified_answer() {
    for seed in 0..20u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let n = rng.random_range(1..9);
        let r: Vec<f64> = (0..n * n).map(|_| rng.random::<f64>() - 0.5).collect();
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] =
                    (0..n).map(|k| r[i * n + k] * r[j * n + k]).sum::<f64>() + if i == j { 0.3 } else { 0.0 };
            }
        }
        let a = DenseMatrix::from_row_major(n, a).unwrap();
        let b: Vec<f64> = (0..n).map(|_| rng.random::<f64>() * 4.0 - 2.0).collect();
        let lo: Vec<f64> = (0..n)
            .map(|_| if rng.random::<f64>() < 0.3 { f64::NEG_INFINITY } else { -rng.random::<f64>() })
            .collect();
        let hi: Vec<f64> = (0..n)
            .map(|_| if rng.random::<f64>() < 0.3 { f64::INFINITY } else { rng.random::<f64>() })
            .collect();
        let bounds = BoxBounds::new(lo, hi).unwrap();
        let sol =
            solve_boxed_pgs(&a, &b, &bounds, None, &BoxedSettings { omega: 1.2, stopping: tight() }).unwrap();
        assert_eq!(sol.status, IterativeStatus::ConvergedAbsolute, "seed {seed}");
        let (_, res) = boxed_residual(&a, &b, &bounds, &sol.x);
        assert!(res.natural_inf < 1e-13 && res.bound_violation <= 0.0, "seed {seed}: {res:?}");
    }
}

#[test]
fn bad_bounds_are_errors() {
    let e = BoxBounds::new(vec![0.0, 2.0], vec![1.0, 1.0]).unwrap_err();
    assert_eq!(e, LcpError::InvalidBounds { index: 1, lo: 2.0, hi: 1.0 });
    assert!(matches!(
        BoxBounds::new(vec![f64::NAN], vec![1.0]),
        Err(LcpError::InvalidBounds { index: 0, .. })
    ));
    assert!(matches!(BoxBounds::new(vec![0.0], vec![f64::NAN]), Err(LcpError::InvalidBounds { .. })));
    assert!(matches!(
        BoxBounds::new(vec![f64::INFINITY], vec![f64::INFINITY]),
        Err(LcpError::InvalidBounds { .. })
    ));
    assert!(matches!(
        BoxBounds::new(vec![f64::NEG_INFINITY], vec![f64::NEG_INFINITY]),
        Err(LcpError::InvalidBounds { .. })
    ));
    assert!(matches!(BoxBounds::new(vec![0.0], vec![1.0, 2.0]), Err(LcpError::DimensionMismatch { .. })));
    assert_eq!(BoxBounds::new(vec![], vec![]).unwrap_err(), LcpError::Empty);
    let base = || BoxBounds::nonnegative(3).unwrap();
    assert!(matches!(base().with_friction(1, 5, 0.5), Err(LcpError::DimensionMismatch { .. })));
    assert!(matches!(base().with_friction(1, 1, 0.5), Err(LcpError::InvalidProblem { .. })));
    assert!(matches!(base().with_friction(1, 0, -0.5), Err(LcpError::InvalidBounds { .. })));
    assert!(matches!(base().with_friction(1, 0, f64::NAN), Err(LcpError::InvalidBounds { .. })));
    let chained = base().with_friction(1, 0, 0.5).unwrap();
    assert!(matches!(chained.clone().with_friction(2, 1, 0.5), Err(LcpError::InvalidProblem { .. })));
    assert!(matches!(chained.with_friction(0, 2, 0.5), Err(LcpError::InvalidProblem { .. })));
    assert!(matches!(
        BoxBounds::from_findex(vec![0.0; 2], vec![1.0; 2], &[None]),
        Err(LcpError::DimensionMismatch { .. })
    ));

    let a = DenseMatrix::from_row_major(2, vec![1.0, 0.0, 0.0, 0.0]).unwrap();
    let bounds = BoxBounds::nonnegative(2).unwrap();
    let s = BoxedSettings::default();
    assert_eq!(
        solve_boxed_pgs(&a, &[1.0, 1.0], &bounds, None, &s).unwrap_err(),
        LcpError::ZeroDiagonal { index: 1, value: 0.0 }
    );
    let a = DenseMatrix::from_row_major(2, vec![1.0, 0.0, 0.0, 1.0]).unwrap();
    assert!(matches!(
        solve_boxed_pgs(&a, &[1.0, 1.0], &BoxBounds::nonnegative(3).unwrap(), None, &s),
        Err(LcpError::DimensionMismatch { .. })
    ));
    assert!(matches!(
        solve_boxed_pgs(&a, &[1.0, f64::NAN], &bounds, None, &s),
        Err(LcpError::NonFinite { .. })
    ));
    assert!(matches!(
        solve_boxed_pgs(&a, &[1.0, 1.0], &bounds, Some(&[f64::NAN, 0.0]), &s),
        Err(LcpError::NonFinite { .. })
    ));
    assert!(matches!(
        solve_boxed_pgs(&a, &[1.0, 1.0], &bounds, None, &BoxedSettings { omega: 3.0, ..s }),
        Err(LcpError::InvalidSettings { .. })
    ));
    // A start outside the box is clamped into it.
    let sol = solve_boxed_pgs(&a, &[-1.0, 1.0], &bounds, Some(&[-4.0, 9.0]), &s).unwrap();
    assert!(sol.status.is_solved() && sol.x == vec![1.0, 0.0]);
}
