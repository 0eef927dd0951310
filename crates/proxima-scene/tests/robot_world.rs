//! Robots from descriptions in a world: the benchmark's pair rule, agreement with Pinocchio +
//! coal on the benchmark's first configurations, minimum (branch and bound) against all pairs
//! and brute force, collision verdicts against distances, several robots and obstacles, SRDF
//! and include/exclude rules, bad input.

use std::sync::Arc;

use proxima_geom::shape::Cuboid;
use proxima_geom::{Pose, QuerySettings, Shape, signed_distance};
use proxima_robot::urdf::pose_xyz_rpy;
use proxima_robot::{LimitPolicy, LoadOptions, Robot, Srdf};
use proxima_scene::{
    DistanceMode, RobotPairRules, RobotQuerySettings, RobotWorld, RobotWorldBuilder, SceneError, Selector,
    SelfCollision,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn panda() -> Arc<Robot> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");
    Arc::new(Robot::from_urdf_file(path, &LoadOptions::default()).unwrap())
}

fn one_panda() -> RobotWorld {
    RobotWorldBuilder::new().robot(panda(), Pose::identity(), "", "panda", None).build().unwrap()
}

/// The robot benchmark's `all_but_adjacent` pair list for the Panda (panda_self_1000.json,
/// written by its robotdesc.py), as link-number pairs: 0–7 = panda_link0–7, 8 = hand,
/// 9 / 10 = left / right finger.
const PANDA_PAIRS: &[(usize, usize)] = &[
    (0, 2),
    (0, 3),
    (0, 4),
    (0, 5),
    (0, 6),
    (0, 7),
    (0, 8),
    (0, 9),
    (0, 10),
    (1, 3),
    (1, 4),
    (1, 5),
    (1, 6),
    (1, 7),
    (1, 8),
    (1, 9),
    (1, 10),
    (2, 4),
    (2, 5),
    (2, 6),
    (2, 7),
    (2, 8),
    (2, 9),
    (2, 10),
    (3, 5),
    (3, 6),
    (3, 7),
    (3, 8),
    (3, 9),
    (3, 10),
    (4, 6),
    (4, 7),
    (4, 8),
    (4, 9),
    (4, 10),
    (5, 7),
    (5, 8),
    (5, 9),
    (5, 10),
    (6, 9),
    (6, 10),
    (9, 10),
];

fn panda_name(k: usize) -> String {
    match k {
        0..=7 => format!("panda_link{k}"),
        8 => "panda_hand".into(),
        9 => "panda_leftfinger".into(),
        _ => "panda_rightfinger".into(),
    }
}

#[test]
fn default_rule_is_the_benchmark_pair_list() {
    let w = one_panda();
    let ours: Vec<(String, String)> = (0..w.pairs().len())
        .map(|k| (w.pair_names(k).0.to_string(), w.pair_names(k).1.to_string()))
        .collect();
    let expected: Vec<(String, String)> =
        PANDA_PAIRS.iter().map(|&(a, b)| (panda_name(a), panda_name(b))).collect();
    assert_eq!(ours, expected);
    assert_eq!(w.dof(), 8);
}

/// Configurations 0–11 of panda_self_1000.json and Pinocchio 4.1.0 + coal 3.0.3's answers
/// (results/pinocchio_panda_self_1000.jsonl, hull mode): signed minimum distance, argmin pair,
/// in collision. The anchor is up to ~1.5e-6 m above the exact hull distance (its README).
const ANCHOR: &[([f64; 8], f64, (usize, usize))] = &[
    (
        [
            0.070151885,
            1.65103954,
            -2.111628026,
            -0.161322897,
            -1.116629797,
            1.567737085,
            1.944652732,
            0.016367965,
        ],
        0.020859480304311107,
        (5, 7),
    ),
    (
        [
            0.294298861,
            -1.731590338,
            1.504397489,
            -1.450968967,
            -1.010406048,
            2.995140859,
            -1.167881244,
            0.018139916,
        ],
        0.02209314387286725,
        (5, 7),
    ),
    (
        [
            -2.17166976,
            -0.355110282,
            -1.759755911,
            -2.31751641,
            1.48571404,
            1.00898608,
            -0.08787972,
            0.039229488,
        ],
        0.022090730351863187,
        (5, 7),
    ),
    (
        [
            2.739566119,
            0.823900091,
            0.244648406,
            -2.271718593,
            -2.01375885,
            3.704720396,
            0.0953542,
            0.004634624,
        ],
        0.0090548527495845,
        (9, 10),
    ),
    (
        [
            0.732812907,
            1.014098951,
            0.670584189,
            -0.259817531,
            -2.732147951,
            1.979272584,
            -0.241309004,
            0.002493983,
        ],
        0.0047735891194268625,
        (9, 10),
    ),
    (
        [
            0.838669621,
            1.29246988,
            0.55153059,
            -2.324477858,
            2.016924922,
            1.904625098,
            0.064616818,
            0.030121208,
        ],
        0.02238952110437765,
        (5, 7),
    ),
    (
        [
            -2.089301055,
            1.171495851,
            1.087661158,
            -0.668856248,
            -1.830010796,
            3.049622924,
            -1.831745558,
            0.003262105,
        ],
        0.0063098265278124475,
        (9, 10),
    ),
    (
        [
            2.107987911,
            1.32417627,
            2.234446438,
            -1.659048426,
            -1.340842052,
            -0.059573787,
            0.864736939,
            0.028796375,
        ],
        -0.01143004603722705,
        (5, 7),
    ),
    (
        [
            1.991334845,
            -0.799461387,
            -1.689952352,
            -1.133076536,
            1.810256391,
            3.680267644,
            -2.073855551,
            0.019288496,
        ],
        0.021787596781860638,
        (5, 7),
    ),
    (
        [
            2.342322869,
            -0.283257993,
            0.531123137,
            -3.064660088,
            1.029345662,
            3.505968867,
            1.939446871,
            0.035420811,
        ],
        0.02071643245544966,
        (5, 7),
    ),
    (
        [
            0.951580899,
            -0.93260183,
            1.593433575,
            -2.476602629,
            1.965851124,
            0.15790199,
            1.931509782,
            0.006580291,
        ],
        -0.017509106739046827,
        (5, 7),
    ),
    (
        [
            -0.740902693,
            -0.671691272,
            1.135432235,
            -2.580598588,
            -0.615636682,
            -0.064528163,
            -1.409403876,
            0.016847553,
        ],
        -0.018497478899427586,
        (5, 8),
    ),
];

#[test]
fn agrees_with_pinocchio_and_coal() {
    let w = one_panda();
    let mut ws = w.workspace();
    let s = RobotQuerySettings::default();
    for (i, (q, d, (a, b))) in ANCHOR.iter().enumerate() {
        let r = w.distances(q, &mut ws, &s, DistanceMode::AllPairs).unwrap().clone();
        let c = r.closest.unwrap();
        assert!((c.distance - d).abs() <= 2e-6, "config {i}: {} vs {d}", c.distance);
        assert!(
            c.lower <= c.distance && c.distance <= c.upper && c.upper - c.lower <= 1e-8,
            "config {i}: {c:?}"
        );
        assert_eq!(w.pair_names(c.pair), (panda_name(*a).as_str(), panda_name(*b).as_str()), "config {i}");
        assert_eq!(r.in_collision, *d < 0.0, "config {i}");
        assert_eq!(w.collisions(q, &mut ws, &s).unwrap().in_collision, *d < 0.0, "config {i}");
    }
}

fn random_q(rng: &mut SmallRng, w: &RobotWorld) -> Vec<f64> {
    w.robots()
        .iter()
        .flat_map(|r| r.robot.position_limits())
        .map(|(lo, hi)| rng.random_range(lo..=hi))
        .collect()
}

/// Every pair's distance is the minimum over its piece pairs of a cold signed distance; the
/// branch-and-bound minimum equals the all-pairs minimum; collisions are the pairs at ≤ 0.
#[test]
fn all_pairs_minimum_and_collisions_agree_with_brute_force() {
    let w = two_pandas_and_a_table();
    let mut ws = w.workspace();
    let s = RobotQuerySettings::default();
    let mut rng = SmallRng::seed_from_u64(20);
    for _ in 0..30 {
        let q = random_q(&mut rng, &w);
        let all = w.distances(&q, &mut ws, &s, DistanceMode::AllPairs).unwrap().clone();
        let poses = ws.piece_poses().to_vec();
        assert_eq!(all.pairs.len(), w.pairs().len());
        for p in &all.pairs {
            let pair = w.pairs()[p.pair];
            let mut truth = f64::INFINITY;
            for i in w.bodies()[pair.a].pieces.clone() {
                for j in w.bodies()[pair.b].pieces.clone() {
                    let (x, y) = (&w.pieces()[i], &w.pieces()[j]);
                    let sd =
                        signed_distance(&x.shape, &poses[i], &y.shape, &poses[j], &QuerySettings::default())
                            .unwrap();
                    truth = truth.min(sd.value);
                }
            }
            // both certified (gap ≤ 1e-9 relative); EPA depths to its tolerance
            assert!(
                (p.distance - truth).abs() <= 1e-8,
                "{:?}: {} vs {truth}",
                w.pair_names(p.pair),
                p.distance
            );
        }
        let min = w.distances(&q, &mut ws, &s, DistanceMode::Minimum).unwrap().clone();
        let (a, b) = (all.closest.unwrap(), min.closest.unwrap());
        assert_eq!((a.pair, a.distance), (b.pair, b.distance));
        assert!(min.queries <= all.queries);
        let coll = w.collisions(&q, &mut ws, &s).unwrap().clone();
        let colliding: Vec<usize> = all.pairs.iter().filter(|p| p.distance <= 0.0).map(|p| p.pair).collect();
        assert_eq!(coll.colliding, colliding);
        assert!(coll.undecided.is_empty());
        assert_eq!(coll.in_collision, all.in_collision);
    }
}

fn table() -> Vec<(Shape, Pose)> {
    vec![(
        Shape::Cuboid(Cuboid::new([0.6, 0.4, 0.02]).unwrap()),
        Pose::from_translation([0.4, 0.0, -0.03]).unwrap(),
    )]
}

fn two_pandas_and_a_table() -> RobotWorld {
    let p = panda();
    let facing = pose_xyz_rpy([0.8, 0.0, 0.0], [0.0, 0.0, std::f64::consts::PI]).unwrap();
    RobotWorldBuilder::new()
        .robot(p.clone(), Pose::identity(), "a/", "a", None)
        .robot(p, facing, "b/", "b", None)
        .obstacle("table", table())
        .build()
        .unwrap()
}

#[test]
fn several_robots_and_obstacles() {
    let w = two_pandas_and_a_table();
    assert_eq!(w.dof(), 16);
    assert_eq!(w.joint_names()[8], "b/panda_joint1");
    // 42 + 42 self pairs, 11 × 11 cross pairs, 22 robot links × the table
    assert_eq!(w.pairs().len(), 42 + 42 + 121 + 22);
    assert_eq!(w.pair_names(84), ("a/panda_link0", "b/panda_link0"));
    assert_eq!(w.pair_names(205), ("a/panda_link0", "table"));
    // moving the whole cell rigidly changes no distance
    let shift = pose_xyz_rpy([1.0, -2.0, 0.5], [0.3, -0.2, 1.1]).unwrap();
    let p = panda();
    let moved = RobotWorldBuilder::new()
        .robot(p.clone(), shift, "a/", "a", None)
        .robot(
            p,
            shift.compose(&pose_xyz_rpy([0.8, 0.0, 0.0], [0.0, 0.0, std::f64::consts::PI]).unwrap()),
            "b/",
            "b",
            None,
        )
        .obstacle("table", table().into_iter().map(|(s, pose)| (s, shift.compose(&pose))).collect())
        .build()
        .unwrap();
    let (mut ws, mut ws2) = (w.workspace(), moved.workspace());
    let s = RobotQuerySettings::default();
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..5 {
        let q = random_q(&mut rng, &w);
        let a = w.distances(&q, &mut ws, &s, DistanceMode::AllPairs).unwrap().clone();
        let b = moved.distances(&q, &mut ws2, &s, DistanceMode::AllPairs).unwrap();
        for (x, y) in a.pairs.iter().zip(&b.pairs) {
            assert!((x.distance - y.distance).abs() <= 1e-9, "{:?}", w.pair_names(x.pair));
        }
    }
}

#[test]
fn srdf_and_rules() {
    let srdf = Srdf::parse(
        r#"<robot name="panda"><disable_collisions link1="panda_link5" link2="panda_link7" reason="Never"/></robot>"#,
        "panda.srdf",
    )
    .unwrap();
    let w =
        RobotWorldBuilder::new().robot(panda(), Pose::identity(), "", "panda", Some(srdf)).build().unwrap();
    assert_eq!(w.pairs().len(), 41);
    assert!((0..41).all(|k| w.pair_names(k) != ("panda_link5", "panda_link7")));
    // include an adjacent pair back, exclude a whole link
    let rules = RobotPairRules {
        include: vec![(Selector::Object("panda_link1".into()), Selector::Object("panda_link2".into()))],
        exclude: vec![(Selector::Object("panda_link0".into()), Selector::All)],
        ..RobotPairRules::default()
    };
    let w = RobotWorldBuilder::new()
        .robot(panda(), Pose::identity(), "", "panda", None)
        .rules(rules)
        .build()
        .unwrap();
    assert_eq!(w.pairs().len(), 42 - 9 + 1);
    assert_eq!(w.pair_names(w.pairs().len() - 1), ("panda_link1", "panda_link2"));
    let none = RobotPairRules { self_collision: SelfCollision::None, ..RobotPairRules::default() };
    let w = RobotWorldBuilder::new()
        .robot(panda(), Pose::identity(), "", "panda", None)
        .obstacle("table", table())
        .rules(none)
        .build()
        .unwrap();
    assert_eq!(w.pairs().len(), 11);
    let rigid = RobotPairRules { self_collision: SelfCollision::AllButRigid, ..RobotPairRules::default() };
    let w = RobotWorldBuilder::new()
        .robot(panda(), Pose::identity(), "", "panda", None)
        .rules(rigid)
        .build()
        .unwrap();
    // 11 geometry links in 9 rigid groups' worth of pairs: all 55 minus link7–hand
    assert_eq!(w.pairs().len(), 54);
}

#[test]
fn bad_input() {
    let err = |b: RobotWorldBuilder| b.build().unwrap_err().to_string();
    let base = || RobotWorldBuilder::new().robot(panda(), Pose::identity(), "", "panda", None);
    let e = err(base().pair_list(vec![("panda_link0".into(), "panda_link8".into())]));
    assert!(e.contains("pair_list[0][1]") && e.contains("panda_link8"), "{e}");
    let e = err(base().pair_list(vec![("panda_link0".into(), "panda_link0".into())]));
    assert!(e.contains("itself"), "{e}");
    let e = err(base().robot(panda(), Pose::identity(), "", "again", None));
    assert!(e.contains("duplicate body name"), "{e}");
    let srdf =
        Srdf::parse(r#"<robot><disable_collisions link1="panda_link5" link2="elbow"/></robot>"#, "p.srdf")
            .unwrap();
    let e = err(RobotWorldBuilder::new().robot(panda(), Pose::identity(), "", "panda", Some(srdf)));
    assert!(e.contains("elbow") && e.contains("p.srdf:1"), "{e}");
    let rules = RobotPairRules {
        include: vec![(Selector::Group("nobody".into()), Selector::All)],
        ..Default::default()
    };
    let e = err(base().rules(rules));
    assert!(e.contains("pairs.include[0][0]"), "{e}");

    let w = one_panda();
    let mut ws = w.workspace();
    let s = RobotQuerySettings::default();
    let e = w.distances(&[0.0; 9], &mut ws, &s, DistanceMode::Minimum).unwrap_err().to_string();
    assert!(e.contains("9 values for 8 joints"), "{e}");
    let mut q = ANCHOR[0].0;
    q[2] = f64::NAN;
    let e = w.distances(&q, &mut ws, &s, DistanceMode::Minimum).unwrap_err();
    assert!(matches!(&e, SceneError::Invalid { field, .. } if field == "panda.q[2] (panda_joint3)"), "{e}");
    q[2] = 9.0;
    let e = w.collisions(&q, &mut ws, &s).unwrap_err().to_string();
    assert!(e.contains("panda") && e.contains("panda_joint3") && e.contains("outside its limits"), "{e}");
    let clamp = RobotQuerySettings::default().with_limits(LimitPolicy::Clamp);
    w.distances(&q, &mut ws, &clamp, DistanceMode::Minimum).unwrap();
    assert_eq!(ws.configuration()[2], 2.9671);
}

#[test]
fn world_is_shareable_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<RobotWorld>();
    send::<proxima_scene::RobotWorkspace>();
    let w = Arc::new(one_panda());
    let handles: Vec<_> = (0..2)
        .map(|t| {
            let w = Arc::clone(&w);
            std::thread::spawn(move || {
                let mut ws = w.workspace();
                let q = ANCHOR[t].0;
                w.distances(&q, &mut ws, &RobotQuerySettings::default(), DistanceMode::Minimum)
                    .unwrap()
                    .closest
                    .unwrap()
                    .distance
            })
        })
        .collect();
    for (t, h) in handles.into_iter().enumerate() {
        assert!((h.join().unwrap() - ANCHOR[t].1).abs() <= 2e-6);
    }
}

/// A mesh split into closed objects (a convex decomposition) is several pieces of one link:
/// the link's distance is the minimum over them, and the gap between the pieces stays free —
/// unlike the hull of the whole file.
#[test]
fn multi_object_mesh_is_several_pieces() {
    use proxima_geom::shape::Sphere;
    use proxima_robot::MeshParts;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("multi-object");
    std::fs::create_dir_all(&dir).unwrap();
    let mut obj = String::new();
    for x0 in [0.0, 3.0] {
        for i in 0..8 {
            obj.push_str(&format!(
                "v {} {} {}\n",
                x0 + (i & 1) as f64,
                ((i >> 1) & 1) as f64,
                ((i >> 2) & 1) as f64
            ));
        }
    }
    for (k, name) in ["left", "right"].iter().enumerate() {
        let o = 8 * k;
        obj.push_str(&format!("o {name}\n"));
        for f in [[1, 3, 4, 2], [5, 6, 8, 7], [1, 2, 6, 5], [2, 4, 8, 6], [4, 3, 7, 8], [3, 1, 5, 7]] {
            obj.push_str(&format!("f {} {} {} {}\n", f[0] + o, f[1] + o, f[2] + o, f[3] + o));
        }
    }
    std::fs::write(dir.join("two.obj"), obj).unwrap();
    std::fs::write(
        dir.join("r.urdf"),
        r#"<robot name="r"><link name="l"><collision><geometry><mesh filename="two.obj"/></geometry></collision></link></robot>"#,
    )
    .unwrap();
    let ball =
        vec![(Shape::Sphere(Sphere::new(0.1).unwrap()), Pose::from_translation([2.0, 0.5, 0.5]).unwrap())];
    let distance_with = |parts: MeshParts| {
        let options = LoadOptions { mesh_parts: parts, ..LoadOptions::default() };
        let robot = Arc::new(Robot::from_urdf_file(dir.join("r.urdf"), &options).unwrap());
        let w = RobotWorldBuilder::new()
            .robot(robot, Pose::identity(), "", "r", None)
            .obstacle("ball", ball.clone())
            .build()
            .unwrap();
        let mut ws = w.workspace();
        let r = w.distances(&[], &mut ws, &RobotQuerySettings::default(), DistanceMode::AllPairs).unwrap();
        (w.pieces().len(), r.closest.unwrap().distance)
    };
    let (pieces, d) = distance_with(MeshParts::Objects);
    assert_eq!(pieces, 3, "two cube pieces and the ball");
    assert!((d - 0.9).abs() < 1e-12, "{d}");
    let (pieces, d) = distance_with(MeshParts::Whole);
    assert_eq!(pieces, 2);
    assert!(d < 0.0, "the hull of both cubes swallows the ball: {d}");
}

/// A hull piece keeps the support lists its hull was built with (one table, shared), and a
/// hull without them gets its own: every hull piece has lists.
#[test]
fn hull_pieces_share_their_hulls_support_lists() {
    let world = one_panda();
    let mut shared = 0;
    for piece in world.pieces() {
        let Shape::ConvexPolytope(p) = &piece.shape else { continue };
        let cells = piece.cells.as_ref().expect("a hull piece has support lists");
        match p.shared_support_cells() {
            Some(own) => {
                assert!(Arc::ptr_eq(cells, &own), "the piece builds the hull's lists again");
                shared += 1;
            }
            None => assert!(p.vertices().len() < proxima_geom::shape::HULL_CELLS_MIN_VERTICES),
        }
    }
    // The Panda's link hulls of 128-383 vertices (see cells_slot.rs) bring their lists.
    assert!(shared > 0);
}
