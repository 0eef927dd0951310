//! The side–side closed form for cylinder–cylinder and cylinder–capsule pairs
//! (`query/distance/distance_cylinder_cylinder.rs`) against an independent answer: the same
//! pair with GJK forced (which certifies its own bracket). Also which pairs take the closed
//! form: crossed cylinders side by side do; a cap facing a side does not.

use nalgebra::{Rotation3, Vector3};
use proxima_geom::shape::{Capsule, Cylinder};
use proxima_geom::{Algorithm, Pose, QueryPath, QuerySettings, Shape, distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[path = "support/random_pose.rs"]
mod random_pose;
use random_pose::pose;

fn forced_gjk() -> QuerySettings {
    QuerySettings::default().with_algorithm(Algorithm::Gjk)
}

#[test]
fn crossed_cylinders_side_by_side_take_the_closed_form_and_are_exact() {
    // Axis of a along z, of b along x, b's centre 3 units up the y axis: the sides face each
    // other, distance 3 − 0.5 − 0.25 = 2.25 exactly.
    let a = Shape::Cylinder(Cylinder::new(0.5, 2.0).unwrap());
    let b = Shape::Cylinder(Cylinder::new(0.25, 1.0).unwrap());
    let rot = *Rotation3::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2).matrix();
    let pb = Pose::from_matrix(rot, Vector3::new(0.0, 3.0, 0.0)).unwrap();
    let r = distance(&a, &Pose::identity(), &b, &pb, &QuerySettings::default()).unwrap();
    assert_eq!(r.path, QueryPath::ClosedForm);
    assert!((r.distance() - 2.25).abs() <= 1e-15, "{}", r.distance());
    assert!(r.certificate.lower <= r.distance() && r.distance() <= r.certificate.upper);
    assert!(r.certificate.upper - r.certificate.lower <= 1e-12);
    let (pa, pb_) = r.witnesses().unwrap();
    assert!((pa - nalgebra::Point3::new(0.0, 0.5, 0.0)).norm() <= 1e-15);
    assert!((pb_ - nalgebra::Point3::new(0.0, 2.75, 0.0)).norm() <= 1e-15);
}

#[test]
fn a_cap_facing_a_side_goes_to_gjk() {
    // b above a's top cap: the axes' closest point on a is its end, so the cap is closest.
    let a = Shape::Cylinder(Cylinder::new(0.5, 1.0).unwrap());
    let b = Shape::Cylinder(Cylinder::new(0.25, 1.0).unwrap());
    let rot = *Rotation3::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2).matrix();
    let pb = Pose::from_matrix(rot, Vector3::new(0.0, 0.0, 3.0)).unwrap();
    let r = distance(&a, &Pose::identity(), &b, &pb, &QuerySettings::default()).unwrap();
    assert!(matches!(r.path, QueryPath::Gjk { .. }), "{:?}", r.path);
    assert!((r.distance() - 1.75).abs() <= 1e-9, "{}", r.distance());
}

#[test]
fn random_pairs_agree_with_forced_gjk() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let (mut closed, mut total) = (0, 0);
    for case in 0..3000 {
        let a =
            Shape::Cylinder(Cylinder::new(rng.random_range(0.05..1.0), rng.random_range(0.05..2.0)).unwrap());
        let b = if case % 3 == 0 {
            Shape::Capsule(Capsule::new(rng.random_range(0.05..1.0), rng.random_range(0.05..2.0)).unwrap())
        } else {
            Shape::Cylinder(Cylinder::new(rng.random_range(0.05..1.0), rng.random_range(0.05..2.0)).unwrap())
        };
        let (pa, pb) = (pose(&mut rng, 3.0), pose(&mut rng, 3.0));
        let auto = distance(&a, &pa, &b, &pb, &QuerySettings::default()).unwrap();
        total += 1;
        if auto.path != QueryPath::ClosedForm {
            continue;
        }
        closed += 1;
        let gjk = distance(&a, &pa, &b, &pb, &forced_gjk()).unwrap();
        // Both answers are certified; they must agree to the wider of the two brackets plus
        // a few ulps of the scene size (coordinates up to ~6).
        let slack = (gjk.certificate.upper - gjk.certificate.lower)
            .max(auto.certificate.upper - auto.certificate.lower)
            + 1e-13;
        assert!(
            (auto.distance() - gjk.distance()).abs() <= slack,
            "case {case}: closed form {} vs GJK {} (slack {slack:e})",
            auto.distance(),
            gjk.distance()
        );
        assert!(auto.certificate.lower <= gjk.certificate.upper + 1e-13);
        assert!(gjk.certificate.lower <= auto.certificate.upper + 1e-13);
        let (xa, xb) = auto.witnesses().unwrap();
        assert!(((xb - xa).norm() - auto.distance()).abs() <= 1e-13);
    }
    // The closed form must actually be exercised by this sample.
    assert!(closed >= 100, "only {closed} of {total} pairs took the closed form");
}
