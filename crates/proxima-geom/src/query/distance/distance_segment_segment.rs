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
    let det = a * c - b * b;
    let bounded = p.lo.is_finite() && p.hi.is_finite() && q.lo.is_finite() && q.hi.is_finite();
    if det > WELL_CONDITIONED * a * c && bounded {
        // Two well-conditioned segments (sin² of their angle above the threshold): the
        // clamped stationary point, see `clamp_twice`. An interior one is returned as is.
        let (s, t) = clamp_twice(p, q, (a, b, c, d, e), det);
        return (p.at(s), q.at(t));
    }
    closest_by_scoring(p, q, (a, b, c, d, e), det)
}

/// The minimizer of f over the parameter box for two bounded pieces with det = ac − b² > 0
/// (f strictly convex), by clamping twice: s̄ = clamp(s*) for the stationary s*, then
/// t̂ = T(s̄) = (e + b·s̄)/c; when t̂ is inside [lo_q, hi_q], (s̄, t̂) is the minimum, otherwise t
/// is clamped to the bound t̂ passed and s re-minimized there, clamp(S(t)) with
/// S(t) = (b·t − d)/a.
///
/// Why this is the minimum: write f(s, t) = c·(t − T(s))² + h(s) with h(s) = f(s, T(s)) convex,
/// minimal at s*, so on [lo_p, hi_p] h grows away from s̄. If T(s̄) is inside, f(s̄, T(s̄)) =
/// h(s̄) ≤ h(s) ≤ f(s, t) for every (s, t) of the box. If T(s̄) < lo_q, take any box point
/// (s, t): either T(s) ≤ lo_q, and then f(s, lo_q) ≤ f(s, t) (f grows in t above T(s)), or
/// T(s) > lo_q, and then T (affine) crosses lo_q at some s'' between s̄ and s, where
/// f(s'', lo_q) = h(s'') ≤ h(s) ≤ f(s, t). Either way a point of the edge t = lo_q is at least
/// as close, and on that edge the minimum is the clamped S(lo_q). Symmetrically above hi_q.
#[inline(always)]
fn clamp_twice(
    p: &LinearPiece,
    q: &LinearPiece,
    (a, b, c, d, e): (f64, f64, f64, f64, f64),
    det: f64,
) -> (f64, f64) {
    let s = p.clamp((b * e - c * d) / det);
    let t = (e + b * s) / c;
    if t < q.lo {
        (p.clamp((b * q.lo - d) / a), q.lo)
    } else if t > q.hi {
        (p.clamp((b * q.hi - d) / a), q.hi)
    } else {
        (s, t)
    }
}

/// The general path: the stationary point when inside the parameter box, and every edge
/// candidate (each parameter at a finite bound, the other its clamped 1-D minimizer), scored
/// by its actual distance (near-parallel pieces, lines, a point against a piece).
#[inline(always)]
fn closest_by_scoring(
    p: &LinearPiece,
    q: &LinearPiece,
    (a, b, c, d, e): (f64, f64, f64, f64, f64),
    det: f64,
) -> (Point3<f64>, Point3<f64>) {
    let mut best: Option<(f64, Point3<f64>, Point3<f64>)> = None;
    let mut consider = |s: f64, t: f64| {
        let (pp, qq) = (p.at(s), q.at(t));
        let d2 = (qq - pp).norm_squared();
        if d2.is_finite() && best.is_none_or(|(bd, _, _)| d2 < bd) {
            best = Some((d2, pp, qq));
        }
    };
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

#[cfg(test)]
mod tests {
    //! `clamp_twice` (well-conditioned segments) against the scoring path and a sampled
    //! minimum, on random segments of every relative placement.

    use nalgebra::{Point3, Vector3};

    use super::{LinearPiece, WELL_CONDITIONED, closest_by_scoring, closest_linear_linear};

    fn segment(o: [f64; 3], d: [f64; 3]) -> LinearPiece {
        LinearPiece { origin: Point3::from(o), dir: Vector3::from(d), lo: 0.0, hi: 1.0 }
    }

    #[test]
    fn clamping_twice_finds_the_scored_minimum() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
        };
        let mut fast = 0;
        for _ in 0..20_000 {
            let p = segment([rnd(), rnd(), rnd()], [rnd(), rnd(), rnd()]);
            let q = segment([rnd(), rnd(), rnd()], [rnd(), rnd(), rnd()]);
            let (u, v, w) = (p.dir, q.dir, p.origin - q.origin);
            let (a, b, c, d, e) = (u.dot(&u), u.dot(&v), v.dot(&v), u.dot(&w), v.dot(&w));
            let det = a * c - b * b;
            if det > WELL_CONDITIONED * a * c {
                fast += 1;
            }
            let (pa, qa) = closest_linear_linear(&p, &q);
            let (pb, qb) = closest_by_scoring(&p, &q, (a, b, c, d, e), det);
            let (got, scored) = ((qa - pa).norm(), (qb - pb).norm());
            // Both are minima of the same convex function up to rounding of O(10) ulps of
            // coordinates below 8 (the conditioning threshold bounds the amplification).
            assert!((got - scored).abs() <= 1e-12, "{got} vs {scored} for {p:?} {q:?}");
            // No sampled pair of parameters is closer.
            for i in 0..=8 {
                for j in 0..=8 {
                    let (s, t) = (i as f64 / 8.0, j as f64 / 8.0);
                    let dist = ((q.origin + q.dir * t) - (p.origin + p.dir * s)).norm();
                    assert!(dist >= got - 1e-12, "({s}, {t}) beats {got}");
                }
            }
        }
        assert!(fast > 15_000, "well-conditioned cases: {fast}");
    }
}
