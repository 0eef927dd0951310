//! The QP/LP examples of Eberly, "Convex Quadratic Programming" §2 (Examples 1, 2, 3, 5), plus
//! infeasible, unbounded, equality-constrained and free-variable cases, through the QP API in
//! `f64` and exactly in `Rational`.

use proxima_lcp::qp::{ConvexQp, QpSettings, QpSolution, QpStatus, solve_qp};
use proxima_lcp::{Field, Rational};

/// n/d in the scalar type.
fn num<T: Field>(n: i64, d: i64) -> T {
    T::from_i64(n).div(&T::from_i64(d))
}

fn ints<T: Field>(v: &[i64]) -> Vec<T> {
    v.iter().map(|&x| T::from_i64(x)).collect()
}

fn close<T: Field>(a: &T, b: &T) -> bool {
    if T::EXACT { a == b } else { (a.to_f64() - b.to_f64()).abs() <= 1e-12 * (1.0 + b.to_f64().abs()) }
}

fn assert_vec<T: Field>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(close(g, w), "{what}[{i}]: got {g}, want {w} ({})", T::NAME);
    }
}

fn solve<T: Field>(qp: &ConvexQp<T>) -> QpSolution<T> {
    solve_qp(qp, &QpSettings::default()).expect("valid problem")
}

/// Example 1: minimize 2x0 − x1, x ≥ 0, x0 + x1 ≤ 3, x0 + 2x1 ≥ 2 (the constant of equation
/// (11), q₃ = −2) → x = (0, 3), f = −3, y = (1, 0), μ = (3, 0).
fn example_1<T: Field>(e1: i64) {
    let qp = ConvexQp::linear(ints::<T>(&[2, -1]), T::zero())
        .unwrap()
        .with_inequalities(ints(&[-1, -1, 1, 2]), ints(&[-3, e1]))
        .unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Solved);
    assert_vec(&s.x, &ints(&[0, 3]), "x");
    assert!(close(&s.objective, &T::from_i64(-3)));
    assert_vec(&s.multipliers.inequalities, &ints(&[1, 0]), "y");
    assert_vec(&s.multipliers.bounds, &ints(&[3, 0]), "mu");
    assert!(s.multipliers.equalities.is_empty());
    assert!(s.lcp.status.is_solved());
}

#[test]
fn example_1_f64_and_rational() {
    for e1 in [2, 0] {
        example_1::<f64>(e1);
        example_1::<Rational>(e1);
    }
}

/// Example 2: minimize x0 + x1, 0 ≤ x ≤ 2, x0 + x1 ≥ 1, x0 + x1 ≥ 2 (rows in the order of
/// equation (18)) → f = 2 on the edge x0 + x1 = 2 (infinitely many minimizers).
fn example_2<T: Field>() {
    let qp = ConvexQp::linear(ints::<T>(&[1, 1]), T::zero())
        .unwrap()
        .with_inequalities(ints(&[1, 1, 1, 1, -1, 0, 0, -1]), ints(&[1, 2, -2, -2]))
        .unwrap();
    let lcp = qp.to_lcp().unwrap();
    assert_eq!(lcp.lcp().unwrap().q(), ints::<T>(&[1, 1, -1, -2, 2, 2]).as_slice());
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Solved);
    assert!(close(&s.objective, &T::from_i64(2)));
    let sum = s.x[0].add(&s.x[1]);
    assert!(close(&sum, &T::from_i64(2)));
    for xi in &s.x {
        assert!(!xi.is_negative() && *xi <= T::from_i64(2));
    }
}

#[test]
fn example_2_f64_and_rational() {
    example_2::<f64>();
    example_2::<Rational>();
}

/// Example 3: minimize 2x0 − x1, x ≥ 0, x0 + x1 ≥ 0 → unbounded below; x is a feasible point.
fn example_3<T: Field>() {
    let qp = ConvexQp::linear(ints::<T>(&[2, -1]), T::zero())
        .unwrap()
        .with_inequalities(ints(&[1, 1]), ints(&[0]))
        .unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Unbounded);
    assert!(s.x.iter().all(|v| !v.is_negative()));
}

#[test]
fn example_3_unbounded_f64_and_rational() {
    example_3::<f64>();
    example_3::<Rational>();
}

/// Example 5: minimize (x0² + 2x1²)/2 − (x0 + x1), x ≥ 0, 2x0 + x1 ≥ 1 → x = (1, 1/2),
/// f = −3/4, the constraint inactive.
fn example_5<T: Field>() {
    let qp = ConvexQp::new(ints::<T>(&[1, 0, 0, 2]), ints(&[-1, -1]), T::zero())
        .unwrap()
        .with_inequalities(ints(&[2, 1]), ints(&[1]))
        .unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Solved);
    assert_vec(&s.x, &[T::one(), num(1, 2)], "x");
    assert!(close(&s.objective, &num(-3, 4)));
    assert_vec(&s.multipliers.inequalities, &[T::zero()], "y");
    assert_vec(&s.multipliers.bounds, &[T::zero(), T::zero()], "mu");
    assert_vec(&s.lcp.z, &[T::one(), num(1, 2), T::zero()], "z");
}

#[test]
fn example_5_f64_and_rational() {
    example_5::<f64>();
    example_5::<Rational>();
}

fn infeasible<T: Field>() {
    // LP: x ≥ 0 and x0 + x1 ≤ −1.
    let lp = ConvexQp::linear(ints::<T>(&[1, 1]), T::zero())
        .unwrap()
        .with_inequalities(ints(&[-1, -1]), ints(&[1]))
        .unwrap();
    assert_eq!(solve(&lp).status, QpStatus::Infeasible);
    // Strictly convex QP with the same constraints.
    let qp = ConvexQp::new(ints::<T>(&[1, 0, 0, 1]), ints(&[0, 0]), T::zero())
        .unwrap()
        .with_inequalities(ints(&[-1, -1]), ints(&[1]))
        .unwrap();
    assert_eq!(solve(&qp).status, QpStatus::Infeasible);
    // Equality: x0 + x1 = −1 with x ≥ 0.
    let eq = ConvexQp::new(ints::<T>(&[1, 0, 0, 1]), ints(&[0, 0]), T::zero())
        .unwrap()
        .with_equalities(ints(&[1, 1]), ints(&[-1]))
        .unwrap();
    assert_eq!(solve(&eq).status, QpStatus::Infeasible);
    // Free x0 with 5 ≤ x0 ≤ 4: the feasibility LP splits x0.
    let fr = ConvexQp::new(ints::<T>(&[1, 0, 0, 1]), ints(&[0, 0]), T::zero())
        .unwrap()
        .with_inequalities(ints(&[1, 0, -1, 0]), ints(&[5, -4]))
        .unwrap()
        .with_free(vec![0])
        .unwrap();
    assert_eq!(solve(&fr).status, QpStatus::Infeasible);
}

#[test]
fn infeasible_f64_and_rational() {
    infeasible::<f64>();
    infeasible::<Rational>();
}

fn unbounded<T: Field>() {
    // PSD but not PD: ½x0² − x1 with x ≥ 0 is unbounded along x1.
    let qp = ConvexQp::new(ints::<T>(&[1, 0, 0, 0]), ints(&[0, -1]), T::zero()).unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Unbounded);
    // ½x0² + x1 with x0 free, x1 ≥ 0 and x1 − x0 ≥ 0 (a constraint on the free variable):
    // f ≥ 0 with equality only at the origin.
    let qp = ConvexQp::new(ints::<T>(&[1, 0, 0, 0]), ints(&[0, 1]), T::zero())
        .unwrap()
        .with_inequalities(ints(&[-1, 1]), ints(&[0]))
        .unwrap()
        .with_free(vec![0])
        .unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Solved);
    assert_vec(&s.x, &ints(&[0, 0]), "x");
    // Free x0 with A_uu > 0 but an unbounded constrained direction: ½x0² − x1, x1 ≥ 0.
    let qp = ConvexQp::new(ints::<T>(&[1, 0, 0, 0]), ints(&[0, -1]), T::zero())
        .unwrap()
        .with_free(vec![0])
        .unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Unbounded);
    assert!(!s.x[1].is_negative());
}

#[test]
fn unbounded_f64_and_rational() {
    unbounded::<f64>();
    unbounded::<Rational>();
}

fn equalities_and_free<T: Field>() {
    // minimize ½(x0² + x1²), x0 free, x1 ≥ 0, x0 + x1 = 3 → x = (3/2, 3/2), λ = 3/2.
    let qp = ConvexQp::new(ints::<T>(&[1, 0, 0, 1]), ints(&[0, 0]), T::zero())
        .unwrap()
        .with_equalities(ints(&[1, 1]), ints(&[3]))
        .unwrap()
        .with_free(vec![0])
        .unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Solved);
    assert_vec(&s.x, &[num(3, 2), num(3, 2)], "x");
    assert_vec(&s.multipliers.equalities, &[num(3, 2)], "lambda");
    assert_vec(&s.multipliers.bounds, &[T::zero(), T::zero()], "mu");
    assert!(close(&s.objective, &num(9, 4)));
    // Negative multiplier: minimize ½|x − (4, 4)|², x0 + x1 = 2 → x = (1, 1), λ = −3.
    let qp = ConvexQp::new(ints::<T>(&[1, 0, 0, 1]), ints(&[-4, -4]), T::from_i64(16))
        .unwrap()
        .with_equalities(ints(&[1, 1]), ints(&[2]))
        .unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Solved);
    assert_vec(&s.x, &ints(&[1, 1]), "x");
    assert_vec(&s.multipliers.equalities, &ints(&[-3]), "lambda");
    assert!(close(&s.objective, &T::from_i64(9)));
}

#[test]
fn equalities_and_free_f64_and_rational() {
    equalities_and_free::<f64>();
    equalities_and_free::<Rational>();
}

fn all_free<T: Field>() {
    // No constraints: x = −A⁻¹b = (2/3, −1/3) with no LCP at all.
    let qp = ConvexQp::new(ints::<T>(&[2, 1, 1, 2]), ints(&[-1, 0]), T::zero())
        .unwrap()
        .with_free(vec![1, 0])
        .unwrap();
    assert_eq!(qp.free(), &[0, 1]);
    assert!(qp.to_lcp().unwrap().lcp().is_none());
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Solved);
    assert_vec(&s.x, &[num(2, 3), num(-1, 3)], "x");
    assert!(close(&s.objective, &num(-1, 3)));
    assert!(s.lcp.z.is_empty());
    // All free with a constraint: minimize ½|x|², x0 + x1 ≥ 2 → x = (1, 1), y = 1.
    let qp = ConvexQp::new(ints::<T>(&[1, 0, 0, 1]), ints(&[0, 0]), T::zero())
        .unwrap()
        .with_inequalities(ints(&[1, 1]), ints(&[2]))
        .unwrap()
        .with_free(vec![0, 1])
        .unwrap();
    assert_eq!(qp.to_lcp().unwrap().size(), 1);
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Solved);
    assert_vec(&s.x, &ints(&[1, 1]), "x");
    assert_vec(&s.multipliers.inequalities, &ints(&[1]), "y");
}

#[test]
fn all_free_f64_and_rational() {
    all_free::<f64>();
    all_free::<Rational>();
}

/// Convexity is the caller's promise: on a non-convex QP a ray termination is still reported
/// (as `Unbounded` here, correctly), and `Solved` only means a KKT point.
fn non_convex<T: Field>() {
    // −½x² − x with x ≥ 0: unbounded below.
    let qp = ConvexQp::new(ints::<T>(&[-1]), ints(&[-1]), T::zero()).unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Unbounded);
    assert_eq!(s.lcp.status, proxima_lcp::LcpStatus::NoSolution);
    // −½x² with x ≥ 0: x = 0 satisfies the KKT conditions (it is the maximum) and q = 0 ≥ 0.
    let qp = ConvexQp::new(ints::<T>(&[-1]), ints(&[0]), T::zero()).unwrap();
    let s = solve(&qp);
    assert_eq!(s.status, QpStatus::Solved);
    assert_vec(&s.x, &[T::zero()], "x");
}

#[test]
fn non_convex_is_reported_not_hidden() {
    non_convex::<f64>();
    non_convex::<Rational>();
}
