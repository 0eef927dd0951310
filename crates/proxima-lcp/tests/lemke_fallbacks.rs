//! The fallbacks after a ray termination or an uncertified float answer: covering-vector
//! restarts, enumeration of complementary bases, and the exact rational re-solve. Each case is
//! checked against an independent truth (an exact residual of zero, or enumeration).

use proxima_lcp::lemke::LemkeFallback;
use proxima_lcp::{
    Field, Lcp, LcpStatus, LemkeSettings, Rational, SolvePath, solve_lemke, solve_lemke_fixed,
};

fn ri(v: i64) -> Rational {
    Rational::from_integer(v)
}

fn int_lcp<T: Field>(m: &[i64], q: &[i64]) -> Lcp<T> {
    Lcp::new(m.iter().map(|&v| T::from_i64(v)).collect(), q.iter().map(|&v| T::from_i64(v)).collect())
        .unwrap()
}

/// Found by a seeded random search: d = 1 ray-terminates, the first restart solves it.
const RESTART_M: [i64; 9] = [2, 1, 4, -2, 3, 0, 4, 0, 0];
const RESTART_Q: [i64; 3] = [-2, -1, -2];

#[test]
fn covering_restart_rescues_a_ray() {
    let textbook =
        solve_lemke(&int_lcp::<Rational>(&RESTART_M, &RESTART_Q), &LemkeSettings::textbook()).unwrap();
    assert_eq!(textbook.status, LcpStatus::NoSolution);
    let only_restarts = LemkeSettings {
        fallback: LemkeFallback { covering_restarts: 4, ..LemkeFallback::none() },
        ..LemkeSettings::default()
    };
    let exact = solve_lemke(&int_lcp::<Rational>(&RESTART_M, &RESTART_Q), &only_restarts).unwrap();
    assert_eq!((exact.status, exact.path), (LcpStatus::Solved, SolvePath::LemkeRestart { attempt: 1 }));
    assert_eq!(exact.z, vec![Rational::new(5, 8), Rational::new(3, 4), ri(0)]);
    assert!(exact.residual.min_map_inf.is_zero());
    // Pivots accumulate over the attempts.
    assert!(exact.pivots > textbook.pivots);
    let float = solve_lemke(&int_lcp::<f64>(&RESTART_M, &RESTART_Q), &LemkeSettings::default()).unwrap();
    assert_eq!((float.status, float.path, float.pivots), (LcpStatus::Solved, exact.path, exact.pivots));
    for (a, b) in float.z.iter().zip(&exact.z) {
        assert!((a - b.to_f64()).abs() < 1e-14);
    }
    let m: [[f64; 3]; 3] = core::array::from_fn(|i| core::array::from_fn(|j| RESTART_M[3 * i + j] as f64));
    let fixed = solve_lemke_fixed(&m, &RESTART_Q.map(|v| v as f64), &LemkeSettings::default()).unwrap();
    assert_eq!(
        (fixed.status, fixed.path, fixed.z),
        (float.status, float.path, [float.z[0], float.z[1], float.z[2]])
    );
}

/// Siconos' CPS_3 (a bimatrix game): no covering vector helps, enumeration finds a solution.
#[test]
fn enumeration_solves_bimatrix_game() {
    let m = [0, 0, 10, 20, 0, 0, 30, 15, 10, 20, 0, 0, 30, 15, 0, 0];
    let q = [-1; 4];
    let no_enumeration = LemkeSettings {
        fallback: LemkeFallback { covering_restarts: 8, ..LemkeFallback::none() },
        ..LemkeSettings::default()
    };
    let sol = solve_lemke(&int_lcp::<Rational>(&m, &q), &no_enumeration).unwrap();
    assert_eq!(sol.status, LcpStatus::NoSolution);
    let sol = solve_lemke(&int_lcp::<Rational>(&m, &q), &LemkeSettings::default()).unwrap();
    assert_eq!(sol.status, LcpStatus::Solved);
    assert!(matches!(sol.path, SolvePath::Enumeration { .. }));
    assert!(sol.residual.min_map_inf.is_zero() && sol.residual.complementarity.is_zero());
    let float = solve_lemke(&int_lcp::<f64>(&m, &q), &LemkeSettings::default()).unwrap();
    assert_eq!((float.status, float.path), (LcpStatus::Solved, sol.path));
}

/// A genuine pivot below the float candidate threshold (1e-13 < 1e-12 · scale) but far above
/// round-off: the float ray is "dubious", enumeration cannot decide either (the principal
/// submatrices holding 1e-13 are singular to tolerance), so the problem is re-solved exactly:
/// z₀ = 10¹³ as the rational problem states. (With restarts enabled, a covering vector that
/// scales row 0 up lets the float run itself pivot on the entry: also a valid path.)
#[test]
fn exact_resolve_overturns_a_dubious_float_ray() {
    let tiny = 1e-13;
    let lcp = Lcp::new(vec![tiny, 0.0, 0.0, 1.0], vec![-1.0, -1.0]).unwrap();
    let no_restarts = LemkeSettings {
        fallback: LemkeFallback { covering_restarts: 0, ..LemkeFallback::default() },
        ..LemkeSettings::default()
    };
    let sol = solve_lemke(&lcp, &no_restarts).unwrap();
    assert_eq!((sol.status, sol.path), (LcpStatus::Solved, SolvePath::ExactResolve));
    // Independent truth: z₀ = 1 / (the exact rational value of the f64 1e-13), z₁ = 1.
    let exact_z0 = Rational::from_f64_exact(tiny).unwrap().recip();
    assert_eq!(sol.z, vec![exact_z0.to_f64(), 1.0]);
    assert!(sol.residual.min_map_inf <= 1e-3, "{:?}", sol.residual);
    let exact = solve_lemke(&lcp.convert::<Rational>(), &LemkeSettings::textbook()).unwrap();
    assert_eq!(exact.z, vec![exact_z0, ri(1)]);
    // Without the exact re-solve the float verdict stands.
    let no_exact = LemkeSettings {
        fallback: LemkeFallback { covering_restarts: 0, exact_resolve_max_n: 0, ..LemkeFallback::default() },
        ..LemkeSettings::default()
    };
    let float = solve_lemke(&lcp, &no_exact).unwrap();
    assert_eq!(
        (float.status, float.path),
        (LcpStatus::NoSolution, SolvePath::Enumeration { singular_skipped: 2 })
    );
    // A smaller candidate threshold makes the pivot an ordinary one; so does a restart.
    let fine = LemkeSettings { pivot_tolerance: 1e-15, ..LemkeSettings::default() };
    let sol = solve_lemke(&lcp, &fine).unwrap();
    assert_eq!((sol.status, sol.path), (LcpStatus::Solved, SolvePath::Lemke));
    let sol = solve_lemke(&lcp, &LemkeSettings::default()).unwrap();
    assert_eq!((sol.status, sol.path), (LcpStatus::Solved, SolvePath::LemkeRestart { attempt: 3 }));
}

/// A float run whose "solution" fails its residual certificate is never reported solved.
#[test]
fn uncertified_float_answer_is_repaired_or_reported() {
    #[rustfmt::skip]
    let m = vec![
        0.9, 0.1, 0.8, -0.2, 0.12000000000000001,
        0.5, 0.1, -0.3, 0.6, 0.08,
        -0.6, 0.9, 0.0, 0.9, 0.21000000000000002,
        -0.9, -0.4, 0.5, -0.3, -0.21000000000000002,
        0.62, 0.09999999999999999, 0.03, 0.36, 0.092,
    ];
    let q = vec![0.7, -0.4, -0.6, 0.7, -0.4];
    let lcp = Lcp::new(m, q).unwrap();
    let with_exact = LemkeSettings {
        pivot_tolerance: 0.0,
        fallback: LemkeFallback { exact_resolve_max_n: 64, ..LemkeFallback::none() },
        ..LemkeSettings::default()
    };
    let repaired = solve_lemke(&lcp, &with_exact).unwrap();
    assert_eq!((repaired.status, repaired.path), (LcpStatus::Solved, SolvePath::ExactResolve));
    assert!(repaired.residual.min_map_inf <= 1e-12);
    let exact = solve_lemke(&lcp.convert::<Rational>(), &LemkeSettings::textbook()).unwrap();
    assert_eq!(repaired.z, exact.z.iter().map(Rational::to_f64).collect::<Vec<_>>());

    let without = LemkeSettings { fallback: LemkeFallback::none(), ..with_exact.clone() };
    let failed = solve_lemke(&lcp, &without).unwrap();
    assert_eq!(failed.status, LcpStatus::NumericalFailure);
    assert!(failed.residual.min_map_inf > 1e-3, "{:?}", failed.residual);
    // The fixed path runs the same fallbacks.
    let ma: [[f64; 5]; 5] = core::array::from_fn(|i| core::array::from_fn(|j| lcp.m()[5 * i + j]));
    let qa: [f64; 5] = core::array::from_fn(|i| lcp.q()[i]);
    assert_eq!(solve_lemke_fixed(&ma, &qa, &without).unwrap().status, LcpStatus::NumericalFailure);
    let fixed = solve_lemke_fixed(&ma, &qa, &with_exact).unwrap();
    assert_eq!(
        (fixed.status, fixed.path, &fixed.z[..]),
        (LcpStatus::Solved, SolvePath::ExactResolve, &repaired.z[..])
    );
}

/// Enumeration with no singular principal submatrix is a proof of infeasibility; the exact and
/// float runs agree.
#[test]
fn enumeration_certificate_of_no_solution() {
    // Found by the random search of `lemke_degenerate` (Lemke ray-terminates there too).
    let m = [-2, -1, 0, 2, -1, 1, 0, 2, 2, 0, -2, 0, 2, 1, 1, 1];
    let q = [0, -1, -1, -1];
    let exact = solve_lemke(&int_lcp::<Rational>(&m, &q), &LemkeSettings::default()).unwrap();
    assert_eq!(
        (exact.status, exact.path),
        (LcpStatus::NoSolution, SolvePath::Enumeration { singular_skipped: 0 })
    );
    let float = solve_lemke(&int_lcp::<f64>(&m, &q), &LemkeSettings::default()).unwrap();
    assert_eq!((float.status, float.path), (exact.status, exact.path));
}
