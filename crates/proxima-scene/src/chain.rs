//! The seam between motion checks and robot models: a kinematic chain gives the poses of its
//! rigid bodies (links, or the convex pieces of links) at a configuration and, for joint rates,
//! a bound on how fast any point of each body moves.
//!
//! Implemented for the hand-written serial arms ([`RobotModel`], bodies = links) and for robots
//! from descriptions placed at a base ([`PlacedRobot`]: bodies = the geometry pieces of
//! [`Robot::geometries`], speed bounds from [`MotionBounds`], which covers prismatic and
//! mimic joints).
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
use proxima_robot::{LimitPolicy, MotionBounds, Robot};

use crate::bounds::local_radius;
use crate::error::SceneError;
use crate::robot::RobotModel;

/// Rigid bodies moved by joint values (implemented by [`RobotModel`] and [`PlacedRobot`]; any
/// robot model plugs into the segment and workcell checks by implementing these five methods).
pub trait KinematicChain {
    /// Number of joint values (configuration coordinates).
    fn joint_count(&self) -> usize;
    /// Number of rigid bodies (each one convex shape).
    fn body_count(&self) -> usize;
    /// The shape of body `k` (its own frame).
    fn body_shape(&self, k: usize) -> &Shape;
    /// World poses of all bodies at configuration `q` (written to `poses`, one per body).
    /// Errors: wrong length, non-finite values, values the model rejects (limits).
    fn body_poses_at(&self, q: &[f64], poses: &mut Vec<Pose>) -> Result<(), SceneError>;
    /// For joint rates bounded by `rates` (|q̇_j| ≤ `rates[j]`, any unit of time), a bound of the
    /// speed of every point of each body, valid in every configuration (written to `bounds`, one
    /// per body). Errors: wrong length, negative or non-finite rates.
    fn body_speed_bounds(&self, rates: &[f64], bounds: &mut Vec<f64>) -> Result<(), SceneError>;
}

/// Checks a rate vector: its length and that every rate is finite and ≥ 0.
fn check_rates(rates: &[f64], joints: usize) -> Result<(), SceneError> {
    if rates.len() != joints {
        return Err(SceneError::invalid("rates", format!("{} joint rates for {joints} joints", rates.len())));
    }
    if rates.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
        return Err(SceneError::invalid("rates", "joint rates must be finite and >= 0"));
    }
    Ok(())
}

/// Relative inflation of the speed bounds: the norm of a rotation used as given (1e-6) and the
/// rounding of the sums.
const SPEED_INFLATION: f64 = 1e-5;

impl KinematicChain for RobotModel {
    fn joint_count(&self) -> usize {
        self.joints.len()
    }

    fn body_count(&self) -> usize {
        self.links.len()
    }

    fn body_shape(&self, k: usize) -> &Shape {
        &self.links[k].shape
    }

    fn body_poses_at(&self, q: &[f64], poses: &mut Vec<Pose>) -> Result<(), SceneError> {
        let mut frames = Vec::with_capacity(self.joints.len() + 1);
        self.frames(q, &mut frames).map_err(|e| SceneError::robot("", e))?;
        poses.clear();
        poses.extend(self.link_poses(&frames));
        Ok(())
    }

    fn body_speed_bounds(&self, rates: &[f64], bounds: &mut Vec<f64>) -> Result<(), SceneError> {
        check_rates(rates, self.joints.len())?;
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

/// A robot from a description with its root link at `base`: its bodies are the geometry pieces
/// ([`Robot::geometries`]), their speed bounds those of their links ([`MotionBounds`]).
#[derive(Debug, Clone)]
pub struct PlacedRobot<'r> {
    /// The model.
    pub robot: &'r Robot,
    /// Pose of its root link.
    pub base: Pose,
    /// Joint values outside the limits: an error or clamped.
    pub limits: LimitPolicy,
    bounds: MotionBounds,
}

impl<'r> PlacedRobot<'r> {
    /// `robot` with its root at `base` (computes its motion-bound coefficients once).
    pub fn new(robot: &'r Robot, base: Pose, limits: LimitPolicy) -> Self {
        Self { robot, base, limits, bounds: MotionBounds::new(robot) }
    }
}

impl KinematicChain for PlacedRobot<'_> {
    fn joint_count(&self) -> usize {
        self.robot.dof()
    }

    fn body_count(&self) -> usize {
        self.robot.geometries().len()
    }

    fn body_shape(&self, k: usize) -> &Shape {
        &self.robot.geometries()[k].shape
    }

    fn body_poses_at(&self, q: &[f64], poses: &mut Vec<Pose>) -> Result<(), SceneError> {
        let (mut scratch, mut links) = (Vec::new(), Vec::new());
        self.robot
            .link_poses(&self.base, q, self.limits, &mut scratch, &mut links)
            .map_err(|e| SceneError::robot(self.robot.name(), e))?;
        self.robot.geometry_poses(&links, poses);
        Ok(())
    }

    fn body_speed_bounds(&self, rates: &[f64], bounds: &mut Vec<f64>) -> Result<(), SceneError> {
        check_rates(rates, self.robot.dof())?;
        bounds.clear();
        bounds.extend(self.robot.geometries().iter().map(|g| self.bounds.link_displacement(g.link, rates)));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::Point3;

    use super::*;
    use crate::workcell::{PrismModel, w25_arm};

    /// A URDF arm with a revolute, a prismatic and a mimic joint: the pieces' speed bounds hold
    /// along random segments (finite differences of box corners).
    #[test]
    fn placed_robot_bounds_hold() {
        let urdf = r#"<robot name="r">
          <link name="base"><collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
          <link name="arm"><collision><origin xyz="0.25 0 0"/><geometry><box size="0.5 0.05 0.05"/></geometry></collision>
            <collision><origin xyz="0.5 0 0.05"/><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
          <link name="slide"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
          <link name="tip"><collision><origin xyz="0 0 0.1"/><geometry><box size="0.04 0.04 0.2"/></geometry></collision></link>
          <joint name="j1" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.1"/>
            <axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="2"/></joint>
          <joint name="j2" type="prismatic"><parent link="arm"/><child link="slide"/><origin xyz="0.6 0 0"/>
            <axis xyz="1 0 0"/><limit lower="-0.2" upper="0.2" velocity="1"/></joint>
          <joint name="j3" type="revolute"><parent link="slide"/><child link="tip"/><origin xyz="0 0 0.05"/>
            <axis xyz="0 1 0"/><limit lower="-3" upper="3" velocity="2"/><mimic joint="j1" multiplier="-2"/></joint>
        </robot>"#;
        let desc = proxima_robot::urdf::parse_urdf(urdf, "r.urdf").unwrap();
        let robot =
            Robot::from_description(&desc, None, &Default::default(), &mut Default::default()).unwrap();
        let placed =
            PlacedRobot::new(&robot, Pose::from_translation([1.0, 2.0, 0.0]).unwrap(), LimitPolicy::Reject);
        assert_eq!((placed.joint_count(), placed.body_count()), (2, 5));
        let (mut p0, mut p1, mut bounds) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..100 {
            let x = k as f64 * 0.37;
            let q = [2.0 * x.sin(), 0.15 * (1.3 * x).cos()];
            let dq = [(0.7 * x).cos(), (2.1 * x).sin()];
            let h = 1e-5;
            let q1 = [q[0] + h * dq[0], q[1] + h * dq[1]];
            placed.body_poses_at(&q, &mut p0).unwrap();
            placed.body_poses_at(&q1, &mut p1).unwrap();
            placed.body_speed_bounds(&dq.map(f64::abs), &mut bounds).unwrap();
            for b in 0..placed.body_count() {
                let Shape::Cuboid(c) = placed.body_shape(b) else { continue };
                let e = c.half_extents();
                for i in 0..8 {
                    let s = |bit: usize, v: f64| if i & bit == 0 { -v } else { v };
                    let p = Point3::new(s(1, e.x), s(2, e.y), s(4, e.z));
                    let moved = (p1[b].transform_point(&p) - p0[b].transform_point(&p)).norm() / h;
                    assert!(moved <= bounds[b] * (1.0 + 1e-3) + 1e-9, "body {b}: {moved} > {}", bounds[b]);
                }
            }
        }
        assert!(placed.body_poses_at(&[0.0, 0.5], &mut p0).is_err(), "outside the prismatic limit");
    }

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
            arm.body_poses_at(&q, &mut p0).unwrap();
            arm.body_poses_at(&q1, &mut p1).unwrap();
            arm.body_speed_bounds(&dq.iter().map(|d| d.abs()).collect::<Vec<_>>(), &mut bounds).unwrap();
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
        assert!(arm.body_speed_bounds(&[1.0; 5], &mut b).is_err());
        assert!(arm.body_speed_bounds(&[1.0, -1.0, 0.0, 0.0, 0.0, 0.0], &mut b).is_err());
        assert!(arm.body_speed_bounds(&[f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0], &mut b).is_err());
        assert!(arm.body_poses_at(&[0.0; 5], &mut Vec::new()).is_err());
    }
}
