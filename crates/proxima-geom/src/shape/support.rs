//! Support functions in the world frame: for a direction n, a support point
//! s(n) ∈ argmax_{x ∈ S} n·x and the support value h(n) = max_{x ∈ S} n·x.
//!
//! These give the lower bound of every distance certificate (see [`crate::query`]): for a
//! unit n, min_{b∈B} n·b − max_{a∈A} n·a = −h_B(−n) − h_A(n) ≤ dist(A, B).
//!
//! Edge cases: a zero direction returns a point of the shape (the support of the zero
//! function); a [`Line`](super::Line) is unbounded along its direction: its support value is +∞
//! unless n is perpendicular to it (|n·d| ≤ 1e-12·|n|, then n·origin), and its support point
//! is `None` in the unbounded case.

use nalgebra::{Point3, Vector3};

use super::Shape;
use super::adjacency::HILL_CLIMB_MIN_VERTICES;
use crate::gjk::{SCANNED, scan_support, scanned_hint};
use crate::pose::Pose;

/// Convex polytopes with an adjacency and at least this many vertices climb from a warm hint
/// (a handful of neighbour dot products, the previous support vertex being at or next to the
/// answer) instead of scanning every vertex; cold queries below
/// [`HILL_CLIMB_MIN_VERTICES`] still scan. Cold queries on hulls with a
/// [`DirectionTable`](super::DirectionTable) (at least
/// [`DIRECTION_TABLE_MIN_VERTICES`](super::DIRECTION_TABLE_MIN_VERTICES) vertices) climb
/// from the table's start vertex for their direction.
pub(crate) const WARM_CLIMB_MIN_VERTICES: usize = 16;

/// |n·d| ≤ this × |n| counts as perpendicular to a line.
pub(crate) const LINE_PERPENDICULAR: f64 = 1e-12;

impl Shape {
    /// A point of the shape (world frame) maximizing `direction · x`, or `None` when the
    /// maximum is +∞ (a [`Line`](super::Line) not perpendicular to `direction`).
    pub fn support_point(&self, pose: &Pose, direction: &Vector3<f64>) -> Option<Point3<f64>> {
        let m = pose.rotation().transpose() * direction;
        let local = self.local_support(&m)?;
        Some(pose.transform_point(&local))
    }

    /// h(n) = max over the shape (world frame) of `direction · x`; +∞ for a line not
    /// perpendicular to `direction`.
    pub fn support_value(&self, pose: &Pose, direction: &Vector3<f64>) -> f64 {
        // Closed forms h(n) = n·t + h_local(Rᵀn) for the shapes whose local support function
        // is a formula (the same value as through the support point, up to rounding, without
        // the point's normalizations); anything not finite takes the general path.
        // |n| is taken only when |n|² is safely in range (an underflowed |n|² would drop the
        // radius term, not give a non-finite value).
        let n = direction;
        let n2 = n.norm_squared();
        if n2 > SAFE_SQUARE_MIN && n2 < SAFE_SQUARE_MAX {
            let local = match self {
                Shape::Sphere(s) => s.radius() * n2.sqrt(),
                Shape::Cuboid(c) => (pose.rotation().transpose() * n).abs().dot(&c.half_extents()),
                Shape::Capsule(c) => {
                    let m = pose.rotation().transpose() * n;
                    c.half_height() * m.z.abs() + c.radius() * n2.sqrt()
                }
                // The rim point (r m_xy/|m_xy|, ±h) of the support point, dotted with m:
                // r |m_xy| + h |m_z| (`planar_len` keeps |m_xy| exact when its square
                // underflows, as the support point's normalization does).
                Shape::Cylinder(c) => {
                    let m = pose.rotation().transpose() * n;
                    c.radius() * planar_len(m.x, m.y) + c.half_height() * m.z.abs()
                }
                // The corner the support point picks (hi where m_k ≥ 0, else lo), dotted with m.
                Shape::AlignedBox(b) => {
                    let m = pose.rotation().transpose() * n;
                    let (lo, hi) = (b.min(), b.max());
                    let pick = |x: f64, l: f64, h: f64| x * if x >= 0.0 { h } else { l };
                    pick(m.x, lo.x, hi.x) + pick(m.y, lo.y, hi.y) + pick(m.z, lo.z, hi.z)
                }
                _ => f64::NAN,
            };
            let h = n.dot(pose.translation()) + local;
            if h.is_finite() {
                return h;
            }
        }
        match self.support_point(pose, direction) {
            Some(p) => direction.dot(&p.coords),
            None => f64::INFINITY,
        }
    }

    /// Support point in the local frame for a local direction `m`.
    pub(crate) fn local_support(&self, m: &Vector3<f64>) -> Option<Point3<f64>> {
        let mut hint = u32::MAX;
        self.local_support_hinted(m, &mut hint)
    }

    /// Support point in the local frame for a local direction `m`; `hint` is a vertex index
    /// where polytopes with an adjacency start hill climbing (updated to the answer; other
    /// shapes ignore it). Exact for every shape: the witness is a point of the shape that
    /// attains the maximum (up to the rounding of the formulas).
    ///
    /// A cylinder is answered inline ([`cylinder_support`]): its formula is a handful of
    /// operations, which the general match's frame (saved registers for the polytope arms)
    /// cost more than (cylinders workload: 83 → ~40 instructions per support query, some 13
    /// queries per pair in GJK and the Newton polish). So is an ellipsoid whose |Dm|² is safely
    /// in range ([`ellipsoid_support`]; the general arm's formula, same bits), the other
    /// curved core of the GJK + Newton pairs.
    #[inline(always)]
    pub(crate) fn local_support_hinted(&self, m: &Vector3<f64>, hint: &mut u32) -> Option<Point3<f64>> {
        match self {
            Shape::Cylinder(c) => return Some(cylinder_support(c.radius(), c.half_height(), m)),
            Shape::Ellipsoid(e) => {
                if let Some(x) = ellipsoid_support(&e.radii(), m) {
                    return Some(x);
                }
            }
            _ => {}
        }
        self.local_support_general(m, hint)
    }

    /// [`Shape::local_support_hinted`] for every shape (the cylinder through
    /// [`cylinder_support`] too).
    #[inline(never)]
    fn local_support_general(&self, m: &Vector3<f64>, hint: &mut u32) -> Option<Point3<f64>> {
        let sgn = |x: f64, h: f64| if x >= 0.0 { h } else { -h };
        Some(match self {
            Shape::Point(p) => p.position(),
            Shape::Segment(s) => best_vertex(&s.endpoints(), m),
            Shape::Line(l) => {
                if l.direction().dot(m).abs() <= LINE_PERPENDICULAR * m.norm() {
                    l.origin()
                } else {
                    return None;
                }
            }
            Shape::Triangle(t) => best_vertex(&t.vertices(), m),
            Shape::Cuboid(c) => {
                let h = c.half_extents();
                Point3::new(sgn(m.x, h.x), sgn(m.y, h.y), sgn(m.z, h.z))
            }
            Shape::AlignedBox(b) => {
                let (lo, hi) = (b.min(), b.max());
                let pick = |x: f64, l: f64, h: f64| if x >= 0.0 { h } else { l };
                Point3::new(pick(m.x, lo.x, hi.x), pick(m.y, lo.y, hi.y), pick(m.z, lo.z, hi.z))
            }
            Shape::Sphere(s) => Point3::from(unit_or_zero(m) * s.radius()),
            Shape::Capsule(c) => {
                Point3::new(0.0, 0.0, sgn(m.z, c.half_height())) + unit_or_zero(m) * c.radius()
            }
            Shape::Cylinder(c) => cylinder_support(c.radius(), c.half_height(), m),
            Shape::Ellipsoid(e) => {
                // max m·x over (x/a)²+… ≤ 1: x = D²m / |Dm| = D u / |u| for u = Dm / max|Dm|
                // (D = diag(radii)); the scalings keep |u| from overflowing or underflowing
                // for directions or radii far from 1.
                let d = e.radii();
                if let Some(x) = ellipsoid_support(&d, m) {
                    return Some(x);
                }
                let dm = scaled(m).component_mul(&d);
                let k = dm.amax();
                if k > 0.0 && k.is_finite() {
                    let u = dm / k;
                    Point3::from(d.component_mul(&u) / u.norm())
                } else {
                    Point3::origin()
                }
            }
            Shape::ConvexPolytope(p) => {
                let v = p.vertices();
                // A hint without the SCANNED bit is a climbing start (set by a previous climb,
                // or a warm start's previous support vertex): worth climbing from on mid-size
                // hulls too, where a cold climb from the seeds is not.
                let warm = *hint & SCANNED == 0 && v.len() >= WARM_CLIMB_MIN_VERTICES;
                match (p.adjacency(), p.direction_table()) {
                    // Cold on a hull with a start table: climb from m's cell, or from the
                    // previous support vertex of this run when that is better already (late
                    // GJK iterations barely turn m). The hint stays flagged SCANNED, so the
                    // run's later queries come back here (a warm start clears the flag).
                    (Some(adj), Some(table)) if !warm && let Some(t) = table.start(m) => {
                        let prev = (*hint & !SCANNED) as usize;
                        let mut start = t;
                        if prev < v.len() && m.dot(&v[prev].coords) > m.dot(&v[t as usize].coords) {
                            start = prev as u32;
                        }
                        let i = adj.hill_climb(v, m, &mut start);
                        *hint = scanned_hint(i);
                        v[i]
                    }
                    (Some(adj), _) if v.len() >= HILL_CLIMB_MIN_VERTICES || warm => {
                        v[adj.hill_climb(v, m, hint)]
                    }
                    _ => {
                        let i = scan_support(p, m);
                        // Remembered for warm starts, flagged so that later queries of this
                        // run keep scanning.
                        *hint = scanned_hint(i);
                        v[i]
                    }
                }
            }
            Shape::Polyhedron(p) => best_vertex(p.vertices(), m),
            Shape::Cone(c) => {
                let h = c.half_height();
                let m = scaled(m);
                let rho = planar_len(m.x, m.y);
                if m.z * h >= c.radius() * rho - m.z * h {
                    c.apex()
                } else if rho == 0.0 {
                    Point3::new(0.0, 0.0, -h)
                } else {
                    Point3::new(m.x * (c.radius() / rho), m.y * (c.radius() / rho), -h)
                }
            }
            Shape::Rounded(r) => r.inner().local_support_hinted(m, hint)? + unit_or_zero(m) * r.radius(),
            Shape::MinkowskiSum(s) => {
                let ((a, pa), (b, pb)) = (s.first(), s.second());
                let sa = a.support_point(pa, m)?;
                let sb = b.support_point(pb, m)?;
                Point3::from(sa.coords + sb.coords)
            }
        })
    }
}

/// The support point of the cylinder x² + y² ≤ r², |z| ≤ h for the local direction `m`: the
/// rim point (r m_xy/|m_xy|, ±h) on the side m_z points to (+h for m_z ≥ 0), the cap's centre
/// (0, 0, ±h) when m_xy = 0 (or |m_xy| is not finite).
#[inline(always)]
pub(crate) fn cylinder_support(r: f64, h: f64, m: &Vector3<f64>) -> Point3<f64> {
    let (x, y) = (m.x, m.y);
    let rlen = planar_len(x, y);
    let (rx, ry) = if rlen > 0.0 && rlen.is_finite() {
        let k = r / rlen;
        (x * k, y * k)
    } else {
        (0.0, 0.0)
    };
    Point3::new(rx, ry, if m.z >= 0.0 { h } else { -h })
}

/// The support point D(Dm)/|Dm| of the ellipsoid with radii `d` (D = diag(d)) for the local
/// direction `m`, when |Dm|² neither overflowed nor lost digits to underflow (one root, one
/// division); `None` otherwise (the general arm rescales first).
#[inline(always)]
fn ellipsoid_support(d: &Vector3<f64>, m: &Vector3<f64>) -> Option<Point3<f64>> {
    let dm = m.component_mul(d);
    let s2 = dm.norm_squared();
    (s2 > SAFE_SQUARE_MIN && s2 < SAFE_SQUARE_MAX)
        .then(|| Point3::from(d.component_mul(&dm) * (1.0 / s2.sqrt())))
}

/// Squared lengths strictly between these are computed without overflow and without losing
/// relative accuracy to underflow, so √(Σ xᵢ²) is within an ulp or two of the true length (a
/// component whose square underflows is below 1e-140 × the length: negligible).
pub(crate) const SAFE_SQUARE_MIN: f64 = 1e-280;
/// See [`SAFE_SQUARE_MIN`].
pub(crate) const SAFE_SQUARE_MAX: f64 = 1e280;

/// √(x² + y²): the plain root when the sum of squares is safely in range (see
/// [`SAFE_SQUARE_MIN`]), else `hypot` (a libm call, several times slower, guarding overflow).
#[inline]
pub(crate) fn planar_len(x: f64, y: f64) -> f64 {
    let s = x * x + y * y;
    if s > SAFE_SQUARE_MIN && s < SAFE_SQUARE_MAX { s.sqrt() } else { x.hypot(y) }
}

/// m / |m|, 0 for m = 0; exact in direction for every finite m (scaled by its largest
/// component first when |m|² would overflow or underflow).
fn unit_or_zero(m: &Vector3<f64>) -> Vector3<f64> {
    let s = m.norm_squared();
    if s > SAFE_SQUARE_MIN && s < SAFE_SQUARE_MAX {
        return m * (1.0 / s.sqrt());
    }
    let u = scaled(m);
    let len = u.norm();
    if len > 0.0 && len.is_finite() { u / len } else { Vector3::zeros() }
}

/// m / max|mᵢ| (m itself when that is 0 or not finite): a direction of moderate size.
fn scaled(m: &Vector3<f64>) -> Vector3<f64> {
    let k = m.amax();
    if k > 0.0 && k.is_finite() { m / k } else { *m }
}

/// The first vertex with the largest m·v (deterministic on ties).
fn best_vertex(vertices: &[Point3<f64>], m: &Vector3<f64>) -> Point3<f64> {
    let mut best = vertices[0];
    let mut best_val = m.dot(&best.coords);
    for v in &vertices[1..] {
        let val = m.dot(&v.coords);
        if val > best_val {
            best = *v;
            best_val = val;
        }
    }
    best
}
