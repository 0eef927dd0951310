//! Convex proximity queries with certificates: the distance between two convex shapes, with
//! witness points and a *proven* bracket `[lower, upper]` of the true distance, and
//! test-intersection — by closed forms or by LCP-formulated kernels that can run exactly.
//!
//! # Contents
//!
//! | module / item | what |
//! |---|---|
//! | [`shape`] | the shapes ([`Shape`]: point, segment, line, triangle, cuboid, aligned box, sphere, capsule, cylinder, ellipsoid, convex polytope (with hull adjacency for hill climbing), polyhedron, cone, rounded shape, Minkowski sum), validated constructors, support functions |
//! | [`Pose`] | rigid placement world = R·local + t (validated rotation) |
//! | [`query`] | [`distance`], [`intersects`], [`QuerySettings`], the result types ([`Proximity`], [`Certificate`], [`DistanceResult`], [`Intersection`]) and the pair table |
//! | [`gjk`] | support maps, GJK distance (certified duality gap, warm start, Nesterov/Polyak options), boolean early exit, EPA penetration depth with a bracket |
//! | [`time_of_impact`] ([`query::toi`]) | continuous collision: the certified first time of contact of two moving shapes ([`RigidMotion`], [`ToiSettings`], [`ToiResult`]), conservative advancement that never tunnels |
//! | [`distance_tracked`], [`signed_distance`] | warm-started tracking with a [`GjkCache`]; signed distance (penetration depth) with a bracket |
//! | [`lcp_queries`] | the LCP kernels (box–box, point–box, triangle–box, segment/line–triangle, point–polytope, triangle–cylinder), generic over the scalar (`f64`, exact `Rational`) |
//! | [`GeomError`] | why an input was rejected, or a pair is unsupported |
//!
//! # Should I use this?
//!
//! Use it when you need a distance you can *trust*: every answer carries witness points (an
//! upper bound) and a separating-direction lower bound computed independently from the
//! shapes' support functions, and LCP-formulated pairs can be re-solved exactly in rational
//! arithmetic when the float answer is not certified (or always, with [`Arithmetic::Exact`]).
//! Bad input is an `Err`, never a panic or a silent NaN.
//!
//! Every pair of bounded shapes has a distance, an intersection test and a signed distance
//! (closed forms and LCP kernels where they exist, GJK/EPA otherwise). Lines pair only with
//! the closed forms and the line–triangle kernel; other line pairs return
//! [`GeomError::Unsupported`] rather than a guess. Not yet: many-object scenes.
//!
//! # Three kinds of outcome
//!
//! * Bad input (NaN/∞, non-positive extents, degenerate shapes, non-rotations, invalid
//!   settings) → `Err(`[`GeomError`]`)`, checked once by constructors and by the query.
//! * The geometric answer → [`Proximity`]: `Separated { distance, point_a, point_b, normal }`,
//!   `Touching { point }` or `Intersecting { point, depth }`.
//! * How it was obtained → [`Algorithm`] and [`QueryPath`] (closed form, certified float LCP,
//!   exact re-solve, exact).
//!
//! # Example: box–box distance with its certificate
//!
//! ```
//! use proxima_geom::shape::Cuboid;
//! use proxima_geom::{Algorithm, Pose, Proximity, QuerySettings, Shape, distance};
//!
//! let unit_box = Shape::Cuboid(Cuboid::new([1.0, 1.0, 1.0])?);
//! let a = Pose::identity();
//! let b = Pose::from_translation([3.5, 0.25, 0.0])?;
//!
//! let r = distance(&unit_box, &a, &unit_box, &b, &QuerySettings::default())?;
//! assert_eq!(r.algorithm, Algorithm::Lcp);
//! let Proximity::Separated { distance, point_a, point_b, normal } = r.proximity else {
//!     panic!("the boxes are 1.5 apart")
//! };
//! assert!((distance - 1.5).abs() < 1e-12);
//! assert!((point_a.x - 1.0).abs() < 1e-12 && (point_b.x - 2.5).abs() < 1e-12);
//! assert!((normal.x - 1.0).abs() < 1e-12);
//! // The proven bracket: lower ≤ true distance ≤ upper, and its width.
//! assert!(r.certificate.lower <= distance && distance <= r.certificate.upper);
//! assert!(r.certificate.gap() <= 1e-9);
//! # Ok::<(), proxima_geom::GeomError>(())
//! ```
#![deny(missing_docs)]

pub mod dqp3;
pub mod ellipsoid;
mod error;
pub mod fuzz;
pub mod gjk;
pub mod lcp_queries;
pub mod lp_polytope;
mod pose;
pub mod query;
pub mod sat_cylinder;
pub mod shape;
#[cfg(test)]
mod test_sequence;

pub use error::GeomError;
pub use gjk::{Acceleration, GjkCache, GjkSettings, GjkStatus};
pub use pose::{Pose, QUATERNION_TOLERANCE, ROTATION_TOLERANCE};
pub use query::toi::{RigidMotion, ToiOutcome, ToiResult, ToiSettings, ToiStatus, time_of_impact};
pub use query::{
    Algorithm, Arithmetic, Certificate, DistanceResult, Dqp3ShapeTracker, FacetShape, Intersection,
    PreparedPair, Proximity, QueryPath, QuerySettings, SignedDistance, distance, distance_facet_shapes,
    distance_tracked, intersects, signed_distance,
};
pub use shape::{Shape, ShapeKind};

/// The repository README's geometry example, compiled and run as a doctest of this crate
/// (only under `cargo test`: the README lies outside the published package).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct RepositoryReadme;
