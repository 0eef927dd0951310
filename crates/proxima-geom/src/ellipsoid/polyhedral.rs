//! Circumscribed polyhedral models of ellipsoids (`genball` + `b2ell`, spec §4) and the
//! polytope–polytope distance they need, as a convex QP solved by Lemke's method.
//!
//! # Models
//!
//! `genball(n)` gives unit normals spread over the sphere (ring i = 1..n at θᵢ = iπ/n with
//! max(1, round(2n sin θᵢ)) normals, phase π/nᵢ on even rings, plus the top (1, 0, 0); the
//! thesis's inward normals). For an ellipsoid with radii D the facet with outward unit normal u
//! (local frame) is the tangent plane u·x ≤ |D u| (5.3.2); in the world frame
//! u_w = R u and the offset is u_w·c + |D u|. The model **circumscribes** the ellipsoid, so
//! the model distance is a lower bound of the true distance.
//!
//! # Polytope distance QP
//!
//! For half-space polytopes P₁ = {x : U₁x ≤ h₁}, P₂ = {y : U₂y ≤ h₂} we solve
//! min |z|² over x = lo + x′ (x′ ≥ 0, lo a corner below P₁) and free z, subject to
//! U₁x ≤ h₁ and U₂(x + z) ≤ h₂ — a convex QP whose free block (2I) is positive definite, as
//! [`proxima_lcp::solve_qp`] requires. y = x + z. Multipliers > 0 mark the active facets.
//! (The thesis uses DQP3 here; any exact polytope-distance solver gives the same distance,
//! spec §4.3 "Reproduction".)

use nalgebra::Vector3;
use proxima_lcp::{ConvexQp, QpSettings, QpStatus, solve_qp};

use super::{EllipsoidDistance, EllipsoidStatus, Placed, finish};
use crate::error::GeomError;
use crate::pose::Pose;
use crate::shape::Ellipsoid;

/// The thesis's `genball(order)` *inward* unit normals (order ≥ 2; spec DQP3 §6.1).
pub fn genball(order: usize) -> Vec<Vector3<f64>> {
    let mut normals = vec![Vector3::new(1.0, 0.0, 0.0)];
    let nf = order as f64;
    for i in 1..=order {
        let theta = i as f64 * core::f64::consts::PI / nf;
        // Matlab round: half away from zero (the value is ≥ 0).
        let count = ((2.0 * nf * theta.sin()).round() as usize).max(1);
        let phi0 = if i % 2 == 0 { core::f64::consts::PI / count as f64 } else { 0.0 };
        for j in 0..count {
            let phi = phi0 + 2.0 * core::f64::consts::PI * j as f64 / count as f64;
            normals.push(Vector3::new(theta.cos(), theta.sin() * phi.sin(), theta.sin() * phi.cos()));
        }
    }
    normals
}

/// A half-space u·x ≤ h (u unit, outward).
pub(crate) type Facet = (Vector3<f64>, f64);

/// The tangent facet of a placed ellipsoid with outward world normal u (unit).
pub(crate) fn tangent_facet(e: &Placed, u: &Vector3<f64>) -> Facet {
    (*u, u.dot(&e.center) + e.support_radius(u))
}

/// The circumscribed `genball(order)` model of a placed ellipsoid.
pub(crate) fn model(e: &Placed, order: usize) -> Vec<Facet> {
    genball(order).iter().map(|a| tangent_facet(e, &(e.rotation * -a))).collect()
}

/// The answer of the polytope QP.
#[derive(Debug, Clone)]
pub(crate) struct PolyDistance {
    pub x: Vector3<f64>,
    pub y: Vector3<f64>,
    pub active1: Vec<usize>,
    pub active2: Vec<usize>,
}

/// Distance between {U₁x ≤ h₁} and {U₂y ≤ h₂} (both bounded, P₁ inside the box ≥ `lo`).
pub(crate) fn polytope_distance(p1: &[Facet], p2: &[Facet], lo: &Vector3<f64>) -> Option<PolyDistance> {
    let nv = 6;
    let mut a = vec![0.0; nv * nv];
    for i in 3..6 {
        a[i * nv + i] = 2.0;
    }
    let m = p1.len() + p2.len();
    let mut d = Vec::with_capacity(m * nv);
    let mut e = Vec::with_capacity(m);
    for (u, h) in p1 {
        d.extend_from_slice(&[-u.x, -u.y, -u.z, 0.0, 0.0, 0.0]);
        e.push(u.dot(lo) - h);
    }
    for (u, h) in p2 {
        d.extend_from_slice(&[-u.x, -u.y, -u.z, -u.x, -u.y, -u.z]);
        e.push(u.dot(lo) - h);
    }
    let qp = ConvexQp::new(a, vec![0.0; nv], 0.0)
        .and_then(|q| q.with_inequalities(d, e))
        .and_then(|q| q.with_free(vec![3, 4, 5]))
        .ok()?;
    let sol = solve_qp(&qp, &QpSettings::default()).ok()?;
    if sol.status != QpStatus::Solved {
        return None;
    }
    let x = lo + Vector3::new(sol.x[0], sol.x[1], sol.x[2]);
    let y = x + Vector3::new(sol.x[3], sol.x[4], sol.x[5]);
    let mult = &sol.multipliers.inequalities;
    let thr = 1e-12 * mult.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
    let active1 = (0..p1.len()).filter(|&j| mult[j] > thr).collect();
    let active2 = (0..p2.len()).filter(|&j| mult[p1.len() + j] > thr).collect();
    Some(PolyDistance { x, y, active1, active2 })
}

/// A corner below the circumscribed models of both ellipsoids (every `genball` model of order
/// ≥ 2 and every refinement model lies within 4 × the largest radius of its centre).
pub(crate) fn lower_corner(a: &Placed) -> Vector3<f64> {
    a.center - Vector3::repeat(4.0 * a.max_radius())
}

/// The polyhedral-approximation answer with its model data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolyhedralResult {
    /// The model (polytope) distance: a lower bound of the true distance.
    pub model_distance: f64,
    /// The model's closest points (on the polytopes, not on the ellipsoids).
    pub model_points: [Vector3<f64>; 2],
    /// Facets per ellipsoid.
    pub facets: usize,
    /// The answer: witnesses are the model points projected onto the ellipsoids; the lower
    /// bound includes the model distance.
    pub answer: EllipsoidDistance,
}

/// Distance between the `genball(order)` models of two ellipsoids (spec §4).
pub fn polyhedral_approximation(
    a: &Ellipsoid,
    pa: &Pose,
    b: &Ellipsoid,
    pb: &Pose,
    order: usize,
) -> Result<PolyhedralResult, GeomError> {
    if !(2..=200).contains(&order) {
        return Err(GeomError::InvalidSettings {
            field: "order",
            reason: "genball order must be in 2..=200",
        });
    }
    detailed(&Placed::new(a, pa), &Placed::new(b, pb), order)
}

pub(crate) fn detailed(a: &Placed, b: &Placed, order: usize) -> Result<PolyhedralResult, GeomError> {
    let (m1, m2) = (model(a, order), model(b, order));
    let Some(sol) = polytope_distance(&m1, &m2, &lower_corner(a)) else {
        return Err(GeomError::Degenerate { what: "polyhedral model QP did not solve" });
    };
    let model_distance = (sol.y - sol.x).norm();
    let xa = a.project_solid(&sol.x);
    let xb = b.project_solid(&sol.y);
    let dir = sol.y - sol.x;
    let mut answer = finish(a, b, xa, xb, Some(dir), 1, EllipsoidStatus::ModelOnly);
    answer.certificate.lower = answer.certificate.lower.max(model_distance.min(answer.certificate.upper));
    Ok(PolyhedralResult { model_distance, model_points: [sol.x, sol.y], facets: m1.len(), answer })
}

pub(crate) fn run(a: &Placed, b: &Placed, order: usize) -> Result<EllipsoidDistance, GeomError> {
    Ok(detailed(a, b, order)?.answer)
}
