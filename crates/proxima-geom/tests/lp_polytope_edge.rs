//! Degenerate and bad inputs, n = 1 and n = 4, flat polytopes, near-touching cases where the
//! article's absolute ε = 1e-4 is wrong but the exact path is right, the exact fallback, point
//! location, and the 3-D `ConvexPolytope` + `Pose` convenience.

use proxima_geom::lp_polytope::{
    CollisionOutcome, LpCollisionSettings, LpPath, UndecidedReason, collide, collide_exact, collide_f64,
    collide_polytopes, collide_polytopes_exact, contains_point, is_subset_of_exact, polytope_is_subset_of,
    polytope_is_subset_of_exact,
};
use proxima_geom::shape::ConvexPolytope;
use proxima_geom::{GeomError, Pose};
use proxima_lcp::{Field, Rational};

fn cube(c: [f64; 3], h: f64) -> Vec<[f64; 3]> {
    (0..8)
        .map(|m: usize| core::array::from_fn(|j| if (m >> j) & 1 == 0 { c[j] - h } else { c[j] + h }))
        .collect()
}
fn hypercube4(c0: f64, h: f64) -> Vec<Vec<f64>> {
    (0..16)
        .map(|m: usize| {
            (0..4).map(|j| if (m >> j) & 1 == 0 { -h } else { h } + if j == 0 { c0 } else { 0.0 }).collect()
        })
        .collect()
}
fn float_only() -> LpCollisionSettings {
    LpCollisionSettings { exact_fallback: false, ..Default::default() }
}

#[test]
fn dimension_one_intervals() {
    let s = LpCollisionSettings::default();
    let a = [[0.0], [1.0]];
    for (b, expect) in [
        (vec![[1.0], [2.0]], true),  // touching
        (vec![[0.5]], true),         // inside
        (vec![[1.5], [2.0]], false), // gap
        (vec![[-3.0], [-0.25]], false),
        (vec![[-3.0], [5.0]], true), // covering
    ] {
        assert_eq!(collide_f64(&a, &b, &float_only()).unwrap().is_colliding(), Some(expect), "{b:?}");
        assert_eq!(collide_exact(&a, &b, &s).unwrap().is_colliding(), Some(expect), "{b:?}");
    }
}

#[test]
fn dimension_four_hypercubes() {
    let s = LpCollisionSettings::default();
    let a = hypercube4(0.0, 1.0);
    for (c0, expect) in [(1.5, true), (2.0, true), (2.5, false), (-2.0, true), (-2.0625, false)] {
        let b = hypercube4(c0, 1.0);
        assert_eq!(collide_f64(&a, &b, &float_only()).unwrap().is_colliding(), Some(expect), "c0 = {c0}");
        let e = collide_exact(&a, &b, &s).unwrap();
        assert_eq!(e.is_colliding(), Some(expect), "c0 = {c0}");
        if let CollisionOutcome::Separated(sep) = &e.outcome {
            assert_eq!(sep.normal.len(), 4);
            assert!(sep.gap().is_positive());
        }
    }
}

#[test]
fn degenerate_sets() {
    let s = LpCollisionSettings::default();
    // Duplicate vertices and identical single points.
    let dup = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]];
    let r = collide_exact(&dup, &[[1.0, 1.0, 1.0]], &s).unwrap();
    assert_eq!(r.is_colliding(), Some(true));
    assert_eq!(r.info.scale, 0.0);
    assert_eq!(collide_f64(&dup, &[[1.0, 1.0, 2.0]], &s).unwrap().is_colliding(), Some(false));
    // A flat square in z = 0 and segments crossing / passing above it.
    let square = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.5, 0.5, 0.0]];
    let crossing = [[0.5, 0.5, -1.0], [0.5, 0.5, 1.0]];
    let grazing = [[1.0, 1.0, 0.0], [2.0, 2.0, 5.0]];
    let above = [[0.5, 0.5, 0.25], [0.75, 0.5, 1.0]];
    for (seg, expect) in [(&crossing, true), (&grazing, true), (&above, false)] {
        assert_eq!(collide_f64(&square, seg, &float_only()).unwrap().is_colliding(), Some(expect));
        assert_eq!(collide_exact(&square, seg, &s).unwrap().is_colliding(), Some(expect));
    }
    // Two flat triangles in the same plane, sharing only a vertex.
    let t1 = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let t2 = [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 1.0, 0.0]];
    assert_eq!(collide_exact(&t1, &t2, &s).unwrap().is_colliding(), Some(true));
    assert_eq!(collide_f64(&t1, &t2, &float_only()).unwrap().is_colliding(), Some(true));
    // Generic slices of rows and Vec<Vec<T>> both work.
    let rows: Vec<&[f64]> = t1.iter().map(|p| &p[..]).collect();
    let vv: Vec<Vec<f64>> = t2.iter().map(|p| p.to_vec()).collect();
    assert_eq!(collide::<f64, _, _>(&rows, &vv, &s).unwrap().is_colliding(), Some(true));
}

#[test]
fn near_touching_where_the_article_epsilon_is_wrong() {
    let s = LpCollisionSettings::default();
    let article = LpCollisionSettings::article();
    // Mirrored point pair 1e-5 apart: the article's raw objective is 1e-5 < ε.
    let a = [[-1e-5, 0.0, 0.0]];
    let b = [[0.0, 0.0, 0.0]];
    assert_eq!(collide_f64(&a, &b, &article).unwrap().is_colliding(), Some(true), "article: wrong");
    assert_eq!(collide_exact(&a, &b, &s).unwrap().is_colliding(), Some(false));
    assert_eq!(collide_f64(&a, &b, &float_only()).unwrap().is_colliding(), Some(false));
    // Cubes with a 5e-5 gap on the negative side of the origin.
    let a = cube([0.0, 0.0, 0.0], 1.0);
    let b = cube([-2.0 - 5e-5, 0.0, 0.0], 1.0);
    assert_eq!(collide_f64(&a, &b, &article).unwrap().is_colliding(), Some(true), "article: wrong");
    let e = collide_exact(&a, &b, &s).unwrap();
    assert_eq!(e.is_colliding(), Some(false));
    let CollisionOutcome::Separated(sep) = &e.outcome else { panic!() };
    assert!(sep.distance_lower_bound > 0.0 && sep.distance_lower_bound <= 5e-5 + 1e-15);
    // Exactly touching at non-trivial coordinates: colliding in every exact/normalised mode.
    let c = cube([-2.0, 0.0, 0.0], 1.0);
    assert_eq!(collide_exact(&a, &c, &s).unwrap().is_colliding(), Some(true));
    assert_eq!(collide_f64(&a, &c, &float_only()).unwrap().is_colliding(), Some(true));
    // Vertex-to-vertex touch in exact rationals (1/3 is not an f64).
    let third = Rational::new(1, 3);
    let tri = vec![
        vec![Rational::from_integer(0), Rational::from_integer(0)],
        vec![third.clone(), Rational::from_integer(0)],
        vec![Rational::from_integer(0), third.clone()],
    ];
    let other = vec![
        vec![third.clone(), Rational::from_integer(0)],
        vec![Rational::from_integer(1), Rational::from_integer(1)],
    ];
    let r = collide(&tri, &other, &s).unwrap();
    assert_eq!(r.is_colliding(), Some(true));
    let CollisionOutcome::Colliding { point, .. } = r.outcome else { panic!() };
    assert_eq!(point, vec![third, Rational::from_integer(0)]);
}

#[test]
fn near_boundary_flag_and_exact_fallback() {
    // A gap of 1e-12 relative to unit size: the float run is flagged and re-solved exactly.
    let a = cube([0.0, 0.0, 0.0], 1.0);
    let b = cube([2.0 + 1e-12, 0.0, 0.0], 1.0);
    let f = collide_f64(&a, &b, &float_only()).unwrap();
    assert!(f.info.near_boundary, "{f:?}");
    assert_eq!(f.info.path, LpPath::Float);
    let r = collide_f64(&a, &b, &LpCollisionSettings::default()).unwrap();
    assert_eq!(r.info.path, LpPath::ExactFallback);
    assert_eq!(r.is_colliding(), Some(false));
    assert!(!r.info.near_boundary);
    // A clear case stays in floating point.
    let c = cube([5.0, 0.0, 0.0], 1.0);
    let r = collide_f64(&a, &c, &LpCollisionSettings::default()).unwrap();
    assert_eq!(r.info.path, LpPath::Float);
    assert!(!r.info.near_boundary);
    // A pivot limit of 1 gives Undecided, never "separated".
    let r = collide_f64(&a, &c, &LpCollisionSettings { max_pivots: Some(1), ..float_only() }).unwrap();
    assert_eq!(r.outcome, CollisionOutcome::Undecided { reason: UndecidedReason::MaxIterations });
    assert_eq!(r.is_colliding(), None);
    let r = collide_f64(&a, &c, &LpCollisionSettings { max_pivots: Some(1), ..Default::default() }).unwrap();
    assert_eq!(r.info.path, LpPath::ExactFallback);
    assert_eq!(r.is_colliding(), None, "the exact re-solve has the same pivot limit");
}

#[test]
fn f32_with_looser_tolerances() {
    let s = LpCollisionSettings {
        eps_decision: 1e-5,
        eps_pivot: 1e-5,
        eps_reduced_cost: 1e-6,
        ..Default::default()
    };
    let a: Vec<Vec<f32>> =
        cube([0.0; 3], 1.0).iter().map(|p| p.iter().map(|&v| v as f32).collect()).collect();
    for (c, expect) in [(1.5f64, true), (2.0, true), (2.5, false)] {
        let b: Vec<Vec<f32>> =
            cube([c, 0.0, 0.0], 1.0).iter().map(|p| p.iter().map(|&v| v as f32).collect()).collect();
        assert_eq!(collide::<f32, _, _>(&a, &b, &s).unwrap().is_colliding(), Some(expect), "c = {c}");
    }
}

#[test]
fn point_location() {
    let s = LpCollisionSettings::default();
    let tetra = vec![vec![0.0, 0.0, 0.0], vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0], vec![0.0, 0.0, 1.0]];
    let r = contains_point(&tetra, &[0.25, 0.25, 0.25], &s).unwrap();
    let CollisionOutcome::Colliding { weights_b, .. } = &r.outcome else { panic!() };
    let p: Vec<f64> = (0..3).map(|c| tetra.iter().zip(weights_b).map(|(v, w)| w * v[c]).sum()).collect();
    assert!(p.iter().all(|x| (x - 0.25).abs() < 1e-12));
    assert_eq!(
        contains_point(&tetra, &[0.5, 0.5, 0.0], &s).unwrap().is_colliding(),
        Some(true),
        "on an edge"
    );
    assert_eq!(contains_point(&tetra, &[0.5, 0.5, 0.01], &s).unwrap().is_colliding(), Some(false));
}

#[test]
fn placed_convex_polytopes() {
    let s = LpCollisionSettings::default();
    let local = ConvexPolytope::new(cube([0.0, 0.0, 0.0], 1.0)).unwrap();
    let small = ConvexPolytope::new(cube([0.0, 0.0, 0.0], 0.5)).unwrap();
    let id = Pose::identity();
    // 45° about z: the rotated cube reaches √2 along x.
    let h = core::f64::consts::FRAC_1_SQRT_2;
    let rot = |t: [f64; 3]| Pose::new([[h, -h, 0.0], [h, h, 0.0], [0.0, 0.0, 1.0]], t).unwrap();
    for (pose, expect) in [
        (Pose::from_translation([1.9, 0.0, 0.0]).unwrap(), true),
        (Pose::from_translation([2.1, 0.0, 0.0]).unwrap(), false),
        (rot([2.3, 0.0, 0.0]), true),
        (rot([2.5, 0.0, 0.0]), false),
    ] {
        assert_eq!(collide_polytopes(&local, &id, &local, &pose, &s).unwrap().is_colliding(), Some(expect));
        assert_eq!(
            collide_polytopes_exact(&local, &id, &local, &pose, &s).unwrap().is_colliding(),
            Some(expect)
        );
    }
    let inside = Pose::from_translation([0.25, 0.0, 0.0]).unwrap();
    assert_eq!(polytope_is_subset_of(&small, &inside, &local, &id, &s).unwrap().is_contained(), Some(true));
    assert_eq!(
        polytope_is_subset_of_exact(&small, &rot([0.0; 3]), &local, &id, &s).unwrap().is_contained(),
        Some(true)
    );
    let out = Pose::from_translation([0.75, 0.0, 0.0]).unwrap();
    assert_eq!(polytope_is_subset_of(&small, &out, &local, &id, &s).unwrap().is_contained(), Some(false));
}

#[test]
fn bad_inputs_are_errors() {
    let s = LpCollisionSettings::default();
    let nan = [[f64::NAN, 0.0, 0.0]];
    let ok = [[0.0, 0.0, 0.0]];
    assert!(matches!(collide_f64(&nan, &ok, &s), Err(GeomError::NonFinite { .. })));
    assert!(matches!(collide_exact(&ok, &[[f64::INFINITY, 0.0, 0.0]], &s), Err(GeomError::NonFinite { .. })));
    assert!(matches!(collide_f64(&ok, &[[0.0, 0.0]], &s), Err(GeomError::DimensionMismatch { .. })));
    let ragged: Vec<Vec<f64>> = vec![vec![0.0, 0.0], vec![1.0]];
    assert!(matches!(collide_f64(&ragged, &ragged, &s), Err(GeomError::DimensionMismatch { .. })));
    let zero_dim: Vec<Vec<f64>> = vec![vec![]];
    assert!(matches!(collide_f64(&zero_dim, &zero_dim, &s), Err(GeomError::DimensionMismatch { .. })));
    assert!(matches!(is_subset_of_exact(&ok, &[[0.0, 0.0]], &s), Err(GeomError::DimensionMismatch { .. })));
    // Even with an empty partner, the non-empty set is validated.
    let empty: Vec<[f64; 3]> = vec![];
    assert!(matches!(collide_f64(&nan, &empty, &s), Err(GeomError::NonFinite { .. })));
    for bad in [
        LpCollisionSettings { eps_decision: -1.0, ..Default::default() },
        LpCollisionSettings { eps_pivot: f64::NAN, ..Default::default() },
        LpCollisionSettings { boundary_band: f64::INFINITY, ..Default::default() },
        LpCollisionSettings { max_pivots: Some(0), ..Default::default() },
    ] {
        assert!(matches!(bad.validate(), Err(GeomError::InvalidSettings { .. })));
        assert!(matches!(collide_f64(&ok, &ok, &bad), Err(GeomError::InvalidSettings { .. })));
    }
}

/// A separation inside the boundary band is proven in f64 by the rigorous hyperplane check,
/// without the exact re-solve; the verdict matches the exact one.
#[test]
fn near_boundary_separation_certified_without_exact_resolve() {
    use proxima_geom::lp_polytope::{
        CollisionOutcome, LpCollisionSettings, LpPath, collide_exact, collide_f64,
    };
    let cube = |x0: f64| -> Vec<[f64; 3]> {
        (0..8).map(|k| [x0 + f64::from(k & 1), f64::from(k >> 1 & 1), f64::from(k >> 2 & 1)]).collect()
    };
    let (a, b) = (cube(0.0), cube(1.0 + 1e-7));
    let settings = LpCollisionSettings::default();
    let float = collide_f64(&a, &b, &settings).unwrap();
    assert!(float.info.near_boundary, "1e-7 apart must be inside the 1e-6 boundary band");
    assert_eq!(float.info.path, LpPath::Float);
    assert!(matches!(float.outcome, CollisionOutcome::Separated(_)));
    let exact = collide_exact(&a, &b, &settings).unwrap();
    assert!(matches!(exact.outcome, CollisionOutcome::Separated(_)));
}
