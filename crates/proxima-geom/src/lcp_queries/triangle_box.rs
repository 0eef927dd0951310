//! Distance between a triangle and an oriented box (reference §4.4, oriented variant).
//!
//! # Formulation
//!
//! Triangle `V₀ + s E₀ + t E₁` (s, t ≥ 0, s + t ≤ 1); box `K + R ξ`, 0 ≤ ξ ≤ 2h (corner K,
//! axes = rows of [`BoxN::axes`]). G = [E₀, E₁, −U₀, −U₁, −U₂], A = GᵀG (exact Gram, so
//! axes orthonormal only to ~1e-12 are handled exactly), b = Gᵀ(V₀ − K).
//!
//! `param_a` = barycentric coordinates (1 − s − t, s, t); `param_b` = center-based box-local
//! coordinates ξ − h. The `f64` entry point certifies with the support functions (triangle
//! vertices; box support n·C ± Σ h_j|n·U_j|) and re-solves exactly when needed: the
//! near-parallel failure of §4.4 occurs for oriented boxes as well.
//!
//! # The `f64` path
//!
//! [`triangle_box_distance_f64`] first runs a specialized allocation-free active-set solver
//! (`solve_fast`, [`KernelPath::FastPath`], [`LcpInfo::ACTIVE_SET`]): the bounded least-squares
//! solver of the box–box fast path generalized to N ≤ 5 columns and infinite bounds
//! (`bvls`), applied to the triangle's *plane* against the box ((s, t) free); when the plane
//! solution is outside the triangle, to the edges whose constraint it violates (a convex
//! function of (s, t) minimized over the triangle has its minimum on such an edge). Not
//! certified, or failed: the fixed-size LCP below; then the exact re-solve.
//!
//! The LCP fallback builds the 9 × 9 LCP of the QP directly into fixed arrays
//! (x = (s, t, ξ₀, ξ₁, ξ₂), multipliers of −s − t ≥ −1 and −ξ ≥ −2h):
//!
//! ```text
//! M = [[GᵀG, −Dᵀ], [D, 0]],  q = [Gᵀ(V₀ − K); 1; 2h],  D = [[−1 −1 0 0 0], [0 0 −I]]
//! ```
//!
//! and solves it with `solve_lemke_fixed::<f64, 9>` (no allocation when the first Lemke run is
//! certified), clamps the parameters into the triangle and the box, and certifies the witness
//! pair with the support-function gap over the candidate directions of
//! `engine::certificate_multi` (witness difference, triangle normal, box axes, triangle
//! edge × box axis crosses, witness difference without each edge component). Not certified:
//! exact `Rational` re-solve when allowed, else [`KernelPath::Uncertified`]. The same solver
//! serves [`triangle_aligned_box_distance_f64`](super::triangle_aligned_box_distance_f64)
//! (corner = min, axes = the unit vectors, lengths = max − min).

use proxima_lcp::{Rational, solve_lemke_fixed};
use proxima_num::Field;

use super::box_box::{BoxN, box_extent};
use super::engine::{self, PairProblem};
use super::vec::dot;
use super::{CertifySettings, DistanceOutput, FloatCertificate, KernelPath, LcpInfo};
use crate::error::GeomError;

/// Triangle–oriented box distance, generic over the field.
pub fn triangle_box_distance<T: Field>(
    tri: &[[T; 3]; 3],
    b: &BoxN<T, 3>,
) -> Result<DistanceOutput<T, 3, 3>, GeomError> {
    engine::check_triangle(tri)?;
    b.validate()?;
    let n = 5;
    let two = T::from_i64(2);
    let (o, gens) = engine::triangle_gens(tri);
    let mut ineq = vec![engine::triangle_row(0, n)];
    ineq.extend(engine::upper_rows(2, n, &b.half_extents.clone().map(|h| h.mul(&two))));
    let problem = PairProblem {
        origin_a: o,
        gens_a: gens,
        origin_b: b.corner().to_vec(),
        gens_b: b.axes.iter().map(|u| u.to_vec()).collect(),
        ineq,
        eq: Vec::new(),
        free: Vec::new(),
    };
    let sol = engine::solve_pair(&problem)?;
    Ok(DistanceOutput {
        param_a: engine::barycentric(&sol.x[0], &sol.x[1]),
        param_b: core::array::from_fn(|i| sol.x[2 + i].sub(&b.half_extents[i])),
        point_a: engine::arr(&sol.point_a),
        point_b: engine::arr(&sol.point_b),
        squared_distance: sol.squared,
        lcp: sol.lcp,
        path: if T::EXACT { KernelPath::Exact } else { KernelPath::Float },
        certificate: None,
    })
}

/// Certified `f64` triangle–oriented box distance: specialized active-set solver, then the
/// fixed-size 9 × 9 Lemke solve (module docs), then the exact `Rational` re-solve when not
/// certified and allowed ([`KernelPath::Uncertified`] otherwise).
pub fn triangle_box_distance_f64(
    tri: &[[f64; 3]; 3],
    b: &BoxN<f64, 3>,
    settings: &CertifySettings,
) -> Result<DistanceOutput<f64, 3, 3>, GeomError> {
    engine::check_triangle(tri)?;
    b.validate()?;
    let mut scale = 1.0f64;
    for v in tri.iter().chain([&b.center, &b.half_extents]) {
        for x in v {
            scale = scale.max(x.abs());
        }
    }
    let target = settings.gap_tolerance * scale;
    let fb = engine::Features { faces: &b.axes, edges: &b.axes };
    let eb = |n: &[f64; 3]| box_extent(b, n);
    let cert = |pa: &[f64; 3], pb: &[f64; 3]| triangle_certificate(tri, pa, pb, &eb, fb, scale, target);
    let bx = CornerBox { corner: b.corner(), axes: b.axes, len: b.half_extents.map(|h| 2.0 * h) };
    let output = |x: [f64; 5], pa: [f64; 3], pb: [f64; 3], lcp: LcpInfo, path: KernelPath| {
        let diff: [f64; 3] = core::array::from_fn(|k| pb[k] - pa[k]);
        DistanceOutput {
            param_a: engine::barycentric(&x[0], &x[1]),
            param_b: core::array::from_fn(|j| x[2 + j] - b.half_extents[j]),
            point_a: pa,
            point_b: pb,
            squared_distance: dot(&diff, &diff),
            lcp,
            path,
            certificate: Some(cert(&pa, &pb)),
        }
    };
    if settings.gap_tolerance.is_nan() || settings.gap_tolerance < 0.0 {
        return Err(GeomError::InvalidSettings { field: "gap_tolerance", reason: "must be >= 0" });
    }
    let fast = solve_fast(tri, &bx, scale)
        .map(|(x, pa, pb)| output(x, pa, pb, LcpInfo::ACTIVE_SET, KernelPath::FastPath));
    engine::certified_chain(
        settings,
        fast,
        || solve_fixed(tri, &bx).map(|((x, pa, pb), lcp)| output(x, pa, pb, lcp, KernelPath::FloatCertified)),
        || {
            let rt = [
                engine::exact3(&tri[0], "triangle")?,
                engine::exact3(&tri[1], "triangle")?,
                engine::exact3(&tri[2], "triangle")?,
            ];
            let rb = BoxN::<Rational, 3>::convert_from_f64(b).ok_or(GeomError::NonFinite { what: "box" })?;
            triangle_box_distance(&rt, &rb)
        },
        cert,
    )
}

/// Parameters (s, t, ξ₀, ξ₁, ξ₂) and the witness points on the triangle and the box.
pub(crate) type Solved = ([f64; 5], [f64; 3], [f64; 3]);

/// A parallelepiped in corner form `K + Σ ξ_j U_j`, 0 ≤ ξ_j ≤ ℓ_j (the box of the LCP).
pub(crate) struct CornerBox {
    pub corner: [f64; 3],
    pub axes: [[f64; 3]; 3],
    pub len: [f64; 3],
}

/// The fixed-size `f64` solve of the triangle–box QP (module docs): the parameters
/// (s, t, ξ) clamped into their sets, the two witness points and the LCP info; `None` when
/// Lemke did not solve the LCP.
pub(crate) fn solve_fixed(tri: &[[f64; 3]; 3], bx: &CornerBox) -> Option<(Solved, LcpInfo)> {
    let e0: [f64; 3] = core::array::from_fn(|k| tri[1][k] - tri[0][k]);
    let e1: [f64; 3] = core::array::from_fn(|k| tri[2][k] - tri[0][k]);
    let g: [[f64; 3]; 5] = [e0, e1, bx.axes[0].map(|v| -v), bx.axes[1].map(|v| -v), bx.axes[2].map(|v| -v)];
    let d: [f64; 3] = core::array::from_fn(|k| tri[0][k] - bx.corner[k]);
    let mut m = [[0.0f64; 9]; 9];
    let mut q = [0.0f64; 9];
    for i in 0..5 {
        q[i] = dot(&g[i], &d);
        for j in i..5 {
            let v = dot(&g[i], &g[j]);
            m[i][j] = v;
            m[j][i] = v;
        }
    }
    m[0][5] = 1.0;
    m[1][5] = 1.0;
    m[5][0] = -1.0;
    m[5][1] = -1.0;
    q[5] = 1.0;
    for j in 0..3 {
        m[2 + j][6 + j] = 1.0;
        m[6 + j][2 + j] = -1.0;
        q[6 + j] = bx.len[j];
    }
    let sol = solve_lemke_fixed::<f64, 9>(&m, &q, &engine::float_lemke_settings()).ok()?;
    let info = LcpInfo { status: sol.status, pivots: sol.pivots, path: sol.path };
    if !engine::solved(&info) {
        return None;
    }
    let mut s = sol.z[0].max(0.0);
    let mut t = sol.z[1].max(0.0);
    if s + t > 1.0 {
        let sum = s + t;
        s /= sum;
        t /= sum;
    }
    let xi: [f64; 3] = core::array::from_fn(|j| sol.z[2 + j].clamp(0.0, bx.len[j]));
    let pa: [f64; 3] = core::array::from_fn(|k| tri[0][k] + s * e0[k] + t * e1[k]);
    let pb: [f64; 3] = core::array::from_fn(|k| {
        bx.corner[k] + xi[0] * bx.axes[0][k] + xi[1] * bx.axes[1][k] + xi[2] * bx.axes[2][k]
    });
    Some(((([s, t, xi[0], xi[1], xi[2]]), pa, pb), info))
}

/// The certificate of a triangle against a shape with the given extent and features.
pub(crate) fn triangle_certificate(
    tri: &[[f64; 3]; 3],
    pa: &[f64; 3],
    pb: &[f64; 3],
    b: &impl engine::Extent,
    fb: engine::Features<'_>,
    scale: f64,
    target: f64,
) -> FloatCertificate {
    let (normal, edges) = engine::triangle_features(tri);
    let ta = |n: &[f64; 3]| engine::triangle_extent(tri, n);
    let fa = engine::Features { faces: &normal, edges: &edges };
    engine::certificate_multi(pa, pb, &ta, fa, b, fb, scale, target)
}

/// A bounded-variable least-squares solver for N columns in 3D: the primal active-set method
/// (at most three free, linearly independent columns; an exchange step along the near-null
/// direction when an entering column is nearly dependent on them) for any bounds, infinite ones
/// included. Shared by the triangle–box fast paths (N = 5) and the box–box fast path (N = 6,
/// bounds 0 ≤ ξ ≤ ℓ).
pub(crate) mod bvls {
    use super::super::box_box::fast::{nearly_dependent, solve_spd};

    const MAX_OUTER: usize = 24;

    #[derive(Clone, Copy, PartialEq, Eq)]
    #[repr(u8)]
    enum State {
        Lo,
        Hi,
        Free,
    }

    /// The KKT violation of a variable is its gradient times this sign (by `State`): −g at
    /// the lower bound, g at the upper, none (0) for a free variable.
    const KKT_SIGN: [f64; 3] = [-1.0, 1.0, 0.0];

    #[inline]
    fn d3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    /// Minimizes ½|Σ xᵢ colᵢ − Δ|² subject to lo ≤ x ≤ hi. `x0` is the start: entries at a
    /// bound start bound, the others (the variables with an infinite bound, at most three
    /// with independent columns) start free. The free columns are kept linearly independent
    /// (an entering column nearly dependent on them takes the exchange step of the box–box
    /// solver). `None`: singular system or no convergence (the caller falls back).
    pub(crate) fn solve<const N: usize>(
        col: &[[f64; 3]; N],
        lo: &[f64; N],
        hi: &[f64; N],
        delta: &[f64; 3],
        x0: &[f64; N],
        tol: f64,
    ) -> Option<[f64; N]> {
        let mut x = *x0;
        let mut st = [State::Free; N];
        let mut free = [0usize; 3];
        let mut nfree = 0usize;
        for i in 0..N {
            if x[i] == lo[i] {
                st[i] = State::Lo;
            } else if x[i] == hi[i] {
                st[i] = State::Hi;
            } else {
                if nfree == 3 {
                    return None;
                }
                free[nfree] = i;
                nfree += 1;
            }
        }
        for _ in 0..MAX_OUTER {
            // Least squares over the free columns, shortened to the bounds.
            while nfree > 0 {
                let mut rb = *delta;
                for i in 0..N {
                    if st[i] != State::Free {
                        for k in 0..3 {
                            rb[k] -= x[i] * col[i][k];
                        }
                    }
                }
                let mut h = [[0.0f64; 3]; 3];
                let mut r = [0.0f64; 3];
                for p in 0..nfree {
                    r[p] = d3(&col[free[p]], &rb);
                    for q in 0..=p {
                        let v = d3(&col[free[p]], &col[free[q]]);
                        h[p][q] = v;
                        h[q][p] = v;
                    }
                }
                let z = solve_spd(&h, &r, nfree)?;
                let mut alpha = 1.0f64;
                let mut hit = usize::MAX;
                for p in 0..nfree {
                    let i = free[p];
                    let cur = x[i];
                    let t = if z[p] < lo[i] {
                        (cur - lo[i]) / (cur - z[p])
                    } else if z[p] > hi[i] {
                        (hi[i] - cur) / (z[p] - cur)
                    } else {
                        continue;
                    };
                    if t < alpha {
                        alpha = t;
                        hit = p;
                    }
                }
                if hit == usize::MAX {
                    for p in 0..nfree {
                        x[free[p]] = z[p];
                    }
                    break;
                }
                let alpha = alpha.max(0.0);
                for p in 0..nfree {
                    let i = free[p];
                    x[i] += alpha * (z[p] - x[i]);
                }
                let mut kept = 0;
                for p in 0..nfree {
                    let i = free[p];
                    if x[i] <= lo[i] || (p == hit && z[p] < lo[i]) {
                        x[i] = lo[i];
                        st[i] = State::Lo;
                    } else if x[i] >= hi[i] || (p == hit && z[p] > hi[i]) {
                        x[i] = hi[i];
                        st[i] = State::Hi;
                    } else {
                        free[kept] = i;
                        kept += 1;
                    }
                }
                nfree = kept;
            }
            // Most violating bound variable.
            let mut v = delta.map(|d| -d);
            for i in 0..N {
                for k in 0..3 {
                    v[k] += x[i] * col[i][k];
                }
            }
            let mut best = usize::MAX;
            // `tol` ≥ 0 (callers pass 1e-14 × a positive scale), so a free variable's 0·g
            // (±0, or NaN) is never taken: the branch-free form of skipping it (−173
            // instructions per box–box batch row against a `match` with `continue`).
            debug_assert!(tol >= 0.0 || tol.is_nan(), "bvls tolerance {tol} < 0");
            let mut best_g = tol;
            for i in 0..N {
                let g = d3(&col[i], &v);
                let viol = KKT_SIGN[st[i] as usize] * g;
                if viol > best_g {
                    best_g = viol;
                    best = i;
                }
            }
            if best == usize::MAX {
                return Some(x);
            }
            if nfree > 0 && nearly_dependent(col, &free[..nfree], best) {
                let mut h = [[0.0f64; 3]; 3];
                let mut r = [0.0f64; 3];
                for p in 0..nfree {
                    r[p] = d3(&col[free[p]], &col[best]);
                    for q in 0..=p {
                        let v = d3(&col[free[p]], &col[free[q]]);
                        h[p][q] = v;
                        h[q][p] = v;
                    }
                }
                let a = solve_spd(&h, &r, nfree)?;
                let mut eta = col[best];
                for p in 0..nfree {
                    for k in 0..3 {
                        eta[k] -= a[p] * col[free[p]][k];
                    }
                }
                if d3(&eta, &eta) <= 1e-10 * d3(&col[best], &col[best]) {
                    // Exchange step along the (near-)null direction (see the box–box solver).
                    let sgn = if st[best] == State::Lo { 1.0 } else { -1.0 };
                    let mut step = hi[best] - lo[best];
                    let mut hit = usize::MAX;
                    for p in 0..nfree {
                        let i = free[p];
                        let rate = -a[p] * sgn;
                        let room = if rate < 0.0 {
                            (x[i] - lo[i]) / -rate
                        } else if rate > 0.0 {
                            (hi[i] - x[i]) / rate
                        } else {
                            f64::INFINITY
                        };
                        if room < step {
                            step = room;
                            hit = p;
                        }
                    }
                    let step = step.max(0.0);
                    for p in 0..nfree {
                        let i = free[p];
                        x[i] = (x[i] - a[p] * sgn * step).clamp(lo[i], hi[i]);
                    }
                    if hit == usize::MAX {
                        if st[best] == State::Lo {
                            st[best] = State::Hi;
                            x[best] = hi[best];
                        } else {
                            st[best] = State::Lo;
                            x[best] = lo[best];
                        }
                        continue;
                    }
                    let k = free[hit];
                    let towards_lo = -a[hit] * sgn < 0.0;
                    st[k] = if towards_lo { State::Lo } else { State::Hi };
                    x[k] = if towards_lo { lo[k] } else { hi[k] };
                    x[best] = (x[best] + sgn * step).clamp(lo[best], hi[best]);
                    st[best] = State::Free;
                    free[hit] = best;
                    continue;
                }
                if nfree == 3 {
                    return None;
                }
            }
            free[nfree] = best;
            nfree += 1;
            st[best] = State::Free;
        }
        None
    }
}

/// The specialized `f64` triangle–box solve: the triangle's plane against the box
/// ((s, t) free, ξ bounded); when (s, t) falls outside the triangle the optimum is on its
/// boundary: the best of the three edge–box solves (u ∈ [0, 1], ξ bounded). All by
/// [`bvls::solve`]; `None` when one of them fails (the caller falls back to the LCP).
pub(crate) fn solve_fast(tri: &[[f64; 3]; 3], bx: &CornerBox, scale: f64) -> Option<Solved> {
    let e0: [f64; 3] = core::array::from_fn(|k| tri[1][k] - tri[0][k]);
    let e1: [f64; 3] = core::array::from_fn(|k| tri[2][k] - tri[0][k]);
    let e2: [f64; 3] = core::array::from_fn(|k| tri[2][k] - tri[1][k]);
    let nu = bx.axes.map(|u| u.map(|v| -v));
    let center: [f64; 3] =
        core::array::from_fn(|k| bx.corner[k] + 0.5 * (0..3).map(|j| bx.len[j] * bx.axes[j][k]).sum::<f64>());
    let centroid: [f64; 3] = core::array::from_fn(|k| (tri[0][k] + tri[1][k] + tri[2][k]) / 3.0);
    // ξ starts at the bound facing the triangle's centroid.
    let xi0: [f64; 3] = core::array::from_fn(|j| {
        let side: f64 = (0..3).map(|k| bx.axes[j][k] * (centroid[k] - center[k])).sum();
        if side > 0.0 { bx.len[j] } else { 0.0 }
    });
    let emax =
        [e0, e1, e2].iter().map(|e| e.iter().fold(0.0f64, |m, v| m.max(v.abs()))).fold(1.0f64, f64::max);
    let tol = 1e-14 * scale * emax;
    let point = |s: f64, t: f64, xi: &[f64]| -> ([f64; 3], [f64; 3]) {
        let pa = core::array::from_fn(|k| tri[0][k] + s * e0[k] + t * e1[k]);
        let pb = core::array::from_fn(|k| {
            bx.corner[k] + xi[0] * bx.axes[0][k] + xi[1] * bx.axes[1][k] + xi[2] * bx.axes[2][k]
        });
        (pa, pb)
    };
    // 1. The plane.
    let delta: [f64; 3] = core::array::from_fn(|k| bx.corner[k] - tri[0][k]);
    let x = bvls::solve(
        &[e0, e1, nu[0], nu[1], nu[2]],
        &[f64::NEG_INFINITY, f64::NEG_INFINITY, 0.0, 0.0, 0.0],
        &[f64::INFINITY, f64::INFINITY, bx.len[0], bx.len[1], bx.len[2]],
        &delta,
        &[0.0, 0.0, xi0[0], xi0[1], xi0[2]],
        tol,
    )?;
    if x[0] >= 0.0 && x[1] >= 0.0 && x[0] + x[1] <= 1.0 {
        let (pa, pb) = point(x[0], x[1], &x[2..]);
        return Some((x, pa, pb));
    }
    // 2. The edges. f(s, t) = min_ξ (convex) has its unconstrained minimum (s, t) = x outside
    //    the triangle; the constrained minimum is on an edge whose constraint x violates (else
    //    the segment towards x would enter the triangle and decrease f). Edge k: t = 0 (k = 0),
    //    s = 0 (k = 1), s + t = 1 (k = 2). ξ restarts from the plane solution's bounds.
    let violated = [x[1] < 0.0, x[0] < 0.0, x[0] + x[1] > 1.0];
    let xi_start: [f64; 3] =
        core::array::from_fn(|j| if x[2 + j] > 0.5 * bx.len[j] { bx.len[j] } else { 0.0 });
    let edges: [([f64; 3], [f64; 3]); 3] = [(tri[0], e0), (tri[0], e1), (tri[1], e2)];
    let mut best: Option<(Solved, f64)> = None;
    for (which, (o, e)) in edges.iter().enumerate() {
        if !violated[which] {
            continue;
        }
        let delta: [f64; 3] = core::array::from_fn(|k| bx.corner[k] - o[k]);
        // u starts at the end nearer to the plane solution.
        let u_plane = match which {
            0 => x[0],
            1 => x[1],
            _ => x[1] - x[0],
        };
        let u0 = if which == 2 {
            if u_plane > 0.0 { 1.0 } else { 0.0 }
        } else if u_plane > 0.5 {
            1.0
        } else {
            0.0
        };
        let y = bvls::solve(
            &[*e, nu[0], nu[1], nu[2]],
            &[0.0; 4],
            &[1.0, bx.len[0], bx.len[1], bx.len[2]],
            &delta,
            &[u0, xi_start[0], xi_start[1], xi_start[2]],
            tol,
        )?;
        let u = y[0];
        let (s, t) = match which {
            0 => (u, 0.0),
            1 => (0.0, u),
            _ => (1.0 - u, u),
        };
        let (pa, pb) = point(s, t, &y[1..]);
        let d2 = (0..3).map(|k| (pb[k] - pa[k]).powi(2)).sum::<f64>();
        if best.as_ref().is_none_or(|b| d2 < b.1) {
            best = Some((([s, t, y[1], y[2], y[3]], pa, pb), d2));
        }
    }
    best.map(|(sol, _)| sol)
}
