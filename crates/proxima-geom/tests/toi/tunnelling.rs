//! The tunnelling case for every pair of shape kinds: A flies straight through B's centre
//! (and spins) between two poses far apart on either side, so the paths cross while both end
//! configurations are separated. Every shape contains its local origin, so the two origins
//! coincide at t = 1/2 and the first contact is at or before it. A sampler at the two end
//! poses sees nothing; the search must report the hit, and its proof is checked against dense
//! sampling of the distance.

use proxima_geom::shape::{
    AlignedBox, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, MinkowskiSum, Point, Polyhedron,
    Rounded, Segment, Sphere, Triangle,
};
use proxima_geom::{Pose, RigidMotion, Shape, ToiOutcome, ToiSettings, time_of_impact};

use super::common::{check_against_samples, distance_at, pose};

/// One bounded shape of every kind, each containing its local origin, thin ones included.
fn kinds() -> Vec<(&'static str, Shape)> {
    let tetra = vec![[0.3, 0.0, -0.1], [-0.2, 0.25, -0.1], [-0.1, -0.3, -0.1], [0.0, 0.0, 0.35]];
    vec![
        ("point", Shape::Point(Point::new([0.0; 3]).unwrap())),
        ("segment", Shape::Segment(Segment::new([-0.3, 0.1, 0.0], [0.3, -0.1, 0.0]).unwrap())),
        (
            "triangle",
            Shape::Triangle(Triangle::new([0.3, 0.0, 0.0], [-0.15, 0.26, 0.0], [-0.15, -0.26, 0.0]).unwrap()),
        ),
        ("cuboid", Shape::Cuboid(Cuboid::new([0.4, 0.3, 0.002]).unwrap())),
        ("aligned_box", Shape::AlignedBox(AlignedBox::new([-0.1, -0.2, -0.05], [0.3, 0.1, 0.05]).unwrap())),
        ("sphere", Shape::Sphere(Sphere::new(0.05).unwrap())),
        ("capsule", Shape::Capsule(Capsule::new(0.01, 0.3).unwrap())),
        ("cylinder", Shape::Cylinder(Cylinder::new(0.3, 0.003).unwrap())),
        ("ellipsoid", Shape::Ellipsoid(Ellipsoid::new([0.3, 0.02, 0.2]).unwrap())),
        ("convex_polytope", Shape::ConvexPolytope(ConvexPolytope::new(tetra.clone()).unwrap())),
        (
            "polyhedron",
            Shape::Polyhedron(
                Polyhedron::new(vec![
                    ([1.0, 0.0, 0.0], 0.2),
                    ([-1.0, 0.0, 0.0], 0.2),
                    ([0.0, 1.0, 0.0], 0.1),
                    ([0.0, -1.0, 0.0], 0.1),
                    ([0.0, 0.0, 1.0], 0.004),
                    ([0.0, 0.0, -1.0], 0.004),
                ])
                .unwrap(),
            ),
        ),
        ("cone", Shape::Cone(Cone::new(0.2, 0.3).unwrap())),
        (
            "rounded",
            Shape::Rounded(
                Rounded::new(Shape::Cuboid(Cuboid::new([0.2, 0.01, 0.1]).unwrap()), 0.01).unwrap(),
            ),
        ),
        (
            "minkowski_sum",
            Shape::MinkowskiSum(
                MinkowskiSum::new(
                    Shape::Segment(Segment::new([-0.2, 0.0, 0.0], [0.2, 0.0, 0.0]).unwrap()),
                    Pose::identity(),
                    Shape::Sphere(Sphere::new(0.02).unwrap()),
                    Pose::identity(),
                )
                .unwrap(),
            ),
        ),
    ]
}

#[test]
fn every_pair_crossing_between_the_samples_is_a_hit() {
    let kinds = kinds();
    let s = ToiSettings::default();
    for (i, (na, a)) in kinds.iter().enumerate() {
        for (j, (nb, b)) in kinds.iter().enumerate() {
            // B spins in place; A crosses it at 40 units per unit time along a skew direction,
            // spinning too (a different pair gets a different direction and spin).
            let k = (7 * i + 3 * j) as f64;
            let dir =
                nalgebra::Vector3::new(1.0, 0.3 * (k * 0.7).sin(), 0.2 * (k * 1.3).cos()).normalize() * 20.0;
            let spin = [0.4 * (k * 0.9).cos(), 0.3, 0.5 * (k * 0.4).sin()];
            let ma =
                RigidMotion::from_poses(&pose([0.0; 3], (-dir).into()), &pose(spin, dir.into())).unwrap();
            let mb =
                RigidMotion::from_poses(&pose([0.2, 0.1, 0.0], [0.0; 3]), &pose([0.2, 1.1, 0.6], [0.0; 3]))
                    .unwrap();
            let (d0, d1) = (distance_at(a, &ma, b, &mb, 0.0), distance_at(a, &ma, b, &mb, 1.0));
            assert!(d0 > 10.0 && d1 > 10.0, "{na}–{nb}: the end poses must be far apart");
            let r = time_of_impact(a, &ma, b, &mb, &s).unwrap_or_else(|e| panic!("{na}–{nb}: {e}"));
            let ToiOutcome::Hit(h) = r.outcome else { panic!("{na}–{nb}: tunnelled: {r:?}") };
            assert!(h.t_safe <= 0.5, "{na}–{nb}: {h:?}");
            check_against_samples(a, &ma, b, &mb, &s, &r, 400, 1e-7);
        }
    }
}
