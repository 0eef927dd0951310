//! Distance between a point and the convex hull of finitely many points (a convex polytope
//! given by its vertices).
//!
//! # Formulation
//!
//! Hull points are `Σ λ_i V_i` with λ ≥ 0 and Σ λ_i = 1 (an equality constraint, which the QP
//! front end writes as two inequalities). f(λ) = ½|Σ λ_i V_i − P|²: A = VᵀV (Gram matrix of
//! the vertices), b = −VᵀP, c = ½|P|². The vertex set need not be minimal: interior or repeated
//! points only make the LCP degenerate, which the lexicographic rule handles.
//!
//! `weights` are the λ_i (not unique when the closest point is not a vertex of a simplex face).

use proxima_lcp::{QpSettings, Rational};
use proxima_num::Field;

use super::engine::{self, PairProblem};
use super::{CertifySettings, FloatCertificate, KernelPath, LcpInfo};
use crate::error::GeomError;

/// The answer of a point–polytope distance query.
#[derive(Debug, Clone, PartialEq)]
pub struct PolytopeDistance<T> {
    /// Convex weights λ of the closest hull point (λ ≥ 0, Σλ = 1).
    pub weights: Vec<T>,
    /// The query point.
    pub point: [T; 3],
    /// The closest hull point Σ λ_i V_i.
    pub closest: [T; 3],
    /// |closest − point|² (exact in exact fields).
    pub squared_distance: T,
    /// The LCP summary.
    pub lcp: LcpInfo,
    /// Which computation ran.
    pub path: KernelPath,
    /// The certificate (`f64` entry point only).
    pub certificate: Option<FloatCertificate>,
}

/// Point – convex hull of `vertices` distance, generic over the field.
pub fn point_polytope_distance<T: Field>(
    point: &[T; 3],
    vertices: &[[T; 3]],
) -> Result<PolytopeDistance<T>, GeomError> {
    point_polytope_with(point, vertices, &QpSettings::default())
}

fn point_polytope_with<T: Field>(
    point: &[T; 3],
    vertices: &[[T; 3]],
    qs: &QpSettings,
) -> Result<PolytopeDistance<T>, GeomError> {
    engine::check_finite(point, "point")?;
    if vertices.is_empty() {
        return Err(GeomError::Degenerate { what: "polytope without vertices" });
    }
    for v in vertices {
        engine::check_finite(v, "polytope vertex")?;
    }
    let n = vertices.len();
    let problem = PairProblem {
        origin_a: point.to_vec(),
        gens_a: Vec::new(),
        origin_b: vec![T::zero(); 3],
        gens_b: vertices.iter().map(|v| v.to_vec()).collect(),
        ineq: Vec::new(),
        eq: vec![(vec![T::one(); n], T::one())],
        free: Vec::new(),
    };
    let sol = engine::solve_pair_with(&problem, qs)?;
    Ok(PolytopeDistance {
        weights: sol.x,
        point: point.clone(),
        closest: engine::arr(&sol.point_b),
        squared_distance: sol.squared,
        lcp: sol.lcp,
        path: if T::EXACT { KernelPath::Exact } else { KernelPath::Float },
        certificate: None,
    })
}

/// Certified `f64` point–polytope distance with exact re-solve.
pub fn point_polytope_distance_f64(
    point: &[f64; 3],
    vertices: &[[f64; 3]],
    settings: &CertifySettings,
) -> Result<PolytopeDistance<f64>, GeomError> {
    if settings.gap_tolerance.is_nan() || settings.gap_tolerance < 0.0 {
        return Err(GeomError::InvalidSettings { field: "gap_tolerance", reason: "must be >= 0" });
    }
    let scale = engine::scale_of(&[point.to_vec(), vertices.concat()].concat());
    let cert = |c: &[f64; 3]| {
        engine::certificate(point, c, |n| super::vec::dot(n, point), |n| engine::min_dot(vertices, n), scale)
    };
    let first = point_polytope_with(point, vertices, &engine::float_qp_settings());
    match first {
        Ok(mut out) => {
            let c = cert(&out.closest);
            out.certificate = Some(c);
            if c.certifies(settings.gap_tolerance) {
                out.path = KernelPath::FloatCertified;
                return Ok(out);
            }
            if !settings.exact_fallback {
                out.path = KernelPath::Uncertified;
                return Ok(out);
            }
        }
        Err(e) if !settings.exact_fallback => return Err(e),
        Err(_) => {}
    }
    let rp = engine::exact3(point, "point")?;
    let rv = vertices.iter().map(|v| engine::exact3(v, "polytope vertex")).collect::<Result<Vec<_>, _>>()?;
    let ex: PolytopeDistance<Rational> = point_polytope_distance(&rp, &rv)?;
    let closest = ex.closest.clone().map(|v| v.to_f64());
    Ok(PolytopeDistance {
        weights: ex.weights.iter().map(Field::to_f64).collect(),
        point: *point,
        closest,
        squared_distance: ex.squared_distance.to_f64(),
        lcp: ex.lcp,
        path: KernelPath::ExactResolve,
        certificate: Some(cert(&closest)),
    })
}
