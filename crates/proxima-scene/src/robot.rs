//! Hand-written serial arms and joint trajectories, moved to `proxima-robot`
//! ([`proxima_robot::serial`], [`proxima_robot::trajectory`]) and re-exported here for one
//! release under their old names. New code: use `proxima_robot` directly (URDF robots are
//! [`proxima_robot::Robot`]).

pub use proxima_robot::serial::{Axis, Joint, Link, SerialArm as RobotModel};
pub use proxima_robot::trajectory::{JointSinusoid, Trajectory};
