//! Serial robot arms given by hand (no URDF): revolute joints along a chain about x, y or z,
//! convex links fixed to the chain's frames, forward kinematics. (Moved here from
//! `proxima-scene`, which re-exports it for one release.)
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

use nalgebra::{Matrix3, Vector3};
use proxima_geom::{Pose, Shape};

use crate::error::RobotError;

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
pub struct SerialArm {
    /// Pose of frame 0 in the world.
    pub base: Pose,
    /// Joints, in chain order.
    pub joints: Vec<Joint>,
    /// Links.
    pub links: Vec<Link>,
}

impl SerialArm {
    /// Checks that every link's frame exists, offsets are finite and link names are unique.
    pub fn validate(&self) -> Result<(), RobotError> {
        for (j, joint) in self.joints.iter().enumerate() {
            if joint.offset.iter().any(|x| !x.is_finite()) {
                return Err(RobotError::invalid(format!("joints[{j}].offset"), "must be finite"));
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            if l.frame > self.joints.len() {
                return Err(RobotError::invalid(
                    format!("links[{i}].frame"),
                    format!("frame {} does not exist (the arm has {} joints)", l.frame, self.joints.len()),
                ));
            }
            if self.links[..i].iter().any(|o| o.name == l.name) {
                return Err(RobotError::invalid(format!("links[{i}].name"), "duplicate link name"));
            }
        }
        Ok(())
    }

    /// Frames F_0…F_n for joint values `q` (radians), written to `frames`.
    pub fn frames(&self, q: &[f64], frames: &mut Vec<Pose>) -> Result<(), RobotError> {
        if q.len() != self.joints.len() {
            return Err(RobotError::invalid(
                "q",
                format!("{} joint values for {} joints", q.len(), self.joints.len()),
            ));
        }
        if q.iter().any(|x| !x.is_finite()) {
            return Err(RobotError::invalid("q", "joint values must be finite"));
        }
        frames.clear();
        frames.push(self.base);
        for (joint, &qk) in self.joints.iter().zip(q) {
            let prev = frames.last().expect("frame 0 is pushed first");
            let r = prev.rotation();
            let t = prev.translation() + r * Vector3::from(joint.offset);
            let rot = r * joint.axis.rotation(qk);
            frames.push(Pose::from_matrix(rot, t).map_err(|source| RobotError::geometry("frames", source))?);
        }
        Ok(())
    }

    /// World poses of the links for the frames computed by [`SerialArm::frames`].
    pub fn link_poses<'a>(&'a self, frames: &'a [Pose]) -> impl Iterator<Item = Pose> + 'a {
        self.links.iter().map(move |l| frames[l.frame].compose(&l.local))
    }
}
