//! Known answers of the supported pairs, result cases, certificates and unsupported pairs.

use nalgebra::{Point3, Rotation3, Vector3};
use proxima_geom::shape::{
    AlignedBox, Capsule, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Line, Point, Segment, Sphere, Triangle,
};
use proxima_geom::{
    Algorithm, GeomError, Intersection, Pose, Proximity, QueryPath, QuerySettings, Shape, ShapeKind,
    distance, intersects,
};

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::from_translation([x, y, z]).unwrap()
}
fn sphere(r: f64) -> Shape {
    Shape::Sphere(Sphere::new(r).unwrap())
}
fn point(p: [f64; 3]) -> Shape {
    Shape::Point(Point::new(p).unwrap())
}
fn capsule(r: f64, hh: f64) -> Shape {
    Shape::Capsule(Capsule::new(r, hh).unwrap())
}
fn segment(a: [f64; 3], b: [f64; 3]) -> Shape {
    Shape::Segment(Segment::new(a, b).unwrap())
}
fn cuboid(h: [f64; 3]) -> Shape {
    Shape::Cuboid(Cuboid::new(h).unwrap())
}
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}
fn s() -> QuerySettings {
    QuerySettings::default()
}

#[test]
fn unit_spheres_at_distance_3() {
    let r = distance(&sphere(1.0), &at(0.0, 0.0, 0.0), &sphere(1.0), &at(3.0, 0.0, 0.0), &s()).unwrap();
    assert_eq!(r.distance(), 1.0);
    let Proximity::Separated { point_a, point_b, normal, .. } = r.proximity else { panic!("{r:?}") };
    assert_eq!(point_a, Point3::new(1.0, 0.0, 0.0));
    assert_eq!(point_b, Point3::new(2.0, 0.0, 0.0));
    assert_eq!(normal, Vector3::new(1.0, 0.0, 0.0));
    assert_eq!(r.certificate.lower, 1.0);
    assert_eq!(r.certificate.upper, 1.0);
    assert_eq!(r.algorithm, Algorithm::ClosedForm);
    assert_eq!(r.path, QueryPath::ClosedForm);
}

#[test]
fn spheres_touching_and_overlapping() {
    let r = distance(&sphere(1.0), &at(0.0, 0.0, 0.0), &sphere(1.0), &at(2.0, 0.0, 0.0), &s()).unwrap();
    assert_eq!(r.proximity, Proximity::Touching { point: Point3::new(1.0, 0.0, 0.0) });
    let r = distance(&sphere(1.0), &at(0.0, 0.0, 0.0), &sphere(2.0), &at(2.0, 0.0, 0.0), &s()).unwrap();
    let Proximity::Intersecting { point: Some(p), depth: Some(d) } = r.proximity else { panic!("{r:?}") };
    assert_eq!(d, 1.0);
    assert!(p.coords.norm() <= 1.0 && (p - Point3::new(2.0, 0.0, 0.0)).norm() <= 2.0);
    assert_eq!((r.certificate.lower, r.certificate.upper), (0.0, 0.0));
    // Concentric: depth = r_a + r_b.
    let r = distance(&sphere(1.0), &at(0.0, 0.0, 0.0), &sphere(2.0), &at(0.0, 0.0, 0.0), &s()).unwrap();
    assert_eq!(r.proximity, Proximity::Intersecting { point: Some(Point3::origin()), depth: Some(3.0) });
}

#[test]
fn touching_tolerance() {
    let settings = QuerySettings::default().with_touching_tolerance(1e-3);
    let r =
        distance(&sphere(1.0), &at(0.0, 0.0, 0.0), &sphere(1.0), &at(2.0005, 0.0, 0.0), &settings).unwrap();
    assert!(matches!(r.proximity, Proximity::Touching { .. }), "{r:?}");
    assert!(close(r.certificate.upper, 5e-4, 1e-12));
    let hit =
        intersects(&sphere(1.0), &at(0.0, 0.0, 0.0), &sphere(1.0), &at(2.0005, 0.0, 0.0), &settings).unwrap();
    assert!(matches!(hit, Intersection::Intersecting { point: Some(_) }));
    let hit =
        intersects(&sphere(1.0), &at(0.0, 0.0, 0.0), &sphere(1.0), &at(2.0005, 0.0, 0.0), &s()).unwrap();
    assert_eq!(hit, Intersection::Separated { direction: Some(Vector3::x()) });
}

#[test]
fn point_point_and_point_sphere() {
    let r = distance(&point([0.0; 3]), &at(1.0, 0.0, 0.0), &point([0.0, 4.0, 0.0]), &at(1.0, 0.0, 0.0), &s())
        .unwrap();
    assert_eq!(r.distance(), 4.0);
    let r = distance(&point([0.0; 3]), &Pose::identity(), &sphere(1.0), &at(0.0, 0.0, 5.0), &s()).unwrap();
    assert_eq!(r.distance(), 4.0);
    // Point inside the sphere: intersecting, depth = r − d.
    let r =
        distance(&point([0.0, 0.0, 4.5]), &Pose::identity(), &sphere(1.0), &at(0.0, 0.0, 5.0), &s()).unwrap();
    assert!(matches!(r.proximity, Proximity::Intersecting { depth: Some(d), .. } if d == 0.5), "{r:?}");
    // Same point twice: touching (points have no interior).
    let r = distance(&point([1.0; 3]), &Pose::identity(), &point([1.0; 3]), &Pose::identity(), &s()).unwrap();
    assert_eq!(r.proximity, Proximity::Touching { point: Point3::new(1.0, 1.0, 1.0) });
}

#[test]
fn sphere_box_face_edge_corner_inside() {
    let b = cuboid([1.0, 2.0, 3.0]);
    let id = Pose::identity();
    // face
    let r = distance(&sphere(0.5), &at(3.0, 0.0, 0.0), &b, &id, &s()).unwrap();
    assert!(close(r.distance(), 1.5, 1e-15));
    let (pa, pb) = r.witnesses().unwrap();
    assert!(close((pa - Point3::new(2.5, 0.0, 0.0)).norm(), 0.0, 1e-15));
    assert_eq!(pb, Point3::new(1.0, 0.0, 0.0));
    // corner
    let r = distance(&sphere(0.5), &at(2.0, 3.0, 4.0), &b, &id, &s()).unwrap();
    assert!(close(r.distance(), 3f64.sqrt() - 0.5, 1e-15));
    assert!(r.certificate.gap() <= 1e-15);
    // centre inside: depth = r + distance to the nearest face.
    let r = distance(&sphere(0.5), &at(0.75, 0.0, 0.0), &b, &id, &s()).unwrap();
    assert!(
        matches!(r.proximity, Proximity::Intersecting { depth: Some(d), .. } if close(d, 0.75, 1e-15)),
        "{r:?}"
    );
    // rotated box: 90° about z swaps the x and y extents.
    let rot = Rotation3::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2);
    let pose = Pose::from_matrix(*rot.matrix(), Vector3::zeros()).unwrap();
    let r = distance(&sphere(0.5), &at(3.0, 0.0, 0.0), &b, &pose, &s()).unwrap();
    assert!(close(r.distance(), 0.5, 1e-12), "{r:?}");
    // aligned box
    let ab = Shape::AlignedBox(AlignedBox::new([1.0, 1.0, 1.0], [2.0, 2.0, 2.0]).unwrap());
    let r = distance(&point([0.0; 3]), &id, &ab, &id, &s()).unwrap();
    assert!(close(r.distance(), 3f64.sqrt(), 1e-15));
    // point on a face: touching.
    let r = distance(&point([1.0, 1.5, 1.5]), &id, &ab, &id, &s()).unwrap();
    assert!(matches!(r.proximity, Proximity::Touching { .. }), "{r:?}");
}

#[test]
fn capsule_capsule_parallel() {
    // Two vertical capsules side by side, overlapping in z: distance = 3 − 2·0.5.
    let c = capsule(0.5, 1.0);
    let r = distance(&c, &at(0.0, 0.0, 0.0), &c, &at(3.0, 0.0, 0.5), &s()).unwrap();
    assert!(close(r.distance(), 2.0, 1e-15), "{r:?}");
    assert!(r.certificate.gap() <= 1e-15);
    let Proximity::Separated { normal, .. } = r.proximity else { panic!() };
    assert!(close((normal - Vector3::x()).norm(), 0.0, 1e-15));
    // Collinear, end to end: gap of 1 between the core segments.
    let r = distance(&c, &at(0.0, 0.0, 0.0), &c, &at(0.0, 0.0, 3.0), &s()).unwrap();
    assert!(close(r.distance(), 0.0, 0.0) || matches!(r.proximity, Proximity::Touching { .. }), "{r:?}");
    let r = distance(&c, &at(0.0, 0.0, 0.0), &c, &at(0.0, 0.0, 4.0), &s()).unwrap();
    assert!(close(r.distance(), 1.0, 1e-15), "{r:?}");
}

#[test]
fn capsule_capsule_crossing_and_skew() {
    let c = capsule(0.25, 1.0);
    let rot = Rotation3::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2);
    let pose_b = Pose::from_matrix(*rot.matrix(), Vector3::new(0.0, 2.0, 0.0)).unwrap();
    let r = distance(&c, &Pose::identity(), &c, &pose_b, &s()).unwrap();
    assert!(close(r.distance(), 1.5, 1e-12), "{r:?}");
    // Cores crossing: intersecting with depth = r_a + r_b.
    let pose_b = Pose::from_matrix(*rot.matrix(), Vector3::zeros()).unwrap();
    let r = distance(&c, &Pose::identity(), &c, &pose_b, &s()).unwrap();
    assert!(
        matches!(r.proximity, Proximity::Intersecting { depth: Some(d), .. } if close(d, 0.5, 1e-12)),
        "{r:?}"
    );
}

#[test]
fn segment_segment_cases() {
    let id = Pose::identity();
    // skew
    let a = segment([-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
    let b = segment([0.0, -1.0, 2.0], [0.0, 1.0, 2.0]);
    assert_eq!(distance(&a, &id, &b, &id, &s()).unwrap().distance(), 2.0);
    // parallel, overlapping in projection
    let b = segment([0.5, 1.0, 0.0], [3.0, 1.0, 0.0]);
    assert_eq!(distance(&a, &id, &b, &id, &s()).unwrap().distance(), 1.0);
    // parallel, disjoint in projection: endpoint to endpoint
    let b = segment([2.0, 1.0, 0.0], [3.0, 1.0, 0.0]);
    assert!(close(distance(&a, &id, &b, &id, &s()).unwrap().distance(), 2f64.sqrt(), 1e-15));
    // anti-parallel
    let b = segment([3.0, 1.0, 0.0], [2.0, 1.0, 0.0]);
    assert!(close(distance(&a, &id, &b, &id, &s()).unwrap().distance(), 2f64.sqrt(), 1e-15));
    // crossing: touching (segments have no interior)
    let b = segment([0.0, -1.0, 0.0], [0.0, 1.0, 0.0]);
    let r = distance(&a, &id, &b, &id, &s()).unwrap();
    assert_eq!(r.proximity, Proximity::Touching { point: Point3::origin() });
    // endpoint to interior
    let b = segment([0.0, 1.0, 0.0], [0.0, 5.0, 0.0]);
    assert_eq!(distance(&a, &id, &b, &id, &s()).unwrap().distance(), 1.0);
}

#[test]
fn lines() {
    let id = Pose::identity();
    let l1 = Shape::Line(Line::new([0.0; 3], [1.0, 0.0, 0.0]).unwrap());
    let l2 = Shape::Line(Line::new([5.0, 0.0, 3.0], [0.0, 1.0, 0.0]).unwrap());
    let r = distance(&l1, &id, &l2, &id, &s()).unwrap();
    assert_eq!(r.distance(), 3.0);
    assert_eq!(r.certificate.lower, 3.0);
    // parallel lines
    let l3 = Shape::Line(Line::new([7.0, 2.0, 0.0], [-2.0, 0.0, 0.0]).unwrap());
    let r = distance(&l1, &id, &l3, &id, &s()).unwrap();
    assert_eq!(r.distance(), 2.0);
    assert_eq!(r.certificate.lower, 2.0);
    // line–sphere and line–capsule
    let r = distance(&l1, &id, &sphere(1.0), &at(10.0, 0.0, 4.0), &s()).unwrap();
    assert_eq!(r.distance(), 3.0);
    assert_eq!(r.certificate.lower, 3.0);
    let r = distance(&capsule(1.0, 1.0), &at(3.0, 0.0, 5.0), &l1, &id, &s()).unwrap();
    assert_eq!(r.distance(), 3.0);
}

#[test]
fn algorithm_forcing_and_unsupported() {
    let id = Pose::identity();
    let lcp = QuerySettings::default().with_algorithm(Algorithm::Lcp);
    let e = distance(&sphere(1.0), &id, &sphere(1.0), &at(3.0, 0.0, 0.0), &lcp).unwrap_err();
    assert_eq!(
        e,
        GeomError::Unsupported {
            op: "distance",
            a: ShapeKind::Sphere,
            b: ShapeKind::Sphere,
            algorithm: Some("lcp")
        }
    );
    // Every pair of bounded shapes has GJK; lines (unbounded) only pair with the closed forms
    // and the line–triangle kernel.
    let line = Shape::Line(proxima_geom::shape::Line::new([0.0; 3], [1.0, 0.0, 0.0]).unwrap());
    let cyl = Shape::Cylinder(Cylinder::new(1.0, 1.0).unwrap());
    // The reported kinds follow the caller's order even though the pair is computed swapped.
    let e = distance(&cyl, &id, &line, &id, &s()).unwrap_err();
    assert_eq!(
        e,
        GeomError::Unsupported {
            op: "distance",
            a: ShapeKind::Cylinder,
            b: ShapeKind::Line,
            algorithm: None
        }
    );
    let e = intersects(&cyl, &id, &line, &id, &s()).unwrap_err();
    assert!(matches!(
        e,
        GeomError::Unsupported { op: "intersects", a: ShapeKind::Cylinder, b: ShapeKind::Line, .. }
    ));
    let ell = Shape::Ellipsoid(Ellipsoid::new([1.0, 2.0, 3.0]).unwrap());
    assert!(intersects(&cyl, &id, &ell, &id, &s()).is_ok());
    let closed = QuerySettings::default().with_algorithm(Algorithm::ClosedForm);
    let poly =
        Shape::ConvexPolytope(ConvexPolytope::new(vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]).unwrap());
    let tri = Shape::Triangle(Triangle::new([0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).unwrap());
    assert!(matches!(
        distance(&poly, &id, &tri, &id, &closed),
        Err(GeomError::Unsupported { algorithm: Some("closed_form"), .. })
    ));
}

#[test]
fn support_functions() {
    let n = Vector3::new(0.0, 0.0, 1.0);
    let pose = at(1.0, 2.0, 3.0);
    assert_eq!(sphere(2.0).support_value(&pose, &n), 5.0);
    assert_eq!(capsule(1.0, 2.0).support_value(&pose, &n), 6.0);
    assert_eq!(cuboid([1.0, 1.0, 4.0]).support_value(&pose, &n), 7.0);
    let cyl = Shape::Cylinder(Cylinder::new(1.0, 0.5).unwrap());
    assert_eq!(cyl.support_value(&pose, &Vector3::x()), 2.0);
    let ell = Shape::Ellipsoid(Ellipsoid::new([1.0, 2.0, 3.0]).unwrap());
    assert_eq!(ell.support_value(&pose, &Vector3::y()), 4.0);
    let line = Shape::Line(Line::new([0.0; 3], [1.0, 0.0, 0.0]).unwrap());
    assert_eq!(line.support_value(&pose, &Vector3::x()), f64::INFINITY);
    assert_eq!(line.support_point(&pose, &Vector3::x()), None);
    assert_eq!(line.support_value(&pose, &n), 3.0);
}

#[test]
fn huge_coordinates_are_an_error_not_nan() {
    let big = 1e300;
    let a = point([big, big, big]);
    let b = point([-big, -big, -big]);
    let r = distance(&a, &Pose::identity(), &b, &Pose::identity(), &s());
    assert!(matches!(r, Err(GeomError::NonFinite { .. })), "{r:?}");
    let r = intersects(&a, &Pose::identity(), &b, &Pose::identity(), &s());
    assert!(matches!(r, Err(GeomError::NonFinite { .. })), "{r:?}");
    let c = cuboid([1.0, 1.0, 1.0]);
    // Must not panic whatever the kernel decides.
    let _ = distance(&c, &Pose::identity(), &c, &at(big, big, 0.0), &s());
    let _ = distance(&sphere(1e300), &Pose::identity(), &c, &at(big, big, 0.0), &s());
}

#[test]
fn sphere_and_point_cylinder() {
    let cyl = Shape::Cylinder(Cylinder::new(1.0, 2.0).unwrap());
    let id = Pose::identity();
    // lateral side
    let r = distance(&sphere(0.5), &at(3.0, 0.0, 1.0), &cyl, &id, &s()).unwrap();
    assert!(close(r.distance(), 1.5, 1e-15), "{r:?}");
    assert!(r.certificate.gap() <= 1e-15);
    // above the cap, over the disk
    let r = distance(&cyl, &id, &point([0.3, 0.2, 5.0]), &id, &s()).unwrap();
    assert!(close(r.distance(), 3.0, 1e-15), "{r:?}");
    // off the rim
    let r = distance(&point([4.0, 0.0, 6.0]), &id, &cyl, &id, &s()).unwrap();
    assert!(close(r.distance(), 5.0, 1e-15), "{r:?}");
    // inside: depth = min(r − ρ, h − |z|) + sphere radius
    let r = distance(&sphere(0.1), &at(0.5, 0.0, 0.0), &cyl, &id, &s()).unwrap();
    assert!(
        matches!(r.proximity, Proximity::Intersecting { depth: Some(d), .. } if close(d, 0.6, 1e-15)),
        "{r:?}"
    );
    // rotated cylinder lying along x
    let rot = Rotation3::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2);
    let pose = Pose::from_matrix(*rot.matrix(), Vector3::zeros()).unwrap();
    let r = distance(&point([5.0, 0.0, 0.0]), &id, &cyl, &pose, &s()).unwrap();
    assert!(close(r.distance(), 3.0, 1e-12), "{r:?}");
}

#[test]
fn mixed_linear_pairs() {
    let id = Pose::identity();
    // point – segment (interior and endpoint regions)
    let seg = segment([0.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
    assert_eq!(distance(&point([1.0, 3.0, 0.0]), &id, &seg, &id, &s()).unwrap().distance(), 3.0);
    assert_eq!(distance(&seg, &id, &point([5.0, 4.0, 0.0]), &id, &s()).unwrap().distance(), 5.0);
    // sphere – capsule: capsule along z, sphere beside it
    let r = distance(&sphere(1.0), &at(4.0, 0.0, 0.5), &capsule(1.0, 1.0), &id, &s()).unwrap();
    assert_eq!(r.distance(), 2.0);
    // capsule – segment, beyond the cap
    let r =
        distance(&capsule(0.5, 1.0), &id, &segment([-1.0, 0.0, 3.0], [1.0, 0.0, 3.0]), &id, &s()).unwrap();
    assert_eq!(r.distance(), 1.5);
    // point – line
    let line = Shape::Line(Line::new([0.0, 0.0, 0.0], [0.0, 0.0, 1.0]).unwrap());
    let r = distance(&point([3.0, 4.0, 100.0]), &id, &line, &id, &s()).unwrap();
    assert_eq!(r.distance(), 5.0);
    assert_eq!(r.certificate.lower, 5.0);
    // segment – line, skew
    let r = distance(&segment([1.0, -1.0, 2.0], [1.0, 1.0, 2.0]), &id, &line, &id, &s()).unwrap();
    assert_eq!(r.distance(), 1.0);
}

/// Two nearly parallel lines whose closest points are ~100 from the origin (found by
/// `props_queries`): `intersects` answered "separated" along the witness direction, which
/// rounding tilts off both lines by ~1e-12, where a line's support is infinite. The direction
/// returned is now the one the bound was proven along (u × v), and it separates.
#[test]
fn nearly_parallel_lines_separate_along_a_proven_direction() {
    let cols = |c: [f64; 9]| nalgebra::Matrix3::from_column_slice(&c);
    let a = Shape::Line(
        Line::new(
            [-0.431058566013308, -1.003281026379985, 1.3420402001707827],
            [0.6443637204201502, -0.4094682570481607, 0.6458569054180995],
        )
        .unwrap(),
    );
    let pa = Pose::from_matrix(
        cols([
            -0.9619634233141873,
            0.08664820482387975,
            0.25907230806562254,
            -0.11657730486586418,
            -0.9878822912508081,
            -0.10246126401360087,
            0.24705486070073832,
            -0.1287659397272914,
            0.9604078449129234,
        ]),
        Vector3::zeros(),
    )
    .unwrap();
    let b = Shape::Line(
        Line::new(
            [0.0, 0.0, 1.222040396777688],
            [-0.45891113563344726, 0.8866330580777062, 0.05729214532023155],
        )
        .unwrap(),
    );
    let pb = Pose::from_matrix(
        cols([
            -0.017963681457192182,
            -0.5804510324548408,
            0.8140969875086224,
            0.3828353336394664,
            -0.7561699618956189,
            -0.5307015131351489,
            0.9236419292483766,
            0.30213173889693823,
            0.23580076099421193,
        ]),
        Vector3::new(-2.647381610854602, 0.0, 2.535254821868254),
    )
    .unwrap();
    let s = QuerySettings::default();
    let d = distance(&a, &pa, &b, &pb, &s).unwrap();
    assert!(d.certificate.lower > 0.015, "{d:?}");
    for (x, px, y, py) in [(&a, &pa, &b, &pb), (&b, &pb, &a, &pa)] {
        match intersects(x, px, y, py, &s).unwrap() {
            Intersection::Separated { direction: Some(n) } => {
                let gap = -y.support_value(py, &-n) - x.support_value(px, &n);
                assert!(gap > 0.015, "gap {gap} along {n:?}");
            }
            other => panic!("{other:?}"),
        }
    }
}
