//! Adapter from shapes and poses to DQP3 ([`crate::dqp3`]), with every answer checked against
//! the shapes the user gave, never against the facet forms DQP3 ran on.
//!
//! DQP3 works on half-space forms ([`FacetPolyhedron`]: a box by its six planes, a half-space
//! polyhedron by its half-spaces, a vertex polytope by the grouped facets of its exact hull). A
//! facet form is a *derived* representation: if it disagreed with its source (a facet missing,
//! a plane tilted), DQP3 would return a tight bracket around the wrong distance. So nothing of
//! DQP3's own certificate is used:
//!
//! * **Upper bound**: each witness x is *snapped* onto the source shape — for a vertex polytope
//!   the closest point of the hull triangles of x's active facets (a convex combination of
//!   input points; the neighbouring facets' triangles too when x is farther than the facet form's
//!   tolerance from them), for a box the clamp into the box, for a half-space polyhedron x itself
//!   when it satisfies the user's half-spaces to 1e-9 × (1 + max |d|) (else the answer is
//!   refused). upper = |q_b − q_a| for the snapped points q_a ∈ A, q_b ∈ B.
//! * **Lower bound**: the separation of the source shapes along n = (q_b − q_a)/|q_b − q_a|,
//!   −h_B(−n) − h_A(n), from their support functions (hill-climbing from a vertex of the
//!   witness's facet on large hulls), through the shared case analysis (`certificate.rs`), which
//!   also tries the shapes' feature axes when that bound is loose.
//! * **Contact**: a common point is accepted only when it lies in both source shapes — exactly
//!   (Shewchuk's orientation predicate against every hull triangle) for a vertex polytope, in
//!   the box, or within the tolerance above of every half-space.
//!
//! An answer whose bracket is wider than `gap_tolerance × scale` after this, a run that did
//! not end `Optimal`, or a refused witness is **recomputed by GJK** on the source shapes (the
//! result then says [`Algorithm::Gjk`]): DQP3 may be slow or overruled, never wrong.
//!
//! [`Algorithm::Dqp3`] routes here (cold: both facet forms are built per call, O(m log m)); for
//! repeated queries build [`FacetShape`](crate::FacetShape)s once and track with
//! [`Dqp3ShapeTracker`](crate::Dqp3ShapeTracker).

use nalgebra::{Point3, Vector3};
use robust::{Coord3D, orient3d};

use super::super::certificate::{Core, Radii, finish_along_witness};
use crate::dqp3::{
    Dqp3Outcome, Dqp3Result, Dqp3Settings, Dqp3Status, FacetPolyhedron, HullFacets, distance_dqp3_active,
    facet_form,
};
use crate::error::GeomError;
use crate::gjk::{GjkCache, closest_to_origin};
use crate::pose::Pose;
use crate::query::{Algorithm, DistanceResult, QueryPath, QuerySettings};
use crate::shape::Shape;

/// Whether both shapes have a facet form.
pub(crate) fn available(a: &Shape, b: &Shape) -> bool {
    let facets = |s: &Shape| matches!(s, Shape::Cuboid(_) | Shape::ConvexPolytope(_) | Shape::Polyhedron(_));
    facets(a) && facets(b)
}

/// One side of a pair: the source shape, its facet form and pose.
#[derive(Clone, Copy)]
pub(crate) struct Side<'s> {
    pub shape: &'s Shape,
    pub facets: &'s FacetPolyhedron,
    pub pose: &'s Pose,
}

/// Witness snapping tolerance beyond which the neighbouring facets are searched too.
fn snap_slack(h: &HullFacets) -> f64 {
    4.0 * h.tolerance
}

/// The point of the source shape that stands for DQP3's witness `x` (world frame), and a
/// support hint (an input vertex index of its facet, for hill climbing). `None` when the
/// witness cannot be placed on the source (it is then refused).
fn snap(side: &Side<'_>, x: &Point3<f64>, active: &[u32]) -> Option<(Point3<f64>, u32)> {
    let local = side.pose.inverse_transform_point(x);
    match side.shape {
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            let q = Point3::new(local.x.clamp(-h.x, h.x), local.y.clamp(-h.y, h.y), local.z.clamp(-h.z, h.z));
            Some((side.pose.transform_point(&q), u32::MAX))
        }
        Shape::Polyhedron(p) => {
            let dmax = p.offsets().iter().fold(1.0f64, |s, d| s.max(d.abs()));
            let tol = 1e-9 * dmax;
            let inside = p.normals().iter().zip(p.offsets()).all(|(n, d)| n.dot(&local.coords) <= d + tol);
            inside.then_some((*x, u32::MAX))
        }
        Shape::ConvexPolytope(_) => {
            let h = side.facets.hull()?;
            let (q, vertex) = snap_to_hull(h, &local, active)?;
            Some((side.pose.transform_point(&q), h.input_indices[vertex as usize] as u32))
        }
        _ => None,
    }
}

/// The closest point to `x` (local frame) on the hull triangles of the facets `active`, and on
/// their neighbours' when it is not within the snapping slack; with a vertex of its triangle.
fn snap_to_hull(h: &HullFacets, x: &Point3<f64>, active: &[u32]) -> Option<(Point3<f64>, u32)> {
    let mut best: Option<(f64, Point3<f64>, u32)> = None;
    let visit = |g: usize, best: &mut Option<(f64, Point3<f64>, u32)>| {
        for t in h.facet_triangles(g) {
            let [a, b, c] = t.map(|i| h.vertices[i as usize].coords - x.coords);
            let v = closest_to_origin([a, b, c]);
            let d = v.norm_squared();
            if best.is_none_or(|(e, _, _)| d < e) {
                *best = Some((d, Point3::from(x.coords + v), t[0]));
            }
        }
    };
    for &g in active {
        visit(g as usize, &mut best);
    }
    let slack = snap_slack(h);
    if best.is_none_or(|(d, _, _)| d > slack * slack) {
        for &g in active {
            let (s, e) = (h.nb_start[g as usize] as usize, h.nb_start[g as usize + 1] as usize);
            for &k in &h.neighbours[s..e] {
                visit(k as usize, &mut best);
            }
        }
    }
    best.map(|(_, q, v)| (q, v))
}

/// Whether the world point `p` lies in the source shape, to the round-off floor `tol` (a
/// common point on the boundary of one shape may come out a few ulps outside; see the module
/// docs).
fn source_contains(side: &Side<'_>, p: &Point3<f64>, tol: f64) -> bool {
    let local = side.pose.inverse_transform_point(p);
    match side.shape {
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            local.x.abs() <= h.x + tol && local.y.abs() <= h.y + tol && local.z.abs() <= h.z + tol
        }
        Shape::Polyhedron(poly) => {
            let dmax = poly.offsets().iter().fold(1.0f64, |s, d| s.max(d.abs()));
            let tol = tol.max(1e-9 * dmax);
            poly.normals().iter().zip(poly.offsets()).all(|(n, d)| n.dot(&local.coords) <= d + tol)
        }
        Shape::ConvexPolytope(_) => side.facets.hull().is_some_and(|h| hull_contains(h, &local, tol)),
        _ => false,
    }
}

fn coord(p: &Point3<f64>) -> Coord3D<f64> {
    Coord3D { x: p.x, y: p.y, z: p.z }
}

/// On or below every (outward, counter-clockwise) hull triangle: exactly (orientation
/// predicate), or above by at most `tol` (distance to the triangle's plane).
fn hull_contains(h: &HullFacets, p: &Point3<f64>, tol: f64) -> bool {
    let q = coord(p);
    h.triangles.iter().all(|t| {
        let [a, b, c] = t.map(|i| coord(&h.vertices[i as usize]));
        // robust's orient3d is negative when the point is above the plane of a triangle seen
        // counter-clockwise.
        orient3d(a, b, c, q) >= 0.0 || {
            let [a, b, c] = t.map(|i| h.vertices[i as usize]);
            let n = (b - a).cross(&(c - a));
            n.dot(&(p - a)) <= tol * n.norm()
        }
    })
}

/// The support point of a source shape along the world direction `n` from the vertex hint
/// `hint` (an input vertex index, or `u32::MAX`), as h(n) = n·s(n).
fn support_value_hinted(shape: &Shape, pose: &Pose, n: &Vector3<f64>, hint: u32) -> f64 {
    let m = pose.rotation().tr_mul(n);
    let mut h = hint;
    match shape.local_support_hinted(&m, &mut h) {
        Some(p) => n.dot(&pose.transform_point(&p).coords),
        None => f64::INFINITY,
    }
}

/// DQP3's answer certified against the source shapes, or `None` when it is refused (see the
/// module docs). `active`: the active facet indices of a and b after the run.
pub(crate) fn certify(
    a: Side<'_>,
    b: Side<'_>,
    r: &Dqp3Result,
    active: (&[u32], &[u32]),
    settings: &QuerySettings,
) -> Option<DistanceResult> {
    if r.status != Dqp3Status::Optimal {
        return None;
    }
    let path = QueryPath::Dqp3 { passes: u32::try_from(r.passes).unwrap_or(u32::MAX) };
    let shapes = (a.shape, a.pose, b.shape, b.pose);
    let radii = Radii { a: 0.0, b: 0.0 };
    let scale = pair_scale(&a, &b);
    match r.outcome {
        Dqp3Outcome::Intersecting { point } => {
            let floor = 64.0 * f64::EPSILON * point.coords.amax().max(1.0);
            if !(source_contains(&a, &point, floor) && source_contains(&b, &point, floor)) {
                return None;
            }
            let core = Core { qa: point, qb: point, core_depth: None, lower_hint: None };
            Some(finish_along_witness(core, radii, shapes, settings, Algorithm::Dqp3, path, None))
        }
        Dqp3Outcome::Separated { point_a, point_b, .. } => {
            let (qa, hint_a) = snap(&a, &point_a, active.0)?;
            let (qb, hint_b) = snap(&b, &point_b, active.1)?;
            let diff = qb - qa;
            let len = diff.norm();
            if !(len > 0.0 && len.is_finite()) {
                return None;
            }
            let n = diff / len;
            let sep = -support_value_hinted(b.shape, b.pose, &-n, hint_b)
                - support_value_hinted(a.shape, a.pose, &n, hint_a);
            let core = Core { qa, qb, core_depth: None, lower_hint: None };
            let res = finish_along_witness(core, radii, shapes, settings, Algorithm::Dqp3, path, Some(sep));
            let c = res.certificate;
            (c.upper - c.lower <= settings.gap_tolerance * scale).then_some(res)
        }
    }
}

/// max(1, circumradii + distance between the facet forms' centroids) in the world frame.
fn pair_scale(a: &Side<'_>, b: &Side<'_>) -> f64 {
    let ca = a.pose.transform_point(&a.facets.centroid());
    let cb = b.pose.transform_point(&b.facets.centroid());
    (a.facets.circumradius() + b.facets.circumradius() + (cb - ca).norm()).max(1.0)
}

/// The GJK answer on the source shapes that replaces a refused DQP3 answer (warm when a cache
/// is given).
pub(crate) fn recompute(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
    cache: Option<&mut GjkCache>,
) -> Result<DistanceResult, GeomError> {
    let mut gjk = settings.clone();
    gjk.algorithm = Algorithm::Gjk;
    match cache {
        Some(c) => crate::query::distance_tracked(a, pa, b, pb, &gjk, c),
        None => crate::query::distance(a, pa, b, pb, &gjk),
    }
}

/// Cold DQP3 between two facet forms, certified against their source shapes or recomputed by
/// GJK.
pub(crate) fn distance_sides(a: Side<'_>, b: Side<'_>, settings: &QuerySettings) -> Result<DistanceResult, GeomError> {
    let (r, active) = distance_dqp3_active(a.facets, a.pose, b.facets, b.pose, &Dqp3Settings::default())?;
    match certify(a, b, &r, (active.of(0), active.of(1)), settings) {
        Some(res) => Ok(res),
        None => recompute(a.shape, a.pose, b.shape, b.pose, settings, None),
    }
}

/// DQP3 answer for the (canonically ordered) pair (both facet forms built per call).
pub(crate) fn distance(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    let (fa, fb) = (facet_form(a)?, facet_form(b)?);
    distance_sides(Side { shape: a, facets: &fa, pose: pa }, Side { shape: b, facets: &fb, pose: pb }, settings)
}
