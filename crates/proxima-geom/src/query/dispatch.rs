//! The dispatcher: validates the settings, puts the pair in a canonical order, routes it to a
//! closed form or an LCP kernel, and mirrors the answer back.
//!
//! # Canonical order (exact symmetry)
//!
//! Every pair is computed with `kind(a) ≤ kind(b)` (the [`ShapeKind`](crate::ShapeKind) order), and for two
//! shapes of the same kind with a deterministic total order on their data (pose, then shape
//! parameters, compared with `f64::total_cmp`). `distance(b, a)` therefore runs exactly the
//! same floating-point computation as `distance(a, b)` and returns the mirrored answer: same
//! distance and certificate bit for bit, witnesses swapped, normal negated.
//!
//! # Routing
//!
//! 1. Points, segments, lines, spheres and capsules ("linear pieces" with a radius) against
//!    each other: closed form (`distance/distance_segment_segment.rs`; two points or spheres
//!    directly from their centres).
//! 2. Point or sphere against a cylinder: closed form (disk × interval projection).
//!    Point or sphere against a cuboid or aligned box: closed form (clamping in the box frame),
//!    or the LCP point–box kernel when [`Algorithm::Lcp`] is forced (or
//!    [`Arithmetic::Exact`] is asked with [`Algorithm::Auto`]).
//! 3. Point, segment, sphere, capsule or triangle against a triangle, segment or capsule
//!    against a box ([`Algorithm::Auto`], cold): closed form when the cores are apart
//!    (`distance/distance_segment_triangle.rs`, `distance/distance_triangle_triangle.rs`,
//!    `distance/distance_segment_box.rs`), else GJK/EPA.
//! 4. The LCP kernels (see `distance_lcp`).
//! 5. Anything else: [`GeomError::Unsupported`].

use core::cmp::Ordering;

use nalgebra::{Point3, Vector3};

use super::certificate::{
    Along, Core, Radii, bound_direction, finish, finish_along_witness, separation, witness_direction,
};
use super::distance::distance_cylinder_cylinder::closest_points_cylinder_sides;
use super::distance::distance_flat_cylinder::distance_flat_cylinder;
use super::distance::distance_point_cuboid::{PosedBox, closest_point_box};
use super::distance::distance_point_cylinder::closest_point_cylinder;
use super::distance::distance_segment_box::closest_segment_box;
use super::distance::distance_segment_segment::{LinearPiece, closest_linear_linear};
use super::distance::distance_segment_triangle::closest_piece_triangle;
use super::distance::distance_triangle_box::distance_triangle_box;
use super::distance::distance_triangle_triangle::closest_triangle_triangle;
use super::distance::{dqp3, ellipsoid, gjk, lcp};
use super::verify;
use super::{Algorithm, Arithmetic, DistanceResult, Intersection, Proximity, QueryPath, QuerySettings};
use crate::error::GeomError;
use crate::gjk::GjkCache;
use crate::pose::Pose;
use crate::shape::Shape;
use crate::shape::onto_placed::{Part, either_off_orthonormal, onto_placed};

/// `true` when (a, b) must be exchanged to reach the canonical order (allocation-free).
pub(crate) fn must_swap(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> bool {
    let order = a.kind().cmp(&b.kind()).then_with(|| cmp_poses(pa, pb).then_with(|| cmp_same_kind(a, b)));
    order == Ordering::Greater
}

/// `cmp_seq(pose_values(pa), pose_values(pb))` on the fixed-size arrays (same order: the
/// rotation column by column, then the translation), without iterator adaptors: this runs
/// on every query.
fn cmp_poses(pa: &Pose, pb: &Pose) -> Ordering {
    let (ra, rb) = (pa.rotation().as_slice(), pb.rotation().as_slice());
    let (ta, tb) = (pa.translation().as_slice(), pb.translation().as_slice());
    for (x, y) in ra.iter().zip(rb).chain(ta.iter().zip(tb)) {
        match x.total_cmp(y) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    Ordering::Equal
}

fn pose_values(p: &Pose) -> impl Iterator<Item = f64> + '_ {
    p.rotation().iter().chain(p.translation().iter()).copied()
}

fn cmp_seq(x: impl Iterator<Item = f64>, y: impl Iterator<Item = f64>) -> Ordering {
    let mut y = y;
    for u in x {
        match y.next() {
            None => return Ordering::Greater,
            Some(v) => match u.total_cmp(&v) {
                Ordering::Equal => {}
                o => return o,
            },
        }
    }
    if y.next().is_some() { Ordering::Less } else { Ordering::Equal }
}

fn flat(v: &[Point3<f64>]) -> impl Iterator<Item = f64> + '_ {
    v.iter().flat_map(|q| [q.x, q.y, q.z])
}

/// Total order on the parameters of two shapes of the same kind.
fn cmp_same_kind(a: &Shape, b: &Shape) -> Ordering {
    use Shape as S;
    match (a, b) {
        (S::Point(x), S::Point(y)) => cmp_seq(flat(&[x.position()]), flat(&[y.position()])),
        (S::Segment(x), S::Segment(y)) => cmp_seq(flat(&x.endpoints()), flat(&y.endpoints())),
        (S::Line(x), S::Line(y)) => {
            cmp_seq(flat(&[x.origin(), x.direction().into()]), flat(&[y.origin(), y.direction().into()]))
        }
        (S::Triangle(x), S::Triangle(y)) => cmp_seq(flat(&x.vertices()), flat(&y.vertices())),
        (S::Cuboid(x), S::Cuboid(y)) => {
            cmp_seq(flat(&[x.half_extents().into()]), flat(&[y.half_extents().into()]))
        }
        (S::AlignedBox(x), S::AlignedBox(y)) => cmp_seq(flat(&[x.min(), x.max()]), flat(&[y.min(), y.max()])),
        (S::Sphere(x), S::Sphere(y)) => x.radius().total_cmp(&y.radius()),
        (S::Capsule(x), S::Capsule(y)) => {
            cmp_seq([x.radius(), x.half_height()].into_iter(), [y.radius(), y.half_height()].into_iter())
        }
        (S::Cylinder(x), S::Cylinder(y)) => {
            cmp_seq([x.radius(), x.half_height()].into_iter(), [y.radius(), y.half_height()].into_iter())
        }
        (S::Ellipsoid(x), S::Ellipsoid(y)) => cmp_seq(flat(&[x.radii().into()]), flat(&[y.radii().into()])),
        (S::ConvexPolytope(x), S::ConvexPolytope(y)) => cmp_seq(flat(x.vertices()), flat(y.vertices())),
        (S::Polyhedron(x), S::Polyhedron(y)) => cmp_seq(
            x.normals().iter().flat_map(|n| [n.x, n.y, n.z]).chain(x.offsets().iter().copied()),
            y.normals().iter().flat_map(|n| [n.x, n.y, n.z]).chain(y.offsets().iter().copied()),
        ),
        (S::Cone(x), S::Cone(y)) => {
            cmp_seq([x.radius(), x.half_height()].into_iter(), [y.radius(), y.half_height()].into_iter())
        }
        (S::Rounded(x), S::Rounded(y)) => {
            x.radius().total_cmp(&y.radius()).then_with(|| cmp_shapes(x.inner(), y.inner()))
        }
        (S::MinkowskiSum(x), S::MinkowskiSum(y)) => {
            let ((xa, xpa), (xb, xpb)) = (x.first(), x.second());
            let ((ya, ypa), (yb, ypb)) = (y.first(), y.second());
            cmp_seq(pose_values(xpa), pose_values(ypa))
                .then_with(|| cmp_seq(pose_values(xpb), pose_values(ypb)))
                .then_with(|| cmp_shapes(xa, ya))
                .then_with(|| cmp_shapes(xb, yb))
        }
        _ => Ordering::Equal,
    }
}

/// Total order on shapes: kind, then parameters.
fn cmp_shapes(a: &Shape, b: &Shape) -> Ordering {
    a.kind().cmp(&b.kind()).then_with(|| cmp_same_kind(a, b))
}

/// A point, segment, line, sphere or capsule: a linear piece (world frame) and a radius.
#[inline(always)]
pub(crate) fn as_rounded_linear(s: &Shape, p: &Pose) -> Option<(LinearPiece, f64)> {
    let point = |o: Point3<f64>| LinearPiece { origin: o, dir: Vector3::zeros(), lo: 0.0, hi: 0.0 };
    Some(match s {
        Shape::Point(x) => (point(p.transform_point(&x.position())), 0.0),
        Shape::Sphere(x) => (point(Point3::from(*p.translation())), x.radius()),
        Shape::Segment(x) => {
            let [a, b] = x.endpoints().map(|q| p.transform_point(&q));
            (LinearPiece { origin: a, dir: b - a, lo: 0.0, hi: 1.0 }, 0.0)
        }
        Shape::Capsule(x) => (LinearPiece::z_axis(p, x.half_height()), x.radius()),
        Shape::Line(x) => (
            LinearPiece {
                origin: p.transform_point(&x.origin()),
                dir: p.transform_vector(&x.direction()),
                lo: f64::NEG_INFINITY,
                hi: f64::INFINITY,
            },
            0.0,
        ),
        _ => return None,
    })
}

/// A point or sphere: its centre (world) and radius.
pub(crate) fn as_ball(s: &Shape, p: &Pose) -> Option<(Point3<f64>, f64)> {
    match s {
        Shape::Point(x) => Some((p.transform_point(&x.position()), 0.0)),
        Shape::Sphere(x) => Some((Point3::from(*p.translation()), x.radius())),
        _ => None,
    }
}

/// A cuboid's or aligned box's local bounds (lo, hi).
#[inline(always)]
fn box_bounds(s: &Shape) -> Option<(Vector3<f64>, Vector3<f64>)> {
    match s {
        Shape::Cuboid(x) => Some((-x.half_extents(), x.half_extents())),
        Shape::AlignedBox(x) => Some((x.min().coords, x.max().coords)),
        _ => None,
    }
}

/// h(n) = max over the box [lo, hi] placed by `pose` of n·x: n·t plus the corner that m = Rᵀn
/// picks (hi where m_k ≥ 0, else lo) dotted with m — `Shape::support_value`'s formula for a
/// box, inlined for the ball–box closed form (the general call, with its match and range
/// guards, was ~130 instructions of a ~500-instruction query). A value that is not finite
/// (coordinates near `f64::MAX`) makes `finish_along_witness` take its general bound.
#[inline(always)]
pub(crate) fn box_support_value(pose: &Pose, lo: &Vector3<f64>, hi: &Vector3<f64>, n: &Vector3<f64>) -> f64 {
    let m = pose.rotation().tr_mul(n);
    let pick = |x: f64, l: f64, h: f64| x * if x >= 0.0 { h } else { l };
    n.dot(pose.translation()) + (pick(m.x, lo.x, hi.x) + pick(m.y, lo.y, hi.y) + pick(m.z, lo.z, hi.z))
}

/// h(n) of a cylinder (radius `r`, half-height `h`, axis z) placed by `pose`: n·t + r·|m_xy| +
/// h·|m_z| for m = Rᵀn, `Shape::support_value`'s formula inlined for the ball–cylinder closed
/// form (as [`box_support_value`]).
#[inline(always)]
pub(crate) fn cylinder_support_value(pose: &Pose, r: f64, h: f64, n: &Vector3<f64>) -> f64 {
    let m = pose.rotation().tr_mul(n);
    n.dot(pose.translation()) + (r * crate::shape::planar_len(m.x, m.y) + h * m.z.abs())
}

/// A ball's centre against a whole shape S (`core`: the centre and S's closest point, in the
/// canonical order, `ball_first` when the ball is `a`): the lower bound along the witness
/// direction n from S's support function `h_s` (the user's shape and pose) and the centre,
/// −h_S(−n) − n·c (ball first) or n·c − h_S(n), minus the radius in `finish_along_witness` —
/// the separation of the two shapes along n, without the ball's support function and the line
/// checks. Generic over `h_s`: each ball route has its own copy with S's support formula in
/// line (the general `Shape::support_value` call cost ~130 instructions of a
/// ~1000-instruction query). Kept out of line, as [`distance_rounded_linear`]: inlined into
/// the dispatcher, its frame made the ball–box and ball–cylinder queries ~10 % slower in
/// time for fewer instructions.
///
/// The centre `c` and radius `r` of the ball are given, and S's closest point to the centre
/// (with the centre's depth in S when inside) is computed here by `closest` (in line in each
/// copy): the core is built in this frame instead of the dispatcher's and passed on by
/// reference, not by value through the call.
#[inline(never)]
fn ball_closed_form(
    (c, r): (Point3<f64>, f64),
    ball_first: bool,
    shapes: (&Shape, &Pose, &Shape, &Pose),
    settings: &QuerySettings,
    closest: impl Fn(&Point3<f64>) -> (Point3<f64>, Option<f64>),
    h_s: impl Fn(&Vector3<f64>) -> f64,
) -> DistanceResult {
    let (q, depth) = closest(&c);
    let (core, radii) = if ball_first {
        (Core { qa: c, qb: q, core_depth: depth, lower_hint: None }, Radii { a: r, b: 0.0 })
    } else {
        (Core { qa: q, qb: c, core_depth: depth, lower_hint: None }, Radii { a: 0.0, b: r })
    };
    let along = witness_direction(&core.qa, &core.qb).map(|(n, len)| {
        let core_sep =
            if ball_first { -h_s(&-n) - n.dot(&core.qa.coords) } else { n.dot(&core.qb.coords) - h_s(&n) };
        Along { n, len, core_sep }
    });
    let (alg, path) = (Algorithm::ClosedForm, QueryPath::ClosedForm);
    finish_along_witness(core, radii, shapes, settings, alg, path, along)
}

/// A cuboid or aligned box with its pose.
pub(crate) fn as_box(s: &Shape, p: &Pose) -> Option<PosedBox> {
    match s {
        Shape::Cuboid(x) => Some(PosedBox { pose: *p, lo: -x.half_extents(), hi: x.half_extents() }),
        Shape::AlignedBox(x) => Some(PosedBox { pose: *p, lo: x.min().coords, hi: x.max().coords }),
        _ => None,
    }
}

fn unsupported(op: &'static str, a: &Shape, b: &Shape, algorithm: Algorithm) -> GeomError {
    GeomError::Unsupported {
        op,
        a: a.kind(),
        b: b.kind(),
        algorithm: if algorithm == Algorithm::Auto { None } else { Some(algorithm.as_str()) },
    }
}

/// How a (canonically ordered) pair is answered: the routing table, one arm per pair family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Route {
    /// Point/sphere pairs: the centres' difference (a special case of [`Route::RoundedLinear`]).
    Balls,
    /// Point/segment/line/sphere/capsule pairs: clamped least squares on the cores.
    RoundedLinear,
    /// Point or sphere – cuboid or aligned box: clamping in the box frame.
    BallBox,
    /// Point or sphere – cylinder: disk × interval projection.
    BallCylinder,
    /// Point/segment/sphere/capsule/triangle – triangle, segment/capsule – box,
    /// segment/capsule/triangle – ellipsoid: closed form (Newton for the ellipsoid) when the
    /// cores are apart, else GJK/EPA (`Auto` only).
    ApartClosedForm,
    /// An LCP kernel (`distance/lcp.rs`).
    Lcp,
    /// GJK + EPA on support maps (`distance/gjk.rs`).
    Gjk,
    /// An ellipsoid solver (`distance/ellipsoid.rs`): ellipsoid with point, sphere, ellipsoid,
    /// convex polytope or polyhedron.
    Ellipsoid,
    /// DQP3 on the pair converted to facet form (`distance/dqp3.rs`); forced only.
    Dqp3,
}

/// The closed form of a pair family, if it has one.
fn closed_form_route(a: &Shape, b: &Shape) -> Option<Route> {
    use Shape as S;
    let linear =
        |s: &Shape| matches!(s, S::Point(_) | S::Segment(_) | S::Line(_) | S::Sphere(_) | S::Capsule(_));
    let ball = |s: &Shape| matches!(s, S::Point(_) | S::Sphere(_));
    let boxy = |s: &Shape| matches!(s, S::Cuboid(_) | S::AlignedBox(_));
    let cyl = |s: &Shape| matches!(s, S::Cylinder(_));
    if ball(a) && ball(b) {
        Some(Route::Balls)
    } else if linear(a) && linear(b) {
        Some(Route::RoundedLinear)
    } else if (ball(a) && boxy(b)) || (boxy(a) && ball(b)) {
        Some(Route::BallBox)
    } else if (ball(a) && cyl(b)) || (cyl(a) && ball(b)) {
        Some(Route::BallCylinder)
    } else {
        None
    }
}

/// Pairs whose LCP kernel is preferred to GJK under [`Algorithm::Auto`]: every pair that
/// has one (box–box and triangle–box active-set solvers, the line–triangle QP,
/// point–polytope), except point/sphere against a polytope with more than
/// [`LCP_POLYTOPE_MAX_VERTICES`] vertices, where the LCP (one variable per vertex) loses to
/// GJK's hill-climbing support queries. (Point/sphere/segment/capsule–triangle never get
/// here: [`Route::ApartClosedForm`] comes first; its closed form, and GJK on contact, beat the
/// Lemke solve 4–9× — mixed workload: sphere–triangle 1715 → 183 ns.)
fn lcp_wins(a: &Shape, b: &Shape) -> bool {
    let big = |s: &Shape| match s {
        Shape::ConvexPolytope(p) => p.vertices().len() > LCP_POLYTOPE_MAX_VERTICES,
        Shape::Polyhedron(p) => p.vertices().len() > LCP_POLYTOPE_MAX_VERTICES,
        _ => false,
    };
    !(big(a) || big(b))
}

/// See [`lcp_wins`].
const LCP_POLYTOPE_MAX_VERTICES: usize = 16;

/// A point, segment, sphere, capsule or triangle with a triangle, a segment or capsule with
/// a box, a segment, capsule or triangle with an ellipsoid (see [`Route::ApartClosedForm`]).
fn apart_closed_form(a: &Shape, b: &Shape) -> bool {
    let piece =
        |s: &Shape| matches!(s, Shape::Point(_) | Shape::Sphere(_) | Shape::Segment(_) | Shape::Capsule(_));
    let segment = |s: &Shape| matches!(s, Shape::Segment(_) | Shape::Capsule(_));
    let triangle = |s: &Shape| matches!(s, Shape::Triangle(_));
    let boxy = |s: &Shape| matches!(s, Shape::Cuboid(_) | Shape::AlignedBox(_));
    (piece(a) && triangle(b))
        || (triangle(a) && piece(b))
        || (triangle(a) && triangle(b))
        || ellipsoid::apart_pair(a, b)
        || (segment(a) && boxy(b))
        || (boxy(a) && segment(b))
}

/// Segment/capsule – box by the closed form when the cores are apart: `Some(None)` when they
/// meet (GJK/EPA's), `None` for other pairs. The lower bound is the separation along the witness
/// direction from the box's support function (the user's box and pose) and the segment's
/// endpoints.
#[inline]
fn distance_segment_box(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Option<Option<DistanceResult>> {
    // Canonical order: a segment before a box, a box before a capsule.
    let (box_first, (piece, r), bx) = if let Some(bx) = as_box(b, pb) {
        (false, as_rounded_linear(a, pa)?, bx)
    } else {
        (true, as_rounded_linear(b, pb)?, as_box(a, pa)?)
    };
    let Some((on_segment, on_box)) = closest_segment_box(&piece, &bx) else { return Some(None) };
    let (qa, qb) = if box_first { (on_box, on_segment) } else { (on_segment, on_box) };
    let along = match witness_direction(&qa, &qb) {
        Some((n, len)) => {
            let core_sep = if box_first {
                -piece.support_value(&-n)? - a.support_value(pa, &n)
            } else {
                -b.support_value(pb, &-n) - piece.support_value(&n)?
            };
            Some(Along { n, len, core_sep })
        }
        None => None,
    };
    let radii = if box_first { Radii { a: 0.0, b: r } } else { Radii { a: r, b: 0.0 } };
    let core = Core { qa, qb, core_depth: None, lower_hint: None };
    let path = QueryPath::ClosedForm;
    Some(Some(finish_along_witness(
        core,
        radii,
        (a, pa, b, pb),
        settings,
        Algorithm::ClosedForm,
        path,
        along,
    )))
}

/// Point/segment/sphere/capsule – triangle by the closed form when the cores are apart by more
/// than round-off (`None` otherwise: contact and its depth are GJK/EPA's). The lower bound is
/// the separation along the witness direction from the world-frame cores' support values (the
/// triangle's vertices, the piece's endpoints), as for the other linear pieces.
#[inline(never)]
fn distance_piece_triangle(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Option<DistanceResult> {
    let world = |t: &crate::shape::Triangle, p: &Pose| t.vertices().map(|v| p.transform_point(&v));
    let (triangle_first, (piece, r), tri) = match (a, b) {
        (Shape::Triangle(t), _) => (true, as_rounded_linear(b, pb)?, world(t, pa)),
        (_, Shape::Triangle(t)) => (false, as_rounded_linear(a, pa)?, world(t, pb)),
        _ => return None,
    };
    let (on_piece, on_triangle) = closest_piece_triangle(&piece, &tri)?;
    let (qa, qb) = if triangle_first { (on_triangle, on_piece) } else { (on_piece, on_triangle) };
    let tri_support =
        |m: &Vector3<f64>| tri.iter().map(|v| m.dot(&v.coords)).fold(f64::NEG_INFINITY, f64::max);
    let along = match witness_direction(&qa, &qb) {
        Some((n, len)) => {
            let core_sep = if triangle_first {
                -piece.support_value(&-n)? - tri_support(&n)
            } else {
                -tri_support(&-n) - piece.support_value(&n)?
            };
            Some(Along { n, len, core_sep })
        }
        None => None,
    };
    let radii = if triangle_first { Radii { a: 0.0, b: r } } else { Radii { a: r, b: 0.0 } };
    let core = Core { qa, qb, core_depth: None, lower_hint: None };
    let path = QueryPath::ClosedForm;
    Some(finish_along_witness(core, radii, (a, pa, b, pb), settings, Algorithm::ClosedForm, path, along))
}

/// Triangle – triangle by the closed form when apart by more than round-off (`None`
/// otherwise, or for other pairs: contact and its depth are GJK/EPA's). The lower bound is the
/// separation along the witness direction from the world triangles' support values (their
/// vertices), as for the other polyhedral pieces.
#[inline(never)]
fn distance_triangle_triangle(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Option<DistanceResult> {
    let (Shape::Triangle(x), Shape::Triangle(y)) = (a, b) else { return None };
    let (s, t) = (x.vertices().map(|v| pa.transform_point(&v)), y.vertices().map(|v| pb.transform_point(&v)));
    let (qa, qb) = closest_triangle_triangle(&s, &t)?;
    let support = |tri: &[Point3<f64>; 3], m: &Vector3<f64>| {
        tri.iter().map(|v| m.dot(&v.coords)).fold(f64::NEG_INFINITY, f64::max)
    };
    let along = witness_direction(&qa, &qb).map(|(n, len)| Along {
        n,
        len,
        core_sep: -support(&t, &-n) - support(&s, &n),
    });
    let core = Core { qa, qb, core_depth: None, lower_hint: None };
    let (radii, path) = (Radii { a: 0.0, b: 0.0 }, QueryPath::ClosedForm);
    Some(finish_along_witness(core, radii, (a, pa, b, pb), settings, Algorithm::ClosedForm, path, along))
}

/// The route for the (canonically ordered) pair under the settings; `None` = unsupported.
pub(crate) fn route(a: &Shape, b: &Shape, settings: &QuerySettings) -> Option<Route> {
    // Availability checks are evaluated lazily, in the order of precedence (the common
    // closed-form pairs never look at the LCP, ellipsoid or GJK tables).
    let gjk = || a.is_bounded() && b.is_bounded();
    match settings.algorithm {
        Algorithm::ClosedForm => closed_form_route(a, b),
        Algorithm::Lcp => lcp::available(a, b).then_some(Route::Lcp),
        Algorithm::Gjk => gjk().then_some(Route::Gjk),
        Algorithm::Ellipsoid => ellipsoid::available(a, b).then_some(Route::Ellipsoid),
        Algorithm::Dqp3 => dqp3::available(a, b).then_some(Route::Dqp3),
        Algorithm::Lp | Algorithm::Sat => None,
        Algorithm::Auto => {
            // Two vertex polytopes: no closed form, LCP kernel or ellipsoid method takes the
            // pair (each test below answers no for it), GJK does; decided by two type tests
            // instead of the whole chain (polytope_8, callgrind: 75 → 27 instructions per query).
            let hull = |s: &Shape| matches!(s, Shape::ConvexPolytope(_) | Shape::Polyhedron(_));
            if hull(a) && hull(b) {
                return gjk().then_some(Route::Gjk);
            }
            if settings.arithmetic == Arithmetic::Exact && lcp::available(a, b) {
                return Some(Route::Lcp);
            }
            if let Some(closed) = closed_form_route(a, b) {
                return Some(closed);
            }
            if apart_closed_form(a, b) {
                return Some(Route::ApartClosedForm);
            }
            if ellipsoid::preferred(a, b) {
                return Some(Route::Ellipsoid);
            }
            let lcp = lcp::available(a, b);
            let gjk = gjk();
            if lcp && (lcp_wins(a, b) || !gjk) {
                Some(Route::Lcp)
            } else if gjk {
                Some(Route::Gjk)
            } else {
                None
            }
        }
    }
}

/// Two balls (points or spheres): the centres are the core points, and the cores' support
/// values along the unit n from c_a to c_b are n·c_a and −n·c_b, so their separation is
/// n·c_b − n·c_a — what [`distance_rounded_linear`] computes for two point pieces, bit for
/// bit, without the segment solver's products and the pieces' clamps (mixed workload,
/// sphere–sphere: 967 → 779 instructions per query). Out of line as that one.
#[inline(never)]
fn distance_balls(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    let internal = || GeomError::Degenerate { what: "internal: pair does not match its route" };
    let ((ca, ra), (cb, rb)) = (as_ball(a, pa).ok_or_else(internal)?, as_ball(b, pb).ok_or_else(internal)?);
    let along = witness_direction(&ca, &cb).and_then(|(n, len)| {
        let core_sep = n.dot(&cb.coords) - n.dot(&ca.coords);
        core_sep.is_finite().then_some(Along { n, len, core_sep })
    });
    // Points and sphere centres are flat: contact of the cores has depth 0.
    let core = Core { qa: ca, qb: cb, core_depth: Some(0.0), lower_hint: None };
    let (radii, alg, path) = (Radii { a: ra, b: rb }, Algorithm::ClosedForm, QueryPath::ClosedForm);
    Ok(finish_along_witness(core, radii, (a, pa, b, pb), settings, alg, path, along))
}

/// Point/segment/line/sphere/capsule pairs: clamped least squares on the cores. Kept out of
/// line (`inline(never)`): the segment–segment solver is inlined here, and inlining it into
/// the dispatcher instead would enlarge the frame of every query's route.
#[inline(never)]
fn distance_rounded_linear(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    let internal = || GeomError::Degenerate { what: "internal: pair does not match its route" };
    let shapes = (a, pa, b, pb);
    let ((la, ra), (lb, rb)) =
        (as_rounded_linear(a, pa).ok_or_else(internal)?, as_rounded_linear(b, pb).ok_or_else(internal)?);
    let (qa, qb) = closest_linear_linear(&la, &lb);
    // The certificate's lower bound along the witness direction n, from the support
    // functions of the world-frame cores (segment/point endpoints): h_A(n) = h_core(n)
    // + r_a for |n| = 1, so `finish` only subtracts the radii (weak duality, as the
    // generic support-function bound, without re-transforming the shapes).
    let along = witness_direction(&qa, &qb).and_then(|(n, len)| {
        match (la.support_value(&n), lb.support_value(&-n)) {
            (Some(ha), Some(hb)) if (-hb - ha).is_finite() => Some(Along { n, len, core_sep: -hb - ha }),
            _ => None,
        }
    });
    // Points, segments and lines are flat: contact of the cores has depth 0.
    let core = Core { qa, qb, core_depth: Some(0.0), lower_hint: None };
    let (radii, path) = (Radii { a: ra, b: rb }, QueryPath::ClosedForm);
    Ok(finish_along_witness(core, radii, shapes, settings, Algorithm::ClosedForm, path, along))
}

/// Distance with a and b in canonical order. `cache`: GJK warm start and whether the pair
/// was swapped into canonical order. `constructed` is set when the answer's witnesses are on
/// the shapes by construction (the closed forms of [`Route::Balls`], [`Route::RoundedLinear`],
/// [`Route::BallBox`] and [`Route::BallCylinder`], the piece– and triangle–triangle ones of
/// [`Route::ApartClosedForm`], the box–box kernel's on two cuboids under [`Route::Lcp`], and
/// the dual Newton's on two ellipsoids under [`Route::Ellipsoid`];
/// see `verify::check_closed_form_distance`).
fn distance_ordered(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    routed: Option<Route>,
    cache: Option<(&mut GjkCache, bool)>,
    constructed: &mut bool,
    depth_on_contact: Option<&gjk::DepthOnContact>,
) -> Result<DistanceResult, GeomError> {
    let alg = settings.algorithm;
    let Some(route) = routed else {
        return Err(unsupported("distance", a, b, alg));
    };
    let shapes = (a, pa, b, pb);
    let closed_form = |core: Core, radii: Radii| {
        Ok(finish(core, radii, shapes, settings, Algorithm::ClosedForm, QueryPath::ClosedForm))
    };
    let internal = || GeomError::Degenerate { what: "internal: pair does not match its route" };
    match route {
        Route::Balls => {
            *constructed = true;
            distance_balls(a, pa, b, pb, settings)
        }
        Route::RoundedLinear => {
            *constructed = true;
            distance_rounded_linear(a, pa, b, pb, settings)
        }
        Route::BallBox => {
            *constructed = true;
            // Canonical order puts a point before a box and a box before a sphere.
            if let (Some(ball), Some((lo, hi))) = (as_ball(a, pa), box_bounds(b)) {
                return Ok(ball_closed_form(
                    ball,
                    true,
                    shapes,
                    settings,
                    |c| closest_point_box(c, pb, &lo, &hi),
                    |n| box_support_value(pb, &lo, &hi, n),
                ));
            }
            let ((lo, hi), ball) =
                (box_bounds(a).ok_or_else(internal)?, as_ball(b, pb).ok_or_else(internal)?);
            Ok(ball_closed_form(
                ball,
                false,
                shapes,
                settings,
                |c| closest_point_box(c, pa, &lo, &hi),
                |n| box_support_value(pa, &lo, &hi, n),
            ))
        }
        Route::BallCylinder => {
            // The cylinder's witness is its clamped local point placed by the pose, the ball's
            // the centre plus n·r: on the shapes by construction, as for `BallBox`.
            *constructed = true;
            // Point < cylinder < sphere in the canonical order.
            if let (Some(ball), Shape::Cylinder(cyl)) = (as_ball(a, pa), b) {
                let (rad, h) = (cyl.radius(), cyl.half_height());
                return Ok(ball_closed_form(
                    ball,
                    true,
                    shapes,
                    settings,
                    |c| closest_point_cylinder(c, pb, rad, h),
                    |n| cylinder_support_value(pb, rad, h, n),
                ));
            }
            let (Shape::Cylinder(cyl), Some(ball)) = (a, as_ball(b, pb)) else { return Err(internal()) };
            let (rad, h) = (cyl.radius(), cyl.half_height());
            Ok(ball_closed_form(
                ball,
                false,
                shapes,
                settings,
                |c| closest_point_cylinder(c, pa, rad, h),
                |n| cylinder_support_value(pa, rad, h, n),
            ))
        }
        Route::ApartClosedForm => {
            // Cold only: a tracked query keeps its GJK cache current.
            if cache.is_none() {
                let r = distance_segment_box(a, pa, b, pb, settings).unwrap_or_else(|| {
                    // A piece or triangle against a triangle: the witnesses are points of the
                    // world cores (clamped segment points, convex combinations of the world
                    // triangle's vertices from `closest_to_origin`) plus n·r, on the shapes by
                    // construction (`verify::check_closed_form_distance`).
                    let r = distance_piece_triangle(a, pa, b, pb, settings)
                        .or_else(|| distance_triangle_triangle(a, pa, b, pb, settings));
                    *constructed = r.is_some();
                    r.or_else(|| ellipsoid::distance_apart(a, pa, b, pb, settings))
                });
                if let Some(r) = r {
                    return Ok(r);
                }
            }
            gjk::distance(a, pa, b, pb, settings, cache, depth_on_contact)
        }
        Route::Lcp => {
            // Triangle–box apart: four closed-form candidates whose certificate closes, before
            // the kernel (Auto in float arithmetic only: exact asks for the kernel).
            if alg == Algorithm::Auto
                && settings.arithmetic != Arithmetic::Exact
                && let Some(r) = distance_triangle_box(a, pa, b, pb, settings)
            {
                return Ok(r);
            }
            let r =
                lcp::distance(a, pa, b, pb, settings)?.ok_or_else(|| unsupported("distance", a, b, alg))?;
            // Two cuboids: the box–box kernel's witnesses are t + Σ (ξⱼ − hⱼ)uⱼ with ξ in the
            // box, evaluated in f64 (or rounded from exact ones): on the shapes by
            // construction (`verify::check_closed_form_distance`).
            *constructed = matches!((a, b), (Shape::Cuboid(_), Shape::Cuboid(_)));
            Ok(r)
        }
        Route::Gjk => {
            // Box or triangle – cylinder by candidate features whose certificate closes, and
            // cylinder sides closest (cylinder–cylinder or cylinder–capsule): exact without
            // GJK. Auto only (a forced GJK runs GJK), and cold only (a tracked query keeps
            // its cache current).
            // (Both need a cylinder, B's in the first: a type test in line spares the other
            // pairs, two vertex polytopes above all, two calls that answer `None`.)
            let cylinder = |s: &Shape| matches!(s, Shape::Cylinder(_));
            if alg == Algorithm::Auto
                && cache.is_none()
                && cylinder(b)
                && let Some(r) = distance_flat_cylinder(a, pa, b, pb, settings)
            {
                return Ok(r);
            }
            if alg == Algorithm::Auto
                && cache.is_none()
                && (cylinder(a) || cylinder(b))
                && let Some((qa, qb)) = closest_points_cylinder_sides(a, pa, b, pb)
            {
                // Radii added along a world direction: with a rotation off orthonormal, a
                // cylinder's witness is moved onto the cylinder as placed (unchanged otherwise;
                // a capsule's is a point of its world-frame ball already).
                let (qa, qb) = if either_off_orthonormal(pa, pb) {
                    (onto_placed(a, pa, Part::Whole, &qa), onto_placed(b, pb, Part::Whole, &qb))
                } else {
                    (qa, qb)
                };
                let core = Core { qa, qb, core_depth: None, lower_hint: None };
                return closed_form(core, Radii { a: 0.0, b: 0.0 });
            }
            gjk::distance(a, pa, b, pb, settings, cache, depth_on_contact)
        }
        Route::Ellipsoid => {
            // Two ellipsoids: the dual Newton's witnesses, support points S m / √(mᵀS m) of
            // the user's ellipsoids up to a rounding that `verify::reach_within` bounds.
            *constructed = matches!((a, b), (Shape::Ellipsoid(_), Shape::Ellipsoid(_)));
            ellipsoid::distance(a, pa, b, pb, settings)
        }
        Route::Dqp3 => dqp3::distance(a, pa, b, pb, settings),
    }
}

/// See [`super::distance()`].
pub(crate) fn distance(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    distance_keeping_depth(a, pa, b, pb, settings, None).map(|(r, _)| r)
}

/// [`distance`] handing `depth_on_contact` to a cold GJK run (which leaves its depth answer
/// there when it ends in contact, `gjk::DepthOnContact`), with the canonical order it ran in
/// (`true`: swapped), which the slot's reader must match.
#[inline]
pub(crate) fn distance_keeping_depth(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    depth_on_contact: Option<&gjk::DepthOnContact>,
) -> Result<(DistanceResult, bool), GeomError> {
    settings.validate()?;
    let swap = must_swap(a, pa, b, pb);
    let routed = if swap { route(b, a, settings) } else { route(a, b, settings) };
    distance_routed(a, pa, b, pb, settings, swap, routed, depth_on_contact).map(|r| (r, swap))
}

/// [`distance`] with the settings validated, the canonical order (`swap`) and the route of
/// the pair in that order given (`query/prepared.rs` computes the route once per pair).
#[inline(always)]
pub(crate) fn distance_routed(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    swap: bool,
    routed: Option<Route>,
    depth_on_contact: Option<&gjk::DepthOnContact>,
) -> Result<DistanceResult, GeomError> {
    // One call site of the router (either order), the answer mirrored in place: each by-value
    // pass of the result through a `Result` or a `map` is a copy of its ~120 bytes on every
    // query, which the ~100 ns closed forms feel.
    // The kernel's `Result` is checked and settled where it lies and returned as it is: taking
    // the answer out and wrapping it again copied it twice per query.
    let (x, px, y, py) = if swap { (b, pb, a, pa) } else { (a, pa, b, pb) };
    let mut constructed = false;
    let mut out = distance_ordered(x, px, y, py, settings, routed, None, &mut constructed, depth_on_contact);
    // (A depth left by the GJK kernel is for its answer as returned: cleared on the paths
    // that answer otherwise.)
    let forget = || depth_on_contact.inspect(|d| d.set(None));
    let Some(r) = out.as_mut().ok().filter(|r| is_finite(r)) else {
        forget();
        let e = out.err().unwrap_or_else(non_finite);
        let e = if swap { unswap(e, a, b) } else { e };
        if kernel_gave_up(&e, a, b, settings) {
            return distance(a, pa, b, pb, &gjk_settings(settings));
        }
        return Err(e);
    };
    if swap {
        r.mirror_in_place();
    }
    match certify_in_place((a, pa, b, pb), r, constructed, settings) {
        Ok(()) => out,
        Err(Some(why)) => Err(verify::uncertified(why)),
        Err(None) => {
            forget();
            distance(a, pa, b, pb, &gjk_settings(settings))
        }
    }
}

/// Whether a default-route kernel's error is its own failure on valid shapes (a derived
/// representation degenerate or overflowing in f64: a triangle placed 1e150 away in a box's
/// frame has collinear corners), for GJK on the user's shapes to answer instead.
fn kernel_gave_up(e: &GeomError, a: &Shape, b: &Shape, settings: &QuerySettings) -> bool {
    settings.algorithm == Algorithm::Auto
        && a.is_bounded()
        && b.is_bounded()
        && matches!(e, GeomError::Degenerate { .. } | GeomError::NonFinite { .. })
}

fn gjk_settings(settings: &QuerySettings) -> QuerySettings {
    settings.clone().with_algorithm(Algorithm::Gjk)
}

/// `r` when it passes its check against the user's shapes (`verify.rs`; `constructed`: its
/// witnesses are on the shapes by construction, see `verify::check_closed_form_distance`);
/// otherwise GJK's
/// answer on the same shapes (`recompute` runs it with these settings), or
/// [`GeomError::Uncertified`] when `r` was GJK's already.
#[inline(always)]
fn certified(
    shapes: (&Shape, &Pose, &Shape, &Pose),
    mut r: DistanceResult,
    constructed: bool,
    settings: &QuerySettings,
    recompute: impl FnOnce(&QuerySettings) -> Result<DistanceResult, GeomError>,
) -> Result<DistanceResult, GeomError> {
    match certify_in_place(shapes, &mut r, constructed, settings) {
        Ok(()) => Ok(r),
        Err(Some(why)) => Err(verify::uncertified(why)),
        Err(None) => recompute(&gjk_settings(settings)),
    }
}

/// [`certified`]'s decision on `r` in place: `Ok` when it passes its check (`r` then settled),
/// `Err(Some(why))` when it is refuted and was GJK's already (or a shape is unbounded, where
/// GJK cannot run), `Err(None)` when GJK is to answer instead.
#[inline(always)]
fn certify_in_place(
    shapes: (&Shape, &Pose, &Shape, &Pose),
    r: &mut DistanceResult,
    constructed: bool,
    settings: &QuerySettings,
) -> Result<(), Option<verify::Refuted>> {
    match verify::check_closed_form_distance(shapes, r, constructed) {
        Ok(()) => {
            verify::settle_in_place(r, settings);
            Ok(())
        }
        Err(why) if r.algorithm == Algorithm::Gjk || !(shapes.0.is_bounded() && shapes.2.is_bounded()) => {
            Err(Some(why))
        }
        Err(_) => Err(None),
    }
}

/// See [`super::distance_tracked()`].
pub(crate) fn distance_tracked(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    cache: &mut GjkCache,
) -> Result<DistanceResult, GeomError> {
    settings.validate()?;
    let mut constructed = false;
    let r = if must_swap(a, pa, b, pb) {
        distance_ordered(
            b,
            pb,
            a,
            pa,
            settings,
            route(b, a, settings),
            Some((cache, true)),
            &mut constructed,
            None,
        )
        .map(DistanceResult::mirrored)
        .map_err(|e| unswap(e, a, b))
    } else {
        distance_ordered(
            a,
            pa,
            b,
            pb,
            settings,
            route(a, b, settings),
            Some((cache, false)),
            &mut constructed,
            None,
        )
    };
    let r = match r {
        Ok(r) if is_finite(&r) => r,
        r => {
            let e = r.err().unwrap_or_else(non_finite);
            if kernel_gave_up(&e, a, b, settings) {
                return distance_tracked(a, pa, b, pb, &gjk_settings(settings), cache);
            }
            return Err(e);
        }
    };
    certified((a, pa, b, pb), r, constructed, settings, |gjk| distance_tracked(a, pa, b, pb, gjk, cache))
}

/// Inputs are finite, but coordinates near `f64::MAX` can overflow in squared distances: such
/// an answer is an error ([`non_finite`]), never a NaN/∞ distance.
///
/// One test for all the numbers: x·0 is ±0 for finite x and NaN for NaN and ±∞, so a sum of
/// such products is ±0 exactly when every x is finite (no branch per number; the products
/// cannot overflow).
#[inline(always)]
fn is_finite(r: &DistanceResult) -> bool {
    let z = |x: f64| x * 0.0;
    let zp = |p: &Point3<f64>| z(p.x) + z(p.y) + z(p.z);
    let rest = match &r.proximity {
        Proximity::Separated { distance, point_a, point_b, normal } => {
            z(*distance) + zp(point_a) + zp(point_b) + (z(normal.x) + z(normal.y) + z(normal.z))
        }
        Proximity::Touching { point } => zp(point),
        Proximity::Intersecting { point, depth } => point.as_ref().map_or(0.0, zp) + depth.map_or(0.0, z),
    };
    z(r.certificate.lower) + z(r.certificate.upper) + rest == 0.0
}

/// The error for an answer that is not finite (see [`is_finite`]).
fn non_finite() -> GeomError {
    GeomError::NonFinite { what: "query result (coordinates too large for f64)" }
}

fn unswap(e: GeomError, a: &Shape, b: &Shape) -> GeomError {
    match e {
        GeomError::Unsupported { op, algorithm, .. } => {
            GeomError::Unsupported { op, a: a.kind(), b: b.kind(), algorithm }
        }
        other => other,
    }
}

/// See [`super::intersects()`].
pub(crate) fn intersects(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<Intersection, GeomError> {
    let (i, built) = intersects_unchecked(a, pa, b, pb, settings)?;
    // The verdict checked against the user's shapes (`verify.rs`): a refuted one is re-decided
    // by GJK, and a refuted GJK verdict is no verdict.
    match verify::check_intersection((a, pa, b, pb), &i, settings, built) {
        Ok(()) => Ok(i),
        Err(why) if settings.algorithm == Algorithm::Gjk || !(a.is_bounded() && b.is_bounded()) => {
            Ok(Intersection::Undecided { reason: why })
        }
        Err(_) => {
            let mut gjk = settings.clone();
            gjk.algorithm = Algorithm::Gjk;
            intersects(a, pa, b, pb, &gjk)
        }
    }
}

/// [`intersects`] before the check against the shapes, and whether the verdict's common point
/// is a point of both shapes by construction up to round-off (GJK's, or that of a distance
/// answer checked already), see `verify::check_intersection`.
fn intersects_unchecked(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<(Intersection, bool), GeomError> {
    settings.validate()?;
    let swap = must_swap(a, pa, b, pb);
    let (x, px, y, py) = if swap { (b, pb, a, pa) } else { (a, pa, b, pb) };
    // Intersection-only algorithms (vertex LP, cylinder SAT), in canonical order too.
    match super::intersect::intersects_special(x, px, y, py, settings) {
        Ok(Some(hit)) => return Ok((mirror_intersection(hit, swap), false)),
        Ok(None) => {}
        Err(e) => return Err(unswap_op(e, a, b)),
    }
    // GJK's early exit first for GJK-routed pairs (forced, or `Auto` in float arithmetic); a
    // pair where it reaches no verdict goes on to the test-intersection kernels.
    let gjk_first = settings.algorithm == Algorithm::Gjk
        || (settings.arithmetic != Arithmetic::Exact
            && matches!(route(x, y, settings), Some(Route::Gjk | Route::ApartClosedForm)));
    if gjk_first {
        let hit = gjk::intersects(x, px, y, py, settings)?;
        if settings.algorithm == Algorithm::Gjk || !matches!(hit, Intersection::Undecided { .. }) {
            return Ok((mirror_intersection(hit, swap), true));
        }
    }
    // Test-intersection kernels (no distance available for the pair, e.g. triangle–cylinder
    // in exact arithmetic).
    if settings.algorithm != Algorithm::ClosedForm
        && let Some(hit) = lcp::intersects_only(x, px, y, py, settings)?
    {
        return Ok((hit, false));
    }
    if matches!(route(x, y, settings), Some(Route::Gjk | Route::ApartClosedForm)) {
        return gjk::intersects(x, px, y, py, settings).map(|i| (mirror_intersection(i, swap), true));
    }
    // The distance as answered to the user: checked against the shapes (a refuted kernel
    // answer is GJK's), so that its verdict is as proven as the distance.
    let r = match distance(a, pa, b, pb, settings) {
        Ok(r) => r,
        Err(GeomError::Unsupported { algorithm, .. }) => {
            return Err(GeomError::Unsupported { op: "intersects", a: a.kind(), b: b.kind(), algorithm });
        }
        Err(e) => return Err(e),
    };
    Ok((
        match r.proximity {
            Proximity::Separated { normal, .. } => {
                // The witness direction (made exactly perpendicular to lines: along the witness
                // direction itself a line's support is infinite once rounding tilts it), when
                // the shapes are apart along it; else separated without a direction when the
                // lower bound proves it, else no verdict.
                let proven =
                    bound_direction(a, pa, b, pb, &normal).filter(|m| separation(a, pa, b, pb, m) > 0.0);
                match proven {
                    Some(n) => Intersection::Separated { direction: Some(n) },
                    None if r.certificate.lower > 0.0 => Intersection::Separated { direction: None },
                    None => {
                        Intersection::Undecided { reason: "separation not proven (distance below round-off)" }
                    }
                }
            }
            Proximity::Touching { point } => Intersection::Intersecting { point: Some(point) },
            Proximity::Intersecting { point, .. } => Intersection::Intersecting { point },
        },
        true,
    ))
}

fn unswap_op(e: GeomError, a: &Shape, b: &Shape) -> GeomError {
    match e {
        GeomError::Unsupported { op, algorithm, .. } => {
            GeomError::Unsupported { op, a: a.kind(), b: b.kind(), algorithm }
        }
        other => other,
    }
}

fn mirror_intersection(i: Intersection, swap: bool) -> Intersection {
    match i {
        Intersection::Separated { direction: Some(d) } if swap => {
            Intersection::Separated { direction: Some(-d) }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    //! The branch-free finiteness test against the field-by-field one it replaces: every
    //! number of each answer variant set in turn to NaN, ±∞ and extreme finite values.

    use nalgebra::{Point3, Vector3};

    use super::is_finite;
    use crate::query::{Algorithm, Certificate, DistanceResult, Proximity, QueryPath};

    fn reference(r: &DistanceResult) -> bool {
        let finite = |p: &Point3<f64>| p.iter().all(|x| x.is_finite());
        r.certificate.lower.is_finite()
            && r.certificate.upper.is_finite()
            && match &r.proximity {
                Proximity::Separated { distance, point_a, point_b, normal } => {
                    distance.is_finite()
                        && finite(point_a)
                        && finite(point_b)
                        && normal.iter().all(|x| x.is_finite())
                }
                Proximity::Touching { point } => finite(point),
                Proximity::Intersecting { point, depth } => {
                    point.as_ref().is_none_or(finite) && depth.is_none_or(f64::is_finite)
                }
            }
    }

    /// How many numbers answer variant `kind` holds (with its certificate).
    const LENGTHS: [usize; 4] = [12, 5, 6, 2];

    /// Answer variant `kind` built from its numbers `v` (certificate first).
    fn build(kind: usize, v: &[f64]) -> DistanceResult {
        let p = |k: usize| Point3::new(v[k], v[k + 1], v[k + 2]);
        let proximity = match kind {
            0 => Proximity::Separated {
                distance: v[2],
                point_a: p(3),
                point_b: p(6),
                normal: Vector3::new(v[9], v[10], v[11]),
            },
            1 => Proximity::Touching { point: p(2) },
            2 => Proximity::Intersecting { point: Some(p(2)), depth: Some(v[5]) },
            _ => Proximity::Intersecting { point: None, depth: None },
        };
        DistanceResult {
            proximity,
            certificate: Certificate { lower: v[0], upper: v[1] },
            algorithm: Algorithm::ClosedForm,
            path: QueryPath::ClosedForm,
        }
    }

    #[test]
    fn branch_free_test_agrees_field_by_field() {
        let values = [0.0, -0.0, 1.5, -3.0, f64::MAX, -f64::MAX, f64::MIN_POSITIVE, 5e-324];
        let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
        let mut rejected = 0;
        for (kind, len) in LENGTHS.into_iter().enumerate() {
            for k in 0..values.len() {
                let all: Vec<f64> = (0..len).map(|i| values[(i + k) % values.len()]).collect();
                let r = build(kind, &all);
                assert!(is_finite(&r) && reference(&r));
                for i in 0..len {
                    for b in bad {
                        let mut v = all.clone();
                        v[i] = b;
                        let r = build(kind, &v);
                        assert_eq!(is_finite(&r), reference(&r), "entry {i} = {b}");
                        assert!(!is_finite(&r));
                        rejected += 1;
                    }
                }
            }
        }
        assert_eq!(rejected, 8 * 3 * (12 + 5 + 6 + 2));
    }

    /// `Route::Balls` against the general rounded-linear solver it short-cuts: for points and
    /// spheres at random poses (apart, touching to the last bits, overlapping, concentric),
    /// the two answers are equal field by field.
    #[test]
    fn balls_route_is_the_rounded_linear_answer_bit_for_bit() {
        use nalgebra::{Matrix3, Rotation3};

        use super::{distance_balls, distance_rounded_linear};
        use crate::pose::Pose;
        use crate::query::QuerySettings;
        use crate::shape::{Point as PointShape, Shape, Sphere};

        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut rnd = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let settings = QuerySettings::default();
        let mut compared = 0;
        for k in 0..2000 {
            let pose = |angles: [f64; 3], t: Vector3<f64>| {
                let r = Rotation3::from_euler_angles(3.0 * angles[0], 3.0 * angles[1], 3.0 * angles[2]);
                Pose::from_matrix(Matrix3::from(r), t).unwrap()
            };
            let ball = |kind: usize, r: f64, c: [f64; 3]| match kind {
                0 => Shape::Point(PointShape::new(c).unwrap()),
                _ => Shape::Sphere(Sphere::new(r).unwrap()),
            };
            let (ra, rb) = (0.1 + rnd().abs(), 0.1 + rnd().abs());
            let ta = Vector3::new(rnd(), rnd(), rnd()) * 3.0;
            // Apart, overlapping, touching (centres ra + rb apart) or concentric.
            let dir = Vector3::new(rnd(), rnd(), rnd()).normalize();
            let tb = match k % 4 {
                0 => ta + dir * (ra + rb + 2.0 * rnd().abs()),
                1 => ta + dir * ((ra + rb) * rnd().abs()),
                2 => ta + dir * (ra + rb),
                _ => ta,
            };
            let (a, b) =
                (ball(k % 2, ra, [rnd(), rnd(), rnd()]), ball((k / 2) % 2, rb, [rnd(), rnd(), rnd()]));
            let (pa, pb) = (pose([rnd(), rnd(), rnd()], ta), pose([rnd(), rnd(), rnd()], tb));
            let fast = distance_balls(&a, &pa, &b, &pb, &settings).unwrap();
            let general = distance_rounded_linear(&a, &pa, &b, &pb, &settings).unwrap();
            assert_eq!(fast, general, "{a:?} {pa:?} {b:?} {pb:?}");
            compared += 1;
        }
        assert_eq!(compared, 2000);
    }
}
