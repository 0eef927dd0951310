//! Witness points moved onto a shape as the user placed it, R·S + t, when R is off
//! orthonormal.
//!
//! # Maths
//!
//! A pose's R is accepted off orthonormal by e = max |RᵀR − I| ≤ 1e-6 and used as given: the
//! placed shape is {R·x + t : x ∈ S}, and the support functions behind every lower bound are
//! those of that set. An algorithm that reaches S's frame through Rᵀ (or a normalized axis)
//! instead of R⁻¹ builds a local point x′ whose image R·x′ + t lies off the placed shape by up
//! to about 3e·|p − t|: a cylinder's rim point 2e-7 outside at unit size. The witness distance
//! |p_b − p_a| may then fall below the proven lower bound, and the verifier refuses the answer.
//!
//! The repair, for a world point p that should lie on S: x = R⁻¹(p − t) by the exact inverse,
//! clamped into S (a box per axis; a cylinder's radial part scaled down to r and its height
//! clamped; for cores also a capsule's axis segment and a sphere's centre), and placed again,
//! p′ = R·x + t: a point of the placed shape up to the rounding of those few operations. The
//! clamp moves x by the amount x was outside S, O(e·|p − t|), so p moves by at most
//! ‖R‖₂ ≤ 1 + 3e times that, and the witness distance grows by at most the two moves: the
//! bracket [lower, upper] widens honestly by O(e·size) and stays a proven bracket. Points,
//! segments and triangles are spanned by their placed vertices R·vᵢ + t: p′ is the closest
//! point of that placed simplex (a witness built in another shape's frame through Rᵀ may have
//! left it).
//!
//! A witness is off its shape only when a rotation of the *pair* is off orthonormal (a shape's
//! witness is often built in the other shape's frame): the callers move both witnesses when
//! either pose is ([`either_off_orthonormal`]), and only those of separated answers (moving the
//! common point of a contact apart would report a gap that is not there).
//!
//! # Edge cases
//!
//! * Both e ≤ [`ROUNDING`] (exact rotations, and rotations rounded to the last few ulps): the
//!   callers leave every point unchanged, so those answers are bit for bit what they were.
//! * A point already inside a box or cylinder (to the clamp's comparison): unchanged.
//! * A singular R cannot pass [`Pose::from_matrix`] (e ≤ 1e-6, det > 0); should the inverse
//!   fail anyway, p is returned unchanged (the verifier then decides).
//! * A capsule's or sphere's radius is a world-frame ball around its placed core (see
//!   `Shape::support_value`): as a whole shape it is left unchanged, as a core the point goes
//!   onto the axis segment or the centre. Shapes without a cheap projection (cones,
//!   ellipsoids, polytopes, composites): unchanged.

use nalgebra::Point3;

use super::{Shape, planar_len};
use crate::gjk::closest_to_origin;
use crate::pose::Pose;

/// Orthonormality errors up to this are rounding: the old, bit-for-bit path.
pub(crate) const ROUNDING: f64 = 8.0 * f64::EPSILON;

/// Whether the pose's rotation is off orthonormal by more than [`ROUNDING`].
#[inline(always)]
pub(crate) fn off_orthonormal(pose: &Pose) -> bool {
    pose.orthonormality_error() > ROUNDING
}

/// Whether either rotation of a pair is off orthonormal by more than [`ROUNDING`]: then both
/// witnesses are moved onto their shapes (see the module docs).
#[inline(always)]
pub(crate) fn either_off_orthonormal(pa: &Pose, pb: &Pose) -> bool {
    off_orthonormal(pa) || off_orthonormal(pb)
}

/// What a witness lies on: the whole shape, or its core (the shape less the ball GJK adds
/// back: a capsule's axis segment, a sphere's centre, a rounded shape's inner shape).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// The shape as given.
    Whole,
    /// Its core (`gjk::core_of`).
    Core,
}

/// The local point `l` clamped into `shape` (or its core), `None` when it is inside already
/// or the shape has no clamp here (see the module docs).
pub(crate) fn clamp_local(shape: &Shape, part: Part, l: &Point3<f64>) -> Option<Point3<f64>> {
    let clamped = match (shape, part) {
        (Shape::Cylinder(c), _) => {
            let (r, h) = (c.radius(), c.half_height());
            let rho = planar_len(l.x, l.y);
            let k = if rho > r { r / rho } else { 1.0 };
            Point3::new(l.x * k, l.y * k, l.z.clamp(-h, h))
        }
        (Shape::Cuboid(c), _) => {
            let e = c.half_extents();
            Point3::new(l.x.clamp(-e.x, e.x), l.y.clamp(-e.y, e.y), l.z.clamp(-e.z, e.z))
        }
        (Shape::AlignedBox(b), _) => Point3::from(l.coords.sup(&b.min().coords).inf(&b.max().coords)),
        (Shape::Capsule(c), Part::Core) => {
            let h = c.half_height();
            Point3::new(0.0, 0.0, l.z.clamp(-h, h))
        }
        (Shape::Sphere(_), Part::Core) => Point3::origin(),
        (Shape::Rounded(x), Part::Core) => return clamp_local(x.inner(), Part::Core, l),
        _ => return None,
    };
    (clamped != *l).then_some(clamped)
}

/// The world point `p` (meant to lie on `shape`, or on its core, placed by `pose`) moved onto
/// it: through the exact inverse of R for boxes, cylinders and cores, as the closest point of
/// the placed vertices' simplex for points, segments and triangles (see the module docs).
/// The callers call it only when [`either_off_orthonormal`].
pub(crate) fn onto_placed(shape: &Shape, pose: &Pose, part: Part, p: &Point3<f64>) -> Point3<f64> {
    let placed = |v: &Point3<f64>| pose.transform_point(v);
    match shape {
        Shape::Point(x) => return placed(&x.position()),
        Shape::Segment(x) => {
            let [u, v] = x.endpoints().map(|e| placed(&e));
            let d = v - u;
            let len2 = d.norm_squared();
            let s = if len2 > 0.0 { ((p - u).dot(&d) / len2).clamp(0.0, 1.0) } else { 0.0 };
            return u + d * s;
        }
        Shape::Triangle(x) => {
            let [u, v, w] = x.vertices().map(|e| placed(&e) - p);
            return p + closest_to_origin([u, v, w]);
        }
        _ => {}
    }
    let Some(inv) = pose.rotation().try_inverse() else { return *p };
    let l = Point3::from(inv * (p.coords - pose.translation()));
    match clamp_local(shape, part, &l) {
        Some(x) => placed(&x),
        None => *p,
    }
}

#[cfg(test)]
mod tests {
    //! Points pushed off a wobbly cylinder and box come back onto the placed shape (checked
    //! through the exact inverse), and move by no more than they were outside (times ‖R‖).

    use nalgebra::{Matrix3, Point3, Rotation3, Vector3};

    use super::{Part, onto_placed};
    use crate::pose::Pose;
    use crate::shape::{Cuboid, Cylinder, Shape};

    fn wobbly(k: f64, wobble: f64) -> Pose {
        let r = Rotation3::from_euler_angles(0.3 * k, 1.0 - 0.2 * k, 0.7 * k);
        let m: Matrix3<f64> =
            r.matrix() + Matrix3::from_fn(|i, j| wobble * ((i * 3 + j) as f64 * 0.37 + k).sin());
        Pose::from_matrix(m, Vector3::new(k, -0.5 * k, 2.0)).unwrap()
    }

    /// How far the local point is outside the cylinder or box (0 inside).
    fn outside(s: &Shape, l: &Point3<f64>) -> f64 {
        match s {
            Shape::Cylinder(c) => {
                let radial = (l.x.hypot(l.y) - c.radius()).max(0.0);
                radial.hypot((l.z.abs() - c.half_height()).max(0.0))
            }
            Shape::Cuboid(c) => (l.coords.abs() - c.half_extents()).sup(&Vector3::zeros()).norm(),
            _ => unreachable!(),
        }
    }

    #[test]
    fn outside_points_come_back_onto_the_placed_shape() {
        let shapes = [
            Shape::Cylinder(Cylinder::new(0.5, 0.6).unwrap()),
            Shape::Cuboid(Cuboid::new([0.5, 0.3, 0.8]).unwrap()),
        ];
        let mut moved = 0;
        for k in 0..40 {
            let pose = wobbly(k as f64, 3e-7);
            let inv = pose.rotation().try_inverse().unwrap();
            for s in &shapes {
                // Local points just outside the shape (by 1e-6 relative), placed exactly.
                for dir in
                    [Vector3::new(1.0, 0.2, 0.1), Vector3::new(0.1, -0.3, 1.0), Vector3::new(-0.7, 0.7, -0.9)]
                {
                    let local = s.local_support(&dir).unwrap() * (1.0 + 1e-6);
                    let p = pose.transform_point(&local);
                    let q = onto_placed(s, &pose, Part::Whole, &p);
                    let back = Point3::from(inv * (q.coords - pose.translation()));
                    let off = outside(s, &back);
                    // The placing and the inverse round at a few ulps of |t| + |x| (≤ 20 here).
                    let ulps = 16.0 * f64::EPSILON * (pose.translation().norm() + 2.0);
                    assert!(off <= ulps, "{s:?} {pose:?}: {off:e}");
                    // Moved by at most what it was outside, times ‖R‖ ≤ 1 + 3e (and rounding).
                    let was = outside(s, &local);
                    assert!((q - p).norm() <= was * (1.0 + 3e-6) + ulps, "{:e} > {was:e}", (q - p).norm());
                    moved += usize::from(q != p);
                }
            }
        }
        assert_eq!(moved, 40 * 2 * 3);
    }
}
