//! Robot query benchmarks (divan) on the shipped Panda description: one configuration's 42
//! self pairs (forward kinematics included) as every pair's certified distance, as the proven
//! minimum only (branch and bound), and as collision verdicts; the demo's two-Panda cell cycle
//! with triage. Configurations are seeded uniform samples within the joint limits, as in the
//! robot benchmark's workloads (`../shared/bench/robot`, compared with Pinocchio + coal by
//! `proxima bench-robot`).
//!
//! Run: `cargo bench -p proxima-scene --bench robot`.

use std::path::Path;
use std::sync::Arc;

use divan::Bencher;
use proxima_geom::Pose;
use proxima_robot::{LoadOptions, Robot};
use proxima_scene::{
    DistanceMode, RobotQuerySettings, RobotWorld, RobotWorldBuilder, ScheduleSettings, Scheduler,
    TrackedQuery, workcell,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");

fn main() {
    divan::main();
}

fn panda_world() -> (RobotWorld, Vec<Vec<f64>>) {
    let robot = Robot::from_urdf_file(PANDA, &LoadOptions::default()).unwrap();
    let limits = robot.position_limits();
    let world =
        RobotWorldBuilder::new().robot(Arc::new(robot), Pose::identity(), "", "panda", None).build().unwrap();
    let mut rng = SmallRng::seed_from_u64(1);
    let configs =
        (0..1000).map(|_| limits.iter().map(|&(lo, hi)| rng.random_range(lo..=hi)).collect()).collect();
    (world, configs)
}

fn per_config(bencher: Bencher, f: impl Fn(&RobotWorld, &[f64], &mut proxima_scene::RobotWorkspace) -> f64) {
    let (world, configs) = panda_world();
    let mut ws = world.workspace();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % configs.len();
        divan::black_box(f(&world, &configs[i], &mut ws))
    });
}

/// Every pair's certified signed distance (the robot benchmark's `distances` section).
#[divan::bench(sample_count = 2000, sample_size = 1)]
fn panda_all_pairs_distances(bencher: Bencher) {
    let s = RobotQuerySettings::default().with_warm_start(false);
    per_config(bencher, |w, q, ws| {
        w.distances(q, ws, &s, DistanceMode::AllPairs).unwrap().closest.unwrap().distance
    });
}

/// The proven minimum only (branch and bound on bounding balls).
#[divan::bench(sample_count = 2000, sample_size = 1)]
fn panda_minimum_distance(bencher: Bencher) {
    let s = RobotQuerySettings::default().with_warm_start(false);
    per_config(bencher, |w, q, ws| {
        w.distances(q, ws, &s, DistanceMode::Minimum).unwrap().closest.unwrap().distance
    });
}

/// Every pair's collision verdict, no early exit (the benchmark's `collisions` section).
#[divan::bench(sample_count = 2000, sample_size = 1)]
fn panda_collisions(bencher: Bencher) {
    let s = RobotQuerySettings::default();
    per_config(bencher, |w, q, ws| w.collisions(q, ws, &s).unwrap().colliding.len() as f64);
}

/// One 1 kHz cycle of the demo's two-Panda cell (forward kinematics, triage, tracked queries).
#[divan::bench(sample_count = 4000, sample_size = 1)]
fn two_panda_cell_cycle(bencher: Bencher) {
    let mut cell = workcell::panda_cell(Path::new(PANDA)).unwrap();
    let mut sched =
        Scheduler::new(TrackedQuery::default(), ScheduleSettings::default(), &cell.world, &cell.pairs)
            .unwrap();
    let mut c = 0usize;
    for _ in 0..50 {
        cell.set_cycle(c).unwrap();
        sched.run_cycle(&cell.world).unwrap();
        c += 1;
    }
    bencher.bench_local(|| {
        cell.set_cycle(c % cell.cycles).unwrap();
        c += 1;
        divan::black_box(sched.run_cycle(&cell.world).unwrap().min_distance())
    });
}
