//! How far a shape reaches from its rotation centre and from its rotation axis: the radii in
//! the motion bounds of conservative advancement.
//!
//! # Maths
//!
//! For a shape S (local frame), a centre c and a unit axis k through c:
//!
//! * r = max_{p∈S} |p − c| bounds the speed |ω × R(p − c)| ≤ |ω|·r of every point turning
//!   about c;
//! * ρ = max_{p∈S} |P(p − c)|, P = I − kkᵀ, bounds the component of that velocity along any
//!   fixed direction n: n·(ω × y) = y·(n × ω) and n × ω ⊥ ω, so |n·(ω × y)| ≤ |n × ω|·|P y|,
//!   and |P y| is invariant under the rotation about ω.
//!
//! Both are maxima of convex functions, attained at extreme points: exact over the vertices of
//! polytopes, boxes, segments and triangles, and over the centre ± radius of balls and capsules;
//! over a rim circle (cylinder, cone) r is exact, ρ bounded by |P(o − c)| + R (o the circle's
//! centre, R its radius: |P u| ≤ 1); an ellipsoid {Dx : |x| ≤ 1} reaches |c| + max dᵢ and
//! |Pc| + σ_max(P D) (exact when c = 0, D = diag(radii)). Rounded shapes add their radius, a
//! Minkowski sum the two summands' reaches (a valid, looser bound). Lines are unbounded: an
//! error.

use nalgebra::{Point3, Vector3};

use crate::error::GeomError;
use crate::pose::{Pose, ROTATION_TOLERANCE};
use crate::shape::Shape;

/// Reach of a shape from a centre and from an axis through it (local frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Reach {
    /// max |p − c|.
    pub radius: f64,
    /// max |P(p − c)| (= `radius` when there is no axis).
    pub axis_radius: f64,
}

impl Reach {
    fn of_point(d: &Vector3<f64>, k: &Vector3<f64>) -> Self {
        Reach { radius: d.norm(), axis_radius: perp(d, k).norm() }
    }
    fn max(self, o: Reach) -> Reach {
        Reach { radius: self.radius.max(o.radius), axis_radius: self.axis_radius.max(o.axis_radius) }
    }
    fn grown(self, r: f64) -> Reach {
        Reach { radius: self.radius + r, axis_radius: self.axis_radius + r }
    }
}

/// d with its component along the unit `k` removed (k = 0: d itself).
fn perp(d: &Vector3<f64>, k: &Vector3<f64>) -> Vector3<f64> {
    d - k * k.dot(d)
}

/// The reach of a point set: the largest squared lengths, then one square root each (the
/// correctly rounded square root is monotone, so √(max x) = max √x exactly: the same values as
/// one root per point, without them).
fn points(pts: &[Point3<f64>], c: &Vector3<f64>, k: &Vector3<f64>) -> Reach {
    let (radius2, axis2) = pts.iter().fold((0.0f64, 0.0f64), |(r2, a2), p| {
        let d = p.coords - c;
        (r2.max(d.norm_squared()), a2.max(perp(&d, k).norm_squared()))
    });
    Reach { radius: radius2.sqrt(), axis_radius: axis2.sqrt() }
}

/// The circle of `radius` about `o` in a plane z = const (local frame).
fn rim(o: Vector3<f64>, radius: f64, c: &Vector3<f64>, k: &Vector3<f64>) -> Reach {
    let d = o - c;
    Reach { radius: d.z.hypot(d.x.hypot(d.y) + radius), axis_radius: perp(&d, k).norm() + radius }
}

/// The reach of `shape` (local frame) from the point `c` and the line through `c` along the
/// unit `k` (`k = 0`: no axis). Errors: a line ([`GeomError::Unsupported`] from the caller's
/// point of view: unbounded).
pub(crate) fn reach(shape: &Shape, c: &Vector3<f64>, k: &Vector3<f64>) -> Result<Reach, GeomError> {
    Ok(match shape {
        Shape::Point(p) => Reach::of_point(&(p.position().coords - c), k),
        Shape::Segment(s) => points(&s.endpoints(), c, k),
        Shape::Line(_) => {
            return Err(GeomError::Degenerate { what: "a line is unbounded: it has no time of impact" });
        }
        Shape::Triangle(t) => points(&t.vertices(), c, k),
        Shape::Cuboid(b) => {
            let h = b.half_extents();
            let corners: [Point3<f64>; 8] = std::array::from_fn(|i| {
                let s = |bit: usize, v: f64| if i & bit == 0 { -v } else { v };
                Point3::new(s(1, h.x), s(2, h.y), s(4, h.z))
            });
            points(&corners, c, k)
        }
        Shape::AlignedBox(b) => {
            let (lo, hi) = (b.min(), b.max());
            let corners: [Point3<f64>; 8] = std::array::from_fn(|i| {
                let s = |bit: usize, l: f64, h: f64| if i & bit == 0 { l } else { h };
                Point3::new(s(1, lo.x, hi.x), s(2, lo.y, hi.y), s(4, lo.z, hi.z))
            });
            points(&corners, c, k)
        }
        Shape::Sphere(s) => Reach::of_point(&(-c), k).grown(s.radius()),
        Shape::Capsule(s) => {
            let h = s.half_height();
            points(&[Point3::new(0.0, 0.0, -h), Point3::new(0.0, 0.0, h)], c, k).grown(s.radius())
        }
        Shape::Cylinder(s) => {
            let h = s.half_height();
            rim(Vector3::new(0.0, 0.0, h), s.radius(), c, k).max(rim(
                Vector3::new(0.0, 0.0, -h),
                s.radius(),
                c,
                k,
            ))
        }
        Shape::Cone(s) => Reach::of_point(&(s.apex().coords - c), k).max(rim(
            Vector3::new(0.0, 0.0, -s.half_height()),
            s.radius(),
            c,
            k,
        )),
        Shape::Ellipsoid(e) => {
            let d = e.radii();
            let radius = c.norm() + d.max();
            let axis_radius = if k.norm_squared() == 0.0 {
                radius
            } else {
                perp(&(-c), k).norm() + ellipsoid_axis_reach(&d, k)
            };
            Reach { radius, axis_radius }
        }
        Shape::ConvexPolytope(p) => points(p.vertices(), c, k),
        Shape::Polyhedron(p) => points(p.vertices(), c, k),
        Shape::Rounded(r) => reach(r.inner(), c, k)?.grown(r.radius()),
        Shape::MinkowskiSum(s) => {
            // |P_a(a) + P_b(b) − c| ≤ |t_a + t_b − c| + ‖R_a‖·r_a + ‖R_b‖·r_b, with r the
            // summands' reach from their own origins and ‖R‖ ≤ 1 + 3·(rotation tolerance).
            let ((a, pa), (b, pb)) = (s.first(), s.second());
            let zero = Vector3::zeros();
            let ra = reach(a, &zero, &zero)?.radius;
            let rb = reach(b, &zero, &zero)?.radius;
            let norm = 1.0 + 3.0 * ROTATION_TOLERANCE;
            let r = (pa.translation() + pb.translation() - c).norm() + norm * (ra + rb);
            Reach { radius: r, axis_radius: r }
        }
    })
}

/// σ_max(P·D) = max over the ellipsoid {Dx : |x| ≤ 1} of the distance from the axis k through
/// its centre: the largest eigenvalue of the 2×2 Gram matrix of D·e₁, D·e₂ for an orthonormal
/// basis e₁, e₂ of the plane ⊥ k.
fn ellipsoid_axis_reach(d: &Vector3<f64>, k: &Vector3<f64>) -> f64 {
    let e1 = k.cross(&if k.x.abs() < 0.9 { Vector3::x() } else { Vector3::y() }).normalize();
    let e2 = k.cross(&e1);
    let (u, v) = (d.component_mul(&e1), d.component_mul(&e2));
    let (a, b, cc) = (u.norm_squared(), u.dot(&v), v.norm_squared());
    let half = 0.5 * (a + cc);
    let disc = (0.25 * (a - cc) * (a - cc) + b * b).sqrt();
    // Rounded up: the reach must not be underestimated by the rounding of the eigenvalue.
    ((half + disc) * (1.0 + 1e-12)).sqrt().min(d.max())
}

/// η = 3·max |RᵀR − I|, a bound of ‖RᵀR − I‖₂: how far a pose's matrix (accepted to 1e-6 and
/// used as given) is from a rotation.
pub(crate) fn rotation_defect(pose: &Pose) -> f64 {
    let r = pose.rotation();
    3.0 * (r.transpose() * r - nalgebra::Matrix3::identity()).abs().max()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Cone, Cylinder, Ellipsoid};

    /// Brute force over dense surface samples: the bounds hold and are tight to the sampling.
    fn sampled(shape: &Shape, c: &Vector3<f64>, k: &Vector3<f64>) -> Reach {
        let mut best = Reach { radius: 0.0, axis_radius: 0.0 };
        let n = 120;
        for i in 0..=n {
            let th = std::f64::consts::PI * i as f64 / n as f64;
            for j in 0..2 * n {
                let ph = std::f64::consts::PI * j as f64 / n as f64;
                let m = Vector3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), th.cos());
                let p = shape.support_point(&Pose::identity(), &m).unwrap();
                best = best.max(Reach::of_point(&(p.coords - c), k));
            }
        }
        best
    }

    #[test]
    fn curved_reaches_bound_the_samples() {
        let shapes = [
            Shape::Cylinder(Cylinder::new(0.5, 1.2).unwrap()),
            Shape::Cone(Cone::new(0.7, 0.4).unwrap()),
            Shape::Ellipsoid(Ellipsoid::new([0.3, 1.1, 0.6]).unwrap()),
        ];
        let k = Vector3::new(0.3, -0.8, 0.5).normalize();
        for s in &shapes {
            for c in [Vector3::zeros(), Vector3::new(0.1, -0.2, 0.3)] {
                let r = reach(s, &c, &k).unwrap();
                let b = sampled(s, &c, &k);
                assert!(r.radius >= b.radius - 1e-12 && r.axis_radius >= b.axis_radius - 1e-12, "{s:?}");
                // Exact radius for rims; the axis reach of a rim is within its radius R of the
                // truth, an off-centre ellipsoid within |c|.
                assert!(r.radius <= b.radius + 0.4, "{s:?} {r:?} {b:?}");
                assert!(r.axis_radius <= b.axis_radius + 0.71, "{s:?} {r:?} {b:?}");
            }
            let centred = reach(s, &Vector3::zeros(), &k).unwrap();
            if matches!(s, Shape::Ellipsoid(_)) {
                let b = sampled(s, &Vector3::zeros(), &k);
                assert!(
                    (centred.axis_radius - b.axis_radius).abs() < 1e-3
                        && (centred.radius - 1.1).abs() < 1e-15
                );
            }
        }
    }
}
