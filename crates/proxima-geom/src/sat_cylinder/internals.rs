//! The building blocks of the cylinder separating-axis test, exposed for tests and experiments:
//! the separation function f (spec (6)), the one-variable function F of the perpendicular
//! directions and its derivative (spec (8)–(9)), the octant function G and its gradient (spec
//! §7.1–7.2), and the two searches (spec §8.2–8.3). Every search returns a unit direction n whose
//! general f(n) has been re-checked against the settings' separation predicate ([`certify`]).

use nalgebra::Vector3;

use super::{CylinderGeom, CylinderSatSettings};

type V3 = Vector3<f64>;

/// f(D) = r₀|D × W₀| + r₁|D × W₁| + h₀|D·W₀| + h₁|D·W₁| − |D·Δ| (h = half heights,
/// Δ = C₁ − C₀). f(D) ≤ 0 ⇔ the projections onto D are disjoint or touch.
#[inline]
pub fn separation_f(a: &CylinderGeom, b: &CylinderGeom, d: &V3) -> f64 {
    let delta = b.center - a.center;
    a.half_extent(d) + b.half_extent(d) - d.dot(&delta).abs()
}

/// The certification of a candidate D ≠ 0: its normalisation n = D/|D|, if f(n) (general
/// formula) passes the settings' separation predicate.
#[inline]
pub fn certify(a: &CylinderGeom, b: &CylinderGeom, s: &CylinderSatSettings, d: &V3) -> Option<V3> {
    let len = d.norm();
    if !(len > 0.0 && len.is_finite()) {
        return None;
    }
    let n = d / len;
    s.separates(separation_f(a, b, &n), 1.0).then_some(n)
}

/// F(t) of spec (8): f((1 − t)U₀ + tV₀) for D ⊥ W₀, with `h1b1_div2` = h₁b₁ (h₁ the half
/// height), `c1sqr` = (W₀·W₁)², a₂ = Δ·U₀ (or −Δ·U₀ on the second quarter), b₂ = Δ·V₀.
#[inline]
pub fn perp_f(t: f64, r0: f64, r1: f64, h1b1_div2: f64, c1sqr: f64, a2: f64, b2: f64) -> f64 {
    let omt = 1.0 - t;
    r0 * (omt * omt + t * t).sqrt() + r1 * (omt * omt + c1sqr * t * t).sqrt() + h1b1_div2 * t
        - (omt * a2 + t * b2).abs()
}

/// F′(t) of spec (9), with the guard for c₁ = 0 at t = 1 (the term is −r₁, never NaN).
#[inline]
pub fn perp_f_der(t: f64, r0: f64, r1: f64, h1b1_div2: f64, c1sqr: f64, a2: f64, b2: f64) -> f64 {
    let omt = 1.0 - t;
    let q1 = omt * omt + c1sqr * t * t;
    let term1 = if q1 > 0.0 { r1 * ((1.0 + c1sqr) * t - 1.0) / q1.sqrt() } else { -r1 };
    let l = omt * a2 + t * b2;
    let sign = if l > 0.0 {
        1.0
    } else if l < 0.0 {
        -1.0
    } else {
        0.0
    };
    r0 * (2.0 * t - 1.0) / (omt * omt + t * t).sqrt() + term1 + h1b1_div2 - (b2 - a2) * sign
}

/// The constants of one octant: a_i = W_i·U, b_i = W_i·V, c_i = W_i·Ŵ, radii, half heights
/// and |Δ| (spec §7.1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OctantParams {
    /// Radius of cylinder 0.
    pub r0: f64,
    /// Half height of cylinder 0.
    pub h0: f64,
    /// Radius of cylinder 1.
    pub r1: f64,
    /// Half height of cylinder 1.
    pub h1: f64,
    /// W₀ in the octant basis (U, V, Ŵ).
    pub w0: [f64; 3],
    /// W₁ in the octant basis.
    pub w1: [f64; 3],
    /// |Δ|.
    pub len_delta: f64,
    /// Added as `tolerance·|D|` (the settings' tolerance; 0 in touching mode).
    pub tolerance: f64,
}

/// G(s, t) = f(D) + tolerance·|D| at D = sU + tV + (1 − s − t)Ŵ (spec §7.1; Q_i clamped
/// at 0).
#[inline]
pub fn octant_g(s: f64, t: f64, p: &OctantParams) -> f64 {
    let u = 1.0 - s - t;
    let sq = s * s + t * t + u * u;
    let l0 = p.w0[0] * s + p.w0[1] * t + p.w0[2] * u;
    let l1 = p.w1[0] * s + p.w1[1] * t + p.w1[2] * u;
    let q0 = (sq - l0 * l0).max(0.0);
    let q1 = (sq - l1 * l1).max(0.0);
    p.r0 * q0.sqrt() + p.r1 * q1.sqrt() + p.h0 * l0.abs() + p.h1 * l1.abs() - u * p.len_delta
        + p.tolerance * sq.sqrt()
}

/// (G_s, G_t) of spec §7.2 where G is smooth (a subgradient at cone points), including the
/// tolerance term tolerance·|D|.
pub fn octant_g_grad(s: f64, t: f64, p: &OctantParams) -> (f64, f64) {
    let u = 1.0 - s - t;
    let sq = s * s + t * t + u * u;
    let sign = |x: f64| {
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        }
    };
    let mut gs = p.len_delta;
    let mut gt = p.len_delta;
    if p.tolerance != 0.0 {
        let n = sq.sqrt();
        gs += p.tolerance * (s - u) / n;
        gt += p.tolerance * (t - u) / n;
    }
    for (w, r, h) in [(p.w0, p.r0, p.h0), (p.w1, p.r1, p.h1)] {
        let [a, b, c] = w;
        let l = a * s + b * t + c * u;
        let q = (sq - l * l).max(0.0);
        let k = if q > 1e-300 { r / q.sqrt() } else { 0.0 };
        gs += ((s - u) - (a - c) * l) * k + h * (a - c) * sign(l);
        gt += ((t - u) - (b - c) * l) * k + h * (b - c) * sign(l);
    }
    (gs, gt)
}

/// Directions perpendicular to the axis of `a` (spec §8.2 with its fixes): a certified unit
/// separating n ⊥ W_a, or `None`. The axes must not be parallel (|W_a × W_b| > 0).
pub fn separated_by_perpendiculars(
    a: &CylinderGeom,
    b: &CylinderGeom,
    s: &CylinderSatSettings,
) -> Option<V3> {
    let delta = b.center - a.center;
    let (w0, w1) = (a.axis, b.axis);
    let x = w1.cross(&w0);
    let nx = x.norm();
    if nx == 0.0 {
        return None;
    }
    let u0 = x / nx;
    let v0 = w0.cross(&u0);
    let b1 = w1.dot(&v0);
    let c1 = w0.dot(&w1);
    // F(t) + tolerance·|D(t)|: the tolerance adds to r₀ (|D(t)| is r₀'s radical); touching
    // mode has tolerance 0.
    let tol = if s.touching_is_separated { 0.0 } else { s.tolerance };
    let (r0, r1, hb, c1sqr) = (a.radius + tol, b.radius, b.half_height * b1, c1 * c1);
    let b2 = delta.dot(&v0);
    let a2_first = delta.dot(&u0);
    let check = |d: V3| certify(a, b, s, &d);
    for (sgn, a2) in [(1.0, a2_first), (-1.0, -a2_first)] {
        let f = |t: f64| perp_f(t, r0, r1, hb, c1sqr, a2, b2);
        let fd = |t: f64| perp_f_der(t, r0, r1, hb, c1sqr, a2, b2);
        let dir = |t: f64| u0 * (sgn * (1.0 - t)) + v0 * t;
        let sep = |v: f64| if s.touching_is_separated { v <= 0.0 } else { v < 0.0 };
        if sep(f(0.0))
            && let Some(d) = check(dir(0.0))
        {
            return Some(d);
        }
        if sep(f(1.0))
            && let Some(d) = check(dir(1.0))
        {
            return Some(d);
        }
        if a2 * b2 < 0.0 {
            continue; // kink inside: no interior witness (spec Lemma 6.2)
        }
        if fd(0.0) >= 0.0 || fd(1.0) <= 0.0 {
            continue; // the minimum is at an endpoint (already tested)
        }
        let (mut t0, mut t1) = (0.0, 1.0);
        for _ in 0..s.max_bisections {
            let tm = 0.5 * (t0 + t1);
            if sep(f(tm))
                && let Some(d) = check(dir(tm))
            {
                return Some(d);
            }
            let d = fd(tm);
            if d > 0.0 {
                t1 = tm;
            } else if d < 0.0 {
                t0 = tm;
            } else {
                break;
            }
        }
    }
    None
}

/// Golden-section search of a convex (unimodal) function on [lo, hi]; `Err` carries a hit
/// from `fun` (a certified separating direction found during an evaluation).
fn golden_min<E>(
    mut lo: f64,
    mut hi: f64,
    tol: f64,
    max_steps: u32,
    fun: &mut impl FnMut(f64) -> Result<f64, E>,
) -> Result<f64, E> {
    const G: f64 = 0.618_033_988_749_894_9;
    let mut best = fun(lo)?.min(fun(hi)?);
    let mut c = hi - G * (hi - lo);
    let mut d = lo + G * (hi - lo);
    let mut fc = fun(c)?;
    let mut fd = fun(d)?;
    let mut steps = 0;
    while hi - lo > tol && steps < max_steps {
        if fc < fd {
            hi = d;
            d = c;
            fd = fc;
            c = hi - G * (hi - lo);
            fc = fun(c)?;
        } else {
            lo = c;
            c = d;
            fc = fd;
            d = lo + G * (hi - lo);
            fd = fun(d)?;
        }
        steps += 1;
    }
    best = best.min(fc).min(fd);
    Ok(best)
}

/// A unit vector perpendicular to the unit vector `w`.
pub fn any_perpendicular(w: &V3) -> V3 {
    let (ax, ay, az) = (w.x.abs(), w.y.abs(), w.z.abs());
    let e = if ax <= ay && ax <= az {
        V3::x()
    } else if ay <= az {
        V3::y()
    } else {
        V3::z()
    };
    let u = w.cross(&e);
    u / u.norm()
}

/// The outcome of the other-directions search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OtherDirections {
    /// A certified separating direction.
    Separated(V3),
    /// No separating direction; the smallest G found (f + tolerance·|D| at D, |D| ∈ [1/√3, 1])
    /// and its direction D (`None` for Δ = 0).
    NotSeparated(Option<(f64, V3)>),
}

/// All other directions (spec §7.4): nested golden-section search of G on the four octants of
/// the hemisphere D·Δ ≥ 0. Returns a certified separating direction or `None`; `None` for
/// concentric cylinders (Δ = 0).
pub fn separated_by_other_directions(
    a: &CylinderGeom,
    b: &CylinderGeom,
    s: &CylinderSatSettings,
) -> Option<V3> {
    match other_directions_search(a, b, s) {
        OtherDirections::Separated(d) => Some(d),
        OtherDirections::NotSeparated(_) => None,
    }
}

/// [`separated_by_other_directions`], also reporting the best direction when not separated.
pub fn other_directions_search(
    a: &CylinderGeom,
    b: &CylinderGeom,
    s: &CylinderSatSettings,
) -> OtherDirections {
    let delta = b.center - a.center;
    let len = delta.norm();
    if len == 0.0 {
        return OtherDirections::NotSeparated(None);
    }
    let w = delta / len;
    let u = any_perpendicular(&w);
    let v = w.cross(&u);
    let mut best = (f64::INFINITY, w);
    for (su, sv) in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
        let (us, vs) = (u * su, v * sv);
        let coords = |x: &V3| [x.dot(&us), x.dot(&vs), x.dot(&w)];
        let p = OctantParams {
            r0: a.radius,
            h0: a.half_height,
            r1: b.radius,
            h1: b.half_height,
            w0: coords(&a.axis),
            w1: coords(&b.axis),
            len_delta: len,
            tolerance: if s.touching_is_separated { 0.0 } else { s.tolerance },
        };
        let dir = |x: f64, y: f64| us * x + vs * y + w * (1.0 - x - y);
        let best_ref = &mut best;
        let mut outer = |x: f64| {
            let mut inner = |y: f64| {
                let g = octant_g(x, y, &p);
                if if s.touching_is_separated { g <= 0.0 } else { g < 0.0 } {
                    let d = dir(x, y);
                    if let Some(n) = certify(a, b, s, &d) {
                        return Err(n);
                    }
                }
                if g < best_ref.0 {
                    *best_ref = (g, dir(x, y));
                }
                Ok(g)
            };
            golden_min(0.0, (1.0 - x).max(0.0), s.tol_param, s.max_golden, &mut inner)
        };
        if let Err(d) = golden_min(0.0, 1.0, s.tol_param, s.max_golden, &mut outer) {
            return OtherDirections::Separated(d);
        }
    }
    OtherDirections::NotSeparated(Some(best))
}
