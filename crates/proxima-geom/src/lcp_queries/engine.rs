//! The shared engine: distance between two affinely parameterized polytopes as a convex QP.
//!
//! Shape a is `o_a + E_a x_a`, shape b is `o_b + E_b x_b` (columns of E are the generators);
//! with G = [E_a, −E_b] and d = o_a − o_b the objective is ½|G x + d|², i.e.
//! A = GᵀG (exact Gram matrix, entries are dot products of generators), b = Gᵀd, c = ½|d|².
//! Parameter constraints (x ≥ 0 except `free`, D x ≥ e, A_eq x = b_eq) are passed through to
//! [`proxima_lcp::ConvexQp`].
//!
//! The certificate helpers compute the `f64` bracket of the module docs of
//! [`lcp_queries`](super).

use proxima_lcp::lemke::LemkeFallback;
use proxima_lcp::{ConvexQp, LcpStatus, LemkeSettings, QpSettings, QpStatus, Rational, solve_qp};
use proxima_num::Field;

use super::vec::dot;
use super::{CertifySettings, DistanceOutput, FloatCertificate, KernelPath, LcpInfo};
use crate::error::GeomError;

/// Two parameterized polytopes and the constraints on their parameters.
pub(crate) struct PairProblem<T> {
    /// o_a.
    pub origin_a: Vec<T>,
    /// Columns of E_a (each of length `dim`).
    pub gens_a: Vec<Vec<T>>,
    /// o_b.
    pub origin_b: Vec<T>,
    /// Columns of E_b.
    pub gens_b: Vec<Vec<T>>,
    /// Rows (over x = [x_a; x_b]) and right-hand sides of D x ≥ e.
    pub ineq: Vec<(Vec<T>, T)>,
    /// Rows and right-hand sides of A_eq x = b_eq.
    pub eq: Vec<(Vec<T>, T)>,
    /// Indices of free variables.
    pub free: Vec<usize>,
}

/// The solved pair.
pub(crate) struct PairSolution<T> {
    /// x = [x_a; x_b].
    pub x: Vec<T>,
    /// o_a + E_a x_a.
    pub point_a: Vec<T>,
    /// o_b + E_b x_b.
    pub point_b: Vec<T>,
    /// |point_b − point_a|².
    pub squared: T,
    /// The LCP summary.
    pub lcp: LcpInfo,
}

fn affine<T: Field>(origin: &[T], gens: &[Vec<T>], x: &[T]) -> Vec<T> {
    let mut p = origin.to_vec();
    for (g, xi) in gens.iter().zip(x) {
        for (pk, gk) in p.iter_mut().zip(g) {
            pk.add_mul_assign(gk, xi);
        }
    }
    p
}

/// Lemke settings of the certified `f64` paths: the solver's own fallbacks in floating point
/// (covering restarts, enumeration) stay, its *exact* LCP re-solve is disabled. An `f64`
/// answer is either certified by the kernel's certificate, or re-solved exactly by the kernel
/// on the exactly converted geometric input (only when [`CertifySettings::exact_fallback`] is
/// set), or reported uncertified: no exact arithmetic runs behind `exact_fallback: false`.
pub(crate) fn float_lemke_settings() -> LemkeSettings {
    LemkeSettings {
        fallback: LemkeFallback { exact_resolve_max_n: 0, ..LemkeFallback::default() },
        ..LemkeSettings::default()
    }
}

/// [`QpSettings`] with [`float_lemke_settings`].
pub(crate) fn float_qp_settings() -> QpSettings {
    QpSettings { lemke: float_lemke_settings() }
}

/// Builds and solves the QP with the default settings (see [`solve_pair_with`]).
pub(crate) fn solve_pair<T: Field>(p: &PairProblem<T>) -> Result<PairSolution<T>, GeomError> {
    solve_pair_with(p, &QpSettings::default())
}

/// Builds and solves the QP. A solver failure (which cannot happen for valid, feasible input in
/// exact arithmetic) is reported as `Err(Degenerate)` with the status in the message.
pub(crate) fn solve_pair_with<T: Field>(
    p: &PairProblem<T>,
    settings: &QpSettings,
) -> Result<PairSolution<T>, GeomError> {
    let na = p.gens_a.len();
    let n = na + p.gens_b.len();
    // G columns: E_a then −E_b.
    let cols: Vec<Vec<T>> =
        p.gens_a.iter().cloned().chain(p.gens_b.iter().map(|g| g.iter().map(Field::neg).collect())).collect();
    let d: Vec<T> = p.origin_a.iter().zip(&p.origin_b).map(|(a, b)| a.sub(b)).collect();
    let mut a = vec![T::zero(); n * n];
    for i in 0..n {
        for j in i..n {
            let v = dot(&cols[i], &cols[j]);
            a[i * n + j] = v.clone();
            a[j * n + i] = v;
        }
    }
    let b: Vec<T> = cols.iter().map(|c| dot(c, &d)).collect();
    let c = dot(&d, &d).mul(&T::from_f64(0.5).unwrap_or_else(T::one));
    let lcp_err = |_| GeomError::Degenerate { what: "LCP formulation rejected the data" };
    let mut qp = ConvexQp::new(a, b, c).map_err(lcp_err)?;
    if !p.ineq.is_empty() {
        let dm = p.ineq.iter().flat_map(|(r, _)| r.iter().cloned()).collect();
        let e = p.ineq.iter().map(|(_, e)| e.clone()).collect();
        qp = qp.with_inequalities(dm, e).map_err(lcp_err)?;
    }
    if !p.eq.is_empty() {
        let dm = p.eq.iter().flat_map(|(r, _)| r.iter().cloned()).collect();
        let e = p.eq.iter().map(|(_, e)| e.clone()).collect();
        qp = qp.with_equalities(dm, e).map_err(lcp_err)?;
    }
    if !p.free.is_empty() {
        qp = qp.with_free(p.free.clone()).map_err(lcp_err)?;
    }
    let sol = solve_qp(&qp, settings).map_err(lcp_err)?;
    let lcp = LcpInfo { status: sol.lcp.status, pivots: sol.lcp.pivots, path: sol.lcp.path };
    if sol.status != QpStatus::Solved {
        return Err(GeomError::Degenerate { what: "the LCP solver did not solve the distance QP" });
    }
    let x = sol.x;
    let point_a = affine(&p.origin_a, &p.gens_a, &x[..na]);
    let point_b = affine(&p.origin_b, &p.gens_b, &x[na..]);
    let diff: Vec<T> = point_b.iter().zip(&point_a).map(|(b, a)| b.sub(a)).collect();
    let squared = dot(&diff, &diff);
    Ok(PairSolution { x, point_a, point_b, squared, lcp })
}

/// `true` when the status is an answer.
pub(crate) fn solved(info: &LcpInfo) -> bool {
    matches!(info.status, LcpStatus::Solved | LcpStatus::Trivial)
}

/// The certificate from witness points and support functions:
/// `max_a(n)` = max_{a∈A} n·a, `min_b(n)` = min_{b∈B} n·b for a unit n.
pub(crate) fn certificate(
    point_a: &[f64],
    point_b: &[f64],
    max_a: impl Fn(&[f64; 3]) -> f64,
    min_b: impl Fn(&[f64; 3]) -> f64,
    scale: f64,
) -> FloatCertificate {
    let diff: [f64; 3] = core::array::from_fn(|i| point_b[i] - point_a[i]);
    let upper = dot(&diff, &diff).sqrt();
    let lower = if upper > 0.0 && upper.is_finite() {
        let n = diff.map(|v| v / upper);
        (min_b(&n) - max_a(&n)).max(0.0)
    } else {
        0.0
    };
    FloatCertificate { lower, upper, scale }
}

/// The features of a convex shape that orient its candidate separating directions: face
/// normals (any length, e.g. box axes or a triangle's normal) and edge directions.
#[derive(Clone, Copy)]
pub(crate) struct Features<'a> {
    /// Face normals.
    pub faces: &'a [[f64; 3]],
    /// Edge directions.
    pub edges: &'a [[f64; 3]],
}

/// The range [min, max] of n·p over a shape, for any n.
pub(crate) trait Extent {
    fn extent(&self, n: &[f64; 3]) -> (f64, f64);
}

impl<F: Fn(&[f64; 3]) -> (f64, f64)> Extent for F {
    #[inline]
    fn extent(&self, n: &[f64; 3]) -> (f64, f64) {
        self(n)
    }
}

/// The gap of the two ranges along a non-zero n, divided by |n|: a lower bound on the distance
/// (either side; 0 or negative when the projections overlap; `-inf` for a zero/non-finite n).
#[inline]
pub(crate) fn separation(n: &[f64; 3], a: &impl Extent, b: &impl Extent) -> f64 {
    let nn = dot(n, n);
    separation_normed(n, nn, nn.sqrt(), a, b)
}

/// [`separation`] given `nn` = n·n (as `dot(n, n)`) and `norm` = √nn, computed by the caller
/// (the same expressions, hence the same bits: the root is not taken twice).
#[inline]
fn separation_normed(n: &[f64; 3], nn: f64, norm: f64, a: &impl Extent, b: &impl Extent) -> f64 {
    if nn.is_nan() || nn <= 1e-200 || nn.is_infinite() {
        return f64::NEG_INFINITY;
    }
    let (alo, ahi) = a.extent(n);
    let (blo, bhi) = b.extent(n);
    (blo - ahi).max(alo - bhi) / norm
}

#[inline]
pub(crate) fn cross3(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// The certificate from witness points, tightened over candidate directions.
///
/// `upper` = |p_b − p_a|. The lower bound is the best separation (support functions, weak
/// duality: *any* direction gives a valid bound) over, in order, and stopping as soon as
/// `upper − lower ≤ target`:
///
/// 1. the normalized witness difference d (the classic bound; exact up to the direction's
///    round-off, ~1e-16·scale/|d| in angle, which costs a first-order loss ~ |d̂ error|·edge
///    length when the support set is an edge or a face);
/// 2. the face normals of both shapes (exactly aligned when the closest features are a face
///    and anything);
/// 3. the cross products of an edge direction of a with one of b (exact for non-parallel
///    edge–edge contacts; near-zero crosses are skipped by [`separation`]);
/// 4. d with its component along each edge direction removed (parallel edge–edge,
///    vertex–edge: the remaining direction error is then second order).
///
/// When `upper ≤ target` the pair is (numerically) touching or intersecting: `lower = 0` and
/// nothing else is evaluated.
#[allow(clippy::too_many_arguments)]
pub(crate) fn certificate_multi(
    point_a: &[f64; 3],
    point_b: &[f64; 3],
    a: &impl Extent,
    fa: Features<'_>,
    b: &impl Extent,
    fb: Features<'_>,
    scale: f64,
    target: f64,
) -> FloatCertificate {
    let diff: [f64; 3] = core::array::from_fn(|i| point_b[i] - point_a[i]);
    let dd = dot(&diff, &diff);
    let upper = dd.sqrt();
    if !upper.is_finite() {
        return FloatCertificate { lower: 0.0, upper, scale };
    }
    let mut lower = 0.0f64;
    let done = |lower: f64| upper - lower <= target;
    if done(lower) {
        return FloatCertificate { lower: lower.min(upper), upper, scale };
    }
    // `separation(&diff, a, b)` with its |diff| = √(diff·diff) already taken: `upper`.
    lower = lower.max(separation_normed(&diff, dd, upper, a, b));
    if done(lower) {
        return FloatCertificate { lower: lower.min(upper), upper, scale };
    }
    for n in fa.faces.iter().chain(fb.faces) {
        lower = lower.max(separation(n, a, b));
    }
    if done(lower) {
        return FloatCertificate { lower: lower.min(upper), upper, scale };
    }
    for ea in fa.edges {
        for eb in fb.edges {
            lower = lower.max(separation(&cross3(ea, eb), a, b));
        }
    }
    if done(lower) {
        return FloatCertificate { lower: lower.min(upper), upper, scale };
    }
    for e in fa.edges.iter().chain(fb.edges) {
        let ee = dot(e, e);
        if ee > 0.0 {
            let t = dot(&diff, e) / ee;
            let n: [f64; 3] = core::array::from_fn(|i| diff[i] - t * e[i]);
            lower = lower.max(separation(&n, a, b));
        }
    }
    FloatCertificate { lower: lower.min(upper), upper, scale }
}

/// Two `f64` answers to the same query: the one with the smaller `upper` (its witnesses),
/// with the larger of the two lower bounds (both brackets hold, so their intersection does).
pub(crate) fn merge_brackets<const PA: usize, const PB: usize>(
    x: DistanceOutput<f64, PA, PB>,
    y: DistanceOutput<f64, PA, PB>,
) -> DistanceOutput<f64, PA, PB> {
    let (Some(cx), Some(cy)) = (x.certificate, y.certificate) else {
        return if x.certificate.is_some() { x } else { y };
    };
    let lower = cx.lower.max(cy.lower);
    let mut out = if cy.upper < cx.upper { y } else { x };
    if let Some(c) = out.certificate.as_mut() {
        c.lower = lower.min(c.upper);
    }
    out
}

/// n·p over a triangle: (min, max) over its vertices.
#[inline]
pub(crate) fn triangle_extent(tri: &[[f64; 3]; 3], n: &[f64; 3]) -> (f64, f64) {
    let d0 = dot(&tri[0], n);
    let d1 = dot(&tri[1], n);
    let d2 = dot(&tri[2], n);
    (d0.min(d1).min(d2), d0.max(d1).max(d2))
}

/// A triangle's features: its normal and its three edge directions.
pub(crate) fn triangle_features(tri: &[[f64; 3]; 3]) -> ([[f64; 3]; 1], [[f64; 3]; 3]) {
    let e0: [f64; 3] = core::array::from_fn(|k| tri[1][k] - tri[0][k]);
    let e1: [f64; 3] = core::array::from_fn(|k| tri[2][k] - tri[0][k]);
    let e2: [f64; 3] = core::array::from_fn(|k| tri[2][k] - tri[1][k]);
    ([cross3(&e0, &e1)], [e0, e1, e2])
}

/// max over a finite point set of n·p.
pub(crate) fn max_dot(points: &[[f64; 3]], n: &[f64; 3]) -> f64 {
    points.iter().map(|p| dot(p, n)).fold(f64::NEG_INFINITY, f64::max)
}

/// min over a finite point set of n·p.
pub(crate) fn min_dot(points: &[[f64; 3]], n: &[f64; 3]) -> f64 {
    points.iter().map(|p| dot(p, n)).fold(f64::INFINITY, f64::min)
}

/// Scale of a set of inputs: max(1, max |v|).
pub(crate) fn scale_of(values: &[f64]) -> f64 {
    values.iter().fold(1.0f64, |m, v| m.max(v.abs()))
}

/// Rounds an exact output to `f64` (keeping the LCP info), with the given path.
pub(crate) fn round_output<const PA: usize, const PB: usize, const D: usize>(
    out: &DistanceOutput<Rational, PA, PB, D>,
    path: KernelPath,
) -> DistanceOutput<f64, PA, PB, D> {
    DistanceOutput {
        param_a: core::array::from_fn(|i| out.param_a[i].to_f64()),
        param_b: core::array::from_fn(|i| out.param_b[i].to_f64()),
        point_a: core::array::from_fn(|i| out.point_a[i].to_f64()),
        point_b: core::array::from_fn(|i| out.point_b[i].to_f64()),
        squared_distance: out.squared_distance.to_f64(),
        lcp: out.lcp,
        path,
        certificate: None,
    }
}

/// The certified-`f64` driver: run `float` (an f64 kernel), certify with `cert`, and if not
/// certified run `exact` (the Rational kernel on exactly converted inputs) and round.
pub(crate) fn certified<const PA: usize, const PB: usize>(
    settings: &CertifySettings,
    float: impl FnOnce() -> Result<DistanceOutput<f64, PA, PB>, GeomError>,
    exact: impl FnOnce() -> Result<DistanceOutput<Rational, PA, PB>, GeomError>,
    cert: impl Fn(&[f64; 3], &[f64; 3]) -> FloatCertificate,
) -> Result<DistanceOutput<f64, PA, PB>, GeomError> {
    if settings.gap_tolerance.is_nan() || settings.gap_tolerance < 0.0 {
        return Err(GeomError::InvalidSettings { field: "gap_tolerance", reason: "must be >= 0" });
    }
    let first = float();
    if let Ok(mut out) = first {
        let c = cert(&out.point_a, &out.point_b);
        out.certificate = Some(c);
        if c.certifies(settings.gap_tolerance) {
            out.path = KernelPath::FloatCertified;
            return Ok(out);
        }
        if !settings.exact_fallback {
            out.path = KernelPath::Uncertified;
            return Ok(out);
        }
    } else if !settings.exact_fallback {
        return first;
    }
    let ex = exact()?;
    let mut out = round_output(&ex, KernelPath::ExactResolve);
    out.certificate = Some(cert(&out.point_a, &out.point_b));
    Ok(out)
}

/// The certified-`f64` driver with a specialized solver in front: `fast` (already computed,
/// its certificate set, path [`KernelPath::FastPath`]) is returned when certified; otherwise
/// `lcp` runs and is certified; otherwise the two brackets are merged
/// ([`merge_brackets`]); then the exact re-solve (only with `exact_fallback`) or the better
/// uncertified answer.
pub(crate) fn certified_chain<const PA: usize, const PB: usize>(
    settings: &CertifySettings,
    fast: Option<DistanceOutput<f64, PA, PB>>,
    lcp: impl FnOnce() -> Option<DistanceOutput<f64, PA, PB>>,
    exact: impl FnOnce() -> Result<DistanceOutput<Rational, PA, PB>, GeomError>,
    cert: impl Fn(&[f64; 3], &[f64; 3]) -> FloatCertificate,
) -> Result<DistanceOutput<f64, PA, PB>, GeomError> {
    let ok = |c: Option<FloatCertificate>| c.is_some_and(|c| c.certifies(settings.gap_tolerance));
    let mut best = match fast {
        Some(f) if ok(f.certificate) => return Ok(f),
        f => f,
    };
    if let Some(mut out) = lcp() {
        if out.certificate.is_none() {
            out.certificate = Some(cert(&out.point_a, &out.point_b));
        }
        out.path = KernelPath::FloatCertified;
        if ok(out.certificate) {
            return Ok(out);
        }
        best = Some(match best {
            None => out,
            Some(f) => merge_brackets(f, out),
        });
    }
    match best {
        Some(mut out) if ok(out.certificate) => {
            out.path = KernelPath::FloatCertified;
            return Ok(out);
        }
        Some(mut out) if !settings.exact_fallback => {
            out.path = KernelPath::Uncertified;
            return Ok(out);
        }
        None if !settings.exact_fallback => {
            return Err(GeomError::Degenerate {
                what: "the f64 LCP failed and the exact fallback is disabled",
            });
        }
        _ => {}
    }
    let ex = exact()?;
    let mut out = round_output(&ex, KernelPath::ExactResolve);
    out.certificate = Some(cert(&out.point_a, &out.point_b));
    Ok(out)
}

/// Validation of a generic T array: finiteness.
pub(crate) fn check_finite<T: Field>(values: &[T], what: &'static str) -> Result<(), GeomError> {
    if values.iter().all(Field::is_finite) { Ok(()) } else { Err(GeomError::NonFinite { what }) }
}

/// Exact conversion of an f64 array to Rational (inputs already validated finite).
pub(crate) fn exact3(a: &[f64; 3], what: &'static str) -> Result<[Rational; 3], GeomError> {
    super::vec::convert::<Rational, 3>(a).ok_or(GeomError::NonFinite { what })
}

/// Triangle validity: finite and not degenerate (cross product of the edges non-zero; for
/// floats |e0 × e1| > 1e-12·|e0|·|e1|).
pub(crate) fn check_triangle<T: Field>(tri: &[[T; 3]; 3]) -> Result<(), GeomError> {
    for v in tri {
        check_finite(v, "triangle vertex")?;
    }
    let e0 = super::vec::sub(&tri[1], &tri[0]);
    let e1 = super::vec::sub(&tri[2], &tri[0]);
    let n = super::vec::cross(&e0, &e1);
    let nn = dot(&n, &n);
    let degenerate = if T::EXACT {
        nn.is_zero()
    } else {
        let l = dot(&e0, &e0).to_f64() * dot(&e1, &e1).to_f64();
        nn.to_f64().is_nan() || nn.to_f64() <= 1e-24 * l
    };
    if degenerate { Err(GeomError::Degenerate { what: "triangle vertices are collinear" }) } else { Ok(()) }
}

/// Triangle parameterization: o = v0, generators e0 = v1 − v0, e1 = v2 − v0.
pub(crate) fn triangle_gens<T: Field>(tri: &[[T; 3]; 3]) -> (Vec<T>, Vec<Vec<T>>) {
    let e0 = super::vec::sub(&tri[1], &tri[0]).to_vec();
    let e1 = super::vec::sub(&tri[2], &tri[0]).to_vec();
    (tri[0].to_vec(), vec![e0, e1])
}

/// The triangle's constraint s + t ≤ 1 as a row −s − t ≥ −1 placed at `offset` in a row of
/// length `n`.
pub(crate) fn triangle_row<T: Field>(offset: usize, n: usize) -> (Vec<T>, T) {
    let mut row = vec![T::zero(); n];
    row[offset] = T::one().neg();
    row[offset + 1] = T::one().neg();
    (row, T::one().neg())
}

/// Upper bounds x_i ≤ u_i (rows −x_i ≥ −u_i) for variables offset..offset+u.len().
pub(crate) fn upper_rows<T: Field>(offset: usize, n: usize, upper: &[T]) -> Vec<(Vec<T>, T)> {
    upper
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let mut row = vec![T::zero(); n];
            row[offset + i] = T::one().neg();
            (row, u.neg())
        })
        .collect()
}

/// Barycentric coordinates (1 − s − t, s, t) from triangle parameters (s, t).
pub(crate) fn barycentric<T: Field>(s: &T, t: &T) -> [T; 3] {
    [T::one().sub(s).sub(t), s.clone(), t.clone()]
}

/// Copies a slice of length N into an array.
pub(crate) fn arr<T: Field, const N: usize>(v: &[T]) -> [T; N] {
    core::array::from_fn(|i| v[i].clone())
}
