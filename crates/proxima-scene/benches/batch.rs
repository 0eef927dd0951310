//! Batch engine benchmarks (divan) on the shipped Panda: 4096 seeded configurations uniform in
//! the joint limits (as the robot benchmark's workloads) per iteration, the proven minimum
//! distance and the early-exit collision verdict, on 1 and 2 threads (chunks of 64). Divide the
//! time by 4096 for the time per configuration; the 2-thread row over the 1-thread row is the
//! parallel speed-up (docs/scale-out.md has the end-to-end numbers beside Pinocchio + coal and
//! Ray).
//!
//! Run: `cargo bench -p proxima-scene --bench batch`.

use std::sync::Arc;

use divan::Bencher;
use proxima_geom::Pose;
use proxima_robot::{LoadOptions, Robot};
use proxima_scene::batch::{BatchMode, BatchSettings, distances_batch};
use proxima_scene::{RobotWorld, RobotWorldBuilder};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");
const N: usize = 4096;

fn main() {
    divan::main();
}

fn panda() -> (RobotWorld, Vec<f64>) {
    let robot = Robot::from_urdf_file(PANDA, &LoadOptions::default()).unwrap();
    let limits = robot.position_limits();
    let world =
        RobotWorldBuilder::new().robot(Arc::new(robot), Pose::identity(), "", "panda", None).build().unwrap();
    let mut rng = SmallRng::seed_from_u64(20);
    let q = (0..N).flat_map(|_| limits.iter().map(|&(lo, hi)| rng.random_range(lo..=hi)).collect::<Vec<_>>());
    (world, q.collect())
}

fn run(bencher: Bencher, settings: BatchSettings) {
    let (world, q) = panda();
    bencher.bench_local(|| divan::black_box(distances_batch(&world, &q, &settings, None).unwrap().queries));
}

/// Minimum distance per configuration (branch and bound), 4096 configurations.
#[divan::bench(args = [1, 2], sample_count = 10)]
fn panda_minimum_4096(bencher: Bencher, threads: usize) {
    run(bencher, BatchSettings::default().with_threads(Some(threads)));
}

/// In collision or not, first colliding pair (early exit), 4096 configurations.
#[divan::bench(args = [1, 2], sample_count = 10)]
fn panda_collision_4096(bencher: Bencher, threads: usize) {
    run(bencher, BatchSettings::default().with_threads(Some(threads)).with_mode(BatchMode::Collision));
}
