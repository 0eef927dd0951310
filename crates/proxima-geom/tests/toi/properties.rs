//! Random motions of small shape pairs against dense sampling of the distance: the answer's
//! proof never contradicts a sampled contact (nothing sampled in contact before t_safe, nothing
//! anywhere for a miss), and the hit is a contact within tolerance.

use proptest::prelude::*;
use proxima_geom::shape::{Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Sphere};
use proxima_geom::{RigidMotion, Shape, ToiOutcome, ToiSettings, time_of_impact};

use super::common::{check_against_samples, pose};

fn extent() -> impl Strategy<Value = f64> {
    0.05..0.6f64
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        [extent(), extent(), extent()].prop_map(|h| Shape::Cuboid(Cuboid::new(h).unwrap())),
        extent().prop_map(|r| Shape::Sphere(Sphere::new(r).unwrap())),
        (extent(), extent()).prop_map(|(r, h)| Shape::Capsule(Capsule::new(r, h).unwrap())),
        (extent(), extent()).prop_map(|(r, h)| Shape::Cylinder(Cylinder::new(r, h).unwrap())),
        (extent(), extent()).prop_map(|(r, h)| Shape::Cone(Cone::new(r, h).unwrap())),
        [extent(), extent(), extent()].prop_map(|r| Shape::Ellipsoid(Ellipsoid::new(r).unwrap())),
        prop::collection::vec([-0.5..0.5f64, -0.5..0.5f64, -0.5..0.5f64], 4..10)
            .prop_map(|v| Shape::ConvexPolytope(ConvexPolytope::new(v).unwrap())),
    ]
}

fn v3(r: f64) -> impl Strategy<Value = [f64; 3]> {
    [-r..r, -r..r, -r..r]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn the_proof_never_contradicts_dense_sampling(
        a in shape(), b in shape(),
        (ra0, ra1, rb0, rb1) in (v3(3.0), v3(3.0), v3(3.0), v3(3.0)),
        (ta0, ta1, tb0, tb1) in (v3(1.5), v3(1.5), v3(1.5), v3(1.5)),
        margin in prop_oneof![3 => Just(0.0), 1 => 0.0..0.2f64],
        centre in v3(0.3),
    ) {
        // A turns about a random local centre, B about its origin.
        let ma = RigidMotion::from_poses_about(&pose(ra0, ta0), &pose(ra1, ta1), centre).unwrap();
        let mb = RigidMotion::from_poses(&pose(rb0, tb0), &pose(rb1, tb1)).unwrap();
        let s = ToiSettings::default().with_margin(margin);
        let r = time_of_impact(&a, &ma, &b, &mb, &s).unwrap();
        prop_assert!(!matches!(r.outcome, ToiOutcome::Undecided(_)), "{:?}", r);
        let first = check_against_samples(&a, &ma, &b, &mb, &s, &r, 300, 1e-7);
        if first.is_some() {
            prop_assert!(r.toi().is_some(), "sampled contact, answer {:?}", r);
        }
    }
}
