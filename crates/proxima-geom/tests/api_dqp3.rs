//! DQP3 through the public API (`Algorithm::Dqp3`): boxes, vertex polytopes and half-space
//! polyhedra agree with GJK and the LCP kernels, symmetric, certificates bracket; shapes
//! without a facet form are `Unsupported`; `FacetShape`s answer as the query API does.

use nalgebra::{Rotation3, Vector3};
use proxima_geom::dqp3::{Dqp3Settings, distance_dqp3, facet_form};
use proxima_geom::shape::{ConvexPolytope, Cuboid, Polyhedron, Sphere};
use proxima_geom::{
    Algorithm, FacetShape, GeomError, Pose, QuerySettings, Shape, distance, distance_facet_shapes,
};

fn pose(k: f64, t: [f64; 3]) -> Pose {
    Pose::from_matrix(*Rotation3::new(Vector3::new(0.3 * k, -0.2, 0.1 * k)).matrix(), Vector3::from(t))
        .unwrap()
}

#[test]
fn dqp3_agrees_with_gjk_and_lcp() {
    let cloud: Vec<[f64; 3]> = (0..30)
        .map(|k| {
            let t = k as f64 * 2.399963;
            let z = 1.0 - 2.0 * (k as f64 + 0.5) / 30.0;
            let r = (1.0 - z * z).sqrt();
            [r * t.cos(), 0.7 * r * t.sin(), 1.2 * z]
        })
        .collect();
    let octahedron = Polyhedron::new(
        [[1.0, 1.0, 1.0], [1.0, 1.0, -1.0], [1.0, -1.0, 1.0], [1.0, -1.0, -1.0]]
            .iter()
            .flat_map(|&[x, y, z]| [([x, y, z], 1.0), ([-x, -y, -z], 1.0)])
            .collect(),
    )
    .unwrap();
    let shapes = [
        Shape::Cuboid(Cuboid::new([0.5, 0.8, 0.3]).unwrap()),
        Shape::ConvexPolytope(ConvexPolytope::new(cloud).unwrap()),
        Shape::Polyhedron(octahedron),
    ];
    let dqp3 = QuerySettings::default().with_algorithm(Algorithm::Dqp3);
    let gjk = QuerySettings::default().with_algorithm(Algorithm::Gjk);
    for a in &shapes {
        for b in &shapes {
            for k in 0..12 {
                let d = 0.2 * k as f64;
                let (pa, pb) =
                    (pose(k as f64, [0.0, 0.0, 0.0]), pose(-(k as f64), [1.2 + d, 0.3, -0.2 + 0.1 * d]));
                let ours = distance(a, &pa, b, &pb, &dqp3).unwrap();
                // Separated pairs are DQP3's answers (certified against the shapes); contact
                // is proven by GJK on the shapes themselves.
                let expected = if ours.distance() > 0.0 { Algorithm::Dqp3 } else { Algorithm::Gjk };
                assert_eq!(ours.algorithm, expected, "{:?}-{:?} k {k}: {ours:?}", a.kind(), b.kind());
                let reference = distance(a, &pa, b, &pb, &gjk).unwrap();
                assert!(
                    (ours.distance() - reference.distance()).abs() <= 1e-8 * (1.0 + reference.distance()),
                    "{:?}-{:?} at {d}: {} vs {}",
                    a.kind(),
                    b.kind(),
                    ours.distance(),
                    reference.distance()
                );
                assert!(ours.certificate.lower <= reference.certificate.upper + 1e-12);
                assert!(reference.certificate.lower <= ours.certificate.upper + 1e-12);
                let mirrored = distance(b, &pb, a, &pa, &dqp3).unwrap();
                assert_eq!(mirrored.distance().to_bits(), ours.distance().to_bits());
            }
        }
    }
    // Box–box: the LCP kernel is independent truth.
    let lcp = QuerySettings::default().with_algorithm(Algorithm::Lcp);
    let (pa, pb) = (pose(1.0, [0.0, 0.0, 0.0]), pose(2.0, [1.7, 0.4, 0.1]));
    let x = distance(&shapes[0], &pa, &shapes[0], &pb, &dqp3).unwrap();
    let y = distance(&shapes[0], &pa, &shapes[0], &pb, &lcp).unwrap();
    assert!((x.distance() - y.distance()).abs() <= 1e-9, "{} vs {}", x.distance(), y.distance());
}

#[test]
fn no_facet_form_is_unsupported_and_the_conversion_keeps_the_bracket() {
    let dqp3 = QuerySettings::default().with_algorithm(Algorithm::Dqp3);
    let ball = Shape::Sphere(Sphere::new(1.0).unwrap());
    let cube = Shape::Cuboid(Cuboid::new([1.0, 1.0, 1.0]).unwrap());
    let far = Pose::from_translation([4.0, 0.0, 0.0]).unwrap();
    assert!(matches!(
        distance(&ball, &Pose::identity(), &cube, &far, &dqp3),
        Err(GeomError::Unsupported { .. })
    ));
    assert!(facet_form(&ball).is_err());
    assert!(FacetShape::new(ball.clone()).is_err());
    let f = FacetShape::new(cube.clone()).unwrap();
    let d = distance_facet_shapes(&f, &Pose::identity(), &f, &far, &QuerySettings::default()).unwrap();
    assert_eq!(d.algorithm, Algorithm::Dqp3);
    assert!((d.distance() - 2.0).abs() < 1e-12);
    assert!(d.certificate.lower <= 2.0 && 2.0 <= d.certificate.upper);
}

/// The tracker's overlap fast path (the previous common point re-checked against both
/// objects) gives the cold answer's verdict and distance at every step of a trajectory that
/// enters, stays in and leaves overlap, and its common points lie in both objects.
#[test]
fn tracker_overlap_fast_path_matches_cold() {
    use proxima_geom::dqp3::{Dqp3Outcome, Dqp3Tracker, genball};
    let a = genball(6).unwrap();
    let b = genball(8).unwrap();
    let mut tracker = Dqp3Tracker::new(&a, &b);
    let (mut overlapping, mut fast) = (0, 0);
    for k in 0..400 {
        let t = k as f64 * 0.01;
        let pa = pose(t, [0.0, 0.0, 0.0]);
        let pb = pose(-t, [2.6 * (1.3 * t).cos(), 0.3 * t.sin(), 0.1]);
        let warm = tracker.step(&pa, &pb);
        let cold = distance_dqp3(&a, &pa, &b, &pb, &Dqp3Settings::default()).unwrap();
        assert!((warm.distance() - cold.distance()).abs() <= 1e-9, "step {k}");
        if let Dqp3Outcome::Intersecting { point } = warm.outcome {
            overlapping += 1;
            fast += usize::from(warm.passes == 0);
            assert!(a.min_slack(&pa.inverse_transform_point(&point)) >= -1e-12);
            assert!(b.min_slack(&pb.inverse_transform_point(&point)) >= -1e-12);
            assert!(matches!(cold.outcome, Dqp3Outcome::Intersecting { .. }), "step {k}");
        }
    }
    assert!(overlapping > 50 && fast > overlapping / 2, "{overlapping} overlapping, {fast} fast");
}
