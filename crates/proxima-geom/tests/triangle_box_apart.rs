//! Triangle – box when apart by four closed-form candidates
//! (`query/distance/distance_triangle_box.rs`) against two independent answers on random
//! placements: the LCP triangle–box kernel forced (the route it replaces) and GJK forced.
//! The random samples mix separated and overlapping placements; the closed form must answer
//! only separated pairs, with a closed bracket, and carry most of them.

use nalgebra::Vector3;
use proxima_geom::shape::{AlignedBox, Cuboid, Triangle};
use proxima_geom::{Algorithm, DistanceResult, Proximity, QueryPath, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "support/random_pose.rs"]
mod random_pose;
use random_pose::pose;

fn signed(r: &DistanceResult) -> f64 {
    match r.proximity {
        Proximity::Separated { distance, .. } => distance,
        Proximity::Touching { .. } => 0.0,
        Proximity::Intersecting { depth, .. } => -depth.unwrap_or(0.0),
    }
}

#[test]
fn triangle_box_agrees_with_lcp_and_gjk() {
    let mut rng = SmallRng::seed_from_u64(5);
    let (mut closed, mut separated, n) = (0, 0, 2000);
    let lcp = QuerySettings::default().with_algorithm(Algorithm::Lcp);
    let gjk = QuerySettings::default().with_algorithm(Algorithm::Gjk);
    for case in 0..n {
        let mut v = || [0; 3].map(|_| rng.random_range(-1.0..1.0));
        let a = Shape::Triangle(Triangle::new(v(), v(), v()).unwrap());
        let he = Vector3::from_fn(|_, _| rng.random_range(0.05..1.0));
        // Thin boxes (a face against the triangle's interior) and aligned boxes (lo ≠ −hi).
        let b = if case % 3 == 2 {
            Shape::AlignedBox(AlignedBox::new((-he * 0.3).into(), he.into()).unwrap())
        } else {
            Shape::Cuboid(Cuboid::new(he.into()).unwrap())
        };
        let (pa, pb) = (pose(&mut rng, 1.5), pose(&mut rng, 1.5));
        for (x, px, y, py) in [(&a, &pa, &b, &pb), (&b, &pb, &a, &pa)] {
            let auto = distance(x, px, y, py, &QuerySettings::default()).unwrap();
            let (sa, sl, sg) = (
                signed(&auto),
                signed(&distance(x, px, y, py, &lcp).unwrap()),
                signed(&distance(x, px, y, py, &gjk).unwrap()),
            );
            // Certified answers: the same distance to their brackets (≤ 1e-9 × scale ≤ ~10
            // here) plus the rounding of the witness distances; a depth is good to EPA's
            // tolerance (1e-10 × scale).
            let slack = if sa <= 0.0 || sg <= 0.0 {
                1e-9
            } else {
                (auto.certificate.upper - auto.certificate.lower) + 1e-12
            };
            if sa > 0.0 && sl > 0.0 {
                assert!((sa - sl).abs() <= slack.max(1e-12), "case {case}: auto {sa} vs LCP {sl}");
            }
            assert!(
                (sa.max(0.0) - sg.max(0.0)).abs() <= slack.max(1e-9),
                "case {case}: auto {sa} vs GJK {sg}"
            );
            if auto.path == QueryPath::ClosedForm {
                assert!(sa > 0.0, "case {case}: closed form on contact");
                assert!(auto.certificate.upper - auto.certificate.lower <= 1e-9, "case {case}");
            }
        }
        let auto = distance(&a, &pa, &b, &pb, &QuerySettings::default()).unwrap();
        if signed(&auto) > 0.0 {
            separated += 1;
            closed += usize::from(auto.path == QueryPath::ClosedForm);
        }
    }
    assert!(closed * 10 >= separated * 9, "closed form on {closed} of {separated} separated pairs");
    assert!(separated < n, "no overlapping pair in the sample");
}

/// Known answers: a box under the triangle's interior (its top face at z = 0.5, the plane at
/// z = 2) and beside an edge.
#[test]
fn known_distances() {
    let tri = Shape::Triangle(Triangle::new([-3.0, -3.0, 2.0], [3.0, -3.0, 2.0], [0.0, 3.0, 2.0]).unwrap());
    let bx = Shape::Cuboid(Cuboid::new([0.5, 0.5, 0.5]).unwrap());
    let id = proxima_geom::Pose::identity();
    // Face against the triangle's interior.
    let r = distance(&tri, &id, &bx, &id, &QuerySettings::default()).unwrap();
    assert_eq!(r.path, QueryPath::ClosedForm);
    assert!((signed(&r) - 1.5).abs() <= 1e-15);
    // Beside the edge y = −3 (box centre at y = −4.5, z = 2): 1.5 − 0.5.
    let beside = proxima_geom::Pose::from_translation([0.0, -4.5, 2.0]).unwrap();
    let r = distance(&tri, &id, &bx, &beside, &QuerySettings::default()).unwrap();
    assert!((signed(&r) - 1.0).abs() <= 1e-15, "{r:?}");
}
