//! Polytope–ellipsoid distance: an active-set method over the polytope's vertices whose
//! sub-problems are the spec's feature-to-ellipsoid cases (§6.2), solved exactly.
//!
//! # The maths
//!
//! f(x) = dist(x, E) is convex, so min over P = conv(V) is attained in the relative interior
//! of some face F, where it equals the minimum over the affine hull of F. For |F| ≤ 3:
//!
//! * **vertex**: point-to-ellipsoid ([`super::point_ellipsoid`]);
//! * **edge** (line x₀ + t·l): project along l onto the plane ⊥ l; E's shadow is the 2-D ellipse
//!   with shape Q = Bᵀ S B (B a basis ⊥ l), the line a point, so dist(line, E) is a 2-D
//!   point-to-ellipse distance (spec §6.2's reduction); the ellipse is diagonalised in closed
//!   form, det Q = |(DRᵀb₁) × (DRᵀb₂)|² keeps thin ellipsoids accurate;
//! * **facet** (plane m·x = m·x₀): the nearest ellipsoid point is y = c − sgn·S m/|DRᵀm|,
//!   gap |m·(c − x₀)| − |DRᵀm| (negative: the plane cuts E).
//!
//! The outer loop keeps a simplex S of ≤ 3 vertices (Wolfe/Johnson style): minimise f over
//! conv(S) by trying every subset whose affine minimiser lies in its relative interior, take the
//! direction n from the best x towards its ellipsoid point y, and add the vertex maximising n·v.
//! When max_v n·v ≤ n·x (+ round-off), n **proves** the bound
//! lower = n·c − |DRᵀn| − max_v n·v, equal to |y − x| at the optimum. Before each step,
//! conv(S) ∩ E is tested exactly in E's unit-ball frame (closest point of the mapped simplex,
//! ≤ 4 points, to the origin): a hit returns a common point. Each step strictly decreases the
//! minimum of f over a finite family of simplices, so the loop terminates.
//!
//! Edge cases: a single-vertex or flat polytope works (affinely dependent subsets are skipped);
//! a [`Polyhedron`] uses the vertices its constructor enumerated.

use nalgebra::{DMatrix, DVector, Point3, Vector2, Vector3};

use super::{EllipsoidDistance, EllipsoidSettings, EllipsoidStatus, Placed};
use crate::error::GeomError;
use crate::pose::Pose;
use crate::query::{Certificate, Proximity};
use crate::shape::{ConvexPolytope, Ellipsoid, Polyhedron};

/// Distance from a vertex-given polytope (A) to an ellipsoid (B); the normal points from the
/// polytope towards the ellipsoid. `settings.method` is ignored; `tolerance` and
/// `max_iterations` (outer steps, at least the vertex count is allowed) apply.
pub fn distance_polytope_ellipsoid(
    polytope: &ConvexPolytope,
    pp: &Pose,
    e: &Ellipsoid,
    pe: &Pose,
    settings: &EllipsoidSettings,
) -> Result<EllipsoidDistance, GeomError> {
    settings.validate()?;
    let v: Vec<Vector3<f64>> = polytope.vertices().iter().map(|p| pp.transform_point(p).coords).collect();
    Ok(run(&v, &Placed::new(e, pe), settings))
}

/// Distance from a half-space polyhedron (A) to an ellipsoid (B); see
/// [`distance_polytope_ellipsoid`].
pub fn distance_polyhedron_ellipsoid(
    polyhedron: &Polyhedron,
    pp: &Pose,
    e: &Ellipsoid,
    pe: &Pose,
    settings: &EllipsoidSettings,
) -> Result<EllipsoidDistance, GeomError> {
    settings.validate()?;
    let v: Vec<Vector3<f64>> = polyhedron.vertices().iter().map(|p| pp.transform_point(p).coords).collect();
    Ok(run(&v, &Placed::new(e, pe), settings))
}

/// The best point of a feature and its ellipsoid point.
#[derive(Clone, Copy)]
struct Candidate {
    x: Vector3<f64>,
    y: Vector3<f64>,
    d: f64,
}

const BARY_SLACK: f64 = 1e-12;

fn vertex_case(e: &Placed, v: &Vector3<f64>) -> Candidate {
    let y = e.project_solid(v);
    Candidate { x: *v, y, d: (y - v).norm() }
}

fn edge_case(e: &Placed, v0: &Vector3<f64>, v1: &Vector3<f64>) -> Option<Candidate> {
    let edge = v1 - v0;
    let len = edge.norm();
    if len == 0.0 {
        return None;
    }
    let l = edge / len;
    let (b1, b2) = super::dual_newton::tangent_basis(&l);
    // Shadow ellipse Q = MᵀM with M = D Rᵀ [b1 b2].
    let m1 = e.rotation.tr_mul(&b1).component_mul(&e.radii);
    let m2 = e.rotation.tr_mul(&b2).component_mul(&e.radii);
    let (q11, q12, q22) = (m1.dot(&m1), m1.dot(&m2), m2.dot(&m2));
    let det = m1.cross(&m2).norm_squared();
    let half_tr = 0.5 * (q11 + q22);
    let disc = (0.25 * (q11 - q22) * (q11 - q22) + q12 * q12).sqrt();
    let lmax = half_tr + disc;
    let lmin = if lmax > 0.0 { det / lmax } else { 0.0 };
    if lmin <= 0.0 || !lmin.is_finite() {
        return None;
    }
    // Eigenvector of lmax.
    let u1 = if q12.abs() > 0.0 || q11 != q22 {
        let v = if q11 >= q22 { Vector2::new(lmax - q22, q12) } else { Vector2::new(q12, lmax - q11) };
        v.try_normalize(0.0).unwrap_or(Vector2::x())
    } else {
        Vector2::x()
    };
    let u2 = Vector2::new(-u1.y, u1.x);
    let p3 = v0 - e.center;
    let p2 = Vector2::new(b1.dot(&p3), b2.dot(&p3));
    let q = [u1.dot(&p2), u2.dot(&p2)];
    let radii = [lmax.sqrt(), lmin.sqrt()];
    let mut z = [0.0; 2];
    let info = super::point_ellipsoid::project_unchecked(&radii, &q, &mut z);
    if info.location != super::PointLocation::Outside {
        return None;
    }
    let m2d = Vector2::new(q[0] - z[0], q[1] - z[1]);
    let dir2 = u1 * m2d.x + u2 * m2d.y;
    let n_out = (b1 * dir2.x + b2 * dir2.y).try_normalize(0.0)?;
    let y = e.support_point(&n_out);
    let t = l.dot(&(y - v0));
    if t < -BARY_SLACK * len || t > len * (1.0 + BARY_SLACK) {
        return None;
    }
    let x = v0 + l * t;
    Some(Candidate { x, y, d: (y - x).norm() })
}

fn face_case(e: &Placed, v: &[Vector3<f64>; 3]) -> Option<Candidate> {
    let (e1, e2) = (v[1] - v[0], v[2] - v[0]);
    let cr = e1.cross(&e2);
    let area2 = cr.norm();
    if area2 <= 1e-14 * e1.norm() * e2.norm() {
        return None;
    }
    let m = cr / area2;
    let s = m.dot(&(e.center - v[0]));
    let r = e.support_radius(&m);
    if s.abs() <= r {
        return None;
    }
    let toward = if s > 0.0 { -m } else { m };
    let y = e.support_point(&toward);
    let x = y - m * m.dot(&(y - v[0]));
    // Barycentric coordinates of x.
    let w = x - v[0];
    let (d00, d01, d11) = (e1.dot(&e1), e1.dot(&e2), e2.dot(&e2));
    let (d20, d21) = (w.dot(&e1), w.dot(&e2));
    let den = d00 * d11 - d01 * d01;
    let b1 = (d11 * d20 - d01 * d21) / den;
    let b2 = (d00 * d21 - d01 * d20) / den;
    if b1 < -BARY_SLACK || b2 < -BARY_SLACK || b1 + b2 > 1.0 + BARY_SLACK {
        return None;
    }
    Some(Candidate { x, y, d: s.abs() - r })
}

/// Closest point of conv(q) (≤ 4 points) to the origin, by all affine sub-problems.
fn min_norm_simplex(q: &[Vector3<f64>]) -> Vector3<f64> {
    let k = q.len();
    let mut best = q[0];
    for mask in 1u32..(1 << k) {
        let idx: Vec<usize> = (0..k).filter(|i| mask & (1 << i) != 0).collect();
        if idx.len() == 1 {
            if q[idx[0]].norm() < best.norm() {
                best = q[idx[0]];
            }
            continue;
        }
        let base = q[idx[0]];
        let dirs: Vec<Vector3<f64>> = idx[1..].iter().map(|&i| q[i] - base).collect();
        let m = dirs.len();
        let g = DMatrix::from_fn(m, m, |i, j| dirs[i].dot(&dirs[j]));
        let rhs = DVector::from_fn(m, |i, _| -dirs[i].dot(&base));
        let Some(mu) = g.lu().solve(&rhs) else { continue };
        let sum: f64 = mu.iter().sum();
        if mu.iter().any(|&x| x < -1e-12 || !x.is_finite()) || sum > 1.0 + 1e-12 {
            continue;
        }
        let p = dirs.iter().zip(mu.iter()).fold(base, |acc, (d, &w)| acc + d * w);
        if p.norm() < best.norm() {
            best = p;
        }
    }
    best
}

/// A common point of conv(S) and E, if any (tested in E's unit-ball frame).
fn common_point(e: &Placed, s: &[Vector3<f64>]) -> Option<Vector3<f64>> {
    let q: Vec<Vector3<f64>> =
        s.iter().map(|v| e.rotation.tr_mul(&(v - e.center)).component_div(&e.radii)).collect();
    let p = min_norm_simplex(&q);
    (p.norm() <= 1.0).then(|| e.center + e.rotation * p.component_mul(&e.radii))
}

fn best_on_simplex(e: &Placed, s: &[Vector3<f64>]) -> (Candidate, Vec<Vector3<f64>>) {
    let k = s.len();
    let mut best: Option<(Candidate, Vec<Vector3<f64>>)> = None;
    for mask in 1u32..(1 << k) {
        let f: Vec<Vector3<f64>> = (0..k).filter(|i| mask & (1 << i) != 0).map(|i| s[i]).collect();
        let cand = match f.len() {
            1 => Some(vertex_case(e, &f[0])),
            2 => edge_case(e, &f[0], &f[1]),
            3 => face_case(e, &[f[0], f[1], f[2]]),
            _ => None,
        };
        if let Some(c) = cand
            && best.as_ref().is_none_or(|(b, _)| c.d < b.d)
        {
            best = Some((c, f));
        }
    }
    best.unwrap_or_else(|| (vertex_case(e, &s[0]), vec![s[0]]))
}

pub(crate) fn run(v: &[Vector3<f64>], e: &Placed, settings: &EllipsoidSettings) -> EllipsoidDistance {
    let centroid = v.iter().fold(Vector3::zeros(), |a, p| a + p) / v.len() as f64;
    let scale = 1f64
        .max((e.center - centroid).norm())
        .max(e.max_radius())
        .max(v.iter().map(|p| (p - centroid).norm()).fold(0.0, f64::max));
    let support = |n: &Vector3<f64>| v.iter().map(|p| n.dot(p)).fold(f64::NEG_INFINITY, f64::max);
    let argmax = |n: &Vector3<f64>| {
        let mut best = v[0];
        for p in &v[1..] {
            if n.dot(p) > n.dot(&best) {
                best = *p;
            }
        }
        best
    };
    let n0 = (e.center - centroid).try_normalize(0.0).unwrap_or(Vector3::x());
    let mut s = vec![argmax(&n0)];
    let max_steps = settings.max_iterations.max(v.len() + 8) * 4;
    let mut iterations = 0;
    let mut last: Option<(Candidate, Vector3<f64>)> = None;
    while iterations < max_steps {
        iterations += 1;
        if let Some(p) = common_point(e, &s) {
            return EllipsoidDistance {
                proximity: Proximity::Intersecting { point: Some(Point3::from(p)), depth: None },
                certificate: Certificate { lower: 0.0, upper: 0.0 },
                iterations,
                status: EllipsoidStatus::Converged,
            };
        }
        let (cand, face) = best_on_simplex(e, &s);
        let Some(n) = (cand.y - cand.x).try_normalize(0.0) else {
            break;
        };
        last = Some((cand, n));
        let v_new = argmax(&n);
        if n.dot(&v_new) <= n.dot(&cand.x) + 1e-13 * scale || face.contains(&v_new) {
            break;
        }
        s = face;
        s.push(v_new);
    }
    let Some((cand, n)) = last else {
        // Degenerate: the simplex point coincides with its ellipsoid point.
        let p = s[0];
        return EllipsoidDistance {
            proximity: Proximity::Touching { point: Point3::from(p) },
            certificate: Certificate { lower: 0.0, upper: 0.0 },
            iterations,
            status: EllipsoidStatus::Converged,
        };
    };
    let lower = (n.dot(&e.center) - e.support_radius(&n) - support(&n)).max(0.0).min(cand.d);
    let upper = cand.d;
    let status = if upper - lower <= settings.tolerance * scale {
        EllipsoidStatus::Converged
    } else if iterations >= max_steps {
        EllipsoidStatus::MaxIterations
    } else {
        EllipsoidStatus::Stagnated
    };
    let proximity = if lower > 0.0 {
        Proximity::Separated {
            distance: upper,
            point_a: Point3::from(cand.x),
            point_b: Point3::from(cand.y),
            normal: n,
        }
    } else {
        Proximity::Touching { point: Point3::from(cand.x) }
    };
    EllipsoidDistance { proximity, certificate: Certificate { lower, upper }, iterations, status }
}
