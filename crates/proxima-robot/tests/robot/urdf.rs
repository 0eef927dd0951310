//! URDF reading: the vendored Panda, primitives, multiple collision elements, joint kinds,
//! mimic chains, the rpy convention.

use nalgebra::Vector3;
use proxima_geom::{Pose, Shape};
use proxima_robot::urdf::rpy_matrix;
use proxima_robot::{
    GeometrySource, JointDrive, JointKind, LimitPolicy, LoadOptions, MeshCache, Robot, parse_urdf,
};

use crate::support::panda_urdf;

fn load(text: &str) -> Robot {
    let desc = parse_urdf(text, "test.urdf").unwrap();
    Robot::from_description(&desc, None, &LoadOptions::default(), &mut MeshCache::new()).unwrap()
}

#[test]
fn panda_structure() {
    let r = Robot::from_urdf_file(panda_urdf(), &LoadOptions::default()).unwrap();
    assert_eq!(r.name(), "panda");
    assert_eq!(r.links().len(), 13);
    assert_eq!(r.links_with_geometry().len(), 11);
    // the benchmark's configuration order: 7 arm joints + finger 1; finger 2 mimics finger 1
    let mut names: Vec<String> = (1..=7).map(|i| format!("panda_joint{i}")).collect();
    names.push("panda_finger_joint1".into());
    assert_eq!(r.joint_names(), names);
    let f2 = r.joint_index("panda_finger_joint2").unwrap();
    assert_eq!(r.joints()[f2].drive, JointDrive::Mimic { coordinate: 7, multiplier: 1.0, offset: 0.0 });
    assert_eq!(r.joints()[f2].kind, JointKind::Prismatic);
    let (lo, hi) = r.position_limits()[0];
    assert_eq!((lo, hi), (-2.9671, 2.9671));
    assert_eq!(r.velocity_limits()[0], Some(2.1750));
    // panda_link7, panda_link8 and panda_hand are one rigid group (fixed joints)
    let (l7, l8, hand) = (
        r.link_index("panda_link7").unwrap(),
        r.link_index("panda_link8").unwrap(),
        r.link_index("panda_hand").unwrap(),
    );
    assert!(r.same_rigid_group(l7, l8) && r.same_rigid_group(l7, hand));
    let (l6, lf) = (r.link_index("panda_link6").unwrap(), r.link_index("panda_leftfinger").unwrap());
    assert!(r.adjacent(l6, hand) && r.adjacent(hand, lf) && r.adjacent(l7, lf));
    assert!(!r.adjacent(l6, lf));
    // hull vertex counts: the same as qhull's in the benchmark's anchor notes (link6 260 of
    // 966 mesh vertices: non-convex)
    let counts: Vec<(String, usize)> = r
        .geometries()
        .iter()
        .map(|g| {
            let Shape::ConvexPolytope(p) = &g.shape else { panic!("a mesh hull") };
            (r.links()[g.link].name.clone(), p.vertices().len())
        })
        .collect();
    let get = |n: &str| counts.iter().find(|(l, _)| l == n).unwrap().1;
    assert_eq!(
        (get("panda_link0"), get("panda_link1"), get("panda_link6"), get("panda_leftfinger")),
        (102, 152, 260, 18)
    );
}

#[test]
fn primitives_and_several_collisions() {
    let r = load(
        r#"<robot name="p"><link name="a">
      <collision name="c0"><origin xyz="1 2 3" rpy="0 0 1.5707963267948966"/><geometry><box size="2 4 6"/></geometry></collision>
      <collision><geometry><cylinder radius="0.5" length="3"/></geometry></collision>
      <collision><geometry><sphere radius="0.25"/></geometry></collision>
      <collision><geometry><capsule radius="0.1" length="0.4"/></geometry></collision>
      <collision><geometry><capsule radius="0.1" length="0"/></geometry></collision>
    </link></robot>"#,
    );
    let g = r.geometries();
    assert_eq!(g.len(), 5);
    assert!(g.iter().all(|g| g.link == 0 && g.source == GeometrySource::Primitive));
    assert_eq!(g[0].name.as_deref(), Some("c0"));
    let Shape::Cuboid(b) = &g[0].shape else { panic!() };
    assert_eq!(b.half_extents(), Vector3::new(1.0, 2.0, 3.0));
    assert_eq!(g[0].origin.translation(), &Vector3::new(1.0, 2.0, 3.0));
    let Shape::Cylinder(c) = &g[1].shape else { panic!() };
    assert_eq!((c.radius(), c.half_height()), (0.5, 1.5));
    let Shape::Sphere(s) = &g[2].shape else { panic!() };
    assert_eq!(s.radius(), 0.25);
    let Shape::Capsule(c) = &g[3].shape else { panic!() };
    assert_eq!((c.radius(), c.half_height()), (0.1, 0.2));
    assert!(matches!(g[4].shape, Shape::Sphere(_)), "a capsule of length 0 is a ball");
    // bounding spheres contain the shapes: the box corner is at |h| from its centre
    assert!(g[0].bounding_sphere.1 >= 14f64.sqrt());
}

#[test]
fn rpy_is_fixed_axis_roll_pitch_yaw() {
    // R = Rz(y) Ry(p) Rx(r), checked on basis vectors for single-axis rotations and one
    // composition done by hand.
    let h = std::f64::consts::FRAC_PI_2;
    let r = rpy_matrix([h, 0.0, 0.0]);
    assert!((r * Vector3::y() - Vector3::z()).norm() < 1e-15);
    let r = rpy_matrix([0.0, h, 0.0]);
    assert!((r * Vector3::z() - Vector3::x()).norm() < 1e-15);
    let r = rpy_matrix([0.0, 0.0, h]);
    assert!((r * Vector3::x() - Vector3::y()).norm() < 1e-15);
    // roll then yaw (fixed axes): x stays x under the roll, then the yaw turns it to y;
    // z goes to −y under the roll, then to +x under the yaw
    let r = rpy_matrix([h, 0.0, h]);
    assert!((r * Vector3::x() - Vector3::y()).norm() < 1e-15);
    assert!((r * Vector3::z() - Vector3::x()).norm() < 1e-15);
}

#[test]
fn joint_kinds_and_mimic_chains() {
    let r = load(
        r#"<robot name="k">
      <link name="l0"/><link name="l1"/><link name="l2"/><link name="l3"/><link name="l4"/>
      <joint name="slide" type="prismatic"><parent link="l0"/><child link="l1"/><axis xyz="0 0 2"/>
        <limit lower="0" upper="0.5" velocity="0.1"/></joint>
      <joint name="spin" type="continuous"><parent link="l1"/><child link="l2"/><origin xyz="1 0 0"/><axis xyz="0 0 1"/></joint>
      <joint name="follow" type="revolute"><parent link="l2"/><child link="l3"/><origin xyz="1 0 0"/><axis xyz="0 0 1"/>
        <limit lower="-9" upper="9"/><mimic joint="spin" multiplier="2" offset="0.5"/></joint>
      <joint name="follow2" type="revolute"><parent link="l3"/><child link="l4"/><origin xyz="1 0 0"/><axis xyz="0 0 1"/>
        <limit lower="-9" upper="9"/><mimic joint="follow" multiplier="-1"/></joint>
    </robot>"#,
    );
    assert_eq!(r.joint_names(), ["slide", "spin"]);
    // follow2 = −(2·spin + 0.5)
    assert_eq!(r.joints()[3].drive, JointDrive::Mimic { coordinate: 1, multiplier: -2.0, offset: -0.5 });
    assert_eq!(r.position_limits()[1], (f64::NEG_INFINITY, f64::INFINITY));
    let (mut s, mut p) = (Vec::new(), Vec::new());
    let spin = 0.3_f64;
    r.link_poses(&Pose::identity(), &[0.25, spin], LimitPolicy::Reject, &mut s, &mut p).unwrap();
    // the prismatic axis is normalized: 0.25 m along z
    assert!((p[1].translation() - Vector3::new(0.0, 0.0, 0.25)).norm() < 1e-15);
    // planar chain of unit links: angles spin, spin + (2 spin + 0.5), then − (2 spin + 0.5)
    let a1 = spin;
    let a2 = a1 + 2.0 * spin + 0.5;
    let expect3 = Vector3::new(1.0 + a1.cos(), a1.sin(), 0.25);
    assert!((p[3].translation() - expect3).norm() < 1e-14);
    let expect4 = expect3 + Vector3::new(a2.cos(), a2.sin(), 0.0);
    assert!((p[4].translation() - expect4).norm() < 1e-14);
    let a3 = a2 - (2.0 * spin + 0.5);
    assert!((p[4].rotation() * Vector3::x() - Vector3::new(a3.cos(), a3.sin(), 0.0)).norm() < 1e-14);
}

#[test]
fn configuration_by_names() {
    let r = Robot::from_urdf_file(panda_urdf(), &LoadOptions::default()).unwrap();
    let names = [
        "panda_finger_joint1",
        "panda_joint7",
        "panda_joint6",
        "panda_joint5",
        "panda_joint4",
        "panda_joint3",
        "panda_joint2",
        "panda_joint1",
    ];
    let q = r.configuration_from_names(&names, &[0.01, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]).unwrap();
    assert_eq!(q, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.01]);
}
