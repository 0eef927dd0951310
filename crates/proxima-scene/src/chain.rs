//! The seam between motion checks and robot models: a kinematic chain gives its links' poses at
//! a configuration and, for joint rates, a bound on how fast any point of each link moves.
//!
//! # Maths (serial revolute chains, [`RobotModel`])
//!
//! Frame k is F_k = F_{k−1}·Tr(o_k)·R_{a_k}(q_k): joint j turns everything after it about the
//! axis through the origin of F_j (after its offset o_j). A point p of a link on frame f moves
//! with velocity Σ_{j ≤ f} q̇_j · (a_j × (p − x_j)), x_j the origin of F_j, so
//!
//! ```text
//! |ṗ| ≤ Σ_{j ≤ f} |q̇_j| · |p − x_j|,   |p − x_j| ≤ Σ_{i = j+1..f} |o_i| + |t_link| + r_link,
//! ```
//!
//! the distance from x_j to p measured along the chain (the offsets of the later joints, the
//! link's placement in its frame, the shape's radius about its local origin): a bound for every
//! configuration. With rates |q̇_j| ≤ w_j over a motion, every point of the link moves at most
//! Σ_j w_j·R_{jf} per unit time. Poses are used as given (rotations to 1e-6): the bound is
//! inflated by a relative 1e-5, which covers the norm of such matrices.

use proxima_geom::{Pose, Shape};

use crate::bounds::local_radius;
use crate::error::SceneError;
use crate::robot::RobotModel;

/// A chain of links moved by joint values (implemented by [`RobotModel`]; a robot crate's
/// model plugs into the segment and workcell checks by implementing it).
pub trait KinematicChain {
    /// Number of joint values.
    fn joint_count(&self) -> usize;
    /// Number of links.
    fn link_count(&self) -> usize;
    /// The shape of link `k` (its own frame).
    fn link_shape(&self, k: usize) -> &Shape;
    /// World poses of all links at configuration `q` (written to `poses`, one per link).
    /// Errors: wrong length or non-finite values.
    fn link_poses_at(&self, q: &[f64], poses: &mut Vec<Pose>) -> Result<(), SceneError>;
    /// For joint rates bounded by `rates` (|q̇_j| ≤ `rates[j]`, any unit of time), a bound of the
    /// speed of every point of each link, for every configuration (written to `bounds`, one per
    /// link). Errors: wrong length, negative or non-finite rates.
    fn link_speed_bounds(&self, rates: &[f64], bounds: &mut Vec<f64>) -> Result<(), SceneError>;
}

/// Relative inflation of the speed bounds: the norm of a rotation used as given (1e-6) and the
/// rounding of the sums.
const SPEED_INFLATION: f64 = 1e-5;

impl KinematicChain for RobotModel {
    fn joint_count(&self) -> usize {
        self.joints.len()
    }

    fn link_count(&self) -> usize {
        self.links.len()
    }

    fn link_shape(&self, k: usize) -> &Shape {
        &self.links[k].shape
    }

    fn link_poses_at(&self, q: &[f64], poses: &mut Vec<Pose>) -> Result<(), SceneError> {
        let mut frames = Vec::with_capacity(self.joints.len() + 1);
        self.frames(q, &mut frames).map_err(|e| SceneError::robot("", e))?;
        poses.clear();
        poses.extend(self.link_poses(&frames));
        Ok(())
    }

    fn link_speed_bounds(&self, rates: &[f64], bounds: &mut Vec<f64>) -> Result<(), SceneError> {
        if rates.len() != self.joints.len() {
            return Err(SceneError::invalid(
                "rates",
                format!("{} joint rates for {} joints", rates.len(), self.joints.len()),
            ));
        }
        if rates.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
            return Err(SceneError::invalid("rates", "joint rates must be finite and >= 0"));
        }
        let offsets: Vec<f64> =
            self.joints.iter().map(|j| nalgebra::Vector3::from(j.offset).norm()).collect();
        bounds.clear();
        for (k, link) in self.links.iter().enumerate() {
            let reach = local_radius(&link.shape)
                .map_err(|e| SceneError::invalid(format!("links[{k}].shape"), e.to_string()))?
                + link.local.translation().norm();
            // Joint j (1-based) has its axis through the origin of frame j: the lever arm to the
            // link is the later offsets up to the link's frame, then its placement and radius.
            let mut speed = 0.0;
            let mut arm = reach;
            for j in (1..=link.frame).rev() {
                speed += rates[j - 1] * arm;
                arm += offsets[j - 1];
            }
            bounds.push(speed * (1.0 + SPEED_INFLATION));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::Point3;

    use super::*;
    use crate::workcell::{PrismModel, w25_arm};

    /// Finite differences of every vertex of every link's AABB corners (points of the
    /// links' hulls are convex combinations of support points) never beat the bound.
    #[test]
    fn speed_bounds_hold_along_random_segments() {
        let arm = w25_arm(Pose::identity(), PrismModel::BoundingBox).unwrap();
        let mut rng_state = 12345u64;
        let mut next = || {
            rng_state = rng_state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((rng_state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        let (mut p0, mut p1, mut bounds) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..200 {
            let q: Vec<f64> = (0..6).map(|_| 3.0 * next()).collect();
            let dq: Vec<f64> = (0..6).map(|_| next()).collect();
            let h = 1e-4;
            let q1: Vec<f64> = q.iter().zip(&dq).map(|(a, d)| a + h * d).collect();
            arm.link_poses_at(&q, &mut p0).unwrap();
            arm.link_poses_at(&q1, &mut p1).unwrap();
            arm.link_speed_bounds(&dq.iter().map(|d| d.abs()).collect::<Vec<_>>(), &mut bounds).unwrap();
            for (k, link) in arm.links.iter().enumerate() {
                let Shape::Cuboid(c) = &link.shape else { continue };
                let e = c.half_extents();
                for i in 0..8 {
                    let s = |bit: usize, v: f64| if i & bit == 0 { -v } else { v };
                    let p = Point3::new(s(1, e.x), s(2, e.y), s(4, e.z));
                    let moved = (p1[k].transform_point(&p) - p0[k].transform_point(&p)).norm() / h;
                    assert!(moved <= bounds[k] * (1.0 + 1e-3), "link {k}: {moved} > {}", bounds[k]);
                }
            }
        }
    }

    #[test]
    fn bad_rates_are_rejected() {
        let arm = w25_arm(Pose::identity(), PrismModel::BoundingBox).unwrap();
        let mut b = Vec::new();
        assert!(arm.link_speed_bounds(&[1.0; 5], &mut b).is_err());
        assert!(arm.link_speed_bounds(&[1.0, -1.0, 0.0, 0.0, 0.0, 0.0], &mut b).is_err());
        assert!(arm.link_speed_bounds(&[f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0], &mut b).is_err());
        assert!(arm.link_poses_at(&[0.0; 5], &mut Vec::new()).is_err());
    }
}
