//! Input validation of every shape, pose and settings field: a clear `Err`, never a panic.

use proxima_geom::shape::{
    AlignedBox, Capsule, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Line, Point, Polyhedron, Segment,
    Sphere, Triangle,
};
use proxima_geom::{GeomError, Pose, QuerySettings, Shape, distance, intersects};

const NAN: f64 = f64::NAN;
const INF: f64 = f64::INFINITY;

fn is_nonfinite<T: std::fmt::Debug>(r: Result<T, GeomError>) -> bool {
    matches!(r, Err(GeomError::NonFinite { .. }))
}
fn is_nonpositive<T: std::fmt::Debug>(r: Result<T, GeomError>) -> bool {
    matches!(r, Err(GeomError::NonPositive { .. }))
}
fn is_degenerate<T: std::fmt::Debug>(r: Result<T, GeomError>) -> bool {
    matches!(r, Err(GeomError::Degenerate { .. }))
}

#[test]
fn point_rejects_non_finite() {
    assert!(is_nonfinite(Point::new([NAN, 0.0, 0.0])));
    assert!(is_nonfinite(Point::new([0.0, INF, 0.0])));
    assert!(Point::new([1.0, 2.0, 3.0]).is_ok());
}

#[test]
fn segment_rejects_non_finite_and_coincident() {
    assert!(is_nonfinite(Segment::new([NAN, 0.0, 0.0], [1.0, 0.0, 0.0])));
    assert!(is_nonfinite(Segment::new([0.0, 0.0, 0.0], [1.0, -INF, 0.0])));
    assert!(is_degenerate(Segment::new([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])));
}

#[test]
fn line_rejects_zero_direction() {
    assert!(matches!(Line::new([0.0; 3], [0.0; 3]), Err(GeomError::ZeroAxis { .. })));
    assert!(is_nonfinite(Line::new([NAN, 0.0, 0.0], [1.0, 0.0, 0.0])));
    assert!(is_nonfinite(Line::new([0.0; 3], [INF, 0.0, 0.0])));
    let l = Line::new([0.0; 3], [0.0, 3.0, 4.0]).unwrap();
    assert!((l.direction().norm() - 1.0).abs() < 1e-15);
}

#[test]
fn triangle_rejects_collinear() {
    assert!(is_degenerate(Triangle::new([0.0; 3], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0])));
    assert!(is_degenerate(Triangle::new([0.0; 3], [0.0; 3], [1.0, 0.0, 0.0])));
    assert!(is_nonfinite(Triangle::new([0.0; 3], [1.0, 0.0, 0.0], [0.0, NAN, 0.0])));
}

#[test]
fn boxes_reject_bad_extents() {
    assert!(is_nonpositive(Cuboid::new([1.0, 0.0, 1.0])));
    assert!(is_nonpositive(Cuboid::new([1.0, 1.0, -1.0])));
    assert!(is_nonfinite(Cuboid::new([NAN, 1.0, 1.0])));
    assert!(is_nonfinite(Cuboid::new([INF, 1.0, 1.0])));
    assert!(is_nonpositive(AlignedBox::new([0.0; 3], [1.0, 0.0, 1.0])));
    assert!(is_nonpositive(AlignedBox::new([0.0; 3], [1.0, -1.0, 1.0])));
    assert!(is_nonfinite(AlignedBox::new([0.0, NAN, 0.0], [1.0; 3])));
}

#[test]
fn round_shapes_reject_bad_radii() {
    assert!(is_nonpositive(Sphere::new(0.0)));
    assert!(is_nonpositive(Sphere::new(-1.0)));
    assert!(is_nonfinite(Sphere::new(NAN)));
    assert!(is_nonfinite(Sphere::new(INF)));
    assert!(is_nonpositive(Capsule::new(1.0, 0.0)));
    assert!(is_nonpositive(Capsule::new(-1.0, 1.0)));
    assert!(is_nonfinite(Capsule::new(1.0, NAN)));
    assert!(is_nonpositive(Cylinder::new(0.0, 1.0)));
    assert!(is_nonfinite(Cylinder::new(1.0, INF)));
    assert!(is_nonpositive(Ellipsoid::new([1.0, 0.0, 1.0])));
    assert!(is_nonfinite(Ellipsoid::new([1.0, NAN, 1.0])));
}

#[test]
fn polytope_rejects_empty_and_non_finite() {
    assert!(is_degenerate(ConvexPolytope::new(vec![])));
    assert!(is_nonfinite(ConvexPolytope::new(vec![[0.0; 3], [NAN, 0.0, 0.0]])));
    assert!(ConvexPolytope::new(vec![[0.0; 3]]).is_ok());
}

fn cube_halfspaces(h: f64) -> Vec<([f64; 3], f64)> {
    vec![
        ([1.0, 0.0, 0.0], h),
        ([-1.0, 0.0, 0.0], h),
        ([0.0, 1.0, 0.0], h),
        ([0.0, -1.0, 0.0], h),
        ([0.0, 0.0, 1.0], h),
        ([0.0, 0.0, -1.0], h),
    ]
}

#[test]
fn polyhedron_cube_is_valid_and_normalized() {
    let mut hs = cube_halfspaces(1.0);
    hs[0] = ([2.0, 0.0, 0.0], 2.0); // same plane, unnormalized
    let p = Polyhedron::new(hs).unwrap();
    assert!((p.normals()[0].norm() - 1.0).abs() < 1e-15);
    assert_eq!(p.offsets()[0], 1.0);
    assert_eq!(p.vertices().len(), 8);
}

#[test]
fn polyhedron_tetrahedron_vertices() {
    let p = Polyhedron::new(vec![
        ([-1.0, 0.0, 0.0], 0.0),
        ([0.0, -1.0, 0.0], 0.0),
        ([0.0, 0.0, -1.0], 0.0),
        ([1.0, 1.0, 1.0], 1.0),
    ])
    .unwrap();
    assert_eq!(p.vertices().len(), 4);
}

#[test]
fn polyhedron_rejects_bad_input() {
    assert!(is_degenerate(Polyhedron::new(vec![])));
    assert!(matches!(Polyhedron::new(vec![([0.0; 3], 1.0)]), Err(GeomError::ZeroAxis { .. })));
    assert!(is_nonfinite(Polyhedron::new(vec![([NAN, 0.0, 0.0], 1.0)])));
    assert!(is_nonfinite(Polyhedron::new(vec![([1.0, 0.0, 0.0], INF)])));
    // unbounded: a slab, a cone (positive orthant), a half-space.
    assert!(is_degenerate(Polyhedron::new(vec![([1.0, 0.0, 0.0], 1.0), ([-1.0, 0.0, 0.0], 1.0)])));
    assert!(is_degenerate(Polyhedron::new(vec![
        ([-1.0, 0.0, 0.0], 0.0),
        ([0.0, -1.0, 0.0], 0.0),
        ([0.0, 0.0, -1.0], 0.0)
    ])));
    let mut open = cube_halfspaces(1.0);
    open.pop();
    assert!(is_degenerate(Polyhedron::new(open)));
    // empty: x ≤ −1 and x ≥ 1 inside a cube.
    let mut empty = cube_halfspaces(2.0);
    empty.push(([1.0, 0.0, 0.0], -1.0));
    empty.push(([-1.0, 0.0, 0.0], -1.0));
    assert!(is_degenerate(Polyhedron::new(empty)));
}

#[test]
fn pose_rejects_non_rotation() {
    assert!(matches!(
        Pose::new([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], [0.0; 3]),
        Err(GeomError::NotRotation { .. })
    ));
    // A reflection is orthonormal but det = −1.
    assert!(matches!(
        Pose::new([[-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], [0.0; 3]),
        Err(GeomError::NotRotation { .. })
    ));
    assert!(matches!(
        Pose::new([[NAN, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], [0.0; 3]),
        Err(GeomError::NonFinite { .. })
    ));
    assert!(matches!(Pose::from_translation([0.0, INF, 0.0]), Err(GeomError::NonFinite { .. })));
}

#[test]
fn settings_are_validated() {
    let s = Shape::Sphere(Sphere::new(1.0).unwrap());
    let id = Pose::identity();
    for (gap, touch) in [(NAN, 0.0), (-1.0, 0.0), (INF, 0.0), (0.0, NAN), (0.0, -1e-3), (0.0, INF)] {
        let settings = QuerySettings::default().with_gap_tolerance(gap).with_touching_tolerance(touch);
        assert!(matches!(distance(&s, &id, &s, &id, &settings), Err(GeomError::InvalidSettings { .. })));
        assert!(matches!(intersects(&s, &id, &s, &id, &settings), Err(GeomError::InvalidSettings { .. })));
    }
}

#[test]
fn errors_display() {
    let e = Sphere::new(-1.0).unwrap_err();
    assert!(e.to_string().contains("sphere radius"));
}
