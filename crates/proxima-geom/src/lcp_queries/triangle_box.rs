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

use proxima_lcp::Rational;
use proxima_num::Field;

use super::box_box::BoxN;
use super::engine::{self, PairProblem};
use super::{CertifySettings, DistanceOutput, KernelPath};
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

/// Certified `f64` triangle–oriented box distance with exact `Rational` re-solve.
pub fn triangle_box_distance_f64(
    tri: &[[f64; 3]; 3],
    b: &BoxN<f64, 3>,
    settings: &CertifySettings,
) -> Result<DistanceOutput<f64, 3, 3>, GeomError> {
    engine::check_triangle(tri)?;
    b.validate()?;
    let scale = engine::scale_of(&[tri.concat(), b.center.to_vec(), b.half_extents.to_vec()].concat());
    engine::certified(
        settings,
        || triangle_box_distance(tri, b),
        || {
            let rt = [
                engine::exact3(&tri[0], "triangle")?,
                engine::exact3(&tri[1], "triangle")?,
                engine::exact3(&tri[2], "triangle")?,
            ];
            let rb = BoxN::<Rational, 3>::convert_from_f64(b).ok_or(GeomError::NonFinite { what: "box" })?;
            triangle_box_distance(&rt, &rb)
        },
        |pa, pb| {
            engine::certificate(pa, pb, |n| engine::max_dot(tri, n), |n| -support(b, &n.map(|v| -v)), scale)
        },
    )
}

fn support(b: &BoxN<f64, 3>, n: &[f64; 3]) -> f64 {
    let mut s = super::vec::dot(n, &b.center);
    for (u, h) in b.axes.iter().zip(&b.half_extents) {
        s += h * super::vec::dot(n, u).abs();
    }
    s
}
