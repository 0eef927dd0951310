//! Box or triangle – cylinder distance when apart, by a few candidate features, each checked
//! by the certificate; GJK + Newton polish answers whatever the candidates do not prove.
//!
//! # Maths
//!
//! Let P be a box or a triangle (a "flat" polytope: vertices, edges, faces) and C a cylinder
//! of radius r and half height h (local frame: axis z, caps at z = ±h). For disjoint P and C a
//! closest pair (p, c) has c on C's side, cap disk or rim circle, and p on a vertex, edge or
//! face of P. Away from degenerate (parallel) configurations the pair is one of
//!
//! | feature of P | feature of C | candidate |
//! |---|---|---|
//! | vertex v | anything | v and the point of C closest to v (radial and axial clamping) |
//! | edge or face | side | the axis segment S against P: closest pair (s, p) with s strictly inside S, then c = s + r (p − s)/\|p − s\| (C ⊂ S ⊕ B(r), so \|p − s\| − r is also a lower bound: the pair is exact) |
//! | face with outward normal m | rim | the rim point x minimising m·x (x = (−r m_xy/\|m_xy\|, ∓h)) and the point of P closest to x |
//! | edge e(t) = p₀ + t d | rim z = ±h | the minimiser over t ∈ [0, 1] of φ(t) = (z(t) ∓ h)² + (ρ(t) − r)², ρ = \|e_xy\| (the squared distance of e(t) to the circle), by safeguarded Newton, and the rim point radially below it |
//!
//! Every candidate is a pair of points of P and C, so the best one is an upper bound. Edges are
//! tried against the rim only at the best vertex (its three box edges, or the triangle's
//! edges), on the rim on the edge's side, and only when the edge's height over the rim's plane
//! is below the best distance so far: a heuristic, not a proof. The proof is the
//! certificate: with n the unit witness direction, the separation of the user's shapes along
//! n, −h_C(−n) − h_P(n) (support functions), is a lower bound; the answer is returned only
//! when it meets the witness distance to GJK's tolerance × the problem scale, else `None` and
//! the caller runs GJK. A wrong candidate can therefore cost time, never a wrong answer.
//!
//! # Edge cases
//!
//! * A vertex inside C, the axis within r of P at an interior axis point, or a rim point inside
//!   P: the shapes meet or nearly; `None` (contact and its depth are GJK/EPA's).
//! * A face parallel to the caps (|m_xy| ≈ 0), or an edge parallel to them above the cap disk:
//!   no candidate of that kind (the certificate decides whether another one is exact).
//! * Non-finite intermediate values (coordinates near `f64::MAX`): `None`.

use nalgebra::{Matrix3, Point3, Vector3};

use super::super::certificate::{Along, Core, Radii, finish_along_witness};
use super::distance_point_cuboid::PosedBox;
use super::distance_segment_box::closest_segment_box;
use super::distance_segment_segment::LinearPiece;
use super::distance_segment_triangle::closest_piece_triangle;
use crate::gjk::closest_to_origin;
use crate::pose::Pose;
use crate::query::dispatch::{box_support_value, cylinder_support_value};
use crate::query::{Algorithm, DistanceResult, QueryPath, QuerySettings};
use crate::shape::Shape;
use crate::shape::onto_placed::{Part, either_off_orthonormal, onto_placed};

/// A closest point of the axis within this relative distance of an end counts as at the end
/// (cap or rim possible); the side candidate also needs a gap above r by this relative margin.
const MARGIN: f64 = 1e-9;

/// Newton steps on an edge against a rim.
const EDGE_STEPS: u32 = 12;

/// The flat polytope: a posed box (corners in its own frame) or a world triangle.
pub(crate) enum Flat {
    /// A cuboid or aligned box.
    Box(PosedBox),
    /// A triangle, vertices in the world frame.
    Triangle([Point3<f64>; 3]),
}

/// The polytope in the cylinder's frame: its vertices, and the map from its own frame.
struct Local<'f> {
    flat: &'f Flat,
    /// Own frame (box frame; world for a triangle) → cylinder frame: x ↦ r x + t.
    r: Matrix3<f64>,
    t: Vector3<f64>,
    vertices: [Point3<f64>; 8],
    /// The same vertices in the polytope's own frame.
    own: [Point3<f64>; 8],
    count: usize,
}

impl<'f> Local<'f> {
    fn new(flat: &'f Flat, cyl: &Pose) -> Self {
        let rc_t = cyl.rotation().transpose();
        let (r, t, own, count) = match flat {
            Flat::Box(b) => {
                let own = core::array::from_fn(|i| {
                    let pick = |k: usize| if i & (1 << k) != 0 { b.hi[k] } else { b.lo[k] };
                    Point3::new(pick(0), pick(1), pick(2))
                });
                (rc_t * b.pose.rotation(), rc_t * (b.pose.translation() - cyl.translation()), own, 8)
            }
            Flat::Triangle(tri) => {
                let mut own = [Point3::origin(); 8];
                own[..3].copy_from_slice(tri);
                (rc_t, -(rc_t * cyl.translation()), own, 3)
            }
        };
        let vertices = own.map(|p| Point3::from(r * p.coords + t));
        Local { flat, r, t, vertices, own, count }
    }

    /// The point of the polytope closest to `x` (cylinder frame): (cylinder frame, own frame).
    fn closest(&self, x: &Point3<f64>) -> (Point3<f64>, Point3<f64>) {
        match self.flat {
            Flat::Box(b) => {
                let q = self.r.transpose() * (x.coords - self.t);
                let own = Point3::from(q.zip_zip_map(&b.lo, &b.hi, |v, lo, hi| v.clamp(lo, hi)));
                (Point3::from(self.r * own.coords + self.t), own)
            }
            Flat::Triangle(_) => {
                let v = &self.vertices;
                let on = x + closest_to_origin([v[0] - x, v[1] - x, v[2] - x]);
                (on, Point3::from(self.r.transpose() * (on.coords - self.t)))
            }
        }
    }

    /// The polytope's point in its own frame, in the world frame.
    fn own_to_world(&self, own: &Point3<f64>) -> Point3<f64> {
        match self.flat {
            Flat::Box(b) => b.pose.transform_point(own),
            Flat::Triangle(_) => *own,
        }
    }

    /// Outward face normals (cylinder frame) of the faces that have the cylinder's centre
    /// strictly outside: at most 3 of a box, 1 of a triangle.
    fn facing(&self, out: &mut [Vector3<f64>; 3]) -> usize {
        let mut n = 0;
        match self.flat {
            Flat::Box(_) => {
                for k in 0..3 {
                    let axis: Vector3<f64> = self.r.column(k).into_owned();
                    // Face hi along k contains corner (1 << k), face lo contains corner 0.
                    for (m, at) in [(axis, self.vertices[1 << k]), (-axis, self.vertices[0])] {
                        if -m.dot(&at.coords) > 0.0 && n < 3 {
                            out[n] = m;
                            n += 1;
                        }
                    }
                }
            }
            Flat::Triangle(_) => {
                let v = &self.vertices;
                let m = (v[1] - v[0]).cross(&(v[2] - v[0]));
                let side = -m.dot(&v[0].coords);
                if side != 0.0 {
                    out[0] = if side > 0.0 { m } else { -m };
                    n = 1;
                }
            }
        }
        n
    }
}

/// The best candidate so far: squared distance, the polytope's point (own frame) and the
/// cylinder's point (cylinder frame), and whether both are points of their shapes in those
/// frames by construction (see [`closest_flat_cylinder`]).
struct Best {
    d2: f64,
    on_flat: Point3<f64>,
    on_cyl: Point3<f64>,
    placed: bool,
}

impl Best {
    fn offer(&mut self, d2: f64, on_flat: Point3<f64>, on_cyl: Point3<f64>, placed: bool) {
        if d2 < self.d2 {
            *self = Best { d2, on_flat, on_cyl, placed };
        }
    }
}

/// Closest points (on the polytope, on the cylinder), world frame, of the best candidate
/// feature pair (see the module docs); `None` when the shapes meet or nearly, or a value is
/// not finite. The pair is not proven closest: the caller's certificate decides.
///
/// The third value, `placed`, says that both points were built on their shapes in the
/// shapes' own frames and placed by the user's poses (a box's corner, a clamped point or a
/// convex combination of two corners in the box frame, or a triangle's world vertex or a
/// point of its edge; a cylinder's clamped point, rim point or rim point radially below a
/// point): points of the shapes as placed, R·x + t, up to the rounding of the placing, even
/// when a rotation is off orthonormal. The side candidate (both points mapped through the
/// other shape's frame by transposes) and a triangle's point against a rim (mapped back
/// through the cylinder's transpose) are not.
pub(crate) fn closest_flat_cylinder(
    flat: &Flat,
    cyl: &Pose,
    r: f64,
    h: f64,
) -> Option<(Point3<f64>, Point3<f64>, bool)> {
    let local = Local::new(flat, cyl);
    let mut best =
        Best { d2: f64::INFINITY, on_flat: Point3::origin(), on_cyl: Point3::origin(), placed: false };
    // Vertices against the whole cylinder (radial and axial clamping).
    let mut best_vertex = 0;
    for (i, v) in local.vertices[..local.count].iter().enumerate() {
        let rho2 = v.x * v.x + v.y * v.y;
        if rho2 <= r * r && v.z.abs() <= h {
            return None;
        }
        let s = if rho2 > r * r { r / rho2.sqrt() } else { 1.0 };
        let q = Point3::new(v.x * s, v.y * s, v.z.clamp(-h, h));
        let d2 = (v - q).norm_squared();
        if d2 < best.d2 {
            best_vertex = i;
        }
        best.offer(d2, local.own[i], q, true);
    }
    // The side: the axis segment against the polytope (world frame).
    let axis = LinearPiece::z_axis(cyl, h);
    let side = match flat {
        Flat::Box(b) => closest_segment_box(&axis, b),
        Flat::Triangle(t) => closest_piece_triangle(&axis, t),
    };
    let (s, p) = side?;
    let along = (s - axis.origin).dot(&axis.dir) / axis.dir.norm_squared();
    if along > MARGIN && along < 1.0 - MARGIN {
        let d = p - s;
        let len = d.norm();
        if len.is_nan() || len <= r * (1.0 + MARGIN) {
            return None;
        }
        let c = s + d * (r / len);
        let (c, p) = (cyl.inverse_transform_point(&c), cyl.inverse_transform_point(&p));
        let own = Point3::from(local.r.transpose() * (p.coords - local.t));
        best.offer((len - r) * (len - r), own, c, false);
    }
    // The rim against the faces that face the cylinder.
    let mut faces = [Vector3::zeros(); 3];
    let count = local.facing(&mut faces);
    for m in &faces[..count] {
        let mxy = (m.x * m.x + m.y * m.y).sqrt();
        if mxy.is_nan() || mxy <= 1e-9 * m.norm() {
            continue;
        }
        let z = if m.z > 0.0 { -h } else { h };
        let x = Point3::new(-r * m.x / mxy, -r * m.y / mxy, z);
        let (on, own) = local.closest(&x);
        let d2 = (on - x).norm_squared();
        if d2 == 0.0 {
            return None;
        }
        // A box's point is clamped in its own frame; a triangle's comes back through Rᵀ.
        best.offer(d2, own, x, matches!(flat, Flat::Box(_)));
    }
    // The rim against the edges at the best vertex.
    let edge = |i: usize, j: usize, best: &mut Best| {
        let (p0, p1) = (local.vertices[i], local.vertices[j]);
        let zc = if p0.z + p1.z >= 0.0 { h } else { -h };
        // Every point of the edge is at least its height over the rim's plane from the rim:
        // an edge wholly farther than the best candidate cannot improve on it.
        let (z0, z1) = (p0.z - zc, p1.z - zc);
        let over = if z0 * z1 <= 0.0 { 0.0 } else { z0.abs().min(z1.abs()) };
        if over * over >= best.d2 {
            return;
        }
        if let Some((t, on_cyl)) = edge_rim(&p0, &(p1 - p0), r, zc) {
            let on = p0 + (p1 - p0) * t;
            let own = local.own[i] + (local.own[j] - local.own[i]) * t;
            best.offer((on - on_cyl).norm_squared(), own, on_cyl, true);
        }
    };
    match flat {
        Flat::Box(_) => {
            // Bit k of a corner index: hi (1) or lo (0) along k; its edges flip one bit.
            for bit in [1, 2, 4] {
                edge(best_vertex, best_vertex ^ bit, &mut best);
            }
        }
        Flat::Triangle(_) => {
            for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                edge(i, j, &mut best);
            }
        }
    }
    if !(best.d2.is_finite() && best.d2 > 0.0) {
        return None;
    }
    let on_flat = local.own_to_world(&best.on_flat);
    let on_cyl = cyl.transform_point(&best.on_cyl);
    (on_flat.iter().chain(on_cyl.iter()).all(|x| x.is_finite())).then_some((on_flat, on_cyl, best.placed))
}

/// The minimiser t ∈ [0, 1] of the squared distance φ(t) of e(t) = p₀ + t d to the circle of
/// radius r at height zc around the z axis (cylinder frame), by Newton on φ′ safeguarded to the
/// interval, from the best of five samples; and the circle's point radially below e(t).
/// `None` when e(t) is on the axis (every circle point is as close) or a value is not finite.
fn edge_rim(p0: &Point3<f64>, d: &Vector3<f64>, r: f64, zc: f64) -> Option<(f64, Point3<f64>)> {
    let a = d.x * d.x + d.y * d.y;
    let b = p0.x * d.x + p0.y * d.y;
    let c = p0.x * p0.x + p0.y * p0.y;
    let phi = |t: f64| {
        let rho = (a * t * t + 2.0 * b * t + c).max(0.0).sqrt();
        let z = p0.z + t * d.z - zc;
        z * z + (rho - r) * (rho - r)
    };
    let mut t = 0.0;
    let mut best = phi(0.0);
    for s in [0.25, 0.5, 0.75, 1.0] {
        let f = phi(s);
        if f < best {
            (t, best) = (s, f);
        }
    }
    for _ in 0..EDGE_STEPS {
        let rho2 = a * t * t + 2.0 * b * t + c;
        if rho2.is_nan() || rho2 <= 0.0 {
            break;
        }
        let rho = rho2.sqrt();
        let z = p0.z + t * d.z - zc;
        let drho = (a * t + b) / rho;
        let g = z * d.z + (rho - r) * drho;
        let hess = d.z * d.z + drho * drho + (rho - r) * (a - drho * drho) / rho;
        let step = if hess > 0.0 { -g / hess } else { -g.signum() * 0.125 };
        let next = (t + step).clamp(0.0, 1.0);
        let f = phi(next);
        if f.is_nan() || f >= best {
            break;
        }
        let moved = (next - t).abs();
        (t, best) = (next, f);
        if moved <= 1e-15 {
            break;
        }
    }
    let e = p0 + d * t;
    let rho = (e.x * e.x + e.y * e.y).sqrt();
    if !(rho > 0.0 && rho.is_finite()) {
        return None;
    }
    Some((t, Point3::new(e.x * r / rho, e.y * r / rho, zc)))
}

/// Box or triangle (`a`, canonical order) – cylinder (`b`) by the candidate features, when
/// their certificate closes: the separation of the user's shapes along the witness direction
/// meets the witness distance within GJK's tolerance × the problem scale. `None` otherwise
/// (other pairs, contact, or an unproven candidate: the caller runs GJK).
pub(crate) fn distance_flat_cylinder(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Option<DistanceResult> {
    let Shape::Cylinder(cyl) = b else { return None };
    let flat = match a {
        Shape::Triangle(t) => Flat::Triangle(t.vertices().map(|v| pa.transform_point(&v))),
        _ => Flat::Box(crate::query::dispatch::as_box(a, pa)?),
    };
    let (qa, qb, placed) = closest_flat_cylinder(&flat, pb, cyl.radius(), cyl.half_height())?;
    closed_if_certified(qa, qb, placed, (a, pa, b, pb), settings)
}

/// The answer for the witnesses `qa` ∈ A, `qb` ∈ B (world frame, canonical order) of a
/// candidate closed form, when the separation of the user's shapes along the witness
/// direction (their support functions) meets the witness distance within GJK's tolerance ×
/// the problem scale (|t_B − t_A| plus the shapes' extents, the order of GJK's scale); `None`
/// otherwise, for the caller's general route to answer. `placed`: both witnesses are points
/// of the shapes as placed by construction (see [`closest_flat_cylinder`]).
pub(crate) fn closed_if_certified(
    qa: Point3<f64>,
    qb: Point3<f64>,
    placed: bool,
    (a, pa, b, pb): (&Shape, &Pose, &Shape, &Pose),
    settings: &QuerySettings,
) -> Option<DistanceResult> {
    // Candidates built in the cylinder's (or box's) frame through Rᵀ: with a rotation off
    // orthonormal they are moved onto the shapes as placed (`shape::onto_placed`), and the
    // certificate may close within the O(e·size) this costs (see `wobble_allowance`).
    // Witnesses `placed` by the user's poses from points of the shapes are on them already:
    // the move would only round them again (mixed workload, rotations written to 12 digits:
    // box–cylinder ~400 instructions per query, two 3 × 3 inverses). The verifier tests both
    // witnesses against the shapes in any case (`verify.rs`).
    let wobbly = either_off_orthonormal(pa, pb);
    let (qa, qb) = if wobbly && !placed {
        (onto_placed(a, pa, Part::Whole, &qa), onto_placed(b, pb, Part::Whole, &qb))
    } else {
        (qa, qb)
    };
    let diff = qb - qa;
    let len = diff.norm();
    let n = diff / len;
    let core_sep = -placed_support_value(b, pb, &-n) - placed_support_value(a, pa, &n);
    let scale = (pb.translation() - pa.translation()).norm() + a.local_extent() + b.local_extent();
    if !(len > 0.0
        && len.is_finite()
        && core_sep.is_finite()
        && len - core_sep <= settings.gjk.tolerance * scale + wobble_allowance(wobbly, pa, pb, scale))
    {
        return None;
    }
    let core = Core { qa, qb, core_depth: None, lower_hint: None };
    let along = Some(Along { n, len, core_sep });
    let (radii, path) = (Radii { a: 0.0, b: 0.0 }, QueryPath::ClosedForm);
    Some(finish_along_witness(core, radii, (a, pa, b, pb), settings, Algorithm::ClosedForm, path, along))
}

/// h(n) of the shape as placed: a triangle's as the largest n·(R·vᵢ + t) over its placed
/// vertices (the placed triangle is their hull), a box's and a cylinder's by their support
/// formulas in line (`dispatch`'s, as `Shape::support_value`'s), anything else by
/// `Shape::support_value`. (A triangle has no formula arm there: its general path through
/// the support point, and the call, cost ~250 instructions of a cylinder–triangle query.)
#[inline(always)]
fn placed_support_value(s: &Shape, pose: &Pose, n: &Vector3<f64>) -> f64 {
    match s {
        Shape::Triangle(t) => t
            .vertices()
            .iter()
            .map(|v| n.dot(&pose.transform_point(v).coords))
            .fold(f64::NEG_INFINITY, f64::max),
        Shape::Cylinder(c) => cylinder_support_value(pose, c.radius(), c.half_height(), n),
        Shape::Cuboid(c) => box_support_value(pose, &-c.half_extents(), &c.half_extents(), n),
        _ => s.support_value(pose, n),
    }
}

/// The gap a closed form's candidate may keep when a rotation is off orthonormal by e (the
/// larger of the two): the candidates are built through Rᵀ as R⁻¹, which distorts lengths by
/// up to 3e (‖RᵀR − I‖₂ ≤ 3e), so each witness starts up to 3e × scale from where an exact
/// frame would put it, and moving it onto its shape adds as much again: 2 × 2 × 3e × scale
/// covers both witnesses, 12e × scale. GJK's answer on such poses is no tighter: its lower
/// bound gives up 3e(ρ_A + d) for A's frame (`gjk.rs`, `world_lower`). 0 for exact rotations.
fn wobble_allowance(wobbly: bool, pa: &Pose, pb: &Pose, scale: f64) -> f64 {
    if wobbly { 12.0 * pa.orthonormality_error().max(pb.orthonormality_error()) * scale } else { 0.0 }
}
