//! Closest point of a solid cylinder (placed by a pose) to a point.
//!
//! # Maths
//!
//! In the cylinder frame (axis z, x² + y² ≤ r², |z| ≤ h) the set is the product of a disk and
//! an interval, so the closest point is computed per factor: the radial part (x, y) is scaled
//! to length r when longer than r, and z is clamped to [−h, h]. A point strictly inside has
//! penetration depth min(r − ρ, h − |z|), ρ = |(x, y)| (the distance to the nearest of the
//! lateral surface and the caps).
//!
//! # Edge cases
//!
//! p on the boundary: distance 0, depth 0 (touching). p on the axis outside the caps: the
//! radial part is zero and stays zero.

use nalgebra::Point3;

use crate::pose::Pose;

/// (closest point of the cylinder to `p` (world), penetration depth of `p` when it is inside
/// or on the boundary, `None` when outside).
pub(crate) fn closest_point_cylinder(
    p: &Point3<f64>,
    pose: &Pose,
    radius: f64,
    half_height: f64,
) -> (Point3<f64>, Option<f64>) {
    let local = pose.inverse_transform_point(p);
    let rho = crate::shape::planar_len(local.x, local.y);
    let radial_out = rho > radius;
    let axial_out = local.z.abs() > half_height;
    if !radial_out && !axial_out {
        return (*p, Some((radius - rho).min(half_height - local.z.abs())));
    }
    let (x, y) =
        if radial_out { (local.x * (radius / rho), local.y * (radius / rho)) } else { (local.x, local.y) };
    let z = local.z.clamp(-half_height, half_height);
    (pose.transform_point(&Point3::new(x, y, z)), None)
}
