//! Penetration depth (EPA through `signed_distance` / `Algorithm::Gjk`) against independent
//! truth: axis-aligned box overlaps (depth = the smallest overlap of the three axis
//! intervals), closed-form sphere/capsule depths, deep containment, flat shapes in contact
//! (depth 0, touching), and shapes 10⁶ apart in size. Every answer's bracket contains the truth.

use nalgebra::Vector3;
use proxima_geom::gjk::{EpaStatus, GjkSettings, penetration};
use proxima_geom::shape::{Capsule, Cuboid, Sphere, Triangle};
use proxima_geom::{Algorithm, Pose, Proximity, QuerySettings, Shape, distance, signed_distance};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn gjk() -> QuerySettings {
    QuerySettings::default().with_algorithm(Algorithm::Gjk)
}

fn at(t: [f64; 3]) -> Pose {
    Pose::from_translation(t).unwrap()
}

#[test]
fn aligned_box_overlaps() {
    let mut rng = SmallRng::seed_from_u64(5);
    for _ in 0..500 {
        let ha: [f64; 3] = core::array::from_fn(|_| rng.random_range(0.1..2.0));
        let hb: [f64; 3] = core::array::from_fn(|_| rng.random_range(0.1..2.0));
        let t: [f64; 3] =
            core::array::from_fn(|i| rng.random_range(-(ha[i] + hb[i])..(ha[i] + hb[i])) * 0.95);
        // The depth is the smallest translation separating them: along axis i, moving b
        // out on the nearer side takes (ha + hb) − |t| (boxes are separated by axis planes).
        let depth = (0..3).map(|i| ha[i] + hb[i] - t[i].abs()).fold(f64::INFINITY, f64::min);
        let a = Shape::Cuboid(Cuboid::new(ha).unwrap());
        let b = Shape::Cuboid(Cuboid::new(hb).unwrap());
        for s in [gjk(), QuerySettings::default()] {
            let sd = signed_distance(&a, &Pose::identity(), &b, &at(t), &s).unwrap();
            assert!((sd.value + depth).abs() <= 1e-9, "depth {depth} vs {:?}", sd);
            assert!(sd.certificate.lower <= -depth + 1e-12 && -depth <= sd.certificate.upper + 1e-12);
        }
    }
}

#[test]
fn epa_matches_closed_forms() {
    let mut rng = SmallRng::seed_from_u64(6);
    for _ in 0..300 {
        let (r1, r2) = (rng.random_range(0.1..1.5), rng.random_range(0.1..1.5));
        let a = Shape::Capsule(Capsule::new(r1, rng.random_range(0.1..1.0)).unwrap());
        let b = Shape::Sphere(Sphere::new(r2).unwrap());
        let t: [f64; 3] = core::array::from_fn(|_| rng.random_range(-1.5..1.5));
        let cf = distance(&a, &Pose::identity(), &b, &at(t), &QuerySettings::default()).unwrap();
        let g = distance(&a, &Pose::identity(), &b, &at(t), &gjk()).unwrap();
        match (cf.proximity, g.proximity) {
            (
                Proximity::Intersecting { depth: Some(x), .. },
                Proximity::Intersecting { depth: Some(y), .. },
            ) => {
                assert!((x - y).abs() <= 1e-9, "{x} vs {y}")
            }
            (Proximity::Separated { distance: x, .. }, Proximity::Separated { distance: y, .. }) => {
                assert!((x - y).abs() <= 1e-9)
            }
            (p, q) => panic!("{p:?} vs {q:?}"),
        }
    }
}

#[test]
fn deep_containment_and_scale_differences() {
    // A tiny box deep inside a huge one: depth = distance to the nearest face + tiny extent.
    for (small, big) in [(1e-3, 1e3), (1e-2, 10.0), (0.5, 0.6)] {
        let a = Shape::Cuboid(Cuboid::new([big, big, big]).unwrap());
        let b = Shape::Cuboid(Cuboid::new([small, small, small]).unwrap());
        let off = 0.3 * big;
        let sd = signed_distance(&a, &Pose::identity(), &b, &at([off, 0.0, 0.0]), &gjk()).unwrap();
        let want = big - off + small;
        assert!((sd.value + want).abs() <= 1e-9 * big, "{small}/{big}: {:?} vs {want}", sd.value);
    }
    // A standalone EPA call reports its status and a bracket.
    let a = Shape::Cuboid(Cuboid::new([1.0, 1.0, 1.0]).unwrap());
    let out = penetration(&a, &Pose::identity(), &a, &at([0.5, 0.2, 0.0]), &GjkSettings::default())
        .unwrap()
        .unwrap();
    assert_eq!(out.status, EpaStatus::Converged);
    assert!((out.depth - 1.5).abs() <= 1e-9 && out.lower <= out.depth);
    assert!((out.normal - Vector3::x()).norm() <= 1e-9, "{:?}", out.normal);
    assert!(
        penetration(&a, &Pose::identity(), &a, &at([3.0, 0.0, 0.0]), &GjkSettings::default())
            .unwrap()
            .is_none()
    );
}

#[test]
fn flat_shapes_in_contact_are_touching() {
    // Two coplanar overlapping triangles: M is flat, so the depth is 0 (touching).
    let t1 = Shape::Triangle(Triangle::new([0.0; 3], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]).unwrap());
    let t2 = Shape::Triangle(Triangle::new([0.5, 0.5, 0.0], [3.0, 0.5, 0.0], [0.5, 3.0, 0.0]).unwrap());
    let r = distance(&t1, &Pose::identity(), &t2, &Pose::identity(), &gjk()).unwrap();
    assert!(matches!(r.proximity, Proximity::Touching { .. }), "{r:?}");
    let sd = signed_distance(&t1, &Pose::identity(), &t2, &Pose::identity(), &gjk()).unwrap();
    assert_eq!(sd.value, 0.0);
    // A box face kissing a box face exactly: touching, depth 0.
    let a = Shape::Cuboid(Cuboid::new([1.0, 1.0, 1.0]).unwrap());
    let sd = signed_distance(&a, &Pose::identity(), &a, &at([2.0, 0.3, 0.1]), &gjk()).unwrap();
    assert!(sd.value.abs() <= 1e-15, "{sd:?}");
}
