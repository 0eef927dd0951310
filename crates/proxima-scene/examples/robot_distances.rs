//! A URDF robot's certified distances: the vendored Franka Panda (`testdata/robots/panda`) on
//! a table beside a ball, at a few configurations.
//!
//! `cargo run -p proxima-scene --example robot_distances`
//!
//! A [`RobotWorld`] holds placed robots and static obstacles and decides which body pairs are
//! checked: by default every robot link against every obstacle and against the robot's other
//! links except its parent and children (an SRDF can disable more). Per configuration it
//! answers the minimum certified distance with its witnesses ([`DistanceMode::Minimum`], proven
//! by branch and bound, skipping pairs whose bounding balls are already farther) or every
//! pair's ([`DistanceMode::AllPairs`]). The example checks one against the other.

use std::sync::Arc;

use proxima_geom::shape::{Cuboid, Sphere};
use proxima_geom::{Pose, Shape};
use proxima_robot::{LimitPolicy, LoadOptions, Robot};
use proxima_scene::{DistanceMode, RobotQuerySettings, RobotWorldBuilder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let urdf = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");
    let panda = Arc::new(Robot::from_urdf_file(urdf, &LoadOptions::default())?);

    // Where the hand is in the "ready" pose: put a 5 cm ball right there to force a collision.
    let ready = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02];
    let (mut scratch, mut poses) = (Vec::new(), Vec::new());
    panda.link_poses(&Pose::identity(), &ready, LimitPolicy::Reject, &mut scratch, &mut poses)?;
    let hand = *poses[panda.link_index("panda_hand").ok_or("the Panda has a hand")?].translation();

    // The table top is 2 cm thick, its top face 1 cm below the robot's base plate (z = −0.01),
    // reaching 0.2–1.0 m in front of the robot.
    let table = (Shape::Cuboid(Cuboid::new([0.4, 0.5, 0.01])?), Pose::from_translation([0.6, 0.0, -0.02])?);
    let ball = (Shape::Sphere(Sphere::new(0.05)?), Pose::from_translation([hand.x, hand.y, hand.z])?);
    let world = RobotWorldBuilder::new()
        .robot(panda, Pose::identity(), "", "panda", None)
        .obstacle("table", vec![table])
        .obstacle("ball", vec![ball])
        .build()?;
    println!(
        "{} bodies, {} checked pairs ({} piece pairs)",
        world.bodies().len(),
        world.pairs().len(),
        world.piece_pair_count()
    );

    let settings = RobotQuerySettings::default();
    let mut ws = world.workspace(); // scratch space, one per thread; the world is shared
    let configurations = [
        ("clear", [0.0, -0.5, 0.0, -2.0, 0.0, 1.6, 0.8, 0.02]),
        ("ready (hand in the ball)", ready),
        ("reaching down", [0.0, 1.7, 0.0, -0.3, 0.0, 2.0, 0.785, 0.04]),
    ];
    let mut verdicts = Vec::new();
    for (name, q) in configurations {
        // Every pair, then the minimum alone: the same closest distance, two code paths.
        let all = world.distances(&q, &mut ws, &settings, DistanceMode::AllPairs)?.clone();
        let min = world.distances(&q, &mut ws, &settings, DistanceMode::Minimum)?.clone();
        let closest = min.closest.ok_or("the world has pairs")?;
        let (a, b) = world.pair_names(closest.pair);
        println!(
            "{name:26}: closest {a} – {b} at {:+.6} m, proven in [{:+.9}, {:+.9}], {} of {} piece pairs queried{}",
            closest.distance,
            closest.lower,
            closest.upper,
            min.queries,
            all.queries,
            if min.in_collision { " — IN COLLISION" } else { "" }
        );
        let brute = all.pairs.iter().map(|p| p.distance).fold(f64::INFINITY, f64::min);
        assert_eq!(closest.distance, brute, "branch and bound finds the all-pairs minimum");
        assert!(closest.lower <= closest.distance && closest.distance <= closest.upper);
        assert_eq!(min.in_collision, brute <= 0.0);
        // A positive distance has witnesses exactly that far apart.
        if let (true, Some((pa, pb))) = (closest.distance > 0.0, closest.points) {
            assert!(((pb - pa).norm() - closest.distance).abs() <= 1e-9);
        }
        verdicts.push((min.in_collision, b.to_string()));
    }
    // Clear; the hand inside the ball; the hand pushed into the table top.
    let expected = [(false, "panda_link7"), (true, "ball"), (true, "table")];
    assert!(
        verdicts.iter().zip(expected).all(|((hit, b), (want, name))| *hit == want && b == name),
        "{verdicts:?}"
    );
    println!("ok: minimum mode agrees with all pairs at every configuration");
    Ok(())
}
