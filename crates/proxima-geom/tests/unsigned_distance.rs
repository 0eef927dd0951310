//! `QuerySettings::penetration_depth = false` (unsigned distance): overlapping GJK-routed pairs
//! end at GJK's contact proof with `Intersecting { depth: None }` and the certificate [0, 0];
//! every other answer is the signed mode's, bit for bit, and `signed_distance` ignores the
//! setting.

use nalgebra::{Rotation3, Vector3};
use proxima_geom::shape::{Capsule, ConvexPolytope, Cuboid, Cylinder};
use proxima_geom::{GjkStatus, Pose, Proximity, QueryPath, QuerySettings, Shape, distance, signed_distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn unsigned() -> QuerySettings {
    QuerySettings::default().with_penetration_depth(false)
}

/// A random polytope: `n` points on an ellipsoid-ish cloud (interior points allowed).
fn polytope(rng: &mut SmallRng, n: usize) -> Shape {
    let v = (0..n).map(|_| core::array::from_fn(|_| rng.random_range(-1.0..1.0))).collect();
    Shape::ConvexPolytope(ConvexPolytope::new(v).unwrap())
}

fn pose(rng: &mut SmallRng, spread: f64) -> Pose {
    let axis: [f64; 3] = core::array::from_fn(|_| rng.random_range(-3.0..3.0));
    let t: [f64; 3] = core::array::from_fn(|_| rng.random_range(-spread..spread));
    Pose::from_matrix(*Rotation3::new(Vector3::from(axis)).matrix(), Vector3::from(t)).unwrap()
}

#[test]
fn signed_is_the_default() {
    assert!(QuerySettings::default().penetration_depth);
}

#[test]
fn overlaps_skip_the_depth_and_the_rest_is_unchanged() {
    let mut rng = SmallRng::seed_from_u64(11);
    let (mut overlaps, mut apart) = (0, 0);
    for k in 0..600 {
        let a = match k % 3 {
            0 => polytope(&mut rng, 8),
            1 => Shape::Cylinder(Cylinder::new(0.6, 0.8).unwrap()),
            _ => Shape::Capsule(Capsule::new(0.3, 0.7).unwrap()),
        };
        let b = if k % 2 == 0 {
            polytope(&mut rng, 20)
        } else {
            Shape::Cuboid(Cuboid::new([0.5, 0.4, 0.9]).unwrap())
        };
        let (pa, pb) = (pose(&mut rng, 1.5), pose(&mut rng, 1.5));
        let signed = distance(&a, &pa, &b, &pb, &QuerySettings::default()).unwrap();
        let plain = distance(&a, &pa, &b, &pb, &unsigned()).unwrap();
        let gjk_contact = matches!(signed.path, QueryPath::Gjk { status: GjkStatus::Contact, .. });
        if gjk_contact {
            overlaps += 1;
            assert!(
                matches!(plain.proximity, Proximity::Intersecting { point: Some(_), depth: None }),
                "{plain:?}"
            );
            assert_eq!((plain.certificate.lower, plain.certificate.upper), (0.0, 0.0));
            assert_eq!(plain.path, signed.path);
            assert_eq!(plain.distance(), 0.0);
            // The common point is a point of both shapes: the signed mode's reports the same.
            assert_eq!(plain.witnesses().map(|w| w.0), signed.witnesses().map(|w| w.0));
        } else {
            apart += 1;
            assert_eq!(plain, signed);
        }
        // signed_distance always measures the depth.
        assert_eq!(
            signed_distance(&a, &pa, &b, &pb, &unsigned()).unwrap(),
            signed_distance(&a, &pa, &b, &pb, &QuerySettings::default()).unwrap()
        );
    }
    assert!(overlaps > 50 && apart > 50, "overlaps {overlaps}, apart {apart}");
}
