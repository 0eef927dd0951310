//! Free-variable elimination (Eberly §1.4, extended to constraints on free variables) against
//! the split x_u = x⁺ − x⁻ into nonnegative variables, and the KKT conditions of every solved
//! random QP, in `f64` and exactly in `Rational`. Also the line–triangle (free line parameter)
//! and segment–triangle (constrained "free" parameter) distances of §1.4.

use proxima_lcp::qp::{ConvexQp, QpSettings, QpSolution, QpStatus, solve_qp};
use proxima_lcp::{Field, Rational};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn solve<T: Field>(qp: &ConvexQp<T>) -> QpSolution<T> {
    solve_qp(qp, &QpSettings::default()).expect("valid problem")
}

/// A random scalar: a small integer (exact) or a float in the same range.
fn rnd<T: Field>(rng: &mut SmallRng, lo: i64, hi: i64) -> T {
    if T::EXACT {
        T::from_i64(rng.random_range(lo..=hi))
    } else {
        T::from_f64(rng.random_range(lo as f64..=hi as f64)).unwrap()
    }
}

/// Shape of a random test problem.
#[derive(Clone, Copy, Debug)]
struct Shape {
    n: usize,
    m: usize,
    p: usize,
    /// A = BᵀB + I (positive definite) when true, A = BᵀB with B of rank < n otherwise.
    strict: bool,
    /// Whether constraint rows may involve free variables.
    touch_free: bool,
}

/// A random feasible convex QP: constraints built around a point x̂ (x̂_i ≥ 0 off the free set)
/// so D x̂ ≥ e and A_eq x̂ = b_eq; A = BᵀB (+ I). Free variables get A_uu positive definite
/// (always true for strict problems; for the others free variables get an extra diagonal).
fn random_qp<T: Field>(rng: &mut SmallRng, s: Shape) -> ConvexQp<T> {
    let n = s.n;
    let free: Vec<usize> = (0..n).filter(|_| rng.random_bool(0.4)).collect();
    let rows = if s.strict { n } else { n - 1 };
    // A singular A must be exactly singular: integer B (BᵀB is then exact in f64 too), else a
    // float A would be, as exact data, either indefinite or strictly convex with a far minimizer.
    let bm: Vec<T> = (0..rows * n)
        .map(|_| if s.strict { rnd(rng, -2, 2) } else { T::from_i64(rng.random_range(-2..=2)) })
        .collect();
    let mut a = vec![T::zero(); n * n];
    for i in 0..n {
        for j in 0..n {
            let mut v = T::zero();
            for k in 0..rows {
                v.add_mul_assign(&bm[k * n + i], &bm[k * n + j]);
            }
            if i == j && (s.strict || free.contains(&i)) {
                v.add_assign(&T::one());
            }
            a[i * n + j] = v;
        }
    }
    let xhat: Vec<T> =
        (0..n).map(|i| if free.contains(&i) { rnd(rng, -3, 3) } else { rnd(rng, 0, 3) }).collect();
    let row = |rng: &mut SmallRng| -> Vec<T> {
        (0..n).map(|j| if !s.touch_free && free.contains(&j) { T::zero() } else { rnd(rng, -3, 3) }).collect()
    };
    let dot = |r: &[T]| r.iter().zip(&xhat).fold(T::zero(), |acc, (u, v)| acc.add(&u.mul(v)));
    let mut d = Vec::new();
    let mut e = Vec::new();
    for _ in 0..s.m {
        let r = row(rng);
        let slack: T = if rng.random_bool(0.5) { T::zero() } else { rnd(rng, 0, 2) };
        e.push(dot(&r).sub(&slack));
        d.extend(r);
    }
    let mut aeq = Vec::new();
    let mut beq = Vec::new();
    for _ in 0..s.p {
        let r = row(rng);
        beq.push(dot(&r));
        aeq.extend(r);
    }
    let b = (0..n).map(|_| rnd(rng, -5, 5)).collect();
    ConvexQp::new(a, b, rnd(rng, -2, 2))
        .unwrap()
        .with_inequalities(d, e)
        .unwrap()
        .with_equalities(aeq, beq)
        .unwrap()
        .with_free(free)
        .unwrap()
}

/// The same QP with every free x_u replaced by x⁺_u − x⁻_u: x⁺ keeps index u, the x⁻ are
/// appended in free order. No variable is free any more.
fn split<T: Field>(qp: &ConvexQp<T>) -> ConvexQp<T> {
    let (n, free) = (qp.n(), qp.free());
    let n2 = n + free.len();
    // Column map: new column j is ±(old column src[j]).
    let src: Vec<(usize, bool)> = (0..n).map(|j| (j, false)).chain(free.iter().map(|&u| (u, true))).collect();
    let sign = |v: &T, neg: bool| if neg { v.neg() } else { v.clone() };
    let mut a = vec![T::zero(); n2 * n2];
    for (i, &(si, ni)) in src.iter().enumerate() {
        for (j, &(sj, nj)) in src.iter().enumerate() {
            a[i * n2 + j] = sign(&qp.a()[si * n + sj], ni != nj);
        }
    }
    let b = src.iter().map(|&(si, ni)| sign(&qp.b()[si], ni)).collect();
    let widen = |mat: &[T], rows: usize| -> Vec<T> {
        (0..rows).flat_map(|r| src.iter().map(move |&(sj, nj)| sign(&mat[r * n + sj], nj))).collect()
    };
    ConvexQp::new(a, b, qp.c().clone())
        .unwrap()
        .with_inequalities(widen(qp.d(), qp.num_inequalities()), qp.e().to_vec())
        .unwrap()
        .with_equalities(widen(qp.aeq(), qp.num_equalities()), qp.beq().to_vec())
        .unwrap()
}

/// Checks the KKT conditions of a solved QP from the returned x and multipliers, against the
/// original data: primal feasibility, dual feasibility, complementarity and stationarity.
/// Exact for exact scalars; relative `tol` for floats.
fn check_kkt<T: Field>(qp: &ConvexQp<T>, s: &QpSolution<T>, what: &str) {
    let (n, m, p) = (qp.n(), qp.num_inequalities(), qp.num_equalities());
    let scale = qp
        .a()
        .iter()
        .chain(qp.b())
        .chain(qp.d())
        .chain(qp.e())
        .fold(1.0f64, |acc, v| acc.max(v.to_f64().abs()))
        * (1.0 + s.x.iter().fold(0.0f64, |acc, v| acc.max(v.to_f64().abs())));
    let tol = if T::EXACT { 0.0 } else { 1e-9 * scale };
    let nonneg = |v: &T, w: &str| {
        if T::EXACT {
            assert!(!v.is_negative(), "{what}: {w} = {v} < 0");
        } else {
            assert!(v.to_f64() >= -tol, "{what}: {w} = {v} < 0");
        }
    };
    let zero = |v: &T, w: &str| {
        if T::EXACT {
            assert!(v.is_zero(), "{what}: {w} = {v} != 0");
        } else {
            assert!(v.to_f64().abs() <= tol, "{what}: {w} = {v} != 0");
        }
    };
    let mu = &s.multipliers.bounds;
    let y = &s.multipliers.inequalities;
    let lambda = &s.multipliers.equalities;
    assert_eq!((mu.len(), y.len(), lambda.len()), (n, m, p));
    for i in 0..n {
        if qp.is_free(i) {
            assert!(mu[i].is_zero(), "{what}: μ of a free variable");
        } else {
            nonneg(&s.x[i], "x_i");
            nonneg(&mu[i], "μ_i");
            zero(&s.x[i].mul(&mu[i]), "x_i μ_i");
        }
    }
    // Stationarity: A x + b − Dᵀy − A_eqᵀλ = μ (all components, free ones included).
    let g = qp.stationarity(&s.x, y, lambda);
    for i in 0..n {
        zero(&g[i].sub(&mu[i]), "stationarity");
    }
    let row_value =
        |mat: &[T], r: usize| (0..n).fold(T::zero(), |acc, j| acc.add(&mat[r * n + j].mul(&s.x[j])));
    for r in 0..m {
        let slack = row_value(qp.d(), r).sub(&qp.e()[r]);
        nonneg(&slack, "D x − e");
        nonneg(&y[r], "y");
        zero(&y[r].mul(&slack), "y (D x − e)");
    }
    for r in 0..p {
        zero(&row_value(qp.aeq(), r).sub(&qp.beq()[r]), "A_eq x − b_eq");
    }
    assert_eq!(s.objective, qp.objective(&s.x), "{what}: objective from the original data");
}

fn close<T: Field>(a: &T, b: &T, scale: f64) -> bool {
    if T::EXACT { a == b } else { (a.to_f64() - b.to_f64()).abs() <= 1e-9 * scale.max(1.0) }
}

/// Eliminated and split solves agree on the optimal value (and on x when A ≻ 0), and both
/// satisfy the KKT conditions.
fn elimination_vs_split<T: Field>(seed: u64, trials: usize, touch_free: bool) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut with_free = 0;
    let mut solved = 0;
    for trial in 0..trials {
        let shape = Shape {
            n: rng.random_range(2..=5),
            m: rng.random_range(0..=3),
            p: rng.random_range(0..=2),
            strict: trial % 4 != 3,
            touch_free,
        };
        let qp = random_qp::<T>(&mut rng, shape);
        let what = format!("{} trial {trial} {shape:?} free {:?}", T::NAME, qp.free());
        with_free += usize::from(!qp.free().is_empty());
        let s = solve(&qp);
        let sp = split(&qp);
        let t = solve(&sp);
        assert_eq!(s.status, t.status, "{what}: eliminated vs split status");
        if s.status == QpStatus::Unbounded && !shape.strict {
            continue;
        }
        assert_eq!(s.status, QpStatus::Solved, "{what}");
        solved += 1;
        check_kkt(&qp, &s, &what);
        check_kkt(&sp, &t, &format!("{what} (split)"));
        let scale = s.objective.to_f64().abs();
        assert!(
            close(&s.objective, &t.objective, scale),
            "{what}: objective {} vs split {}",
            s.objective,
            t.objective
        );
        // x from the split variables.
        let mut xt: Vec<T> = t.x[..qp.n()].to_vec();
        for (k, &u) in qp.free().iter().enumerate() {
            xt[u] = xt[u].sub(&t.x[qp.n() + k]);
        }
        assert!(close(&qp.objective(&xt), &s.objective, scale), "{what}: split x is not optimal");
        if shape.strict {
            let xs = 1.0 + s.x.iter().fold(0.0f64, |acc, v| acc.max(v.to_f64().abs()));
            for i in 0..qp.n() {
                assert!(close(&s.x[i], &xt[i], 1e3 * xs), "{what}: x[{i}] {} vs split {}", s.x[i], xt[i]);
            }
        }
    }
    assert!(with_free >= trials / 2, "too few problems with free variables");
    assert!(solved >= trials * 3 / 4, "too few solved problems: {solved}/{trials}");
}

#[test]
fn elimination_matches_split_constraints_off_free_f64() {
    elimination_vs_split::<f64>(10, 150, false);
}

#[test]
fn elimination_matches_split_constraints_on_free_f64() {
    elimination_vs_split::<f64>(11, 150, true);
}

#[test]
fn elimination_matches_split_constraints_off_free_rational() {
    elimination_vs_split::<Rational>(12, 40, false);
}

#[test]
fn elimination_matches_split_constraints_on_free_rational() {
    elimination_vs_split::<Rational>(13, 40, true);
}

/// KKT on random convex QPs (with and without free variables), and on LPs over a bounded
/// region built from the same constraints.
fn kkt_random<T: Field>(seed: u64, trials: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for trial in 0..trials {
        let n = rng.random_range(1..=5);
        let shape = Shape {
            n,
            m: rng.random_range(0..=4),
            p: rng.random_range(0..=1),
            strict: trial % 2 == 0,
            touch_free: true,
        };
        let qp = random_qp::<T>(&mut rng, shape);
        let what = format!("{} trial {trial}", T::NAME);
        let s = solve(&qp);
        // x̂ is feasible, so only unboundedness can stop a merely semidefinite problem.
        match s.status {
            QpStatus::Solved => check_kkt(&qp, &s, &what),
            QpStatus::Unbounded => assert!(!shape.strict, "{what}: strictly convex problem unbounded"),
            other => panic!("{what}: unexpected {other:?}"),
        }
        // An LP over the split problem's constraints plus the box x ≤ 5: feasible (|x̂| ≤ 3)
        // and bounded.
        let sp = split(&qp);
        let nn = sp.n();
        let mut bx = vec![T::zero(); nn * nn];
        for i in 0..nn {
            bx[i * nn + i] = T::one().neg();
        }
        let lp = ConvexQp::linear(sp.b().to_vec(), T::zero())
            .unwrap()
            .with_inequalities(sp.d().to_vec(), sp.e().to_vec())
            .unwrap()
            .with_inequalities(bx, vec![T::from_i64(-5); nn])
            .unwrap()
            .with_equalities(sp.aeq().to_vec(), sp.beq().to_vec())
            .unwrap();
        let s = solve(&lp);
        assert_eq!(s.status, QpStatus::Solved, "{what} (LP)");
        check_kkt(&lp, &s, &format!("{what} (LP)"));
    }
}

#[test]
fn kkt_random_f64() {
    kkt_random::<f64>(20, 150);
}

#[test]
fn kkt_random_rational() {
    kkt_random::<Rational>(21, 40);
}

/// ½|Δ + E x|² as a QP: A = EᵀE, b = EᵀΔ, c = ½|Δ|² (E is 3 × k, columns given).
fn gram_qp<T: Field>(cols: &[[T; 3]], delta: &[T; 3]) -> ConvexQp<T> {
    let k = cols.len();
    let dot = |u: &[T; 3], v: &[T; 3]| (0..3).fold(T::zero(), |acc, i| acc.add(&u[i].mul(&v[i])));
    let a = (0..k * k).map(|t| dot(&cols[t / k], &cols[t % k])).collect();
    let b = cols.iter().map(|c| dot(c, delta)).collect();
    let c = dot(delta, delta).div(&T::from_i64(2));
    ConvexQp::new(a, b, c).unwrap()
}

fn v3<T: Field>(v: [i64; 3]) -> [T; 3] {
    v.map(T::from_i64)
}

/// Triangle P0 + x0 E0 + x1 E1 (x0, x1 ≥ 0, x0 + x1 ≤ 1) against the line Q + x2 Dir (x2 free,
/// no constraint on it: equation (8) proper) and the segment (0 ≤ x2 ≤ 1 written as rows on the
/// free variable, the case the reference does not cover).
fn line_and_segment_triangle<T: Field>() {
    let tri = |q: [i64; 3], dir: [i64; 3]| {
        let p0 = v3::<T>([0, 0, 0]);
        let delta: [T; 3] = [0, 1, 2].map(|i| p0[i].sub(&T::from_i64(q[i])));
        let neg_dir = dir.map(|v| T::from_i64(-v));
        gram_qp(&[v3([1, 0, 0]), v3([0, 1, 0]), neg_dir], &delta)
            .with_inequalities(vec![T::from_i64(-1), T::from_i64(-1), T::zero()], vec![T::from_i64(-1)])
            .unwrap()
    };
    // Vertical line through (2, 2): nearest triangle point (1/2, 1/2, 0), distance² 9/2.
    let line = tri([2, 2, 1], [0, 0, 1]).with_free(vec![2]).unwrap();
    let s = solve(&line);
    assert_eq!(s.status, QpStatus::Solved);
    let half = T::one().div(&T::from_i64(2));
    let eq = |a: &T, b: &T| if T::EXACT { a == b } else { (a.to_f64() - b.to_f64()).abs() < 1e-12 };
    assert!(eq(&s.objective, &T::from_i64(9).div(&T::from_i64(4))), "{}", s.objective);
    assert!(eq(&s.x[0], &half) && eq(&s.x[1], &half) && eq(&s.x[2], &T::from_i64(-1)));
    check_kkt(&line, &s, "line");
    // Line parallel to the triangle's plane at height 1: A singular, A_uu = |Dir|² > 0.
    let par = tri([-1, -1, 1], [1, 1, 0]).with_free(vec![2]).unwrap();
    let s = solve(&par);
    assert_eq!(s.status, QpStatus::Solved);
    assert!(eq(&s.objective, &half));
    check_kkt(&par, &s, "parallel line");
    // The segment of the first line with 0 ≤ x2 ≤ 1 (starts at height 1): distance² 9/2 + 1.
    // As rows touching the free variable, and as an ordinary bound: same optimum.
    for (q, want) in [([2, 2, 1], (11, 4)), ([2, 2, -3], (17, 4)), ([0, 0, 5], (25, 2))] {
        let rows = vec![T::zero(), T::zero(), T::one(), T::zero(), T::zero(), T::from_i64(-1)];
        let seg_free = tri(q, [0, 0, 1])
            .with_inequalities(rows.clone(), vec![T::zero(), T::from_i64(-1)])
            .unwrap()
            .with_free(vec![2])
            .unwrap();
        let seg_bound =
            tri(q, [0, 0, 1]).with_inequalities(rows[3..].to_vec(), vec![T::from_i64(-1)]).unwrap();
        let (s1, s2) = (solve(&seg_free), solve(&seg_bound));
        assert_eq!((s1.status, s2.status), (QpStatus::Solved, QpStatus::Solved));
        let want = T::from_i64(want.0).div(&T::from_i64(want.1));
        assert!(eq(&s1.objective, &want), "segment {q:?}: {} vs {want}", s1.objective);
        assert!(eq(&s2.objective, &want), "segment {q:?} (bound): {} vs {want}", s2.objective);
        check_kkt(&seg_free, &s1, "segment (free)");
        check_kkt(&seg_bound, &s2, "segment (bound)");
    }
}

#[test]
fn line_and_segment_triangle_f64_and_rational() {
    line_and_segment_triangle::<f64>();
    line_and_segment_triangle::<Rational>();
}
