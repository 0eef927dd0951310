//! Sweep-and-prune against brute-force AABB tests; AABBs and bounds against the shapes; pair
//! rules.

use proxima_geom::shape::{Capsule, Cuboid, Cylinder, Sphere};
use proxima_geom::{Pose, QuerySettings, Shape, distance};
use proxima_scene::bounds::{Aabb, local_radius, motion_bound};
use proxima_scene::{PairRules, Selector, SweepAndPrune, World};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn random_pose(rng: &mut SmallRng, spread: f64) -> Pose {
    let axis = nalgebra::Vector3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 1.0);
    let rot = nalgebra::Rotation3::from_axis_angle(
        &nalgebra::Unit::new_normalize(axis),
        rng.random_range(-3.0..3.0),
    );
    let t = nalgebra::Vector3::new(
        rng.random_range(-spread..spread),
        rng.random_range(-spread..spread),
        rng.random_range(-spread..spread),
    );
    Pose::from_matrix(*rot.matrix(), t).unwrap()
}

fn random_shape(rng: &mut SmallRng, i: usize) -> Shape {
    let mut r = || rng.random_range(0.05..0.6);
    match i % 4 {
        0 => Shape::Sphere(Sphere::new(r()).unwrap()),
        1 => Shape::Cuboid(Cuboid::new([r(), r(), r()]).unwrap()),
        2 => Shape::Capsule(Capsule::new(r(), r()).unwrap()),
        _ => Shape::Cylinder(Cylinder::new(r(), r()).unwrap()),
    }
}

#[test]
fn sweep_and_prune_equals_brute_force() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut world = World::new();
    let n = 80;
    for i in 0..n {
        let shape = random_shape(&mut rng, i);
        let pose = random_pose(&mut rng, 5.0);
        world.add(format!("o{i}"), "g", shape, pose).unwrap();
    }
    let mut sap = SweepAndPrune::new();
    let mut out = Vec::new();
    for step in 0..20 {
        for i in 0..n {
            if rng.random_bool(0.5) {
                let id = proxima_scene::ObjectId(i as u32);
                let p = random_pose(&mut rng, 5.0);
                world.set_pose(id, p);
            }
        }
        let inflate = [0.0, 0.05, 0.5][step % 3];
        sap.candidate_pairs(&world, inflate, &mut out);
        let mut got: Vec<(u32, u32)> = out.iter().map(|(a, b)| (a.0, b.0)).collect();
        got.sort_unstable();
        let mut want = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if world.objects()[i].aabb().overlaps(world.objects()[j].aabb(), inflate) {
                    want.push((i as u32, j as u32));
                }
            }
        }
        assert_eq!(got, want, "step {step}");
        assert!(!want.is_empty());
    }
}

#[test]
fn aabb_gap_and_motion_bound_are_lower_and_upper_bounds() {
    let mut rng = SmallRng::seed_from_u64(4);
    let mut checked = 0;
    for i in 0..300 {
        let (sa, sb) = (random_shape(&mut rng, i), random_shape(&mut rng, i + 1));
        let (pa, pb) = (random_pose(&mut rng, 2.0), random_pose(&mut rng, 2.0));
        let gap = Aabb::of(&sa, &pa).gap(&Aabb::of(&sb, &pb));
        // pairs without a query in proxima-geom yet (cylinder–box, ...) are skipped
        let Ok(r) = distance(&sa, &pa, &sb, &pb, &QuerySettings::default()) else { continue };
        let d = r.distance();
        checked += 1;
        assert!(gap <= d + 1e-12, "gap {gap} > distance {d}");
        // moving a by any pose change changes the distance by at most its motion bound
        let pa2 = random_pose(&mut rng, 2.0);
        let d2 = distance(&sa, &pa2, &sb, &pb, &QuerySettings::default()).unwrap().distance();
        let m = motion_bound(&pa, &pa2, local_radius(&sa).unwrap());
        assert!((d2 - d).abs() <= m + 1e-12, "{d} → {d2}, bound {m}");
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn pair_rules_select_and_exclude() {
    let ball = Shape::Sphere(Sphere::new(0.1).unwrap());
    let mut world = World::new();
    for (name, group, frame) in [
        ("a0", "arm", Some(0)),
        ("a1", "arm", Some(1)),
        ("a2", "arm", Some(2)),
        ("x", "obs", None),
        ("y", "obs", None),
    ] {
        let id = world.add(name, group, ball.clone(), Pose::identity()).unwrap();
        if let Some(f) = frame {
            world.set_chain_frame(id, f);
        }
    }
    let names = |rules: &PairRules| -> Vec<String> {
        rules
            .build(&world)
            .unwrap()
            .iter()
            .map(|p| format!("{}-{}", world.object(p.a).name, world.object(p.b).name))
            .collect()
    };
    let all = PairRules { include: vec![(Selector::All, Selector::All)], ..PairRules::default() };
    assert_eq!(names(&all).len(), 10);
    let no_self = PairRules { exclude_same_group: true, ..all.clone() };
    assert_eq!(names(&no_self), ["a0-x", "a0-y", "a1-x", "a1-y", "a2-x", "a2-y"]);
    let adjacent = PairRules { exclude_adjacent: true, ..all.clone() };
    assert!(
        names(&adjacent).contains(&"a0-a2".to_string()) && !names(&adjacent).contains(&"a0-a1".to_string())
    );
    let some = PairRules {
        include: vec![(Selector::parse("group:arm"), Selector::parse("x"))],
        exclude: vec![(Selector::parse("a1"), Selector::parse("*"))],
        ..PairRules::default()
    };
    assert_eq!(names(&some), ["a0-x", "a2-x"]);
    let bad =
        PairRules { include: vec![(Selector::parse("group:nope"), Selector::All)], ..PairRules::default() };
    assert!(bad.build(&world).unwrap_err().to_string().starts_with("pairs.include[0][0]"));
}
