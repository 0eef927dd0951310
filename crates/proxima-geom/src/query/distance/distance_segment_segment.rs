//! Closest points between two *linear pieces*: points, segments and lines, i.e. sets
//! { o + s·u : s ∈ [lo, hi] } with u possibly zero (a point) and bounds possibly infinite
//! (a line). Spheres and capsules reuse it with their radii (see `rounded` in the dispatcher).
//!
//! # Maths
//!
//! Minimize f(s, t) = |w + s·u − t·v|², w = o_p − o_q, over the box [lo_p, hi_p] × [lo_q, hi_q].
//! With a = u·u, b = u·v, c = v·v, d = u·w, e = v·w the stationarity conditions are
//! a·s − b·t = −d and −b·s + c·t = e. f is convex, so its minimum over the box is either the
//! unconstrained stationary point (when det = ac − b² > 0 and it lies in the box) or on an
//! edge of the box, where the other parameter is the clamped 1-D minimizer
//! (t = clamp((e + b·s)/c), s = clamp((b·t − d)/a)).
//!
//! # Edge cases
//!
//! * Parallel (or nearly parallel) pieces: det ≈ 0 makes the stationary point meaningless; the
//!   edge candidates still contain a minimizer (for overlapping parallel segments, one of the
//!   many), and every candidate is scored by its *actual* distance, so a poorly conditioned
//!   stationary point can never win over a better edge point.
//! * Two parallel lines have no edges: s = 0 and t its projection.
//! * A point (u = 0, lo = hi = 0) has only the edge s = 0.
//!
//! Reference: the classical clamped-parameter formulation (e.g. Eberly, "Distance between two
//! line segments", Geometric Tools), written here from the maths above.

use nalgebra::{Point3, Vector3};

/// { origin + s·dir : s ∈ [lo, hi] } (world frame).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LinearPiece {
    pub origin: Point3<f64>,
    pub dir: Vector3<f64>,
    pub lo: f64,
    pub hi: f64,
}

impl LinearPiece {
    /// The axis segment of a shape placed by `pose` whose local axis is the z segment
    /// (0, 0, ±h) (capsule, cylinder): from t − h·R e_z to t + h·R e_z (R e_z = the third
    /// column; no full transforms).
    #[inline]
    pub(crate) fn z_axis(pose: &crate::pose::Pose, h: f64) -> Self {
        let half = pose.rotation().column(2) * h;
        LinearPiece { origin: Point3::from(pose.translation() - half), dir: half * 2.0, lo: 0.0, hi: 1.0 }
    }
    fn at(&self, s: f64) -> Point3<f64> {
        if s == 0.0 { self.origin } else { self.origin + self.dir * s }
    }
    fn clamp(&self, s: f64) -> f64 {
        if s.is_nan() { self.lo.max(0.0).min(self.hi) } else { s.clamp(self.lo, self.hi) }
    }
    /// max over the piece of n·x (its support value), `None` when the piece is unbounded
    /// (a line).
    #[inline]
    pub(crate) fn support_value(&self, n: &Vector3<f64>) -> Option<f64> {
        if !(self.lo.is_finite() && self.hi.is_finite()) {
            return None;
        }
        let (x, y) = (n.dot(&self.at(self.lo).coords), n.dot(&self.at(self.hi).coords));
        Some(if x >= y { x } else { y })
    }
    fn finite_bounds(&self) -> impl Iterator<Item = f64> {
        let (lo, hi) = (self.lo, self.hi);
        [Some(lo), if hi != lo { Some(hi) } else { None }].into_iter().flatten().filter(|x| x.is_finite())
    }
}

/// det = ac − b² above this × ac (sin² of the angle between the directions > 1e-4): the
/// stationary point is computed with a relative error of at most ~1e4 ulps, so when it is
/// inside the parameter box it is returned without scoring the edge candidates.
const WELL_CONDITIONED: f64 = 1e-4;

/// Closest points (on p, on q). Always inlined: the capsule/sphere/segment closed forms are
/// ~100 ns queries, and a call here (with its by-memory return) measured +40 ns on capsules.
#[inline(always)]
pub(crate) fn closest_linear_linear(p: &LinearPiece, q: &LinearPiece) -> (Point3<f64>, Point3<f64>) {
    let (u, v) = (p.dir, q.dir);
    let w = p.origin - q.origin;
    let (a, b, c, d, e) = (u.dot(&u), u.dot(&v), v.dot(&v), u.dot(&w), v.dot(&w));
    // A point against a point or a piece: the projection, without the candidate scoring (the
    // general path below returns the same points: its first candidate is this one, and the
    // others are no closer).
    if a == 0.0 && p.lo == 0.0 {
        let t = if c > 0.0 { q.clamp(e / c) } else { q.clamp(0.0) };
        return (p.origin, q.at(t));
    }
    let mut best: Option<(f64, Point3<f64>, Point3<f64>)> = None;
    let mut consider = |s: f64, t: f64| {
        let (pp, qq) = (p.at(s), q.at(t));
        let d2 = (qq - pp).norm_squared();
        if d2.is_finite() && best.is_none_or(|(bd, _, _)| d2 < bd) {
            best = Some((d2, pp, qq));
        }
    };
    let det = a * c - b * b;
    if det > 0.0 {
        let s = (b * e - c * d) / det;
        let t = (a * e - b * d) / det;
        if s.is_finite() && t.is_finite() && s >= p.lo && s <= p.hi && t >= q.lo && t <= q.hi {
            if det > WELL_CONDITIONED * a * c {
                // f is convex: an interior stationary point is the minimum. Well conditioned
                // (sin² of the angle between the pieces above the threshold), its rounding
                // error is far below any edge candidate's advantage: no need to score them.
                return (p.at(s), q.at(t));
            }
            consider(s, t);
        }
    }
    for s in p.finite_bounds() {
        let t = if c > 0.0 { q.clamp((e + b * s) / c) } else { q.clamp(0.0) };
        consider(s, t);
    }
    for t in q.finite_bounds() {
        let s = if a > 0.0 { p.clamp((b * t - d) / a) } else { p.clamp(0.0) };
        consider(s, t);
    }
    // Two lines (no finite bound on either side): parallel case, or fallback.
    if !p.lo.is_finite() && !q.lo.is_finite() {
        let t = if c > 0.0 { e / c } else { 0.0 };
        consider(0.0, t);
    }
    match best {
        Some((_, pp, qq)) => (pp, qq),
        None => (p.origin, q.origin),
    }
}
