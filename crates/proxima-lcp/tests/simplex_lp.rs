//! Simplex method: textbook LPs with known optima (exact), infeasible and unbounded LPs with
//! their certificates, degenerate / cycling-prone LPs (Beale), strong duality, bad input, and
//! agreement with the LCP-based `solve_qp` on random bounded LPs.

use proxima_lcp::simplex::{
    Lp, PivotChoice, PivotTolerances, RunEnd, SimplexSettings, SimplexStatus, Tableau, solve_simplex,
};
use proxima_lcp::{ConvexQp, Field, LcpError, QpSettings, QpStatus, Rational, solve_qp};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn r(v: &str) -> Rational {
    Rational::parse(v).unwrap()
}
fn ri(v: i64) -> Rational {
    Rational::from_integer(v)
}
fn rows(v: &[&[i64]]) -> Vec<Vec<Rational>> {
    v.iter().map(|row| row.iter().map(|&x| ri(x)).collect()).collect()
}
fn vec_r(v: &[i64]) -> Vec<Rational> {
    v.iter().map(|&x| ri(x)).collect()
}
fn dot<T: Field>(a: &[T], b: &[T]) -> T {
    let mut s = T::zero();
    for (x, y) in a.iter().zip(b) {
        s.add_mul_assign(x, y);
    }
    s
}

/// Checks primal feasibility, dual feasibility and strong duality exactly.
fn check_optimal_exact(lp: &Lp<Rational>, sol: &proxima_lcp::SimplexSolution<Rational>) {
    assert_eq!(sol.status, SimplexStatus::Optimal);
    assert!(sol.x.iter().all(|v| !v.is_negative()));
    let ax = lp.a_times(&sol.x);
    let aty = lp.a_transpose_times(&sol.y);
    for (i, (lhs, rhs)) in ax.iter().zip(lp.b()).enumerate() {
        match lp.form() {
            proxima_lcp::simplex::LpForm::Equality => assert_eq!(lhs, rhs, "row {i}"),
            proxima_lcp::simplex::LpForm::Inequality => {
                assert!(lhs <= rhs, "row {i}");
                assert!(!sol.y[i].is_positive(), "y must be <= 0 for <= rows");
            }
        }
    }
    for (j, (v, c)) in aty.iter().zip(lp.c()).enumerate() {
        assert!(v <= c, "dual infeasible in column {j}");
    }
    assert_eq!(dot(lp.b(), &sol.y), sol.objective, "strong duality bᵀy = cᵀx");
}

#[test]
fn textbook_inequality_lp_exact() {
    // Dantzig/Hillier: max 3x + 5y; optimum 36 at (2, 6).
    let lp =
        Lp::inequality(rows(&[&[1, 0], &[0, 2], &[3, 2]]), vec_r(&[4, 12, 18]), vec_r(&[-3, -5])).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    check_optimal_exact(&lp, &sol);
    assert_eq!(sol.x, vec_r(&[2, 6]));
    assert_eq!(sol.objective, ri(-36));
    assert_eq!(sol.y, vec![ri(0), r("-3/2"), ri(-1)]);
}

#[test]
fn textbook_equality_lp_with_negative_rhs_exact() {
    // min x1 + 2x2 + 3x3 s.t. x1 + x2 + x3 = 1, -x1 + x2 = -1/2 (negated row) → x = (1/2... )
    let lp = Lp::standard(
        vec![vec![ri(1), ri(1), ri(1)], vec![ri(-1), ri(1), ri(0)]],
        vec![ri(1), r("-1/2")],
        vec_r(&[1, 2, 3]),
    )
    .unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    check_optimal_exact(&lp, &sol);
    // x1 - x2 = 1/2, x1 + x2 + x3 = 1 → best: x3 = 0, x1 = 3/4, x2 = 1/4, objective 5/4.
    assert_eq!(sol.x, vec![r("3/4"), r("1/4"), ri(0)]);
    assert_eq!(sol.objective, r("5/4"));
}

#[test]
fn fractional_optimum_and_f64_agree() {
    // max 2x + 3y s.t. x + 2y ≤ 4, 3x + y ≤ 6 → (8/5, 6/5), objective -34/5.
    let lp = Lp::inequality(rows(&[&[1, 2], &[3, 1]]), vec_r(&[4, 6]), vec_r(&[-2, -3])).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    check_optimal_exact(&lp, &sol);
    assert_eq!(sol.x, vec![r("8/5"), r("6/5")]);
    assert_eq!(sol.objective, r("-34/5"));
    let lpf = Lp::inequality(vec![vec![1.0, 2.0], vec![3.0, 1.0]], vec![4.0, 6.0], vec![-2.0, -3.0]).unwrap();
    let solf = solve_simplex(&lpf, &SimplexSettings::default()).unwrap();
    assert_eq!(solf.status, SimplexStatus::Optimal);
    assert!((solf.objective + 6.8).abs() < 1e-12);
    assert!((dot(lpf.b(), &solf.y) - solf.objective).abs() < 1e-12);
}

#[test]
fn infeasible_with_farkas_certificate() {
    // x1 + x2 = 1 and x1 + x2 = 2.
    let lp = Lp::standard(rows(&[&[1, 1], &[1, 1]]), vec_r(&[1, 2]), vec_r(&[1, 1])).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    assert_eq!(sol.status, SimplexStatus::Infeasible);
    let y = sol.farkas.unwrap();
    assert!(lp.a_transpose_times(&y).iter().all(|v| !v.is_positive()));
    assert!(dot(lp.b(), &y).is_positive());
    // Inequality form: x ≤ -1 with x ≥ 0.
    let lp = Lp::inequality(rows(&[&[1]]), vec_r(&[-1]), vec_r(&[0])).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    assert_eq!(sol.status, SimplexStatus::Infeasible);
    let y = sol.farkas.unwrap();
    assert!(y.iter().all(|v| !v.is_positive()));
    assert!(lp.a_transpose_times(&y).iter().all(|v| !v.is_positive()));
    assert!(dot(lp.b(), &y).is_positive());
}

#[test]
fn unbounded_with_ray() {
    // min -x1 - x2 s.t. x1 - x2 ≤ 1.
    let lp = Lp::inequality(rows(&[&[1, -1]]), vec_r(&[1]), vec_r(&[-1, -1])).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    assert_eq!(sol.status, SimplexStatus::Unbounded);
    let d = sol.ray.unwrap();
    assert!(d.iter().all(|v| !v.is_negative()));
    assert!(lp.a_times(&d).iter().all(|v| !v.is_positive()));
    assert!(lp.objective(&d).is_negative());
    // No constraints at all.
    let lp = Lp::standard(vec![], vec![], vec_r(&[1, -1])).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    assert_eq!(sol.status, SimplexStatus::Unbounded);
    let lp = Lp::standard(vec![], vec![], vec_r(&[1, 0])).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    assert_eq!(sol.status, SimplexStatus::Optimal);
    assert_eq!(sol.objective, ri(0));
}

fn beale_rows() -> (Vec<Vec<Rational>>, Vec<Rational>, Vec<Rational>) {
    // Beale (1955): min -3/4 x4 + 150 x5 - 1/50 x6 + 6 x7 (variables x4..x7 here 0..3).
    let a = vec![
        vec![r("1/4"), ri(-60), r("-1/25"), ri(9)],
        vec![r("1/2"), ri(-90), r("-1/50"), ri(3)],
        vec![ri(0), ri(0), ri(1), ri(0)],
    ];
    (a, vec_r(&[0, 0, 1]), vec![r("-3/4"), ri(150), r("-1/50"), ri(6)])
}

#[test]
fn beale_cycling_example_terminates_under_bland() {
    let (a, b, c) = beale_rows();
    let lp = Lp::inequality(a.clone(), b.clone(), c.clone()).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    check_optimal_exact(&lp, &sol);
    assert_eq!(sol.objective, r("-1/20"));
    assert_eq!(sol.x, vec![r("1/25"), ri(0), ri(1), ri(0)]);
    // The same LP on the slack-basis tableau (where Dantzig's rule cycles), with Bland.
    let mut tab_rows = vec![{
        let mut row0 = c.clone();
        row0.extend(vec_r(&[0, 0, 0, 0]));
        row0
    }];
    for (i, (row, bi)) in a.iter().zip(&b).enumerate() {
        let mut t = row.clone();
        t.extend((0..3).map(|l| if l == i { ri(1) } else { ri(0) }));
        t.push(bi.clone());
        tab_rows.push(t);
    }
    let mut tab = Tableau::from_rows(tab_rows, vec![4, 5, 6]);
    let mut pivots = 0;
    let end = tab.run_bland(&PivotTolerances::exact(), 7, 100, &mut pivots, |_| false);
    assert_eq!(end, RunEnd::Optimal);
    assert_eq!(tab.objective(), r("-1/20"));
    assert!(pivots < 20, "{pivots} pivots");
    // f64 as well.
    let to_f = |v: &Vec<Rational>| v.iter().map(Field::to_f64).collect::<Vec<f64>>();
    let lpf = Lp::inequality(a.iter().map(to_f).collect(), to_f(&b), to_f(&c)).unwrap();
    let solf = solve_simplex(&lpf, &SimplexSettings::default()).unwrap();
    assert_eq!(solf.status, SimplexStatus::Optimal);
    assert!((solf.objective + 0.05).abs() < 1e-12);
}

#[test]
fn bland_takes_smallest_indices() {
    // Two columns eligible, the smaller index enters; three rows tie at ratio 0, the one whose
    // basic variable has the smallest index leaves — even when it is not the first candidate.
    let t = Tableau::from_rows(
        vec![
            vec![ri(-1), ri(-5), ri(0), ri(0), ri(0), ri(0)],
            vec![ri(1), ri(1), ri(0), ri(0), ri(1), ri(0)],
            vec![ri(2), ri(1), ri(1), ri(0), ri(0), ri(0)],
            vec![ri(3), ri(0), ri(0), ri(1), ri(0), ri(0)],
        ],
        vec![4, 2, 3],
    );
    assert_eq!(t.select_bland(&PivotTolerances::exact(), 5), PivotChoice::Pivot { row: 2, column: 0 });
}

#[test]
fn degenerate_lp_with_redundant_rows() {
    // x1 + x2 = 1 written twice (redundant), plus 2x1 + 2x2 = 2; min x1 - x2.
    let lp = Lp::standard(rows(&[&[1, 1], &[1, 1], &[2, 2]]), vec_r(&[1, 1, 2]), vec_r(&[1, -1])).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    check_optimal_exact(&lp, &sol);
    assert_eq!(sol.x, vec_r(&[0, 1]));
    assert_eq!(sol.objective, ri(-1));
    // Highly degenerate vertex: many constraints through the optimum (0, 0).
    let lp = Lp::inequality(
        rows(&[&[1, -1], &[-1, 1], &[1, 1], &[2, -1], &[-1, 2]]),
        vec_r(&[0, 0, 0, 0, 0]),
        vec_r(&[1, 1]),
    )
    .unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    check_optimal_exact(&lp, &sol);
    assert_eq!(sol.objective, ri(0));
}

#[test]
fn klee_minty_small_exact() {
    // Klee–Minty cube, d = 4: max Σ 2^{d-j} x_j, optimum 5^d = 625.
    let d = 4;
    let mut a = Vec::new();
    let mut b = Vec::new();
    for i in 0..d {
        let mut row = vec![ri(0); d];
        for j in 0..i {
            row[j] = ri(2 * (1 << (i - j)));
        }
        row[i] = ri(1);
        a.push(row);
        b.push(ri(5i64.pow(i as u32 + 1)));
    }
    let c: Vec<Rational> = (0..d).map(|j| ri(-(1 << (d - 1 - j)))).collect();
    let lp = Lp::inequality(a, b, c).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
    check_optimal_exact(&lp, &sol);
    assert_eq!(sol.objective, ri(-625));
}

#[test]
fn bad_input_and_settings() {
    assert_eq!(Lp::<f64>::standard(vec![], vec![], vec![]).unwrap_err(), LcpError::Empty);
    assert!(matches!(
        Lp::standard(vec![vec![1.0, 2.0]], vec![1.0], vec![1.0]),
        Err(LcpError::DimensionMismatch { .. })
    ));
    assert!(matches!(
        Lp::standard(vec![vec![1.0]], vec![1.0, 2.0], vec![1.0]),
        Err(LcpError::DimensionMismatch { .. })
    ));
    assert!(matches!(
        Lp::inequality(vec![vec![f64::NAN]], vec![1.0], vec![1.0]),
        Err(LcpError::NonFinite { what: "A", .. })
    ));
    assert!(matches!(
        Lp::inequality(vec![vec![1.0]], vec![f64::INFINITY], vec![1.0]),
        Err(LcpError::NonFinite { .. })
    ));
    let lp = Lp::inequality(vec![vec![1.0]], vec![1.0], vec![-1.0]).unwrap();
    for s in [
        SimplexSettings { max_iterations: Some(0), ..Default::default() },
        SimplexSettings { pivot_tolerance: -1.0, ..Default::default() },
        SimplexSettings { optimality_tolerance: f64::NAN, ..Default::default() },
    ] {
        assert!(matches!(s.validate(), Err(LcpError::InvalidSettings { .. })));
        assert!(matches!(solve_simplex(&lp, &s), Err(LcpError::InvalidSettings { .. })));
    }
    assert_eq!(SimplexSettings::default().max_iterations_for(3, 4), 1000);
    // A pivot limit of 1 stops the Klee–Minty-like LP early.
    let lp = Lp::inequality(vec![vec![1.0, 0.0], vec![0.0, 1.0]], vec![1.0, 1.0], vec![-1.0, -1.0]).unwrap();
    let sol = solve_simplex(&lp, &SimplexSettings { max_iterations: Some(1), ..Default::default() }).unwrap();
    assert_eq!(sol.status, SimplexStatus::MaxIterations);
}

fn qp_of(a: &[Vec<f64>], b: &[f64], c: &[f64]) -> ConvexQp<f64> {
    // A x ≤ b  ⇔  −A x ≥ −b.
    let d: Vec<f64> = a.iter().flatten().map(|v| -v).collect();
    let e: Vec<f64> = b.iter().map(|v| -v).collect();
    ConvexQp::linear(c.to_vec(), 0.0).unwrap().with_inequalities(d, e).unwrap()
}

#[test]
fn agrees_with_lcp_qp_on_random_bounded_lps() {
    let mut rng = SmallRng::seed_from_u64(0x51_3b1e);
    for case in 0..60 {
        let n = rng.random_range(1..=4);
        let m = rng.random_range(1..=4);
        // Positive rows bound every variable; b > 0 keeps x = 0 feasible.
        let a: Vec<Vec<i64>> = (0..m).map(|_| (0..n).map(|_| rng.random_range(1..=5)).collect()).collect();
        let b: Vec<i64> = (0..m).map(|_| rng.random_range(1..=10)).collect();
        let c: Vec<i64> = (0..n).map(|_| rng.random_range(-5..=3)).collect();
        let af: Vec<Vec<f64>> = a.iter().map(|r| r.iter().map(|&v| v as f64).collect()).collect();
        let bf: Vec<f64> = b.iter().map(|&v| v as f64).collect();
        let cf: Vec<f64> = c.iter().map(|&v| v as f64).collect();
        let lp = Lp::inequality(af.clone(), bf.clone(), cf.clone()).unwrap();
        let sol = solve_simplex(&lp, &SimplexSettings::default()).unwrap();
        assert_eq!(sol.status, SimplexStatus::Optimal, "case {case}");
        assert!((dot(lp.b(), &sol.y) - sol.objective).abs() < 1e-9, "case {case}: duality");
        let qp = solve_qp(&qp_of(&af, &bf, &cf), &QpSettings::default()).unwrap();
        assert_eq!(qp.status, QpStatus::Solved, "case {case}");
        assert!(
            (qp.objective - sol.objective).abs() < 1e-9,
            "case {case}: {} vs {}",
            qp.objective,
            sol.objective
        );
        if case % 4 == 0 {
            // Exactly, in Rational: identical optimal values.
            let ar: Vec<Vec<Rational>> = a.iter().map(|r| r.iter().map(|&v| ri(v)).collect()).collect();
            let lpr = Lp::inequality(ar, vec_r(&b), vec_r(&c)).unwrap();
            let solr = solve_simplex(&lpr, &SimplexSettings::default()).unwrap();
            check_optimal_exact(&lpr, &solr);
            let d: Vec<Rational> = a.iter().flatten().map(|&v| ri(-v)).collect();
            let e: Vec<Rational> = b.iter().map(|&v| ri(-v)).collect();
            let qpr = ConvexQp::linear(vec_r(&c), ri(0)).unwrap().with_inequalities(d, e).unwrap();
            let qsol = solve_qp(&qpr, &QpSettings::default()).unwrap();
            assert_eq!(qsol.status, QpStatus::Solved);
            assert_eq!(qsol.objective, solr.objective, "case {case}");
        }
    }
}

#[test]
fn random_equality_lps_f64_vs_exact() {
    // Random feasible equality LPs (b = A x0 for a random x0 ≥ 0) with a bounded region
    // (a row of ones): float and exact optimal values agree.
    let mut rng = SmallRng::seed_from_u64(77);
    for case in 0..40 {
        let n = rng.random_range(2..=6);
        let m = rng.random_range(1..=3);
        let mut a: Vec<Vec<i64>> =
            (0..m).map(|_| (0..n).map(|_| rng.random_range(-3..=3)).collect()).collect();
        a.push(vec![1; n]);
        let x0: Vec<i64> = (0..n).map(|_| rng.random_range(0..=2)).collect();
        let b: Vec<i64> = a.iter().map(|row| row.iter().zip(&x0).map(|(p, q)| p * q).sum::<i64>()).collect();
        let c: Vec<i64> = (0..n).map(|_| rng.random_range(-4..=4)).collect();
        let ar: Vec<Vec<Rational>> = a.iter().map(|r| r.iter().map(|&v| ri(v)).collect()).collect();
        // b = A (x0 + e_0): feasible, and the ones row bounds the region.
        let bb: Vec<i64> = b.iter().zip(&a).map(|(v, row)| v + row[0]).collect();
        let lpr = Lp::standard(ar, vec_r(&bb), vec_r(&c)).unwrap();
        let solr = solve_simplex(&lpr, &SimplexSettings::default()).unwrap();
        check_optimal_exact(&lpr, &solr);
        let lpf = Lp::standard(
            a.iter().map(|r| r.iter().map(|&v| v as f64).collect()).collect(),
            bb.iter().map(|&v| v as f64).collect(),
            c.iter().map(|&v| v as f64).collect(),
        )
        .unwrap();
        let solf = solve_simplex(&lpf, &SimplexSettings::default()).unwrap();
        assert_eq!(solf.status, SimplexStatus::Optimal, "case {case}");
        assert!((solf.objective - solr.objective.to_f64()).abs() < 1e-9, "case {case}");
    }
}
