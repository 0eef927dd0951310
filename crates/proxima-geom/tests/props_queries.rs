//! Property tests of the query API: symmetry, rigid-motion invariance, bounds, witnesses inside
//! their shapes, agreement with brute-force sampling and between algorithms.

use nalgebra::{Point3, Rotation3, Vector3};
use proptest::prelude::*;
use proxima_geom::shape::{
    AlignedBox, Capsule, ConvexPolytope, Cuboid, Cylinder, Line, Point, Segment, Sphere, Triangle,
};
use proxima_geom::{
    Algorithm, Arithmetic, DistanceResult, GeomError, Intersection, Pose, Proximity, QuerySettings, Shape,
    distance, intersects,
};

fn coord() -> impl Strategy<Value = f64> {
    -1.5..1.5f64
}
fn vec3() -> impl Strategy<Value = [f64; 3]> {
    [coord(), coord(), coord()]
}
fn extent() -> impl Strategy<Value = f64> {
    0.1..1.2f64
}

fn pose() -> impl Strategy<Value = Pose> {
    ([-3.2..3.2f64, -3.2..3.2f64, -3.2..3.2f64], [-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64]).prop_map(
        |(axis, t)| {
            let r = Rotation3::new(Vector3::from(axis));
            Pose::from_matrix(*r.matrix(), Vector3::from(t)).unwrap()
        },
    )
}

/// Bounded shapes (sampling needs support points in every direction).
fn bounded_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        vec3().prop_map(|p| Shape::Point(Point::new(p).unwrap())),
        extent().prop_map(|r| Shape::Sphere(Sphere::new(r).unwrap())),
        (extent(), extent()).prop_map(|(r, h)| Shape::Capsule(Capsule::new(r, h).unwrap())),
        (vec3(), vec3()).prop_filter_map("coincident", |(a, b)| Segment::new(a, b).ok().map(Shape::Segment)),
        [extent(), extent(), extent()].prop_map(|h| Shape::Cuboid(Cuboid::new(h).unwrap())),
        (extent(), extent()).prop_map(|(r, h)| Shape::Cylinder(Cylinder::new(r, h).unwrap())),
        (vec3(), [extent(), extent(), extent()]).prop_map(|(lo, e)| {
            let hi = [lo[0] + e[0], lo[1] + e[1], lo[2] + e[2]];
            Shape::AlignedBox(AlignedBox::new(lo, hi).unwrap())
        }),
        (vec3(), vec3(), vec3())
            .prop_filter_map("collinear", |(a, b, c)| Triangle::new(a, b, c).ok().map(Shape::Triangle)),
        prop::collection::vec(vec3(), 1..7)
            .prop_map(|v| Shape::ConvexPolytope(ConvexPolytope::new(v).unwrap())),
    ]
}

fn triangle() -> impl Strategy<Value = Shape> {
    (vec3(), vec3(), vec3())
        .prop_filter_map("collinear", |(a, b, c)| Triangle::new(a, b, c).ok().map(Shape::Triangle))
}
fn cuboid() -> impl Strategy<Value = Shape> {
    [extent(), extent(), extent()].prop_map(|h| Shape::Cuboid(Cuboid::new(h).unwrap()))
}
fn aligned_box() -> impl Strategy<Value = Shape> {
    (vec3(), [extent(), extent(), extent()]).prop_map(|(lo, e)| {
        let hi = [lo[0] + e[0], lo[1] + e[1], lo[2] + e[2]];
        Shape::AlignedBox(AlignedBox::new(lo, hi).unwrap())
    })
}
fn ball() -> impl Strategy<Value = Shape> {
    prop_oneof![
        vec3().prop_map(|p| Shape::Point(Point::new(p).unwrap())),
        extent().prop_map(|r| Shape::Sphere(Sphere::new(r).unwrap())),
    ]
}
fn hull() -> impl Strategy<Value = Shape> {
    prop_oneof![
        triangle(),
        prop::collection::vec(vec3(), 1..7)
            .prop_map(|v| Shape::ConvexPolytope(ConvexPolytope::new(v).unwrap())),
    ]
}
fn seg_or_capsule() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (vec3(), vec3()).prop_filter_map("coincident", |(a, b)| Segment::new(a, b).ok().map(Shape::Segment)),
        (extent(), extent()).prop_map(|(r, h)| Shape::Capsule(Capsule::new(r, h).unwrap())),
    ]
}

/// Pairs served by the LCP kernels, in a random order.
fn lcp_pair() -> impl Strategy<Value = (Shape, Shape)> {
    let pair = prop_oneof![
        (triangle(), cuboid()),
        (triangle(), aligned_box()),
        (seg_or_capsule(), triangle()),
        (ball(), hull()),
        (cuboid(), aligned_box()),
        (aligned_box(), aligned_box()),
    ];
    (pair, any::<bool>()).prop_map(|((a, b), swap)| if swap { (b, a) } else { (a, b) })
}

fn any_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        4 => bounded_shape(),
        1 => (vec3(), vec3())
            .prop_filter_map("zero direction", |(o, d)| Line::new(o, d).ok().map(Shape::Line)),
    ]
}

/// `Ok(None)` for an unsupported pair.
fn query(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, s: &QuerySettings) -> Option<DistanceResult> {
    match distance(a, pa, b, pb, s) {
        Ok(r) => Some(r),
        Err(GeomError::Unsupported { .. }) => None,
        Err(e) => panic!("unexpected error {e:?} for {a:?} / {b:?}"),
    }
}

/// Fibonacci-sphere directions (deterministic, well spread).
fn directions(n: usize) -> Vec<Vector3<f64>> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - y * y).sqrt();
            let th = golden * i as f64;
            Vector3::new(r * th.cos(), y, r * th.sin())
        })
        .collect()
}

/// Boundary samples: support points in many directions plus convex combinations of pairs of
/// them (edges and faces of flat shapes are not reached by support points alone).
fn samples(s: &Shape, p: &Pose, dirs: &[Vector3<f64>]) -> Vec<[f64; 3]> {
    let base: Vec<[f64; 3]> =
        dirs.iter().filter_map(|n| s.support_point(p, n)).map(|q| [q.x, q.y, q.z]).collect();
    let mut pts = base.clone();
    for (i, a) in base.iter().enumerate().step_by(5) {
        for b in base.iter().skip(i + 1).step_by(7) {
            for k in 1..4 {
                let t = k as f64 / 4.0;
                pts.push(core::array::from_fn(|j| a[j] + (b[j] - a[j]) * t));
            }
        }
    }
    pts
}

fn sampled_min(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> f64 {
    let dirs = directions(64);
    let (sa, sb) = (samples(a, pa, &dirs), samples(b, pb, &dirs));
    let mut best = f64::INFINITY;
    for x in &sa {
        for y in &sb {
            let d = (y[0] - x[0]).powi(2) + (y[1] - x[1]).powi(2) + (y[2] - x[2]).powi(2);
            best = best.min(d);
        }
    }
    best.sqrt()
}

/// x ∈ S up to tol, tested through the support function in many directions.
fn inside(s: &Shape, p: &Pose, x: &Point3<f64>, tol: f64) -> bool {
    directions(100).iter().all(|n| n.dot(&x.coords) <= s.support_value(p, n) + tol)
}

fn lcp_settings() -> QuerySettings {
    QuerySettings::default().with_algorithm(Algorithm::Lcp)
}

fn exact_settings() -> QuerySettings {
    QuerySettings::default().with_arithmetic(Arithmetic::Exact)
}

fn cfg() -> ProptestConfig {
    ProptestConfig { cases: 64, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn symmetric_exactly(a in any_shape(), pa in pose(), b in any_shape(), pb in pose()) {
        let s = QuerySettings::default();
        let Some(ab) = query(&a, &pa, &b, &pb, &s) else { return Ok(()) };
        let ba = query(&b, &pb, &a, &pa, &s).expect("supported in one order only");
        prop_assert_eq!(ab.distance(), ba.distance());
        prop_assert_eq!(ab.certificate, ba.certificate);
        match (ab.proximity, ba.proximity) {
            (
                Proximity::Separated { point_a, point_b, normal, .. },
                Proximity::Separated { point_a: qa, point_b: qb, normal: m, .. },
            ) => {
                prop_assert_eq!(point_a, qb);
                prop_assert_eq!(point_b, qa);
                prop_assert_eq!(normal, -m);
            }
            (x, y) => prop_assert_eq!(x, y),
        }
        let hit_ab = intersects(&a, &pa, &b, &pb, &s).unwrap();
        let hit_ba = intersects(&b, &pb, &a, &pa, &s).unwrap();
        prop_assert_eq!(hit_ab, mirror(hit_ba));
    }

    #[test]
    fn rigid_motion_invariant(a in any_shape(), pa in pose(), b in any_shape(), pb in pose(), m in pose()) {
        let s = QuerySettings::default();
        let Some(r0) = query(&a, &pa, &b, &pb, &s) else { return Ok(()) };
        let r1 = query(&a, &m.compose(&pa), &b, &m.compose(&pb), &s).unwrap();
        prop_assert!((r0.distance() - r1.distance()).abs() <= 1e-9 * 20.0, "{:?} vs {:?}", r0, r1);
        // Witnesses need not be unique (parallel faces): the moved ones must lie in the moved
        // shapes, which `bounds_and_witnesses` checks for any pose.
        prop_assert!((r0.certificate.upper - r1.certificate.upper).abs() <= 1e-9 * 20.0);
        prop_assert!(r1.certificate.lower <= r1.certificate.upper);
    }

    #[test]
    fn bounds_and_witnesses(a in bounded_shape(), pa in pose(), b in bounded_shape(), pb in pose()) {
        let s = QuerySettings::default();
        let Some(r) = query(&a, &pa, &b, &pb, &s) else { return Ok(()) };
        let c = r.certificate;
        prop_assert!(r.distance() >= 0.0);
        prop_assert!(0.0 <= c.lower && c.lower <= c.upper, "{:?}", c);
        let tol = 1e-9;
        if let Proximity::Separated { distance, point_a, point_b, normal } = r.proximity {
            prop_assert_eq!(distance, c.upper);
            prop_assert!((distance - (point_b - point_a).norm()).abs() <= 1e-12 * (1.0 + distance));
            prop_assert!((normal.norm() - 1.0).abs() <= 1e-12);
            prop_assert!(c.gap() <= 1e-8, "gap {:?}", r);
        }
        if let Some((wa, wb)) = r.witnesses() {
            prop_assert!(inside(&a, &pa, &wa, tol), "witness a outside: {:?}", r);
            prop_assert!(inside(&b, &pb, &wb, tol), "witness b outside: {:?}", r);
        }
        // The true distance is ≤ every sampled distance, and ≥ the lower bound.
        let sm = sampled_min(&a, &pa, &b, &pb);
        prop_assert!(r.distance() <= sm + 1e-9, "reported {} > sampled {} ({:?})", r.distance(), sm, r);
        prop_assert!(c.lower <= sm + 1e-9);
    }

    #[test]
    fn intersects_agrees_with_distance(a in any_shape(), pa in pose(), b in any_shape(), pb in pose()) {
        let s = QuerySettings::default();
        let Some(r) = query(&a, &pa, &b, &pb, &s) else { return Ok(()) };
        let hit = intersects(&a, &pa, &b, &pb, &s).unwrap();
        match (r.proximity, hit) {
            (Proximity::Separated { .. }, Intersection::Separated { direction }) => {
                if let Some(n) = direction {
                    // A proven separating direction.
                    let gap = -b.support_value(&pb, &-n) - a.support_value(&pa, &n);
                    prop_assert!(gap > 0.0);
                }
            }
            (Proximity::Separated { .. }, other) => prop_assert!(false, "{:?} vs {:?}", r, other),
            (_, Intersection::Intersecting { .. }) => {}
            (p, other) => prop_assert!(false, "{:?} vs {:?}", p, other),
        }
    }

    #[test]
    fn box_box_lcp_fast_exact_and_sampling_agree(
        ha in [extent(), extent(), extent()], pa in pose(),
        hb in [extent(), extent(), extent()], pb in pose(),
    ) {
        let a = Shape::Cuboid(Cuboid::new(ha).unwrap());
        let b = Shape::Cuboid(Cuboid::new(hb).unwrap());
        let auto = distance(&a, &pa, &b, &pb, &QuerySettings::default()).unwrap();
        let lcp = distance(&a, &pa, &b, &pb, &lcp_settings()).unwrap();
        let exact = distance(&a, &pa, &b, &pb, &exact_settings()).unwrap();
        prop_assert!((auto.distance() - lcp.distance()).abs() <= 1e-9, "{:?} {:?}", auto, lcp);
        prop_assert!((auto.distance() - exact.distance()).abs() <= 1e-9, "{:?} {:?}", auto, exact);
        let sm = sampled_min(&a, &pa, &b, &pb);
        prop_assert!(auto.distance() <= sm + 1e-9);
        // A box's support points are its corners, and every point of a box is within its
        // half-diagonal of a corner: so the sampled minimum exceeds the distance by at most
        // the two half-diagonals (face–face closest features reach that; 0.6 here was a guess
        // that a face pair with 1.9 of half-diagonals broke).
        let reach = Vector3::from(ha).norm() + Vector3::from(hb).norm();
        prop_assert!(sm <= auto.distance() + reach + 1e-9, "sampled {} vs {}", sm, auto.distance());
    }

    #[test]
    fn sphere_box_closed_form_matches_lcp(
        r in extent(), pa in pose(), h in [extent(), extent(), extent()], pb in pose(),
    ) {
        let a = Shape::Sphere(Sphere::new(r).unwrap());
        let b = Shape::Cuboid(Cuboid::new(h).unwrap());
        let cf = distance(&a, &pa, &b, &pb, &QuerySettings::default()).unwrap();
        let lcp = distance(&a, &pa, &b, &pb, &lcp_settings()).unwrap();
        prop_assert!((cf.distance() - lcp.distance()).abs() <= 1e-9, "{:?} {:?}", cf, lcp);
    }
    #[test]
    fn lcp_pairs_bounds_symmetry_exact((a, b) in lcp_pair(), pa in pose(), pb in pose()) {
        let s = QuerySettings::default();
        let r = distance(&a, &pa, &b, &pb, &s).unwrap();
        // Point/sphere/segment/capsule – triangle pairs have an LCP kernel but are routed to
        // their closed form under `Auto` when the cores are apart, to GJK/EPA when they meet
        // (faster); the properties below hold for all three.
        let core_triangle = |x: &Shape, y: &Shape| {
            matches!(x, Shape::Point(_) | Shape::Sphere(_) | Shape::Segment(_) | Shape::Capsule(_))
                && matches!(y, Shape::Triangle(_))
        };
        let triangle_box = |x: &Shape, y: &Shape| {
            matches!(x, Shape::Triangle(_)) && matches!(y, Shape::Cuboid(_) | Shape::AlignedBox(_))
        };
        if core_triangle(&a, &b) || core_triangle(&b, &a) {
            prop_assert!(matches!(r.algorithm, Algorithm::ClosedForm | Algorithm::Gjk), "{:?}", r);
            // Flat cores (no radius) apart by more than round-off are the closed form's.
            let flat = |x: &Shape| matches!(x, Shape::Point(_) | Shape::Segment(_) | Shape::Triangle(_));
            if flat(&a) && flat(&b) && r.distance() > 1e-9 {
                prop_assert_eq!(r.algorithm, Algorithm::ClosedForm);
            }
        } else if triangle_box(&a, &b) || triangle_box(&b, &a) {
            // Triangle–box apart: the closed-form candidates when their certificate closes,
            // else the kernel (compared with the exact re-solve below either way).
            prop_assert!(matches!(r.algorithm, Algorithm::ClosedForm | Algorithm::Lcp), "{:?}", r);
        } else {
            prop_assert_eq!(r.algorithm, Algorithm::Lcp);
        }
        let c = r.certificate;
        prop_assert!(0.0 <= c.lower && c.lower <= c.upper);
        if matches!(r.proximity, Proximity::Separated { .. }) {
            prop_assert!(c.gap() <= 1e-8, "gap {:?}", r);
        }
        if let Some((wa, wb)) = r.witnesses() {
            prop_assert!(inside(&a, &pa, &wa, 1e-9), "witness a outside: {:?}", r);
            prop_assert!(inside(&b, &pb, &wb, 1e-9), "witness b outside: {:?}", r);
        }
        let sm = sampled_min(&a, &pa, &b, &pb);
        prop_assert!(r.distance() <= sm + 1e-9, "reported {} > sampled {}", r.distance(), sm);
        let back = distance(&b, &pb, &a, &pa, &s).unwrap();
        prop_assert_eq!(back.distance(), r.distance());
        prop_assert_eq!(back.certificate, r.certificate);
        let ex = distance(&a, &pa, &b, &pb, &exact_settings()).unwrap();
        prop_assert!((ex.distance() - r.distance()).abs() <= 1e-9, "{:?} vs exact {:?}", r, ex);
    }
}

fn mirror(i: Intersection) -> Intersection {
    match i {
        Intersection::Separated { direction } => Intersection::Separated { direction: direction.map(|n| -n) },
        other => other,
    }
}
