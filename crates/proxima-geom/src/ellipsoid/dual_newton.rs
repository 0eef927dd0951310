//! Ours: Newton on the support-function dual of the ellipsoid–ellipsoid distance.
//!
//! # The maths
//!
//! With c = c_b − c_a, S = R D² Rᵀ and r(n) = √(nᵀS n) = |D Rᵀ n| for each ellipsoid,
//!
//! ```text
//! g(n) = n·c − r_a(n) − r_b(n),        ∇g = c − S_a n/r_a − S_b n/r_b = x_b(n) − x_a(n),
//! ∇²g = −H_a − H_b,   H = S/r − (S n)(S n)ᵀ/r³  (positive semidefinite, H n = 0).
//! ```
//!
//! g is concave and positively homogeneous; for disjoint ellipsoids dist = max_{|n|=1} g(n).
//! On the sphere the Riemannian gradient is P∇g and the Riemannian Hessian is
//! −P(H_a + H_b)P − g(n)·P (P = I − nnᵀ, using n·∇g = g). Both terms are negative definite
//! on the tangent plane, and **neither vanishes as the gap closes** (H depends on the shapes
//! only), so Newton converges quadratically whatever the separation — unlike alternating
//! projection, whose rate tends to 1 at contact. We take Newton steps t in a tangent basis
//! (e₁, e₂) of n, retract n ← (n + t₁e₁ + t₂e₂)/|·|, and backtrack until g does not decrease.
//!
//! **Stopping rule (duality gap).** At every iterate the witnesses x_a = s_a(n),
//! x_b = s_b(−n) give upper = |x_b − x_a| ≥ dist ≥ g(n) = lower. We stop when
//! upper − lower ≤ tolerance × scale *and* the direction has settled to 1e-7: the last Newton
//! step was below that, or the next one is predicted below it — in the quadratic regime step
//! k+1 ≈ K·(step k)², with K measured from the last two steps (K = t_k / t_{k−1}²) and taken
//! at least 1, times a safety factor 4. The prediction only saves the final Newton step
//! (its step is typically 1e-11..1e-15); the certificate [lower, upper] is evaluated at the
//! final direction whatever it is, so the bracket is proven either way.
//!
//! **Deciding intersection first.** On the set {g > 0} the superlevel sets of g on the sphere
//! are geodesically convex, so Newton cannot stall at a spurious point there. When the centre
//! direction c/|c| does not separate (g ≤ 0) we first solve the *scaled-contact* problem
//!
//! ```text
//! t* = 1 / min { r_a(n) + r_b(n) : n·c = 1 },
//! ```
//!
//! the factor by which both ellipsoids, scaled about their centres, just touch. It is a smooth
//! convex problem in 2 unknowns (Newton with backtracking converges from anywhere). If
//! φ = r_a + r_b drops below 1 at some iterate, g(n) = 1 − φ > 0 proves separation and
//! warm-starts the dual; if the minimum is ≥ 1 the contact point of the scaled ellipsoids,
//! x = c_a + t*·S_a n/r_a (= c_b − t*·S_b n/r_b), is a common point (t* ≤ 1).
//!
//! Edge cases: coincident centres → intersecting at the centre; flat or needle ellipsoids
//! (radius 1e-12) make H singular in one direction, so the 2×2 Newton system is shifted by a
//! tiny multiple of its trace when it is not safely definite.

use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};

use super::packed::{roots_and_reciprocals, sqrt_pair};
use super::{EllipsoidDistance, EllipsoidSettings, EllipsoidStatus, Placed, finish, finish_at};
use crate::error::GeomError;
use crate::pose::Pose;
use crate::shape::Ellipsoid;

/// Newton steps below this (tangent-plane norm) count as converged directions.
const SMALL_STEP: f64 = 1e-7;

/// Squared step lengths above this cannot pass the settled test (see the loop in
/// [`run_traced`]): their roots exceed 3.16e-4.
const SETTLE_SQUARED_BOUND: f64 = 1e-7;

/// Safety factor on the predicted next step K·t² of the stopping rule (see the module docs).
const PREDICTION_SAFETY: f64 = 4.0;

/// A scaled contact t* within this of 1 is handed to the dual to decide touching vs disjoint.
const NEAR_TOUCH: f64 = 1e-9;

/// Ours, with an optional warm-start direction (unit, from A towards B; e.g. the previous
/// time step's normal). `settings.method` is ignored.
pub fn dual_newton(
    a: &Ellipsoid,
    pa: &Pose,
    b: &Ellipsoid,
    pb: &Pose,
    settings: &EllipsoidSettings,
    warm_start: Option<Vector3<f64>>,
) -> Result<EllipsoidDistance, GeomError> {
    settings.validate()?;
    if warm_start.is_some_and(|n| n.iter().any(|v| !v.is_finite())) {
        return Err(GeomError::NonFinite { what: "warm-start direction" });
    }
    let (ea, eb) = (Placed::new(a, pa), Placed::new(b, pb));
    Ok(run(&ea, &eb, settings.tolerance, settings.max_iterations, warm_start))
}

/// Values of the dual at a unit n, from its evaluation point m (n = m/|m|).
struct Eval {
    /// The unit direction itself.
    n: Vector3<f64>,
    g: f64,
    /// x_b(n) − x_a(n) = ∇g.
    w: Vector3<f64>,
    /// A's support point minus its centre, S_a n / r_a (0 when r_a = 0), and 1/r_a (0 when
    /// r_a = 0), r_a = √(nᵀS_a n).
    ua: Vector3<f64>,
    inv_ra: f64,
    /// B's centre minus its support point along −n, S_b n / r_b, and 1/r_b.
    ub: Vector3<f64>,
    inv_rb: f64,
    /// S_a m and S_b m with the reciprocals of √(mᵀS m) (0 when that is 0): u = S m / √(mᵀS m),
    /// kept apart so that products with S m need not wait for the reciprocal.
    sa: Vector3<f64>,
    qa: f64,
    sb: Vector3<f64>,
    qb: f64,
}

/// S n / r for r = √(nᵀS n) (one reciprocal; zero when r = 0), with that reciprocal (0 when
/// r = 0).
#[inline(always)]
fn offset(sn: Vector3<f64>, r: f64) -> (Vector3<f64>, f64) {
    if r > 0.0 {
        let inv = 1.0 / r;
        (sn * inv, inv)
    } else {
        (Vector3::zeros(), 0.0)
    }
}

/// [`offset`] for r = √q given q and 1/q as well: 1/r = r · (1/q), the reciprocal taken of q
/// beside the root instead of after it (same value up to an ulp); when 1/q is not finite (q
/// below ~1e-308, or 0) it falls back to [`offset`].
#[inline(always)]
fn offset_of_square(sn: Vector3<f64>, q: f64, r: f64, inv_q: f64) -> (Vector3<f64>, f64) {
    let inv = r * inv_q;
    if q > 0.0 && inv.is_finite() { (sn * inv, inv) } else { offset(sn, r) }
}

/// The dual at the unit direction of a nonzero m, evaluated at m itself: r(m) = |m| r(n) and
/// S m / r(m) = S n / r(n) (the support offsets are homogeneous of degree 0), so the matrix
/// products start from m while the root and reciprocal of |m| run beside them instead of
/// before them; g(n) = (m·c − r_a(m) − r_b(m)) / |m| and 1/r(n) = |m| / r(m).
#[inline(always)]
fn eval(a: &Placed, b: &Placed, c: &Vector3<f64>, m: &Vector3<f64>) -> Eval {
    let len = m.norm();
    let inv_len = 1.0 / len;
    let sa = a.shape * m;
    let sb = b.shape * m;
    let (qsa, qsb) = (m.dot(&sa).max(0.0), m.dot(&sb).max(0.0));
    let (ra, rb, inv_qsa, inv_qsb) = roots_and_reciprocals(qsa, qsb);
    let g = (m.dot(c) - ra - rb) * inv_len;
    let ((ua, qa), (ub, qb)) =
        (offset_of_square(sa, qsa, ra, inv_qsa), offset_of_square(sb, qsb, rb, inv_qsb));
    Eval { n: m * inv_len, g, w: c - ua - ub, ua, inv_ra: qa * len, ub, inv_rb: qb * len, sa, qa, sb, qb }
}

/// An orthonormal basis (e₁, e₂) of the plane ⊥ n (n unit).
#[inline]
pub(crate) fn tangent_basis(n: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let a = n.abs();
    let axis = if a.x <= a.y && a.x <= a.z {
        Vector3::x()
    } else if a.y <= a.z {
        Vector3::y()
    } else {
        Vector3::z()
    };
    let e1 = n.cross(&axis).normalize();
    let e2 = n.cross(&e1);
    (e1, e2)
}

/// The index k of the axis least aligned with n (smallest |n_k|, the first on ties), so
/// n_k² ≤ 1/3 for a unit n.
#[inline(always)]
fn least_aligned_axis(n: &Vector3<f64>) -> usize {
    let a = n.abs();
    if a.x <= a.y && a.x <= a.z {
        0
    } else if a.y <= a.z {
        1
    } else {
        2
    }
}

/// An orthogonal basis (e₁, e₂) of the plane ⊥ n (n unit) with |e₁| = |e₂| = √(1 − n_k²):
/// e₁ = n × (axis k), e₂ = n × e₁ (no root: the Newton system is solved in this basis, see
/// the loop in [`run_traced`]).
#[inline(always)]
fn tangent_basis_about(n: &Vector3<f64>, k: usize) -> (Vector3<f64>, Vector3<f64>) {
    let e1 = match k {
        0 => Vector3::new(0.0, n.z, -n.y),
        1 => Vector3::new(-n.z, 0.0, n.x),
        _ => Vector3::new(n.y, -n.x, 0.0),
    };
    (e1, n.cross(&e1))
}

/// d/|d|, out of line: the Newton step is cut to length 1 only far from the optimum.
#[cold]
#[inline(never)]
fn unit_step(d: Vector3<f64>) -> Vector3<f64> {
    d / d.norm()
}

/// The curvature H = S/r − (Sn)(Sn)ᵀ/r³ of one ellipsoid restricted to the tangent basis
/// (e₁, e₂): (e₁ᵀHe₁, e₁ᵀHe₂, e₂ᵀHe₂), from u = Sn/r (so (Sn)(Sn)ᵀ/r³ = uuᵀ/r) without
/// forming the 3×3 matrix; zero when r = 0.
#[inline(always)]
fn tangent_curvature(
    s: &Matrix3<f64>,
    u: &Vector3<f64>,
    r: f64,
    e1: &Vector3<f64>,
    e2: &Vector3<f64>,
) -> [f64; 3] {
    if r <= 0.0 {
        return [0.0; 3];
    }
    let inv = 1.0 / r;
    let (se1, se2) = (s * e1, s * e2);
    let (u1, u2) = (u.dot(e1), u.dot(e2));
    [(e1.dot(&se1) - u1 * u1) * inv, (e1.dot(&se2) - u1 * u2) * inv, (e2.dot(&se2) - u2 * u2) * inv]
}

/// The Newton system of g on the tangent plane at the evaluation `e`, in the orthogonal basis
/// (e₁, e₂) of equal lengths s (s² = `s2`): the Riemannian Hessian entries
/// −eᵢᵀ(H_a + H_b)eⱼ − g eᵢ·eⱼ as (h₁₁, h₁₂, h₂₂) and the gradient (eᵢ·∇g), with
/// H = (S − u uᵀ)/r per shape ([`tangent_curvature`]) and ∇g = w = c − u_a − u_b.
///
/// Ordered for a short dependency chain: the quadratic forms eᵢᵀS eⱼ and the products
/// eᵢ·(S m) need only the basis and S m, not the root and reciprocal of the evaluation
/// (u·eᵢ = (S m)·eᵢ / √(mᵀS m)), so they run beside them; a shape whose reciprocal is 0
/// (r = 0) contributes nothing, as in [`tangent_curvature`].
#[inline(always)]
fn newton_system(
    a: &Matrix3<f64>,
    b: &Matrix3<f64>,
    e: &Eval,
    c: &Vector3<f64>,
    e1: &Vector3<f64>,
    e2: &Vector3<f64>,
    s2: f64,
) -> ([f64; 3], Vector2<f64>) {
    let forms = |s: &Matrix3<f64>| {
        let (se1, se2) = (s * e1, s * e2);
        [e1.dot(&se1), e1.dot(&se2), e2.dot(&se2)]
    };
    let (fa, fb) = (forms(a), forms(b));
    let (a1, a2) = (e.sa.dot(e1) * e.qa, e.sa.dot(e2) * e.qa);
    let (b1, b2) = (e.sb.dot(e1) * e.qb, e.sb.dot(e2) * e.qb);
    let (ia, ib) = (e.inv_ra, e.inv_rb);
    let gpos = e.g.max(0.0) * s2;
    let h = [
        -((fa[0] - a1 * a1) * ia + (fb[0] - b1 * b1) * ib) - gpos,
        -((fa[1] - a1 * a2) * ia + (fb[1] - b1 * b2) * ib),
        -((fa[2] - a2 * a2) * ia + (fb[2] - b2 * b2) * ib) - gpos,
    ];
    (h, Vector2::new(e1.dot(c) - a1 - b1, e2.dot(c) - a2 - b2))
}

/// Solves the 2×2 system H t = rhs for a (negative or positive) definite H, shifting it by a
/// small multiple of its trace when needed; `sign` = −1 for a negative definite H.
#[inline]
fn solve2(h: Matrix2<f64>, rhs: Vector2<f64>, sign: f64) -> Vector2<f64> {
    let mut m = h * sign;
    let tr = m.trace().abs().max(1e-300);
    if m.determinant() <= 1e-14 * tr * tr || m[(0, 0)] <= 0.0 {
        let shift = 1e-10 * tr;
        m[(0, 0)] += shift;
        m[(1, 1)] += shift;
        // Still indefinite: fall back to a scaled gradient step.
        if m.determinant() <= 0.0 || m[(0, 0)] <= 0.0 {
            return rhs * sign / tr;
        }
    }
    // The adjugate's product beside the determinant, one division at the end.
    Matrix2::new(m[(1, 1)], -m[(0, 1)], -m[(1, 0)], m[(0, 0)]) * rhs * sign / m.determinant()
}

/// The method on placed ellipsoids; `trace` receives (x_a, x_b) after each iteration.
pub(crate) fn run(
    a: &Placed,
    b: &Placed,
    tolerance: f64,
    max_iterations: usize,
    warm_start: Option<Vector3<f64>>,
) -> EllipsoidDistance {
    run_traced(a, b, tolerance, max_iterations, warm_start, None)
}

/// [`run`] with an optional trace of the witness pairs.
pub(crate) fn run_traced(
    a: &Placed,
    b: &Placed,
    tolerance: f64,
    max_iterations: usize,
    warm_start: Option<Vector3<f64>>,
    mut trace: Option<&mut Vec<[f64; 6]>>,
) -> EllipsoidDistance {
    let c = b.center - a.center;
    let clen = c.norm();
    if clen == 0.0 {
        return finish(a, b, a.center, a.center, None, 0, EllipsoidStatus::Converged);
    }
    // `pair_scale` with the centres' distance already at hand.
    let scale = 1f64.max(clen).max(a.max_radius()).max(b.max_radius());
    let target = tolerance * scale;
    // The centre direction is evaluated from c itself (`eval` scales by 1/|c| beside the
    // products).
    let mut e = eval(a, b, &c, &warm_start.and_then(|w| w.try_normalize(0.0)).unwrap_or(c));
    let mut n = e.n;
    let mut iterations = 0;
    if e.g <= 0.0 {
        match scaled_contact(a, b, &c, max_iterations) {
            Contact::Separating(m, it) => {
                iterations += it;
                e = eval(a, b, &c, &m);
                n = e.n;
            }
            Contact::Common { xa, xb, scale: ts, direction, iterations: it, converged } => {
                iterations += it;
                if ts < 1.0 - NEAR_TOUCH {
                    let status =
                        if converged { EllipsoidStatus::Converged } else { EllipsoidStatus::MaxIterations };
                    return finish_at(a, b, xa, xb, None, iterations, status, clen);
                }
                // Nearly touching: let the dual decide (it proves separation if there is any).
                e = eval(a, b, &c, &direction);
                n = e.n;
            }
        }
    }
    // Squared lengths of the last two accepted Newton steps: the lengths themselves (roots)
    // are only taken where the settled test below can pass.
    let mut last_sq = f64::INFINITY;
    let mut prev_sq = f64::INFINITY;
    let mut axis = least_aligned_axis(&n);
    let witnesses = |e: &Eval| (a.center + e.ua, b.center - e.ub);
    loop {
        if let Some(t) = trace.as_deref_mut() {
            let (xa, xb) = witnesses(&e);
            t.push([xa.x, xa.y, xa.z, xb.x, xb.y, xb.z]);
        }
        // The duality gap at `e` (kept apart: the stagnation test below asks for it after `e`
        // may have been replaced).
        let (w, g) = (e.w, e.g);
        let gap = || w.norm() - g;
        // Whether the direction has settled: the last step, or the next one predicted from
        // the last two (quadratic convergence), is below SMALL_STEP, see the docs. The
        // prediction fl(fl(fl(4M)·t)·t), M = max(t/t_prev², 1) ≥ 1, is at least fl(fl(4t)·t)
        // (rounding is monotone, 4M is exact), so a step with fl(fl(4t)·t) > SMALL_STEP cannot
        // be predicted settled: the prediction's division, like the gap's root, is only paid
        // near the end (both are divider work on every iteration otherwise). NaN steps fail
        // both tests, as before. The step lengths t = fl(√|d|²) (what `norm` returns) are
        // only rooted when |d|² ≤ SETTLE_SQUARED_BOUND: above it t ≥ fl(√1e-7) > 3.16e-4, so
        // t > SMALL_STEP and fl(fl(4t)·t) > 1e-7 = SMALL_STEP (monotone rounding), i.e. both
        // tests fail whatever the root, and the decision is the same as with the roots taken.
        let settled = last_sq <= SETTLE_SQUARED_BOUND && {
            let (last_step, prev_step) = (last_sq.sqrt(), prev_sq.sqrt());
            last_step <= SMALL_STEP
                || (PREDICTION_SAFETY * last_step * last_step <= SMALL_STEP
                    && PREDICTION_SAFETY
                        * (last_step / (prev_step * prev_step)).max(1.0)
                        * last_step
                        * last_step
                        <= SMALL_STEP)
        };
        if settled && gap() <= target {
            let (xa, xb) = witnesses(&e);
            return finish_at(a, b, xa, xb, Some(n), iterations, EllipsoidStatus::Converged, clen);
        }
        if iterations >= max_iterations {
            let (xa, xb) = witnesses(&e);
            return finish_at(a, b, xa, xb, Some(n), iterations, EllipsoidStatus::MaxIterations, clen);
        }
        iterations += 1;
        // An orthogonal tangent basis of equal lengths s (unnormalized: no root on the
        // iteration's critical path): in it the Newton system is the orthonormal one scaled
        // by s² on the left and s on the right, so the step e₁t₁ + e₂t₂ is the same.
        // The axis is kept from one iteration to the next while n stays well away from it
        // (|e₁|² = 1 − n_k² ≥ 1/2), so that the choice is not a data-dependent branch
        // each iteration.
        if n[axis] * n[axis] > 0.5 {
            axis = least_aligned_axis(&n);
        }
        let (e1, e2) = tangent_basis_about(&n, axis);
        let s2 = e1.norm_squared();
        // Riemannian Hessian of g on the tangent plane: −(eᵢᵀ (H_a + H_b) eⱼ) − g eᵢ·eⱼ.
        let (h, grad) = newton_system(&a.shape, &b.shape, &e, &c, &e1, &e2, s2);
        let t = solve2(Matrix2::new(h[0], h[1], h[1], h[2]), -grad, -1.0);
        let mut d = e1 * t.x + e2 * t.y;
        // Steps longer than 1 are cut to length 1 (rare: a branch off the usual path).
        let mut d_sq = d.norm_squared();
        if d_sq > 1.0 {
            d = unit_step(d);
            d_sq = d.norm_squared();
        }
        let mut accepted = false;
        for _ in 0..40 {
            // The retraction n ← (n + d)/|n + d| happens inside `eval`.
            let ec = eval(a, b, &c, &(n + d));
            if ec.g >= e.g - 4.0 * f64::EPSILON * scale {
                prev_sq = last_sq;
                last_sq = d_sq;
                n = ec.n;
                e = ec;
                accepted = true;
                break;
            }
            d *= 0.5;
            d_sq = d.norm_squared();
        }
        // √|d|² = 0 exactly when |d|² = 0.
        if !accepted || last_sq == 0.0 {
            let status =
                if gap() <= target { EllipsoidStatus::Converged } else { EllipsoidStatus::Stagnated };
            let (xa, xb) = witnesses(&e);
            return finish_at(a, b, xa, xb, Some(n), iterations, status, clen);
        }
    }
}

enum Contact {
    /// A unit direction with g > 0, and the iterations used.
    Separating(Vector3<f64>, usize),
    /// Points of A and B (equal up to round-off) from the scaled contact with t* ≤ 1, t*
    /// itself and the unit direction at the contact.
    Common {
        xa: Vector3<f64>,
        xb: Vector3<f64>,
        scale: f64,
        direction: Vector3<f64>,
        iterations: usize,
        converged: bool,
    },
}

/// Newton on min r_a(n) + r_b(n) subject to n·c = 1 (see the module docs).
fn scaled_contact(a: &Placed, b: &Placed, c: &Vector3<f64>, max_iterations: usize) -> Contact {
    let c2 = c.norm_squared();
    let base = c / c2;
    let (e1, e2) = tangent_basis(&(c / c2.sqrt()));
    let phi = |n: &Vector3<f64>| {
        let (ra, rb) = sqrt_pair(a.support_radius_squared(n), b.support_radius_squared(n));
        ra + rb
    };
    let mut u = Vector2::zeros();
    let mut n = base;
    let mut iterations = 0;
    let mut converged = false;
    while iterations < 2 * max_iterations {
        iterations += 1;
        let sa = a.shape * n;
        let sb = b.shape * n;
        let (ra, rb) = sqrt_pair(n.dot(&sa).max(0.0), n.dot(&sb).max(0.0));
        let f = ra + rb;
        if f < 1.0 {
            return Contact::Separating(n.normalize(), iterations);
        }
        let (ua, ub) = (offset(sa, ra).0, offset(sb, rb).0);
        let grad3 = ua + ub;
        let ha = tangent_curvature(&a.shape, &ua, ra, &e1, &e2);
        let hb = tangent_curvature(&b.shape, &ub, rb, &e1, &e2);
        let h = Matrix2::new(ha[0] + hb[0], ha[1] + hb[1], ha[1] + hb[1], ha[2] + hb[2]);
        let grad = Vector2::new(e1.dot(&grad3), e2.dot(&grad3));
        let step = solve2(h, -grad, 1.0);
        let decrement = -grad.dot(&step);
        if decrement <= 1e-28 * f * f {
            converged = true;
            break;
        }
        if decrement <= 1e-8 * f * f {
            // Quadratic region: the predicted decrease is below what φ resolves in f64, so a
            // line search on φ would stall; take the full Newton step.
            u += step;
            n = base + e1 * u.x + e2 * u.y;
            if step.norm() <= 1e-15 * (1.0 + u.norm()) {
                converged = true;
                break;
            }
            continue;
        }
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..60 {
            let cand_u = u + step * t;
            let cand = base + e1 * cand_u.x + e2 * cand_u.y;
            if phi(&cand) <= f - 1e-4 * t * decrement {
                u = cand_u;
                n = cand;
                moved = true;
                break;
            }
            t *= 0.5;
        }
        if !moved {
            converged = true;
            break;
        }
    }
    let sa = a.shape * n;
    let sb = b.shape * n;
    let ra = n.dot(&sa).max(0.0).sqrt();
    let rb = n.dot(&sb).max(0.0).sqrt();
    let ts = 1.0 / (ra + rb);
    // Each point lies in its own (unscaled) ellipsoid since min(t*, 1) ≤ 1.
    let t = ts.min(1.0);
    let mut xa = a.center + if ra > 0.0 { sa * (t / ra) } else { Vector3::zeros() };
    let mut xb = b.center - if rb > 0.0 { sb * (t / rb) } else { Vector3::zeros() };
    // The midpoint is a common point when it passes both quadratic forms: then the
    // certificate is exactly [0, 0].
    let mid = (xa + xb) * 0.5;
    if a.level(&mid) <= 1.0 && b.level(&mid) <= 1.0 {
        xa = mid;
        xb = mid;
    }
    Contact::Common { xa, xb, scale: ts, direction: n.normalize(), iterations, converged }
}
