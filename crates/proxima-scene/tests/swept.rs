//! Swept checks: a joint-space segment that sweeps a link through an obstacle while both end
//! configurations are clear is never certified free (the sampled-pose check passes it), a
//! clear segment is, and the W25 workcell's motion between cycles is certified, with an
//! object jumping through a link between two cycles reported. Premises are checked against
//! dense sampling with independent distance queries.

use proxima_geom::shape::{Cuboid, Sphere};
use proxima_geom::{Pose, QuerySettings, Shape, distance};
use proxima_scene::swept::{SegmentPair, SweptVerdict};
use proxima_scene::workcell::{self, PrismModel, ScriptedObject};
use proxima_scene::{KinematicChain, Obstacle, SweptSettings, certify_segment};

fn ball(r: f64) -> Shape {
    Shape::Sphere(Sphere::new(r).unwrap())
}

fn at(x: f64, y: f64, z: f64) -> Pose {
    Pose::from_translation([x, y, z]).unwrap()
}

/// The smallest upper bound of the link–obstacle distance over `n` + 1 samples of the segment.
fn sampled_min(
    arm: &impl KinematicChain,
    q0: &[f64],
    q1: &[f64],
    link: usize,
    o: &Obstacle<'_>,
    n: usize,
) -> f64 {
    let mut poses = Vec::new();
    (0..=n)
        .map(|k| {
            let s = k as f64 / n as f64;
            let q: Vec<f64> = q0.iter().zip(q1).map(|(a, b)| a + s * (b - a)).collect();
            arm.body_poses_at(&q, &mut poses).unwrap();
            distance(arm.body_shape(link), &poses[link], o.shape, &o.pose, &QuerySettings::default())
                .unwrap()
                .distance()
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn a_link_sweeping_through_an_obstacle_is_not_certified() {
    // Joint 1 turns the W25 arm from −0.5 to 0.5 rad: the upper-arm box P9 (centre at
    // (0.66, 0, 1.8) for q = 0) passes through a small ball there, clear at both ends.
    let arm = workcell::w25_arm(Pose::identity(), PrismModel::BoundingBox).unwrap();
    let (q0, q1) = ([-0.5, 0.0, 0.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0, 0.0, 0.0]);
    let shape = ball(0.05);
    let o = Obstacle { shape: &shape, pose: at(0.66, 0.0, 1.8) };
    let s = SweptSettings::default();
    let mut poses = Vec::new();
    for q in [&q0, &q1] {
        arm.body_poses_at(q, &mut poses).unwrap();
        for (k, p) in poses.iter().enumerate() {
            let d = distance(arm.body_shape(k), p, o.shape, &o.pose, &QuerySettings::default()).unwrap();
            assert!(d.certificate.lower > 0.05, "end configurations must be clear (link {k}: {d:?})");
        }
    }
    let p9 = 8;
    assert_eq!(sampled_min(&arm, &q0, &q1, p9, &o, 200), 0.0, "premise: the sweep collides");
    let report = certify_segment(&arm, &q0, &q1, &[o], &[], &s).unwrap();
    assert!(!report.is_free());
    let (pair, verdict) =
        report.unproven().find(|(p, _)| *p == SegmentPair::Obstacle { body: p9, obstacle: 0 }).unwrap();
    let SweptVerdict::Contact { s: hit, .. } = verdict else { panic!("{pair:?}: {verdict:?}") };
    // Contact is proven where it is (the ball is hit before the arm reaches q = 0, at s = 1/2).
    assert!(*hit > 0.2 && *hit <= 0.5, "{verdict:?}");
    // Every other link clears the ball on this sweep, and is certified so.
    for (p, v) in &report.pairs {
        if let SegmentPair::Obstacle { body: link, .. } = p
            && *link != p9
            && sampled_min(&arm, &q0, &q1, *link, &o, 200) > 0.05
        {
            assert!(v.is_free(), "{p:?}: {v:?}");
        }
    }
}

#[test]
fn a_clear_segment_is_certified_and_sampling_agrees() {
    let arm = workcell::w25_arm(Pose::identity(), PrismModel::BoundingBox).unwrap();
    let (q0, q1) = ([-0.5, 0.2, -0.3, 0.0, 0.4, 1.0], [0.5, 0.1, -0.2, 0.6, -0.4, -1.0]);
    let (small, block) = (ball(0.05), Shape::Cuboid(Cuboid::new([0.3, 0.3, 0.3]).unwrap()));
    let obstacles = [
        Obstacle { shape: &small, pose: at(0.66, 0.0, 2.6) },
        Obstacle { shape: &block, pose: at(-1.5, 1.0, 0.5) },
    ];
    // Self pairs: the base column against the wrist links.
    let self_pairs = [(0, 11), (1, 12), (2, 13)];
    let report = certify_segment(&arm, &q0, &q1, &obstacles, &self_pairs, &SweptSettings::default()).unwrap();
    assert!(report.is_free(), "{:?}", report.unproven().collect::<Vec<_>>());
    assert_eq!(report.pairs.len(), 14 * 2 + 3);
    for (k, o) in (0..14).flat_map(|k| obstacles.iter().map(move |o| (k, o))) {
        assert!(sampled_min(&arm, &q0, &q1, k, o, 100) > 0.0);
    }
}

#[test]
fn segment_input_is_validated() {
    let arm = workcell::w25_arm(Pose::identity(), PrismModel::BoundingBox).unwrap();
    let q = [0.0; 6];
    let shape = ball(0.1);
    let o = [Obstacle { shape: &shape, pose: at(3.0, 0.0, 0.0) }];
    let s = SweptSettings::default();
    assert!(certify_segment(&arm, &q[..5], &q, &o, &[], &s).is_err());
    assert!(certify_segment(&arm, &q, &[f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0], &o, &[], &s).is_err());
    assert!(certify_segment(&arm, &q, &q, &o, &[(0, 14)], &s).is_err());
    for bad in [s.clone().with_margin(-1.0), s.clone().with_max_steps(0)] {
        assert!(bad.validate().is_err() && certify_segment(&arm, &q, &q, &o, &[], &bad).is_err());
    }
    // A motionless segment is a static check.
    assert!(certify_segment(&arm, &q, &q, &o, &[], &s).unwrap().is_free());
}

#[test]
fn workcell_motion_between_cycles_is_certified() {
    // The W25 run's first 400 cycles (the forearm passes the obstacle 4.7 cm away near
    // cycle 172): every interval proven free, also with a 2 cm margin.
    let mut cell = workcell::w25(PrismModel::BoundingBox, false).unwrap();
    for margin in [0.0, 0.02] {
        let s = SweptSettings::default().with_margin(margin);
        let bad = cell.swept_check(0..400, &s).unwrap();
        assert!(bad.is_empty(), "margin {margin}: {:?}", bad.first());
    }
}

#[test]
fn an_object_jumping_through_a_link_between_cycles_is_reported() {
    // A scripted ball on the floor side of the arm jumps from one side of the base column P1
    // (0.8 × 0.8 × 0.2 at the origin) to the other between cycles 10 and 11: both cycle poses
    // are clear, the motion between them is not.
    let mut cell = workcell::w25(PrismModel::BoundingBox, false).unwrap();
    let id = cell.world.add("J", "jumper", ball(0.05), at(-1.0, 0.0, 0.1)).unwrap();
    let mut poses = vec![at(-1.0, 0.0, 0.1); 11];
    poses.extend(std::iter::repeat_n(at(1.0, 0.0, 0.1), 10));
    cell.scripted.push(ScriptedObject { object: id, poses });
    let p1 = cell.world.find("P1").unwrap();
    cell.pairs.push(proxima_scene::Pair { a: p1, b: id });
    let s = SweptSettings::default();
    let bad = cell.swept_check(0..20, &s).unwrap();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!(bad[0].cycle, 10);
    let (pair, verdict) = bad[0].unproven[0];
    assert_eq!(pair, cell.pairs.len() - 1);
    assert!(matches!(verdict, SweptVerdict::Contact { .. }), "{verdict:?}");
    // The sampled poses alone never see it.
    for c in 0..=20 {
        cell.set_cycle(c).unwrap();
        let (a, b) = (cell.world.object(p1), cell.world.object(id));
        assert!(
            distance(a.shape(), a.pose(), b.shape(), b.pose(), &QuerySettings::default()).unwrap().distance()
                > 0.1
        );
    }
}

/// The demo's two-Panda cell (robots from the shipped URDF, their pieces as objects, self and
/// cross pairs): the motion between cycles is certified like the serial arm's, and a Panda
/// segment sweeping its hand through a ball is not.
#[test]
fn described_robots_are_certified_piece_by_piece() {
    let urdf =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/robots/panda/panda.urdf");
    let mut cell = workcell::panda_cell(&urdf).unwrap();
    let bad = cell.swept_check(0..40, &SweptSettings::default()).unwrap();
    assert!(bad.is_empty(), "{:?}", bad.first());
    let r = &cell.described[0];
    let placed = proxima_scene::PlacedRobot::new(&r.robot, r.base, r.limits);
    let (mut q0, mut q1) = (vec![0.0, 0.2, 0.0, -1.8, 0.0, 1.9, 0.785, 0.03], Vec::new());
    q1.extend_from_slice(&q0);
    (q0[0], q1[0]) = (-0.6, 0.6);
    // A ball where the hand passes at q = (0, …): clear at both ends, hit in between.
    let mut poses = Vec::new();
    let mid: Vec<f64> = q0.iter().zip(&q1).map(|(a, b)| 0.5 * (a + b)).collect();
    placed.body_poses_at(&mid, &mut poses).unwrap();
    let hand = (0..placed.body_count())
        .max_by(|&i, &j| poses[i].translation().norm().total_cmp(&poses[j].translation().norm()))
        .unwrap();
    // A point inside the piece: the middle of two opposite support points.
    let (shape_h, e) = (placed.body_shape(hand), nalgebra::Vector3::x());
    let target = 0.5
        * (shape_h.support_point(&poses[hand], &e).unwrap().coords
            + shape_h.support_point(&poses[hand], &-e).unwrap().coords);
    let shape = ball(0.02);
    let o = Obstacle { shape: &shape, pose: at(target.x, target.y, target.z) };
    for q in [&q0, &q1] {
        assert!(sampled_min(&placed, q, q, hand, &o, 1) > 0.02, "end configurations clear");
    }
    assert!(sampled_min(&placed, &q0, &q1, hand, &o, 200) < 1e-9, "premise: the sweep reaches the ball");
    let report = certify_segment(&placed, &q0, &q1, &[o], &[], &SweptSettings::default()).unwrap();
    assert!(!report.is_free());
    let clear = certify_segment(
        &placed,
        &q0,
        &q1,
        &[Obstacle { shape: &shape, pose: at(3.0, 3.0, 3.0) }],
        &[],
        &SweptSettings::default(),
    )
    .unwrap();
    assert!(clear.is_free(), "{:?}", clear.unproven().next());
}

/// Waypoint trajectories are followed between their samples: an arm whose joint 1 jumps
/// between two waypoints 1 ms apart sweeps through the ball of the segment test between two
/// cycles, and that interval is the one reported.
#[test]
fn waypoint_motion_between_cycles_is_followed() {
    let mut cell = workcell::Workcell::new("waypoints", 1e-3, 10).unwrap();
    let arm = workcell::w25_arm(Pose::identity(), PrismModel::BoundingBox).unwrap();
    let z = [0.0; 5];
    let (a, b) = ([&[-0.5][..], &z].concat(), [&[0.5][..], &z].concat());
    let traj = proxima_scene::Trajectory::Waypoints {
        times: vec![0.0, 0.004, 0.005, 1.0],
        values: vec![a.clone(), a, b.clone(), b],
    };
    cell.add_robot("", "arm", arm, traj).unwrap();
    let id = cell.world.add("ball", "obstacles", ball(0.05), at(0.66, 0.0, 1.8)).unwrap();
    let p9 = cell.world.find("P9").unwrap();
    cell.pairs.push(proxima_scene::Pair { a: p9, b: id });
    let bad = cell.swept_check(0..9, &SweptSettings::default()).unwrap();
    assert_eq!(bad.iter().map(|r| r.cycle).collect::<Vec<_>>(), vec![4], "{bad:?}");
}
