//! Batches: many configurations of a robot world, or many independent shape pairs, on a
//! thread pool, rows in input order.
//!
//! # The problem
//!
//! Given a [`crate::RobotWorld`] with P monitored pairs and N configurations q_1 … q_N
//! (row-major, N × dof), compute per configuration i the certified minimum signed distance
//! d_i = min_p d_p(q_i) with its pair, bracket and witnesses ([`BatchMode::Distance`]), every
//! d_p(q_i) ([`BatchMode::AllPairs`]), or only whether some pair touches or overlaps
//! ([`BatchMode::Collision`], stopping at the first colliding pair in pair order). With a
//! safety margin m: the minimum is computed exactly when d_i ≤ m and reported as `+∞` with the
//! proven bracket `[m, +∞]` otherwise (branch and bound stops at pairs whose bounding balls
//! are more than m apart, so distant configurations cost little); in collision mode the
//! verdict becomes "some pair is closer than m".
//!
//! # Parallelism and determinism
//!
//! The rows are cut into chunks of `chunk_size` consecutive configurations (default 64); each
//! worker thread owns one [`crate::RobotWorkspace`] and takes chunks in increasing order
//! (runner.rs). A chunk is the unit of cache locality (one worker, its workspace and the
//! chunk's configuration rows stay in its core's caches; its results are one contiguous block
//! of rows, so threads never write the same cache line), of scheduling (a few milliseconds of
//! work per message), of progress and of the CLI's checkpoints.
//!
//! Every row is a pure function of its configuration: queries start cold by default, and when
//! warm starts are asked for they are reset at the start of every chunk, so a row depends on
//! its chunk's earlier rows only, never on which thread ran which chunk. Results — every bit
//! of every distance — are therefore the same for any thread count (tested with 1, 2 and 3
//! threads), and a chunk computed alone ([`RobotBatch::run_chunks`], as in a resumed run) has
//! the bits it has in a whole run.
//!
//! # Edge cases
//!
//! Bad input is rejected before any query: invalid settings, a length that is not a multiple
//! of the dof, non-finite values, joint values outside their limits (unless the settings
//! clamp), shape indices out of range — the first bad configuration by index, as
//! [`crate::SceneError::Configuration`]. An empty batch gives empty arrays. A query that fails
//! during the run (an unsupported shape pair) reports the lowest failing configuration,
//! whatever the thread count.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use proxima_geom::Pose;
//! use proxima_robot::{LoadOptions, Robot};
//! use proxima_scene::RobotWorldBuilder;
//! use proxima_scene::batch::{BatchSettings, distances_batch};
//!
//! let urdf = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");
//! let panda = Arc::new(Robot::from_urdf_file(urdf, &LoadOptions::default())?);
//! let world = RobotWorldBuilder::new().robot(panda, Pose::identity(), "", "panda", None).build()?;
//! let q = [0.0, -0.5, 0.0, -2.0, 0.0, 1.6, 0.8, 0.02, /* second row */ 0.3, 0.2, 0.0, -1.5, 0.0, 1.2, 0.0, 0.01];
//! let result = distances_batch(&world, &q, &BatchSettings::default().with_threads(Some(2)), None)?;
//! assert_eq!(result.len(), 2);
//! for i in 0..2 {
//!     assert!(result.lower[i] <= result.min_distance[i] && result.min_distance[i] <= result.upper[i]);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod pairs;
mod robot;
mod runner;
mod settings;

pub use pairs::{PairBatchResult, PairBatchSettings, PairOp, ShapePairQuery, shape_pairs_batch};
pub use robot::{BatchProgress, BatchResult, NO_PAIR, RobotBatch, distances_batch};
pub use runner::thread_count;
pub use settings::{BatchMode, BatchSettings, DEFAULT_CHUNK_SIZE};
