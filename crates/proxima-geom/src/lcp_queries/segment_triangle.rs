//! Distance between a segment or a line and a triangle (reference §1.4: free-variable
//! elimination).
//!
//! # Formulation
//!
//! Segment/line `Q + t D` (t ∈ [0, 1] for a segment with D = Q₁ − Q₀; t ∈ ℝ for a line),
//! triangle `V₀ + s E₀ + u E₁` (s, u ≥ 0, s + u ≤ 1). With x = (t, s, u) and
//! G = [D, −E₀, −E₁]: A = GᵀG, b = Gᵀ(Q − V₀).
//!
//! * Segment: x ≥ 0, −t ≥ −1 and −s − u ≥ −1: 3 variables and 2 constraints, a 5 × 5 LCP.
//! * Line: t is *free*; [`proxima_lcp::ConvexQp::with_free`] eliminates it exactly as in §1.4
//!   (t = −(a₀₁s + a₀₂u + b₀)/a₀₀, Schur complement Ã = A_cc − A_cu A_uu⁻¹ A_uc), leaving a
//!   2-variable QP in (s, u) with one constraint (a 3 × 3 LCP); a₀₀ = |D|² > 0 because D ≠ 0
//!   (checked).
//!
//! `param_a` = `[t]` (point_a = Q + t D, D as given, not normalized); `param_b` = barycentric
//! coordinates (1 − s − u, s, u).
//!
//! # Certificate for the line
//!
//! A line has an unbounded support function except along directions n ⊥ D. The `f64` path
//! uses n' = n − (n·D̂)D̂ (normalized), for which max over the line of n'·p = n'·Q, and the
//! triangle's vertices; weak duality still gives a lower bound.

use proxima_lcp::{QpSettings, Rational};
use proxima_num::Field;

use super::engine::{self, PairProblem};
use super::vec::dot;
use super::{CertifySettings, DistanceOutput, FloatCertificate, KernelPath};
use crate::error::GeomError;

fn run<T: Field>(
    origin: &[T; 3],
    direction: &[T; 3],
    tri: &[[T; 3]; 3],
    segment: bool,
    qs: &QpSettings,
) -> Result<DistanceOutput<T, 1, 3>, GeomError> {
    engine::check_triangle(tri)?;
    engine::check_finite(origin, "segment/line point")?;
    engine::check_finite(direction, "segment/line direction")?;
    if dot(direction, direction).is_zero() {
        return Err(if segment {
            GeomError::Degenerate { what: "segment endpoints coincide" }
        } else {
            GeomError::ZeroAxis { what: "line direction" }
        });
    }
    let n = 3;
    let (o, gens) = engine::triangle_gens(tri);
    let mut ineq = vec![engine::triangle_row(1, n)];
    if segment {
        ineq.extend(engine::upper_rows(0, n, &[T::one()]));
    }
    let problem = PairProblem {
        origin_a: origin.to_vec(),
        gens_a: vec![direction.to_vec()],
        origin_b: o,
        gens_b: gens,
        ineq,
        eq: Vec::new(),
        free: if segment { Vec::new() } else { vec![0] },
    };
    let sol = engine::solve_pair_with(&problem, qs)?;
    Ok(DistanceOutput {
        param_a: [sol.x[0].clone()],
        param_b: engine::barycentric(&sol.x[1], &sol.x[2]),
        point_a: engine::arr(&sol.point_a),
        point_b: engine::arr(&sol.point_b),
        squared_distance: sol.squared,
        lcp: sol.lcp,
        path: if T::EXACT { KernelPath::Exact } else { KernelPath::Float },
        certificate: None,
    })
}

/// Segment [p0, p1] – triangle distance, generic over the field.
pub fn segment_triangle_distance<T: Field>(
    segment: &[[T; 3]; 2],
    tri: &[[T; 3]; 3],
) -> Result<DistanceOutput<T, 1, 3>, GeomError> {
    let d = super::vec::sub(&segment[1], &segment[0]);
    run(&segment[0], &d, tri, true, &QpSettings::default())
}

/// Line `origin + t·direction` – triangle distance, generic over the field (t free, §1.4).
pub fn line_triangle_distance<T: Field>(
    origin: &[T; 3],
    direction: &[T; 3],
    tri: &[[T; 3]; 3],
) -> Result<DistanceOutput<T, 1, 3>, GeomError> {
    run(origin, direction, tri, false, &QpSettings::default())
}

fn exact_tri(tri: &[[f64; 3]; 3]) -> Result<[[Rational; 3]; 3], GeomError> {
    Ok([
        engine::exact3(&tri[0], "triangle")?,
        engine::exact3(&tri[1], "triangle")?,
        engine::exact3(&tri[2], "triangle")?,
    ])
}

/// Certified `f64` segment–triangle distance with exact re-solve.
pub fn segment_triangle_distance_f64(
    segment: &[[f64; 3]; 2],
    tri: &[[f64; 3]; 3],
    settings: &CertifySettings,
) -> Result<DistanceOutput<f64, 1, 3>, GeomError> {
    let scale = engine::scale_of(&[segment.concat(), tri.concat()].concat());
    engine::certified(
        settings,
        || {
            let d = super::vec::sub(&segment[1], &segment[0]);
            run(&segment[0], &d, tri, true, &engine::float_qp_settings())
        },
        || {
            let rs = [engine::exact3(&segment[0], "segment")?, engine::exact3(&segment[1], "segment")?];
            segment_triangle_distance(&rs, &exact_tri(tri)?)
        },
        |pa, pb| {
            engine::certificate(pa, pb, |n| engine::max_dot(segment, n), |n| engine::min_dot(tri, n), scale)
        },
    )
}

/// Certified `f64` line–triangle distance with exact re-solve.
pub fn line_triangle_distance_f64(
    origin: &[f64; 3],
    direction: &[f64; 3],
    tri: &[[f64; 3]; 3],
    settings: &CertifySettings,
) -> Result<DistanceOutput<f64, 1, 3>, GeomError> {
    let scale = engine::scale_of(&[origin.to_vec(), tri.concat()].concat());
    let cert = |pa: &[f64; 3], pb: &[f64; 3]| -> FloatCertificate {
        let diff: [f64; 3] = core::array::from_fn(|i| pb[i] - pa[i]);
        let upper = dot(&diff, &diff).sqrt();
        let dl = dot(direction, direction).sqrt();
        let dh = direction.map(|v| v / dl);
        let along = dot(&diff, &dh);
        let perp: [f64; 3] = core::array::from_fn(|i| diff[i] - along * dh[i]);
        let pn = dot(&perp, &perp).sqrt();
        let lower = if pn > 0.0 && pn.is_finite() {
            let n = perp.map(|v| v / pn);
            (engine::min_dot(tri, &n) - dot(&n, origin)).max(0.0)
        } else {
            0.0
        };
        FloatCertificate { lower, upper, scale }
    };
    engine::certified(
        settings,
        || run(origin, direction, tri, false, &engine::float_qp_settings()),
        || {
            line_triangle_distance(
                &engine::exact3(origin, "line")?,
                &engine::exact3(direction, "line")?,
                &exact_tri(tri)?,
            )
        },
        cert,
    )
}
