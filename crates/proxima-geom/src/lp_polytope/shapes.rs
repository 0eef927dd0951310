//! 3-D convenience: [`ConvexPolytope`] shapes placed by a [`Pose`].
//!
//! The vertices are mapped to the world frame in `f64` (world = R·local + t); the exact
//! variants then decide exactly *for those rounded world coordinates* (a rotation is applied
//! in floating point first).

use proxima_lcp::Rational;

use super::{
    ContainmentResult, LpCollision, LpCollisionSettings, collide_exact, collide_f64, is_subset_of_exact,
    is_subset_of_f64,
};
use crate::error::GeomError;
use crate::pose::Pose;
use crate::shape::ConvexPolytope;

/// The vertices of `polytope` placed by `pose`, in the world frame.
pub fn world_vertices(polytope: &ConvexPolytope, pose: &Pose) -> Vec<[f64; 3]> {
    polytope
        .vertices()
        .iter()
        .map(|v| {
            let w = pose.transform_point(v);
            [w.x, w.y, w.z]
        })
        .collect()
}

/// Vertex-LP collision test of two placed convex polytopes (`f64`, exact fallback per
/// settings). Weights refer to the polytopes' vertex order.
pub fn collide_polytopes(
    a: &ConvexPolytope,
    pose_a: &Pose,
    b: &ConvexPolytope,
    pose_b: &Pose,
    settings: &LpCollisionSettings,
) -> Result<LpCollision<f64>, GeomError> {
    collide_f64(&world_vertices(a, pose_a), &world_vertices(b, pose_b), settings)
}

/// Exact vertex-LP collision test of two placed convex polytopes (world coordinates
/// converted exactly to [`Rational`]).
pub fn collide_polytopes_exact(
    a: &ConvexPolytope,
    pose_a: &Pose,
    b: &ConvexPolytope,
    pose_b: &Pose,
    settings: &LpCollisionSettings,
) -> Result<LpCollision<Rational>, GeomError> {
    collide_exact(&world_vertices(a, pose_a), &world_vertices(b, pose_b), settings)
}

/// Containment of placed polytope `a` in placed polytope `b` (`f64`, exact fallback per
/// settings).
pub fn polytope_is_subset_of(
    a: &ConvexPolytope,
    pose_a: &Pose,
    b: &ConvexPolytope,
    pose_b: &Pose,
    settings: &LpCollisionSettings,
) -> Result<ContainmentResult<f64>, GeomError> {
    is_subset_of_f64(&world_vertices(a, pose_a), &world_vertices(b, pose_b), settings)
}

/// Exact containment of placed polytope `a` in placed polytope `b`.
pub fn polytope_is_subset_of_exact(
    a: &ConvexPolytope,
    pose_a: &Pose,
    b: &ConvexPolytope,
    pose_b: &Pose,
    settings: &LpCollisionSettings,
) -> Result<ContainmentResult<Rational>, GeomError> {
    is_subset_of_exact(&world_vertices(a, pose_a), &world_vertices(b, pose_b), settings)
}
