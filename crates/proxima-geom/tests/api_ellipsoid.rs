//! Ellipsoid pairs through the public `distance` / `intersects` API: routed to the ellipsoid
//! solvers under `Auto` (against a point, a sphere or an ellipsoid; a polytope goes to GJK
//! with the Newton polish), agreeing with the other method forced and with the spec's crossed
//! test, symmetric, and with certificates that bracket the answer.

use nalgebra::{Rotation3, Vector3};
use proxima_geom::shape::{ConvexPolytope, Ellipsoid, Point, Sphere};
use proxima_geom::{Algorithm, Intersection, Pose, QuerySettings, Shape, distance, intersects};

const CROSSED: f64 = 1.295494819938741;

fn ell(r: [f64; 3]) -> Shape {
    Shape::Ellipsoid(Ellipsoid::new(r).unwrap())
}

#[test]
fn crossed_test_through_the_dispatcher() {
    let (a, b) = (ell([1.0, 2.0, 5.0]), ell([5.0, 2.0, 1.0]));
    let (pa, pb) = (Pose::identity(), Pose::from_translation([4.0, 4.0, 4.0]).unwrap());
    let r = distance(&a, &pa, &b, &pb, &QuerySettings::default()).unwrap();
    assert_eq!(r.algorithm, Algorithm::Ellipsoid);
    assert!((r.distance() - CROSSED).abs() < 1e-12, "{}", r.distance());
    assert!(r.certificate.lower <= CROSSED && CROSSED <= r.certificate.upper);
    // Symmetric: the mirrored query gives the same distance and certificate bit for bit.
    let m = distance(&b, &pb, &a, &pa, &QuerySettings::default()).unwrap();
    assert_eq!(m.distance().to_bits(), r.distance().to_bits());
    assert_eq!(m.certificate, r.certificate);
}

#[test]
fn ellipsoid_pairs_agree_with_forced_gjk() {
    let gjk = QuerySettings::default().with_algorithm(Algorithm::Gjk);
    let solvers = QuerySettings::default().with_algorithm(Algorithm::Ellipsoid);
    let cloud: Vec<[f64; 3]> = (0..40)
        .map(|k| {
            let t = k as f64 * 2.399963;
            let z = 1.0 - 2.0 * (k as f64 + 0.5) / 40.0;
            let r = (1.0 - z * z).sqrt();
            [r * t.cos(), r * t.sin(), z]
        })
        .collect();
    let others = [
        Shape::Point(Point::new([0.0, 0.0, 0.0]).unwrap()),
        Shape::Sphere(Sphere::new(0.7).unwrap()),
        ell([0.3, 1.1, 0.6]),
        Shape::ConvexPolytope(ConvexPolytope::new(cloud).unwrap()),
    ];
    let e = ell([1.0, 0.5, 2.0]);
    let pe =
        Pose::from_matrix(*Rotation3::new(Vector3::new(0.3, -0.2, 0.5)).matrix(), Vector3::zeros()).unwrap();
    for other in &others {
        for k in 0..24 {
            let d = 0.4 + 0.15 * k as f64;
            let dir = Vector3::new((k as f64).cos(), (1.7 * k as f64).sin(), 0.4).normalize() * d * 2.0;
            let po =
                Pose::from_matrix(*Rotation3::new(Vector3::new(0.1 * k as f64, 0.2, -0.3)).matrix(), dir)
                    .unwrap();
            let ours = distance(&e, &pe, other, &po, &QuerySettings::default()).unwrap();
            let polytope = matches!(other, Shape::ConvexPolytope(_));
            let (expected, reference) =
                if polytope { (Algorithm::Gjk, &solvers) } else { (Algorithm::Ellipsoid, &gjk) };
            let reference = distance(&e, &pe, other, &po, reference).unwrap();
            assert_eq!(ours.algorithm, expected, "{other:?}");
            // GJK stops at its own 1e-10 relative gap; the ellipsoid solvers at 1e-12.
            assert!(
                (ours.distance() - reference.distance()).abs() <= 1e-8 * (1.0 + reference.distance()),
                "{:?} at {d}: {} vs {}",
                other.kind(),
                ours.distance(),
                reference.distance()
            );
            assert!(ours.certificate.lower <= reference.certificate.upper + 1e-12);
            assert!(reference.certificate.lower <= ours.certificate.upper + 1e-12);
            let hit = intersects(&e, &pe, other, &po, &QuerySettings::default()).unwrap();
            match hit {
                Intersection::Intersecting { .. } => assert!(ours.certificate.lower <= 0.0),
                Intersection::Separated { .. } => assert!(ours.certificate.upper > 0.0),
                Intersection::Undecided { reason } => panic!("undecided: {reason}"),
            }
        }
    }
}
