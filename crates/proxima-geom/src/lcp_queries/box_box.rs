//! Distance between two oriented boxes in D dimensions (reference Example 6, §3.1; Listing 2,
//! §4.2).
//!
//! # Formulation
//!
//! A box is a center C, unit axes U_j (the *rows* of [`BoxN::axes`], i.e. the columns of the
//! rotation R) and half extents h_j > 0. With the corner K = C − Σ h_j U_j a box point is
//! `K + R ξ`, 0 ≤ ξ ≤ ℓ = 2h. With Δ = K₁ − K₀,
//!
//! ```text
//! f(ξ₀, ξ₁) = ½ |R₀ξ₀ − R₁ξ₁ − Δ|²,  A = [[R₀ᵀR₀, −R₀ᵀR₁], [−R₁ᵀR₀, R₁ᵀR₁]],
//! b = [−R₀ᵀΔ; R₁ᵀΔ],  c = ½|Δ|²,  D = [−I; −I] (ξ ≤ ℓ),  e = −ℓ.
//! ```
//!
//! Unlike the reference, A uses the *exact Gram blocks* R_iᵀR_i instead of I: axes read from
//! data files are orthonormal only to ~1e-12, and with the Gram matrix the QP is exactly the
//! distance problem of the boxes as given, so an exact (Rational) solve is exact for them.
//!
//! The LCP has 2D variables plus 2D multipliers (12 × 12 in 3D, as Listing 2).
//!
//! # Results
//!
//! `param_a`/`param_b` are the box-local coordinates of the closest points relative to the
//! *center*, ξ − h ∈ [−h, h] (as Listing 2's `box0Parameter`). When the boxes intersect the
//! squared distance is 0 and the points are a common point (not unique).
//!
//! # The f64 3D path
//!
//! [`box_box_distance_f64`] first runs a specialized solver for the 6-variable bound-constrained
//! least-squares problem, certifies it by the support-function gap,
//! then falls back to the fixed-size allocation-free 12 × 12 Lemke solve
//! ([`box_box_distance_f64_lcp`], `solve_lemke_fixed::<f64, 12>`), then to an exact Rational
//! re-solve.
//!
//! The specialized solver is a primal active-set method for bounded-variable least squares
//! (in the style of Stark–Parker BVLS) on min ½|Gξ − Δ|², 0 ≤ ξ ≤ ℓ, G = [R₀, −R₁] (3 × 6):
//! all variables start at the bound facing the other box's center; the bound variable whose
//! gradient gᵢ = Gᵢ·(Gξ − Δ) most violates its KKT sign (gᵢ ≥ 0 at 0, gᵢ ≤ 0 at ℓᵢ) is freed;
//! the least-squares problem over the free columns is solved by a Cholesky factorization of
//! their Gram matrix (≤ 3 columns, kept linearly independent: H = GᵀG has rank 3, and three
//! independent free columns strictly inside their bounds give a zero residual — intersection);
//! a step leaving the box is shortened to the first bound hit, which becomes bound again.
//! An entering column nearly dependent on the free ones (near-parallel axes; always with three
//! free columns) is not freed: an *exchange step* moves it together with the free variables
//! along the (near-)null direction, which changes the residual only by the tiny independent
//! part, until the first bound; the free variable that hits it leaves, the entering one takes
//! its place. No convergence in 24 outer steps (or a singular system) hands over to the LCP.
//! On random pairs (mixture of separated, touching and intersecting) all 1024 benchmark pairs
//! are answered and certified by this path, and on the near-parallel pairs of the shared boxes
//! workload 498 of 500 (the other two by the LCP); it allocates nothing.
//!
//! The answers are certified by `box_certificate` (in `engine`): the witness direction, then (while the
//! gap is above tolerance) the six face normals, the nine axis crosses and the witness
//! difference without each axis component. Not certified by the fast path: the LCP; the two
//! brackets are merged (the smaller upper bound with its witnesses, the larger lower bound);
//! then the exact re-solve when `exact_fallback` is set, else [`KernelPath::Uncertified`].
//! Every bound in that certificate is a separation along some direction computed from the
//! boxes' own data (n·c ± Σ hⱼ|n·uⱼ|), valid whatever the witnesses; for two cuboids, whose
//! world boxes are the user's shapes entry for entry, the query passes it on as the answer's
//! lower bound instead of evaluating the shapes' support functions along the witness
//! direction a second time (`query/distance/lcp.rs`).
//!
//! The fast path reports [`LcpInfo::ACTIVE_SET`] (pivots 0; see its docs for the convention).
//!
//! # Edge cases
//!
//! Non-finite data → `NonFinite`; a half extent ≤ 0 → `NonPositive`; axes not orthonormal to
//! 1e-6 → `NotRotation`. Parallel faces (non-unique closest points) are handled by the LCP's
//! lexicographic degeneracy resolution; any minimizer is returned.

use proxima_lcp::{Rational, solve_lemke_fixed};
use proxima_num::Field;

use super::engine::{self, PairProblem};
use super::vec::dot;
use super::{CertifySettings, DistanceOutput, FloatCertificate, KernelPath, LcpInfo};
use crate::error::GeomError;

/// An oriented box in D dimensions.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxN<T, const D: usize> {
    /// The center C.
    pub center: [T; D],
    /// The unit axes: `axes[j]` is U_j (the rows of this array are the columns of R).
    pub axes: [[T; D]; D],
    /// Half extents h_j > 0.
    pub half_extents: [T; D],
}

impl<T: Field, const D: usize> BoxN<T, D> {
    /// Converts an `f64` box exactly into T (`None` for non-finite values).
    pub fn convert_from_f64(b: &BoxN<f64, D>) -> Option<Self> {
        Some(BoxN {
            center: super::vec::convert(&b.center)?,
            axes: {
                let mut axes: [[T; D]; D] = core::array::from_fn(|_| core::array::from_fn(|_| T::zero()));
                for (o, a) in axes.iter_mut().zip(&b.axes) {
                    *o = super::vec::convert(a)?;
                }
                axes
            },
            half_extents: super::vec::convert(&b.half_extents)?,
        })
    }

    /// Validates: finite, half extents > 0, axes orthonormal to 1e-6 (checked in f64).
    pub fn validate(&self) -> Result<(), GeomError> {
        let axes: [&[T]; D] = core::array::from_fn(|i| &self.axes[i][..]);
        validate_parts(&self.center, &axes, &self.half_extents)
    }

    /// The corner K = C − Σ h_j U_j.
    pub fn corner(&self) -> [T; D] {
        let mut k = self.center.clone();
        for (u, h) in self.axes.iter().zip(&self.half_extents) {
            for (kk, uu) in k.iter_mut().zip(u) {
                kk.sub_mul_assign(h, uu);
            }
        }
        k
    }

    /// The point with center-based local coordinates `p`: C + Σ p_j U_j.
    pub fn point(&self, p: &[T; D]) -> [T; D] {
        let mut out = self.center.clone();
        for (u, pj) in self.axes.iter().zip(p) {
            for (o, uu) in out.iter_mut().zip(u) {
                o.add_mul_assign(pj, uu);
            }
        }
        out
    }
}

/// Distance between two boxes in D dimensions, generic over the field (exact for `Rational`).
/// Parameters are center-based local coordinates (see the module docs).
pub fn box_box_distance<T: Field, const D: usize>(
    a: &BoxN<T, D>,
    b: &BoxN<T, D>,
) -> Result<DistanceOutput<T, D, D, D>, GeomError> {
    a.validate()?;
    b.validate()?;
    let axes_a: [&[T]; D] = core::array::from_fn(|i| &a.axes[i][..]);
    let axes_b: [&[T]; D] = core::array::from_fn(|i| &b.axes[i][..]);
    let out = solve_parts((&a.center, &axes_a, &a.half_extents), (&b.center, &axes_b, &b.half_extents))?;
    Ok(DistanceOutput {
        param_a: engine::arr(&out.param_a),
        param_b: engine::arr(&out.param_b),
        point_a: engine::arr(&out.point_a),
        point_b: engine::arr(&out.point_b),
        squared_distance: out.squared_distance,
        lcp: out.lcp,
        path: out.path,
        certificate: None,
    })
}

/// A box of dimension known only at run time (e.g. read from a file); same conventions as
/// [`BoxN`]: `axes[j]` is the unit axis U_j, `half_extents[j]` = h_j.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxDyn<T> {
    /// The center C (n entries).
    pub center: Vec<T>,
    /// n axes of n entries each.
    pub axes: Vec<Vec<T>>,
    /// n half extents > 0.
    pub half_extents: Vec<T>,
}

/// The answer of [`box_box_distance_dyn`] (same fields as [`DistanceOutput`], as vectors).
#[derive(Debug, Clone, PartialEq)]
pub struct DynDistanceOutput<T> {
    /// Center-based local coordinates of the closest point of box a.
    pub param_a: Vec<T>,
    /// Center-based local coordinates of the closest point of box b.
    pub param_b: Vec<T>,
    /// Closest point on a.
    pub point_a: Vec<T>,
    /// Closest point on b.
    pub point_b: Vec<T>,
    /// |point_b − point_a|² (exact in exact fields).
    pub squared_distance: T,
    /// The LCP summary.
    pub lcp: LcpInfo,
    /// [`KernelPath::Exact`] or [`KernelPath::Float`].
    pub path: KernelPath,
}

/// Box–box distance in a dimension known at run time. Sizes are checked:
/// `DimensionMismatch` when a center, an axis or the half extents of either box do not have
/// the dimension n of `a.center` (n ≥ 1).
pub fn box_box_distance_dyn<T: Field>(
    a: &BoxDyn<T>,
    b: &BoxDyn<T>,
) -> Result<DynDistanceOutput<T>, GeomError> {
    let n = a.center.len();
    if n == 0 {
        return Err(GeomError::DimensionMismatch { what: "box center", expected: 1, found: 0 });
    }
    for bx in [a, b] {
        let checks = [
            ("box center", bx.center.len()),
            ("box axes", bx.axes.len()),
            ("box half extents", bx.half_extents.len()),
        ];
        for (what, found) in checks {
            if found != n {
                return Err(GeomError::DimensionMismatch { what, expected: n, found });
            }
        }
        for axis in &bx.axes {
            if axis.len() != n {
                return Err(GeomError::DimensionMismatch {
                    what: "box axis",
                    expected: n,
                    found: axis.len(),
                });
            }
        }
    }
    let axes_a: Vec<&[T]> = a.axes.iter().map(|v| &v[..]).collect();
    let axes_b: Vec<&[T]> = b.axes.iter().map(|v| &v[..]).collect();
    validate_parts(&a.center, &axes_a, &a.half_extents)?;
    validate_parts(&b.center, &axes_b, &b.half_extents)?;
    solve_parts((&a.center, &axes_a, &a.half_extents), (&b.center, &axes_b, &b.half_extents))
}

type Parts<'a, T> = (&'a [T], &'a [&'a [T]], &'a [T]);

fn validate_parts<T: Field>(center: &[T], axes: &[&[T]], half: &[T]) -> Result<(), GeomError> {
    engine::check_finite(center, "box center")?;
    for a in axes {
        engine::check_finite(a, "box axis")?;
    }
    engine::check_finite(half, "box half extent")?;
    for h in half {
        if !h.is_positive() {
            return Err(GeomError::NonPositive { what: "box half extent", value: h.to_f64() });
        }
    }
    let mut err = 0.0f64;
    for (i, ai) in axes.iter().enumerate() {
        for (j, aj) in axes.iter().enumerate() {
            let g = dot(ai, aj).to_f64();
            let target = if i == j { 1.0 } else { 0.0 };
            err = err.max((g - target).abs());
        }
    }
    if err.is_nan() || err > 1e-6 {
        return Err(GeomError::NotRotation { error: err });
    }
    Ok(())
}

fn corner_parts<T: Field>((center, axes, half): Parts<'_, T>) -> Vec<T> {
    let mut k = center.to_vec();
    for (u, h) in axes.iter().zip(half) {
        for (kk, uu) in k.iter_mut().zip(u.iter()) {
            kk.sub_mul_assign(h, uu);
        }
    }
    k
}

/// The shared n-dimensional solve (inputs validated).
fn solve_parts<T: Field>(a: Parts<'_, T>, b: Parts<'_, T>) -> Result<DynDistanceOutput<T>, GeomError> {
    let d = a.0.len();
    let two = T::from_i64(2);
    let n = 2 * d;
    let la: Vec<T> = a.2.iter().map(|h| h.mul(&two)).collect();
    let lb: Vec<T> = b.2.iter().map(|h| h.mul(&two)).collect();
    let mut ineq = engine::upper_rows(0, n, &la);
    ineq.extend(engine::upper_rows(d, n, &lb));
    let problem = PairProblem {
        origin_a: corner_parts(a),
        gens_a: a.1.iter().map(|u| u.to_vec()).collect(),
        origin_b: corner_parts(b),
        gens_b: b.1.iter().map(|u| u.to_vec()).collect(),
        ineq,
        eq: Vec::new(),
        free: Vec::new(),
    };
    let sol = engine::solve_pair(&problem)?;
    Ok(DynDistanceOutput {
        param_a: (0..d).map(|i| sol.x[i].sub(&a.2[i])).collect(),
        param_b: (0..d).map(|i| sol.x[d + i].sub(&b.2[i])).collect(),
        point_a: sol.point_a,
        point_b: sol.point_b,
        squared_distance: sol.squared,
        lcp: sol.lcp,
        path: if T::EXACT { KernelPath::Exact } else { KernelPath::Float },
    })
}

/// (min, max) over the box of n·p = n·C ∓ Σ h_j |n·U_j|.
#[inline]
pub(crate) fn box_extent(b: &BoxN<f64, 3>, n: &[f64; 3]) -> (f64, f64) {
    let c = dot(n, &b.center);
    let mut r = 0.0;
    for (u, h) in b.axes.iter().zip(&b.half_extents) {
        r += h * dot(n, u).abs();
    }
    (c - r, c + r)
}

/// max(1, |coordinates of the centers|, half extents) without allocating: a plain loop over the
/// four arrays (the same maxima in the same order as a fold over their chain, which compiled
/// to ~220 instructions per call, twice per query, against ~30). The maximum is taken by a
/// comparison, `if y > m { m = y }`, the same value as `f64::max` here (a NaN entry is
/// skipped by both, m never is NaN), compiled to one `maxsd` instead of `f64::max`'s NaN
/// handling (~20 fewer instructions per call on the batch rows).
#[inline]
fn box_scale(a: &BoxN<f64, 3>, b: &BoxN<f64, 3>) -> f64 {
    let mut m = 1.0f64;
    for v in [&a.center, &b.center, &a.half_extents, &b.half_extents] {
        for x in v {
            let y = x.abs();
            if y > m {
                m = y;
            }
        }
    }
    m
}

/// The support-function certificate of a box pair, tightened over the SAT directions (the
/// witness difference, the six face normals, the nine edge crosses, the witness difference
/// with each edge direction removed; see [`engine::certificate_multi`]) until the gap is at
/// most `target`.
pub(crate) fn box_certificate(
    a: &BoxN<f64, 3>,
    b: &BoxN<f64, 3>,
    pa: &[f64; 3],
    pb: &[f64; 3],
    target: f64,
) -> FloatCertificate {
    box_certificate_at_scale(a, b, pa, pb, target, box_scale(a, b))
}

/// [`box_certificate`] with the pair's `box_scale` already computed by the caller.
#[inline]
fn box_certificate_at_scale(
    a: &BoxN<f64, 3>,
    b: &BoxN<f64, 3>,
    pa: &[f64; 3],
    pb: &[f64; 3],
    target: f64,
    scale: f64,
) -> FloatCertificate {
    let fa = engine::Features { faces: &a.axes, edges: &a.axes };
    let fb = engine::Features { faces: &b.axes, edges: &b.axes };
    let ea = |n: &[f64; 3]| box_extent(a, n);
    let eb = |n: &[f64; 3]| box_extent(b, n);
    engine::certificate_multi(pa, pb, &ea, fa, &eb, fb, scale, target)
}

/// The gap target `gap_tolerance × scale` of a box pair.
#[inline]
fn box_target(a: &BoxN<f64, 3>, b: &BoxN<f64, 3>, settings: &CertifySettings) -> f64 {
    settings.gap_tolerance * box_scale(a, b)
}

fn exact_resolve(a: &BoxN<f64, 3>, b: &BoxN<f64, 3>) -> Result<DistanceOutput<f64, 3, 3>, GeomError> {
    let ra = BoxN::<Rational, 3>::convert_from_f64(a).ok_or(GeomError::NonFinite { what: "box" })?;
    let rb = BoxN::<Rational, 3>::convert_from_f64(b).ok_or(GeomError::NonFinite { what: "box" })?;
    let ex = box_box_distance(&ra, &rb)?;
    let mut out = engine::round_output(&ex, KernelPath::ExactResolve);
    out.certificate = Some(box_certificate(a, b, &out.point_a, &out.point_b, 0.0));
    Ok(out)
}

/// Builds the 12 × 12 LCP of Listing 2 (with Gram blocks) and the corners.
#[inline]
fn build_lcp12(a: &BoxN<f64, 3>, b: &BoxN<f64, 3>) -> ([[f64; 12]; 12], [f64; 12], [f64; 3], [f64; 3]) {
    let k0 = a.corner();
    let k1 = b.corner();
    let delta = [k1[0] - k0[0], k1[1] - k0[1], k1[2] - k0[2]];
    let mut m = [[0.0f64; 12]; 12];
    let mut q = [0.0f64; 12];
    for i in 0..3 {
        q[i] = -dot(&a.axes[i], &delta);
        q[3 + i] = dot(&b.axes[i], &delta);
        q[6 + i] = 2.0 * a.half_extents[i];
        q[9 + i] = 2.0 * b.half_extents[i];
        for j in 0..3 {
            m[i][j] = dot(&a.axes[i], &a.axes[j]);
            m[3 + i][3 + j] = dot(&b.axes[i], &b.axes[j]);
            let c = -dot(&a.axes[i], &b.axes[j]);
            m[i][3 + j] = c;
            m[3 + j][i] = c;
        }
    }
    for i in 0..6 {
        m[i][6 + i] = 1.0;
        m[6 + i][i] = -1.0;
    }
    (m, q, k0, k1)
}

#[inline]
fn output_from_xi(
    a: &BoxN<f64, 3>,
    b: &BoxN<f64, 3>,
    k0: &[f64; 3],
    k1: &[f64; 3],
    xi: &[f64],
    lcp: LcpInfo,
    path: KernelPath,
) -> DistanceOutput<f64, 3, 3> {
    let mut pa = *k0;
    let mut pb = *k1;
    for j in 0..3 {
        for k in 0..3 {
            pa[k] += xi[j] * a.axes[j][k];
            pb[k] += xi[3 + j] * b.axes[j][k];
        }
    }
    let d = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    DistanceOutput {
        param_a: core::array::from_fn(|i| xi[i] - a.half_extents[i]),
        param_b: core::array::from_fn(|i| xi[3 + i] - b.half_extents[i]),
        point_a: pa,
        point_b: pb,
        squared_distance: dot(&d, &d),
        lcp,
        path,
        certificate: None,
    }
}

/// 3D `f64` box–box distance through the allocation-free 12 × 12 Lemke solve
/// (`solve_lemke_fixed::<f64, 12>`), certified, with exact re-solve when not certified.
pub fn box_box_distance_f64_lcp(
    a: &BoxN<f64, 3>,
    b: &BoxN<f64, 3>,
    settings: &CertifySettings,
) -> Result<DistanceOutput<f64, 3, 3>, GeomError> {
    a.validate()?;
    b.validate()?;
    check_settings(settings)?;
    lcp_path(a, b, settings, None)
}

fn lcp_path(
    a: &BoxN<f64, 3>,
    b: &BoxN<f64, 3>,
    settings: &CertifySettings,
    prior: Option<DistanceOutput<f64, 3, 3>>,
) -> Result<DistanceOutput<f64, 3, 3>, GeomError> {
    let (m, q, k0, k1) = build_lcp12(a, b);
    let lemke = engine::float_lemke_settings();
    let mut best = prior;
    if let Ok(sol) = solve_lemke_fixed::<f64, 12>(&m, &q, &lemke) {
        let info = LcpInfo { status: sol.status, pivots: sol.pivots, path: sol.path };
        if engine::solved(&info) {
            // Clamp to the box (round-off) so the witnesses are in the boxes.
            let xi: [f64; 6] = core::array::from_fn(|i| {
                let l = if i < 3 { 2.0 * a.half_extents[i] } else { 2.0 * b.half_extents[i - 3] };
                sol.z[i].clamp(0.0, l)
            });
            let mut out = output_from_xi(a, b, &k0, &k1, &xi, info, KernelPath::FloatCertified);
            let c = box_certificate(a, b, &out.point_a, &out.point_b, box_target(a, b, settings));
            out.certificate = Some(c);
            if c.gap() <= settings.gap_tolerance * c.scale {
                return Ok(out);
            }
            best = Some(match best {
                None => out,
                Some(p) => engine::merge_brackets(p, out),
            });
        }
    }
    if let Some(mut out) = best {
        // Both runs bound the same distance: the merged bracket may certify.
        if let Some(c) = out.certificate
            && c.gap() <= settings.gap_tolerance * c.scale
        {
            out.path = KernelPath::FloatCertified;
            return Ok(out);
        }
        if !settings.exact_fallback {
            out.path = KernelPath::Uncertified;
            return Ok(out);
        }
    } else if !settings.exact_fallback {
        return Err(GeomError::Degenerate { what: "the f64 LCP failed and the exact fallback is disabled" });
    }
    exact_resolve(a, b)
}

/// 3D `f64` box–box distance: specialized bound-constrained least-squares solver
/// ([`KernelPath::FastPath`]), certified by the support-function gap, falling back to the
/// fixed-size LCP ([`box_box_distance_f64_lcp`]) and then to an exact re-solve (only with
/// [`CertifySettings::exact_fallback`]; otherwise the better uncertified answer is returned as
/// [`KernelPath::Uncertified`]).
pub fn box_box_distance_f64(
    a: &BoxN<f64, 3>,
    b: &BoxN<f64, 3>,
    settings: &CertifySettings,
) -> Result<DistanceOutput<f64, 3, 3>, GeomError> {
    a.validate()?;
    b.validate()?;
    solve_f64(a, b, settings)
}

/// [`box_box_distance_f64`] for boxes placed from shapes and poses (the dispatcher's: a cuboid
/// or aligned box and a [`Pose`](crate::Pose)): their axes are a pose's rotation columns, and
/// `rotation_errors` the poses' stored max |RᵀR − I|
/// ([`Pose::orthonormality_error`](crate::Pose::orthonormality_error), computed once when the
/// pose was made) — the Gram test
/// [`BoxN::validate`] repeats with nine dot products on every query, compared here with the
/// same 1e-6. Finiteness and positive half extents are still checked (a world placement can
/// overflow, an aligned box's half extent underflow), so the answer and the errors are those
/// of the public entry.
pub(crate) fn box_box_distance_f64_placed(
    a: &BoxN<f64, 3>,
    b: &BoxN<f64, 3>,
    rotation_errors: [f64; 2],
    settings: &CertifySettings,
) -> Result<DistanceOutput<f64, 3, 3>, GeomError> {
    for error in rotation_errors {
        if error.is_nan() || error > crate::pose::ROTATION_TOLERANCE {
            return Err(GeomError::NotRotation { error });
        }
    }
    for x in [a, b] {
        engine::check_finite(&x.center, "box center")?;
        engine::check_finite(&x.half_extents, "box half extent")?;
        if let Some(&h) = x.half_extents.iter().find(|h| **h <= 0.0) {
            return Err(GeomError::NonPositive { what: "box half extent", value: h });
        }
    }
    solve_f64(a, b, settings)
}

/// The fast solver, its answer kept when certified, else the LCP path (boxes checked).
fn solve_f64(
    a: &BoxN<f64, 3>,
    b: &BoxN<f64, 3>,
    settings: &CertifySettings,
) -> Result<DistanceOutput<f64, 3, 3>, GeomError> {
    check_settings(settings)?;
    // Box pairs accept an f64 answer on the gap alone, not `FloatCertificate::certifies`:
    // touching and overlapping boxes often leave a bracket [0, upper] a little above the
    // round-off floor, and re-solving those in rationals made the boxes workload 14.6x slower
    // (453 -> 10 715 ns per query). Contact versus separation is then decided from the user's
    // shapes by the query's own certificate (`query/certificate.rs`); the near-contact sweeps
    // (`tests/no_false_separation*.rs`, box pairs included) find no false separation.
    match fast::solve(a, b, settings) {
        Some(out) if out.certificate.is_some_and(|c| c.gap() <= settings.gap_tolerance * c.scale) => Ok(out),
        fast => lcp_path(a, b, settings, fast),
    }
}

fn check_settings(settings: &CertifySettings) -> Result<(), GeomError> {
    if settings.gap_tolerance.is_nan() || settings.gap_tolerance < 0.0 {
        return Err(GeomError::InvalidSettings { field: "gap_tolerance", reason: "must be >= 0" });
    }
    Ok(())
}

pub(crate) mod fast {
    //! Specialized solver for the 3D box–box QP in corner variables:
    //!
    //! ```text
    //! minimize ½|G ξ − Δ|²  subject to 0 ≤ ξ ≤ ℓ,   G = [U₀₀ U₀₁ U₀₂ −U₁₀ −U₁₁ −U₁₂]  (3 × 6)
    //! ```
    //!
    //! a bounded-variable least-squares problem solved by a primal active-set method (in the
    //! style of Stark–Parker BVLS): every variable starts at the bound suggested by the
    //! relative position of the centers; repeatedly the bound variable whose gradient
    //! gᵢ = Gᵢ·(Gξ − Δ) most violates its KKT sign (gᵢ ≥ 0 at 0, gᵢ ≤ 0 at ℓᵢ) is freed, the
    //! least-squares problem over the free columns is solved by normal equations (≤ 3 columns,
    //! kept linearly independent), and a step that would leave the box is shortened to the first
    //! bound hit (that variable becomes bound again). H = GᵀG has rank 3, so at most three free
    //! columns are ever needed: with three independent free columns inside their bounds the
    //! residual is zero (the boxes intersect).
    //!
    //! The answer is accepted only when certified by the support-function gap; otherwise
    //! (nearly dependent free columns — near-parallel axes —, iteration limit) the caller falls
    //! back to the LCP. The solver allocates nothing.
    use super::*;

    #[inline]
    fn d3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }

    /// A cheap conservative pre-test of "column `best` is nearly a combination of the free
    /// columns" (relative residual² ≤ 1e-8, looser than the 1e-10 of the exact test that
    /// follows): one free column — the cross product; two — the component along their normal;
    /// three always (they span ℝ³).
    #[inline]
    pub(crate) fn nearly_dependent<const N: usize>(col: &[[f64; 3]; N], free: &[usize], best: usize) -> bool {
        let c = &col[best];
        match free {
            [] => false,
            [f] => {
                let x = super::engine::cross3(&col[*f], c);
                d3(&x, &x) <= 1e-8 * d3(c, c) * d3(&col[*f], &col[*f])
            }
            [f, g] => {
                let n = super::engine::cross3(&col[*f], &col[*g]);
                let t = d3(c, &n);
                t * t <= 1e-8 * d3(c, c) * d3(&n, &n)
            }
            _ => true,
        }
    }

    /// Solves the k × k SPD system h z = r (k ≤ 3) by an LDLᵀ factorization (no square
    /// roots, one division per pivot); `None` if not positive definite enough (a pivot
    /// dᵢ ≤ 1e-10·hᵢᵢ, the same test as Cholesky's lᵢᵢ²). Entries of z from k on are 0.
    ///
    /// Written out for each k: the operations of the loop form (kept as the reference in this
    /// module's tests, which compare the bits) in the same order — lᵢⱼ = (hᵢⱼ − Σₚ lᵢₚ·lⱼₚ·dₚ)·(1/dⱼ), each
    /// product taken as (lᵢₚ·lⱼₚ)·dₚ and subtracted in p order, forward substitution,
    /// scaling by 1/dᵢ, back substitution — hence the same bits; without the loops' trip
    /// counts decided at run time (this is called once or twice per box–box row).
    #[inline]
    pub(crate) fn solve_spd(h: &[[f64; 3]; 3], r: &[f64; 3], k: usize) -> Option<[f64; 3]> {
        // The pivot test of the loop form (a NaN pivot fails it too).
        let weak = |s: f64, hii: f64| s.is_nan() || s <= 1e-10 * hii.max(1e-300);
        let d0 = h[0][0];
        if k == 0 {
            return Some([0.0; 3]);
        }
        if weak(d0, h[0][0]) {
            return None;
        }
        let inv0 = 1.0 / d0;
        if k == 1 {
            return Some([r[0] * inv0, 0.0, 0.0]);
        }
        let l10 = h[1][0] * inv0;
        let d1 = h[1][1] - l10 * l10 * d0;
        if weak(d1, h[1][1]) {
            return None;
        }
        let inv1 = 1.0 / d1;
        if k == 2 {
            let z1 = (r[1] - l10 * r[0]) * inv1;
            let z0 = r[0] * inv0 - l10 * z1;
            return Some([z0, z1, 0.0]);
        }
        let l20 = h[2][0] * inv0;
        let l21 = (h[2][1] - l20 * l10 * d0) * inv1;
        let d2 = h[2][2] - l20 * l20 * d0 - l21 * l21 * d1;
        if weak(d2, h[2][2]) {
            return None;
        }
        let inv2 = 1.0 / d2;
        let y1 = r[1] - l10 * r[0];
        let z2 = (r[2] - l20 * r[0] - l21 * y1) * inv2;
        let z1 = y1 * inv1 - l21 * z2;
        let z0 = r[0] * inv0 - l10 * z1 - l20 * z2;
        Some([z0, z1, z2])
    }

    /// (Inlined into its one caller: the answer is then built in the caller's frame, not
    /// copied out.)
    #[inline]
    pub(super) fn solve(
        a: &BoxN<f64, 3>,
        b: &BoxN<f64, 3>,
        settings: &CertifySettings,
    ) -> Option<DistanceOutput<f64, 3, 3>> {
        let k0 = a.corner();
        let k1 = b.corner();
        let delta = [k1[0] - k0[0], k1[1] - k0[1], k1[2] - k0[2]];
        let col: [[f64; 3]; 6] =
            core::array::from_fn(|i| if i < 3 { a.axes[i] } else { b.axes[i - 3].map(|v| -v) });
        let len: [f64; 6] =
            core::array::from_fn(
                |i| if i < 3 { 2.0 * a.half_extents[i] } else { 2.0 * b.half_extents[i - 3] },
            );
        // Warm start: each variable at the bound facing the other box's center.
        let cd = [b.center[0] - a.center[0], b.center[1] - a.center[1], b.center[2] - a.center[2]];
        let mut xi = [0.0f64; 6];
        for i in 0..6 {
            // Column i of G moves point_a − point_b; moving towards the other box means
            // col_i·(c_b − c_a) > 0 for box a and the same sign convention for box b.
            if d3(&col[i], &cd) > 0.0 {
                xi[i] = len[i];
            }
        }
        let scale = box_scale(a, b);
        let tol = 1e-14 * scale;
        // The bounded least-squares active-set method with bounds 0 ≤ ξ ≤ ℓ (shared with the
        // triangle–box fast path); `None` means not converged or singular: the LCP takes over.
        let xi = super::super::triangle_box::bvls::solve::<6>(&col, &[0.0; 6], &len, &delta, &xi, tol)?;
        let mut out = output_from_xi(a, b, &k0, &k1, &xi, LcpInfo::ACTIVE_SET, KernelPath::FastPath);
        let c =
            box_certificate_at_scale(a, b, &out.point_a, &out.point_b, settings.gap_tolerance * scale, scale);
        out.certificate = Some(c);
        Some(out)
    }

    #[cfg(test)]
    mod tests {
        use super::solve_spd;
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};

        /// The LDLᵀ solve in its loop form (the reference for [`solve_spd`]'s written-out one).
        fn solve_spd_loops(h: &[[f64; 3]; 3], r: &[f64; 3], k: usize) -> Option<[f64; 3]> {
            let mut l = [[0.0f64; 3]; 3];
            let mut d = [0.0f64; 3];
            let mut inv = [0.0f64; 3];
            for i in 0..k {
                for j in 0..i {
                    let mut s = h[i][j];
                    for p in 0..j {
                        s -= l[i][p] * l[j][p] * d[p];
                    }
                    l[i][j] = s * inv[j];
                }
                let mut s = h[i][i];
                for p in 0..i {
                    s -= l[i][p] * l[i][p] * d[p];
                }
                if s.is_nan() || s <= 1e-10 * h[i][i].max(1e-300) {
                    return None;
                }
                d[i] = s;
                inv[i] = 1.0 / s;
            }
            let mut z = [0.0f64; 3];
            for i in 0..k {
                let mut s = r[i];
                for p in 0..i {
                    s -= l[i][p] * z[p];
                }
                z[i] = s;
            }
            for i in 0..k {
                z[i] *= inv[i];
            }
            for i in (0..k).rev() {
                let mut s = z[i];
                for p in i + 1..k {
                    s -= l[p][i] * z[p];
                }
                z[i] = s;
            }
            Some(z)
        }

        fn bits(z: Option<[f64; 3]>) -> Option<[u64; 3]> {
            z.map(|z| z.map(f64::to_bits))
        }

        /// Gram matrices of random columns (well conditioned, nearly dependent, dependent,
        /// zero, NaN) and random right-hand sides: the written-out solve gives the loop
        /// form's bits, or `None` with it, for every k.
        #[test]
        fn solve_spd_matches_the_loop_form_bit_for_bit() {
            let mut rng = SmallRng::seed_from_u64(7);
            let mut nones = 0;
            for case in 0..20_000 {
                let mut col: [[f64; 3]; 3] =
                    core::array::from_fn(|_| core::array::from_fn(|_| rng.random_range(-1.0..1.0)));
                match case % 5 {
                    1 => col[2] = core::array::from_fn(|k| col[0][k] + 1e-7 * col[1][k]),
                    2 => col[1] = col[0].map(|v| 3.0 * v),
                    3 => col[case % 3] = [0.0; 3],
                    4 if case % 20 == 4 => col[1][0] = f64::NAN,
                    _ => {}
                }
                let h: [[f64; 3]; 3] = core::array::from_fn(|i| {
                    core::array::from_fn(|j| (0..3).map(|k| col[i][k] * col[j][k]).sum())
                });
                let r: [f64; 3] = core::array::from_fn(|_| rng.random_range(-2.0..2.0));
                for k in 0..=3 {
                    let want = solve_spd_loops(&h, &r, k);
                    nones += usize::from(want.is_none());
                    assert_eq!(bits(solve_spd(&h, &r, k)), bits(want), "case {case}, k = {k}");
                }
            }
            // The refusals were exercised too.
            assert!(nones > 1000, "{nones}");
        }
    }
}
