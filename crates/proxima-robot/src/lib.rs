//! Robot models for proximity queries: URDF and SRDF descriptions, collision meshes turned
//! into exact convex hulls, forward kinematics with joint limits and mimic joints, and motion
//! bounds from joint deltas or velocity limits.
//!
//! # Contents
//!
//! | module / item | what |
//! |---|---|
//! | [`urdf`] | [`parse_urdf`]: links, collision elements (box, cylinder, sphere, capsule, mesh with scale), joints (revolute, continuous, prismatic, fixed, mimic), limits, with line numbers |
//! | [`srdf`] | [`Srdf`]: `disable_collisions`, `disable_default_collisions`, `enable_collisions` |
//! | [`resolve`] | `package://`, `file://` and relative mesh URIs through package directories |
//! | [`mesh`] | STL (binary/ASCII) and COLLADA through `mesh-loader`, OBJ with objects in f64 |
//! | [`hull`] | exact convex hulls per mesh part, cached per file ([`MeshCache`]); flat meshes flagged |
//! | [`support`] | [`HullSupport`]: the hulls' support function by a direction table and hill climbing (for GJK) |
//! | [`model`] | [`Robot`]: the kinematic tree, configuration order, limits, geometry pieces, forward kinematics |
//! | [`motion`] | [`MotionBounds`]: per-link displacement bounds from joint deltas and speed bounds from velocity limits |
//! | [`serial`] | hand-written serial arms ([`SerialArm`]) for the spec's workcells |
//! | [`trajectory`] | [`Trajectory`]: sinusoids, per-cycle samples, timed waypoints |
//! | [`RobotError`] | why an input was rejected |
//!
//! Pair rules (which link pairs are checked) and the distance queries themselves live in
//! `proxima-scene`, which builds on this crate.
//!
//! # Should I use this?
//!
//! Use it to turn a robot description into convex collision geometry you can trust: every
//! mesh becomes its exact convex hull (every mesh vertex is on or inside it by exact
//! predicates — not the mesh wrapped as if it were convex), errors name the file, element and
//! line, and forward kinematics follows the URDF conventions. It does not compute dynamics.
//!
//! # Example
//!
//! ```
//! use proxima_robot::{LimitPolicy, LoadOptions, Robot, parse_urdf};
//! use proxima_geom::Pose;
//!
//! let urdf = r#"<robot name="two">
//!   <link name="base"><collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
//!   <link name="arm"><collision><origin xyz="0.25 0 0"/><geometry><cylinder radius="0.03" length="0.5"/></geometry></collision></link>
//!   <joint name="shoulder" type="revolute">
//!     <parent link="base"/><child link="arm"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>
//!     <limit lower="-1.57" upper="1.57" velocity="2"/>
//!   </joint>
//! </robot>"#;
//! let desc = parse_urdf(urdf, "two.urdf")?;
//! let robot = Robot::from_description(&desc, None, &LoadOptions::default(), &mut Default::default())?;
//! assert_eq!(robot.joint_names(), ["shoulder"]);
//! let (mut q, mut poses) = (Vec::new(), Vec::new());
//! robot.link_poses(&Pose::identity(), &[0.5], LimitPolicy::Reject, &mut q, &mut poses)?;
//! assert!((poses[1].translation().z - 0.1).abs() < 1e-15);
//! // outside the limits: an error unless clamping is asked for
//! assert!(robot.link_poses(&Pose::identity(), &[2.0], LimitPolicy::Reject, &mut q, &mut poses).is_err());
//! # Ok::<(), proxima_robot::RobotError>(())
//! ```
#![deny(missing_docs)]

mod error;
pub mod hull;
pub mod mesh;
pub mod model;
pub mod motion;
pub mod resolve;
pub mod serial;
pub mod srdf;
pub mod support;
pub mod trajectory;
pub mod urdf;
mod xml;

mod fuzz;
pub use fuzz::fuzz_readers;

pub use error::RobotError;
pub use hull::{DegenerateMeshes, MeshCache};
pub use mesh::MeshParts;
pub use model::{
    Geometry, GeometrySource, Joint, JointDrive, JointLimits, LimitPolicy, Link, LoadOptions, Robot,
};
pub use motion::MotionBounds;
pub use serial::SerialArm;
pub use srdf::Srdf;
pub use support::HullSupport;
pub use trajectory::{JointSinusoid, Trajectory};
pub use urdf::{JointKind, UrdfRobot, parse_urdf};
