//! Cylinder–cylinder and cylinder–capsule distance when the closest features are the
//! cylinders' *sides*: a closed form that answers such pairs without GJK.
//!
//! # Maths
//!
//! A cylinder with axis segment S (centre c, unit axis w, half height h) and radius r lies
//! inside the capsule S ⊕ B(r); a capsule is that set exactly. Let p ∈ S_A and q ∈ S_B be
//! closest points of the two axis segments, d = |q − p| and u = (q − p)/d. Then
//!
//! ```text
//! dist(A, B) ≥ dist(S_A ⊕ B(r_A), S_B ⊕ B(r_B)) = d − r_A − r_B.
//! ```
//!
//! When p is strictly inside S_A (not at an end), the segment distance is stationary in p's
//! parameter, so u ⟂ w_A, and x_A = p + r_A u lies on A's side (radius r_A in the plane ⟂ w_A
//! through p, within the slab |w_A·(x − c_A)| ≤ h_A). The same holds for B when it is a
//! cylinder with q strictly inside S_B, and x_B = q − r_B u is a point of B whenever B is a
//! capsule. Then |x_B − x_A| = d − r_A − r_B meets the lower bound: x_A, x_B are closest
//! points and the distance is exact.
//!
//! # Edge cases
//!
//! * A closest point at (or within a relative 1e-9 of) an end of a cylinder's axis: the
//!   closest features may be a cap or a rim; `None` (the caller runs GJK).
//! * Parallel axes: the segment solver returns one of the closest pairs; when it lies at an
//!   end the pair goes to GJK, otherwise the answer is exact as above.
//! * Touching or overlapping (d ≤ r_A + r_B, with a relative margin): `None` (the depth is
//!   GJK/EPA's job).
//! * The certificate is not taken from this derivation: the caller's `finish` recomputes the
//!   lower bound from the support functions along u (weak duality) like for every witness
//!   pair, so rounding here can never produce an unproven bound.

use nalgebra::{Point3, Vector3};

use super::distance_segment_segment::{LinearPiece, closest_linear_linear};
use crate::pose::Pose;
use crate::shape::Shape;

/// Closest points are at most this relative distance from an axis end to count as "at the
/// end" (cap or rim possible), and the gap must exceed this relative margin.
const MARGIN: f64 = 1e-9;

/// The axis segment (world frame), the radius, and whether the shape is a cylinder (flat
/// ends) rather than a capsule.
fn axis(s: &Shape, pose: &Pose) -> Option<(LinearPiece, f64, bool)> {
    let (h, r, flat) = match s {
        Shape::Cylinder(c) => (c.half_height(), c.radius(), true),
        Shape::Capsule(c) => (c.half_height(), c.radius(), false),
        _ => return None,
    };
    Some((LinearPiece::z_axis(pose, h), r, flat))
}

/// Whether `x` (on the piece) is strictly inside a flat-ended axis, away from both ends.
fn interior(piece: &LinearPiece, x: &Point3<f64>) -> bool {
    let len2 = piece.dir.norm_squared();
    let t = (x - piece.origin).dot(&piece.dir) / len2;
    t > MARGIN && t < 1.0 - MARGIN
}

/// The closest points (on a, on b; world frame) of a cylinder–cylinder or cylinder–capsule
/// pair whose closest features are the cylinders' sides, `None` otherwise (see the module
/// docs). Shapes other than cylinders and capsules, and capsule–capsule pairs, give `None`.
pub(crate) fn closest_points_cylinder_sides(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
) -> Option<(Point3<f64>, Point3<f64>)> {
    let (la, ra, flat_a) = axis(a, pa)?;
    let (lb, rb, flat_b) = axis(b, pb)?;
    if !flat_a && !flat_b {
        return None;
    }
    let (p, q) = closest_linear_linear(&la, &lb);
    if (flat_a && !interior(&la, &p)) || (flat_b && !interior(&lb, &q)) {
        return None;
    }
    let d: Vector3<f64> = q - p;
    let len = d.norm();
    if !(len.is_finite() && len > (ra + rb) * (1.0 + MARGIN) && len > 0.0) {
        return None;
    }
    let u = d / len;
    Some((p + u * ra, q - u * rb))
}
