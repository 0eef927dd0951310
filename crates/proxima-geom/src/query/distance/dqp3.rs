//! Adapter from shapes and poses to DQP3 ([`crate::dqp3`]), with every answer checked against
//! the shapes the user gave.
//!
//! DQP3 works on half-space forms ([`FacetPolyhedron`]: a box by its six planes, a half-space
//! polyhedron by its half-spaces, a vertex polytope by the grouped facets of its exact hull). A
//! facet form is a *derived* representation: if it disagreed with its source (a facet missing,
//! a plane tilted), DQP3 would return a tight bracket around the wrong distance. So:
//!
//! * **Upper bound**: each witness x is *snapped* onto the source shape — for a vertex polytope
//!   a point of the hull triangles of x's first active facet (a convex combination of input
//!   points: x's clamped barycentric point in a single-triangle facet, x's projection onto
//!   the triangle that holds it in a facet of several, else the closest point;
//!   the other active facets' and the neighbouring facets' triangles too when that is farther
//!   than 4× the facet form's merge tolerance from x), for a box the clamp into the box,
//!   for a half-space polyhedron x itself when it satisfies the user's half-spaces to
//!   1e-9 × max(1, max |d|) (else the answer is refused). upper = |q_b − q_a| for the snapped
//!   points q_a ∈ A, q_b ∈ B: points of the user's shapes, whatever DQP3 did.
//! * **Lower bound**: DQP3's multiplier certificate (see [`crate::dqp3`]) bounds the distance
//!   between the two facet forms from below, and every facet form contains its source: a box's
//!   and a polyhedron's are the user's own half-spaces, a vertex polytope's is verified at
//!   construction to contain every input point (its offsets padded against rounding). A facet
//!   form *larger* than its source only weakens that bound (and moves the snapped witnesses),
//!   so the bracket stays proven; the gap says how good it is.
//! * **Contact**: DQP3's common point lies in the facet forms, which may exceed the shapes;
//!   contact is therefore decided by GJK on the source shapes (its proof: a simplex of support
//!   points around the origin), warm-started when tracking. The answer then says
//!   [`Algorithm::Gjk`].
//!
//! A separated answer whose bracket is wider than `gap_tolerance × scale`, whose DQP3 lower
//! bound exceeds the snapped upper bound, a run that did not end `Optimal`, or a witness that
//! cannot be placed on its shape is **refused** and recomputed by GJK on the source shapes:
//! DQP3 may be slow or overruled, never wrong.
//!
//! [`Algorithm::Dqp3`] routes here (cold: both facet forms are built per call, O(m log m)); for
//! repeated queries build [`FacetShape`](crate::FacetShape)s once and track with
//! [`Dqp3ShapeTracker`](crate::Dqp3ShapeTracker).

use nalgebra::Point3;

use super::super::certificate::{Core, Radii, finish};
use super::super::verify;
use crate::dqp3::{
    ActiveSets, Dqp3Outcome, Dqp3Result, Dqp3Settings, Dqp3Status, FacetPolyhedron, HullFacets,
    TriangleFrame, distance_dqp3_active, facet_form,
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

/// The point of the source shape that stands for DQP3's witness `x` (world frame), given as
/// DQP3 computed it: `local` in the object frame, `x` = `local` placed by the pose; `None`
/// when the witness cannot be placed on the source (it is then refused). (The object-frame
/// point is DQP3's own state: no inverse transform, and for a rotation off by its rounding
/// no Rᵀ ≠ R⁻¹ drift either.)
fn snap(side: &Side<'_>, x: &Point3<f64>, local: Point3<f64>, active: &[u32]) -> Option<Point3<f64>> {
    match side.shape {
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            let q = Point3::new(local.x.clamp(-h.x, h.x), local.y.clamp(-h.y, h.y), local.z.clamp(-h.z, h.z));
            Some(side.pose.transform_point(&q))
        }
        Shape::Polyhedron(p) => {
            let dmax = p.offsets().iter().fold(1.0f64, |s, d| s.max(d.abs()));
            let tol = 1e-9 * dmax;
            let inside = p.normals().iter().zip(p.offsets()).all(|(n, d)| n.dot(&local.coords) <= d + tol);
            inside.then_some(*x)
        }
        Shape::ConvexPolytope(_) => {
            let q = snap_to_hull(side.facets.hull()?, &local, active)?;
            Some(side.pose.transform_point(&q))
        }
        _ => None,
    }
}

/// A point of the hull triangles near `x` (local frame): first the point with x's barycentric
/// coordinates in the first triangle of the first active facet (clamped into the triangle),
/// which is x itself up to rounding when x lies on that triangle, as DQP3's witnesses do when
/// the facet is a single triangle; when that is not within the snapping slack, the closest
/// point of every triangle of the active facets and their neighbours.
fn snap_to_hull(h: &HullFacets, x: &Point3<f64>, active: &[u32]) -> Option<Point3<f64>> {
    let slack = snap_slack(h);
    let first = *active.first()? as usize;
    let range = h.facet_range(first);
    if range.len() == 1 {
        let q = clamped_barycentric(&h.frames[range.start], x);
        if (q - x).norm_squared() <= slack * slack {
            return Some(q);
        }
    } else {
        // A facet of several (near-)coplanar triangles: the one whose plane projection of x
        // falls inside it gives that projection, a point of the triangle as near x as the
        // closest-point search below would find up to the facet's flatness (within the slack).
        for f in &h.frames[range] {
            if let Some(q) = barycentric_inside(f, x)
                && (q - x).norm_squared() <= slack * slack
            {
                return Some(q);
            }
        }
    }
    let mut best: Option<(f64, Point3<f64>)> = None;
    let visit = |g: usize, best: &mut Option<(f64, Point3<f64>)>| {
        for t in h.facet_triangles(g) {
            let [a, b, c] = t.map(|i| h.vertices[i as usize].coords - x.coords);
            let v = closest_to_origin([a, b, c]);
            let d = v.norm_squared();
            if best.is_none_or(|(e, _)| d < e) {
                *best = Some((d, Point3::from(x.coords + v)));
            }
        }
    };
    visit(first, &mut best);
    if best.is_none_or(|(d, _)| d > slack * slack) {
        for &g in active {
            visit(g as usize, &mut best);
            let (s, e) = (h.nb_start[g as usize] as usize, h.nb_start[g as usize + 1] as usize);
            for &k in &h.neighbours[s..e] {
                visit(k as usize, &mut best);
            }
        }
    }
    best.map(|(_, q)| q)
}

/// The projection of x onto the plane of triangle `f` when it lies inside the triangle
/// (barycentric coordinates λ ≥ 0, λ1 + λ2 ≤ 1, see [`barycentric`]): then the same point as
/// [`clamped_barycentric`] gives; `None` outside or for a degenerate triangle.
fn barycentric_inside(f: &TriangleFrame, x: &Point3<f64>) -> Option<Point3<f64>> {
    let (l1, l2) = barycentric(f, x);
    (l1 >= 0.0 && l2 >= 0.0 && l1 + l2 <= 1.0 && l1.is_finite() && l2.is_finite())
        .then(|| f.a + f.e1 * l1 + f.e2 * l2)
}

/// The point a + λ1 (b − a) + λ2 (c − a) of triangle `f` with x's barycentric coordinates in
/// its plane, clamped to λ ≥ 0, λ1 + λ2 ≤ 1: a point of the triangle (a convex combination of
/// its corners), equal to x's projection when that lies inside.
fn clamped_barycentric(f: &TriangleFrame, x: &Point3<f64>) -> Point3<f64> {
    let (mut l1, mut l2) = barycentric(f, x);
    if !(l1.is_finite() && l2.is_finite()) {
        return f.a;
    }
    (l1, l2) = (l1.max(0.0), l2.max(0.0));
    let sum = l1 + l2;
    if sum > 1.0 {
        (l1, l2) = (l1 / sum, l2 / sum);
    }
    f.a + f.e1 * l1 + f.e2 * l2
}

/// The coordinates (λ1, λ2) of x's projection onto the plane of triangle `f`,
/// a + λ1 (b − a) + λ2 (c − a) (non-finite for a degenerate triangle), by the triangle's
/// stored inverse Gram matrix.
fn barycentric(f: &TriangleFrame, x: &Point3<f64>) -> (f64, f64) {
    let w = x.coords - f.a.coords;
    let (w1, w2) = (w.dot(&f.e1), w.dot(&f.e2));
    let [i22, i12, i11] = f.inv;
    (w1 * i22 - w2 * i12, w2 * i11 - w1 * i12)
}

/// What the check of a DQP3 answer against the source shapes concluded.
pub(crate) enum Verdict {
    /// A separated answer, bracket proven for the source shapes.
    Certified(DistanceResult),
    /// DQP3 found a common point of the facet forms: contact is for GJK to prove.
    Contact,
    /// Not an answer for the source shapes (see the module docs).
    Refused,
}

/// DQP3's answer checked against the source shapes (see the module docs). `state`: the
/// active facet indices of a and b and their object-frame points after the run.
pub(crate) fn certify(
    a: Side<'_>,
    b: Side<'_>,
    r: &Dqp3Result,
    state: &ActiveSets,
    settings: &QuerySettings,
) -> Verdict {
    if r.status != Dqp3Status::Optimal {
        return Verdict::Refused;
    }
    let Dqp3Outcome::Separated { point_a, point_b, .. } = r.outcome else { return Verdict::Contact };
    let qa = snap(&a, &point_a, state.local_point(0), state.of(0));
    let qb = snap(&b, &point_b, state.local_point(1), state.of(1));
    let (Some(qa), Some(qb)) = (qa, qb) else {
        return Verdict::Refused;
    };
    let scale = pair_scale(&a, &b);
    let tol = settings.gap_tolerance * scale;
    let upper = (qb - qa).norm();
    if !(upper.is_finite() && r.lower.is_finite()) || r.lower > upper + tol {
        return Verdict::Refused;
    }
    let path = QueryPath::Dqp3 { passes: u32::try_from(r.passes).unwrap_or(u32::MAX) };
    let core = Core { qa, qb, core_depth: None, lower_hint: Some(r.lower) };
    let shapes = (a.shape, a.pose, b.shape, b.pose);
    let res = finish(core, Radii { a: 0.0, b: 0.0 }, shapes, settings, Algorithm::Dqp3, path);
    let c = res.certificate;
    if c.upper - c.lower <= tol && verify::check_distance(shapes, &res).is_ok() {
        Verdict::Certified(verify::settle(res, settings))
    } else {
        Verdict::Refused
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
pub(crate) fn distance_sides(
    a: Side<'_>,
    b: Side<'_>,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    let (r, active) = distance_dqp3_active(a.facets, a.pose, b.facets, b.pose, &Dqp3Settings::default())?;
    match certify(a, b, &r, &active, settings) {
        Verdict::Certified(res) => Ok(res),
        Verdict::Contact | Verdict::Refused => recompute(a.shape, a.pose, b.shape, b.pose, settings, None),
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
    distance_sides(
        Side { shape: a, facets: &fa, pose: pa },
        Side { shape: b, facets: &fb, pose: pb },
        settings,
    )
}
