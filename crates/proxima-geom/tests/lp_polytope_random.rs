//! Random cross-validation (spec §10 checks 8, 9, 11): f64 vs exact Rational verdicts on
//! integer-coordinate polytopes, (P1) feasibility by the two-phase simplex, certificates
//! checked independently (weights, separating hyperplanes, distance lower bound vs a QP
//! distance), invariances, and box–box (exact LCP distance) agreement.

use proxima_geom::lcp_queries::{BoxN, box_box_distance};
use proxima_geom::lp_polytope::{
    CollisionOutcome, LpCollision, LpCollisionSettings, LpPath, collide, collide_f64,
};
use proxima_lcp::simplex::{Lp, SimplexSettings, SimplexStatus, solve_simplex};
use proxima_lcp::{ConvexQp, Field, QpSettings, QpStatus, Rational, solve_qp};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn ri(v: i64) -> Rational {
    Rational::from_integer(v)
}
fn float_only() -> LpCollisionSettings {
    LpCollisionSettings { exact_fallback: false, ..Default::default() }
}
fn random_int_set(rng: &mut SmallRng, n: usize) -> Vec<Vec<i64>> {
    let k = rng.random_range(1..=8);
    let mut v: Vec<Vec<i64>> = (0..k).map(|_| (0..n).map(|_| rng.random_range(-3..=3)).collect()).collect();
    v.sort();
    v.dedup();
    v
}
fn as_f(v: &[Vec<i64>]) -> Vec<Vec<f64>> {
    v.iter().map(|p| p.iter().map(|&x| x as f64).collect()).collect()
}
fn as_r(v: &[Vec<i64>]) -> Vec<Vec<Rational>> {
    v.iter().map(|p| p.iter().map(|&x| ri(x)).collect()).collect()
}
fn dot<T: Field>(a: &[T], b: &[T]) -> T {
    let mut s = T::zero();
    for (x, y) in a.iter().zip(b) {
        s.add_mul_assign(x, y);
    }
    s
}

/// (P1) feasibility by the two-phase simplex (exact): an independent path to the verdict.
fn p1_feasible(a: &[Vec<Rational>], b: &[Vec<Rational>]) -> bool {
    let n = a[0].len();
    let m = a.len() + b.len();
    let mut rows = vec![vec![ri(0); m]; n + 2];
    for (i, p) in a.iter().enumerate() {
        for c in 0..n {
            rows[c][i] = p[c].clone();
        }
        rows[n][i] = ri(1);
    }
    for (j, p) in b.iter().enumerate() {
        for c in 0..n {
            rows[c][a.len() + j] = p[c].neg();
        }
        rows[n + 1][a.len() + j] = ri(1);
    }
    let mut rhs = vec![ri(0); n];
    rhs.extend([ri(1), ri(1)]);
    let sol = solve_simplex(&Lp::standard(rows, rhs, vec![ri(0); m]).unwrap(), &SimplexSettings::default())
        .unwrap();
    match sol.status {
        SimplexStatus::Optimal => true,
        SimplexStatus::Infeasible => false,
        s => panic!("unexpected {s:?}"),
    }
}

/// Checks a certificate against the input vertices (tolerance 0 for exact scalars).
fn check_certificate<T: Field>(a: &[Vec<T>], b: &[Vec<T>], r: &LpCollision<T>, tol: f64) {
    match &r.outcome {
        CollisionOutcome::Colliding { point, weights_a, weights_b } => {
            for (set, w) in [(a, weights_a), (b, weights_b)] {
                assert_eq!(w.len(), set.len());
                assert!(w.iter().all(|v| !v.is_negative()));
                let s = w.iter().fold(T::zero(), |acc, v| acc.add(v));
                assert!(s.sub(&T::one()).abs().to_f64() <= tol, "weights sum {s}");
                let n = set[0].len();
                for c in 0..n {
                    let p = set.iter().zip(w.iter()).fold(T::zero(), |acc, (v, wi)| acc.add(&wi.mul(&v[c])));
                    assert!(p.sub(&point[c]).abs().to_f64() <= tol * r.info.scale.max(1.0), "common point");
                }
            }
        }
        CollisionOutcome::Separated(sep) => {
            assert!(sep.max_a < sep.offset && sep.offset < sep.min_b);
            assert!(sep.gap().is_positive());
            assert!(a.iter().all(|p| dot(&sep.normal, p) <= sep.max_a));
            assert!(b.iter().all(|p| dot(&sep.normal, p) >= sep.min_b));
            assert!(sep.distance_lower_bound > 0.0);
        }
        o => panic!("unexpected {o:?}"),
    }
}

/// Euclidean distance of two hulls by a convex QP (Lemke), in f64.
fn qp_distance(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    let n = a[0].len();
    // Translate to a local origin first (the distance is invariant; the QP is better scaled).
    let o = a[0].clone();
    let local = |v: &[Vec<f64>]| -> Vec<Vec<f64>> {
        v.iter().map(|p| p.iter().zip(&o).map(|(x, y)| x - y).collect()).collect()
    };
    let (a, b) = (&local(a)[..], &local(b)[..]);
    let cols: Vec<Vec<f64>> =
        a.iter().cloned().chain(b.iter().map(|p| p.iter().map(|v| -v).collect())).collect();
    let m = cols.len();
    let mut h = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            h[i * m + j] = 2.0 * (0..n).map(|c| cols[i][c] * cols[j][c]).sum::<f64>();
        }
    }
    let mut aeq = vec![0.0; 2 * m];
    for i in 0..m {
        aeq[if i < a.len() { i } else { m + i }] = 1.0;
    }
    let qp = ConvexQp::new(h, vec![0.0; m], 0.0).unwrap().with_equalities(aeq, vec![1.0, 1.0]).unwrap();
    let sol = solve_qp(&qp, &QpSettings::default()).unwrap();
    assert_eq!(sol.status, QpStatus::Solved);
    sol.objective.max(0.0).sqrt()
}

#[test]
fn integer_polytopes_f64_equals_exact_and_p1() {
    let mut rng = SmallRng::seed_from_u64(2016);
    let (mut colliding, mut max_pivots) = (0, 0);
    for case in 0..800 {
        let a = random_int_set(&mut rng, 3);
        let b = random_int_set(&mut rng, 3);
        let rf = collide_f64(&as_f(&a), &as_f(&b), &float_only()).unwrap();
        let re = collide(&as_r(&a), &as_r(&b), &LpCollisionSettings::default()).unwrap();
        let verdict = re.is_colliding().unwrap();
        assert_eq!(rf.is_colliding(), Some(verdict), "case {case}: {a:?} vs {b:?}");
        max_pivots = max_pivots.max(rf.info.pivots);
        colliding += usize::from(verdict);
        if case % 5 == 0 {
            assert_eq!(p1_feasible(&as_r(&a), &as_r(&b)), verdict, "case {case}");
            check_certificate(&as_r(&a), &as_r(&b), &re, 0.0);
        }
        check_certificate(&as_f(&a), &as_f(&b), &rf, 1e-9);
    }
    assert!(max_pivots < 25, "max pivots {max_pivots}");
    assert!(colliding > 120 && colliding < 680, "a balanced sample: {colliding}");
}

#[test]
fn dimensions_one_two_four_f64_equals_exact() {
    let mut rng = SmallRng::seed_from_u64(44);
    for n in [1usize, 2, 4] {
        for case in 0..150 {
            let a = random_int_set(&mut rng, n);
            let b = random_int_set(&mut rng, n);
            let rf = collide_f64(&as_f(&a), &as_f(&b), &float_only()).unwrap();
            let re = collide(&as_r(&a), &as_r(&b), &LpCollisionSettings::default()).unwrap();
            assert_eq!(rf.is_colliding(), re.is_colliding(), "n = {n}, case {case}");
            check_certificate(&as_r(&a), &as_r(&b), &re, 0.0);
            if case % 10 == 0 {
                assert_eq!(p1_feasible(&as_r(&a), &as_r(&b)), re.is_colliding().unwrap());
            }
        }
    }
}

#[test]
fn translated_real_polytopes_and_lower_bound() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut separated = 0;
    for case in 0..80 {
        let shift_scale = [0.0, 10.0, 1e3, 1e5][case % 4];
        // Coordinates are multiples of 2⁻¹⁶ so that the exact oracle stays cheap in debug builds.
        let quantise = |x: f64| (x * 65536.0).round() / 65536.0;
        let shift: Vec<f64> = (0..3).map(|_| quantise(rng.random_range(-1.0..1.0) * shift_scale)).collect();
        let mut set = |center: f64| -> Vec<Vec<f64>> {
            let k = rng.random_range(1..=8);
            (0..k)
                .map(|_| {
                    (0..3)
                        .map(|c| {
                            quantise(rng.random_range(-1.0..1.0))
                                + if c == 0 { center } else { 0.0 }
                                + shift[c]
                        })
                        .collect()
                })
                .collect()
        };
        let a = set(0.0);
        let center_b = quantise((case as f64 * 0.618).fract() * 2.5);
        let b = set(center_b);
        let rf = collide_f64(&a, &b, &float_only()).unwrap();
        // Exact oracle on the raw coordinates (the verdict does not depend on normalisation;
        // dividing 53-bit rationals by σ only makes them bigger).
        let exact = LpCollisionSettings { normalize: false, ..Default::default() };
        let re = proxima_geom::lp_polytope::collide_exact(&a, &b, &exact).unwrap();
        assert_eq!(rf.is_colliding(), re.is_colliding(), "case {case}");
        check_certificate(&a, &b, &rf, 1e-9);
        if let CollisionOutcome::Separated(sep) = &rf.outcome {
            separated += 1;
            if case % 2 == 0 {
                let d = qp_distance(&a, &b);
                assert!(
                    sep.distance_lower_bound <= d + 1e-9 * (1.0 + shift_scale),
                    "case {case}: {} > {d}",
                    sep.distance_lower_bound
                );
            }
        }
    }
    assert!(separated > 10);
}

fn rot_z(c: &str, s: &str) -> [[Rational; 3]; 3] {
    let (c, s) = (Rational::parse(c).unwrap(), Rational::parse(s).unwrap());
    [[c.clone(), s.clone(), ri(0)], [s.neg(), c, ri(0)], [ri(0), ri(0), ri(1)]]
}

fn apply(r: &[[Rational; 3]; 3], t: &[Rational], v: &[Vec<Rational>]) -> Vec<Vec<Rational>> {
    v.iter().map(|p| (0..3).map(|i| dot(&r[i], p).add(&t[i])).collect()).collect()
}

#[test]
fn invariances_exact() {
    let mut rng = SmallRng::seed_from_u64(11);
    let rot = rot_z("3/5", "4/5");
    for case in 0..120 {
        let a = as_r(&random_int_set(&mut rng, 3));
        let b = as_r(&random_int_set(&mut rng, 3));
        let s = LpCollisionSettings::default();
        let v = collide(&a, &b, &s).unwrap().is_colliding();
        let t: Vec<Rational> = (0..3).map(|_| Rational::new(rng.random_range(-50..50), 7)).collect();
        assert_eq!(
            collide(&apply(&rot, &t, &a), &apply(&rot, &t, &b), &s).unwrap().is_colliding(),
            v,
            "case {case}"
        );
        assert_eq!(collide(&b, &a, &s).unwrap().is_colliding(), v, "swap");
        let mut a2 = a.clone();
        a2.reverse();
        a2.push(a[0].clone());
        // An interior point: the centroid of A.
        let cnt = ri(a.len() as i64);
        a2.push((0..3).map(|c| a.iter().fold(ri(0), |s, p| s.add(&p[c])).div(&cnt)).collect());
        assert_eq!(collide(&a2, &b, &s).unwrap().is_colliding(), v, "permute / duplicate / interior");
        assert_eq!(
            collide(&a, &b, &LpCollisionSettings { normalize: false, ..s }).unwrap().is_colliding(),
            v,
            "raw"
        );
    }
}

#[test]
fn boxes_as_vertex_sets_agree_with_exact_box_box_distance() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut touching = 0;
    for case in 0..80 {
        let mut random_box = |rotated: bool| {
            let axes = if rotated { rot_z("3/5", "4/5") } else { rot_z("1", "0") };
            BoxN::<Rational, 3> {
                center: core::array::from_fn(|_| Rational::new(rng.random_range(-6..=6), 2)),
                axes,
                half_extents: core::array::from_fn(|_| Rational::new(rng.random_range(1..=4), 2)),
            }
        };
        let a = random_box(case % 3 == 0);
        let b = random_box(false);
        let corners = |bx: &BoxN<Rational, 3>| -> Vec<Vec<Rational>> {
            (0..8)
                .map(|m: usize| {
                    let p: [Rational; 3] = core::array::from_fn(|j| {
                        if (m >> j) & 1 == 0 { bx.half_extents[j].neg() } else { bx.half_extents[j].clone() }
                    });
                    bx.point(&p).to_vec()
                })
                .collect()
        };
        let d2 = box_box_distance(&a, &b).unwrap().squared_distance;
        let r = collide(&corners(&a), &corners(&b), &LpCollisionSettings::default()).unwrap();
        assert_eq!(r.is_colliding(), Some(d2.is_zero()), "case {case}: d² = {d2}");
        assert_eq!(r.info.path, LpPath::Exact);
        // Touching: push b along x until it just touches a (axis-aligned pairs only).
        if case % 3 != 0 {
            let mut bt = b.clone();
            let gap = a.center[0].add(&a.half_extents[0]).sub(&b.center[0].sub(&b.half_extents[0]));
            bt.center[0] = b.center[0].add(&gap);
            bt.center[1] = a.center[1].clone();
            bt.center[2] = a.center[2].clone();
            assert!(box_box_distance(&a, &bt).unwrap().squared_distance.is_zero());
            let r = collide(&corners(&a), &corners(&bt), &LpCollisionSettings::default()).unwrap();
            assert_eq!(r.is_colliding(), Some(true), "touching boxes collide");
            touching += 1;
        }
    }
    assert!(touching > 0);
}
