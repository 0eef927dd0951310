//! The batch engine: rows equal the per-configuration queries run one by one (independent of
//! the engine's threads, chunks and workspaces), the same bits for 1, 2 and 3 threads in every
//! mode (warm starts included), chunks computed alone equal a whole run, the margin mode's
//! exact rows equal the distance mode's, collision verdicts agree with distances, bad input is
//! rejected before any query, shape-pair batches equal single queries.

use std::ops::ControlFlow;
use std::sync::Arc;

use proxima_geom::shape::{Capsule, Cuboid, Sphere};
use proxima_geom::{Intersection, Pose, QuerySettings, Shape, distance, intersects};
use proxima_robot::{LimitPolicy, LoadOptions, Robot};
use proxima_scene::batch::{
    BatchMode, BatchProgress, BatchResult, BatchSettings, NO_PAIR, PairBatchSettings, PairOp, RobotBatch,
    ShapePairQuery, distances_batch, shape_pairs_batch,
};
use proxima_scene::{DistanceMode, RobotQuerySettings, RobotWorld, RobotWorldBuilder, SceneError};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn one_panda() -> RobotWorld {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");
    let panda = Arc::new(Robot::from_urdf_file(path, &LoadOptions::default()).unwrap());
    RobotWorldBuilder::new().robot(panda, Pose::identity(), "", "panda", None).build().unwrap()
}

/// `n` configurations uniform in the joint limits, row-major.
fn random_configs(world: &RobotWorld, n: usize, seed: u64) -> Vec<f64> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let limits: Vec<(f64, f64)> = world.robots().iter().flat_map(|r| r.robot.position_limits()).collect();
    (0..n)
        .flat_map(|_| limits.iter().map(|&(lo, hi)| rng.random_range(lo..=hi)).collect::<Vec<_>>())
        .collect()
}

fn run(world: &RobotWorld, q: &[f64], s: &BatchSettings) -> BatchResult {
    distances_batch(world, q, s, None).unwrap()
}

/// Distance-mode rows are the minimum of `RobotWorld::distances` at each configuration with
/// a fresh cold workspace, bit for bit; all-pairs rows are every pair's distance.
#[test]
fn rows_are_the_single_queries() {
    let w = one_panda();
    let q = random_configs(&w, 40, 1);
    let s = BatchSettings::default().with_threads(Some(2)).with_chunk_size(6);
    let dist = run(&w, &q, &s);
    let all = run(&w, &q, &s.clone().with_mode(BatchMode::AllPairs));
    let cold = RobotQuerySettings::default().with_warm_start(false);
    let mut collisions = 0;
    for (i, qi) in q.chunks(w.dof()).enumerate() {
        let mut ws = w.workspace();
        let min = w.distances(qi, &mut ws, &cold, DistanceMode::Minimum).unwrap().closest.unwrap();
        assert_eq!(dist.min_distance[i].to_bits(), min.distance.to_bits(), "row {i}");
        assert_eq!(dist.lower[i].to_bits(), min.lower.to_bits());
        assert_eq!(dist.upper[i].to_bits(), min.upper.to_bits());
        assert_eq!(dist.pair[i] as usize, min.pair);
        let (a, b) = min.points.unwrap();
        assert_eq!(dist.points[i], [a.x, a.y, a.z, b.x, b.y, b.z]);
        assert_eq!(dist.in_collision[i], min.distance <= 0.0);
        collisions += usize::from(dist.in_collision[i]);
        let every = w.distances(qi, &mut w.workspace(), &cold, DistanceMode::AllPairs).unwrap().clone();
        let row = &all.pair_distances[i * w.pairs().len()..(i + 1) * w.pairs().len()];
        for p in &every.pairs {
            assert_eq!(row[p.pair].to_bits(), p.distance.to_bits(), "row {i} pair {}", p.pair);
        }
        // the branch-and-bound minimum is the all-pairs minimum (same pair, same bits)
        assert_eq!(all.min_distance[i].to_bits(), dist.min_distance[i].to_bits());
        assert_eq!(all.pair[i], dist.pair[i]);
    }
    // random Panda configurations collide about 18 % of the time (anchor statistics)
    assert!(collisions > 0 && collisions < 40, "{collisions}");
    assert!(all.queries > dist.queries);
}

/// Every mode, with and without warm starts, gives the same bits on 1, 2 and 3 threads.
#[test]
fn same_bits_for_any_thread_count() {
    let w = one_panda();
    let q = random_configs(&w, 90, 2);
    let variants = [
        BatchSettings::default(),
        BatchSettings::default().with_mode(BatchMode::AllPairs),
        BatchSettings::default().with_mode(BatchMode::Collision),
        BatchSettings::default().with_margin(Some(0.03)),
        BatchSettings::default().with_mode(BatchMode::Collision).with_margin(Some(0.03)),
        BatchSettings::default().with_query(RobotQuerySettings::default().with_warm_start(true)),
    ];
    for s in variants {
        let s = s.with_chunk_size(7);
        let one = run(&w, &q, &s.clone().with_threads(Some(1)));
        assert_eq!(one.len(), 90);
        for threads in [2, 3] {
            let many = run(&w, &q, &s.clone().with_threads(Some(threads)));
            assert!(one.bit_identical(&many), "{:?} margin {:?}: {threads} threads differ", s.mode, s.margin);
            assert_eq!(one.queries, many.queries);
        }
    }
}

/// Warm starts carry over within a chunk only: the rows equal a sequential run that resets
/// its workspace at every chunk start, and agree with cold rows within the certificates.
#[test]
fn warm_starts_reset_per_chunk() {
    let w = one_panda();
    let q = random_configs(&w, 30, 3);
    let warm = RobotQuerySettings::default().with_warm_start(true);
    let s = BatchSettings::default().with_query(warm.clone()).with_chunk_size(4).with_threads(Some(3));
    let batch = run(&w, &q, &s);
    let cold = run(&w, &q, &BatchSettings::default().with_threads(Some(1)));
    let mut ws = w.workspace();
    for (i, qi) in q.chunks(w.dof()).enumerate() {
        if i % 4 == 0 {
            ws.reset();
        }
        let d = w.distances(qi, &mut ws, &warm, DistanceMode::Minimum).unwrap().closest.unwrap();
        assert_eq!(batch.min_distance[i].to_bits(), d.distance.to_bits(), "row {i}");
        // both certified to 1e-10 × scale (scale ≤ 2 m): the same distance to 1e-8
        assert!((batch.min_distance[i] - cold.min_distance[i]).abs() <= 1e-8, "row {i}");
    }
}

/// Chunks computed alone (as a resumed run does) have the bits of a whole run; the sink can
/// stop a run.
#[test]
fn chunks_alone_equal_the_whole_run() {
    let w = one_panda();
    let q = random_configs(&w, 25, 4);
    let s = BatchSettings::default().with_chunk_size(5).with_threads(Some(2));
    let whole = run(&w, &q, &s);
    let batch = RobotBatch::new(&w, &q, &s).unwrap();
    assert_eq!(batch.chunk_count(), 5);
    assert_eq!(batch.chunk_rows(4), 20..25);
    let mut seen = Vec::new();
    let complete = batch
        .run_chunks(&[1, 3, 4], &mut |c, part| {
            let rows = batch.chunk_rows(c);
            assert_eq!(part.len(), rows.len());
            for (r, i) in rows.enumerate() {
                assert_eq!(part.min_distance[r].to_bits(), whole.min_distance[i].to_bits());
                assert_eq!(part.pair[r], whole.pair[i]);
            }
            seen.push(c);
            ControlFlow::Continue(())
        })
        .unwrap();
    assert!(complete);
    seen.sort();
    assert_eq!(seen, [1, 3, 4]);
    let mut count = 0;
    let complete = batch
        .run_chunks(&[0, 1, 2, 3, 4], &mut |_, _| {
            count += 1;
            if count == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
        .unwrap();
    assert!(!complete);
    assert_eq!(count, 2);
    assert!(batch.run_chunks(&[5], &mut |_, _| ControlFlow::Continue(())).is_err());
    assert!(batch.run_chunks(&[2, 1], &mut |_, _| ControlFlow::Continue(())).is_err());
}

/// Margin mode: rows whose minimum is at most the margin are the distance mode's rows bit for
/// bit; the others are proven beyond the margin ([m, +∞]), and fewer pairs are queried.
#[test]
fn margin_mode_is_exact_below_the_margin() {
    let w = one_panda();
    let q = random_configs(&w, 60, 5);
    let m = 0.02;
    let s = BatchSettings::default().with_threads(Some(2));
    let dist = run(&w, &q, &s);
    let near = run(&w, &q, &s.clone().with_margin(Some(m)));
    let (mut inside, mut beyond) = (0, 0);
    for i in 0..q.len() / w.dof() {
        if dist.min_distance[i] <= m {
            inside += 1;
            assert_eq!(near.min_distance[i].to_bits(), dist.min_distance[i].to_bits(), "row {i}");
            assert_eq!(
                (near.lower[i].to_bits(), near.upper[i].to_bits()),
                (dist.lower[i].to_bits(), dist.upper[i].to_bits())
            );
            assert_eq!(near.pair[i], dist.pair[i]);
            assert_eq!(near.in_collision[i], dist.in_collision[i]);
        } else {
            beyond += 1;
            assert_eq!(near.min_distance[i], f64::INFINITY);
            assert_eq!((near.lower[i], near.upper[i]), (m, f64::INFINITY));
            assert_eq!(near.pair[i], NO_PAIR);
            assert!(!near.in_collision[i]);
        }
    }
    assert!(inside > 5 && beyond > 5, "{inside} {beyond}");
    assert!(near.queries < dist.queries);
}

/// Collision mode: the verdict is "minimum ≤ 0" and the pair is the first pair in pair order
/// at distance ≤ 0 (from all pairs); with a margin, "closer than the margin".
#[test]
fn collision_verdicts_agree_with_distances() {
    let w = one_panda();
    let q = random_configs(&w, 60, 6);
    let s = BatchSettings::default().with_threads(Some(2));
    let all = run(&w, &q, &s.clone().with_mode(BatchMode::AllPairs));
    let coll = run(&w, &q, &s.clone().with_mode(BatchMode::Collision));
    let m = 0.015;
    let near = run(&w, &q, &s.clone().with_mode(BatchMode::Collision).with_margin(Some(m)));
    let p = w.pairs().len();
    let mut hits = 0;
    for i in 0..q.len() / w.dof() {
        let row = &all.pair_distances[i * p..(i + 1) * p];
        let first = row.iter().position(|&d| d <= 0.0);
        assert_eq!(coll.in_collision[i], first.is_some(), "row {i}");
        assert_eq!(coll.pair[i], first.map_or(NO_PAIR, |k| k as u32), "row {i}");
        assert!(!coll.undecided[i] && coll.min_distance[i].is_nan());
        hits += usize::from(first.is_some());
        // away from the margin by more than the certificates' width
        if let Some(k) = row.iter().position(|&d| d < m - 1e-9) {
            assert!(near.in_collision[i], "row {i}");
            assert!(near.pair[i] as usize <= k);
        } else if row.iter().all(|&d| d > m + 1e-9) {
            assert!(!near.in_collision[i], "row {i}");
        }
    }
    assert!(hits > 0);
    assert!(coll.queries < all.queries);
}

#[test]
fn progress_reaches_the_total() {
    let w = one_panda();
    let q = random_configs(&w, 23, 7);
    let s = BatchSettings::default().with_chunk_size(5).with_threads(Some(2));
    let mut seen: Vec<BatchProgress> = Vec::new();
    let mut record = |p: BatchProgress| seen.push(p);
    distances_batch(&w, &q, &s, Some(&mut record)).unwrap();
    assert_eq!(seen.len(), 5);
    assert!(seen.windows(2).all(|x| x[0].done < x[1].done));
    assert_eq!(seen.last(), Some(&BatchProgress { done: 23, total: 23 }));
}

fn invalid_field(e: SceneError) -> String {
    match e {
        SceneError::Invalid { field, .. } => field,
        SceneError::Configuration { index, source } => {
            format!("configuration {index}: {}", invalid_field(*source))
        }
        other => panic!("unexpected {other:?}"),
    }
}

/// Bad input is rejected by `RobotBatch::new`, naming the first bad configuration.
#[test]
fn bad_input_is_rejected_before_any_query() {
    let w = one_panda();
    let mut q = random_configs(&w, 10, 8);
    let s = BatchSettings::default();
    let err = |q: &[f64], s: &BatchSettings| RobotBatch::new(&w, q, s).map(|_| ()).unwrap_err();
    assert_eq!(invalid_field(err(&q[..17], &s)), "configs");
    q[3 * 8 + 2] = f64::NAN;
    q[5 * 8] = f64::INFINITY;
    let e = err(&q, &s);
    assert!(e.to_string().starts_with("configuration 3: "), "{e}");
    assert!(e.to_string().contains("panda_joint3"), "{e}");
    let mut q = random_configs(&w, 10, 8);
    q[7 * 8 + 1] = 5.0; // beyond panda_joint2's limits
    assert!(err(&q, &s).to_string().starts_with("configuration 7: "));
    // clamped, the same row is accepted
    let clamp = s.clone().with_query(RobotQuerySettings::default().with_limits(LimitPolicy::Clamp));
    assert_eq!(run(&w, &q, &clamp).len(), 10);
    assert_eq!(invalid_field(err(&q, &s.clone().with_threads(Some(0)))), "threads");
    assert_eq!(invalid_field(err(&q, &s.clone().with_chunk_size(0))), "chunk_size");
    for m in [f64::NAN, -0.1, f64::INFINITY] {
        assert_eq!(invalid_field(err(&q, &s.clone().with_margin(Some(m)))), "margin");
    }
    let all_margin = s.clone().with_mode(BatchMode::AllPairs).with_margin(Some(0.1));
    assert_eq!(invalid_field(err(&q, &all_margin)), "margin");
    // an empty batch is an empty result
    let empty = run(&w, &[], &s);
    assert!(empty.is_empty());
}

fn shapes() -> Vec<Shape> {
    vec![
        Shape::Cuboid(Cuboid::new([0.3, 0.2, 0.1]).unwrap()),
        Shape::Sphere(Sphere::new(0.25).unwrap()),
        Shape::Capsule(Capsule::new(0.1, 0.4).unwrap()),
    ]
}

/// Shape-pair batches equal single `distance` / `intersects` calls bit for bit, for 1, 2 and
/// 3 threads.
#[test]
fn shape_pair_batches_equal_single_queries() {
    let shapes = shapes();
    let mut rng = SmallRng::seed_from_u64(9);
    let mut pose = || {
        let t = [rng.random_range(-0.6..0.6), rng.random_range(-0.6..0.6), rng.random_range(-0.6..0.6)];
        let r = [rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)];
        proxima_robot::urdf::pose_xyz_rpy(t, r).unwrap()
    };
    let queries: Vec<ShapePairQuery> = (0..200)
        .map(|k| ShapePairQuery { a: k % 3, pose_a: pose(), b: (k / 3) % 3, pose_b: pose() })
        .collect();
    let s = PairBatchSettings::default().with_chunk_size(9);
    let one = shape_pairs_batch(&shapes, &queries, &s.clone().with_threads(Some(1))).unwrap();
    let (mut hit, mut apart) = (0, 0);
    for (k, q) in queries.iter().enumerate() {
        let d =
            distance(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, &QuerySettings::default()).unwrap();
        assert_eq!(one.distance[k].to_bits(), d.distance().to_bits(), "query {k}");
        assert_eq!(one.lower[k].to_bits(), d.certificate.lower.to_bits());
        let i =
            intersects(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, &QuerySettings::default()).unwrap();
        assert_eq!(one.intersecting[k], matches!(i, Intersection::Intersecting { .. }), "query {k}");
        if one.intersecting[k] { hit += 1 } else { apart += 1 }
    }
    assert!(hit > 10 && apart > 10, "{hit} {apart}");
    for threads in [2, 3] {
        for op in [PairOp::Distance, PairOp::SignedDistance, PairOp::Intersects] {
            let s = s.clone().with_op(op);
            let a = shape_pairs_batch(&shapes, &queries, &s.clone().with_threads(Some(1))).unwrap();
            let b = shape_pairs_batch(&shapes, &queries, &s.with_threads(Some(threads))).unwrap();
            let bits = |r: &proxima_scene::batch::PairBatchResult| -> Vec<u64> {
                r.distance
                    .iter()
                    .chain(&r.lower)
                    .chain(&r.upper)
                    .chain(r.points.as_flattened())
                    .map(|x| x.to_bits())
                    .collect()
            };
            assert_eq!(bits(&a), bits(&b), "{op:?} {threads}");
            assert_eq!(a.intersecting, b.intersecting);
        }
    }
    let signed = shape_pairs_batch(&shapes, &queries, &s.clone().with_op(PairOp::SignedDistance)).unwrap();
    for k in 0..queries.len() {
        // separated pairs: the signed distance is the distance; overlapping ones are ≤ 0
        if one.intersecting[k] {
            assert!(signed.distance[k] <= 0.0, "query {k}");
        } else {
            assert_eq!(signed.distance[k].to_bits(), one.distance[k].to_bits(), "query {k}");
        }
    }
    let bad = [ShapePairQuery { a: 0, pose_a: Pose::identity(), b: 3, pose_b: Pose::identity() }];
    match shape_pairs_batch(&shapes, &bad, &s) {
        Err(SceneError::Invalid { field, .. }) => assert_eq!(field, "queries[0].b"),
        other => panic!("{other:?}"),
    }
}
