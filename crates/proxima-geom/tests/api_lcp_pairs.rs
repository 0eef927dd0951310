//! Known answers of the pairs served by the LCP kernels, through the public dispatcher.

use nalgebra::{Point3, Rotation3, Vector3};
use proxima_geom::shape::{
    AlignedBox, Capsule, ConvexPolytope, Cuboid, Cylinder, Line, Point, Polyhedron, Segment, Sphere, Triangle,
};
use proxima_geom::{
    Algorithm, Arithmetic, Intersection, Pose, Proximity, QueryPath, QuerySettings, Shape, distance,
    intersects,
};

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::from_translation([x, y, z]).unwrap()
}
fn cuboid(h: [f64; 3]) -> Shape {
    Shape::Cuboid(Cuboid::new(h).unwrap())
}
fn tri(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Shape {
    Shape::Triangle(Triangle::new(a, b, c).unwrap())
}
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}
fn settings(algorithm: Algorithm, arithmetic: Arithmetic) -> QuerySettings {
    QuerySettings::default().with_algorithm(algorithm).with_arithmetic(arithmetic)
}
fn all_settings() -> Vec<QuerySettings> {
    let mut v = Vec::new();
    for alg in [Algorithm::Auto, Algorithm::Lcp] {
        for ar in [Arithmetic::Certified, Arithmetic::Float, Arithmetic::Exact] {
            v.push(settings(alg, ar));
        }
    }
    v
}

#[test]
fn box_box_face_to_face_all_paths() {
    let b = cuboid([1.0, 1.0, 1.0]);
    for s in all_settings() {
        let r = distance(&b, &at(0.0, 0.0, 0.0), &b, &at(3.5, 0.25, 0.0), &s).unwrap();
        assert!(close(r.distance(), 1.5, 1e-12), "{s:?} {r:?}");
        assert_eq!(r.algorithm, Algorithm::Lcp);
        assert!(r.certificate.lower <= r.certificate.upper);
        assert!(r.certificate.gap() <= 1e-9, "{r:?}");
        let Proximity::Separated { point_a, point_b, normal, .. } = r.proximity else { panic!() };
        assert!(close(point_a.x, 1.0, 1e-12) && close(point_b.x, 2.5, 1e-12));
        assert!(close((normal - Vector3::x()).norm(), 0.0, 1e-12));
        if s.arithmetic == Arithmetic::Exact {
            assert_eq!(r.path, QueryPath::Exact);
        }
    }
}

#[test]
fn box_box_rotated_corner_and_overlap() {
    // Box b rotated 45° about z: its corner points at a along −x.
    let rot = Rotation3::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_4);
    let pose_b = Pose::from_matrix(*rot.matrix(), Vector3::new(4.0, 0.0, 0.0)).unwrap();
    let b = cuboid([1.0, 1.0, 1.0]);
    let r = distance(&b, &Pose::identity(), &b, &pose_b, &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 3.0 - 2f64.sqrt(), 1e-12), "{r:?}");
    // Overlapping boxes: intersecting, depth unknown to the LCP.
    let r = distance(&b, &Pose::identity(), &b, &at(1.5, 0.0, 0.0), &QuerySettings::default()).unwrap();
    assert!(matches!(r.proximity, Proximity::Intersecting { point: Some(_), depth: None }), "{r:?}");
    let hit = intersects(&b, &Pose::identity(), &b, &at(1.5, 0.0, 0.0), &QuerySettings::default()).unwrap();
    assert!(matches!(hit, Intersection::Intersecting { .. }));
    // Aligned box vs cuboid.
    let ab = Shape::AlignedBox(AlignedBox::new([2.0, -1.0, -1.0], [3.0, 1.0, 1.0]).unwrap());
    let r = distance(&ab, &Pose::identity(), &b, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 1.0, 1e-12), "{r:?}");
}

#[test]
fn sphere_box_lcp_agrees_with_closed_form() {
    let s = Shape::Sphere(Sphere::new(0.5).unwrap());
    let b = cuboid([1.0, 2.0, 3.0]);
    for (x, y, z) in [(3.0, 0.0, 0.0), (2.0, 3.0, 4.0), (-2.0, -2.5, 0.1)] {
        let cf = distance(&s, &at(x, y, z), &b, &Pose::identity(), &QuerySettings::default()).unwrap();
        let lcp = distance(
            &s,
            &at(x, y, z),
            &b,
            &Pose::identity(),
            &settings(Algorithm::Lcp, Arithmetic::Certified),
        )
        .unwrap();
        assert_eq!(cf.algorithm, Algorithm::ClosedForm);
        assert_eq!(lcp.algorithm, Algorithm::Lcp);
        assert!(close(cf.distance(), lcp.distance(), 1e-12), "{cf:?} {lcp:?}");
    }
    // Point on the box: the closed form says touching, the LCP can only say intersecting.
    let p = Shape::Point(Point::new([1.0, 0.0, 0.0]).unwrap());
    let r =
        distance(&p, &Pose::identity(), &b, &Pose::identity(), &settings(Algorithm::Lcp, Arithmetic::Exact))
            .unwrap();
    assert!(matches!(r.proximity, Proximity::Intersecting { depth: None, .. }), "{r:?}");
}

#[test]
fn triangle_box_and_aligned_box() {
    let t = tri([3.0, -1.0, -1.0], [3.0, 1.0, -1.0], [3.0, 0.0, 1.0]);
    let b = cuboid([1.0, 1.0, 1.0]);
    let ab = Shape::AlignedBox(AlignedBox::new([-1.0; 3], [1.0; 3]).unwrap());
    for s in all_settings() {
        let r = distance(&t, &Pose::identity(), &b, &Pose::identity(), &s).unwrap();
        assert!(close(r.distance(), 2.0, 1e-12), "{r:?}");
        let r = distance(&ab, &at(0.0, 0.0, 0.5), &t, &Pose::identity(), &s).unwrap();
        assert!(close(r.distance(), 2.0, 1e-12), "{r:?}");
        let Proximity::Separated { point_a, point_b, .. } = r.proximity else { panic!() };
        assert!(close(point_a.x, 1.0, 1e-12) && close(point_b.x, 3.0, 1e-12), "{r:?}");
    }
}

#[test]
fn segment_line_capsule_triangle() {
    let t = tri([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]);
    let seg = Shape::Segment(Segment::new([0.5, 0.5, 1.0], [0.5, 0.5, 3.0]).unwrap());
    let r = distance(&seg, &Pose::identity(), &t, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 1.0, 1e-12), "{r:?}");
    // A line through the triangle: intersecting.
    let line = Shape::Line(Line::new([0.5, 0.5, 1.0], [0.0, 0.0, 1.0]).unwrap());
    let r = distance(&t, &Pose::identity(), &line, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(matches!(r.proximity, Proximity::Intersecting { .. }), "{r:?}");
    // A line parallel to the triangle's plane, above it.
    let line = Shape::Line(Line::new([0.0, 0.0, 2.0], [1.0, 1.0, 0.0]).unwrap());
    let r = distance(&line, &Pose::identity(), &t, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 2.0, 1e-12), "{r:?}");
    assert!(close(r.certificate.lower, 2.0, 1e-12), "{r:?}");
    // Capsule standing above the triangle.
    let cap = Shape::Capsule(Capsule::new(0.5, 1.0).unwrap());
    let r = distance(&cap, &at(0.5, 0.5, 3.0), &t, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 1.5, 1e-12), "{r:?}");
}

#[test]
fn point_sphere_polytope_polyhedron() {
    let verts = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.1, 0.1, 0.1]];
    let poly = Shape::ConvexPolytope(ConvexPolytope::new(verts).unwrap());
    let p = Shape::Point(Point::new([1.0, 1.0, 1.0]).unwrap());
    let r = distance(&p, &Pose::identity(), &poly, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 2.0 / 3f64.sqrt(), 1e-12), "{r:?}");
    let sph = Shape::Sphere(Sphere::new(0.5).unwrap());
    let r = distance(&poly, &Pose::identity(), &sph, &at(-2.0, 0.0, 0.0), &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 1.5, 1e-12), "{r:?}");
    let cube = Shape::Polyhedron(
        Polyhedron::new(vec![
            ([1.0, 0.0, 0.0], 1.0),
            ([-1.0, 0.0, 0.0], 1.0),
            ([0.0, 1.0, 0.0], 1.0),
            ([0.0, -1.0, 0.0], 1.0),
            ([0.0, 0.0, 1.0], 1.0),
            ([0.0, 0.0, -1.0], 1.0),
        ])
        .unwrap(),
    );
    let r = distance(&sph, &at(0.0, 0.0, 4.0), &cube, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 2.5, 1e-12), "{r:?}");
    // Point–triangle through the polytope kernel.
    let t = tri([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]);
    let q = Shape::Point(Point::new([0.5, 0.5, -3.0]).unwrap());
    let r = distance(&t, &Pose::identity(), &q, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 3.0, 1e-12), "{r:?}");
    let (pa, pb) = r.witnesses().unwrap();
    assert!(close((pa - Point3::new(0.5, 0.5, 0.0)).norm(), 0.0, 1e-12));
    assert_eq!(pb, Point3::new(0.5, 0.5, -3.0));
}

#[test]
fn triangle_cylinder_test_intersection() {
    let cyl = Shape::Cylinder(Cylinder::new(1.0, 1.0).unwrap());
    let t = tri([-5.0, -5.0, 0.0], [5.0, -5.0, 0.0], [0.0, 5.0, 0.0]);
    for ar in [Arithmetic::Certified, Arithmetic::Float, Arithmetic::Exact] {
        let s = settings(Algorithm::Auto, ar);
        let hit = intersects(&cyl, &Pose::identity(), &t, &Pose::identity(), &s).unwrap();
        assert!(matches!(hit, Intersection::Intersecting { .. }), "{hit:?}");
        let miss = intersects(&cyl, &at(0.0, 0.0, 2.5), &t, &Pose::identity(), &s).unwrap();
        // Certified/Float arithmetic: GJK's early exit proves it with a direction; Exact: the
        // LCP kernel, without one.
        assert!(matches!(miss, Intersection::Separated { .. }), "{miss:?}");
        let side = intersects(&t, &at(7.0, 7.0, 0.0), &cyl, &Pose::identity(), &s).unwrap();
        assert!(matches!(side, Intersection::Separated { .. }), "{side:?}");
    }
    // No LCP distance kernel for the pair: the distance comes from GJK.
    let r = distance(&cyl, &Pose::identity(), &t, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert_eq!(r.algorithm, Algorithm::Gjk);
}

#[test]
fn degenerate_polytopes_are_fine() {
    let s = Shape::Sphere(Sphere::new(1.0).unwrap());
    let single = Shape::ConvexPolytope(ConvexPolytope::new(vec![[5.0, 0.0, 0.0]]).unwrap());
    let r = distance(&s, &Pose::identity(), &single, &Pose::identity(), &QuerySettings::default()).unwrap();
    assert!(close(r.distance(), 4.0, 1e-12), "{r:?}");
    // Flat, with repeated and interior points.
    let flat = Shape::ConvexPolytope(
        ConvexPolytope::new(vec![
            [0.0, 0.0, 3.0],
            [1.0, 0.0, 3.0],
            [0.0, 1.0, 3.0],
            [1.0, 0.0, 3.0],
            [0.2, 0.2, 3.0],
        ])
        .unwrap(),
    );
    for ar in [Arithmetic::Certified, Arithmetic::Exact] {
        let st = settings(Algorithm::Auto, ar);
        let r = distance(&flat, &Pose::identity(), &s, &at(0.25, 0.25, 0.0), &st).unwrap();
        assert!(close(r.distance(), 2.0, 1e-12), "{r:?}");
    }
}

#[test]
fn triangle_cylinder_algorithm_forcing() {
    let cyl = Shape::Cylinder(Cylinder::new(1.0, 1.0).unwrap());
    let t = tri([-5.0, -5.0, 0.0], [5.0, -5.0, 0.0], [0.0, 5.0, 0.0]);
    let lcp = settings(Algorithm::Lcp, Arithmetic::Certified);
    assert!(matches!(
        intersects(&t, &Pose::identity(), &cyl, &Pose::identity(), &lcp),
        Ok(Intersection::Intersecting { .. })
    ));
    let closed = settings(Algorithm::ClosedForm, Arithmetic::Certified);
    let e = intersects(&t, &Pose::identity(), &cyl, &Pose::identity(), &closed).unwrap_err();
    assert!(matches!(
        e,
        proxima_geom::GeomError::Unsupported { op: "intersects", algorithm: Some("closed_form"), .. }
    ));
}
