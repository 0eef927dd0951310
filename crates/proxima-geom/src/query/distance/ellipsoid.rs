//! Adapter from shapes and poses to the ellipsoid solvers ([`crate::ellipsoid`]).
//!
//! | pair (canonical order) | solver |
//! |---|---|
//! | point / sphere – ellipsoid | closest point of the solid ellipsoid to the centre (secular equation), radius added back |
//! | ellipsoid – ellipsoid | Newton on the support-function dual (cost flat near contact), duality-gap stop |
//! | ellipsoid – convex polytope / polyhedron | vertex / edge / facet active set against the ellipsoid |
//!
//! | segment / capsule / triangle – ellipsoid, cores apart (`Auto`) | Newton on the segment–ellipsoid optimality conditions per edge, the face by the support point ([`distance_apart`]); GJK/EPA otherwise |
//!
//! The solvers' witnesses (a common point when the shapes meet) and their proven lower bound
//! go through the shared case analysis (`certificate::finish`), so touching tolerance,
//! round-off floor and certificate rules are the ones of every other pair. A polytope answer
//! comes back with the polytope first and is flipped to the canonical order here.

use nalgebra::Point3;

use super::super::certificate::{Along, Core, Radii, finish, finish_along_witness, witness_direction};
use crate::ellipsoid::segment_ellipsoid::closest_segment_ellipsoid;
use crate::ellipsoid::{
    EllipsoidDistance, EllipsoidSettings, distance_ellipsoid_ellipsoid, distance_point_ellipsoid,
    distance_polyhedron_ellipsoid, distance_polytope_ellipsoid,
};
use crate::error::GeomError;
use crate::pose::Pose;
use crate::query::dispatch::{as_ball, as_rounded_linear};
use crate::query::{Algorithm, DistanceResult, QueryPath, QuerySettings};
use crate::shape::Shape;

/// Whether the pair (in canonical order, either order accepted) has an ellipsoid solver.
pub(crate) fn available(a: &Shape, b: &Shape) -> bool {
    use Shape as S;
    let other = |s: &Shape| {
        matches!(s, S::Point(_) | S::Sphere(_) | S::Ellipsoid(_) | S::ConvexPolytope(_) | S::Polyhedron(_))
    };
    (matches!(a, S::Ellipsoid(_)) && other(b)) || (matches!(b, S::Ellipsoid(_)) && other(a))
}

/// Whether `Auto` takes the ellipsoid solvers for the pair: an ellipsoid against a point, a
/// sphere or an ellipsoid. A polytope or polyhedron against an ellipsoid goes to GJK with
/// the Newton polish instead (the solvers stay available with `Algorithm::Ellipsoid`):
/// measured on separated pairs (`examples`-style probe, a 40-vertex hull), GJK takes 1565 ns
/// against 3480 for the active set, 4445 against 38600 at 1000 vertices, with answers 7e-11
/// apart and GJK's gap within its 1e-10 × scale tolerance; overlapping pairs also get their
/// depth from EPA, which the ellipsoid solvers do not give.
pub(crate) fn preferred(a: &Shape, b: &Shape) -> bool {
    use Shape as S;
    let other = |s: &Shape| matches!(s, S::Point(_) | S::Sphere(_) | S::Ellipsoid(_));
    (matches!(a, S::Ellipsoid(_)) && other(b)) || (matches!(b, S::Ellipsoid(_)) && other(a))
}

/// The ellipsoid answer for a pair in canonical order (the ellipsoid after a point or sphere,
/// before a polytope or polyhedron).
pub(crate) fn distance(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    use Shape as S;
    let es = EllipsoidSettings::default();
    let shapes = (a, pa, b, pb);
    let done = |qa: Point3<f64>, qb: Point3<f64>, lower: Option<f64>, iterations: usize, radii: Radii| {
        let core = Core { qa, qb, core_depth: None, lower_hint: lower };
        let path = QueryPath::Ellipsoid { iterations: u32::try_from(iterations).unwrap_or(u32::MAX) };
        Ok(finish(core, radii, shapes, settings, Algorithm::Ellipsoid, path))
    };
    let from = |r: EllipsoidDistance, flip: bool| {
        let (wa, wb) = r.witnesses().ok_or(GeomError::Degenerate {
            what: "ellipsoid solver: shapes meet but no common point was returned",
        })?;
        let (qa, qb) = if flip { (wb, wa) } else { (wa, wb) };
        done(qa, qb, Some(r.certificate.lower), r.iterations, Radii { a: 0.0, b: 0.0 })
    };
    match (a, b) {
        (S::Point(_) | S::Sphere(_), S::Ellipsoid(e)) => {
            let internal = GeomError::Degenerate { what: "internal: ball route without a ball" };
            let (c, r) = as_ball(a, pa).ok_or(internal)?;
            let d = distance_point_ellipsoid(&c, e, pb)?;
            // Inside or on the solid: the centre itself is the common point of the cores.
            let qb = if d.info.distance > 0.0 { d.closest } else { c };
            done(c, qb, None, d.info.iterations, Radii { a: r, b: 0.0 })
        }
        (S::Ellipsoid(x), S::Ellipsoid(y)) => from(distance_ellipsoid_ellipsoid(x, pa, y, pb, &es)?, false),
        (S::Ellipsoid(e), S::ConvexPolytope(p)) => {
            from(distance_polytope_ellipsoid(p, pb, e, pa, &es)?, true)
        }
        (S::Ellipsoid(e), S::Polyhedron(p)) => from(distance_polyhedron_ellipsoid(p, pb, e, pa, &es)?, true),
        _ => Err(GeomError::Degenerate { what: "internal: pair does not match the ellipsoid route" }),
    }
}

/// Whether the pair (canonical order) is a segment, capsule or triangle against an ellipsoid:
/// answered by [`distance_apart`] when the cores are apart (`Auto`, cold).
pub(crate) fn apart_pair(a: &Shape, b: &Shape) -> bool {
    matches!(a, Shape::Segment(_) | Shape::Capsule(_) | Shape::Triangle(_))
        && matches!(b, Shape::Ellipsoid(_))
}

/// A segment, capsule or triangle (`a`) against an ellipsoid (`b`) when the cores are apart, by
/// Newton on the segment–ellipsoid optimality conditions (`ellipsoid/segment_ellipsoid.rs`):
/// the capsule's axis, or for a triangle its face (the ellipsoid's support point towards the
/// triangle's plane, when it projects inside the triangle: then closest, proven by the
/// separation along the normal), else its edges, nearest to the centre first, until one's
/// pair is proven closest by the separation along its direction (the minimum over the three
/// otherwise). The lower bound is
/// the cores' separation along the witness direction from their support functions (the
/// ellipsoid's |D Rᵀn| + n·c, the piece's endpoints or the triangle's vertices); `None` when the
/// cores meet, a candidate is missing, or that bound does not meet the witnesses' distance to
/// GJK's tolerance (GJK/EPA answer then).
pub(crate) fn distance_apart(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Option<DistanceResult> {
    let Shape::Ellipsoid(e) = b else { return None };
    let (rot, c) = (pb.rotation(), pb.translation());
    let radii = e.radii();
    // The cores' separation along the unit n (weak duality): the ellipsoid's support
    // function n·c − |D Rᵀn| on its side, the corners' (segment ends, triangle vertices).
    let separation = |n: &nalgebra::Vector3<f64>, corners: &[Point3<f64>; 3]| {
        let h_core = corners.iter().map(|p| n.dot(&p.coords)).fold(f64::NEG_INFINITY, f64::max);
        n.dot(c) - rot.tr_mul(n).component_mul(&radii).norm() - h_core
    };
    let tolerance = settings.gjk.tolerance;
    // Whether the pair (x on the triangle, y on the ellipsoid) is proven closest.
    let closes = |x: &Point3<f64>, y: &Point3<f64>, corners: &[Point3<f64>; 3]| {
        witness_direction(x, y)
            .is_some_and(|(n, len)| len - separation(&n, corners) <= tolerance * len.max(1.0))
    };
    // Closest points of the world segment [p, q] and the ellipsoid (world), Newton steps.
    let segment = |p: &Point3<f64>, q: &Point3<f64>| {
        let (t, x, steps) =
            closest_segment_ellipsoid(&radii, &rot.tr_mul(&(p.coords - c)), &rot.tr_mul(&(q - p)))?;
        Some((p + (q - p) * t, Point3::from(rot * x + c), steps))
    };
    let (qa, qb, steps, radius, corners) = match a {
        Shape::Segment(_) | Shape::Capsule(_) => {
            let (piece, r) = as_rounded_linear(a, pa)?;
            let (p, q) = (piece.origin + piece.dir * piece.lo, piece.origin + piece.dir * piece.hi);
            let (x, y, steps) = segment(&p, &q)?;
            (x, y, steps, r, [p, q, q])
        }
        Shape::Triangle(t) => {
            let v = t.vertices().map(|v| pa.transform_point(&v));
            // The face candidate, when it exists, is proven closest by the separation along
            // the face normal (checked below with the others).
            if let Some((x, y)) = face_candidate(&v, &radii, rot, c) {
                (x, y, 0, 0.0, v)
            } else {
                // The edges by their distance to the centre (the nearest is usually closest):
                // each new best pair is checked for its separation certificate, which ends
                // the search early.
                let centre = Point3::from(*c);
                let mut order = [(0, 1), (1, 2), (2, 0)].map(|(i, j)| {
                    let e = v[j] - v[i];
                    let s = ((centre - v[i]).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
                    ((v[i] + e * s - centre).norm_squared(), i, j)
                });
                order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
                let mut best: Option<(Point3<f64>, Point3<f64>)> = None;
                let mut steps = 0;
                for (_, i, j) in order {
                    let (x, y, k) = segment(&v[i], &v[j])?;
                    steps += k;
                    if best.is_none_or(|(bx, by)| (y - x).norm_squared() < (by - bx).norm_squared()) {
                        best = Some((x, y));
                        if closes(&x, &y, &v) {
                            break;
                        }
                    }
                }
                let (x, y) = best?;
                (x, y, steps, 0.0, v)
            }
        }
        _ => return None,
    };
    let (n, len) = witness_direction(&qa, &qb)?;
    let core_sep = separation(&n, &corners);
    let gap = len - core_sep;
    if gap.is_nan() || gap > tolerance * len.max(1.0) {
        return None;
    }
    let along = Some(Along { n, len, core_sep });
    let core = Core { qa, qb, core_depth: None, lower_hint: None };
    let path = QueryPath::Ellipsoid { iterations: u32::try_from(steps).unwrap_or(u32::MAX) };
    Some(finish_along_witness(
        core,
        Radii { a: radius, b: 0.0 },
        (a, pa, b, pb),
        settings,
        Algorithm::Ellipsoid,
        path,
        along,
    ))
}

/// The face candidate of a world triangle `v` against the ellipsoid (radii, rotation, centre):
/// the ellipsoid's point deepest towards the triangle's plane and its projection onto the
/// plane, when the ellipsoid lies strictly on one side and the projection falls inside the
/// triangle (else the closest points involve an edge, or the shapes meet).
fn face_candidate(
    v: &[Point3<f64>; 3],
    radii: &nalgebra::Vector3<f64>,
    rot: &nalgebra::Matrix3<f64>,
    c: &nalgebra::Vector3<f64>,
) -> Option<(Point3<f64>, Point3<f64>)> {
    let normal = (v[1] - v[0]).cross(&(v[2] - v[0]));
    // Oriented from the plane towards the centre.
    let m = if normal.dot(&(c - v[0].coords)) >= 0.0 { normal } else { -normal };
    let m = m.try_normalize(0.0)?;
    // The support point of the ellipsoid along −m: c − R D² Rᵀm / |D Rᵀm|.
    let ml = rot.tr_mul(&m).component_mul(radii);
    let len = ml.norm();
    let s = Point3::from(c - rot * (ml.component_mul(radii) / len));
    let height = m.dot(&(s - v[0]));
    if height.is_nan() || height <= 0.0 {
        return None;
    }
    let y = s - m * height;
    let inside = [(0, 1), (1, 2), (2, 0)]
        .into_iter()
        .all(|(i, j)| (v[j] - v[i]).cross(&(y - v[i])).dot(&normal) >= 0.0);
    inside.then_some((y, s))
}
