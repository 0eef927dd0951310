//! Property: no method reports success (`ConvergedAbsolute`, `Solved`/`Trivial`) unless the
//! residual computed from A and b meets the method's tolerance — on random (also indefinite
//! and unsolvable) problems.

use proptest::prelude::*;
use proxima_lcp::baraff::{BaraffSettings, solve_baraff};
use proxima_lcp::iterative::{
    FischerSettings, IterativeStatus, JacobianStrategy, NewtonSettings, SubSolver, solve_fischer_newton,
    solve_minmap_newton,
};
use proxima_lcp::operator::DenseMatrix;
use proxima_lcp::{Lcp, LcpStatus, LemkeSettings, solve_lemke};

fn problem() -> impl Strategy<Value = (usize, Vec<f64>, Vec<f64>)> {
    (1usize..7).prop_flat_map(|n| {
        (Just(n), prop::collection::vec(-3.0f64..3.0, n * n), prop::collection::vec(-3.0f64..3.0, n))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn success_is_always_certified((n, mut a, b) in problem(), shift in 0.0f64..4.0, direct in any::<bool>()) {
        for i in 0..n {
            a[i * n + i] += shift;
        }
        let a = DenseMatrix::from_row_major(n, a).unwrap();
        let sub_solver = if direct { SubSolver::Direct } else { SubSolver::default() };
        let ns = NewtonSettings { sub_solver, ..NewtonSettings::default() };
        let eps = ns.stopping.absolute;
        // θ = ½‖min(x, y)‖² < ε ⇒ ‖min(x, y)‖∞ < √(2ε); for φ, |min| ≤ |φ|/(2 − √2).
        let minmap_bound = (2.0 * eps).sqrt() * (1.0 + 1e-9);
        let fischer_bound = minmap_bound / (2.0 - 2f64.sqrt());
        let sol = solve_minmap_newton(&a, &b, None, &ns).unwrap();
        if sol.status == IterativeStatus::ConvergedAbsolute {
            prop_assert!(sol.residual.min_map_inf <= minmap_bound, "{:?}", sol.residual);
            prop_assert!(sol.residual.min_z >= 0.0);
        }
        let strategies = [JacobianStrategy::Zero, JacobianStrategy::Random { seed: 1 },
            JacobianStrategy::default_perturbation(), JacobianStrategy::default_approximation()];
        for strategy in strategies {
            if direct && matches!(strategy, JacobianStrategy::Approximation { .. }) {
                continue;
            }
            let fs = FischerSettings { newton: ns, strategy, ..FischerSettings::default() };
            let sol = solve_fischer_newton(&a, &b, None, &fs).unwrap();
            if sol.status == IterativeStatus::ConvergedAbsolute {
                prop_assert!(sol.residual.min_map_inf <= fischer_bound, "{:?}", sol.residual);
            }
        }
        let bs = BaraffSettings::default();
        let sol = solve_baraff(&a, &b, &bs).unwrap();
        if sol.status == LcpStatus::NoSolution {
            // The certificate, checked independently: d ≥ 0, Aᵀd ≤ 0, bᵀd < 0 (to round-off) …
            let d = sol.infeasibility_certificate.clone().unwrap();
            let d1: f64 = d.iter().map(|v| v.abs()).sum();
            prop_assert!(d.iter().all(|v| *v >= 0.0));
            for j in 0..n {
                let g: f64 = (0..n).map(|i| a.get(i, j) * d[i]).sum();
                prop_assert!(g <= 1e-8 * d1 * 6.0);
            }
            prop_assert!(d.iter().zip(&b).map(|(x, y)| x * y).sum::<f64>() < 0.0);
            // … and Lemke (with its enumeration fallback, exhaustive for n ≤ 12) finds none.
            let lcp = Lcp::new(a.data().to_vec(), b.clone()).unwrap();
            let lemke = solve_lemke(&lcp, &LemkeSettings::default()).unwrap();
            prop_assert!(!lemke.status.is_solved(), "Baraff: no solution; Lemke: {:?}", lemke.z);
        }
        if sol.status.is_solved() {
            let xmax = sol.z.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let amax = a.data().iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let bmax = b.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            prop_assert!(sol.residual.min_map_inf <= bs.residual_tolerance * bmax.max(amax * xmax));
            prop_assert!(sol.residual.min_z >= 0.0);
        }
    }
}
