//! A URDF robot as convex geometry: the vendored Franka Panda (`testdata/robots/panda`),
//! forward kinematics, the certified distance between two of its links, and motion bounds.
//!
//! `cargo run -p proxima-robot --example panda_model`
//!
//! Every collision mesh of the URDF becomes its *exact* convex hull (each mesh vertex is on or
//! inside it by exact predicates), so a distance between two pieces is a distance between
//! convex shapes — certified by `proxima_geom::distance`. Which link pairs a robot checks,
//! and the many-pair queries, live in `proxima-scene` (see its `robot_distances` example).

use proxima_geom::{Pose, QuerySettings, Shape, distance};
use proxima_robot::{LimitPolicy, LoadOptions, MotionBounds, Robot};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Mesh URIs (`package://...`) are resolved next to the URDF; pass `package_dirs` in the
    // options for a ROS-style tree.
    let urdf = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/robots/panda/panda.urdf");
    let panda = Robot::from_urdf_file(urdf, &LoadOptions::default())?;
    println!("{}: {} coordinates {:?}", panda.name(), panda.dof(), panda.joint_names());
    assert_eq!(panda.dof(), 8); // 7 arm joints and the finger (the second finger mimics it)
    println!("{} links, {} convex collision pieces", panda.links().len(), panda.geometries().len());

    // Forward kinematics at a "ready" configuration (radians; metres for the finger).
    let q = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02];
    let (mut scratch, mut link_poses, mut piece_poses) = (Vec::new(), Vec::new(), Vec::new());
    panda.link_poses(&Pose::identity(), &q, LimitPolicy::Reject, &mut scratch, &mut link_poses)?;
    panda.geometry_poses(&link_poses, &mut piece_poses);
    let hand = panda.link_index("panda_hand").ok_or("the Panda has a hand")?;
    let base = panda.link_index("panda_link0").ok_or("the Panda has a base link")?;
    let t = link_poses[hand].translation();
    println!("hand at ({:.3}, {:.3}, {:.3})", t.x, t.y, t.z);

    // The certified distance between the hand and the base link: the minimum over their pieces.
    let settings = QuerySettings::default();
    let mut best: Option<(f64, f64, f64)> = None;
    for i in panda.links()[hand].geometry.clone() {
        for j in panda.links()[base].geometry.clone() {
            let (a, b) = (&panda.geometries()[i], &panda.geometries()[j]);
            let r = distance(&a.shape, &piece_poses[i], &b.shape, &piece_poses[j], &settings)?;
            let c = r.certificate;
            assert!(c.lower <= r.distance() && r.distance() <= c.upper);
            if best.is_none_or(|(d, _, _)| r.distance() < d) {
                best = Some((r.distance(), c.lower, c.upper));
            }
        }
    }
    let (d, lower, upper) = best.ok_or("both links carry geometry")?;
    println!("hand – base: {d:.6} m, proven in [{lower:.9}, {upper:.9}]");
    // The hand hovers above the base in this pose: clearly apart, and the bracket is tight.
    assert!(d > 0.2 && upper - lower < 1e-8);

    // Motion bounds: how far any point of a link can move when the joints move from q to q1,
    // whatever happens in between. Check them against forward kinematics at q1: every hull
    // vertex moves (in a straight line) no farther than its link's bound.
    let bounds = MotionBounds::new(&panda);
    let mut q1 = q;
    q1[0] += 0.05;
    q1[3] -= 0.03;
    let (mut moved_links, mut moved_pieces) = (Vec::new(), Vec::new());
    panda.link_poses(&Pose::identity(), &q1, LimitPolicy::Reject, &mut scratch, &mut moved_links)?;
    panda.geometry_poses(&moved_links, &mut moved_pieces);
    let mut per_link = Vec::new();
    bounds.link_displacements(&q, &q1, &mut per_link);
    for (k, piece) in panda.geometries().iter().enumerate() {
        if let Shape::ConvexPolytope(hull) = &piece.shape {
            for v in hull.vertices() {
                let travel = (moved_pieces[k].transform_point(v) - piece_poses[k].transform_point(v)).norm();
                assert!(travel <= per_link[piece.link], "piece {k}: {travel} > {}", per_link[piece.link]);
            }
        }
    }
    println!("hand moves at most {:.4} m for that joint step", per_link[hand]);

    // Outside the joint limits is an error unless clamping is asked for.
    let mut too_far = q;
    too_far[3] = 0.5; // joint 4's upper limit is 0
    assert!(
        panda
            .link_poses(&Pose::identity(), &too_far, LimitPolicy::Reject, &mut scratch, &mut link_poses)
            .is_err()
    );
    println!("ok: distance certified, motion bounds hold against forward kinematics");
    Ok(())
}
