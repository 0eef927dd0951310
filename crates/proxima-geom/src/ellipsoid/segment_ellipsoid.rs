//! Closest points of a segment and a solid ellipsoid that are apart (a capsule's axis, a
//! triangle's edge), in the ellipsoid's frame.
//!
//! # Maths
//!
//! With semi-axes aᵢ and the segment p(t) = p₀ + t·u, t ∈ [0, 1], the distance
//! f(t) = dist(p(t), E) is convex along the line, so its minimum over [0, 1] is at the line's
//! minimiser clamped to [0, 1]. For p outside E the closest point is xᵢ = aᵢ²pᵢ/(aᵢ² + λ)
//! with λ > 0 the root of the secular equation (`point_ellipsoid`), and
//! f'(t) = u·(p − x)/f = λ/f · Σ uᵢpᵢ/(aᵢ² + λ). The line's minimiser therefore solves, in the
//! unknowns (t, λ) with wᵢ = 1/(aᵢ² + λ),
//!
//! ```text
//! F(t, λ) = Σ aᵢ² pᵢ² wᵢ² − 1 = 0        (x on the surface)
//! G(t, λ) = Σ uᵢ pᵢ wᵢ = 0                (p − x ⟂ u)
//! ```
//!
//! whose Jacobian is [[Σ 2aᵢ²pᵢuᵢwᵢ², −2Σ aᵢ²pᵢ²wᵢ³], [Σ uᵢ²wᵢ, −Σ uᵢpᵢwᵢ²]]: Newton on this
//! 2 × 2 system converges quadratically from the start below. The answer's closest point is
//! then xᵢ = aᵢ²pᵢ/(aᵢ² + λ) at p(t*) with λ the secular root solved to full precision by a
//! monotone 1-D Newton (from Newton's λ, or from 0 at a clamped endpoint), so it lies on the
//! surface to round-off whatever the 2 × 2 residual.
//!
//! # Start and edge cases
//!
//! * In the scaled coordinates y = D⁻¹x the ellipsoid is the unit ball and
//!   q(t) = |D⁻¹p(t)|² is a quadratic: its minimiser t_s starts Newton, and q ≤ 1 on [0, 1]
//!   means the segment meets the ellipsoid (`None`: contact is GJK/EPA's).
//! * The line (not the segment) meets the ellipsoid: f vanishes on an interval outside
//!   [0, 1] containing t_s, so the closest point is the endpoint nearer t_s; no Newton.
//! * A point (u = 0): its projection.
//! * Newton leaving λ > 0 or not settling in [`MAX_STEPS`]: `None` (the caller falls back to
//!   GJK). The caller certifies every answer by the support-function bound along the witness
//!   direction, so a poorly converged t can only make it fall back, never answer wrongly.

use nalgebra::{Matrix2, Vector3};

#[cfg(test)]
use super::point_ellipsoid::project3;

/// Steps (Newton or bisection) before giving up.
const MAX_STEPS: usize = 64;

/// The closest points (t on the segment, x on the ellipsoid surface, ellipsoid frame) of the
/// segment p₀ + t·u, t ∈ [0, 1], and the solid ellipsoid with semi-axes `radii`, with the
/// Newton steps taken; `None` when they meet or Newton does not settle (see the module docs).
pub(crate) fn closest_segment_ellipsoid(
    radii: &Vector3<f64>,
    p0: &Vector3<f64>,
    u: &Vector3<f64>,
) -> Option<(f64, Vector3<f64>, usize)> {
    let (w0, wu) = (p0.component_div(radii), u.component_div(radii));
    let uu = wu.norm_squared();
    let ts = if uu > 0.0 { -w0.dot(&wu) / uu } else { 0.0 };
    if !ts.is_finite() {
        return None;
    }
    let q = |t: f64| (w0 + wu * t).norm_squared();
    let tc = ts.clamp(0.0, 1.0);
    if q(tc) <= 1.0 {
        return None;
    }
    let a2 = radii.component_mul(radii);
    let (t, lambda, steps) =
        if uu == 0.0 || q(ts) <= 1.0 { (tc, None, 0) } else { minimise(&a2, p0, u, tc)? };
    let p = p0 + u * t;
    let lambda = match lambda {
        Some(l) => l,
        None => secular(&a2, &p, lambda_guess(&a2, &p))?,
    };
    Some((t, a2.component_mul(&p).component_div(&a2.add_scalar(lambda)), steps))
}

/// A cheap estimate of the secular root at p outside the ellipsoid: with x₀ = p/|D⁻¹p| (the
/// surface point on the ray from the centre), p − x = λD⁻²x gives λ ≈ |p − x₀|/|D⁻²x₀|, exact
/// for a sphere.
fn lambda_guess(a2: &Vector3<f64>, p: &Vector3<f64>) -> f64 {
    let rho = p.component_div(&a2.map(f64::sqrt)).norm();
    let x0 = p / rho;
    (p - x0).norm() / x0.component_div(a2).norm()
}

/// The multiplier λ > 0 of the closest surface point of the ellipsoid (a² = squared semi-axes)
/// to p outside it: the root of F(λ) = Σ aᵢ²pᵢ²/(aᵢ² + λ)² − 1 by Newton from `guess`. F is
/// convex and decreasing on λ ≥ 0 with F(0) > 0 (p outside): from a guess right of the root
/// one Newton step lands left of it (the tangent lies below F), clamped at 0; from the left
/// the iterates increase monotonically without overshooting, and stop when a step no longer
/// increases λ (full precision). `None` when p is not outside.
fn secular(a2: &Vector3<f64>, p: &Vector3<f64>, guess: f64) -> Option<f64> {
    let ap2 = a2.component_mul(&p.component_mul(p));
    let eval = |l: f64| {
        let w = a2.add_scalar(l).map(|d| 1.0 / d);
        let aw = ap2.component_mul(&w).component_mul(&w);
        (aw.sum() - 1.0, -2.0 * aw.dot(&w))
    };
    let mut lambda = if guess.is_finite() && guess > 0.0 { guess } else { 0.0 };
    let (f, df) = eval(lambda);
    // p outside: F(0) > 0. The computed F is weakly decreasing in λ ≥ 0 (each operation
    // rounds monotonically: aᵢ² + λ ≥ aᵢ², 1/d falls, products and the sum of non-negative
    // terms in a fixed order keep the order), so F(λ) > 0 at the guess proves F(0) > 0, as
    // long as F(0) cannot be NaN: every 1/aᵢ² finite (aᵢ² ≥ 1e-300) makes each term of F(0)
    // a number in [0, ∞]. Otherwise F(0) is evaluated (it is the guess's value at λ = 0).
    let outside_shown = f > 0.0 && (lambda == 0.0 || a2.min() >= 1e-300);
    if !outside_shown {
        let f0 = if lambda == 0.0 { f } else { eval(0.0).0 };
        if f0.is_nan() || f0 <= 0.0 {
            return None;
        }
    }
    // The first step's value: the guess's when it stays, else λ moved left of the root.
    let mut known = Some((f, df));
    if f < 0.0 {
        let left = lambda - f / df;
        lambda = if left.is_finite() && left > 0.0 { left } else { 0.0 };
        known = None;
    }
    for _ in 0..64 {
        let (f, df) = known.take().unwrap_or_else(|| eval(lambda));
        let next = lambda - f / df;
        if next.is_nan() || next <= lambda {
            break;
        }
        lambda = next;
    }
    Some(lambda)
}

/// The first component of J⁻¹(0, g) for the 2 × 2 Jacobian J = [[a, b], [c, d]], NaN when J
/// is singular: nalgebra's `jac.lu().solve(&(0, g)).x` written out for this right-hand side,
/// the same operations in the same order (the pivot row is the one of larger |·| in the first
/// column, the first on a tie; the multiplier is the other entry times 1/pivot; the triangular
/// solves subtract `(−coefficient)·entry`), so the steps and answers are bit for bit those of
/// the general LU (`newton_step_is_nalgebras_lu_bit_for_bit`) without its generic loops.
#[inline]
fn newton_t_step(jac: &Matrix2<f64>, g: f64) -> f64 {
    let (a, b, c, d) = (jac[(0, 0)], jac[(0, 1)], jac[(1, 0)], jac[(1, 1)]);
    // Rows in pivot order: (p0, p1) the pivot row, (q0, q1) the other, (r0, r1) the
    // right-hand side permuted the same way.
    let ((p0, p1), (q0, q1), (r0, r1)) =
        if c.abs() > a.abs() { ((c, d), (a, b), (g, 0.0)) } else { ((a, b), (c, d), (0.0, g)) };
    if p0 == 0.0 {
        // The whole first column is zero: the LU skips the column and its solve fails.
        return f64::NAN;
    }
    let l = q0 * (1.0 / p0);
    let u11 = -p1 * l + q1;
    let y1 = -r0 * l + r1;
    if u11 == 0.0 {
        return f64::NAN;
    }
    let x1 = y1 / u11;
    (-x1 * p1 + r0) / p0
}

/// The minimiser of the convex f(t) = dist(p₀ + t·u, E) over [0, 1] from t₀ ∈ [0, 1], with its
/// multiplier and the steps taken: the sign of f'(t) is that of G(t, λ(t)) = Σ uᵢpᵢ/(aᵢ² + λ)
/// (λ(t) the secular root at p(t), see the module docs), so [lo, hi] brackets the minimiser;
/// each step is Newton's on the 2 × 2 system at (t, λ(t)), replaced by the bisection of the
/// bracket when it leaves it. An endpoint is the answer when f' points outwards there.
/// `None` when a point of the segment is not outside or the steps do not settle.
fn minimise(
    a2: &Vector3<f64>,
    p0: &Vector3<f64>,
    u: &Vector3<f64>,
    t0: f64,
) -> Option<(f64, Option<f64>, usize)> {
    let (ulen, scale) = (u.norm(), p0.amax().max((p0 + u).amax()).max(a2.amax().sqrt()));
    let eval = |t: f64, guess: f64| {
        let p = p0 + u * t;
        let lambda = secular(a2, &p, guess)?;
        let w = a2.add_scalar(lambda).map(|d| 1.0 / d);
        Some((p, lambda, w, u.dot(&p.component_mul(&w))))
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    let mut t = t0;
    let p = p0 + u * t;
    let (mut p, mut lambda, mut w, mut g) = eval(t, lambda_guess(a2, &p))?;
    // Whether f' is known at the endpoints (they bracket the minimiser then).
    let (mut tried0, mut tried1) = (false, false);
    for k in 1..=MAX_STEPS {
        tried0 |= t == 0.0;
        tried1 |= t == 1.0;
        if (t == 0.0 && g >= 0.0) || (t == 1.0 && g <= 0.0) || g == 0.0 {
            return Some((t, Some(lambda), k - 1));
        }
        if g > 0.0 {
            hi = t;
        } else {
            lo = t;
        }
        // Newton on (F, G) = (0, g) at the exact λ: the t component of J⁻¹(0, g).
        let apww = a2.component_mul(&p).component_mul(&w).component_mul(&w);
        let jac = Matrix2::new(
            2.0 * apww.dot(u),
            -2.0 * apww.component_mul(&w).dot(&p),
            u.component_mul(&w).dot(u),
            -p.component_mul(&w).component_mul(&w).dot(u),
        );
        let step = newton_t_step(&jac, g);
        let mut next = t - step;
        if next.is_nan() || next <= lo || next >= hi {
            // Out of the bracket: its end when that is an endpoint not yet tried, else halve.
            next = if next <= lo && lo == 0.0 && !tried0 {
                0.0
            } else if next >= hi && hi == 1.0 && !tried1 {
                1.0
            } else {
                0.5 * (lo + hi)
            };
        }
        let settled = ((next - t) * ulen).abs() <= 1e-14 * scale;
        t = next;
        (p, lambda, w, g) = eval(t, lambda)?;
        if settled {
            return Some((t, Some(lambda), k));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector2;

    /// The written-out step equals nalgebra's LU solve bit for bit (or both are NaN) on
    /// random, scaled, near-singular and singular matrices, ties of the pivot test included.
    #[test]
    fn newton_step_is_nalgebras_lu_bit_for_bit() {
        let mut next = crate::test_sequence::uniform(0x5eed_2222u64, -1.0, 1.0);
        let mut cases: Vec<[f64; 5]> = Vec::new();
        for _ in 0..20_000 {
            let scale = 10f64.powi((next() * 12.0) as i32);
            cases.push([next() * scale, next(), next() * scale, next(), next()]);
        }
        for v in [[1.0, 2.0, -1.0, 3.0, 0.5], [0.0, 1.0, 0.0, 2.0, 1.0], [0.0, 1.0, 2.0, 3.0, 1.0]] {
            cases.push(v);
        }
        cases.push([1.0, 2.0, 2.0, 4.0, 1.0]);
        cases.push([2.0, 1.0, 4.0, 2.0, -3.0]);
        cases.push([0.0, 0.0, 0.0, 0.0, 1.0]);
        cases.push([f64::NAN, 1.0, 1.0, 1.0, 1.0]);
        cases.push([1.0, 1.0, f64::INFINITY, 1.0, 1.0]);
        for [a, b, c, d, g] in cases {
            let jac = Matrix2::new(a, b, c, d);
            let want = jac.lu().solve(&Vector2::new(0.0, g)).map_or(f64::NAN, |s| s.x);
            let got = newton_t_step(&jac, g);
            assert!(
                want.to_bits() == got.to_bits() || (want.is_nan() && got.is_nan()),
                "{jac:?} g={g}: LU {want:e}, written out {got:e}"
            );
        }
    }

    /// Brute force: the distance from many points of the segment to the ellipsoid (each by
    /// the independent secular-equation projection), minimum over a fine grid refined twice
    /// around the best sample.
    fn brute(radii: &Vector3<f64>, p0: &Vector3<f64>, u: &Vector3<f64>) -> f64 {
        let d = |t: f64| {
            let p = p0 + u * t;
            let (x, _) = project3(&[radii.x, radii.y, radii.z], &[p.x, p.y, p.z]);
            (p - Vector3::new(x[0], x[1], x[2])).norm()
        };
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let mut best = (f64::INFINITY, 0.0);
        for _ in 0..4 {
            for k in 0..=200 {
                let t = lo + (hi - lo) * f64::from(k) / 200.0;
                let v = d(t);
                if v < best.0 {
                    best = (v, t);
                }
            }
            let w = (hi - lo) / 100.0;
            (lo, hi) = ((best.1 - w).max(0.0), (best.1 + w).min(1.0));
        }
        best.0
    }

    #[test]
    fn a_segment_parallel_to_an_axis_is_at_the_gap() {
        // Radii (1, 2, 3), segment along y at x = 3: distance 2 at the origin of y.
        let r = Vector3::new(1.0, 2.0, 3.0);
        let (t, x, _) =
            closest_segment_ellipsoid(&r, &Vector3::new(3.0, -1.0, 0.0), &Vector3::new(0.0, 2.0, 0.0))
                .unwrap();
        assert!((t - 0.5).abs() < 1e-12, "{t}");
        assert!((x - Vector3::new(1.0, 0.0, 0.0)).norm() < 1e-12, "{x}");
    }

    #[test]
    fn meeting_segments_are_refused_and_a_line_through_gives_an_endpoint() {
        let r = Vector3::new(1.0, 2.0, 3.0);
        // Through the centre.
        assert!(
            closest_segment_ellipsoid(&r, &Vector3::new(-5.0, 0.0, 0.0), &Vector3::new(10.0, 0.0, 0.0))
                .is_none()
        );
        // On the line through the ellipsoid, but stopping short: the near endpoint.
        let (t, x, _) =
            closest_segment_ellipsoid(&r, &Vector3::new(5.0, 0.0, 0.0), &Vector3::new(2.0, 0.0, 0.0))
                .unwrap();
        assert_eq!(t, 0.0);
        assert!((x - Vector3::new(1.0, 0.0, 0.0)).norm() < 1e-12);
    }

    #[test]
    fn matches_brute_force_on_random_segments() {
        let mut next = crate::test_sequence::uniform(0x1234_5678_9abc_def1u64, -1.0, 1.0);
        let (mut answered, mut refused) = (0, 0);
        for _ in 0..3000 {
            let r = Vector3::new(0.05 + next().abs(), 0.2 + next().abs(), 0.2 + next().abs());
            let p0 = Vector3::new(next(), next(), next()) * 3.0;
            let u = Vector3::new(next(), next(), next()) * 3.0;
            let b = brute(&r, &p0, &u);
            match closest_segment_ellipsoid(&r, &p0, &u) {
                Some((t, x, _)) => {
                    let d = (p0 + u * t - x).norm();
                    // The grid's minimum is an upper bound of the distance, within the
                    // last grid cell (width 2·10⁻⁶ of the segment ≤ 6√3 long, f Lipschitz 1)
                    // of it; our answer is a pair of points of the shapes.
                    assert!(d <= b + 1e-12 && d >= b - 3e-5, "closed form {d} vs brute force {b}");
                    assert!(((x.component_div(&r)).norm() - 1.0).abs() < 1e-12);
                    answered += 1;
                }
                // Meeting, or grazing within 1e-6 (f nearly flat: the caller's GJK answers).
                None => {
                    assert!(b < 1e-6, "refused at distance {b}: {r:?} {p0:?} {u:?}");
                    refused += 1;
                }
            }
        }
        assert!(answered > 1000 && refused > 20, "answered {answered}, refused {refused}");
    }
}
