//! `gjk_distance_scanned` (cold GJK between two convex polytopes with vectorized vertex scans)
//! against independent answers on random hull pairs of 4–600 vertices, separated, touching
//! and overlapping: the brute-force-free reference is GJK through the polytopes' own support
//! maps (hill climbing over the hull adjacency for the large ones) and the certified query API
//! (`distance`, which proves its bracket against the shapes). The bracket must be proven
//! (lower ≤ every reference's upper, upper ≥ every reference's lower), the witnesses must
//! realise the upper bound, and the verdicts must agree; `scan_beats_climbing` follows the
//! stated rule.

use nalgebra::{Rotation3, Vector3};
use proxima_geom::gjk::{GjkSettings, GjkStatus, gjk_distance, gjk_distance_scanned, scan_beats_climbing};
use proxima_geom::shape::ConvexPolytope;
use proxima_geom::{Pose, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn pose(rng: &mut SmallRng, spread: f64) -> Pose {
    let axis: [f64; 3] = core::array::from_fn(|_| rng.random_range(-3.2..3.2));
    let t: [f64; 3] = core::array::from_fn(|_| rng.random_range(-spread..spread));
    Pose::from_matrix(*Rotation3::new(Vector3::from(axis)).matrix(), Vector3::from(t)).unwrap()
}

/// The exact hull of `n` random points in an ellipsoidal shell (radii up to 1:2:3), so that
/// most of them are hull vertices.
fn hull(rng: &mut SmallRng, n: usize) -> ConvexPolytope {
    let radii = [rng.random_range(0.3..1.0), rng.random_range(0.3..2.0), rng.random_range(0.3..3.0)];
    let pts: Vec<[f64; 3]> = (0..n)
        .map(|_| {
            let v = Vector3::<f64>::from(core::array::from_fn(|_| rng.random_range(-1.0..1.0)));
            let u = v.normalize() * rng.random_range(0.9..1.0);
            [u.x * radii[0], u.y * radii[1], u.z * radii[2]]
        })
        .collect();
    ConvexPolytope::hull_of(&pts).unwrap()
}

#[test]
fn scanned_gjk_agrees_with_climbing_gjk_and_the_certified_query() {
    let mut rng = SmallRng::seed_from_u64(2318);
    let settings = GjkSettings::default();
    let (mut separated, mut contact) = (0, 0);
    for case in 0..240 {
        let sizes = [4, 8, 20, 60, 150, 300, 600];
        let (na, nb) = (sizes[case % sizes.len()], sizes[(case / sizes.len()) % sizes.len()]);
        let (a, b) = (hull(&mut rng, na), hull(&mut rng, nb));
        let (pa, pb) = (pose(&mut rng, 3.0), pose(&mut rng, 3.0));
        let s = gjk_distance_scanned(&a, &pa, &b, &pb, &settings).unwrap();
        let (sa, sb) = (Shape::ConvexPolytope(a.clone()), Shape::ConvexPolytope(b.clone()));
        let g = gjk_distance(&sa, &pa, &sb, &pb, &settings, None).unwrap();
        let q = distance(&sa, &pa, &sb, &pb, &QuerySettings::default()).unwrap();
        // GJK's tolerance is 1e-10 × the problem scale (a few units here); round-off of the
        // witness sums is far below.
        let tol = 1e-8;
        match s.status {
            GjkStatus::Contact => {
                contact += 1;
                assert!(
                    q.distance() <= tol && g.upper <= tol,
                    "case {case}: contact vs {} / {}",
                    q.distance(),
                    g.upper
                );
            }
            _ => {
                separated += 1;
                let w = (s.point_b - s.point_a).norm();
                assert!((w - s.upper).abs() <= tol, "case {case}: witnesses {w} vs upper {}", s.upper);
                assert!(s.lower <= s.upper + tol, "case {case}: bracket [{}, {}]", s.lower, s.upper);
                let (ql, qu) = (q.certificate.lower, q.certificate.upper);
                assert!(
                    s.lower <= qu + tol && s.upper >= ql - tol,
                    "case {case}: [{}, {}] vs query [{ql}, {qu}]",
                    s.lower,
                    s.upper
                );
                assert!(s.lower <= g.upper + tol && s.upper >= g.lower - tol, "case {case}: vs climbing GJK");
                assert!(
                    (s.upper - q.distance()).abs() <= tol,
                    "case {case}: {} vs {}",
                    s.upper,
                    q.distance()
                );
            }
        }
        let rule = |p: &ConvexPolytope| p.adjacency().is_none() || p.vertices().len() < 512;
        if !rule(&a) {
            assert!(!scan_beats_climbing(&a), "case {case}: {} vertices", a.vertices().len());
        }
    }
    assert!(separated > 50 && contact > 20, "{separated} separated, {contact} in contact: widen the poses");
}

/// Hulls whose vertices sit far from their local origin (as link meshes with the origin at a
/// joint): the cold runs that start between the bounding-box centres (`gjk_distance_scanned`,
/// the query API) give the answer of GJK started from origin to origin (`gjk_distance` on the
/// shapes), within the same tolerance as above, and over all cases they need fewer
/// iterations — the reason for that start.
#[test]
fn centre_start_keeps_the_answer_off_origin() {
    let mut rng = SmallRng::seed_from_u64(2319);
    let settings = GjkSettings::default();
    let tol = 1e-8;
    let (mut centre_iterations, mut origin_iterations, mut separated) = (0u32, 0u32, 0);
    for case in 0..120 {
        let offset =
            |rng: &mut SmallRng| Vector3::<f64>::from(core::array::from_fn(|_| rng.random_range(-4.0..4.0)));
        let shifted = |n: usize, rng: &mut SmallRng| {
            let o = offset(rng);
            let h = hull(rng, n);
            let pts: Vec<[f64; 3]> = h.vertices().iter().map(|p| (p.coords + o).into()).collect();
            (ConvexPolytope::hull_of(&pts).unwrap(), o)
        };
        let ((a, oa), (b, ob)) = (shifted(40 + case % 200, &mut rng), shifted(60 + case % 150, &mut rng));
        // Poses that bring the shifted geometry back near each other.
        let (pa, pb) = (pose(&mut rng, 2.0), pose(&mut rng, 2.0));
        let back = |p: &Pose, o: Vector3<f64>| {
            Pose::from_matrix(*p.rotation(), p.translation() - p.rotation() * o).unwrap()
        };
        let (pa, pb) = (back(&pa, oa), back(&pb, ob));
        let s = gjk_distance_scanned(&a, &pa, &b, &pb, &settings).unwrap();
        let (sa, sb) = (Shape::ConvexPolytope(a.clone()), Shape::ConvexPolytope(b.clone()));
        let g = gjk_distance(&sa, &pa, &sb, &pb, &settings, None).unwrap();
        let q = distance(&sa, &pa, &sb, &pb, &QuerySettings::default()).unwrap();
        centre_iterations += s.iterations;
        origin_iterations += g.iterations;
        if s.status == GjkStatus::Contact {
            assert!(
                q.distance() <= tol && g.upper <= tol,
                "case {case}: contact vs {} / {}",
                q.distance(),
                g.upper
            );
        } else {
            separated += 1;
            assert!((s.upper - g.upper).abs() <= tol, "case {case}: {} vs origin start {}", s.upper, g.upper);
            assert!(
                (s.upper - q.distance()).abs() <= tol,
                "case {case}: {} vs query {}",
                s.upper,
                q.distance()
            );
            assert!(s.lower <= g.upper + tol && g.lower <= s.upper + tol, "case {case}: brackets");
        }
    }
    assert!(separated > 30, "{separated} separated: widen the poses");
    assert!(
        centre_iterations < origin_iterations,
        "centre start {centre_iterations} iterations, origin start {origin_iterations}"
    );
}
