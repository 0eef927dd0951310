//! Closest points of a triangle and a box, when they are apart: three segment–box closed forms
//! and one vertex–triangle projection, before (and instead of) the LCP triangle–box kernel.
//!
//! # Maths
//!
//! For a disjoint triangle T and box B, take a closest pair (x, y), x ∈ T, y ∈ B. Either
//!
//! * x lies on an edge of T: then (x, y) is a closest pair of that edge (a segment) and B,
//!   which the segment–box closed form (`distance_segment_box`) finds; or
//! * x is interior to T: the gradient of |x − y|² along T vanishes, so y − x is along T's
//!   normal m (oriented towards B) and y minimises m·y over B: y is in B's support set in the
//!   direction −m, whose vertex v (each local coordinate at lo or hi by the sign of m's) has
//!   the same height over T's plane. If v projects into T, (projection, v) is a closest pair.
//!   Otherwise the projections of T and of the support set (a face, an edge or v) overlap
//!   without containing v's projection, so the overlap has a point on an edge of T (or all of
//!   T projects into the support face, vertices included): the edge case above reaches the
//!   same distance.
//!
//! The distance is therefore the minimum over four candidates, each a pair of points of T and
//! B, so the minimum is also an upper bound whatever the configuration. The caller's
//! certificate (the separation of the user's shapes along the witness direction) must still
//! close the bracket, else the LCP kernel answers.
//!
//! # Edge cases
//!
//! * An edge meeting the box (the segment closed form returns `None`): the shapes meet; `None`
//!   (contact and its depth are the kernel's, or GJK/EPA's). A box piercing T's interior with
//!   no edge of T meeting it is not detected here: its best candidate is positive, but no
//!   direction separates the shapes, so the certificate does not close and the caller falls
//!   back.
//! * Non-finite values (coordinates near `f64::MAX`): `None`.

use nalgebra::Point3;

use super::distance_flat_cylinder::closed_if_certified;
use super::distance_point_cuboid::PosedBox;
use super::distance_segment_box::closest_segment_box;
use super::distance_segment_segment::LinearPiece;
use crate::gjk::closest_to_origin;
use crate::pose::Pose;
use crate::query::{DistanceResult, QuerySettings};
use crate::shape::Shape;

/// Closest points (on the triangle, on the box), world frame, of the world triangle `tri`
/// and the posed box `bx`; `None` when they meet (see the module docs) or a value is not
/// finite.
pub(crate) fn closest_triangle_box(
    tri: &[Point3<f64>; 3],
    bx: &PosedBox,
) -> Option<(Point3<f64>, Point3<f64>)> {
    let mut best = (f64::INFINITY, Point3::origin(), Point3::origin());
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        let edge = LinearPiece { origin: tri[i], dir: tri[j] - tri[i], lo: 0.0, hi: 1.0 };
        let (on_edge, on_box) = closest_segment_box(&edge, bx)?;
        let d2 = (on_box - on_edge).norm_squared();
        if d2 < best.0 {
            best = (d2, on_edge, on_box);
        }
    }
    // The box's vertex lowest over the triangle's plane (normal towards the box's centre).
    let r = bx.pose.rotation();
    let centre = bx.pose.transform_point(&Point3::from((bx.lo + bx.hi) * 0.5));
    let m = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
    let m = if m.dot(&(centre - tri[0])) < 0.0 { -m } else { m };
    let local = r.transpose() * m;
    let corner = Point3::from(local.zip_zip_map(&bx.lo, &bx.hi, |s, lo, hi| if s > 0.0 { lo } else { hi }));
    let v = bx.pose.transform_point(&corner);
    let on_tri = v + closest_to_origin(tri.map(|p| p - v));
    let d2 = (v - on_tri).norm_squared();
    if d2 < best.0 {
        best = (d2, on_tri, v);
    }
    let (d2, x, y) = best;
    (d2 > 0.0 && d2.is_finite()).then_some((x, y))
}

/// Triangle (`a`, canonical order) – cuboid or aligned box (`b`) by [`closest_triangle_box`],
/// when its certificate closes (`closed_if_certified`); `None` otherwise (other pairs,
/// contact, or an unproven answer: the caller runs the LCP kernel).
pub(crate) fn distance_triangle_box(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Option<DistanceResult> {
    let Shape::Triangle(t) = a else { return None };
    let bx = crate::query::dispatch::as_box(b, pb)?;
    let (qa, qb) = closest_triangle_box(&t.vertices().map(|v| pa.transform_point(&v)), &bx)?;
    closed_if_certified(qa, qb, false, (a, pa, b, pb), settings)
}
