//! The acceptance checks of spec `polytope-lp-collision.md` §10 (1–7, 10), exactly in
//! `Rational` and in `f64`.

use proxima_geom::lp_polytope::{
    CollisionOutcome, Containment, LpCollisionSettings, LpPath, collide, collide_exact, collide_f64,
    initial_tableau, is_subset_of, is_subset_of_f64,
};
use proxima_lcp::simplex::{Lp, PivotChoice, PivotTolerances, SimplexSettings, SimplexStatus, solve_simplex};
use proxima_lcp::{Field, Rational};

fn q(s: &str) -> Rational {
    Rational::parse(s).unwrap()
}
fn pts(v: &[[&str; 3]]) -> Vec<Vec<Rational>> {
    v.iter().map(|p| p.iter().map(|s| q(s)).collect()).collect()
}
fn cube_r(c: [&str; 3], h: &str) -> Vec<Vec<Rational>> {
    let h = q(h);
    (0..8)
        .map(|m: usize| {
            (0..3).map(|j| if (m >> j) & 1 == 0 { q(c[j]).sub(&h) } else { q(c[j]).add(&h) }).collect()
        })
        .collect()
}
fn to_f(v: &[Vec<Rational>]) -> Vec<Vec<f64>> {
    v.iter().map(|p| p.iter().map(Field::to_f64).collect()).collect()
}
fn raw() -> LpCollisionSettings {
    LpCollisionSettings { normalize: false, ..Default::default() }
}

#[test]
fn check1_check2_worked_example_tableau_and_bland() {
    let s = pts(&[["1", "2", "3"]]);
    let t = pts(&[["0", "0", "0"], ["1", "1", "1"]]);
    let tab = initial_tableau(&s, &t).unwrap();
    let expected: Vec<Vec<i64>> = vec![
        vec![-7, -1, 2, 0, 0, 0, 0, 0, -2],
        vec![1, 0, -1, 1, 0, 0, 0, 0, 0],
        vec![2, 0, -1, 0, 1, 0, 0, 0, 0],
        vec![3, 0, -1, 0, 0, 1, 0, 0, 0],
        vec![1, 0, 0, 0, 0, 0, 1, 0, 1],
        vec![0, 1, 1, 0, 0, 0, 0, 1, 1],
    ];
    let expected: Vec<Vec<Rational>> =
        expected.iter().map(|r| r.iter().map(|&v| Rational::from_integer(v)).collect()).collect();
    assert_eq!(tab.to_rows(), expected);
    assert_eq!(tab.basis(), &[3, 4, 5, 6, 7]);
    assert_eq!(tab.objective(), Rational::from_integer(2));
    // Bland: rows 1, 2, 3 tie at ratio 0; row 1 (basic index 3) must leave (the article: row 2).
    assert_eq!(tab.select_bland(&PivotTolerances::exact(), 8), PivotChoice::Pivot { row: 1, column: 0 });
    let r = collide(&s, &t, &raw()).unwrap();
    assert_eq!(r.is_colliding(), Some(false));
    assert_eq!(r.info.objective, Rational::from_integer(1));
    let rf = collide_f64(&to_f(&s), &to_f(&t), &raw()).unwrap();
    assert_eq!(rf.is_colliding(), Some(false));
    assert!((rf.info.objective - 1.0).abs() < 1e-9);
}

struct Case {
    name: &'static str,
    a: Vec<Vec<Rational>>,
    b: Vec<Vec<Rational>>,
    colliding: bool,
    raw: &'static str,
    normalised: &'static str,
}

fn table() -> Vec<Case> {
    let tetra = pts(&[["0", "0", "0"], ["1", "0", "0"], ["0", "1", "0"], ["0", "0", "1"]]);
    let c0 = cube_r(["0", "0", "0"], "1");
    let case = |name, a, b, colliding, raw, normalised| Case { name, a, b, colliding, raw, normalised };
    vec![
        case("overlapping cubes", c0.clone(), cube_r(["3/2", "0", "0"], "1"), true, "0", "0"),
        case("face-touching cubes", c0.clone(), cube_r(["2", "0", "0"], "1"), true, "0", "0"),
        case("gap +x", c0.clone(), cube_r(["5/2", "0", "0"], "1"), false, "1/3", "2/9"),
        case("gap -x", c0.clone(), cube_r(["-5/2", "0", "0"], "1"), false, "1/3", "2"),
        case("diagonal gap", c0.clone(), cube_r(["5/2", "5/2", "5/2"], "1"), false, "1/3", "2/3"),
        case("point inside", tetra.clone(), pts(&[["1/5", "1/5", "1/5"]]), true, "0", "0"),
        case("point on face", tetra.clone(), pts(&[["1/3", "1/3", "1/3"]]), true, "0", "0"),
        case("point outside", tetra.clone(), pts(&[["1/2", "1/2", "1/2"]]), false, "1/3", "5/7"),
        case(
            "crossing segments",
            pts(&[["-1", "0", "0"], ["1", "0", "0"]]),
            pts(&[["0", "-1", "0"], ["0", "1", "0"]]),
            true,
            "0",
            "0",
        ),
        case(
            "skew segments",
            pts(&[["-1", "0", "0"], ["1", "0", "0"]]),
            pts(&[["0", "-1", "1/10"], ["0", "1", "1/10"]]),
            false,
            "1/10",
            "1/10",
        ),
        case(
            "segment vs point",
            pts(&[["1/2", "0", "0"], ["3/5", "0", "0"]]),
            pts(&[["0", "0", "0"]]),
            false,
            "1",
            "2",
        ),
        case(
            "mirrored",
            pts(&[["-1/2", "0", "0"], ["-3/5", "0", "0"]]),
            pts(&[["0", "0", "0"]]),
            false,
            "1/2",
            "15/11",
        ),
    ]
}

#[test]
fn check3_verdict_table_exact_values() {
    for c in table() {
        let raw_r = collide(&c.a, &c.b, &raw()).unwrap();
        let norm_r = collide(&c.a, &c.b, &LpCollisionSettings::default()).unwrap();
        assert_eq!(raw_r.is_colliding(), Some(c.colliding), "{} raw", c.name);
        assert_eq!(norm_r.is_colliding(), Some(c.colliding), "{} normalised", c.name);
        assert_eq!(raw_r.info.objective, q(c.raw), "{}: raw f*", c.name);
        assert_eq!(norm_r.info.objective, q(c.normalised), "{}: normalised f*", c.name);
        assert_eq!(norm_r.info.path, LpPath::Exact);
        assert!(!norm_r.info.near_boundary);
        // f64, normalised and raw, without and with the exact fallback.
        for settings in [
            LpCollisionSettings { exact_fallback: false, ..Default::default() },
            LpCollisionSettings { exact_fallback: false, ..raw() },
            LpCollisionSettings::default(),
        ] {
            let rf = collide_f64(&to_f(&c.a), &to_f(&c.b), &settings).unwrap();
            assert_eq!(rf.is_colliding(), Some(c.colliding), "{} f64 {settings:?}", c.name);
            if !c.colliding && rf.info.path == LpPath::Float {
                let want = if settings.normalize { q(c.normalised) } else { q(c.raw) };
                assert!((rf.info.objective - want.to_f64()).abs() < 1e-6, "{}: f64 f*", c.name);
            }
        }
    }
}

#[test]
fn check4_far_from_origin() {
    let a = to_f(&cube_r(["100000", "0", "0"], "1/2"));
    let b = to_f(&cube_r(["100002", "0", "0"], "1/2"));
    let r =
        collide_f64(&a, &b, &LpCollisionSettings { exact_fallback: false, ..Default::default() }).unwrap();
    assert_eq!(r.is_colliding(), Some(false));
    assert!((r.info.objective - 2.0 / 3.0).abs() < 1e-9);
    let e = collide_exact(&a, &b, &LpCollisionSettings::default()).unwrap();
    assert_eq!(e.info.objective, q("2/3"));
    let e_raw = collide_exact(&a, &b, &raw()).unwrap();
    assert_eq!(e_raw.is_colliding(), Some(false));
    // The spec's "raw optimum 1e-5" is rounded: exactly 2/200003 ≈ 0.99998e-5 (< ε = 1e-4).
    assert_eq!(e_raw.info.objective, q("2/200003"));
    // The article's semantics (raw, ε = 1e-4) call this a collision.
    let art = collide_f64(&a, &b, &LpCollisionSettings::article()).unwrap();
    assert_eq!(art.is_colliding(), Some(true));
    let c = to_f(&cube_r(["200001/2", "0", "0"], "1/2"));
    for s in [LpCollisionSettings::default(), LpCollisionSettings::article(), raw()] {
        assert_eq!(collide_f64(&a, &c, &s).unwrap().is_colliding(), Some(true));
        assert_eq!(collide_exact(&a, &c, &s).unwrap().is_colliding(), Some(true));
    }
}

#[test]
fn check5_single_points() {
    let s = LpCollisionSettings::default();
    let r = collide_f64(&[[0.0, 0.0, 0.0]], &[[5.0, 5.0, 5.0]], &s).unwrap();
    assert_eq!(r.is_colliding(), Some(false));
    let CollisionOutcome::Separated(sep) = r.outcome else { panic!() };
    assert!(sep.max_a < sep.offset && sep.offset < sep.min_b);
    assert_eq!(collide_f64(&[[1.0, 2.0, 3.0]], &[[1.0, 2.0, 3.0]], &s).unwrap().is_colliding(), Some(true));
    assert_eq!(collide_exact(&[[1.0, 2.0, 3.0]], &[[1.0, 2.0, 3.0]], &s).unwrap().is_colliding(), Some(true));
    let fs = LpCollisionSettings { exact_fallback: false, ..Default::default() };
    assert_eq!(
        collide_f64(&[[0.0, 0.0, 0.0]], &[[1e-12, 0.0, 0.0]], &fs).unwrap().is_colliding(),
        Some(false)
    );
    assert_eq!(
        collide_exact(&[[0.0, 0.0, 0.0]], &[[1e-12, 0.0, 0.0]], &s).unwrap().is_colliding(),
        Some(false)
    );
}

#[test]
fn check6_empty_sets() {
    let s = LpCollisionSettings::default();
    let empty: Vec<[f64; 3]> = vec![];
    let cube = to_f(&cube_r(["0", "0", "0"], "1"));
    let r = collide_f64(&empty, &cube, &s).unwrap();
    assert_eq!(r.outcome, CollisionOutcome::EmptySet);
    assert_eq!(r.is_colliding(), Some(false));
    assert_eq!(collide_f64(&cube, &empty, &s).unwrap().outcome, CollisionOutcome::EmptySet);
    assert_eq!(collide_f64(&empty, &empty, &s).unwrap().outcome, CollisionOutcome::EmptySet);
    assert_eq!(is_subset_of_f64(&empty, &cube, &s).unwrap().is_contained(), Some(true));
    assert_eq!(is_subset_of_f64(&empty, &empty, &s).unwrap().is_contained(), Some(true));
    let r = is_subset_of_f64(&cube, &empty, &s).unwrap();
    assert_eq!(r.outcome, Containment::NotContained { vertex: 0, separation: None });
}

#[test]
fn check7_containment() {
    let s = LpCollisionSettings::default();
    let big = cube_r(["0", "0", "0"], "1");
    let small = cube_r(["0", "0", "0"], "1/2");
    let shifted = cube_r(["4/5", "0", "0"], "1/2");
    let r = is_subset_of(&small, &big, &s).unwrap();
    let Containment::Contained { weights } = &r.outcome else { panic!("{r:?}") };
    for (v, w) in small.iter().zip(weights) {
        let mut p = vec![Rational::from_integer(0); 3];
        let mut sum = Rational::from_integer(0);
        for (bv, wj) in big.iter().zip(w) {
            assert!(!wj.is_negative());
            sum.add_assign(wj);
            for (pc, bc) in p.iter_mut().zip(bv) {
                pc.add_mul_assign(wj, bc);
            }
        }
        assert_eq!(sum, Rational::from_integer(1));
        assert_eq!(&p, v);
    }
    let r = is_subset_of(&shifted, &big, &s).unwrap();
    let Containment::NotContained { vertex, separation: Some(sep) } = &r.outcome else { panic!("{r:?}") };
    let dot = |w: &[Rational], p: &[Rational]| {
        w.iter().zip(p).fold(Rational::from_integer(0), |acc, (x, y)| acc.add(&x.mul(y)))
    };
    assert!(dot(&sep.normal, &shifted[*vertex]) < sep.offset);
    assert!(big.iter().all(|b| dot(&sep.normal, b) > sep.offset));
    assert_eq!(is_subset_of(&big, &big, &s).unwrap().is_contained(), Some(true));
    assert_eq!(is_subset_of_f64(&to_f(&small), &to_f(&big), &s).unwrap().is_contained(), Some(true));
    assert_eq!(is_subset_of_f64(&to_f(&shifted), &to_f(&big), &s).unwrap().is_contained(), Some(false));
    assert_eq!(
        is_subset_of_f64(&[[0.0, 0.0, 0.0]], &[[5.0, 5.0, 5.0]], &s).unwrap().is_contained(),
        Some(false)
    );
    // Boundary: a face of the big cube is contained (touching counts).
    let face: Vec<Vec<Rational>> =
        big.iter().filter(|p| p[0] == Rational::from_integer(1)).cloned().collect();
    assert_eq!(is_subset_of(&face, &big, &s).unwrap().is_contained(), Some(true));
}

/// dist₁(K, L) exactly: min Σ(u + v) s.t. Σλs − Σμt − u + v = 0, Σλ = 1, Σμ = 1, all ≥ 0.
fn l1_distance(a: &[Vec<Rational>], b: &[Vec<Rational>]) -> Rational {
    let n = a[0].len();
    let (ma, mb) = (a.len(), b.len());
    let cols = ma + mb + 2 * n;
    let zero = Rational::from_integer(0);
    let one = Rational::from_integer(1);
    let mut rows = vec![vec![zero.clone(); cols]; n + 2];
    for c in 0..n {
        for (i, p) in a.iter().enumerate() {
            rows[c][i] = p[c].clone();
        }
        for (j, p) in b.iter().enumerate() {
            rows[c][ma + j] = p[c].neg();
        }
        rows[c][ma + mb + c] = one.neg();
        rows[c][ma + mb + n + c] = one.clone();
    }
    for i in 0..ma {
        rows[n][i] = one.clone();
    }
    for j in 0..mb {
        rows[n + 1][ma + j] = one.clone();
    }
    let mut rhs = vec![zero.clone(); n];
    rhs.extend([one.clone(), one.clone()]);
    let cost: Vec<Rational> =
        (0..cols).map(|j| if j >= ma + mb { one.clone() } else { zero.clone() }).collect();
    let sol = solve_simplex(&Lp::standard(rows, rhs, cost).unwrap(), &SimplexSettings::default()).unwrap();
    assert_eq!(sol.status, SimplexStatus::Optimal);
    sol.objective
}

#[test]
fn check10_distance_upper_bound_and_article_claim() {
    for c in table() {
        let f = collide(&c.a, &c.b, &raw()).unwrap().info.objective;
        let d1 = l1_distance(&c.a, &c.b);
        let r =
            c.a.iter()
                .chain(&c.b)
                .map(|p| p.iter().fold(Rational::from_integer(0), |s, v| s.add(&v.abs())))
                .fold(Rational::from_integer(1), |m, v| if v > m { v } else { m });
        assert!(d1 <= r.mul(&f), "{}: dist1 {d1} > max(1,R) f* = {}", c.name, r.mul(&f));
        if c.name == "segment vs point" {
            assert_eq!(d1, q("1/2"));
            assert!(d1 < f, "the article's dist >= f* fails here");
        }
    }
}
