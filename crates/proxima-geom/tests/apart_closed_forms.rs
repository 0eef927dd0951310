//! The apart-cores routes for triangle–triangle (`query/distance/distance_triangle_triangle.rs`)
//! and segment / capsule / triangle / box – ellipsoid (`query/distance/ellipsoid.rs`,
//! `ellipsoid/segment_ellipsoid.rs`) against an independent answer: the same pair with GJK
//! forced (which certifies its own bracket on the user's shapes). Each random sample mixes
//! separated and overlapping placements; overlapping cores must go to GJK/EPA, and the sample
//! must actually exercise the new routes.

use nalgebra::{Matrix3, Rotation3, Vector3};
use proxima_geom::shape::{Capsule, Cuboid, Ellipsoid, Segment, Triangle};
use proxima_geom::{Algorithm, Pose, QueryPath, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "support/random_pose.rs"]
mod random_pose;
use random_pose::pose;

fn triangle(rng: &mut SmallRng) -> Shape {
    let mut v = || [0; 3].map(|_| rng.random_range(-1.0..1.0));
    Shape::Triangle(Triangle::new(v(), v(), v()).unwrap())
}

fn ellipsoid(rng: &mut SmallRng) -> Shape {
    Shape::Ellipsoid(Ellipsoid::new([0; 3].map(|_| rng.random_range(0.1..1.2))).unwrap())
}

/// Auto against forced GJK on `n` random pairs from `make`: both answers are certified, so
/// they must agree to the wider of the two brackets plus a few ulps of the scene size
/// (coordinates up to ~5: 1e-12 covers the rounding of both witness distances). Returns how
/// many pairs took the apart route (`taken`) and how many were intersecting.
fn agree_with_gjk(
    seed: u64,
    n: usize,
    mut make: impl FnMut(&mut SmallRng) -> (Shape, Shape),
    taken: impl Fn(&QueryPath) -> bool,
) -> (usize, usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut apart, mut overlapping) = (0, 0);
    let gjk_settings = QuerySettings::default().with_algorithm(Algorithm::Gjk);
    for case in 0..n {
        let (a, b) = make(&mut rng);
        let (pa, pb) = (pose(&mut rng, 1.5), pose(&mut rng, 1.5));
        // Both orders: the dispatcher's canonical order makes them the same computation.
        for (x, px, y, py) in [(&a, &pa, &b, &pb), (&b, &pb, &a, &pa)] {
            let auto = distance(x, px, y, py, &QuerySettings::default()).unwrap();
            let gjk = distance(x, px, y, py, &gjk_settings).unwrap();
            let (sa, sg) = (auto.signed_distance(), gjk.signed_distance());
            let slack = (gjk.certificate.upper - gjk.certificate.lower)
                .max(auto.certificate.upper - auto.certificate.lower)
                + 1e-12;
            // A depth is not in the distance certificate ([0, 0] when intersecting): EPA's is
            // good to GJK's tolerance 1e-10 × the problem scale (≤ ~10 here).
            let slack = if sa < 0.0 || sg < 0.0 { slack.max(1e-9) } else { slack };
            assert!(
                (sa - sg).abs() <= slack,
                "case {case}: auto {sa} ({:?}) vs GJK {sg} (slack {slack:e})",
                auto.path
            );
            assert!(auto.certificate.lower <= auto.certificate.upper);
            if taken(&auto.path) {
                apart += 1;
                // The apart route answers only when the cores are apart; with radius the
                // shapes may overlap, by at most the radius.
                let (wa, wb) = auto.witnesses().unwrap();
                if sa > 0.0 {
                    assert!(((wb - wa).norm() - sa).abs() <= 1e-13, "case {case}");
                    assert!(auto.certificate.upper - auto.certificate.lower <= 1e-9 * sa.max(1.0));
                }
            }
            if sa < 0.0 {
                overlapping += 1;
            }
        }
    }
    (apart, overlapping)
}

trait Signed {
    fn signed_distance(&self) -> f64;
}

impl Signed for proxima_geom::DistanceResult {
    /// The distance, or minus the depth (0 when the depth is not reported).
    fn signed_distance(&self) -> f64 {
        match self.proximity {
            proxima_geom::Proximity::Intersecting { depth, .. } => -depth.unwrap_or(0.0),
            _ => self.distance(),
        }
    }
}

#[test]
fn triangle_pairs_agree_with_forced_gjk() {
    let (apart, overlapping) =
        agree_with_gjk(19, 800, |rng| (triangle(rng), triangle(rng)), |p| *p == QueryPath::ClosedForm);
    // (Thin triangles overlap less often than solids: 30 of 1600 answers with this seed.)
    assert!(apart >= 400 && overlapping >= 20, "apart {apart}, overlapping {overlapping}");
}

#[test]
fn capsule_and_segment_ellipsoid_pairs_agree_with_forced_gjk() {
    let (apart, overlapping) = agree_with_gjk(
        23,
        800,
        |rng| {
            let piece = if rng.random_bool(0.5) {
                Shape::Capsule(
                    Capsule::new(rng.random_range(0.05..0.6), rng.random_range(0.05..1.5)).unwrap(),
                )
            } else {
                let mut v = || [0; 3].map(|_| rng.random_range(-1.5..1.5));
                Shape::Segment(Segment::new(v(), v()).unwrap())
            };
            (piece, ellipsoid(rng))
        },
        |p| matches!(p, QueryPath::Ellipsoid { .. }),
    );
    assert!(apart >= 400 && overlapping >= 40, "apart {apart}, overlapping {overlapping}");
}

#[test]
fn triangle_ellipsoid_pairs_agree_with_forced_gjk() {
    let (apart, overlapping) = agree_with_gjk(
        29,
        800,
        |rng| (triangle(rng), ellipsoid(rng)),
        |p| matches!(p, QueryPath::Ellipsoid { .. }),
    );
    assert!(apart >= 400 && overlapping >= 40, "apart {apart}, overlapping {overlapping}");
}

#[test]
fn box_ellipsoid_pairs_agree_with_forced_gjk() {
    let (apart, overlapping) = agree_with_gjk(
        31,
        800,
        |rng| {
            let b = Shape::Cuboid(Cuboid::new([0; 3].map(|_| rng.random_range(0.05..1.0))).unwrap());
            (b, ellipsoid(rng))
        },
        |p| matches!(p, QueryPath::Ellipsoid { .. }),
    );
    assert!(apart >= 400 && overlapping >= 40, "apart {apart}, overlapping {overlapping}");
}

#[test]
fn a_box_face_or_edge_over_an_ellipsoid_is_exact() {
    // Radii (1, 2, 3) at the origin; a unit cube (half extents 0.5) centred at (0, 0, 4.5):
    // its bottom face at z = 4 over the pole (0, 0, 3), distance 1.
    let e = Shape::Ellipsoid(Ellipsoid::new([1.0, 2.0, 3.0]).unwrap());
    let b = Shape::Cuboid(Cuboid::new([0.5; 3]).unwrap());
    let up = Pose::from_matrix(Matrix3::identity(), Vector3::new(0.0, 0.0, 4.5)).unwrap();
    let r = distance(&b, &up, &e, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(matches!(r.path, QueryPath::Ellipsoid { .. }), "{:?}", r.path);
    assert!((r.distance() - 1.0).abs() <= 1e-15, "{}", r.distance());
    // Beside the x semi-axis, the cube turned 45° about z: its vertical edge at
    // x = 2.5 − √0.5 faces the vertex (1, 0, 0) of the ellipsoid, distance 1.5 − √0.5.
    let turn = *Rotation3::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4).matrix();
    let side = Pose::from_matrix(turn, Vector3::new(2.5, 0.0, 0.0)).unwrap();
    let r = distance(&b, &side, &e, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(matches!(r.path, QueryPath::Ellipsoid { .. }), "{:?}", r.path);
    let exact = 1.5 - 0.5f64.sqrt();
    assert!((r.distance() - exact).abs() <= 1e-14, "{} vs {exact}", r.distance());
    // Overlapping: GJK/EPA.
    let r = distance(&b, &Pose::identity(), &e, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(matches!(r.path, QueryPath::Gjk { .. }), "{:?}", r.path);
}

#[test]
fn a_triangle_face_over_an_ellipsoid_is_exact() {
    // Radii (1, 2, 3) at the origin, a large triangle in the plane z = 4 over it: the closest
    // points are the pole (0, 0, 3) and its projection, distance 1.
    let e = Shape::Ellipsoid(Ellipsoid::new([1.0, 2.0, 3.0]).unwrap());
    let t = Shape::Triangle(Triangle::new([-5.0, -5.0, 4.0], [5.0, -5.0, 4.0], [0.0, 5.0, 4.0]).unwrap());
    let r = distance(&t, &Pose::identity(), &e, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(matches!(r.path, QueryPath::Ellipsoid { .. }), "{:?}", r.path);
    assert!((r.distance() - 1.0).abs() <= 1e-15, "{}", r.distance());
    let (pt, pe) = r.witnesses().unwrap();
    assert!((pt - nalgebra::Point3::new(0.0, 0.0, 4.0)).norm() <= 1e-15);
    assert!((pe - nalgebra::Point3::new(0.0, 0.0, 3.0)).norm() <= 1e-15);
    // The same triangle through the ellipsoid: contact, GJK/EPA's depth.
    let low = Pose::from_matrix(Matrix3::identity(), Vector3::new(0.0, 0.0, -3.5)).unwrap();
    let r = distance(&t, &low, &e, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(matches!(r.path, QueryPath::Gjk { .. }), "{:?}", r.path);
}
