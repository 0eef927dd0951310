//! From core witness points to a [`DistanceResult`]: the case analysis (separated, touching,
//! intersecting) and the certificate.
//!
//! # Certificate
//!
//! * **Upper bound**: |p_b − p_a| for the reported witnesses p_a ∈ A, p_b ∈ B.
//! * **Lower bound**: for the unit direction n = (p_b − p_a)/|p_b − p_a|, the separation of the
//!   two shapes along n, −h_B(−n) − h_A(n) = min_{b∈B} n·b − max_{a∈A} n·a, computed from the
//!   support functions of the *whole* shapes (independently of the algorithm that found the
//!   witnesses), clamped to [0, upper] (a value above `upper` can only come from rounding).
//!   When a shape is a line, n is first projected orthogonally to the line direction(s) (any
//!   unit direction gives a valid bound; one not perpendicular to a line gives −∞).
//! * Contact (distance 0): lower = upper = 0, with a common point.

use nalgebra::{Point3, Vector3};

use super::{Algorithm, Certificate, DistanceResult, Proximity, QueryPath, QuerySettings};
use crate::pose::Pose;
use crate::shape::Shape;

/// What an algorithm found between the *cores* of two shapes (a sphere's centre, a capsule's
/// segment, or the shape itself when it has no radius).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Core {
    /// Closest point on the core of A (world frame).
    pub qa: Point3<f64>,
    /// Closest point on the core of B (world frame).
    pub qb: Point3<f64>,
    /// When the cores meet (qa = qb): the exact penetration depth of the cores, when known
    /// (0 for boundary contact or flat cores), `None` when the algorithm cannot tell.
    pub core_depth: Option<f64>,
}

/// Radii added around the cores of A and B (sphere/capsule radius, else 0).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Radii {
    pub a: f64,
    pub b: f64,
}

/// Lower bound of dist(A, B) along `n` (unit), clamped at 0.
pub(crate) fn lower_bound(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, n: &Vector3<f64>) -> f64 {
    let mut n = *n;
    let line_dir = |s: &Shape, p: &Pose| match s {
        Shape::Line(l) => Some(p.transform_vector(&l.direction())),
        _ => None,
    };
    let lines = [line_dir(a, pa), line_dir(b, pb)];
    let cross = match lines {
        [Some(u), Some(v)] => u.cross(&v),
        _ => Vector3::zeros(),
    };
    if cross.norm() > 1e-12 {
        // Two non-parallel lines: the only directions with a finite bound are ±(u × v).
        let m = cross.normalize();
        n = if m.dot(&n) >= 0.0 { m } else { -m };
    } else if lines.iter().any(Option::is_some) {
        for d in lines.iter().flatten() {
            n -= d * d.dot(&n);
        }
        let len = n.norm();
        if len == 0.0 {
            return 0.0;
        }
        n /= len;
    }
    let sep = -b.support_value(pb, &-n) - a.support_value(pa, &n);
    if sep.is_finite() && sep > 0.0 { sep } else { 0.0 }
}

/// Builds the result from core witnesses and radii.
pub(crate) fn finish(
    core: Core,
    radii: Radii,
    (a, pa, b, pb): (&Shape, &Pose, &Shape, &Pose),
    settings: &QuerySettings,
    algorithm: Algorithm,
    path: QueryPath,
) -> DistanceResult {
    let r = radii.a + radii.b;
    let diff = core.qb - core.qa;
    let d = diff.norm();
    let contact = |proximity: Proximity| DistanceResult {
        proximity,
        certificate: Certificate { lower: 0.0, upper: 0.0 },
        algorithm,
        path,
    };
    if d > r {
        let n = diff / d;
        let point_a = core.qa + n * radii.a;
        let point_b = core.qb - n * radii.b;
        let upper = (point_b - point_a).norm();
        let lower = lower_bound(a, pa, b, pb, &n).min(upper);
        let certificate = Certificate { lower, upper };
        let proximity = if upper <= settings.touching_tolerance {
            Proximity::Touching { point: nalgebra::center(&point_a, &point_b) }
        } else {
            Proximity::Separated { distance: upper, point_a, point_b, normal: n }
        };
        return DistanceResult { proximity, certificate, algorithm, path };
    }
    if d == r {
        // r > 0 here (d = r = 0 is handled below with the core depth).
        if r > 0.0 {
            let p = core.qa + diff * (radii.a / d);
            return contact(Proximity::Touching { point: p });
        }
        return match core.core_depth {
            Some(0.0) => contact(Proximity::Touching { point: core.qa }),
            depth => contact(Proximity::Intersecting { point: Some(core.qa), depth }),
        };
    }
    // d < r: the rounded shapes overlap. A common point: along qa→qb at a distance s from qa
    // with d − r_b ≤ s ≤ r_a and 0 ≤ s ≤ d; take the middle of that interval.
    let point = if d > 0.0 {
        let lo = (d - radii.b).max(0.0);
        let hi = radii.a.min(d);
        core.qa + diff * (0.5 * (lo + hi) / d)
    } else {
        core.qa
    };
    let depth = if d > 0.0 { Some(r - d) } else { core.core_depth.map(|x| x + r) };
    contact(Proximity::Intersecting { point: Some(point), depth })
}

impl DistanceResult {
    /// The same answer with A and B exchanged (witnesses swapped, normal negated).
    pub(crate) fn mirrored(self) -> Self {
        let proximity = match self.proximity {
            Proximity::Separated { distance, point_a, point_b, normal } => {
                Proximity::Separated { distance, point_a: point_b, point_b: point_a, normal: -normal }
            }
            other => other,
        };
        Self { proximity, ..self }
    }
}
