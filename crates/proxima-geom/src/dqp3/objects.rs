//! Test objects of the thesis (spec §6): facet-balls `genball(n)` and their ellipsoid models.
//!
//! Normals: first (1, 0, 0); then for ring i = 1..n, θ_i = iπ/n, n_i = max(1, round(2n sin θ_i))
//! (half away from zero), phase π/n_i for even i, and normals (cos θ_i, sin θ_i sin φ,
//! sin θ_i cos φ), φ = φ0 + 2πj/n_i. The facet-ball has b = −1 (inscribed unit sphere); the
//! ellipsoid model with semi-axes s has b = −sqrt(Σ n_k² s_k²) (its support function).

use nalgebra::Vector3;

use super::FacetPolyhedron;
use crate::error::GeomError;

/// The unit normals of `genball(order)` in the thesis's order.
pub fn genball_normals(order: usize) -> Result<Vec<Vector3<f64>>, GeomError> {
    if order < 2 {
        return Err(GeomError::InvalidSettings {
            field: "order",
            reason: "genball order must be at least 2",
        });
    }
    let n = order as f64;
    let pi = std::f64::consts::PI;
    let mut out = vec![Vector3::new(1.0, 0.0, 0.0)];
    for i in 1..=order {
        let th = i as f64 * pi / n;
        let ni = ((2.0 * n * th.sin()).round() as i64).max(1) as usize;
        let phi0 = if i % 2 == 0 { pi / ni as f64 } else { 0.0 };
        for j in 0..ni {
            let phi = phi0 + 2.0 * pi * j as f64 / ni as f64;
            out.push(Vector3::new(th.cos(), th.sin() * phi.sin(), th.sin() * phi.cos()));
        }
    }
    Ok(out)
}

/// The unit facet-ball of the given order (b = −1 for every facet), centred at the origin.
pub fn genball(order: usize) -> Result<FacetPolyhedron, GeomError> {
    let c: Vec<([f64; 3], f64)> = genball_normals(order)?.iter().map(|a| ([a.x, a.y, a.z], -1.0)).collect();
    FacetPolyhedron::from_inward(&c)
}

/// The ellipsoid model: facet-ball normals, offsets b = −sqrt(Σ n_k² s_k²) for semi-axes s.
pub fn ellipsoid_model(order: usize, semi_axes: [f64; 3]) -> Result<FacetPolyhedron, GeomError> {
    if semi_axes.iter().any(|s| !s.is_finite()) {
        return Err(GeomError::NonFinite { what: "ellipsoid semi-axes" });
    }
    if let Some(&s) = semi_axes.iter().find(|s| **s <= 0.0) {
        return Err(GeomError::NonPositive { what: "ellipsoid semi-axis", value: s });
    }
    let c: Vec<([f64; 3], f64)> = genball_normals(order)?
        .iter()
        .map(|a| {
            let b =
                -((a.x * semi_axes[0]).powi(2) + (a.y * semi_axes[1]).powi(2) + (a.z * semi_axes[2]).powi(2))
                    .sqrt();
            ([a.x, a.y, a.z], b)
        })
        .collect();
    FacetPolyhedron::from_inward(&c)
}
