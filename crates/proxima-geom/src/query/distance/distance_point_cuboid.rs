//! Closest point of an oriented box (cuboid or aligned box placed by a pose) to a point.
//!
//! # Maths
//!
//! In the box frame, the closest point of { lo ≤ x ≤ hi } to p is clamp(p, lo, hi)
//! componentwise. When p is strictly inside, the distance is 0 and the penetration depth of the
//! point is min_i min(p_i − lo_i, hi_i − p_i) (the distance to the nearest face).
//!
//! # Edge cases
//!
//! p on the boundary: distance 0, depth 0 (touching). The closest point is transformed back to
//! the world frame (one rounding of R·x + t).

use nalgebra::{Point3, Vector3};

use crate::pose::Pose;

/// A box lo ≤ x ≤ hi in the frame of `pose`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PosedBox {
    pub pose: Pose,
    pub lo: Vector3<f64>,
    pub hi: Vector3<f64>,
}

/// For the box lo ≤ x ≤ hi in the frame of `pose` (taken apart, not as a [`PosedBox`]: the
/// sphere–box query would copy the pose into one on every call): (closest point of the box to `p`, penetration depth of `p` when it is inside (0 on the
/// boundary), `None` when outside). In line: the ball–box closed form's one frame computes
/// it (`dispatch::ball_closed_form`), without a call and its tuple returned through memory.
#[inline(always)]
pub(crate) fn closest_point_box(
    p: &Point3<f64>,
    pose: &Pose,
    lo: &Vector3<f64>,
    hi: &Vector3<f64>,
) -> (Point3<f64>, Option<f64>) {
    let local = pose.inverse_transform_point(p);
    let mut clamped = local;
    let mut inside = true;
    let mut depth = f64::INFINITY;
    for i in 0..3 {
        let x = local[i];
        if x < lo[i] {
            clamped[i] = lo[i];
            inside = false;
        } else if x > hi[i] {
            clamped[i] = hi[i];
            inside = false;
        } else {
            depth = depth.min(x - lo[i]).min(hi[i] - x);
        }
    }
    if inside { (*p, Some(depth)) } else { (pose.transform_point(&clamped), None) }
}
