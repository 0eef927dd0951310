//! Many convex objects monitored every cycle: a world of posed shapes, a sweep-and-prune
//! broadphase, pair lists from include/exclude rules, per-pair trackers behind one trait, and
//! the triage scheduler of `multi-object-workcell.md` with a motion-bound safety proof; robots
//! from URDF descriptions (`proxima-robot`) with their self-collision pair rules and
//! per-configuration distance queries, swept checks that certify motions between
//! configurations and between cycles, the spec's W25 workcell, a two-Panda cell and scaled
//! scenes, and JSON scene files.
//!
//! # Contents
//!
//! | module | what |
//! |---|---|
//! | [`world`] | [`World`]: objects (shape, pose, AABB, motion odometer) |
//! | [`bounds`] | AABBs from support functions, shape radius, the motion bound of a pose change |
//! | [`broadphase`] | [`SweepAndPrune`] over the AABBs |
//! | [`pairs`] | [`PairRules`] (include / exclude selectors, same-group and adjacent-link exclusion) |
//! | [`query`] | [`PairQuery`], the narrow-phase seam with per-pair warm state; [`ColdQuery`], [`TrackedQuery`] (GJK warm start per pair) |
//! | [`schedule`] | [`Scheduler`]: mandatory / exact-minimum / refresh triage, [`CycleReport`] |
//! | [`robot`] | re-export of `proxima_robot`'s serial arms ([`RobotModel`]) and [`Trajectory`] (moved there) |
//! | [`robot_world`] | [`RobotWorld`]: robots from descriptions with base poses, obstacles, bodies and pieces, [`RobotPairRules`] (all but adjacent, SRDF, include/exclude) |
//! | [`robot_query`] | per-configuration queries: every pair's or the minimum certified distance with witnesses, collision verdicts ([`RobotWorkspace`] per thread) |
//! | [`chain`] | [`KinematicChain`]: body poses at a configuration and body speed bounds from joint rates, for serial arms and [`PlacedRobot`] (the seam to robot models) |
//! | [`swept`] | swept checks: [`certify_segment`] (a straight joint-space segment proven collision-free), [`Workcell::certify_interval`] / [`Workcell::swept_check`] (the motion between cycles, not only the sampled poses) |
//! | [`workcell`] | [`Workcell`]: robots + objects + pairs; [`workcell::w25`], [`workcell::panda_cell`], [`workcell::scaled`] |
//! | [`batch`] | many configurations ([`batch::RobotBatch`], [`batch::distances_batch`]) or shape pairs ([`batch::shape_pairs_batch`]) on a thread pool, rows in input order, the same bits for any thread count |
//! | [`scene_file`] | [`parse_scene`], [`parse_scene_file`]: JSON scene files (robots by URDF too) with errors naming the field |
//!
//! # Should I use this?
//!
//! Use it to monitor the distances between a robot and its surroundings at a fixed rate with a
//! guarantee: a pair whose distance could have dropped to the safety margin is queried in that
//! cycle, and (by default) the reported minimum is proven to be the minimum over all pairs.
//! Distances come from [`proxima_geom::distance`] (certified); which shape pairs work is that
//! crate's pair table.
//!
//! # Example: a robot's self-distances at one configuration
//!
//! ```
//! use std::sync::Arc;
//! use proxima_geom::Pose;
//! use proxima_robot::{LoadOptions, Robot};
//! use proxima_scene::{DistanceMode, RobotQuerySettings, RobotWorldBuilder};
//!
//! let urdf = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");
//! let panda = Arc::new(Robot::from_urdf_file(urdf, &LoadOptions::default())?);
//! let world = RobotWorldBuilder::new().robot(panda, Pose::identity(), "", "panda", None).build()?;
//! assert_eq!(world.pairs().len(), 42); // all link pairs but parent-child ones
//! let mut ws = world.workspace(); // per thread; the world is shared
//! let q = [0.0, -0.5, 0.0, -2.0, 0.0, 1.6, 0.8, 0.02];
//! let report = world.distances(&q, &mut ws, &RobotQuerySettings::default(), DistanceMode::Minimum)?;
//! let closest = report.closest.unwrap();
//! assert_eq!(world.pair_names(closest.pair), ("panda_link5", "panda_link7"));
//! assert!(closest.lower <= closest.distance && closest.distance <= closest.upper);
//! assert!(!report.in_collision);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Example: the W25 workcell, one second at 1 kHz
//!
//! ```
//! use proxima_scene::{ColdQuery, ScheduleSettings, Scheduler, workcell};
//!
//! let mut cell = workcell::w25(workcell::PrismModel::BoundingBox, false)?;
//! assert_eq!(cell.pairs.len(), 25);
//! let mut sched = Scheduler::new(ColdQuery::default(), ScheduleSettings::default(), &cell.world, &cell.pairs)?;
//! let mut min = f64::INFINITY;
//! for c in 0..1000 {
//!     cell.set_cycle(c)?;
//!     let report = sched.run_cycle(&cell.world)?;
//!     min = min.min(report.min_distance().unwrap());
//! }
//! assert!(min > 0.0 && min < 0.05); // the forearm passes the obstacle 4.7 cm away at t = 0.172 s
//! # Ok::<(), proxima_scene::SceneError>(())
//! ```
#![deny(missing_docs)]

pub mod batch;
pub mod bounds;
pub mod broadphase;
pub mod chain;
mod error;
pub mod pairs;
pub mod query;
pub mod robot;
pub mod robot_query;
pub mod robot_world;
pub mod scene_file;
pub mod schedule;
pub mod swept;
pub mod workcell;
pub mod world;

pub use broadphase::SweepAndPrune;
pub use chain::{KinematicChain, PlacedRobot};
pub use error::SceneError;
pub use pairs::{Pair, PairRules, Selector};
pub use query::{ColdQuery, PairQuery, TrackedQuery};
pub use robot::{Axis, Joint, Link, RobotModel, Trajectory};
pub use robot_query::{
    CollisionReport, DistanceMode, DistanceReport, FirstCollision, PairDistance, RobotQuerySettings,
    RobotWorkspace,
};
pub use robot_world::{RobotPairRules, RobotWorld, RobotWorldBuilder, SelfCollision};
pub use scene_file::{parse_scene, parse_scene_file, parse_scene_in};
pub use schedule::{CycleReport, Reason, ScheduleSettings, Scheduler, brute_force_minimum};
pub use swept::{IntervalReport, Obstacle, SegmentReport, SweptSettings, SweptVerdict, certify_segment};
pub use workcell::Workcell;
pub use world::{ObjectId, World};
