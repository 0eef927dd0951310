//! Continuous collision: the certified time of impact of two convex shapes in rigid motion.
//!
//! # The problem
//!
//! Shapes A and B move by [`RigidMotion`]s (a centre on a straight line, constant angular
//! velocity about it; the benchmark's "linear translation + slerp" is
//! [`RigidMotion::from_poses`]). With d(t) the distance between A(t) and B(t), the time of
//! impact over [t₀, t₁] is the smallest t with d(t) ≤ margin (touching counts), or none.
//!
//! # Conservative advancement as a proof
//!
//! Every distance query returns a *proven* lower bound L ≤ d(t) (its certificate), and every
//! point of a body moves at most |v| + |ω|·r per unit time (r = the body's reach from its
//! rotation centre), so |d'| ≤ R = |v_B − v_A| + |ω_A| r_A + |ω_B| r_B and no contact can occur
//! before t + (L − margin)/R. Advancing by such steps can never step over a contact: the
//! search does not tunnel, whatever the speed or the thinness of the shapes. Two sharper
//! certificates along the witness normal n (a first-order bound of the separation's rate
//! along n, exact for translations, and a second-order chord bound for turning bodies whose
//! loss vanishes quadratically near contact) lengthen the steps; each is equally a proof
//! (`advance.rs`, `arc_bound.rs`). Bounds are lowered by a round-off allowance, rates rounded
//! up, and a step whose end time rounds past the proven end is moved down an ulp. The distance
//! queries are warm-started along the motion (one GJK cache for the whole search).
//!
//! # Outcomes
//!
//! * [`ToiOutcome::InitialContact`]: within the margin at t₀ — time of impact t₀, with the
//!   signed distance (penetration depth) and its bracket. Shapes apart by at most the margin
//!   plus the distance tolerance get [best separation along the directions at hand, witness
//!   distance] (its width is within GJK's tolerance; the value is 0 unless separation is
//!   proven); overlapping ones their depth, as [`signed_distance`](crate::signed_distance)
//!   measures it but to the search's tolerance: the depth bracket is proven, and at most
//!   max(`distance_tolerance`, the GJK tolerance) × the problem's scale wide
//!   ([`ToiSettings::initial_depth`]).
//! * [`ToiOutcome::Hit`]: a bracket [t_safe, t_hit]: d > margin on [t₀, t_safe) is proven and
//!   d(t_hit) ≤ margin + tolerance is proven (witness points, contact normal).
//! * [`ToiOutcome::Miss`]: no contact on [t₀, t₁], with the last certified bound of the chain.
//! * [`ToiOutcome::Undecided`]: the step cap ([`ToiStatus::MaxIterations`]) or no progress in
//!   f64 ([`ToiStatus::Stalled`]); [t₀, t_safe) is still proven free. Never reported as a miss.
//!
//! # Edge cases and errors
//!
//! * t₀ = t₁ is a static test (a hit at t₀ or a miss).
//! * Bad input is an error: NaN/∞ in motions ([`RigidMotion`]'s constructors), poses that are
//!   not rotations or quaternions that are not unit ([`Pose`](crate::Pose)), a time range with
//!   t₁ < t₀ or non-finite ends, a negative or non-finite margin, bad tolerances
//!   ([`ToiSettings::validate`]); lines (unbounded) are [`GeomError::Unsupported`].
//! * Every pair of bounded shapes is supported: the search only needs the distance query and
//!   support functions.
//!
//! # Example: a fast pellet through a thin plate
//!
//! ```
//! use proxima_geom::query::toi::{RigidMotion, ToiOutcome, ToiSettings, time_of_impact};
//! use proxima_geom::shape::{Cuboid, Sphere};
//! use proxima_geom::{Pose, Shape};
//!
//! let plate = Shape::Cuboid(Cuboid::new([1.0, 1.0, 0.001])?);
//! let pellet = Shape::Sphere(Sphere::new(0.01)?);
//! let still = RigidMotion::stationary(Pose::identity());
//! // From 20 below to 20 above the plate in one time unit: both end poses are far from it.
//! let shot = RigidMotion::from_poses(
//!     &Pose::from_translation([0.0, 0.0, -20.0])?,
//!     &Pose::from_translation([0.0, 0.0, 20.0])?,
//! )?;
//! let r = time_of_impact(&plate, &still, &pellet, &shot, &ToiSettings::default())?;
//! let ToiOutcome::Hit(hit) = r.outcome else { panic!("the pellet crosses the plate") };
//! // Contact when the pellet's centre is 0.011 below the plate's centre plane.
//! let expected = (20.0 - 0.011) / 40.0;
//! assert!(hit.t_safe <= expected && (hit.t_hit - expected).abs() < 1e-9);
//! # Ok::<(), proxima_geom::GeomError>(())
//! ```

mod advance;
mod chord;
mod direction;
mod extent;
mod motion;
mod result;
mod settings;
mod start;

pub use motion::RigidMotion;
pub use result::{ToiHit, ToiInitialContact, ToiMiss, ToiOutcome, ToiResult, ToiStatus, ToiUndecided};
pub use settings::ToiSettings;

use crate::error::GeomError;
use crate::shape::Shape;

/// The time of impact of `a` moving by `motion_a` and `b` moving by `motion_b` over
/// `[settings.start_time, settings.end_time]`: the first time their distance drops to
/// `settings.margin`, certified (see the module docs).
///
/// Errors: invalid settings, an unbounded shape (a line), motion bounds that overflow, and
/// the distance query's errors.
pub fn time_of_impact(
    a: &Shape,
    motion_a: &RigidMotion,
    b: &Shape,
    motion_b: &RigidMotion,
    settings: &ToiSettings,
) -> Result<ToiResult, GeomError> {
    advance::time_of_impact(a, motion_a, b, motion_b, settings)
}
