//! The triage scheduler against brute force, every cycle.
//!
//! Truth is an independent all-pairs cold evaluation on the same poses. The cold query is
//! deterministic, so when the scheduler reports the minimum from the same pair, the value is
//! bit-identical; the 1e-9 tolerance only allows for a tie broken by a different pair.

use proxima_geom::shape::{Cuboid, Sphere};
use proxima_geom::{Pose, QuerySettings, Shape, distance};
use proxima_scene::workcell::{self, PrismModel};
use proxima_scene::{
    ColdQuery, ObjectId, Pair, PairRules, Reason, ScheduleSettings, Scheduler, Selector, World,
    brute_force_minimum,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn true_distances(world: &World, pairs: &[Pair]) -> Vec<f64> {
    pairs
        .iter()
        .map(|p| {
            let (a, b) = (world.object(p.a), world.object(p.b));
            distance(a.shape(), a.pose(), b.shape(), b.pose(), &QuerySettings::default()).unwrap().distance()
        })
        .collect()
}

#[test]
fn w25_minimum_equals_brute_force_every_cycle() {
    w25_against_brute_force(PrismModel::BoundingBox);
}

/// The model the demo runs: exact regular prisms (polyhedron pairs through GJK).
#[test]
fn w25_exact_prisms_minimum_equals_brute_force_every_cycle() {
    w25_against_brute_force(PrismModel::Exact);
}

/// The demo's configuration: exact prisms and warm-started (tracked) GJK per pair, against a
/// cold brute force.
#[test]
fn w25_tracked_queries_equal_cold_brute_force_every_cycle() {
    let mut cell = workcell::w25(PrismModel::Exact, false).unwrap();
    let settings =
        ScheduleSettings { time_budget: std::time::Duration::from_secs(10), ..ScheduleSettings::default() };
    let mut sched =
        Scheduler::new(proxima_scene::TrackedQuery::default(), settings, &cell.world, &cell.pairs).unwrap();
    for c in (0..4000).step_by(5) {
        cell.set_cycle(c).unwrap();
        let report = sched.run_cycle(&cell.world).unwrap();
        let (_, truth) =
            brute_force_minimum(&ColdQuery::default(), &cell.world, &cell.pairs).unwrap().unwrap();
        let got = report.min_distance().unwrap();
        assert!((got - truth).abs() <= 1e-9, "cycle {c}: {got} vs {truth}");
    }
}

fn w25_against_brute_force(model: PrismModel) {
    let mut cell = workcell::w25(model, false).unwrap();
    // a generous time budget: overload must come from the pair counts here, not from a slow
    // debug build on a shared machine
    let settings = ScheduleSettings {
        refresh_per_cycle: 2,
        time_budget: std::time::Duration::from_secs(10),
        ..ScheduleSettings::default()
    };
    let mut sched = Scheduler::new(ColdQuery::default(), settings, &cell.world, &cell.pairs).unwrap();
    let mut queried = 0;
    // every 3rd cycle of one period keeps the debug-profile run short; the demo checks all 4000
    for c in (0..4000).step_by(3) {
        cell.set_cycle(c).unwrap();
        let report = sched.run_cycle(&cell.world).unwrap();
        let (_, truth) =
            brute_force_minimum(&ColdQuery::default(), &cell.world, &cell.pairs).unwrap().unwrap();
        let got = report.min_distance().unwrap();
        assert!((got - truth).abs() <= 1e-9, "cycle {c}: {got} vs {truth}");
        assert!(!report.overload);
        assert!(report.skipped_min_bound >= got);
        queried += report.queried();
    }
    // triage pays: far fewer than 25 queries per cycle on average
    let mean = queried as f64 / (4000 / 3 + 1) as f64;
    assert!(mean < 20.0, "mean queries per cycle {mean}");
}

/// Adversarial motion: objects jump by random large steps (up to 0.3 per cycle, random
/// rotations), often straight at each other. Checked every cycle against truth:
/// the bound of every pair is ≤ its true distance (the lemma), every pair within the margin was
/// queried (nothing unsafe skipped), every skipped pair is provably beyond the margin, and the
/// reported minimum is the true minimum.
#[test]
fn adversarial_motion_never_skips_an_unsafe_pair() {
    let mut rng = SmallRng::seed_from_u64(9);
    let mut world = World::new();
    let n = 12;
    let mut ids = Vec::new();
    for i in 0..n {
        let shape = if i % 2 == 0 {
            Shape::Sphere(Sphere::new(rng.random_range(0.05..0.3)).unwrap())
        } else {
            let h = [rng.random_range(0.05..0.3), rng.random_range(0.05..0.3), rng.random_range(0.05..0.3)];
            Shape::Cuboid(Cuboid::new(h).unwrap())
        };
        let t = [rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)];
        ids.push(
            world.add(format!("o{i}"), format!("g{i}"), shape, Pose::from_translation(t).unwrap()).unwrap(),
        );
    }
    let rules = PairRules { include: vec![(Selector::All, Selector::All)], ..PairRules::default() };
    let pairs = rules.build(&world).unwrap();
    assert_eq!(pairs.len(), n * (n - 1) / 2);
    let margin = 0.1;
    let settings = ScheduleSettings { margin, refresh_per_cycle: 1, ..ScheduleSettings::default() };
    let mut sched = Scheduler::new(ColdQuery::default(), settings, &world, &pairs).unwrap();
    let mut skipped_total = 0;
    let mut near_total = 0;
    let mut odo_prev: Vec<f64> = world.objects().iter().map(|o| o.odometer()).collect();
    for cycle in 0..400 {
        // adversary: half the objects lunge toward a random other object, the rest wander
        for (k, &id) in ids.iter().enumerate() {
            let cur = *world.object(id).pose();
            let step: f64 = rng.random_range(0.0..0.3);
            let dir = if k % 2 == 0 {
                let other = world.object(ids[rng.random_range(0..n)]).pose().translation();
                let d = other - cur.translation();
                if d.norm() > 1e-9 { d / d.norm() } else { d }
            } else {
                let v: nalgebra::Vector3<f64> = nalgebra::Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                );
                v / v.norm().max(1e-9)
            };
            let mut t: nalgebra::Vector3<f64> = cur.translation() + dir * step;
            // keep the swarm together
            if t.norm() > 4.0 {
                t *= 3.5 / t.norm();
            }
            let axis = nalgebra::Vector3::new(rng.random_range(-1.0..1.0), 1.0, rng.random_range(-1.0..1.0));
            let rot = nalgebra::Rotation3::from_axis_angle(
                &nalgebra::Unit::new_normalize(axis),
                rng.random_range(-0.5..0.5),
            );
            let pose = Pose::from_matrix(rot.matrix() * cur.rotation(), t).unwrap();
            world.set_pose(id, pose);
        }
        let report = sched.run_cycle(&world).unwrap();
        let truth = true_distances(&world, &pairs);
        let step: Vec<f64> = world.objects().iter().zip(&odo_prev).map(|(o, p)| o.odometer() - p).collect();
        odo_prev = world.objects().iter().map(|o| o.odometer()).collect();
        for (i, r) in sched.records().iter().enumerate() {
            // spec §9 check 8a with v̄·Δt = the pair's motion bound this cycle
            let reach = step[r.pair.a.index()] + step[r.pair.b.index()];
            if truth[i] <= margin + reach {
                assert!(
                    r.queried.is_some(),
                    "cycle {cycle} pair {i} at {} within margin + {reach}",
                    truth[i]
                );
            }
            assert!(
                r.bound <= truth[i] + 1e-12,
                "cycle {cycle} pair {i}: bound {} > true {}",
                r.bound,
                truth[i]
            );
            if truth[i] <= margin {
                near_total += 1;
                assert!(r.queried.is_some(), "cycle {cycle} pair {i} at {} skipped", truth[i]);
            }
            if r.queried.is_none() {
                skipped_total += 1;
                assert!(r.bound > margin);
            } else {
                assert_eq!(r.last_cycle, Some(cycle));
            }
        }
        let true_min = truth.iter().copied().fold(f64::INFINITY, f64::min);
        assert!((report.min_distance().unwrap() - true_min).abs() <= 1e-9, "cycle {cycle}");
    }
    // the test exercised both sides: near pairs and skipped pairs
    assert!(near_total > 50 && skipped_total > 1000, "near {near_total}, skipped {skipped_total}");
}

#[test]
fn overload_is_reported_and_nothing_is_skipped() {
    let mut world = World::new();
    let ball = Shape::Sphere(Sphere::new(0.5).unwrap());
    for i in 0..6 {
        world
            .add(
                format!("b{i}"),
                "balls",
                ball.clone(),
                Pose::from_translation([i as f64 * 0.9, 0.0, 0.0]).unwrap(),
            )
            .unwrap();
    }
    let pairs = PairRules { include: vec![(Selector::All, Selector::All)], ..PairRules::default() }
        .build(&world)
        .unwrap();
    let settings = ScheduleSettings { margin: 10.0, max_queries: 4, ..ScheduleSettings::default() };
    let mut sched = Scheduler::new(ColdQuery::default(), settings, &world, &pairs).unwrap();
    let report = sched.run_cycle(&world).unwrap();
    assert!(report.overload);
    assert_eq!(report.mandatory, 15);
    assert_eq!(report.skipped, 0);
    assert!(sched.records().iter().all(|r| r.queried == Some(Reason::Mandatory)));
    assert!(report.min_distance().unwrap() < 0.0 + 1e-12); // overlapping balls
}

#[test]
fn pair_order_does_not_change_distances() {
    let mut cell = workcell::w25(PrismModel::BoundingBox, false).unwrap();
    let mut reversed = cell.pairs.clone();
    reversed.reverse();
    let s = ScheduleSettings::default();
    let mut a = Scheduler::new(ColdQuery::default(), s.clone(), &cell.world, &cell.pairs).unwrap();
    let mut b = Scheduler::new(ColdQuery::default(), s, &cell.world, &reversed).unwrap();
    for c in (0..600).step_by(7) {
        cell.set_cycle(c).unwrap();
        let (ra, rb) = (a.run_cycle(&cell.world).unwrap(), b.run_cycle(&cell.world).unwrap());
        assert_eq!(ra.min_distance(), rb.min_distance());
        for r in a.records() {
            let twin = b.records().iter().find(|x| x.pair == r.pair).unwrap();
            if r.last_cycle == twin.last_cycle {
                assert_eq!(r.distance.to_bits(), twin.distance.to_bits());
            }
        }
    }
}

#[test]
fn bad_settings_and_pairs_are_errors() {
    let mut world = World::new();
    let ball = Shape::Sphere(Sphere::new(0.5).unwrap());
    let a = world.add("a", "g", ball.clone(), Pose::identity()).unwrap();
    let _ = world.add("b", "g", ball.clone(), Pose::from_translation([2.0, 0.0, 0.0]).unwrap()).unwrap();
    assert!(world.add("a", "g", ball, Pose::identity()).is_err(), "duplicate name");
    for s in [
        ScheduleSettings { margin: f64::NAN, ..ScheduleSettings::default() },
        ScheduleSettings { margin: -1.0, ..ScheduleSettings::default() },
        ScheduleSettings { max_queries: 0, ..ScheduleSettings::default() },
        ScheduleSettings { lookahead_cycles: f64::INFINITY, ..ScheduleSettings::default() },
    ] {
        assert!(Scheduler::new(ColdQuery::default(), s, &world, &[]).is_err());
    }
    let bad = [Pair { a, b: ObjectId(7) }];
    let err = Scheduler::new(ColdQuery::default(), ScheduleSettings::default(), &world, &bad).unwrap_err();
    assert!(err.to_string().contains("pairs[0]"), "{err}");
    let mut sched = Scheduler::new(ColdQuery::default(), ScheduleSettings::default(), &world, &[]).unwrap();
    let mut bigger = world.clone();
    bigger.add("c", "g", Shape::Sphere(Sphere::new(1.0).unwrap()), Pose::identity()).unwrap();
    assert!(sched.run_cycle(&bigger).unwrap_err().to_string().starts_with("world"));
    let line = Shape::Line(proxima_geom::shape::Line::new([0.0; 3], [1.0, 0.0, 0.0]).unwrap());
    let err = world.add("l", "g", line, Pose::identity()).unwrap_err();
    assert!(err.to_string().contains("unbounded"), "{err}");
}

#[test]
fn unbounded_objects_are_refused_with_their_names() {
    // Every pair of bounded shapes has a distance query (GJK is the general fallback); the one
    // shape without one, an unbounded line, is refused when it enters the world.
    let mut cell = workcell::w25(PrismModel::Exact, false).unwrap();
    let line =
        proxima_geom::Shape::Line(proxima_geom::shape::Line::new([0.0, 0.0, 5.0], [1.0, 0.0, 0.0]).unwrap());
    let err = cell.world.add("L", "extra", line, proxima_geom::Pose::identity()).unwrap_err();
    assert!(err.to_string().contains("objects.L"), "{err}");
}

/// The scaled scene (two arms among 30 obstacles, ~1100 pairs, robot–robot pairs included):
/// the proven minimum equals brute force, near pairs are never skipped, and only a small
/// fraction of the pairs is queried per cycle. Every 5th cycle around the closest approach.
#[test]
fn scaled_scene_matches_brute_force() {
    let mut cell = workcell::scaled(2, 30, PrismModel::BoundingBox).unwrap();
    let n = cell.pairs.len();
    assert!(n > 1000, "{n}");
    let settings =
        ScheduleSettings { time_budget: std::time::Duration::from_secs(10), ..ScheduleSettings::default() };
    let mut sched = Scheduler::new(ColdQuery::default(), settings, &cell.world, &cell.pairs).unwrap();
    let mut queried = 0;
    let cycles: Vec<usize> = (100..300).step_by(5).collect();
    for &c in &cycles {
        cell.set_cycle(c).unwrap();
        let report = sched.run_cycle(&cell.world).unwrap();
        let truth = true_distances(&cell.world, &cell.pairs);
        let true_min = truth.iter().copied().fold(f64::INFINITY, f64::min);
        assert!((report.min_distance().unwrap() - true_min).abs() <= 1e-9, "cycle {c}");
        for (r, &d) in sched.records().iter().zip(&truth) {
            assert!(r.bound <= d + 1e-12);
            if d <= sched.settings().margin {
                assert!(r.queried.is_some());
            }
        }
        queried += report.queried();
    }
    assert!(queried < cycles.len() * n / 20, "{queried} queries over {} cycles", cycles.len());
}

/// A tracker whose state remembers the first pair it served: the scheduler must hand every
/// pair its own state (warm-start data is meaningful for one pair only, spec §2).
#[derive(Debug, Clone, Default)]
struct PinnedState {
    first: Option<([f64; 3], [f64; 3])>,
    calls: usize,
}

struct PinnedQuery;

impl proxima_scene::PairQuery for PinnedQuery {
    type State = PinnedState;
    fn query(
        &self,
        state: &mut PinnedState,
        a: &Shape,
        pose_a: &Pose,
        b: &Shape,
        pose_b: &Pose,
    ) -> Result<proxima_geom::DistanceResult, proxima_geom::GeomError> {
        let key = |s: &Shape| match s {
            Shape::Cuboid(c) => c.half_extents().into(),
            _ => [0.0; 3],
        };
        let id = (key(a), key(b));
        assert_eq!(*state.first.get_or_insert(id), id, "state of one pair handed to another");
        state.calls += 1;
        distance(a, pose_a, b, pose_b, &QuerySettings::default())
    }
}

#[test]
fn tracker_state_is_kept_per_pair() {
    let mut cell = workcell::w25(PrismModel::BoundingBox, false).unwrap();
    let mut sched =
        Scheduler::new(PinnedQuery, ScheduleSettings::default(), &cell.world, &cell.pairs).unwrap();
    let mut cold =
        Scheduler::new(ColdQuery::default(), ScheduleSettings::default(), &cell.world, &cell.pairs).unwrap();
    for c in (0..800).step_by(4) {
        cell.set_cycle(c).unwrap();
        let (a, b) = (sched.run_cycle(&cell.world).unwrap(), cold.run_cycle(&cell.world).unwrap());
        assert_eq!(a.min_distance(), b.min_distance());
    }
    let calls: usize = sched.records().iter().map(|r| r.state.calls).sum();
    assert!(calls > 0 && sched.records().iter().all(|r| r.state.calls > 0 || r.last_cycle.is_none()));
}

/// Spec §9 check 8 on S(200) (one arm, its fixture and floor, 200 extra obstacles: 2825 pairs)
/// with a 500-query budget and a shadow run of every pair every cycle: (a) pairs within the
/// margin plus this cycle's motion are queried, (b) the minimum is the true one, (c) no bound
/// exceeds the true distance (no deadline missed), (d) overload is reported, never silent.
/// Heavy in the debug profile: `cargo test --release -p proxima-scene --test schedule -- --ignored`.
#[test]
#[ignore]
fn s200_triage_with_a_shadow_run() {
    let mut cell = workcell::scaled(1, 200, PrismModel::BoundingBox).unwrap();
    assert_eq!(cell.pairs.len(), 2825);
    let settings = ScheduleSettings {
        max_queries: 500,
        time_budget: std::time::Duration::from_secs(1),
        ..ScheduleSettings::default()
    };
    let mut sched = Scheduler::new(ColdQuery::default(), settings, &cell.world, &cell.pairs).unwrap();
    let mut odo_prev: Vec<f64> = cell.world.objects().iter().map(|o| o.odometer()).collect();
    let mut queried = 0;
    for c in 0..1000 {
        cell.set_cycle(c).unwrap();
        let report = sched.run_cycle(&cell.world).unwrap();
        let truth = true_distances(&cell.world, &cell.pairs);
        let step: Vec<f64> =
            cell.world.objects().iter().zip(&odo_prev).map(|(o, p)| o.odometer() - p).collect();
        odo_prev = cell.world.objects().iter().map(|o| o.odometer()).collect();
        for (r, &d) in sched.records().iter().zip(&truth) {
            assert!(r.bound <= d + 1e-12);
            if d <= sched.settings().margin + step[r.pair.a.index()] + step[r.pair.b.index()] {
                assert!(r.queried.is_some());
            }
        }
        let true_min = truth.iter().copied().fold(f64::INFINITY, f64::min);
        assert!((report.min_distance().unwrap() - true_min).abs() <= 1e-9);
        assert_eq!(report.overload, report.mandatory > 500);
        queried += report.queried();
    }
    println!("S(200): mean queries per cycle {:.1}", queried as f64 / 1000.0);
}

/// An a-priori per-cycle motion limit (joint velocity limits) makes a pair mandatory as soon
/// as the limit could bring it within the margin next cycle, although nothing moved.
#[test]
fn motion_limits_drive_the_lookahead() {
    use proxima_geom::shape::Sphere;
    use proxima_geom::{Pose, Shape};
    let ball = Shape::Sphere(Sphere::new(0.5).unwrap());
    let run = |limit: Option<f64>| {
        let mut world = proxima_scene::World::new();
        let a = world.add("a", "g1", ball.clone(), Pose::identity()).unwrap();
        world.add("b", "g2", ball.clone(), Pose::from_translation([1.3, 0.0, 0.0]).unwrap()).unwrap();
        if let Some(l) = limit {
            world.set_motion_limit(a, l);
        }
        let pairs = [proxima_scene::Pair { a, b: proxima_scene::ObjectId(1) }];
        let settings =
            ScheduleSettings { exact_minimum: false, refresh_per_cycle: 0, ..ScheduleSettings::default() };
        let mut s = Scheduler::new(proxima_scene::ColdQuery::default(), settings, &world, &pairs).unwrap();
        (0..3).map(|_| s.run_cycle(&world).unwrap().mandatory).collect::<Vec<_>>()
    };
    // never queried, the pair's bound is its AABB gap 0.3 > margin: skipped while nothing moves
    assert_eq!(run(None), [0, 0, 0]);
    // a limit of 0.29 m per cycle: 0.3 − 0.29 ≤ 0.02, mandatory every cycle
    assert_eq!(run(Some(0.29)), [1, 1, 1]);
    assert_eq!(run(Some(0.2)), [0, 0, 0]);
}
