//! An LCP and a convex QP, each in `f64` and exactly in rationals.
//!
//! `cargo run -p proxima-lcp --example lcp_and_qp`
//!
//! * **LCP(M, q)**: find z ≥ 0 with w = M z + q ≥ 0 and zᵀw = 0. Every answer carries its
//!   residuals (‖min(z, w)‖∞, |zᵀw|, the most negative z and w) computed from M and q, and a
//!   status: "no solution" is an answer, not an error.
//! * **Convex QP**: minimize ½xᵀAx + bᵀx + c subject to x ≥ 0 and D x ≥ e, solved through its
//!   KKT conditions (an LCP), with the multipliers.
//!
//! The same generic code runs on `f64` and on `Rational`; exact runs give exact answers.

use proxima_lcp::{
    ConvexQp, Field, Lcp, LcpError, LcpStatus, LemkeSettings, QpSettings, QpStatus, Rational, solve_lemke,
    solve_qp,
};

/// Eberly's Example 5: M = [[1, 0, −2], [0, 2, −1], [2, 1, 0]], q = (−1, −1, −1).
/// Its solution is z = (1, 1/2, 0), w = (0, 0, 3/2).
fn example_lcp<T: Field>() -> Result<Lcp<T>, LcpError> {
    let m = [[1, 0, -2], [0, 2, -1], [2, 1, 0]];
    let rows = m.iter().map(|r| r.iter().map(|&v| T::from_i64(v)).collect()).collect();
    Lcp::from_rows(rows, vec![T::from_i64(-1); 3])
}

/// The closest point to (1, 2) with x ≥ 0 and x0 + x1 ≤ 2:
/// minimize (x0 − 1)² + (x1 − 2)² = ½xᵀ(2I)x + (−2, −4)·x + 5 subject to −x0 − x1 ≥ −2.
/// By hand: x = (1/2, 3/2), objective 1/2, multiplier y = 1 on the constraint.
fn example_qp<T: Field>() -> Result<ConvexQp<T>, LcpError> {
    let t = T::from_i64;
    ConvexQp::new(vec![t(2), t(0), t(0), t(2)], vec![t(-2), t(-4)], t(5))?
        .with_inequalities(vec![t(-1), t(-1)], vec![t(-2)])
}

fn main() -> Result<(), LcpError> {
    let r = |s: &str| Rational::parse(s).expect("a valid fraction");

    // LCP in f64: the residuals are within round-off and the status certifies it.
    let sol = solve_lemke(&example_lcp::<f64>()?, &LemkeSettings::default())?;
    println!(
        "f64   LCP: z = {:?}, status {}, ‖min(z, w)‖∞ = {:.1e}",
        sol.z,
        sol.status.as_str(),
        sol.residual.min_map_inf
    );
    assert_eq!(sol.status, LcpStatus::Solved);
    assert!((sol.z[0] - 1.0).abs() < 1e-12 && (sol.z[1] - 0.5).abs() < 1e-12 && sol.z[2].abs() < 1e-12);
    assert!(sol.residual.min_map_inf < 1e-12);

    // The same LCP exactly: the answer is the fraction, the residual exactly zero.
    let sol = solve_lemke(&example_lcp::<Rational>()?, &LemkeSettings::default())?;
    let z: Vec<String> = sol.z.iter().map(ToString::to_string).collect();
    println!(
        "exact LCP: z = [{}], w = [{}]",
        z.join(", "),
        sol.w.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    );
    assert_eq!(sol.z, vec![r("1"), r("1/2"), r("0")]);
    assert_eq!(sol.w, vec![r("0"), r("0"), r("3/2")]);
    assert_eq!(sol.residual.min_map_inf, r("0"));
    assert_eq!(sol.residual.complementarity, r("0"));

    // No solution is a status: w = −z − 1 ≥ 0 has no z ≥ 0 (Lemke ends on a ray).
    let none = solve_lemke(&Lcp::from_rows(vec![vec![r("-1")]], vec![r("-1")])?, &LemkeSettings::default())?;
    println!("M = [−1], q = [−1]: {}", none.status.as_str());
    assert_eq!(none.status, LcpStatus::NoSolution);

    // The QP in f64 and exactly.
    let qp = solve_qp(&example_qp::<f64>()?, &QpSettings::default())?;
    println!("f64   QP: x = {:?}, objective {}, y = {:?}", qp.x, qp.objective, qp.multipliers.inequalities);
    assert_eq!(qp.status, QpStatus::Solved);
    assert!((qp.x[0] - 0.5).abs() < 1e-12 && (qp.x[1] - 1.5).abs() < 1e-12);
    assert!((qp.objective - 0.5).abs() < 1e-12);
    let qp = solve_qp(&example_qp::<Rational>()?, &QpSettings::default())?;
    println!(
        "exact QP: x = [{}, {}], objective {}, y = {}",
        qp.x[0], qp.x[1], qp.objective, qp.multipliers.inequalities[0]
    );
    assert_eq!(qp.status, QpStatus::Solved);
    assert_eq!(qp.x, vec![r("1/2"), r("3/2")]);
    assert_eq!(qp.objective, r("1/2"));
    assert_eq!(qp.multipliers.inequalities, vec![r("1")]);

    // Bad input is an error: a 2 × 2 matrix with a 3-entry q.
    assert!(Lcp::from_rows(vec![vec![1.0, 0.0], vec![0.0, 1.0]], vec![1.0, 2.0, 3.0]).is_err());
    println!("ok: f64 and exact answers match the hand solutions");
    Ok(())
}
