//! proxima-robot tests, one binary: URDF and SRDF reading, meshes and package resolution,
//! hulls (the non-convex-mesh trap), kinematics against Pinocchio's numbers, motion bounds by
//! sampling, bad input, and the readers under a seeded mutation corpus.

mod bad_input;
mod fuzz;
mod hull_trap;
mod kinematics;
mod mesh;
mod srdf;
mod support;
mod urdf;
