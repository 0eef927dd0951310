//! Forward kinematics against Pinocchio 4.1.0, limits and clamping, motion bounds by sampling.

use nalgebra::Vector3;
use proxima_geom::Pose;
use proxima_robot::{LimitPolicy, LoadOptions, MotionBounds, Robot, RobotError};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::support::panda_urdf;

/// Configuration 0 of the robot benchmark's panda_self_1000 workload (seed 1) and the link
/// placements Pinocchio 4.1.0 computes for it (`pin.forwardKinematics` +
/// `updateFramePlacements`, printed to 12 decimals): translation and first rotation row.
const Q0: [f64; 8] = [
    0.070151885,
    1.65103954,
    -2.111628026,
    -0.161322897,
    -1.116629797,
    1.567737085,
    1.944652732,
    0.016367965,
];
const PINOCCHIO: &[(&str, [f64; 3], [f64; 3])] = &[
    ("panda_link1", [0.0, 0.0, 0.333], [0.997540365478, -0.070094359564, 0.0]),
    ("panda_link2", [0.0, 0.0, 0.333], [-0.079959969705, -0.994330520502, -0.070094359564]),
    (
        "panda_link3",
        [0.314208444479, 0.022078544836, 0.307670347887],
        [0.101257871109, -0.032460122257, 0.994330520502],
    ),
    (
        "panda_link4",
        [0.322562218845, -0.048234511327, 0.350008729844],
        [-0.059770307701, 0.997684244027, 0.032460122262],
    ),
    (
        "panda_link5",
        [0.710604018937, -0.003995591505, 0.308430738617],
        [0.002947501979, -0.067951905431, 0.997684244027],
    ),
    (
        "panda_link6",
        [0.710604018937, -0.003995591505, 0.308430738617],
        [0.997688592494, 0.00010466439, 0.067951905436],
    ),
    (
        "panda_link7",
        [0.798400615077, -0.009949108639, 0.308990506469],
        [-0.301105833827, -0.953590722418, -0.00010466439],
    ),
    (
        "panda_hand",
        [0.798389415987, -9.6536105e-05, 0.415535927249],
        [0.461376489344, -0.887204443252, -0.00010466439],
    ),
    (
        "panda_leftfinger",
        [0.783861572311, 0.012800514022, 0.472990936903],
        [0.461376489344, -0.887204443252, -0.00010466439],
    ),
    (
        "panda_rightfinger",
        [0.812905034861, -0.00223862855, 0.474384704015],
        [0.461376489344, -0.887204443252, -0.00010466439],
    ),
];

#[test]
fn panda_matches_pinocchio() {
    let r = Robot::from_urdf_file(panda_urdf(), &LoadOptions::default()).unwrap();
    let (mut s, mut p) = (Vec::new(), Vec::new());
    r.link_poses(&Pose::identity(), &Q0, LimitPolicy::Reject, &mut s, &mut p).unwrap();
    for (name, t, row) in PINOCCHIO {
        let pose = &p[r.link_index(name).unwrap()];
        // the reference is printed to 12 decimals
        assert!((pose.translation() - Vector3::from(*t)).norm() < 2e-12, "{name}");
        let ours = Vector3::new(pose.rotation()[(0, 0)], pose.rotation()[(0, 1)], pose.rotation()[(0, 2)]);
        assert!((ours - Vector3::from(*row)).norm() < 2e-12, "{name}");
    }
    // a base pose composes on the left
    let base = Pose::from_translation([1.0, 2.0, 3.0]).unwrap();
    let mut p2 = Vec::new();
    r.link_poses(&base, &Q0, LimitPolicy::Reject, &mut s, &mut p2).unwrap();
    for (a, b) in p.iter().zip(&p2) {
        assert!((b.translation() - a.translation() - Vector3::new(1.0, 2.0, 3.0)).norm() < 1e-15);
    }
}

#[test]
fn limits_reject_or_clamp() {
    let r = Robot::from_urdf_file(panda_urdf(), &LoadOptions::default()).unwrap();
    let (mut s, mut p) = (Vec::new(), Vec::new());
    let mut q = Q0;
    q[3] = 0.5; // joint4's range is [-3.1416, 0] in this description
    let e = r.link_poses(&Pose::identity(), &q, LimitPolicy::Reject, &mut s, &mut p).unwrap_err();
    assert!(
        matches!(&e, RobotError::OutOfLimits { joint, value, upper, .. } if joint == "panda_joint4" && *value == 0.5 && *upper == 0.0),
        "{e}"
    );
    r.link_poses(&Pose::identity(), &q, LimitPolicy::Clamp, &mut s, &mut p).unwrap();
    assert_eq!(s[3], 0.0);
    // within the documented tolerance a value counts as inside and is kept
    q[3] = 1e-10;
    r.link_poses(&Pose::identity(), &q, LimitPolicy::Reject, &mut s, &mut p).unwrap();
    assert_eq!(s[3], q[3]);
}

/// Sampled truth: for random straight joint-space segments, every hull vertex's displacement
/// between the ends and at intermediate points stays within the bound.
#[test]
fn motion_bounds_hold_along_segments() {
    let r = Robot::from_urdf_file(panda_urdf(), &LoadOptions::default()).unwrap();
    let bounds = MotionBounds::new(&r);
    let limits = r.position_limits();
    let mut rng = SmallRng::seed_from_u64(18);
    let (mut s, mut p0, mut p1) = (Vec::new(), Vec::new(), Vec::new());
    let mut worst: f64 = 0.0;
    for _ in 0..200 {
        let q0: Vec<f64> = limits.iter().map(|&(lo, hi)| rng.random_range(lo..=hi)).collect();
        let q1: Vec<f64> = q0
            .iter()
            .zip(&limits)
            .map(|(&x, &(lo, hi))| (x + rng.random_range(-0.3..0.3) * (hi - lo)).clamp(lo, hi))
            .collect();
        let mut disp = Vec::new();
        bounds.link_displacements(&q0, &q1, &mut disp);
        r.link_poses(&Pose::identity(), &q0, LimitPolicy::Reject, &mut s, &mut p0).unwrap();
        for k in 1..=4 {
            let t = k as f64 / 4.0;
            let qt: Vec<f64> = q0.iter().zip(&q1).map(|(a, b)| a + t * (b - a)).collect();
            r.link_poses(&Pose::identity(), &qt, LimitPolicy::Reject, &mut s, &mut p1).unwrap();
            for g in r.geometries() {
                let proxima_geom::Shape::ConvexPolytope(h) = &g.shape else { continue };
                let (a, b) = (p0[g.link].compose(&g.origin), p1[g.link].compose(&g.origin));
                for v in h.vertices() {
                    let moved = (b.transform_point(v) - a.transform_point(v)).norm();
                    assert!(moved <= disp[g.link], "link {} moved {moved} > bound {}", g.link, disp[g.link]);
                    worst = worst.max(moved / disp[g.link]);
                }
            }
        }
    }
    // the bound is conservative but not absurd
    assert!(worst > 0.2, "bound too loose: worst ratio {worst}");
    // velocity limits give a speed bound for every link (all Panda joints have one)
    let speeds = bounds.link_speed_limits(&r.velocity_limits());
    assert!(speeds.iter().all(Option::is_some));
    assert_eq!(speeds[r.root()], Some(0.0));
}
