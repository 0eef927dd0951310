//! Closest point of an axis-aligned ellipsoid to a point, in any dimension n ≥ 1.
//!
//! # The maths
//!
//! For semi-axes aᵢ > 0 and a point p, the closest surface point x solves
//! min |x − p|² subject to Σ xᵢ²/aᵢ² = 1. The KKT conditions give xᵢ = aᵢ²pᵢ/(aᵢ² + λ) and the
//! secular equation S(λ) = Σ aᵢ²pᵢ²/(aᵢ² + λ)² = 1 (spec §2.1). With a_min the shortest
//! semi-axis we work in the scaled variable s = λ/a_min², rᵢ = aᵢ²/a_min² ≥ 1 and zᵢ = |pᵢ|/aᵢ:
//!
//! ```text
//! F(s) = Σ (rᵢ zᵢ / (s + rᵢ))² − 1,      xᵢ = rᵢ pᵢ / (s + rᵢ).
//! ```
//!
//! On s > −1, F is strictly decreasing and convex. Hence Newton's method started *left* of the
//! root increases monotonically and never overshoots; we keep a bracket [lo, hi] with
//! F(lo) ≥ 0 ≥ F(hi) and fall back to bisection if a step leaves it (the bisection runs until
//! the midpoint equals an endpoint, so it always terminates at full precision). When Newton's
//! step from the left rounds to zero, the root is within rounding: the floats just above are
//! walked to the sign change of the computed F, the pair the bisection would end at (where F
//! is monotone at that scale), in one or two evaluations instead of about fifty.
//!
//! In three dimensions each term's rᵢ − 1 and rᵢzᵢ are computed once per query (the same
//! floating-point values as per evaluation), so an evaluation of F and F′ costs two divisions
//! per term.
//!
//! * **Outside** (Σzᵢ² > 1): root in [lo, hi] with lo = max(0, maxᵢ rᵢ(zᵢ − 1)) (each term
//!   alone must be ≤ 1 at the root) and hi = |r ⊙ z| − 1 (all denominators ≥ s + 1).
//! * **Inside** with a non-zero coordinate on a shortest axis: root in
//!   [−1 + |z_K|, 0], K the set of shortest axes (their term equals 1 at the lower end).
//! * **Inside with p on the "shortest-axis hyperplane"** (all zₖ = 0, k ∈ K — including the
//!   centre): the candidate at s = −1 has xᵢ = rᵢpᵢ/(rᵢ − 1) for i ∉ K. If
//!   q = Σ_{i∉K} (xᵢ/aᵢ)² ≤ 1 the closest points are x_K = ±a_min·√(1 − q) (the answer is
//!   not unique; we return the positive sign on the first shortest axis); otherwise the root
//!   of the reduced F (without the K terms) lies in (−1, 0].
//! * **On the surface** (Σzᵢ² = 1): s = 0, x = p.
//!
//! The iteration runs in σ = s + 1 (denominators σ + (rᵢ − 1)), which keeps full relative
//! accuracy when the root is close to the branch point s = −1.
//!
//! The point is handled in |pᵢ| and the signs restored at the end, so points on an axis and
//! extreme aspect ratios (rᵢ up to 1e24 for aspects 1e-12…1e12) need no special treatment.
//!
//! Edge cases: n = 0, mismatched lengths → [`GeomError::DimensionMismatch`]; a NaN/∞
//! coordinate or semi-axis → [`GeomError::NonFinite`]; a semi-axis ≤ 0 →
//! [`GeomError::NonPositive`].

use crate::error::GeomError;

/// Where the query point lies relative to the ellipsoid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointLocation {
    /// Σ pᵢ²/aᵢ² > 1.
    Outside,
    /// Σ pᵢ²/aᵢ² = 1 exactly.
    OnSurface,
    /// Σ pᵢ²/aᵢ² < 1.
    Inside,
}

/// The answer of the n-dimensional point–ellipsoid projection (the closest point itself is
/// written into the caller's buffer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointEllipsoidInfo {
    /// Distance from p to the closest *surface* point (≥ 0).
    pub surface_distance: f64,
    /// Distance from p to the *solid* ellipsoid (0 inside).
    pub distance: f64,
    /// The multiplier λ of the secular equation (λ = 0 on the surface, < 0 inside).
    pub lambda: f64,
    /// Newton + bisection steps taken.
    pub iterations: usize,
    /// Inside, on or outside.
    pub location: PointLocation,
}

/// The n-dimensional answer with an owned closest point.
#[derive(Debug, Clone, PartialEq)]
pub struct PointEllipsoidNd {
    /// The closest surface point.
    pub closest: Vec<f64>,
    /// Distances, multiplier, iterations and location.
    pub info: PointEllipsoidInfo,
}

/// Closest surface point of the ellipsoid Σ xᵢ²/aᵢ² ≤ 1 (`radii` = a) to `point`, any
/// dimension (allocates the result; see [`closest_point_ellipsoid_nd`] for a buffer version).
///
/// ```
/// use proxima_geom::ellipsoid::distance_point_ellipsoid_nd;
/// // Spec §2.5, 2-D row: a = (3, 2), p = (5, −1).
/// let r = distance_point_ellipsoid_nd(&[3.0, 2.0], &[5.0, -1.0])?;
/// assert!((r.info.distance - 2.14610645337779).abs() < 1e-12);
/// assert!((r.closest[0] - 2.9428059036774).abs() < 1e-12);
/// # Ok::<(), proxima_geom::GeomError>(())
/// ```
pub fn distance_point_ellipsoid_nd(radii: &[f64], point: &[f64]) -> Result<PointEllipsoidNd, GeomError> {
    let mut closest = vec![0.0; radii.len()];
    let info = closest_point_ellipsoid_nd(radii, point, &mut closest)?;
    Ok(PointEllipsoidNd { closest, info })
}

/// Validates the inputs of an n-dimensional point–ellipsoid query.
pub(crate) fn validate_nd(radii: &[f64], point: &[f64], out: usize) -> Result<(), GeomError> {
    let n = radii.len();
    if n == 0 {
        return Err(GeomError::DimensionMismatch {
            what: "ellipsoid radii (n ≥ 1)", expected: 1, found: 0
        });
    }
    if point.len() != n {
        return Err(GeomError::DimensionMismatch { what: "point", expected: n, found: point.len() });
    }
    if out != n {
        return Err(GeomError::DimensionMismatch { what: "closest-point buffer", expected: n, found: out });
    }
    for &a in radii {
        if !a.is_finite() {
            return Err(GeomError::NonFinite { what: "ellipsoid radius" });
        }
        if a <= 0.0 {
            return Err(GeomError::NonPositive { what: "ellipsoid radius", value: a });
        }
    }
    if point.iter().any(|v| !v.is_finite()) {
        return Err(GeomError::NonFinite { what: "point" });
    }
    Ok(())
}

/// Like [`distance_point_ellipsoid_nd`], writing the closest surface point into `closest`
/// (same length as `radii`); allocation-free.
pub fn closest_point_ellipsoid_nd(
    radii: &[f64],
    point: &[f64],
    closest: &mut [f64],
) -> Result<PointEllipsoidInfo, GeomError> {
    validate_nd(radii, point, closest.len())?;
    Ok(project_unchecked(radii, point, closest))
}

/// 3-D fast path on arrays (inputs already validated by the caller).
pub(crate) fn project3(radii: &[f64; 3], point: &[f64; 3]) -> ([f64; 3], PointEllipsoidInfo) {
    let mut x = [0.0; 3];
    let info = project_unchecked(radii, point, &mut x);
    (x, info)
}

/// The projection on validated inputs.
pub(crate) fn project_unchecked(radii: &[f64], point: &[f64], x: &mut [f64]) -> PointEllipsoidInfo {
    let n = radii.len();
    let amin = radii.iter().copied().fold(f64::INFINITY, f64::min);
    let amin2 = amin * amin;
    // g = Σ zᵢ² − 1 decides the location.
    let mut sum_z2 = 0.0;
    for i in 0..n {
        let z = point[i] / radii[i];
        sum_z2 += z * z;
    }
    let location = if sum_z2 > 1.0 {
        PointLocation::Outside
    } else if sum_z2 < 1.0 {
        PointLocation::Inside
    } else {
        PointLocation::OnSurface
    };
    if location == PointLocation::OnSurface {
        x.copy_from_slice(point);
        return PointEllipsoidInfo {
            surface_distance: 0.0,
            distance: 0.0,
            lambda: 0.0,
            iterations: 0,
            location,
        };
    }
    let r = |i: usize| {
        let q = radii[i] / amin;
        q * q
    };
    let z = |i: usize| point[i].abs() / radii[i];
    let is_min = |i: usize| radii[i] == amin;

    let (s, iterations, skip_min_axes) = match location {
        PointLocation::Outside => {
            let mut lo: f64 = 0.0;
            let mut rz2 = 0.0;
            for i in 0..n {
                let (ri, zi) = (r(i), z(i));
                lo = lo.max(ri * (zi - 1.0));
                rz2 += (ri * zi) * (ri * zi);
            }
            let hi = rz2.sqrt().max(lo + 1.0);
            let (s, it) = solve_secular(radii, point, amin, lo + 1.0, hi, false);
            (s, it, false)
        }
        _ => {
            let mut zk2 = 0.0;
            for i in 0..n {
                if is_min(i) {
                    zk2 += z(i) * z(i);
                }
            }
            if zk2 > 0.0 {
                let lo = zk2.sqrt().min(1.0);
                let (s, it) = solve_secular(radii, point, amin, lo, 1.0, false);
                (s, it, false)
            } else {
                // p lies on the hyperplane(s) of the shortest axes.
                let mut q = 0.0;
                for i in 0..n {
                    if !is_min(i) {
                        let ri = r(i);
                        let t = ri * z(i) / (ri - 1.0);
                        q += t * t;
                    }
                }
                if q <= 1.0 {
                    let mut first = true;
                    for i in 0..n {
                        if is_min(i) {
                            x[i] = if first { amin * (1.0 - q).max(0.0).sqrt() } else { 0.0 };
                            first = false;
                        } else {
                            let ri = r(i);
                            x[i] = ri * point[i] / (ri - 1.0);
                        }
                    }
                    let sd = dist(x, point);
                    return PointEllipsoidInfo {
                        surface_distance: sd,
                        distance: 0.0,
                        lambda: -amin2,
                        iterations: 0,
                        location,
                    };
                }
                let (s, it) = solve_secular(radii, point, amin, 0.0, 1.0, true);
                (s, it, true)
            }
        }
    };
    // `s` is σ = s + 1 here: the denominators σ + (rᵢ − 1) keep full relative accuracy when
    // the root is close to the branch point s = −1 (inside points near a shortest axis).
    for i in 0..n {
        let ri = r(i);
        x[i] = if skip_min_axes && is_min(i) { 0.0 } else { ri * point[i] / (s + (ri - 1.0)) };
    }
    let sd = dist(x, point);
    let distance = if location == PointLocation::Outside { sd } else { 0.0 };
    PointEllipsoidInfo { surface_distance: sd, distance, lambda: (s - 1.0) * amin2, iterations, location }
}

fn dist(x: &[f64], p: &[f64]) -> f64 {
    x.iter().zip(p).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt()
}

/// F and F′ at σ = s + 1; `skip_min` drops the shortest-axis terms (their numerators are zero).
/// The general-dimension evaluation: each term's rᵢ and rᵢzᵢ are recomputed per call (see
/// [`CachedTerms`] for the 3-D path).
#[inline]
fn secular(radii: &[f64], point: &[f64], amin: f64, s: f64, skip_min: bool) -> (f64, f64) {
    let mut f = -1.0;
    let mut df = 0.0;
    for i in 0..radii.len() {
        if skip_min && radii[i] == amin {
            continue;
        }
        let (ri, zi) = term_parts(radii[i], point[i], amin);
        let den = s + (ri - 1.0);
        let t = ri * zi / den;
        f += t * t;
        df -= 2.0 * t * t / den;
    }
    (f, df)
}

/// One secular term's parts for radius `radius` and coordinate `coordinate`: rᵢ = (aᵢ/a_min)²
/// and zᵢ = |pᵢ|/aᵢ, shared by [`secular`] and [`CachedTerms`] so both round alike.
#[inline(always)]
fn term_parts(radius: f64, coordinate: f64, amin: f64) -> (f64, f64) {
    let q = radius / amin;
    (q * q, coordinate.abs() / radius)
}

/// Dimensions up to which [`CachedTerms`] holds the secular terms.
const CACHED_AXES: usize = 3;

/// The secular terms of a point in at most [`CACHED_AXES`] dimensions, computed once per
/// query: the numerator cᵢ = rᵢzᵢ and the denominator offset rᵢ − 1 of each kept term (the
/// shortest-axis terms dropped when asked), so that an evaluation costs two divisions per
/// term instead of four. Each value is the one [`secular`] computes (same operations in the
/// same order: `ri * zi / den` is `(ri * zi) / den`), and the terms are summed in the same
/// order, so F and F′ are bit for bit those of [`secular`].
///
/// Unused slots hold cᵢ = 0 and rᵢ − 1 = +∞: their den is +∞ (σ is finite), t = 0/∞ = +0,
/// and the slot adds +0 to F and subtracts +0 from F′. Both are exact no-ops: x + 0 = x and
/// x − 0 = x for every x except x = −0, and neither sum is ever −0 (F = −1 + a sum of squares
/// and F′ = +0 − a sum of non-negative terms, and round-to-nearest yields −0 only from −0
/// operands). The fixed-length loop is thereby unrolled.
struct CachedTerms {
    numerator: [f64; CACHED_AXES],
    offset: [f64; CACHED_AXES],
}

impl CachedTerms {
    /// The kept terms of `point` (validated, `radii.len() ≤ CACHED_AXES`).
    fn new(radii: &[f64], point: &[f64], amin: f64, skip_min: bool) -> Self {
        let mut terms = CachedTerms { numerator: [0.0; CACHED_AXES], offset: [f64::INFINITY; CACHED_AXES] };
        let mut k = 0;
        for i in 0..radii.len() {
            if skip_min && radii[i] == amin {
                continue;
            }
            let (ri, zi) = term_parts(radii[i], point[i], amin);
            terms.numerator[k] = ri * zi;
            terms.offset[k] = ri - 1.0;
            k += 1;
        }
        terms
    }

    /// F and F′ at σ, as [`secular`].
    #[inline(always)]
    fn eval(&self, s: f64) -> (f64, f64) {
        let mut f = -1.0;
        let mut df = 0.0;
        for k in 0..CACHED_AXES {
            let den = s + self.offset[k];
            let t = self.numerator[k] / den;
            f += t * t;
            df -= 2.0 * t * t / den;
        }
        (f, df)
    }
}

/// Root σ of F on [lo, hi] (see [`root_secular`]), with the terms cached for up to
/// [`CACHED_AXES`] dimensions and recomputed per evaluation beyond.
fn solve_secular(radii: &[f64], point: &[f64], amin: f64, lo: f64, hi: f64, skip_min: bool) -> (f64, usize) {
    if radii.len() <= CACHED_AXES {
        let terms = CachedTerms::new(radii, point, amin, skip_min);
        root_secular(|s| terms.eval(s), lo, hi)
    } else {
        root_secular(|s| secular(radii, point, amin, s, skip_min), lo, hi)
    }
}

/// Root σ of F on [lo, hi] (F(lo) ≥ 0 ≥ F(hi)), in the shifted variable σ = s + 1, `secular`
/// giving (F, F′) at σ: monotone Newton from the left, bisection when a step leaves the
/// bracket or fails to progress.
///
/// The answer is the float where the computed F changes sign: of the last float with F > 0
/// and the next one, the one with the smaller |F| (or a float with F = 0). Once Newton from
/// the left stalls (its step rounds to 0), the floats above are walked to that sign change
/// ([`walk_to_sign_change`]); the bisection of [σ, hi] this replaces ends at the same pair
/// wherever the computed F is monotone around the root, with about 50 evaluations instead of
/// one or two (it ran on most outside points: the stalled step was refused as not strictly
/// inside [lo, hi] with lo = σ).
#[inline(always)]
fn root_secular(secular: impl Fn(f64) -> (f64, f64), lo: f64, hi: f64) -> (f64, usize) {
    let (mut lo, mut hi) = (lo, hi);
    let mut s = lo;
    let mut iterations = 0;
    let mut newton = true;
    loop {
        iterations += 1;
        let (f, df) = secular(s);
        if f == 0.0 {
            return (s, iterations);
        }
        if f > 0.0 {
            lo = s;
        } else {
            hi = s;
        }
        if newton && iterations <= 100 {
            let step = -f / df;
            let next = s + step;
            if f > 0.0 && next == s {
                // Newton from the left no longer moves: the root is within rounding of s.
                match walk_to_sign_change(&secular, s, f, hi, &mut iterations) {
                    Ok(root) => return (root, iterations),
                    Err(last_positive) => {
                        (lo, s, newton) = (last_positive, last_positive, false);
                    }
                }
            } else if next.is_finite() && next > lo && next < hi && f > 0.0 {
                s = next;
                continue;
            }
            if newton && f < 0.0 && (s - lo).abs() <= 4.0 * f64::EPSILON * s.abs().max(1.0) {
                // Newton landed just past the root by rounding: the bracket is one ulp wide.
                return (if f.abs() < secular(lo).0.abs() { s } else { lo }, iterations);
            }
            newton = false;
        }
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            let flo = secular(lo).0;
            let fhi = secular(hi).0;
            return (if flo.abs() <= fhi.abs() { lo } else { hi }, iterations);
        }
        s = mid;
    }
}

/// Floats walked at most by [`walk_to_sign_change`] before the bisection takes over.
const MAX_WALK: usize = 8;

/// From σ with F(σ) = `f` > 0 where Newton's step rounds to 0, the floats above σ (at most
/// [`MAX_WALK`], none beyond `hi`) until F ≤ 0: `Ok` with the float where F = 0, or of the last
/// float with F > 0 and the next, the one with the smaller |F| (the one the bisection's end
/// picks, `hi` included); `Err` with the last float with F > 0 when the walk ends first (the
/// caller bisects from there). Each evaluation counts in `iterations`.
#[inline(always)]
fn walk_to_sign_change(
    secular: &impl Fn(f64) -> (f64, f64),
    s: f64,
    f: f64,
    hi: f64,
    iterations: &mut usize,
) -> Result<f64, f64> {
    let (mut a, mut fa) = (s, f);
    for _ in 0..MAX_WALK {
        let b = a.next_up();
        if b > hi {
            break;
        }
        let fb = secular(b).0;
        *iterations += 1;
        if fb > 0.0 && b < hi {
            (a, fa) = (b, fb);
            continue;
        }
        if fb == 0.0 {
            return Ok(b);
        }
        return Ok(if fa.abs() <= fb.abs() { a } else { b });
    }
    Err(a)
}

/// The world-frame answer of [`distance_point_ellipsoid`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointEllipsoidDistance {
    /// The closest *surface* point (world frame).
    pub closest: nalgebra::Point3<f64>,
    /// Distances, multiplier, iterations and location.
    pub info: PointEllipsoidInfo,
}

/// Closest surface point of a placed 3-D ellipsoid to a world point (distance to the solid in
/// `info.distance`, 0 inside).
pub fn distance_point_ellipsoid(
    point: &nalgebra::Point3<f64>,
    ellipsoid: &crate::shape::Ellipsoid,
    pose: &crate::pose::Pose,
) -> Result<PointEllipsoidDistance, GeomError> {
    if point.iter().any(|v| !v.is_finite()) {
        return Err(GeomError::NonFinite { what: "point" });
    }
    let local = pose.inverse_transform_point(point);
    let r = ellipsoid.radii();
    let (x, info) = project3(&[r.x, r.y, r.z], &[local.x, local.y, local.z]);
    let closest = pose.transform_point(&nalgebra::Point3::new(x[0], x[1], x[2]));
    Ok(PointEllipsoidDistance { closest, info })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached terms give F and F′ bit for bit as the per-evaluation formula, in 1, 2 and
    /// 3 dimensions, with and without the shortest-axis terms, at σ across the bracket ends
    /// (including σ = 0 and σ = 1), so the 3-D path finds the same roots.
    #[test]
    fn cached_terms_match_the_general_evaluation_bit_for_bit() {
        let mut next = crate::test_sequence::uniform(0x5eed_cafe_f00d_1234u64, -1.0, 1.0);
        let mut compared = 0;
        for round in 0..600 {
            let n = 1 + round % 3;
            let mut radii = [0.0; 3];
            let mut point = [0.0; 3];
            for i in 0..n {
                radii[i] = 0.05 + 4.0 * next().abs();
                point[i] = 6.0 * next();
            }
            // Ties on the shortest axis and points on its hyperplane, as the inside branch
            // meets them.
            if n > 1 && round % 5 == 0 {
                radii[1] = radii[0];
            }
            if round % 7 == 0 {
                point[0] = 0.0;
            }
            let (radii, point) = (&radii[..n], &point[..n]);
            let amin = radii.iter().copied().fold(f64::INFINITY, f64::min);
            for skip_min in [false, true] {
                let terms = CachedTerms::new(radii, point, amin, skip_min);
                for s in [0.0, 1.0, 0.5 + next().abs(), 1e-9, 3.0 + 40.0 * next().abs()] {
                    let (f, df) = terms.eval(s);
                    let (g, dg) = secular(radii, point, amin, s, skip_min);
                    assert_eq!(f.to_bits(), g.to_bits(), "F at {s}: {radii:?} {point:?} {skip_min}");
                    assert_eq!(df.to_bits(), dg.to_bits(), "F' at {s}: {radii:?} {point:?} {skip_min}");
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 6000);
    }

    /// Outside points: the root is at a sign change of the computed F (within the few ulps of
    /// the one-ulp-bracket exit), and Newton's stall ends the search instead of a bisection of
    /// the whole bracket (which took ~24 evaluations on average here, against ~12 now).
    #[test]
    fn outside_roots_sit_at_a_sign_change_without_a_long_bisection() {
        let mut next = crate::test_sequence::uniform(0x7a5e_0f5e_c0de_0001u64, -1.0, 1.0);
        let (mut points, mut evaluations) = (0usize, 0usize);
        while points < 2000 {
            let radii = [0.1 + 2.0 * next().abs(), 0.1 + 2.0 * next().abs(), 0.1 + 2.0 * next().abs()];
            let point = [4.0 * next(), 4.0 * next(), 4.0 * next()];
            let (x, info) = project3(&radii, &point);
            if info.location != PointLocation::Outside {
                continue;
            }
            points += 1;
            evaluations += info.iterations;
            let amin = radii.iter().copied().fold(f64::INFINITY, f64::min);
            let sigma = info.lambda / (amin * amin) + 1.0;
            let f = |s: f64| secular(&radii, &point, amin, s, false).0;
            // A sign change of F within 8 ulps of σ (σ from λ is itself rounded).
            let (mut below, mut above) = (sigma, sigma);
            for _ in 0..8 {
                (below, above) = (below.next_down(), above.next_up());
            }
            assert!(f(below) >= 0.0 && f(above) <= 0.0, "{radii:?} {point:?}: F({below}) F({above})");
            // And the closest point on the surface to round-off.
            let level: f64 = (0..3).map(|i| (x[i] / radii[i]).powi(2)).sum();
            assert!((level - 1.0).abs() < 1e-12, "{level}");
        }
        let mean = evaluations as f64 / points as f64;
        assert!(mean < 16.0, "mean evaluations per outside point {mean}");
    }

    /// The 3-D projection (cached terms) and a 4-D one with a far-away fourth axis whose
    /// coordinate is 0 (per-evaluation terms; the extra term is +0 in F and F′ only when its
    /// numerator is 0) agree on the closest point's first three coordinates to round-off.
    #[test]
    fn cached_and_general_paths_agree_on_closest_points() {
        let mut next = crate::test_sequence::uniform(0x0123_4567_89ab_cdefu64, -1.0, 1.0);
        for _ in 0..500 {
            let radii = [0.1 + next().abs(), 0.1 + next().abs(), 0.1 + next().abs()];
            let point = [3.0 * next(), 3.0 * next(), 3.0 * next()];
            let (x3, info3) = project3(&radii, &point);
            let mut x4 = [0.0; 4];
            let info4 = project_unchecked(
                &[radii[0], radii[1], radii[2], 50.0],
                &[point[0], point[1], point[2], 0.0],
                &mut x4,
            );
            assert_eq!(info3.location, info4.location);
            for i in 0..3 {
                assert!((x3[i] - x4[i]).abs() <= 1e-12 * (1.0 + point[i].abs()), "{x3:?} {x4:?}");
            }
            assert!((info3.distance - info4.distance).abs() <= 1e-12 * (1.0 + info3.distance));
        }
    }
}
