//! Workcell cycle benchmarks (divan): the spec's W25 cycle (14 links, 25 pairs, forward
//! kinematics included) with triage and with every pair every cycle, the pairs alone through
//! cold queries, the scaled multi-robot scene (100 obstacles), and the spec's S(N) scenes.
//!
//! Run: `cargo bench -p proxima-scene --bench workcell`. Each sample is one cycle; the cycle
//! index advances through the 1 kHz trajectory so warm/triage state evolves as in the demo.

use divan::Bencher;
use proxima_scene::workcell::{self, PrismModel};
use proxima_scene::{ColdQuery, ScheduleSettings, Scheduler, Workcell, brute_force_minimum};

fn main() {
    divan::main();
}

fn run(bencher: Bencher, mut cell: Workcell, settings: ScheduleSettings) {
    let mut sched = Scheduler::new(ColdQuery::default(), settings, &cell.world, &cell.pairs).unwrap();
    let period = cell.cycles;
    let mut c = 0usize;
    // settle the scheduler's bounds before timing
    for _ in 0..50 {
        cell.set_cycle(c % period).unwrap();
        sched.run_cycle(&cell.world).unwrap();
        c += 1;
    }
    bencher.bench_local(|| {
        cell.set_cycle(c % period).unwrap();
        c += 1;
        divan::black_box(sched.run_cycle(&cell.world).unwrap().min_distance())
    });
}

/// W25 with triage (default settings: margin 2 cm, exact minimum, 8 refreshes per cycle).
#[divan::bench(sample_count = 2000, sample_size = 1)]
fn w25_cycle_triage(bencher: Bencher) {
    run(bencher, workcell::w25(PrismModel::BoundingBox, false).unwrap(), ScheduleSettings::default());
}

/// W25 with all 25 pairs queried every cycle (margin = ∞ makes every pair mandatory).
#[divan::bench(sample_count = 2000, sample_size = 1)]
fn w25_cycle_all_pairs(bencher: Bencher) {
    let settings = ScheduleSettings { margin: 1e9, ..ScheduleSettings::default() };
    run(bencher, workcell::w25(PrismModel::BoundingBox, false).unwrap(), settings);
}

/// The 25 pairs as plain cold queries (no kinematics, no scheduler): the query cost floor.
#[divan::bench(sample_count = 2000, sample_size = 1)]
fn w25_pairs_cold_only(bencher: Bencher) {
    let mut cell = workcell::w25(PrismModel::BoundingBox, false).unwrap();
    let pairs = cell.pairs.clone();
    let mut c = 0usize;
    bencher
        .with_inputs(|| {
            cell.set_cycle(c % 4000).unwrap();
            c += 37;
            cell.world.clone()
        })
        .bench_local_refs(|world| {
            divan::black_box(brute_force_minimum(&ColdQuery::default(), world, &pairs))
        });
}

/// Three W25 arms (42 links) among 100 obstacles + their fixtures and the floor, with triage.
#[divan::bench(sample_count = 500, sample_size = 1)]
fn scaled_3_robots_100_obstacles(bencher: Bencher) {
    run(bencher, workcell::scaled(3, 100, PrismModel::BoundingBox).unwrap(), ScheduleSettings::default());
}

/// Spec §7.8 budget test S(N): one arm, 25 + 14·N pairs, every pair every cycle (no triage).
#[divan::bench(args = [36, 100], sample_count = 300, sample_size = 1)]
fn s_n_all_pairs(bencher: Bencher, n: usize) {
    let settings = ScheduleSettings { margin: 1e9, max_queries: usize::MAX, ..ScheduleSettings::default() };
    run(bencher, workcell::scaled(1, n, PrismModel::BoundingBox).unwrap(), settings);
}

/// S(200) (2825 pairs) with triage, the spec's §9 check 8 setting.
#[divan::bench(sample_count = 500, sample_size = 1)]
fn s200_triage(bencher: Bencher) {
    run(bencher, workcell::scaled(1, 200, PrismModel::BoundingBox).unwrap(), ScheduleSettings::default());
}
