//! The last word on every answer: checked against the shapes as the user constructed them.
//!
//! Whatever algorithm ran — closed form, LCP kernel, GJK/EPA, an ellipsoid solver, DQP3 on
//! facet forms, the vertex LP, cylinder SAT; cold or tracked — its answer is tested here before
//! it leaves the library, against the user's [`Shape`]s (their parameters and support
//! functions), never against a representation an algorithm derived from them:
//!
//! * **witness containment**: each witness (each common point of a contact answer) lies in its
//!   shape to within τ, for every shape with an O(1) or O(faces) test — points, segments,
//!   lines, triangles, boxes, spheres, capsules, cylinders, cones, ellipsoids, rounded shapes
//!   around those, half-space polyhedra (the user's half-spaces). Vertex polytopes and
//!   Minkowski sums have no closed-form test: GJK's witnesses are convex combinations of
//!   support points of the user's shape by construction and DQP3's are snapped onto the exact
//!   hull (`distance/dqp3.rs`), both up to a few ulps of the support points, tested when those
//!   are far larger than the point (extreme coordinates); every other algorithm's (the LCP
//!   kernels, the ellipsoid active set, the vertex LP) are tested always. The test is a GJK
//!   point query on the user's support function, whose proven lower bound refutes a point
//!   more than τ outside;
//! * **the bracket**: finite, 0 ≤ lower ≤ upper (a lower bound above the witness distance by
//!   more than round-off means one of them is wrong), upper = |p_b − p_a| for separated answers;
//! * **separating directions** (`intersects`): the user's shapes are apart along it,
//!   −h_B(−n) − h_A(n) > 0 from their support functions.
//!
//! τ = 4096 ulps × max(1, largest witness coordinate) (≈ 9e-13 at unit size): round-off of
//! the closed forms, support points and convex combinations is far below it; a float LCP
//! solve whose witnesses stray further (ill-conditioned pivots, extreme coordinates) is
//! refuted and recomputed, not accepted at `gap_tolerance`.
//! The lower bounds themselves come from the user's support functions in every route (see
//! `certificate.rs`; DQP3's is valid because its facet forms provably contain the shapes).
//!
//! A refuted answer is recomputed by GJK on the same shapes (the dispatcher does that), and a
//! refuted GJK answer is an error ([`GeomError::Uncertified`]): never a proven wrong number.

use nalgebra::{Point3, Vector3};

use super::certificate::separation;
use super::{Algorithm, DistanceResult, Intersection, Proximity, QuerySettings};
use crate::ellipsoid::point_ellipsoid::project3;
use crate::error::GeomError;
use crate::gjk::{GjkSettings, SupportMap, closest_to_origin, gjk_distance};
use crate::pose::Pose;
use crate::shape::Shape;
use crate::shape::planar_len;

/// Why an answer was refused.
pub(crate) type Refuted = &'static str;

/// max(|x|, |y|, |z|): nalgebra's `amax` without its generic fold, by plain comparisons (one
/// `maxsd` each, no NaN fix-up; it runs several times on every query). A NaN coordinate may be
/// skipped; every check that uses it refutes such a point anyway (its squared distance is NaN).
#[inline(always)]
pub(crate) fn max_abs(v: &Vector3<f64>) -> f64 {
    let (x, y, z) = (v.x.abs(), v.y.abs(), v.z.abs());
    let m = if x > y { x } else { y };
    if m > z { m } else { z }
}

/// The containment tolerance τ for points of magnitude up to `coord` (see the module docs).
pub(crate) fn tolerance(coord: f64) -> f64 {
    CONTAINMENT_ULPS * f64::EPSILON * coord.max(1.0)
}

/// τ in ulps of the largest coordinate: far above the round-off of the closed forms, support
/// points and convex combinations (a few ulps), far below any distance a user asks about.
const CONTAINMENT_ULPS: f64 = 4096.0;

/// How far the world point `p` is outside `shape` placed by `pose` (0 inside), when the shape
/// has a cheap exact test; `None` for vertex polytopes and Minkowski sums (see the module docs).
/// For a half-space polyhedron the largest violation of the user's half-spaces.
pub(crate) fn outside_by(shape: &Shape, pose: &Pose, p: &Point3<f64>) -> Option<f64> {
    match shape {
        Shape::ConvexPolytope(_) | Shape::MinkowskiSum(_) => return None,
        // In the world frame: |R⁻¹(p − t)| and |p − t| differ by less than the frame slack
        // 3e·|p − t| the caller adds (`frame_slack`; equal for an orthonormal R), and no
        // inverse transform is needed.
        Shape::Sphere(s) => {
            return Some(((p - Point3::from(*pose.translation())).norm() - s.radius()).max(0.0));
        }
        _ => {}
    }
    let l = pose.inverse_transform_point(p);
    Some(match shape {
        Shape::Point(x) => (l - x.position()).norm(),
        Shape::Segment(s) => {
            let [a, b] = s.endpoints();
            distance_to_segment(&l, &a, &b)
        }
        Shape::Line(x) => {
            let w = l - x.origin();
            (w - x.direction() * x.direction().dot(&w)).norm()
        }
        Shape::Triangle(t) => {
            let [a, b, c] = t.vertices().map(|v| v - l);
            closest_to_origin([a, b, c]).norm()
        }
        Shape::Cuboid(c) => box_excess(&l.coords, &-c.half_extents(), &c.half_extents()),
        Shape::AlignedBox(b) => box_excess(&l.coords, &b.min().coords, &b.max().coords),
        Shape::Capsule(c) => {
            // The axis is the local z segment [−h, h]: its closest point is (0, 0, clamp(z)).
            let h = c.half_height();
            let axis = Vector3::new(l.x, l.y, l.z - l.z.clamp(-h, h)).norm();
            (axis - c.radius()).max(0.0)
        }
        Shape::Cylinder(c) => {
            let radial = (planar_len(l.x, l.y) - c.radius()).max(0.0);
            let axial = (l.z.abs() - c.half_height()).max(0.0);
            planar_len(radial, axial)
        }
        Shape::Cone(c) => {
            // The cross-section in (ρ, z): the triangle apex (0, h), rim (r, −h), base centre
            // (0, −h); rotational symmetry makes the 2D distance the 3D one.
            let (h, r) = (c.half_height(), c.radius());
            let q = Vector3::new(planar_len(l.x, l.y), l.z, 0.0);
            let tri = [Vector3::new(0.0, h, 0.0), Vector3::new(r, -h, 0.0), Vector3::new(0.0, -h, 0.0)];
            closest_to_origin(tri.map(|v| v - q)).norm()
        }
        Shape::Ellipsoid(e) => {
            let r = e.radii();
            let level = (l.x / r.x).powi(2) + (l.y / r.y).powi(2) + (l.z / r.z).powi(2);
            if level <= 1.0 {
                0.0
            } else {
                // Outside: the distance to the closest point (secular equation).
                let (q, _) = project3(&[r.x, r.y, r.z], &[l.x, l.y, l.z]);
                (l.coords - Vector3::from(q)).norm()
            }
        }
        Shape::Polyhedron(x) => {
            x.normals().iter().zip(x.offsets()).map(|(n, d)| n.dot(&l.coords) - d).fold(0.0f64, f64::max)
        }
        Shape::Rounded(x) => (outside_by(x.inner(), &Pose::identity(), &l)? - x.radius()).max(0.0),
        _ => return None,
    })
}

#[inline(always)]
fn distance_to_segment(p: &Point3<f64>, a: &Point3<f64>, b: &Point3<f64>) -> f64 {
    let ab = b - a;
    let len2 = ab.norm_squared();
    let t = if len2 > 0.0 { ((p - a).dot(&ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
    (p - (a + ab * t)).norm()
}

#[inline(always)]
fn box_excess(l: &Vector3<f64>, lo: &Vector3<f64>, hi: &Vector3<f64>) -> f64 {
    box_excess_squared(l, lo, hi).sqrt()
}

/// |excess of `l` over the box [lo, hi]|², NaN when a coordinate of `l` is NaN (the box's
/// bounds are finite: validated shapes), so that such a point is refuted, not clamped inside.
#[inline(always)]
fn box_excess_squared(l: &Vector3<f64>, lo: &Vector3<f64>, hi: &Vector3<f64>) -> f64 {
    let e = |k: usize| {
        let (below, above) = (lo[k] - l[k], l[k] - hi[k]);
        let m = if below > above { below } else { above };
        if m <= 0.0 { 0.0 } else { m }
    };
    Vector3::new(e(0), e(1), e(2)).norm_squared()
}

/// A single point as a support map (the query point of a containment test by GJK).
struct At(Point3<f64>);

impl SupportMap for At {
    fn local_support(&self, _: &Vector3<f64>, _: &mut u32) -> Point3<f64> {
        self.0
    }
}

/// Whether a vertex polytope's or Minkowski sum's point is tested by GJK (see [`holds`]):
/// always for kernels with no containment by construction; for GJK's and DQP3's witnesses
/// (convex combinations of support points, contained up to a few ulps of the largest) only
/// when a shape involved reaches more than [`FAR`] × max(1, |p|) from the origin, where those
/// ulps exceed τ. A common point of a contact answer is the midpoint of two witnesses that
/// agree to round-off of both shapes, so both shapes' reach counts for it.
///
/// The common cases are decided without square roots, from max|xᵢ| ≤ |x| ≤ √3 max|xᵢ|: the
/// Euclidean test runs only when those bounds leave it open, so the answer is the Euclidean
/// test's.
#[inline(always)]
fn far(shapes: &[(&Shape, &Pose)], p: &Point3<f64>) -> bool {
    let pm = max_abs(&p.coords);
    let (limit_lo, limit_hi) = (FAR * pm.max(1.0), FAR * (SQRT_3 * pm).max(1.0));
    // (A plain loop: `Iterator::any` was compiled out of line, a call per witness.)
    for (s, pose) in shapes {
        let (e, tm) = (extent(s), max_abs(pose.translation()));
        if e + SQRT_3 * tm <= limit_lo {
            continue;
        }
        if e + tm > limit_hi || e + pose.translation().norm() > FAR * p.coords.norm().max(1.0) {
            return true;
        }
    }
    false
}

/// [`Shape::local_extent`], a vertex polytope's stored extent read in line (the shape of
/// every hull–hull check: spares the call and the match of the general function, twice per
/// answer); the same number.
#[inline(always)]
fn extent(s: &Shape) -> f64 {
    match s {
        Shape::ConvexPolytope(x) => x.extent(),
        _ => s.local_extent(),
    }
}

/// √3 rounded up (an upper bound of |t| / max|tᵢ| after the product's rounding too).
const SQRT_3: f64 = 1.732_050_808_568_877_4;

/// See [`far`]: 4096 ulps of |p| (τ) cover 16 ulps of support points up to 256 |p|.
const FAR: f64 = 256.0;

/// When [`holds`] tests a vertex polytope's or Minkowski sum's point by GJK: always for
/// answers not `built` by GJK or DQP3, else when [`far`] says so for `shapes` (the shapes whose
/// reach counts for the point). A value read in line by [`holds`], where a closure was
/// compiled out of line: a call per witness (~50 instructions each, two per hull–hull answer).
#[derive(Clone, Copy)]
struct BySupport<'s> {
    built: bool,
    shapes: &'s [(&'s Shape, &'s Pose)],
}

impl BySupport<'_> {
    /// Whether the point `p` is tested by GJK.
    #[inline(always)]
    fn asked(&self, p: &Point3<f64>) -> bool {
        !self.built || far(self.shapes, p)
    }
}

/// Whether `p` is in the shape to within `tol + slack()`, `slack()` ≥ 0 being the frame
/// allowance of inexact rotations ([`frame_slack`]). Every test below compares a distance with
/// the tolerance, so a point within `tol` is within `tol + slack()` too: the cheap tests run
/// with `tol` first, and only a point they do not accept is tested again with the slack added
/// (computed then) — the verdict of a single test with `tol + slack()`, without computing the
/// slack for the points that are plainly inside. Vertex polytopes and Minkowski sums (no
/// closed-form test) are tested, when `by_support` says so, by GJK between `p` and the shape:
/// refuted when its proven lower bound exceeds the tolerance (see the module docs). Inlined:
/// its closures and the shape's match then fold into the caller's (two calls per answer).
#[inline(always)]
fn holds(
    shape: &Shape,
    pose: &Pose,
    p: &Point3<f64>,
    tol: f64,
    slack: impl Fn() -> f64,
    by_support: BySupport<'_>,
) -> bool {
    if matches!(shape, Shape::ConvexPolytope(_) | Shape::MinkowskiSum(_)) {
        // No closed-form test (`outside_by` has none): by support when asked, else accepted.
        return !(shape.is_bounded() && by_support.asked(p))
            || contains_by_support(shape, pose, p, tol + slack());
    }
    if holds_closed_form(shape, pose, p, tol) == Some(true) {
        return true;
    }
    let tol = tol + slack();
    match holds_closed_form(shape, pose, p, tol) {
        Some(inside) => inside,
        None if shape.is_bounded() && by_support.asked(p) => contains_by_support(shape, pose, p, tol),
        None => true,
    }
}

/// The closed-form part of [`holds`] at the tolerance `tol`: `Some(verdict)`, or `None` for a
/// shape without such a test (then the GJK test of [`holds`] decides).
#[inline(always)]
fn holds_closed_form(shape: &Shape, pose: &Pose, p: &Point3<f64>, tol: f64) -> Option<bool> {
    if let Some(inside) = within_squared(shape, pose, p, tol) {
        return Some(inside);
    }
    if let Shape::Ellipsoid(x) = shape {
        // The point scaled towards the centre onto the surface, l/√level, is a point of the
        // ellipsoid |l|(1 − 1/√level) away: an upper bound of the distance, enough to accept
        // a witness on the surface up to round-off without the secular equation.
        let l = pose.inverse_transform_point(p).coords;
        let level = l.component_div(&x.radii()).norm_squared();
        if level <= 1.0 || (level.is_finite() && l.norm() * (1.0 - 1.0 / level.sqrt()) <= tol) {
            return Some(true);
        }
    }
    outside_by(shape, pose, p).map(|e| e <= tol)
}

/// [`outside_by`]` ≤ tol` without a square root, for the shapes of the closed forms: the
/// distance to the shape's core (a sphere's centre, a capsule's axis, a box's faces) compared
/// squared, |x|² ≤ (r + tol)². Both sides are rounded to a few ulps of themselves, far inside τ
/// (4096 ulps of the coordinates), so this is the test of [`outside_by`] to round-off. NaN
/// refutes, as there. `None`: no squared test for this shape (or a cylinder point beyond its
/// rim, outside both the disk's radius and the caps' planes, where the test needs the root).
#[inline(always)]
fn within_squared(shape: &Shape, pose: &Pose, p: &Point3<f64>, tol: f64) -> Option<bool> {
    let ball = |d2: f64, r: f64| {
        let reach = r + tol;
        d2 <= reach * reach
    };
    Some(match shape {
        // World frame, as in `outside_by`.
        Shape::Sphere(s) => ball((p - Point3::from(*pose.translation())).norm_squared(), s.radius()),
        Shape::Capsule(c) => {
            let l = pose.inverse_transform_point(p);
            let h = c.half_height();
            let dz = l.z - l.z.clamp(-h, h);
            ball(l.x * l.x + l.y * l.y + dz * dz, c.radius())
        }
        Shape::Cuboid(c) => {
            let l = pose.inverse_transform_point(p);
            ball(box_excess_squared(&l.coords, &-c.half_extents(), &c.half_extents()), 0.0)
        }
        Shape::AlignedBox(b) => {
            let l = pose.inverse_transform_point(p);
            ball(box_excess_squared(&l.coords, &b.min().coords, &b.max().coords), 0.0)
        }
        Shape::Cylinder(c) => {
            let l = pose.inverse_transform_point(p);
            let r = c.radius();
            let (rho2, beyond) = (l.x * l.x + l.y * l.y, l.z.abs() - c.half_height());
            // (NaN stays NaN: `beyond <= 0` is false for it.)
            let axial = if beyond <= 0.0 { 0.0 } else { beyond };
            if rho2 <= r * r {
                // Inside the infinite cylinder: only the axial excess is left.
                axial <= tol
            } else if axial == 0.0 {
                // Beside the side, between the caps' planes: only the radial excess ρ − r.
                ball(rho2, r)
            } else {
                // Beyond the rim: the Euclidean combination needs the root (`outside_by`).
                return None;
            }
        }
        _ => return None,
    })
}

/// The GJK point test of [`holds`]: `p` within `tol` of the shape by GJK's proven lower bound.
/// A test that cannot be made (the point so far from the shape that its squared distance
/// overflows: no finite lower bound, or an error) refutes: an answer that cannot be checked is
/// recomputed, never passed.
fn contains_by_support(shape: &Shape, pose: &Pose, p: &Point3<f64>, tol: f64) -> bool {
    match gjk_distance(&At(*p), &Pose::identity(), shape, pose, &GjkSettings::default(), None) {
        Ok(g) => g.lower.is_finite() && g.lower <= tol,
        Err(_) => false,
    }
}

/// The allowance for rotations off by more than rounding (data files with few digits) at the
/// world point `p`: a shape's local frame is reached through Rᵀ, which differs from R⁻¹ by up
/// to 3e (e = max |RᵀR − I|), moving the local point by up to 3e·|p − t|; and the algorithms
/// that work in A's frame place B there through R_aᵀ and come back through R_a, which moves a
/// point of B by up to 3e_a·|p − t_a| more. 4(e_a |p − t_a| + e_b |p − t_b|) covers both
/// (0 for exact rotations). The errors e are stored in the poses (computed once, when the
/// pose is made); |p − t| is bounded by 1.75 ≥ √3 times its largest component (no root per
/// query).
#[inline(always)]
pub(crate) fn frame_slack(pa: &Pose, pb: &Pose, p: &Point3<f64>) -> f64 {
    let term = |pose: &Pose| {
        let e = pose.orthonormality_error();
        if e > 0.0 { 4.0 * ROOT_3_ABOVE * e * max_abs(&(p.coords - pose.translation())) } else { 0.0 }
    };
    term(pa) + term(pb)
}

/// A number above √3: |x| ≤ √3 · max |x_k| for x ∈ ℝ³.
const ROOT_3_ABOVE: f64 = 1.75;

/// Checks a distance answer against the user's shapes (see the module docs).
pub(crate) fn check_distance(
    shapes: (&Shape, &Pose, &Shape, &Pose),
    r: &DistanceResult,
) -> Result<(), Refuted> {
    check_distance_with(shapes, r, false)
}

/// [`check_distance`] for an answer whose separated witnesses are `constructed` on their
/// shapes: by the closed forms of points, segments, lines, spheres and capsules with each
/// other, of a point or sphere with a box or a cylinder, and of those pieces or a triangle
/// with a triangle (`dispatch.rs`); and the dual Newton's on two ellipsoids, support points of
/// the user's ellipsoids up to a rounding bounded in [`dual_witness_within`]. Each other such witness is a point of a world-frame core — a
/// pose's translation t, R·x + t for a point x of the local segment, box or cylinder (a box
/// witness is the centre clamped to the box in the box's frame, a cylinder's the centre's
/// radial part scaled to length r (to 2 ulps of r) when beyond it and its height clamped),
/// o + s·d with s clamped to a world segment or triangle edge,
/// or x + Σ λᵢ(vᵢ − x) with λ ≥ 0, Σ λ = 1 (`closest_to_origin` on the world vertices
/// vᵢ = R·xᵢ + t, x the other witness) — plus n·r along a unit n (|n| = 1 to 2 ulps): a point
/// of the posed shape R·S + t as the user gave it, up to the rounding of those few
/// operations, ≤ 8 ulps of |R·x| + |t| + r + |x|, and for the radius up to the frame slack of a
/// non-orthonormal R that the test allows for anyway (R·(x + b) and R·x + b differ by
/// (R − I)·b, |b| = r).
///
/// The box–box kernel's witnesses on two cuboids (`lcp_queries::box_box`: every path, the
/// active-set solver, Lemke's and the exact re-solve) are K + Σ ξⱼuⱼ with K = t − Σ hⱼuⱼ and
/// ξⱼ ∈ [0, 2hⱼ] (the solvers keep or clamp ξ in the box; t, uⱼ = R's columns and hⱼ are the
/// user's numbers, unrounded), evaluated coordinate by coordinate as a sum of seven terms
/// t_k, −hⱼu_jk, ξⱼu_jk: off the exact point t + Σ (ξⱼ − hⱼ)uⱼ of the posed box by at most
/// γ₇ ≈ 3.5ε times Σ of the terms' magnitudes ≤ |t| + 3Σ hⱼ|uⱼ|, i.e. ≤ 10.5ε·(|t|₁ + (1 +
/// 3e)·|h|₁) (an exact witness rounded is off by ε/2·|p|, less); with [`reach_within`]'s bound
/// below, at most 2688 ulps of max(1, c), two thirds of τ.
///
/// So, as for GJK's polytope witnesses ([`far`]), the containment test is skipped when it
/// could only accept: when [`reach_within`] bounds |R·x| + |t| + r by [`FAR`] × max(1, c), c
/// the witnesses' largest coordinate (the c of τ = τ(c) the test would use, so one limit
/// serves both witnesses), those 8 ulps are at most 2048 + 14 ulps of max(1, c) (|x| ≤ √3·c),
/// half of τ. Otherwise (far from the origin, lines, other shapes), and for
/// contact answers, the full test runs. The bracket (finite, 0 ≤ lower ≤ upper, upper =
/// |p_b − p_a|) is checked always: the witnesses being points of the shapes, upper is a
/// distance between the shapes whatever the closed form computed, and lower is the user's
/// support functions' separation (`certificate.rs`).
pub(crate) fn check_closed_form_distance(
    shapes: (&Shape, &Pose, &Shape, &Pose),
    r: &DistanceResult,
    constructed: bool,
) -> Result<(), Refuted> {
    check_distance_with(shapes, r, constructed)
}

/// Whether the placed closed-form shape (point, segment, triangle, sphere, capsule, box,
/// cylinder) lies within `limit` = [`FAR`] × max(1, c) of the origin, c the largest
/// coordinate of the two witnesses (the scale of τ, see [`check_closed_form_distance`]; one
/// limit for both shapes, computed once), by root-free bounds: the 1-norm of the local
/// reach and of the translation (each ≥ the Euclidean length), the local reach scaled by
/// 1 + 3e (|R·x| ≤ √(1 + 3e)·|x| for e = max |RᵀR − I|). `false` for every other shape, and
/// when the bound does not show it (then the test runs: skipping is only ever an option).
#[inline(always)]
fn reach_within(shape: &Shape, pose: &Pose, limit: f64) -> bool {
    let l1 = |v: &Vector3<f64>| v.x.abs() + v.y.abs() + v.z.abs();
    let local = match shape {
        Shape::Sphere(s) => s.radius(),
        Shape::Capsule(c) => c.half_height() + c.radius(),
        // (√(r² + h²) ≤ r + h.)
        Shape::Cylinder(c) => c.radius() + c.half_height(),
        Shape::Cuboid(c) => l1(&c.half_extents()),
        Shape::AlignedBox(x) => l1(&x.min().coords.abs().sup(&x.max().coords.abs())),
        Shape::Point(x) => l1(&x.position().coords),
        Shape::Segment(x) => {
            let [u, v] = x.endpoints();
            l1(&u.coords).max(l1(&v.coords))
        }
        Shape::Triangle(x) => {
            let [u, v, w] = x.vertices();
            l1(&u.coords).max(l1(&v.coords)).max(l1(&w.coords))
        }
        // (Only the dual Newton's witnesses come `constructed` on an ellipsoid.)
        Shape::Ellipsoid(x) => return dual_witness_within(&x.radii(), pose, limit * (1.0 / FAR)),
        _ => return false,
    };
    let reach = local * (1.0 + 3.0 * pose.orthonormality_error()) + l1(pose.translation());
    reach <= limit
}

/// Whether a witness of the ellipsoid–ellipsoid dual Newton (`ellipsoid/dual_newton.rs`) on
/// the ellipsoid of `radii` placed by `pose` is within τ/2 of it, τ = τ(`scale`) with `scale`
/// = max(1, c), c the witnesses' largest coordinate (see [`check_closed_form_distance`]).
///
/// Such a witness is x = c + u, u = S m · (√q / q) (or S m / √q), q = mᵀS m, for the
/// pose's rotation R and centre c, S = R D² Rᵀ computed from R and D = diag(radii), and some
/// m ≠ 0 (the last evaluated direction; B's is c − u). In exact arithmetic, whatever R
/// (orthonormal or not), S m / √(mᵀS m) = R D v/|v| with v = D Rᵀ m: a point of the ellipsoid
/// {c + R D w : |w| ≤ 1} as the user placed it, so only the rounding counts. With d the
/// largest radius, δ the smallest, κ = d/δ and ε the machine epsilon (e ≤ 1e-3 the
/// rotation's orthonormality error, absorbed in the constants): S's entries are off by
/// ≤ 5u Σₖ|R_ik||R_jk|d_k² ≤ 2.5ε·d²(1 + 3e) (‖·‖_F ≤ 7.5ε d²(1 + 3e)), S m by ≤ 11ε d²|m| in
/// all, q by ≤ 13ε d²|m|² against q ≥ δ²|m|²(1 − 3e) (relative ≤ 13.1ε κ² ≤ 3e-9 for
/// κ² ≤ 2²⁰), the reciprocal √q / q by ≤ 6.6ε κ² + 1.5ε relative, so u is off by ≤
/// ε d (11.1κ + 6.7κ² + 2.2) ≤ 20ε κ² d and x by ≤ ε(21κ² d + 0.5|c|) ≤ ε(22κ² d + 0.9 c̄)
/// (|c| ≤ √3 c̄ + 1.01 d, c̄ = max(1, c) = `scale`): at most 705 ulps of `scale` when
/// κ² d ≤ 32·`scale`, under half of τ's 4096. The range tests keep every quantity normal: q ≥
/// δ²|m|²/2 with δ ≥ 1e-40 and |m| ≥ 1 (a Newton iterate n + t, t ⊥ n) or |m| = |c_b − c_a|,
/// which exceeds 1e-40 whenever the answer is separated (each ellipsoid holds the ball of
/// radius δ about its centre, so the other centre is farther than that), and q ≤ 1e281 with
/// d ≤ 1e40 and |c| ≤ 1e100 (rounding below the normal range would be absolute, ≤ 1e-300 ×
/// 1/(δ|m|), far under τ). The scaled-contact points that `finish` may report (c + t·u with
/// t ≤ 1, or their midpoint when both quadratic forms pass) are not separated answers: their
/// certificate has lower = 0 (the shapes meet up to the round-off `certify` allows), so they
/// are tested as common points.
#[inline(always)]
fn dual_witness_within(radii: &Vector3<f64>, pose: &Pose, scale: f64) -> bool {
    let t = pose.translation();
    let (d, delta) = (radii.max(), radii.min());
    let (d2, delta2) = (d * d, delta * delta);
    delta >= 1e-40
        && d <= 1e40
        && d2 <= 1_048_576.0 * delta2
        && d2 * d <= 32.0 * scale * delta2
        && pose.orthonormality_error() <= 1e-3
        && t.x.abs() + t.y.abs() + t.z.abs() <= 1e100
}

/// Whether GJK's witnesses on this shape are convex combinations of its vertices as placed (a
/// triangle's or box's support points are vertices, and the Newton polish clamps onto an edge
/// or face of the simplex's support points), hence inside it up to a few ulps of those
/// vertices, as for vertex polytopes (see [`far`]). The closed-form
/// test they skip costs a triangle's closest point (~250 instructions on convex–triangle).
#[inline(always)]
fn vertex_spanned(shape: &Shape) -> bool {
    matches!(shape, Shape::Triangle(_) | Shape::Cuboid(_) | Shape::AlignedBox(_))
}

/// Whether the separated witness `p` is on `s` placed by `pose` without a test: a closed
/// form's (`constructed`) within reach ([`reach_within`]), or GJK's (`gjk`) on a triangle or
/// box while that shape is not far ([`far`]). A function in line rather than a closure: the
/// closure was compiled out of line, a call per witness (~20 instructions each) on every
/// ~500-instruction closed-form query.
#[inline(always)]
fn on_by_construction(
    s: &Shape,
    pose: &Pose,
    p: &Point3<f64>,
    (constructed, limit): (bool, f64),
    gjk: bool,
) -> bool {
    (constructed && reach_within(s, pose, limit)) || (gjk && vertex_spanned(s) && !far(&[(s, pose)], p))
}

/// [`check_distance`], the separated witnesses' containment left out where
/// [`check_closed_form_distance`] shows it needless.
#[inline(always)]
fn check_distance_with(
    (a, pa, b, pb): (&Shape, &Pose, &Shape, &Pose),
    r: &DistanceResult,
    constructed: bool,
) -> Result<(), Refuted> {
    let c = r.certificate;
    // GJK's and DQP3's polytope witnesses are contained by construction up to round-off (see
    // `far`).
    let built = matches!(r.algorithm, Algorithm::Gjk | Algorithm::Dqp3);
    if !(c.lower.is_finite() && c.upper.is_finite() && c.lower >= 0.0) {
        return Err("certificate is not a finite non-negative bracket");
    }
    match r.proximity {
        Proximity::Separated { distance, point_a, point_b, .. } => {
            let coord = max_abs(&point_a.coords).max(max_abs(&point_b.coords));
            let tol = tolerance(coord);
            if c.lower > c.upper + tol {
                return Err("lower bound above the witness distance");
            }
            // |w − upper| ≤ τ for w = |p_b − p_a|, compared squared (no root): (upper − τ)₊² ≤ w²
            // ≤ (upper + τ)², each side rounded to a few ulps of itself, far inside τ (an overflowing
            // w² refutes, as the root of ∞ did).
            let w2 = (point_b - point_a).norm_squared();
            let (below, above) = ((c.upper - tol).max(0.0), c.upper + tol);
            if !(w2.is_finite() && w2 >= below * below && w2 <= above * above)
                || (distance - c.upper).abs() > tol
            {
                return Err("upper bound is not the witness distance");
            }
            let (shapes_a, shapes_b) = ([(a, pa)], [(b, pb)]);
            let check_a = BySupport { built, shapes: &shapes_a };
            let check_b = BySupport { built, shapes: &shapes_b };
            let slack_a = || frame_slack(pa, pb, &point_a);
            let slack_b = || frame_slack(pa, pb, &point_b);
            // A closed form's witnesses within reach (`reach_within`), and GJK's on a triangle or
            // box while that shape is not far (`far`), are on their shapes by construction: no
            // test.
            let gjk = r.algorithm == Algorithm::Gjk;
            let reach = (constructed, FAR * coord.max(1.0));
            let test_a = !on_by_construction(a, pa, &point_a, reach, gjk);
            let test_b = !on_by_construction(b, pb, &point_b, reach, gjk);
            if (test_a && !holds(a, pa, &point_a, tol, slack_a, check_a))
                || (test_b && !holds(b, pb, &point_b, tol, slack_b, check_b))
            {
                return Err("witness outside its shape");
            }
        }
        Proximity::Touching { point } | Proximity::Intersecting { point: Some(point), .. } => {
            // A common point is in both shapes to within τ (algorithms report answers within
            // the touching tolerance as separated, with both witnesses, see `settle`).
            let tol = tolerance(max_abs(&point.coords));
            let slack = || frame_slack(pa, pb, &point);
            let both = [(a, pa), (b, pb)];
            let check = BySupport { built, shapes: &both };
            if !holds(a, pa, &point, tol, slack, check) || !holds(b, pb, &point, tol, slack, check) {
                return Err("common point outside a shape");
            }
        }
        Proximity::Intersecting { point: None, .. } => {}
    }
    Ok(())
}

/// Checks an intersection answer against the user's shapes: a separating direction must
/// separate them (by their support functions), a common point must lie in both (`built`: it is
/// GJK's or a checked distance answer's, tested on vertex polytopes only as `far` says).
pub(crate) fn check_intersection(
    (a, pa, b, pb): (&Shape, &Pose, &Shape, &Pose),
    i: &Intersection,
    settings: &QuerySettings,
    built: bool,
) -> Result<(), Refuted> {
    match i {
        // (NaN counts as not apart.)
        Intersection::Separated { direction: Some(n) }
            if !crate::gjk::gt(separation(a, pa, b, pb, n), 0.0) =>
        {
            return Err("the shapes are not apart along the separating direction");
        }
        Intersection::Intersecting { point: Some(p) } => {
            let tol = tolerance(max_abs(&p.coords)).max(settings.touching_tolerance);
            let slack = || frame_slack(pa, pb, p);
            let both = [(a, pa), (b, pb)];
            let check = BySupport { built, shapes: &both };
            if !holds(a, pa, p, tol, slack, check) || !holds(b, pb, p, tol, slack, check) {
                return Err("common point outside a shape");
            }
        }
        _ => {}
    }
    Ok(())
}

/// A checked answer as reported: separated within the touching tolerance becomes touching
/// (at the witnesses' midpoint, the bracket kept), and a lower bound above the witness
/// distance by less than τ is clamped to it. Algorithms report separated answers with their
/// witnesses whatever the touching tolerance, so that the check sees both witnesses.
pub(crate) fn settle(mut r: DistanceResult, settings: &QuerySettings) -> DistanceResult {
    settle_in_place(&mut r, settings);
    r
}

/// [`settle`] in place (no copy of the answer).
#[inline(always)]
pub(crate) fn settle_in_place(r: &mut DistanceResult, settings: &QuerySettings) {
    // Written only when it changes (rarely: lower above upper by round-off): the answer is
    // copied right after, and an 8-byte store into the bracket made that copy's 16-byte read
    // of it wait (a store-forwarding stall on every query).
    let lower = r.certificate.lower.min(r.certificate.upper);
    if lower.to_bits() != r.certificate.lower.to_bits() {
        r.certificate.lower = lower;
    }
    if let Proximity::Separated { distance, point_a, point_b, .. } = r.proximity
        && distance <= settings.touching_tolerance
    {
        r.proximity = Proximity::Touching { point: nalgebra::center(&point_a, &point_b) };
    }
}

/// The error for an answer that failed its check even after the GJK recomputation.
pub(crate) fn uncertified(what: Refuted) -> GeomError {
    GeomError::Uncertified { what }
}

#[cfg(test)]
mod tests {
    //! The root-free containment and upper-bound tests against the root-based ones they replace
    //! (`outside_by ≤ τ`, |w − upper| ≤ τ): points placed at (1 ± 1%)·τ from each surface,
    //! where only a wrong test can give the other verdict.

    use nalgebra::{Matrix3, Point3, Rotation3, Vector3};

    use super::{outside_by, tolerance, within_squared};
    use crate::pose::Pose;
    use crate::shape::{AlignedBox, Capsule, Cuboid, Cylinder, Shape, Sphere};

    fn poses() -> Vec<Pose> {
        let mut out = vec![Pose::identity()];
        for k in 0..6 {
            let f = k as f64;
            let r = Rotation3::from_euler_angles(0.3 + f, 1.1 * f, 0.7 - 0.4 * f);
            let m: Matrix3<f64> = *r.matrix();
            let t = Vector3::new(10.0 * f - 20.0, 3.0 - f, 1e3 * f);
            out.push(Pose::from_matrix(m, t).unwrap());
        }
        out
    }

    /// (shape, local surface point, local outward normal) samples.
    fn surface_points() -> Vec<(Shape, Point3<f64>, Vector3<f64>)> {
        let mut out = Vec::new();
        let dirs = [
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.3, -0.8, 0.52),
            Vector3::new(-0.6, 0.6, -0.529_150_262_212_918),
            Vector3::new(0.0, 0.0, -1.0),
        ];
        let sphere = Shape::Sphere(Sphere::new(0.7).unwrap());
        for d in dirs {
            let n = d.normalize();
            out.push((sphere.clone(), Point3::from(n * 0.7), n));
        }
        let capsule = Shape::Capsule(Capsule::new(0.4, 1.5).unwrap());
        for (d, z) in dirs.iter().zip([0.3f64, 1.5, -1.5, -1.5]) {
            let n = if z.abs() < 1.5 { Vector3::new(d.x, d.y, 0.0).normalize() } else { d.normalize() };
            let n = if z.abs() == 1.5 && n.z * z < 0.0 { -n } else { n };
            out.push((capsule.clone(), Point3::new(0.0, 0.0, z) + n * 0.4, n));
        }
        let cuboid = Shape::Cuboid(Cuboid::new([0.5, 1.0, 2.0]).unwrap());
        out.push((cuboid.clone(), Point3::new(0.5, 0.2, -1.0), Vector3::x()));
        out.push((cuboid.clone(), Point3::new(0.5, 1.0, 2.0), Vector3::new(1.0, 1.0, 1.0).normalize()));
        let aligned = Shape::AlignedBox(AlignedBox::new([-1.0, 0.0, 2.0], [0.0, 3.0, 2.5]).unwrap());
        out.push((aligned.clone(), Point3::new(-0.5, 3.0, 2.2), Vector3::y()));
        out.push((aligned, Point3::new(-1.0, 0.0, 2.0), -Vector3::new(1.0, 1.0, 1.0).normalize()));
        let cylinder = Shape::Cylinder(Cylinder::new(0.8, 1.2).unwrap());
        // Cap interior and side (root-free), rim (the root-based fallback).
        out.push((cylinder.clone(), Point3::new(0.2, -0.3, 1.2), Vector3::z()));
        out.push((cylinder.clone(), Point3::new(0.8, 0.0, 0.4), Vector3::x()));
        out.push((cylinder, Point3::new(0.0, -0.8, -1.2), Vector3::new(0.0, -1.0, -1.0).normalize()));
        out
    }

    #[test]
    fn squared_containment_agrees_with_the_distance_test() {
        let mut decided = 0;
        for pose in poses() {
            for (shape, q, n) in surface_points() {
                for factor in [0.0, 0.5, 0.99, 1.01, 2.0, 1e6] {
                    let world = pose.transform_point(&q);
                    let tol = tolerance(world.coords.amax());
                    let p = pose.transform_point(&(q + n * (factor * tol)));
                    let reference = outside_by(&shape, &pose, &p).unwrap() <= tol;
                    if let Some(fast) = within_squared(&shape, &pose, &p, tol) {
                        decided += 1;
                        assert_eq!(fast, reference, "{shape:?} at {factor} τ, pose {pose:?}");
                    }
                    // The expected verdict itself (the rotations are orthonormal to rounding,
                    // far below 1% of τ at these sizes).
                    assert_eq!(reference, factor < 1.0, "{shape:?} at {factor} τ");
                }
            }
        }
        assert!(decided > 300, "root-free tests made: {decided}");
        let nan = Point3::new(f64::NAN, 0.0, 0.0);
        for shape in surface_points().into_iter().map(|(s, _, _)| s) {
            assert_ne!(within_squared(&shape, &Pose::identity(), &nan, 1e-12), Some(true));
        }
    }

    #[test]
    fn upper_bound_check_is_the_witness_distance_to_tau() {
        use super::check_distance;
        use crate::query::{Algorithm, Certificate, DistanceResult, Proximity, QueryPath};
        let a = Shape::Sphere(Sphere::new(1.0).unwrap());
        let b = Shape::Sphere(Sphere::new(0.5).unwrap());
        let pa = Pose::identity();
        let pb = Pose::from_translation([3.0, 0.0, 0.0]).unwrap();
        let (point_a, point_b) = (Point3::new(1.0, 0.0, 0.0), Point3::new(2.5, 0.0, 0.0));
        let tol = tolerance(2.5);
        for (shift, ok) in [(0.0, true), (0.99, true), (-0.99, true), (1.01, false), (-1.01, false)] {
            let upper = 1.5 + shift * tol;
            let r = DistanceResult {
                proximity: Proximity::Separated { distance: upper, point_a, point_b, normal: Vector3::x() },
                certificate: Certificate { lower: 1.0, upper },
                algorithm: Algorithm::ClosedForm,
                path: QueryPath::ClosedForm,
            };
            assert_eq!(check_distance((&a, &pa, &b, &pb), &r).is_ok(), ok, "upper off by {shift} τ");
        }
    }

    /// Uniform numbers in [−1, 1) from a xorshift generator seeded with `seed`.
    fn xorshift(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
    }

    /// Two random poses near each other (B's translation within `spread` of A's), by `round`
    /// mod 3: at unit scale, at 1e6, or with rotations off orthonormal by up to ~1e-7.
    fn pose_pair(rnd: &mut impl FnMut() -> f64, round: usize, spread: f64) -> (Pose, Pose) {
        let (scale, wobble) = [(1.0, 0.0), (1e6, 0.0), (3.0, 1e-7)][round % 3];
        let mut pose = || {
            let r = Rotation3::from_euler_angles(3.0 * rnd(), 3.0 * rnd(), 3.0 * rnd());
            let m: Matrix3<f64> = r.matrix() + Matrix3::from_fn(|_, _| wobble * rnd());
            Pose::from_matrix(m, Vector3::new(rnd(), rnd(), rnd()) * scale).unwrap()
        };
        let (pa, pb) = (pose(), pose());
        let t = pa.translation() + Vector3::new(rnd(), rnd(), rnd()) * spread;
        (pa, Pose::from_matrix(*pb.rotation(), t).unwrap())
    }

    /// The containment test skipped for the closed forms' constructed witnesses
    /// (`check_closed_form_distance`) would have accepted them: every separated closed-form
    /// answer among points, segments, triangles, spheres, capsules, boxes and cylinders, at
    /// unit scale,
    /// at 1e6 and with rotations off orthonormal by up to ~1e-7, passes the full
    /// `check_distance`, and the skip is taken where the shapes are near the origin.
    #[test]
    fn constructed_witnesses_pass_the_full_containment_test() {
        use super::{FAR, check_distance, max_abs, reach_within};
        use crate::query::{Proximity, QueryPath, QuerySettings, distance};
        use crate::shape::{Point, Segment, Triangle};
        let shapes = [
            Shape::Point(Point::new([0.1, -0.2, 0.3]).unwrap()),
            Shape::Segment(Segment::new([-0.5, 0.1, 0.0], [0.4, 0.3, -0.6]).unwrap()),
            Shape::Triangle(Triangle::new([0.2, -0.4, 0.1], [1.3, 0.2, 0.5], [-0.1, 0.9, -0.3]).unwrap()),
            Shape::Sphere(Sphere::new(0.7).unwrap()),
            Shape::Capsule(Capsule::new(0.3, 0.8).unwrap()),
            Shape::Cuboid(Cuboid::new([0.5, 0.3, 0.8]).unwrap()),
            Shape::AlignedBox(AlignedBox::new([-1.0, 0.0, 0.2], [0.0, 0.5, 1.5]).unwrap()),
            Shape::Cylinder(Cylinder::new(0.5, 0.6).unwrap()),
        ];
        let mut rnd = xorshift(0x2545_f491_4f6c_dd1d);
        let (mut checked, mut skipped) = (0, 0);
        for round in 0..300 {
            let (pa, pb) = pose_pair(&mut rnd, round, 2.0);
            for a in &shapes {
                for b in &shapes {
                    // The cylinder's closed form is the ball's (`BallCylinder`); its other pairs
                    // go to candidate features or GJK (not constructed).
                    let ball = |s: &Shape| matches!(s, Shape::Point(_) | Shape::Sphere(_));
                    let cylinder = |s: &Shape| matches!(s, Shape::Cylinder(_));
                    if (cylinder(a) && !ball(b)) || (cylinder(b) && !ball(a)) {
                        continue;
                    }
                    let r = distance(a, &pa, b, &pb, &QuerySettings::default()).unwrap();
                    let Proximity::Separated { point_a, point_b, .. } = r.proximity else { continue };
                    if r.path != QueryPath::ClosedForm {
                        continue;
                    }
                    assert!(check_distance((a, &pa, b, &pb), &r).is_ok(), "{a:?} {b:?} {pa:?} {pb:?}: {r:?}");
                    checked += 1;
                    let limit = FAR * max_abs(&point_a.coords).max(max_abs(&point_b.coords)).max(1.0);
                    if reach_within(a, &pa, limit) && reach_within(b, &pb, limit) {
                        skipped += 1;
                    }
                }
            }
        }
        assert!(checked > 5_000, "closed-form answers checked: {checked}");
        assert!(skipped > 1_000, "answers whose containment the closed-form check skips: {skipped}");
    }

    /// The dual Newton's witnesses on two ellipsoids, whose containment test is skipped where
    /// `dual_witness_within` says so, are within τ/2 of their ellipsoids there: for round,
    /// flat and needle ellipsoids (κ up to 1000) at unit scale, at 1e6 and with rotations off
    /// orthonormal by up to ~1e-7, each such witness x gives w = D⁻¹R⁻¹(x − c) (R inverted,
    /// not transposed) with |R D w| |1 − 1/|w|| — its distance to the point c + R D w/|w| of
    /// the ellipsoid as placed — at most τ/2, and every separated answer passes the full
    /// `check_distance`.
    #[test]
    fn dual_newton_witnesses_are_within_half_tau_where_the_test_is_skipped() {
        use super::{check_distance, dual_witness_within, max_abs};
        use crate::query::{Proximity, QueryPath, QuerySettings, distance};
        use crate::shape::Ellipsoid;
        let radii = [[0.5, 0.4, 0.3], [0.4, 0.8, 1.2], [0.05, 1.0, 0.6], [1e-3, 1e-3, 1.0], [2.0, 2.0, 2.0]];
        let shapes = radii.map(|r| Shape::Ellipsoid(Ellipsoid::new(r).unwrap()));
        let mut rnd = xorshift(0x51_7cc1_b727_220a);
        let (mut checked, mut skipped, mut tested) = (0, 0, 0);
        for round in 0..300 {
            let (pa, pb) = pose_pair(&mut rnd, round, 3.0);
            for a in &shapes {
                for b in &shapes {
                    let r = distance(a, &pa, b, &pb, &QuerySettings::default()).unwrap();
                    let Proximity::Separated { point_a, point_b, .. } = r.proximity else { continue };
                    assert!(matches!(r.path, QueryPath::Ellipsoid { .. }), "{r:?}");
                    assert!(check_distance((a, &pa, b, &pb), &r).is_ok(), "{a:?} {b:?} {pa:?} {pb:?}: {r:?}");
                    checked += 1;
                    let scale = max_abs(&point_a.coords).max(max_abs(&point_b.coords)).max(1.0);
                    for (shape, pose, x) in [(a, &pa, point_a), (b, &pb, point_b)] {
                        let Shape::Ellipsoid(e) = shape else { unreachable!() };
                        if !dual_witness_within(&e.radii(), pose, scale) {
                            tested += 1;
                            continue;
                        }
                        skipped += 1;
                        let inverse = pose.rotation().try_inverse().unwrap();
                        let w = (inverse * (x.coords - pose.translation())).component_div(&e.radii());
                        let off = (pose.rotation() * w.component_mul(&e.radii())).norm()
                            * (1.0 - 1.0 / w.norm()).abs();
                        assert!(off <= 0.5 * tolerance(scale), "{e:?} {pose:?} {x}: {off:e} off");
                    }
                }
            }
        }
        assert!(checked > 4_000, "separated ellipsoid answers checked: {checked}");
        assert!(skipped > 4_000 && tested > 200, "witnesses skipped {skipped}, tested {tested}");
    }

    /// The containment test skipped for GJK's witnesses on triangles and boxes
    /// (`vertex_spanned`, while `far` says no) would have accepted them: every separated GJK
    /// answer of a triangle, cuboid or aligned box against every bounded shape kind (GJK
    /// forced, and the default routes that end in GJK with its Newton polish: against
    /// cylinders, ellipsoids and hulls), at unit scale, at 1e6 and with rotations off
    /// orthonormal by up to ~1e-7, passes the full `check_distance`.
    #[test]
    fn gjk_vertex_witnesses_pass_the_full_containment_test() {
        use super::{check_distance, far, vertex_spanned};
        use crate::query::{Algorithm, Proximity, QuerySettings, distance};
        use crate::shape::{ConvexPolytope, Ellipsoid, Triangle};
        let flat = [
            Shape::Triangle(Triangle::new([0.2, -0.4, 0.1], [1.3, 0.2, 0.5], [-0.1, 0.9, -0.3]).unwrap()),
            Shape::Cuboid(Cuboid::new([0.5, 0.3, 0.8]).unwrap()),
            Shape::AlignedBox(AlignedBox::new([-1.0, 0.0, 0.2], [0.0, 0.5, 1.5]).unwrap()),
        ];
        let hull = ConvexPolytope::new(vec![
            [0.5, 0.4, -0.1],
            [-0.3, 0.1, -0.5],
            [0.6, -0.2, 0.3],
            [-0.5, -0.4, 0.2],
            [0.1, 0.6, 0.4],
            [-0.2, -0.1, 0.7],
        ])
        .unwrap();
        let others = [
            flat[0].clone(),
            flat[1].clone(),
            Shape::Sphere(Sphere::new(0.7).unwrap()),
            Shape::Capsule(Capsule::new(0.3, 0.8).unwrap()),
            Shape::Cylinder(Cylinder::new(0.5, 0.6).unwrap()),
            Shape::Ellipsoid(Ellipsoid::new([0.4, 0.8, 1.2]).unwrap()),
            Shape::ConvexPolytope(hull),
        ];
        let mut rnd = xorshift(0x9e37_79b9_7f4a_7c15);
        let settings = [QuerySettings::default(), QuerySettings::default().with_algorithm(Algorithm::Gjk)];
        let (mut checked, mut skipped) = (0, 0);
        for round in 0..150 {
            let (pa, pb) = pose_pair(&mut rnd, round, 2.5);
            for a in &flat {
                for b in &others {
                    for s in &settings {
                        for (x, px, y, py) in [(a, &pa, b, &pb), (b, &pb, a, &pa)] {
                            let r = distance(x, px, y, py, s).unwrap();
                            let Proximity::Separated { point_a, point_b, .. } = r.proximity else { continue };
                            if r.algorithm != Algorithm::Gjk {
                                continue;
                            }
                            assert!(
                                check_distance((x, px, y, py), &r).is_ok(),
                                "{x:?} {y:?} {px:?} {py:?}: {r:?}"
                            );
                            checked += 1;
                            let skip = |s: &Shape, p: &Pose, q: &Point3<f64>| {
                                vertex_spanned(s) && !far(&[(s, p)], q)
                            };
                            if skip(x, px, &point_a) || skip(y, py, &point_b) {
                                skipped += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 2_000, "GJK answers checked: {checked}");
        assert!(skipped > 1_000, "answers whose containment test the GJK check skips: {skipped}");
    }
}
