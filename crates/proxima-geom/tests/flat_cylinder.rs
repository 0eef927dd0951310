//! Box / aligned box / triangle – cylinder by candidate features
//! (`query/distance/distance_flat_cylinder.rs`) against an independent answer: the same pair
//! with GJK forced (which certifies its own bracket on the user's shapes). The random samples
//! mix separated and overlapping placements; the route must answer only separated pairs, with
//! a closed bracket, and every kind of candidate (vertex, side, rim against a face, rim
//! against an edge, cap against a vertex) must win somewhere in the sample.

use nalgebra::{Point3, Vector3};
use proxima_geom::shape::{AlignedBox, Cuboid, Cylinder, Triangle};
use proxima_geom::{Algorithm, Pose, Proximity, QueryPath, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "support/random_pose.rs"]
mod random_pose;
use random_pose::pose;

/// Which features of the two shapes hold the witnesses (see [`classify`]).
#[derive(Debug, Default)]
struct Seen {
    vertex_rim: usize,
    edge_rim: usize,
    face_rim: usize,
    side: usize,
    cap: usize,
}

/// Relative tolerance for "on a feature" of the local witness coordinates (the witnesses are
/// computed to a few ulps of coordinates ≤ ~5).
const ON: f64 = 1e-9;

/// The cylinder feature of a local point: 0 side, 1 cap, 2 rim.
fn cylinder_feature(p: &Point3<f64>, r: f64, h: f64) -> u8 {
    let on_cap = (p.z.abs() - h).abs() <= ON;
    let on_side = ((p.x * p.x + p.y * p.y).sqrt() - r).abs() <= ON;
    match (on_cap, on_side) {
        (true, true) => 2,
        (true, false) => 1,
        _ => 0,
    }
}

/// How many coordinates of a box-local point are at a face (1 face, 2 edge, 3 vertex).
fn box_feature(p: &Point3<f64>, lo: &Vector3<f64>, hi: &Vector3<f64>) -> usize {
    (0..3).filter(|&k| (p[k] - lo[k]).abs() <= ON || (p[k] - hi[k]).abs() <= ON).count()
}

fn cylinder(rng: &mut SmallRng) -> Cylinder {
    Cylinder::new(rng.random_range(0.1..1.0), rng.random_range(0.1..1.5)).unwrap()
}

/// Auto against forced GJK on one pair in both orders; returns the auto answer of (a, b).
fn agree(case: usize, a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> proxima_geom::DistanceResult {
    let gjk_settings = QuerySettings::default().with_algorithm(Algorithm::Gjk);
    let mut first = None;
    for (x, px, y, py) in [(a, pa, b, pb), (b, pb, a, pa)] {
        let auto = distance(x, px, y, py, &QuerySettings::default()).unwrap();
        let gjk = distance(x, px, y, py, &gjk_settings).unwrap();
        let signed = |r: &proxima_geom::DistanceResult| match r.proximity {
            Proximity::Separated { distance, .. } => distance,
            Proximity::Touching { .. } => 0.0,
            Proximity::Intersecting { depth, .. } => -depth.unwrap_or(0.0),
        };
        let (sa, sg) = (signed(&auto), signed(&gjk));
        // Both answers are certified: they agree to the wider bracket, plus 1e-12 for the
        // rounding of the two witness distances at coordinates ≤ ~5; a depth is good to
        // GJK/EPA's tolerance 1e-10 × the problem scale (≤ ~10 here).
        let slack = (gjk.certificate.upper - gjk.certificate.lower)
            .max(auto.certificate.upper - auto.certificate.lower)
            + 1e-12;
        let slack = if sa < 0.0 || sg < 0.0 { slack.max(1e-9) } else { slack };
        assert!((sa - sg).abs() <= slack, "case {case}: auto {sa} ({:?}) vs GJK {sg}", auto.path);
        if auto.path == QueryPath::ClosedForm {
            // Only separated pairs, with the bracket closed to GJK's tolerance × scale.
            assert!(sa > 0.0, "case {case}: closed form on contact");
            assert!(auto.certificate.upper - auto.certificate.lower <= 1e-9, "case {case}");
            assert!(auto.certificate.lower <= sg + slack && sg <= auto.certificate.upper + slack);
        }
        first.get_or_insert(auto);
    }
    first.unwrap()
}

#[test]
fn box_cylinder_agrees_with_gjk_and_uses_every_candidate() {
    let mut rng = SmallRng::seed_from_u64(7);
    let (mut seen, mut closed, mut separated, n) = (Seen::default(), 0, 0, 1500);
    for case in 0..n {
        let he = Vector3::from_fn(|_, _| rng.random_range(0.1..1.0));
        let cyl = cylinder(&mut rng);
        let (pa, pb) = (pose(&mut rng, 1.5), pose(&mut rng, 1.5));
        // Aligned boxes (lo ≠ −hi) take the same route.
        let (a, lo, hi) = if case % 4 == 3 {
            let lo = -he * 0.5;
            (Shape::AlignedBox(AlignedBox::new(lo.into(), he.into()).unwrap()), lo, he)
        } else {
            (Shape::Cuboid(Cuboid::new(he.into()).unwrap()), -he, he)
        };
        let b = Shape::Cylinder(cyl);
        let r = agree(case, &a, &pa, &b, &pb);
        if let Proximity::Separated { point_a, point_b, .. } = r.proximity {
            separated += 1;
            if r.path == QueryPath::ClosedForm {
                closed += 1;
                let fb = box_feature(&pa.inverse_transform_point(&point_a), &lo, &hi);
                let fc =
                    cylinder_feature(&pb.inverse_transform_point(&point_b), cyl.radius(), cyl.half_height());
                match (fb, fc) {
                    (3, 2) => seen.vertex_rim += 1,
                    (2, 2) => seen.edge_rim += 1,
                    (1, 2) => seen.face_rim += 1,
                    (_, 0) => seen.side += 1,
                    (_, 1) => seen.cap += 1,
                    _ => {}
                }
            }
        }
    }
    // The route must carry most separated pairs (the workload's box–cylinder: 72 of 76).
    assert!(closed * 10 >= separated * 8, "closed form on {closed} of {separated} separated pairs");
    assert!(separated < n, "no overlapping pair in the sample");
    assert!(
        seen.vertex_rim > 0 && seen.edge_rim > 0 && seen.face_rim > 0 && seen.side > 0 && seen.cap > 0,
        "{seen:?}"
    );
}

#[test]
fn triangle_cylinder_agrees_with_gjk() {
    let mut rng = SmallRng::seed_from_u64(11);
    let (mut seen, mut closed, mut separated, n) = (Seen::default(), 0, 0, 1500);
    for case in 0..n {
        let mut v = || [0; 3].map(|_| rng.random_range(-1.0..1.0));
        let a = Shape::Triangle(Triangle::new(v(), v(), v()).unwrap());
        let cyl = cylinder(&mut rng);
        let b = Shape::Cylinder(cyl);
        let (pa, pb) = (pose(&mut rng, 1.5), pose(&mut rng, 1.5));
        let r = agree(case, &a, &pa, &b, &pb);
        if let Proximity::Separated { point_b, .. } = r.proximity {
            separated += 1;
            if r.path == QueryPath::ClosedForm {
                closed += 1;
                match cylinder_feature(&pb.inverse_transform_point(&point_b), cyl.radius(), cyl.half_height())
                {
                    0 => seen.side += 1,
                    1 => seen.cap += 1,
                    _ => seen.vertex_rim += 1,
                }
            }
        }
    }
    assert!(closed * 10 >= separated * 8, "closed form on {closed} of {separated} separated pairs");
    assert!(separated < n, "no overlapping pair in the sample");
    assert!(seen.side > 0 && seen.cap > 0 && seen.vertex_rim > 0, "{seen:?}");
}

/// Known answers: a box beside the side (face against side: 3 − 0.5 − 1), above the cap (face
/// against cap: 3 − 0.5 − 1), and a triangle with a vertex over the cap.
#[test]
fn known_distances() {
    let cyl = Shape::Cylinder(Cylinder::new(1.0, 1.0).unwrap());
    let bx = Shape::Cuboid(Cuboid::new([0.5, 0.5, 0.5]).unwrap());
    let at = |t: [f64; 3]| Pose::from_translation(t).unwrap();
    let tri = Shape::Triangle(Triangle::new([0.0, 0.0, 2.0], [3.0, 0.0, 4.0], [0.0, 3.0, 4.0]).unwrap());
    for (a, pa, want) in
        [(&bx, at([3.0, 0.0, 0.2]), 1.5), (&bx, at([0.3, 0.1, 3.0]), 1.5), (&tri, at([0.0; 3]), 1.0)]
    {
        let r = distance(a, &pa, &cyl, &at([0.0; 3]), &QuerySettings::default()).unwrap();
        let Proximity::Separated { distance: d, .. } = r.proximity else { panic!("{r:?}") };
        assert!((d - want).abs() <= 1e-14, "{d} vs {want}");
        assert!(r.certificate.lower <= want && want <= r.certificate.upper + 1e-15);
    }
}

/// Coordinates near the end of f64's range: an answer or an error, never a panic or a NaN.
#[test]
fn huge_coordinates_no_panic() {
    let cyl = Shape::Cylinder(Cylinder::new(1.0, 1.0).unwrap());
    let bx = Shape::Cuboid(Cuboid::new([0.5, 0.5, 0.5]).unwrap());
    for t in [1e150, 1e300, f64::MAX / 4.0] {
        let far = Pose::from_translation([t, -t, t]).unwrap();
        if let Ok(r) = distance(&bx, &far, &cyl, &Pose::identity(), &QuerySettings::default()) {
            assert!(r.certificate.lower.is_finite() && r.certificate.upper.is_finite());
            assert!(r.certificate.lower <= r.certificate.upper);
        }
    }
}
