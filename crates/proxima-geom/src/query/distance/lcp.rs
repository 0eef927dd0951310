//! Adapter from shapes and poses to the LCP kernels of [`crate::lcp_queries`].
//!
//! Every shape is first expressed in the **world frame** in `f64` (one rounding of R·x + t per
//! point; a box becomes centre + axes = columns of R + half extents), except the
//! triangle–aligned-box pair, which is solved in the *box's* frame (the triangle is moved by
//! the inverse pose, the witnesses moved back). The kernel then runs in the requested
//! arithmetic:
//!
//! | [`Arithmetic`] | kernel entry point | [`QueryPath`] |
//! |---|---|---|
//! | `Certified` | `*_f64`, exact `Rational` re-solve when the gap exceeds `gap_tolerance × scale` | `Float { lcp }` or `ExactResolve` |
//! | `Float` | `*_f64` without the exact fallback | `Float { lcp }` |
//! | `Exact` | the generic kernel in `Rational` on the (world-frame, `f64`) data | `Exact` |
//!
//! The box–box pair under [`Algorithm::Auto`] uses the kernel's specialized bound-constrained
//! solver first (reported as [`QueryPath::ActiveSet`]: no LCP pivot was needed);
//! [`Algorithm::Lcp`] forces the 12 × 12 Lemke solve.
//!
//! LCP kernels cannot tell boundary contact from overlapping interiors: a zero distance is
//! reported as `Intersecting { point, depth: None }`.

use nalgebra::{Point3, Vector3};
use proxima_lcp::Rational;

use super::super::certificate::{Core, Radii, finish, finish_with_length};
use crate::error::GeomError;
use crate::lcp_queries::{
    self, AlignedBox3, BoxN, CertifySettings, DistanceOutput, KernelPath, LcpInfo, vec::convert, vec::to_f64,
};
use crate::pose::Pose;
use crate::query::{Algorithm, Arithmetic, DistanceResult, Intersection, QueryPath, QuerySettings};
use crate::shape::Shape;
use crate::shape::onto_placed::off_orthonormal;

/// Kernel answer reduced to what the dispatcher needs: core witnesses (in the pair's order).
struct KernelAnswer {
    qa: [f64; 3],
    qb: [f64; 3],
    lcp: LcpInfo,
    path: KernelPath,
    /// The kernel's certified lower bound (f64 entry points); the answer's bound for two
    /// cuboids only (see [`distance`]).
    lower: Option<f64>,
    /// The kernel's certified upper bound (f64 entry points): |qb − qa| of these witnesses,
    /// `dot(d, d).sqrt()` for d = qb − qa, the bits of `(qb − qa).norm()` (nalgebra's 3-vector
    /// dot is (x² + y²) + z², and its norm adds that to 0, exact for a sum of squares). Used
    /// for box pairs only (see [`distance`]).
    upper: Option<f64>,
}

impl<const PA: usize, const PB: usize> From<DistanceOutput<f64, PA, PB>> for KernelAnswer {
    fn from(o: DistanceOutput<f64, PA, PB>) -> Self {
        KernelAnswer {
            qa: o.point_a,
            qb: o.point_b,
            lcp: o.lcp,
            path: o.path,
            lower: o.certificate.map(|c| c.lower),
            upper: o.certificate.map(|c| c.upper),
        }
    }
}

impl<const PA: usize, const PB: usize> From<DistanceOutput<Rational, PA, PB>> for KernelAnswer {
    fn from(o: DistanceOutput<Rational, PA, PB>) -> Self {
        KernelAnswer {
            qa: to_f64(&o.point_a),
            qb: to_f64(&o.point_b),
            lcp: o.lcp,
            path: KernelPath::Exact,
            lower: None,
            upper: None,
        }
    }
}

impl KernelAnswer {
    fn swapped(self) -> Self {
        KernelAnswer { qa: self.qb, qb: self.qa, ..self }
    }
}

fn arr(p: &Point3<f64>) -> [f64; 3] {
    [p.x, p.y, p.z]
}

#[inline]
fn world_box(s: &Shape, pose: &Pose) -> Option<BoxN<f64, 3>> {
    let (center, half) = match s {
        Shape::Cuboid(c) => (Point3::from(*pose.translation()), c.half_extents()),
        Shape::AlignedBox(b) => {
            let mid = nalgebra::center(&b.min(), &b.max());
            (pose.transform_point(&mid), (b.max() - b.min()) * 0.5)
        }
        _ => return None,
    };
    let r = pose.rotation();
    Some(BoxN {
        center: arr(&center),
        axes: core::array::from_fn(|j| [r[(0, j)], r[(1, j)], r[(2, j)]]),
        half_extents: [half.x, half.y, half.z],
    })
}

fn world_triangle(s: &Shape, pose: &Pose) -> Option<[[f64; 3]; 3]> {
    match s {
        Shape::Triangle(t) => Some(t.vertices().map(|v| arr(&pose.transform_point(&v)))),
        _ => None,
    }
}

fn world_vertices(s: &Shape, pose: &Pose) -> Option<Vec<[f64; 3]>> {
    let local: &[Point3<f64>] = match s {
        Shape::ConvexPolytope(p) => p.vertices(),
        Shape::Polyhedron(p) => p.vertices(),
        _ => return None,
    };
    Some(local.iter().map(|v| arr(&pose.transform_point(v))).collect())
}

/// A point or sphere centre (world) and radius.
fn ball(s: &Shape, pose: &Pose) -> Option<([f64; 3], f64)> {
    match s {
        Shape::Point(p) => Some((arr(&pose.transform_point(&p.position())), 0.0)),
        Shape::Sphere(b) => Some((arr(&Point3::from(*pose.translation())), b.radius())),
        _ => None,
    }
}

/// A segment or capsule core (world) and radius.
fn segment(s: &Shape, pose: &Pose) -> Option<([[f64; 3]; 2], f64)> {
    match s {
        Shape::Segment(x) => Some((x.endpoints().map(|p| arr(&pose.transform_point(&p))), 0.0)),
        Shape::Capsule(c) => {
            let h = c.half_height();
            let ends = [Point3::new(0.0, 0.0, -h), Point3::new(0.0, 0.0, h)];
            Some((ends.map(|p| arr(&pose.transform_point(&p))), c.radius()))
        }
        _ => None,
    }
}

fn rat3(v: &[f64; 3]) -> Result<[Rational; 3], GeomError> {
    convert(v).ok_or(GeomError::NonFinite { what: "world-frame coordinates" })
}

fn rat_box(b: &BoxN<f64, 3>) -> Result<BoxN<Rational, 3>, GeomError> {
    BoxN::convert_from_f64(b).ok_or(GeomError::NonFinite { what: "world-frame box" })
}

fn rat_tri(t: &[[f64; 3]; 3]) -> Result<[[Rational; 3]; 3], GeomError> {
    Ok([rat3(&t[0])?, rat3(&t[1])?, rat3(&t[2])?])
}

/// Which kernel serves the (canonically ordered) pair, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kernel {
    BoxBox,
    PointBox { box_first: bool },
    TriangleBox,
    TriangleAlignedBox,
    SegmentTriangle { triangle_first: bool },
    LineTriangle,
    PointPolytope { polytope_first: bool },
}

fn kernel_for(a: &Shape, b: &Shape) -> Option<Kernel> {
    use Shape as S;
    let is_box = |s: &Shape| matches!(s, S::Cuboid(_) | S::AlignedBox(_));
    let is_ball = |s: &Shape| matches!(s, S::Point(_) | S::Sphere(_));
    let is_hull = |s: &Shape| matches!(s, S::Triangle(_) | S::ConvexPolytope(_) | S::Polyhedron(_));
    Some(match (a, b) {
        _ if is_box(a) && is_box(b) => Kernel::BoxBox,
        _ if is_ball(a) && is_box(b) => Kernel::PointBox { box_first: false },
        _ if is_box(a) && is_ball(b) => Kernel::PointBox { box_first: true },
        (S::Triangle(_), S::Cuboid(_)) => Kernel::TriangleBox,
        (S::Triangle(_), S::AlignedBox(_)) => Kernel::TriangleAlignedBox,
        (S::Segment(_), S::Triangle(_)) => Kernel::SegmentTriangle { triangle_first: false },
        (S::Triangle(_), S::Capsule(_)) => Kernel::SegmentTriangle { triangle_first: true },
        (S::Line(_), S::Triangle(_)) => Kernel::LineTriangle,
        _ if is_ball(a) && is_hull(b) => Kernel::PointPolytope { polytope_first: false },
        _ if is_hull(a) && is_ball(b) => Kernel::PointPolytope { polytope_first: true },
        _ => return None,
    })
}

/// Whether an LCP distance kernel exists for the (canonically ordered) pair.
pub(crate) fn available(a: &Shape, b: &Shape) -> bool {
    kernel_for(a, b).is_some()
}

fn certify_settings(s: &QuerySettings) -> CertifySettings {
    CertifySettings { gap_tolerance: s.gap_tolerance, exact_fallback: s.arithmetic == Arithmetic::Certified }
}

/// Distance through an LCP kernel; `Ok(None)` when the pair has none.
pub(crate) fn distance(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<Option<DistanceResult>, GeomError> {
    let Some(kernel) = kernel_for(a, b) else { return Ok(None) };
    let exact = settings.arithmetic == Arithmetic::Exact;
    let cs = certify_settings(settings);
    let none = || GeomError::Degenerate { what: "internal: shape does not match its kernel" };
    let mut radii = Radii { a: 0.0, b: 0.0 };
    let ans: KernelAnswer = match kernel {
        Kernel::BoxBox => {
            let (x, y) = (world_box(a, pa).ok_or_else(none)?, world_box(b, pb).ok_or_else(none)?);
            if exact {
                lcp_queries::box_box_distance(&rat_box(&x)?, &rat_box(&y)?)?.into()
            } else if settings.algorithm == Algorithm::Lcp {
                lcp_queries::box_box_distance_f64_lcp(&x, &y, &cs)?.into()
            } else {
                // Placed from the user's validated shapes and poses: no Gram check per query.
                let errors = [pa.orthonormality_error(), pb.orthonormality_error()];
                lcp_queries::box_box::box_box_distance_f64_placed(&x, &y, errors, &cs)?.into()
            }
        }
        Kernel::PointBox { box_first } => {
            let (bs, bp, ps, pp) = if box_first { (a, pa, b, pb) } else { (b, pb, a, pa) };
            let bx = world_box(bs, bp).ok_or_else(none)?;
            let (c, r) = ball(ps, pp).ok_or_else(none)?;
            let k: KernelAnswer = if exact {
                lcp_queries::point_box_distance(&rat3(&c)?, &rat_box(&bx)?)?.into()
            } else {
                lcp_queries::point_box_distance_f64(&c, &bx, &cs)?.into()
            };
            if box_first {
                radii.b = r;
                k.swapped()
            } else {
                radii.a = r;
                k
            }
        }
        Kernel::TriangleBox => {
            let t = world_triangle(a, pa).ok_or_else(none)?;
            let bx = world_box(b, pb).ok_or_else(none)?;
            if exact {
                lcp_queries::triangle_box_distance(&rat_tri(&t)?, &rat_box(&bx)?)?.into()
            } else {
                lcp_queries::triangle_box_distance_f64(&t, &bx, &cs)?.into()
            }
        }
        Kernel::TriangleAlignedBox => {
            let (Shape::Triangle(t), Shape::AlignedBox(bx)) = (a, b) else { return Err(none()) };
            // Solve in the box frame: the triangle moves by pb⁻¹ ∘ pa. With the box's rotation
            // off orthonormal, pb⁻¹ is the exact inverse, not Rᵀ: the witness placed back by pb
            // is then a point of the triangle as placed (through Rᵀ it would be off it by up to
            // 3e·|p − t_B|, and below the proven lower bound).
            let inv = if off_orthonormal(pb) { pb.rotation().try_inverse() } else { None };
            let into_box = |p: Point3<f64>| match &inv {
                Some(m) => Point3::from(m * (p.coords - pb.translation())),
                None => pb.inverse_transform_point(&p),
            };
            let tri = t.vertices().map(|v| arr(&into_box(pa.transform_point(&v))));
            let ab = AlignedBox3 { min: arr(&bx.min()), max: arr(&bx.max()) };
            let k: KernelAnswer = if exact {
                let rb = AlignedBox3 { min: rat3(&ab.min)?, max: rat3(&ab.max)? };
                lcp_queries::triangle_aligned_box_distance(&rat_tri(&tri)?, &rb)?.into()
            } else {
                lcp_queries::triangle_aligned_box_distance_f64(&tri, &ab, &cs)?.into()
            };
            let back = |p: &[f64; 3]| arr(&pb.transform_point(&Point3::from(*p)));
            KernelAnswer { qa: back(&k.qa), qb: back(&k.qb), upper: None, ..k }
        }
        Kernel::SegmentTriangle { triangle_first } => {
            let (ts, tp, ss, sp) = if triangle_first { (a, pa, b, pb) } else { (b, pb, a, pa) };
            let t = world_triangle(ts, tp).ok_or_else(none)?;
            let (seg, r) = segment(ss, sp).ok_or_else(none)?;
            let k: KernelAnswer = if exact {
                let rs = [rat3(&seg[0])?, rat3(&seg[1])?];
                lcp_queries::segment_triangle_distance(&rs, &rat_tri(&t)?)?.into()
            } else {
                lcp_queries::segment_triangle_distance_f64(&seg, &t, &cs)?.into()
            };
            if triangle_first {
                radii.b = r;
                k.swapped()
            } else {
                radii.a = r;
                k
            }
        }
        Kernel::LineTriangle => {
            let Shape::Line(l) = a else { return Err(none()) };
            let o = arr(&pa.transform_point(&l.origin()));
            let d = pa.transform_vector(&l.direction());
            let d = [d.x, d.y, d.z];
            let t = world_triangle(b, pb).ok_or_else(none)?;
            if exact {
                lcp_queries::line_triangle_distance(&rat3(&o)?, &rat3(&d)?, &rat_tri(&t)?)?.into()
            } else {
                lcp_queries::line_triangle_distance_f64(&o, &d, &t, &cs)?.into()
            }
        }
        Kernel::PointPolytope { polytope_first } => {
            let (hs, hp, ps, pp) = if polytope_first { (a, pa, b, pb) } else { (b, pb, a, pa) };
            let verts = match world_triangle(hs, hp) {
                Some(t) => t.to_vec(),
                None => world_vertices(hs, hp).ok_or_else(none)?,
            };
            let (c, r) = ball(ps, pp).ok_or_else(none)?;
            let k = if exact {
                let rv = verts.iter().map(rat3).collect::<Result<Vec<_>, _>>()?;
                let o = lcp_queries::point_polytope_distance(&rat3(&c)?, &rv)?;
                KernelAnswer {
                    qa: c,
                    qb: to_f64(&o.closest),
                    lcp: o.lcp,
                    path: KernelPath::Exact,
                    lower: None,
                    upper: None,
                }
            } else {
                let o = lcp_queries::point_polytope_distance_f64(&c, &verts, &cs)?;
                KernelAnswer {
                    qa: c,
                    qb: o.closest,
                    lcp: o.lcp,
                    path: o.path,
                    lower: o.certificate.map(|c| c.lower),
                    upper: None,
                }
            };
            if polytope_first {
                radii.b = r;
                k.swapped()
            } else {
                radii.a = r;
                k
            }
        }
    };
    let path = match ans.path {
        KernelPath::Exact => QueryPath::Exact,
        KernelPath::ExactResolve => QueryPath::ExactResolve,
        KernelPath::FastPath => QueryPath::ActiveSet,
        _ => QueryPath::Float { lcp: ans.lcp.path },
    };
    // The kernel's own lower bound decided its exact re-solve; the answer's lower bound is
    // taken from the shapes' support functions along the witness direction instead
    // (`certificate.rs`), so that it is checked against the shapes the user gave, not against
    // the kernel's formulation of them. One exception: two cuboids, whose world boxes *are*
    // the user's data (centre = the pose's translation, axes = its rotation columns, half
    // extents as given, no rounding), so the kernel's support-function bound over the SAT
    // directions (`box_box::box_certificate`: n·c ± Σ hⱼ|n·uⱼ|, the cuboid's support function
    // term for term) is a bound on the user's shapes, valid for any direction whatever the
    // witnesses: it is passed on, and the query does not evaluate the two support functions
    // along the same direction again. Only a positive bound: the kernel skips every direction
    // (lower 0) when its witnesses are already within its gap target of each other, which
    // near contact is looser than the witness direction's bound (boxes 1e-9 apart would lose
    // their proof of separation); then the query computes that bound as for every pair.
    let lower_hint = match (a, b) {
        (Shape::Cuboid(_), Shape::Cuboid(_)) => ans.lower.filter(|l| l.is_finite() && *l > 0.0),
        _ => None,
    };
    let core = Core { qa: Point3::from(ans.qa), qb: Point3::from(ans.qb), core_depth: None, lower_hint };
    let shapes = (a, pa, b, pb);
    // Box pairs: the kernel's upper bound is |qb − qa| bit for bit (every box–box path
    // certifies the witnesses it returns, `box_box::box_certificate`), so `finish` does not
    // take the root again.
    Ok(Some(match (kernel, ans.upper) {
        (Kernel::BoxBox, Some(raw)) => {
            finish_with_length(core, radii, shapes, settings, Algorithm::Lcp, path, raw)
        }
        _ => finish(core, radii, shapes, settings, Algorithm::Lcp, path),
    }))
}

/// Test-intersection kernels (pairs with no distance kernel); `Ok(None)` when none applies.
///
/// Triangle–cylinder: the kernel decides intersection (exactly in ℚ(√|V|²) when the float
/// decision is within tolerance of the boundary); a common point is returned when the kernel's
/// point qualifies; no separating direction is produced.
pub(crate) fn intersects_only(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Result<Option<Intersection>, GeomError> {
    let (Shape::Triangle(_), Shape::Cylinder(c)) = (a, b) else { return Ok(None) };
    let t = world_triangle(a, pa).ok_or(GeomError::Degenerate { what: "internal: triangle" })?;
    let centre = arr(&Point3::from(*pb.translation()));
    let axis: Vector3<f64> = pb.transform_vector(&Vector3::z());
    let mut cs = certify_settings(settings);
    if settings.arithmetic == Arithmetic::Exact {
        // The f64 entry point re-solves exactly when the decision is not clear-cut; an
        // infinite tolerance forces that exact decision.
        cs = CertifySettings { gap_tolerance: f64::MAX, exact_fallback: true };
    }
    let out = lcp_queries::triangle_cylinder_intersection_f64(
        &t,
        &centre,
        &[axis.x, axis.y, axis.z],
        c.radius(),
        2.0 * c.half_height(),
        &cs,
    )?;
    let inside_radius = out.squared_axis_distance <= c.radius() * c.radius();
    Ok(Some(if out.intersects {
        // The kernel's point is the triangle point between the caps closest to the axis: a
        // common point when it is within the radius (checked in f64).
        let point = (out.feasible && inside_radius).then(|| Point3::from(out.point));
        Intersection::Intersecting { point }
    } else {
        Intersection::Separated { direction: None }
    }))
}
