//! Eberly's worked examples ("Convex Quadratic Programming", §2: examples 1, 2, 3, 5), each
//! run in f64, f32, exact Rational, through the workspace and through the fixed path, against
//! the answers printed in the reference.

use proxima_lcp::lemke::{LemkeReport, LemkeWorkspace};
use proxima_lcp::{
    Field, Lcp, LcpStatus, LemkeSettings, QuadraticField, Rational, SolvePath, solve_lemke, solve_lemke_fixed,
};

fn lcp<T: Field>(m: &[&[i64]], q: &[i64]) -> Lcp<T> {
    Lcp::from_rows(
        m.iter().map(|row| row.iter().map(|&v| T::from_i64(v)).collect()).collect(),
        q.iter().map(|&v| T::from_i64(v)).collect(),
    )
    .unwrap()
}

fn fixed<T: Field, const N: usize>(m: &[&[i64]], q: &[i64]) -> ([[T; N]; N], [T; N]) {
    (
        core::array::from_fn(|i| core::array::from_fn(|j| T::from_i64(m[i][j]))),
        core::array::from_fn(|i| T::from_i64(q[i])),
    )
}

fn r(p: i64, q: i64) -> Rational {
    Rational::new(p, q)
}

// ---------------------------------------------------------------- example 1 (§2.2, eq. 11)
const EX1_M: &[&[i64]] = &[&[0, 0, 1, -1], &[0, 0, 1, -2], &[-1, -1, 0, 0], &[1, 2, 0, 0]];
const EX1_Q: &[i64] = &[2, -1, 3, -2];

#[test]
fn example1_unique_solution_rational() {
    let sol = solve_lemke(&lcp::<Rational>(EX1_M, EX1_Q), &LemkeSettings::textbook()).unwrap();
    assert_eq!(sol.status, LcpStatus::Solved);
    assert_eq!(sol.path, SolvePath::Lemke);
    assert_eq!(sol.z, vec![r(0, 1), r(3, 1), r(1, 1), r(0, 1)]);
    // Equation (17): w0 = 3, w3 = 4, w1 = w2 = 0.
    assert_eq!(sol.w, vec![r(3, 1), r(0, 1), r(0, 1), r(4, 1)]);
    assert!(sol.residual.min_map_inf.is_zero() && sol.residual.complementarity.is_zero());
    // The reference performs 5 exchanges (equations 13–17).
    assert_eq!(sol.pivots, 5);
}

#[test]
fn example1_floats_and_fixed() {
    let s = LemkeSettings::default();
    let sol = solve_lemke(&lcp::<f64>(EX1_M, EX1_Q), &s).unwrap();
    assert_eq!((sol.status, sol.path), (LcpStatus::Solved, SolvePath::Lemke));
    assert_eq!(sol.z, vec![0.0, 3.0, 1.0, 0.0]);
    let sol32 = solve_lemke(&lcp::<f32>(EX1_M, EX1_Q), &s).unwrap();
    assert_eq!(sol32.status, LcpStatus::Solved);
    for (a, b) in sol32.z.iter().zip([0.0f32, 3.0, 1.0, 0.0]) {
        assert!((a - b).abs() < 1e-5, "{:?}", sol32.z);
    }
    let (m, q) = fixed::<f64, 4>(EX1_M, EX1_Q);
    let fx = solve_lemke_fixed(&m, &q, &s).unwrap();
    assert_eq!((fx.status, fx.pivots), (LcpStatus::Solved, 5));
    assert_eq!(fx.z, [0.0, 3.0, 1.0, 0.0]);
    let (m, q) = fixed::<Rational, 4>(EX1_M, EX1_Q);
    let fx = solve_lemke_fixed(&m, &q, &s).unwrap();
    assert_eq!(fx.z, [r(0, 1), r(3, 1), r(1, 1), r(0, 1)]);
}

// ---------------------------------------------------------------- example 2 (§2.3, eq. 18)
const EX2_M: &[&[i64]] = &[
    &[0, 0, -1, -1, 1, 0],
    &[0, 0, -1, -1, 0, 1],
    &[1, 1, 0, 0, 0, 0],
    &[1, 1, 0, 0, 0, 0],
    &[-1, 0, 0, 0, 0, 0],
    &[0, -1, 0, 0, 0, 0],
];
const EX2_Q: &[i64] = &[1, 1, -1, -2, 2, 2];

#[test]
fn example2_infinitely_many_solutions() {
    // Rational: exact residual zero and objective x0 + x1 = 2 (the minimum of the LP).
    let sol = solve_lemke(&lcp::<Rational>(EX2_M, EX2_Q), &LemkeSettings::textbook()).unwrap();
    assert_eq!(sol.status, LcpStatus::Solved);
    assert!(sol.residual.min_map_inf.is_zero() && sol.residual.complementarity.is_zero());
    assert!(!sol.residual.min_z.is_negative() && !sol.residual.min_w.is_negative());
    assert_eq!(sol.z[0].add(&sol.z[1]), r(2, 1));
    // The reference breaks the tie of equation (20) arbitrarily and reaches x = (2, 0); the
    // lexicographic rule breaks it the other way and, symmetrically, reaches x = (0, 2).
    assert_eq!(&sol.z[..2], &[r(0, 1), r(2, 1)]);
    assert_eq!(sol.pivots, 3);

    let s = LemkeSettings::default();
    let f = solve_lemke(&lcp::<f64>(EX2_M, EX2_Q), &s).unwrap();
    assert_eq!(f.status, LcpStatus::Solved);
    assert!((f.z[0] + f.z[1] - 2.0).abs() < 1e-12 && f.residual.min_map_inf < 1e-12);
    let f32s = solve_lemke(&lcp::<f32>(EX2_M, EX2_Q), &s).unwrap();
    assert_eq!(f32s.status, LcpStatus::Solved);
    assert!((f32s.z[0] + f32s.z[1] - 2.0).abs() < 1e-5);
    let (m, q) = fixed::<f64, 6>(EX2_M, EX2_Q);
    let fx = solve_lemke_fixed(&m, &q, &s).unwrap();
    assert_eq!(fx.status, LcpStatus::Solved);
    assert!((fx.z[0] + fx.z[1] - 2.0).abs() < 1e-12 && fx.residual.min_map_inf < 1e-12);
}

// ---------------------------------------------------------------- example 3 (§2.4, eq. 23)
const EX3_M: &[&[i64]] = &[&[0, 0, -1], &[0, 0, -1], &[1, 1, 0]];
const EX3_Q: &[i64] = &[2, -1, 1];

fn assert_no_solution_ex3<T: Field>() {
    let problem = lcp::<T>(EX3_M, EX3_Q);
    let textbook = solve_lemke(&problem, &LemkeSettings::textbook()).unwrap();
    assert_eq!((textbook.status, textbook.path), (LcpStatus::NoSolution, SolvePath::Lemke), "{}", T::NAME);
    // The reference: one pivot (eq. 25), then z1 cannot enter.
    assert_eq!(textbook.pivots, 1);
    let default = solve_lemke(&problem, &LemkeSettings::default()).unwrap();
    assert_eq!(default.status, LcpStatus::NoSolution, "{}", T::NAME);
    assert!(default.pivots >= 1);
}

#[test]
fn example3_no_solution_every_scalar() {
    assert_no_solution_ex3::<Rational>();
    assert_no_solution_ex3::<f64>();
    assert_no_solution_ex3::<f32>();
    let default = solve_lemke(&lcp::<Rational>(EX3_M, EX3_Q), &LemkeSettings::default()).unwrap();
    assert!(matches!(default.path, SolvePath::Enumeration { .. }), "{:?}", default.path);
    let (m, q) = fixed::<f64, 3>(EX3_M, EX3_Q);
    assert_eq!(solve_lemke_fixed(&m, &q, &LemkeSettings::default()).unwrap().status, LcpStatus::NoSolution);
    assert_eq!(solve_lemke_fixed(&m, &q, &LemkeSettings::textbook()).unwrap().status, LcpStatus::NoSolution);
}

// ---------------------------------------------------------------- example 5 (§2.6, eq. 26)
const EX5_M: &[&[i64]] = &[&[1, 0, -2], &[0, 2, -1], &[2, 1, 0]];
const EX5_Q: &[i64] = &[-1, -1, -1];

#[test]
fn example5_degenerate_exact_and_float() {
    let sol = solve_lemke(&lcp::<Rational>(EX5_M, EX5_Q), &LemkeSettings::textbook()).unwrap();
    assert_eq!(sol.status, LcpStatus::Solved);
    assert_eq!(sol.z, vec![r(1, 1), r(1, 2), r(0, 1)]);
    assert_eq!(sol.w, vec![r(0, 1), r(0, 1), r(3, 2)]);
    // With the ε-perturbation the reference takes 5 pivots (equations 31–35).
    assert_eq!(sol.pivots, 5);

    let f = solve_lemke(&lcp::<f64>(EX5_M, EX5_Q), &LemkeSettings::default()).unwrap();
    assert_eq!((f.status, f.path), (LcpStatus::Solved, SolvePath::Lemke));
    for (a, b) in f.z.iter().zip([1.0, 0.5, 0.0]) {
        assert!((a - b).abs() <= 1e-15, "{:?}", f.z);
    }
    let f32s = solve_lemke(&lcp::<f32>(EX5_M, EX5_Q), &LemkeSettings::default()).unwrap();
    assert_eq!(f32s.status, LcpStatus::Solved);
    for (a, b) in f32s.z.iter().zip([1.0f32, 0.5, 0.0]) {
        assert!((a - b).abs() <= 1e-6, "{:?}", f32s.z);
    }
    let (m, q) = fixed::<Rational, 3>(EX5_M, EX5_Q);
    let fx = solve_lemke_fixed(&m, &q, &LemkeSettings::textbook()).unwrap();
    assert_eq!((fx.status, fx.pivots), (LcpStatus::Solved, 5));
    assert_eq!(fx.z, [r(1, 1), r(1, 2), r(0, 1)]);
    let (m, q) = fixed::<f32, 3>(EX5_M, EX5_Q);
    let fx = solve_lemke_fixed(&m, &q, &LemkeSettings::default()).unwrap();
    assert_eq!(fx.status, LcpStatus::Solved);
    for (a, b) in fx.z.iter().zip([1.0f32, 0.5, 0.0]) {
        assert!((a - b).abs() <= 1e-6, "{:?}", fx.z);
    }
}

/// Example 5 with its first row scaled by √2 (a positive row scale leaves z unchanged), solved
/// in the exact quadratic field ℚ(√2) through the generic field pivot.
#[test]
fn example5_in_quadratic_field() {
    let sqrt2 = QuadraticField::sqrt_of(Rational::from_integer(2)).unwrap();
    let entry = |i: usize, v: i64| {
        let v = QuadraticField::from_i64(v);
        if i == 0 { sqrt2.mul(&v) } else { v }
    };
    let m = (0..9).map(|k| entry(k / 3, EX5_M[k / 3][k % 3])).collect();
    let q = (0..3).map(|i| entry(i, EX5_Q[i])).collect();
    let lcp = Lcp::new(m, q).unwrap();
    let sol = solve_lemke(&lcp, &LemkeSettings::default()).unwrap();
    // (q₀ = -√2 is now the most negative entry, so the path differs from the unscaled one.)
    assert_eq!((sol.status, sol.path), (LcpStatus::Solved, SolvePath::Lemke));
    let expected =
        [QuadraticField::from_i64(1), QuadraticField::from_rational(r(1, 2)), QuadraticField::zero()];
    assert_eq!(sol.z, expected);
    assert!(sol.residual.min_map_inf.is_zero() && sol.residual.complementarity.is_zero());
    assert!(sol.w[2].sub(&QuadraticField::from_rational(r(3, 2))).is_zero());
}

// ---------------------------------------------------------------- workspace reuse, trivial q

#[test]
fn workspace_reuse_across_examples_and_trivial() {
    let mut ws = LemkeWorkspace::<Rational>::with_capacity(6);
    let s = LemkeSettings::default();
    let ex2 = lcp::<Rational>(EX2_M, EX2_Q);
    let rep: LemkeReport<Rational> = ws.solve(ex2.view(), &s).unwrap();
    assert_eq!(rep.status, LcpStatus::Solved);
    assert_eq!(ws.z().len(), 6);
    let ex5 = lcp::<Rational>(EX5_M, EX5_Q);
    let rep = ws.solve(ex5.view(), &s).unwrap();
    assert_eq!(rep.status, LcpStatus::Solved);
    assert_eq!(ws.z(), &[r(1, 1), r(1, 2), r(0, 1)]);
    assert_eq!(ws.w(), &[r(0, 1), r(0, 1), r(3, 2)]);
    // q ≥ 0 (zeros included): trivial, no pivot.
    let trivial = lcp::<Rational>(EX5_M, &[0, 2, 0]);
    let rep = ws.solve(trivial.view(), &s).unwrap();
    assert_eq!((rep.status, rep.pivots, rep.path), (LcpStatus::Trivial, 0, SolvePath::Trivial));
    assert_eq!(ws.z(), &[r(0, 1), r(0, 1), r(0, 1)]);
    assert_eq!(ws.w(), &[r(0, 1), r(2, 1), r(0, 1)]);
    let (m, q) = fixed::<f64, 3>(EX5_M, &[1, 0, 3]);
    let fx = solve_lemke_fixed(&m, &q, &s).unwrap();
    assert_eq!((fx.status, fx.pivots, fx.z), (LcpStatus::Trivial, 0, [0.0; 3]));
}
