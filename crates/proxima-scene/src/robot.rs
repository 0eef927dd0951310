//! Serial robot arms: revolute joints along a chain, convex links fixed to the chain's frames,
//! forward kinematics, and joint trajectories.
//!
//! # Kinematics
//!
//! Frame 0 is the base (a fixed pose in the world). Joint k (1-based) defines frame k as
//!
//! ```text
//! F_k = F_{k−1} · Tr(offset_k) · R_{axis_k}(q_k)
//! ```
//!
//! with `R_x, R_y, R_z` the right-handed elementary rotations (positive `R_y(q)` turns +x
//! toward −z). A link is a shape placed at a fixed local pose in one frame; its world pose is
//! `F_frame · local`.
//!
//! # Trajectories
//!
//! [`Trajectory::Sinusoids`]: q_j(t) = offset_j + Σ amplitude·sin(harmonic·ω·t + phase),
//! ω = 2π / period (all angles in radians). [`Trajectory::Samples`]: one joint vector per cycle
//! (cycles past the end hold the last sample).

use std::f64::consts::PI;

use nalgebra::{Matrix3, Vector3};
use proxima_geom::{Pose, Shape};

use crate::error::SceneError;

/// The axis of a revolute joint, in the frame after its offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// Rotation about x.
    X,
    /// Rotation about y.
    Y,
    /// Rotation about z.
    Z,
}

impl Axis {
    /// The rotation matrix R_axis(q).
    pub fn rotation(self, q: f64) -> Matrix3<f64> {
        let (s, c) = q.sin_cos();
        match self {
            Axis::X => Matrix3::new(1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c),
            Axis::Y => Matrix3::new(c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c),
            Axis::Z => Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0),
        }
    }
}

/// A revolute joint: translation from the previous frame, then rotation about `axis`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Joint {
    /// Translation from the previous frame's origin, in the previous frame.
    pub offset: [f64; 3],
    /// Rotation axis.
    pub axis: Axis,
}

/// A convex link fixed to a frame of the chain.
#[derive(Debug, Clone)]
pub struct Link {
    /// Name (unique within the robot).
    pub name: String,
    /// Frame index: 0 = base, k = after joint k.
    pub frame: usize,
    /// Pose of the shape in its frame.
    pub local: Pose,
    /// The shape, in its own local frame.
    pub shape: Shape,
}

/// A serial arm.
#[derive(Debug, Clone)]
pub struct RobotModel {
    /// Pose of frame 0 in the world.
    pub base: Pose,
    /// Joints, in chain order.
    pub joints: Vec<Joint>,
    /// Links.
    pub links: Vec<Link>,
}

impl RobotModel {
    /// Checks that every link's frame exists, offsets are finite and link names are unique.
    pub fn validate(&self) -> Result<(), SceneError> {
        for (j, joint) in self.joints.iter().enumerate() {
            if joint.offset.iter().any(|x| !x.is_finite()) {
                return Err(SceneError::invalid(format!("joints[{j}].offset"), "must be finite"));
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            if l.frame > self.joints.len() {
                return Err(SceneError::invalid(
                    format!("links[{i}].frame"),
                    format!("frame {} does not exist (the arm has {} joints)", l.frame, self.joints.len()),
                ));
            }
            if self.links[..i].iter().any(|o| o.name == l.name) {
                return Err(SceneError::invalid(format!("links[{i}].name"), "duplicate link name"));
            }
        }
        Ok(())
    }

    /// Frames F_0…F_n for joint values `q` (radians), written to `frames`.
    pub fn frames(&self, q: &[f64], frames: &mut Vec<Pose>) -> Result<(), SceneError> {
        if q.len() != self.joints.len() {
            return Err(SceneError::invalid(
                "q",
                format!("{} joint values for {} joints", q.len(), self.joints.len()),
            ));
        }
        if q.iter().any(|x| !x.is_finite()) {
            return Err(SceneError::invalid("q", "joint values must be finite"));
        }
        frames.clear();
        frames.push(self.base);
        for (joint, &qk) in self.joints.iter().zip(q) {
            let prev = frames.last().expect("frame 0 is pushed first");
            let r = prev.rotation();
            let t = prev.translation() + r * Vector3::from(joint.offset);
            let rot = r * joint.axis.rotation(qk);
            frames.push(
                Pose::from_matrix(rot, t)
                    .map_err(|source| SceneError::Geometry { at: "frames".into(), source })?,
            );
        }
        Ok(())
    }

    /// World poses of the links for the frames computed by [`RobotModel::frames`].
    pub fn link_poses<'a>(&'a self, frames: &'a [Pose]) -> impl Iterator<Item = Pose> + 'a {
        self.links.iter().map(move |l| frames[l.frame].compose(&l.local))
    }
}

/// One joint's sinusoid: offset + Σ amplitude·sin(harmonic·ω·t + phase).
#[derive(Debug, Clone, PartialEq)]
pub struct JointSinusoid {
    /// Constant term (radians).
    pub offset: f64,
    /// (amplitude in radians, harmonic multiplier of ω, phase in radians).
    pub terms: Vec<(f64, f64, f64)>,
}

/// Joint values over time.
#[derive(Debug, Clone, PartialEq)]
pub enum Trajectory {
    /// Periodic sums of sines.
    Sinusoids {
        /// Period T of the base frequency ω = 2π/T (seconds).
        period: f64,
        /// One entry per joint.
        joints: Vec<JointSinusoid>,
    },
    /// One joint vector per cycle (radians).
    Samples(Vec<Vec<f64>>),
}

impl Trajectory {
    /// Number of joints it drives.
    pub fn joint_count(&self) -> usize {
        match self {
            Trajectory::Sinusoids { joints, .. } => joints.len(),
            Trajectory::Samples(s) => s.first().map_or(0, Vec::len),
        }
    }

    /// Joint values at cycle `cycle` (time `cycle · dt`), written to `q`.
    pub fn at(&self, cycle: usize, dt: f64, q: &mut Vec<f64>) {
        q.clear();
        match self {
            Trajectory::Sinusoids { period, joints } => {
                let w = 2.0 * PI / period;
                let t = cycle as f64 * dt;
                for j in joints {
                    q.push(
                        j.offset + j.terms.iter().map(|&(a, h, p)| a * (h * w * t + p).sin()).sum::<f64>(),
                    );
                }
            }
            Trajectory::Samples(s) => {
                if let Some(row) = s.get(cycle.min(s.len().saturating_sub(1))) {
                    q.extend_from_slice(row);
                }
            }
        }
    }
}
