//! The primal active-set solver against an independent algorithm (Lemke through `solve_qp`)
//! on random convex QPs: positive definite, rank-deficient (PSD) and degenerate ones, plus
//! infeasible / unbounded problems and bad input.

use proxima_lcp::active_set::{ActiveSetSettings, ActiveSetStatus, InequalityQp, solve_active_set};
use proxima_lcp::{ConvexQp, LcpError, QpSettings, QpStatus, solve_qp};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// H = LLᵀ with L n × rank, entries in [-1, 1].
fn random_psd(rng: &mut SmallRng, n: usize, rank: usize) -> Vec<f64> {
    let l: Vec<f64> = (0..n * rank).map(|_| rng.random_range(-1.0..1.0)).collect();
    let mut h = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            h[i * n + j] = (0..rank).map(|k| l[i * rank + k] * l[j * rank + k]).sum();
        }
    }
    h
}

/// The same problem both ways: x ≥ 0 and D x ≥ e.
fn both(n: usize, h: &[f64], c: &[f64], d: &[f64], e: &[f64]) -> (InequalityQp, ConvexQp<f64>) {
    let m = e.len();
    let mut a = vec![0.0; n * n];
    (0..n).for_each(|i| a[i * n + i] = 1.0);
    a.extend_from_slice(d);
    let mut b = vec![0.0; n];
    b.extend_from_slice(e);
    let _ = m;
    let ours = InequalityQp::new(n, h.to_vec(), c.to_vec(), a, b).unwrap();
    let reference = ConvexQp::new(h.to_vec(), c.to_vec(), 0.0)
        .unwrap()
        .with_inequalities(d.to_vec(), e.to_vec())
        .unwrap();
    (ours, reference)
}

fn check_kkt(qp: &InequalityQp, sol: &proxima_lcp::active_set::ActiveSetSolution) {
    // Residuals are computed from the data; scale 1 + |entries| ≈ a few.
    let tol = 1e-8 * (1.0 + sol.x.iter().fold(0.0f64, |s, v| s.max(v.abs())));
    assert!(sol.residual.stationarity <= tol, "{:?}", sol.residual);
    assert!(sol.residual.primal_infeasibility <= tol, "{:?}", sol.residual);
    assert!(sol.residual.complementarity <= tol, "{:?}", sol.residual);
    assert!(sol.multipliers.iter().all(|&l| l >= 0.0));
    assert_eq!(sol.multipliers.len(), qp.m());
}

#[test]
fn agrees_with_lemke_on_random_convex_qps() {
    let mut rng = SmallRng::seed_from_u64(6);
    let (mut solved, mut psd_solved) = (0, 0);
    for trial in 0..150 {
        let n = rng.random_range(1..7);
        let m = rng.random_range(0..8);
        let rank = if trial % 3 == 0 { rng.random_range(0..=n) } else { n };
        let h = random_psd(&mut rng, n, rank);
        let c: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
        let d: Vec<f64> = (0..m * n).map(|_| rng.random_range(-1.0..1.0)).collect();
        let e: Vec<f64> = (0..m).map(|_| rng.random_range(-2.0..0.5)).collect();
        let (ours, reference) = both(n, &h, &c, &d, &e);
        let a = solve_active_set(&ours, None, &ActiveSetSettings::default()).unwrap();
        if rank < n {
            // Rank-deficient H sends the float Lemke run into its (slow, debug-mode) exact
            // re-solve; the KKT residuals from the data are the independent check here.
            if a.status == ActiveSetStatus::Solved {
                check_kkt(&ours, &a);
                psd_solved += 1;
            } else {
                assert!(
                    matches!(a.status, ActiveSetStatus::Unbounded | ActiveSetStatus::Infeasible),
                    "{a:?}"
                );
            }
            continue;
        }
        // No exact re-solve (slow in debug); an uncertified float run is skipped below.
        let mut qs = QpSettings::default();
        qs.lemke.fallback.exact_resolve_max_n = 0;
        let r = solve_qp(&reference, &qs).unwrap();
        // A rank-deficient H can make the problem unbounded while the float Lemke run ends on
        // a huge "solution" (|x| ~ 1e17): that is the unbounded case.
        let huge = r.x.iter().any(|v| v.abs() > 1e8);
        match r.status {
            QpStatus::Solved if huge => assert_eq!(a.status, ActiveSetStatus::Unbounded, "trial {trial}"),
            QpStatus::Solved => {
                assert_eq!(a.status, ActiveSetStatus::Solved, "trial {trial}: {a:?} {r:?}");
                check_kkt(&ours, &a);
                // Optimal values agree (the minimizer itself is unique only for rank n).
                let scale = 1.0 + r.objective.abs();
                assert!(
                    (a.objective - r.objective).abs() <= 1e-9 * scale,
                    "trial {trial}: {} vs {}",
                    a.objective,
                    r.objective
                );
                for (p, q) in a.x.iter().zip(&r.x) {
                    assert!((p - q).abs() <= 1e-7 * (1.0 + q.abs()), "trial {trial}");
                }
                solved += 1;
            }
            QpStatus::Infeasible => assert_eq!(a.status, ActiveSetStatus::Infeasible, "trial {trial}"),
            QpStatus::Unbounded => assert_eq!(a.status, ActiveSetStatus::Unbounded, "trial {trial}"),
            _ => {} // the reference did not certify its float run: nothing to compare
        }
    }
    assert!(solved > 60 && psd_solved > 10, "{solved} {psd_solved}");
}

#[test]
fn degenerate_vertex_with_redundant_constraints_terminates() {
    // min ½|x − (1, 1, 1)|² in the simplex-like cone x ≥ 0, with 6 extra constraints all
    // passing through the optimum's neighbourhood vertex at the origin (degenerate).
    let h = vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let c = vec![1.0, 1.0, 1.0]; // optimum at the origin: x = max(0, −c)
    let mut a = vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let extra = [
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 1.0],
        [1.0, 0.0, 1.0],
        [1.0, 1.0, 1.0],
        [2.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let mut b = vec![0.0; 3];
    for r in extra {
        a.extend_from_slice(&r);
        b.push(0.0);
    }
    let qp = InequalityQp::new(3, h, c, a, b).unwrap();
    let sol = solve_active_set(&qp, Some(&[1.0, 2.0, 3.0]), &ActiveSetSettings::default()).unwrap();
    assert_eq!(sol.status, ActiveSetStatus::Solved);
    assert!(sol.x.iter().all(|v| v.abs() < 1e-12));
    check_kkt(&qp, &sol);
}

#[test]
fn distance_qp_with_semidefinite_hessian() {
    // Two unit cubes, the second centred at (3, 0.5, 0): distance 1 along x. H = [I −I; −I I]
    // is only PSD (the delta subproblem is singular with few active constraints).
    let mut h = vec![0.0; 36];
    for i in 0..3 {
        h[i * 6 + i] = 1.0;
        h[(i + 3) * 6 + i + 3] = 1.0;
        h[i * 6 + i + 3] = -1.0;
        h[(i + 3) * 6 + i] = -1.0;
    }
    let mut a = Vec::new();
    let mut b = Vec::new();
    for (obj, centre) in [(0, [0.0, 0.0, 0.0]), (1, [3.0, 0.5, 0.0])] {
        for k in 0..3 {
            for s in [1.0, -1.0] {
                let mut row = vec![0.0; 6];
                row[obj * 3 + k] = s;
                a.extend_from_slice(&row);
                b.push(s * centre[k] - 1.0);
            }
        }
    }
    let qp = InequalityQp::new(6, h, vec![0.0; 6], a, b).unwrap();
    let sol =
        solve_active_set(&qp, Some(&[0.0, 0.0, 0.0, 3.0, 0.5, 0.0]), &ActiveSetSettings::default()).unwrap();
    assert_eq!(sol.status, ActiveSetStatus::Solved);
    assert!((2.0 * sol.objective - 1.0).abs() < 1e-12, "{}", sol.objective);
    check_kkt(&qp, &sol);
}

#[test]
fn unconstrained_and_unbounded_and_infeasible() {
    let qp = InequalityQp::new(2, vec![2.0, 0.0, 0.0, 2.0], vec![-2.0, 4.0], vec![], vec![]).unwrap();
    let sol = solve_active_set(&qp, None, &ActiveSetSettings::default()).unwrap();
    assert_eq!(sol.status, ActiveSetStatus::Solved);
    assert!((sol.x[0] - 1.0).abs() < 1e-12 && (sol.x[1] + 2.0).abs() < 1e-12);
    // min −x₁ with x₁ ≥ 0 only: unbounded.
    let qp =
        InequalityQp::new(2, vec![0.0, 0.0, 0.0, 1.0], vec![-1.0, 0.0], vec![1.0, 0.0], vec![0.0]).unwrap();
    assert_eq!(
        solve_active_set(&qp, None, &ActiveSetSettings::default()).unwrap().status,
        ActiveSetStatus::Unbounded
    );
    // x ≥ 1 and −x ≥ 0: infeasible.
    let qp = InequalityQp::new(1, vec![1.0], vec![0.0], vec![1.0, -1.0], vec![1.0, 0.0]).unwrap();
    assert_eq!(
        solve_active_set(&qp, None, &ActiveSetSettings::default()).unwrap().status,
        ActiveSetStatus::Infeasible
    );
    // Indefinite H.
    let qp = InequalityQp::new(1, vec![-1.0], vec![0.0], vec![1.0], vec![0.0]).unwrap();
    let sol = solve_active_set(&qp, Some(&[1.0]), &ActiveSetSettings::default()).unwrap();
    assert_eq!(sol.status, ActiveSetStatus::NonConvex);
}

#[test]
fn bad_input_is_an_error() {
    assert_eq!(InequalityQp::new(0, vec![], vec![], vec![], vec![]), Err(LcpError::Empty));
    assert!(matches!(
        InequalityQp::new(2, vec![1.0; 3], vec![0.0; 2], vec![], vec![]),
        Err(LcpError::DimensionMismatch { .. })
    ));
    assert!(matches!(
        InequalityQp::new(1, vec![f64::NAN], vec![0.0], vec![], vec![]),
        Err(LcpError::NonFinite { .. })
    ));
    assert!(matches!(
        InequalityQp::new(2, vec![1.0, 2.0, 0.0, 1.0], vec![0.0; 2], vec![], vec![]),
        Err(LcpError::InvalidProblem { .. })
    ));
    let qp = InequalityQp::new(1, vec![1.0], vec![0.0], vec![1.0], vec![1.0]).unwrap();
    let s = ActiveSetSettings::default();
    assert!(matches!(solve_active_set(&qp, Some(&[0.0]), &s), Err(LcpError::InvalidProblem { .. })));
    assert!(matches!(solve_active_set(&qp, Some(&[f64::INFINITY]), &s), Err(LcpError::NonFinite { .. })));
    assert!(matches!(solve_active_set(&qp, Some(&[1.0, 2.0]), &s), Err(LcpError::DimensionMismatch { .. })));
    let bad = ActiveSetSettings { step_tolerance: -1.0, ..Default::default() };
    assert!(matches!(solve_active_set(&qp, None, &bad), Err(LcpError::InvalidSettings { .. })));
}
