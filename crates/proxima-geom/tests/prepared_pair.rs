//! `PreparedPair` against the one-off queries it replaces: for every ordered pair of shape
//! kinds (two different shapes of each kind, so that same-kind pairs are ordered by their data
//! and their poses), random placements from far apart to deep overlap, and several settings
//! (default, unsigned, forced GJK / LCP / closed form / ellipsoid, exact arithmetic), the
//! prepared answer of `distance` and of `signed_distance` must be the one-off answer bit for
//! bit (compared through `{:?}`, which tells −0.0 from 0.0), errors included; and polytopes
//! with their support lists (`prepare_for_rows`) against the same polytopes without them.

#[path = "support/near_contact.rs"]
mod near_contact;
#[path = "support/random_pose.rs"]
mod random_pose;

use proxima_geom::shape::{
    AlignedBox, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Line, MinkowskiSum, Point,
    Rounded, Segment, Sphere, Triangle,
};
use proxima_geom::{
    Algorithm, Arithmetic, GeomError, Pose, PreparedPair, QuerySettings, Shape, ShapeKind, distance,
    signed_distance,
};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Two shapes of each kind (`k` = 0 or 1 picks the size), every kind of [`ShapeKind`].
fn shapes(k: f64) -> Vec<Shape> {
    let s = 1.0 + 0.3 * k;
    let hull: Vec<[f64; 3]> = (0..24)
        .map(|i| {
            let t = f64::from(i) * 0.77;
            let z = -1.0 + 2.0 * (f64::from(i) + 0.5) / 24.0;
            let r = (1.0 - z * z).sqrt();
            [0.5 * s * r * t.cos(), 0.4 * s * r * t.sin(), 0.3 * s * z]
        })
        .collect();
    vec![
        Shape::Point(Point::new([0.1 * k, 0.0, 0.0]).unwrap()),
        Shape::Segment(Segment::new([-0.4 * s, 0.0, 0.0], [0.4, 0.1 * k, 0.0]).unwrap()),
        Shape::Line(Line::new([0.0, 0.1 * k, 0.0], [1.0, 0.2, 0.1 * k]).unwrap()),
        Shape::Triangle(Triangle::new([0.0, 0.0, 0.0], [0.6 * s, 0.0, 0.0], [0.0, 0.5, 0.1 * k]).unwrap()),
        Shape::Cuboid(Cuboid::new([0.5 * s, 0.4, 0.3]).unwrap()),
        Shape::AlignedBox(AlignedBox::new([-0.3, -0.2 * s, -0.1], [0.4, 0.3, 0.2 * s]).unwrap()),
        Shape::Sphere(Sphere::new(0.4 * s).unwrap()),
        Shape::Capsule(Capsule::new(0.3 * s, 0.5).unwrap()),
        Shape::Cylinder(Cylinder::new(0.3, 0.4 * s).unwrap()),
        Shape::Ellipsoid(Ellipsoid::new([0.5 * s, 0.4, 0.3]).unwrap()),
        Shape::ConvexPolytope(ConvexPolytope::hull_of(&hull).unwrap()),
        near_contact::cut_box(s),
        Shape::Cone(Cone::new(0.3 * s, 0.4).unwrap()),
        Shape::Rounded(Rounded::new(Shape::Cuboid(Cuboid::new([0.3, 0.2 * s, 0.2]).unwrap()), 0.1).unwrap()),
        Shape::MinkowskiSum(
            MinkowskiSum::new(
                Shape::Sphere(Sphere::new(0.2).unwrap()),
                Pose::identity(),
                Shape::Segment(Segment::new([0.0, 0.0, -0.3 * s], [0.0, 0.0, 0.3]).unwrap()),
                Pose::from_translation([0.1 * k, 0.0, 0.0]).unwrap(),
            )
            .unwrap(),
        ),
    ]
}

/// `{:?}` of a result: bit-level equality of every float (−0.0 ≠ 0.0), and of the errors.
fn text<T: std::fmt::Debug>(r: &Result<T, GeomError>) -> String {
    format!("{r:?}")
}

/// Checks the prepared pair (a, b) against the one-off queries at `rounds` random pose pairs
/// (spreads from deep overlap to well apart), plus the pose pair swapped and a shared pose.
fn check(a: &Shape, b: &Shape, settings: &QuerySettings, rng: &mut SmallRng, rounds: usize) {
    let pair = PreparedPair::new(a, b, settings).unwrap();
    let signed = settings.algorithm == Algorithm::Auto || settings.algorithm == Algorithm::Gjk;
    for i in 0..rounds {
        let spread = [0.05, 0.4, 1.0, 2.5][i % 4];
        let pa = random_pose::pose(rng, spread);
        let pb = if i % 7 == 6 { pa } else { random_pose::pose(rng, spread) };
        let what = || format!("{:?} – {:?}, {settings:?}, poses {pa:?} {pb:?}", a.kind(), b.kind());
        assert_eq!(text(&pair.distance(&pa, &pb)), text(&distance(a, &pa, b, &pb, settings)), "{}", what());
        if signed {
            assert_eq!(
                text(&pair.signed_distance(&pa, &pb)),
                text(&signed_distance(a, &pa, b, &pb, settings)),
                "signed: {}",
                what()
            );
        }
    }
}

#[test]
fn every_pair_of_kinds_answers_as_the_one_off_queries() {
    let (first, second) = (shapes(0.0), shapes(1.0));
    assert_eq!(first.len(), 15, "one shape per ShapeKind");
    let mut rng = SmallRng::seed_from_u64(19);
    let mut pairs = 0;
    for a in &first {
        for b in first.iter().chain(&second) {
            check(a, b, &QuerySettings::default(), &mut rng, 8);
            pairs += 1;
        }
    }
    assert_eq!(pairs, 15 * 30);
}

#[test]
fn other_settings_answer_as_the_one_off_queries() {
    let (first, second) = (shapes(0.0), shapes(1.0));
    let base = QuerySettings::default();
    let settings = [
        base.clone().with_penetration_depth(false),
        base.clone().with_algorithm(Algorithm::Gjk),
        base.clone().with_algorithm(Algorithm::Lcp),
        base.clone().with_algorithm(Algorithm::ClosedForm),
        base.clone().with_algorithm(Algorithm::Ellipsoid),
        base.clone().with_touching_tolerance(1e-3),
        base.clone().with_arithmetic(Arithmetic::Float),
    ];
    let mut rng = SmallRng::seed_from_u64(1919);
    for s in &settings {
        for a in &first {
            for b in &second {
                check(a, b, s, &mut rng, 4);
            }
        }
    }
}

#[test]
fn exact_arithmetic_answers_as_the_one_off_queries() {
    // The LCP kernels in rationals: the box and triangle pairs (slow: few placements).
    let boxes = [Shape::Cuboid(Cuboid::new([0.5, 0.4, 0.3]).unwrap()), shapes(0.0)[3].clone()];
    let s = QuerySettings::default().with_arithmetic(Arithmetic::Exact);
    let mut rng = SmallRng::seed_from_u64(7);
    for a in &boxes {
        for b in &boxes {
            check(a, b, &s, &mut rng, 3);
        }
    }
}

#[test]
fn invalid_settings_are_refused_once() {
    let a = Shape::Sphere(Sphere::new(1.0).unwrap());
    let bad = QuerySettings::default().with_gap_tolerance(f64::NAN);
    let expected = distance(&a, &Pose::identity(), &a, &Pose::identity(), &bad).unwrap_err();
    let got = PreparedPair::new(&a, &a, &bad).unwrap_err();
    assert_eq!(format!("{got:?}"), format!("{expected:?}"));
    assert!(matches!(got, GeomError::InvalidSettings { field: "gap_tolerance", .. }));
}

#[test]
fn an_unsupported_pair_fails_per_query_as_distance_does() {
    let line = Shape::Line(Line::new([0.0; 3], [1.0, 0.0, 0.0]).unwrap());
    let cube = Shape::Cuboid(Cuboid::new([0.5; 3]).unwrap());
    let s = QuerySettings::default();
    let pair = PreparedPair::new(&line, &cube, &s).unwrap();
    let (pa, pb) = (Pose::identity(), Pose::from_translation([0.0, 2.0, 0.0]).unwrap());
    let got = pair.distance(&pa, &pb);
    assert_eq!(text(&got), text(&distance(&line, &pa, &cube, &pb, &s)));
    assert!(matches!(got, Err(GeomError::Unsupported { a: ShapeKind::Line, b: ShapeKind::Cuboid, .. })));
    assert_eq!(pair.shapes().0.kind(), ShapeKind::Line);
    assert_eq!(pair.settings(), &s);
}

/// The hull of `n` random points on an ellipsoid (semi-axes 0.5, 0.4, 0.3, scaled by `s`).
fn ellipsoid_hull(rng: &mut SmallRng, n: usize, s: f64) -> ConvexPolytope {
    use rand::Rng;
    let points: Vec<[f64; 3]> = (0..n)
        .map(|_| {
            let p: [f64; 3] = std::array::from_fn(|_| rng.random_range(-1.0..1.0));
            let norm = p.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-3);
            [0.5 * s * p[0] / norm, 0.4 * s * p[1] / norm, 0.3 * s * p[2] / norm]
        })
        .collect();
    ConvexPolytope::hull_of(&points).unwrap()
}

#[test]
fn support_lists_leave_the_answers_unchanged() {
    // Polytopes prepared for many rows (support lists) against the same polytopes built
    // again without them: every answer bit for bit, from deep overlap (EPA) to well apart.
    let mut rng = SmallRng::seed_from_u64(64);
    for (n, m) in [(130, 180), (150, 40)] {
        let (pa_shape, pb_shape) = (ellipsoid_hull(&mut rng, n, 1.0), ellipsoid_hull(&mut rng, m, 1.3));
        let (plain_a, plain_b) =
            (Shape::ConvexPolytope(pa_shape.clone()), Shape::ConvexPolytope(pb_shape.clone()));
        let (a, b) = (Shape::ConvexPolytope(pa_shape), Shape::ConvexPolytope(pb_shape));
        let s = QuerySettings::default();
        let pair = PreparedPair::new(&a, &b, &s).unwrap();
        assert!(!pair.prepare_for_rows(10), "too few rows for a {n}-vertex polytope");
        assert!(pair.prepare_for_rows(usize::MAX), "lists for {n} vertices");
        assert_eq!(a, plain_a, "the lists are not part of the shape");
        assert_eq!(format!("{a:?}"), format!("{plain_a:?}"));
        for i in 0..400 {
            let spread = [0.05, 0.3, 0.6, 1.5][i % 4];
            let (pa, pb) = (random_pose::pose(&mut rng, spread), random_pose::pose(&mut rng, spread));
            let what = || format!("{n}–{m} vertices, poses {pa:?} {pb:?}");
            assert_eq!(
                text(&pair.signed_distance(&pa, &pb)),
                text(&signed_distance(&plain_a, &pa, &plain_b, &pb, &s)),
                "{}",
                what()
            );
            assert_eq!(
                text(&pair.distance(&pa, &pb)),
                text(&distance(&plain_a, &pa, &plain_b, &pb, &s)),
                "{}",
                what()
            );
        }
    }
    // Small polytopes (the scan is faster), large ones (whose runs may climb) and other
    // kinds get none.
    let small = Shape::ConvexPolytope(ellipsoid_hull(&mut rng, 64, 1.0));
    assert!(
        !PreparedPair::new(&small, &small, &QuerySettings::default()).unwrap().prepare_for_rows(usize::MAX)
    );
    let big = Shape::ConvexPolytope(ellipsoid_hull(&mut rng, 400, 1.0));
    let cube = Shape::Cuboid(Cuboid::new([0.5; 3]).unwrap());
    let s = QuerySettings::default();
    assert!(!PreparedPair::new(&big, &big, &s).unwrap().prepare_for_rows(usize::MAX));
    assert!(!PreparedPair::new(&cube, &cube, &s).unwrap().prepare_for_rows(usize::MAX));
}
