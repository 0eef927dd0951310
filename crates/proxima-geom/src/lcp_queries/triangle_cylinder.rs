//! Triangle – finite cylinder test-intersection (reference Example 7, §3.2; Listings 3, 5–9,
//! §4.3 and §4.5).
//!
//! # Formulation
//!
//! Triangle `V₀ + E x`, E = [E₀, E₁], x = (s, t) ≥ 0, s + t ≤ 1. Cylinder: center K, axis
//! direction V (*any* non-zero length), radius r, height h. With Δ = V₀ − K and the projection
//! onto the plane ⊥ V, 𝒫 = I − V Vᵀ/|V|² (rational when V is: only |V|² appears),
//!
//! ```text
//! f(x) = ½ |𝒫(E x + Δ)|² = ½ xᵀ(Eᵀ𝒫E)x + (Eᵀ𝒫Δ)ᵀx + ½Δᵀ𝒫Δ,
//! D = [−1 −1; VᵀE; −VᵀE],  e = [−1; −h|V|/2 − VᵀΔ; −h|V|/2 + VᵀΔ]   (equation (47)).
//! ```
//!
//! The cap rows are the reference's equation (46) multiplied by |V|; only they contain |V|,
//! supplied as [`CylinderData::axis_length`]. The triangle meets the cylinder iff the QP is
//! feasible (the triangle meets the slab between the caps) and 2 f̂ ≤ r².
//!
//! # Scalars (§4.5)
//!
//! * `QuadraticField`: `axis_length = QuadraticField::sqrt_of(|V|²)`; the cap bounds are then
//!   x + y√d and the whole answer is exact (Listing 9: s = 1 − √14/7).
//! * `Rational`: exact when |V| is rational (e.g. an axis with rational unit length). Otherwise
//!   pass a rational approximation of |V|: the projection and objective stay exact (they only
//!   use |V|²), only the cap planes move; Listing 8, whose caps are inactive, still gives
//!   exactly (0, 11/30).
//! * `f64`: [`triangle_cylinder_intersection_f64`] computes |V| = √(|V|²) and re-solves in
//!   `QuadraticField` (inputs converted exactly, d = |V|² exact) when the decision margin
//!   |2f̂ − r²| is within `gap_tolerance × scale²` or the float LCP failed.
//!
//! # Results
//!
//! `param` = (s, t) (the reference's z₀, z₁), `squared_axis_distance` = 2f̂ (exact in T),
//! `point` = V₀ + E x. When the triangle misses the slab the QP is infeasible: `intersects` is
//! false and `param`/`point` are zero/V₀ (`feasible` = false).

use proxima_lcp::{ConvexQp, QpSettings, QpStatus, QuadraticField, Rational, solve_qp};
use proxima_num::Field;

use super::engine;
use super::vec::{dot, sub};
use super::{CertifySettings, KernelPath, LcpInfo};
use crate::error::GeomError;

/// A finite cylinder with a possibly non-unit axis.
#[derive(Debug, Clone, PartialEq)]
pub struct CylinderData<T> {
    /// The center K (midpoint of the axis segment).
    pub center: [T; 3],
    /// The axis direction V (non-zero, any length).
    pub axis: [T; 3],
    /// |V| in T (see the module docs: exact for `QuadraticField::sqrt_of(|V|²)`).
    pub axis_length: T,
    /// Radius r > 0.
    pub radius: T,
    /// Height h > 0 (distance between the caps).
    pub height: T,
}

/// The answer of the test-intersection query.
#[derive(Debug, Clone, PartialEq)]
pub struct TriangleCylinderResult<T> {
    /// Whether the triangle and the cylinder share a point.
    pub intersects: bool,
    /// Whether the triangle meets the slab between the cap planes (QP feasible).
    pub feasible: bool,
    /// Triangle parameters (s, t) of the point between the caps closest to the axis.
    pub param: [T; 2],
    /// That point V₀ + s E₀ + t E₁.
    pub point: [T; 3],
    /// Its squared distance to the axis, 2 f̂.
    pub squared_axis_distance: T,
    /// The LCP summary.
    pub lcp: LcpInfo,
    /// Which computation ran.
    pub path: KernelPath,
}

/// Triangle–cylinder test-intersection, generic over the field.
pub fn triangle_cylinder_intersection<T: Field>(
    tri: &[[T; 3]; 3],
    cyl: &CylinderData<T>,
) -> Result<TriangleCylinderResult<T>, GeomError> {
    intersection_with(tri, cyl, &QpSettings::default())
}

fn intersection_with<T: Field>(
    tri: &[[T; 3]; 3],
    cyl: &CylinderData<T>,
    qs: &QpSettings,
) -> Result<TriangleCylinderResult<T>, GeomError> {
    engine::check_triangle(tri)?;
    engine::check_finite(&cyl.center, "cylinder center")?;
    engine::check_finite(&cyl.axis, "cylinder axis")?;
    engine::check_finite(
        &[cyl.axis_length.clone(), cyl.radius.clone(), cyl.height.clone()],
        "cylinder axis length/radius/height",
    )?;
    for (what, v) in [("cylinder radius", &cyl.radius), ("cylinder height", &cyl.height)] {
        if !v.is_positive() {
            return Err(GeomError::NonPositive { what, value: v.to_f64() });
        }
    }
    let vv = dot(&cyl.axis, &cyl.axis);
    if vv.is_zero() {
        return Err(GeomError::ZeroAxis { what: "cylinder axis" });
    }
    let len = cyl.axis_length.to_f64();
    let vvf = vv.to_f64();
    let mismatch = (len * len - vvf).abs();
    if !cyl.axis_length.is_positive() || mismatch.is_nan() || mismatch > 1e-6 * vvf {
        return Err(GeomError::Degenerate { what: "cylinder axis_length differs from |axis|" });
    }
    let delta = sub(&tri[0], &cyl.center);
    let e = [sub(&tri[1], &tri[0]), sub(&tri[2], &tri[0])];
    // 𝒫 y = y − V (V·y)/|V|²;  Eᵀ𝒫E and Eᵀ𝒫Δ through dot products.
    let proj_dot =
        |a: &[T; 3], b: &[T; 3]| -> T { dot(a, b).sub(&dot(a, &cyl.axis).mul(&dot(b, &cyl.axis)).div(&vv)) };
    let a =
        vec![proj_dot(&e[0], &e[0]), proj_dot(&e[0], &e[1]), proj_dot(&e[1], &e[0]), proj_dot(&e[1], &e[1])];
    let b = vec![proj_dot(&e[0], &delta), proj_dot(&e[1], &delta)];
    let half = T::one().div(&T::from_i64(2));
    let c = proj_dot(&delta, &delta).mul(&half);
    let ve = [dot(&cyl.axis, &e[0]), dot(&cyl.axis, &e[1])];
    let vd = dot(&cyl.axis, &delta);
    let cap = cyl.height.mul(&cyl.axis_length).mul(&half);
    let d = vec![T::one().neg(), T::one().neg(), ve[0].clone(), ve[1].clone(), ve[0].neg(), ve[1].neg()];
    let ev = vec![T::one().neg(), cap.neg().sub(&vd), cap.neg().add(&vd)];
    let lcp_err = |_| GeomError::Degenerate { what: "LCP formulation rejected the data" };
    let qp = ConvexQp::new(a, b, c).map_err(lcp_err)?.with_inequalities(d, ev).map_err(lcp_err)?;
    let sol = solve_qp(&qp, qs).map_err(lcp_err)?;
    let lcp = LcpInfo { status: sol.lcp.status, pivots: sol.lcp.pivots, path: sol.lcp.path };
    let path = if T::EXACT { KernelPath::Exact } else { KernelPath::Float };
    match sol.status {
        QpStatus::Solved => {
            let x = [sol.x[0].clone(), sol.x[1].clone()];
            let mut w = delta.clone();
            let mut point = tri[0].clone();
            for k in 0..3 {
                w[k].add_mul_assign(&e[0][k], &x[0]);
                w[k].add_mul_assign(&e[1][k], &x[1]);
                point[k].add_mul_assign(&e[0][k], &x[0]);
                point[k].add_mul_assign(&e[1][k], &x[1]);
            }
            let sq = proj_dot(&w, &w);
            let r2 = cyl.radius.mul(&cyl.radius);
            Ok(TriangleCylinderResult {
                intersects: sq <= r2,
                feasible: true,
                param: x,
                point,
                squared_axis_distance: sq,
                lcp,
                path,
            })
        }
        QpStatus::Infeasible => Ok(TriangleCylinderResult {
            intersects: false,
            feasible: false,
            param: [T::zero(), T::zero()],
            point: tri[0].clone(),
            squared_axis_distance: T::zero(),
            lcp,
            path,
        }),
        _ => Err(GeomError::Degenerate { what: "the LCP solver did not solve the triangle-cylinder QP" }),
    }
}

/// `f64` triangle–cylinder test-intersection; `axis` may have any non-zero length
/// (|axis| = √(|axis|²) is used for the caps). Re-solves exactly in `QuadraticField` when the
/// decision is within `gap_tolerance × scale²` of the boundary or the float solve failed.
pub fn triangle_cylinder_intersection_f64(
    tri: &[[f64; 3]; 3],
    center: &[f64; 3],
    axis: &[f64; 3],
    radius: f64,
    height: f64,
    settings: &CertifySettings,
) -> Result<TriangleCylinderResult<f64>, GeomError> {
    engine::check_finite(axis, "cylinder axis")?;
    if settings.gap_tolerance.is_nan() || settings.gap_tolerance < 0.0 {
        return Err(GeomError::InvalidSettings { field: "gap_tolerance", reason: "must be >= 0" });
    }
    let cyl =
        CylinderData { center: *center, axis: *axis, axis_length: dot(axis, axis).sqrt(), radius, height };
    let scale = engine::scale_of(&[tri.concat(), center.to_vec(), vec![radius, height]].concat());
    let first = intersection_with(tri, &cyl, &engine::float_qp_settings());
    match first {
        Ok(mut out) => {
            let margin = (out.squared_axis_distance - radius * radius).abs();
            let certified = out.feasible && margin > settings.gap_tolerance * scale * scale;
            if certified {
                out.path = KernelPath::FloatCertified;
                return Ok(out);
            }
            if !settings.exact_fallback {
                out.path = KernelPath::Uncertified;
                return Ok(out);
            }
        }
        Err(GeomError::Degenerate { what }) if what.starts_with("the LCP") && settings.exact_fallback => {}
        Err(e) => return Err(e),
    }
    // Exact re-solve in ℚ(√|V|²).
    let q3 = |v: &[f64; 3], what| -> Result<[QuadraticField; 3], GeomError> {
        let r = engine::exact3(v, what)?;
        Ok(r.map(QuadraticField::from_rational))
    };
    let rv = engine::exact3(axis, "cylinder axis")?;
    let d: Rational = dot(&rv, &rv);
    let axis_length =
        QuadraticField::sqrt_of(d).map_err(|_| GeomError::ZeroAxis { what: "cylinder axis" })?;
    let qcyl = CylinderData {
        center: q3(center, "cylinder center")?,
        axis: rv.map(QuadraticField::from_rational),
        axis_length,
        radius: QuadraticField::from_f64(radius).ok_or(GeomError::NonFinite { what: "cylinder radius" })?,
        height: QuadraticField::from_f64(height).ok_or(GeomError::NonFinite { what: "cylinder height" })?,
    };
    let qtri = [q3(&tri[0], "triangle")?, q3(&tri[1], "triangle")?, q3(&tri[2], "triangle")?];
    let ex = triangle_cylinder_intersection(&qtri, &qcyl)?;
    Ok(TriangleCylinderResult {
        intersects: ex.intersects,
        feasible: ex.feasible,
        param: ex.param.clone().map(|v| v.to_f64()),
        point: ex.point.clone().map(|v| v.to_f64()),
        squared_axis_distance: ex.squared_axis_distance.to_f64(),
        lcp: ex.lcp,
        path: KernelPath::ExactResolve,
    })
}
