//! `proxima view --urdf FILE [--srdf FILE] [--package-dir DIR]...`: a robot with a slider per
//! joint, its collision pieces drawn as the exact convex hulls the queries use.
//!
//! # What the page computes, and what is exact
//!
//! The page recomputes everything a slider changes, from data computed once here:
//!
//! * **Geometry:** each piece's exact convex hull (`proxima_robot::hull`: every mesh vertex on
//!   or inside it by exact predicates), its vertices sent as `f64`. Primitives (sphere,
//!   cylinder, capsule) carry their parameters: the page's distances use their exact support
//!   functions, the drawing an inscribed mesh.
//! * **Kinematics:** the URDF tree (joint origins, axes, limits, mimic joints) evaluated in the
//!   page in `f64` by the same formula as `Robot::link_poses` (parent · origin · motion(q));
//!   it agrees with the library to rounding.
//! * **Distances:** the monitored pairs (`proxima check`'s: all links but one rigid group and
//!   parent–child bodies, minus the SRDF's disabled pairs) by GJK in the page, each with a
//!   bracket [lower, upper]: upper = |p_a − p_b| of points of the two hulls, lower = the
//!   separation along the final direction evaluated by the support functions. Overlapping
//!   pairs show 0 (no penetration depth in the page). Not the library's certified query, but
//!   a checked estimate: the browser tests compare it with `proxima check` (to 1e-6 m).
//!
//! The summary states the library's certified minimum (signed: negative is a penetration
//! depth) at the first configuration shown: every joint in the middle of its limits.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Result, bail};
use proxima_cli_support::files::read_text;
use proxima_geom::Pose;
use proxima_robot::{JointDrive, LimitPolicy, LoadOptions, Robot, Srdf};
use proxima_scene::robot_world::BodyKind;
use proxima_scene::{DistanceMode, RobotQuerySettings, RobotWorldBuilder};
use proxima_viewer::{Attachment, JointData, Page, RobotData, SceneBuilder, ViewKind, pose7};

/// The page of the robot described by `urdf`.
pub fn robot_page(urdf: &Path, srdf: Option<&Path>, package_dirs: &[PathBuf], margin: f64) -> Result<Page> {
    let options = LoadOptions { package_dirs: package_dirs.to_vec(), ..LoadOptions::default() };
    let robot = Arc::new(Robot::from_urdf_file(urdf, &options)?);
    let srdf = match srdf {
        Some(p) => Some(Srdf::parse(&read_text(p)?, &p.display().to_string())?),
        None => None,
    };
    let world = RobotWorldBuilder::new().robot(robot.clone(), Pose::identity(), "", "robot", srdf).build()?;
    // the first configuration: every joint in the middle of its limits (0 when unlimited)
    let q0: Vec<f64> = robot
        .position_limits()
        .iter()
        .map(|&(lo, hi)| if lo.is_finite() && hi.is_finite() { 0.5 * (lo + hi) } else { 0.0 })
        .collect();
    let (mut scratch, mut link_poses) = (Vec::new(), Vec::new());
    robot.link_poses(&Pose::identity(), &q0, LimitPolicy::Clamp, &mut scratch, &mut link_poses)?;

    let mut scene = SceneBuilder::precise();
    let mut attachments = Vec::new();
    for body in world.bodies() {
        let BodyKind::Link { link, .. } = body.kind else { continue };
        let several = body.pieces.len() > 1;
        for (k, p) in body.pieces.clone().enumerate() {
            let piece = &world.pieces()[p];
            let name = if several { format!("{}#{k}", body.name) } else { body.name.clone() };
            let object =
                scene.add(&name, &body.name, &piece.shape, &link_poses[link].compose(&piece.local))?;
            attachments.push(Attachment { object, link: link as u32, local: pose7(&piece.local) });
        }
    }
    // piece index → object index (pieces of links, in order)
    let mut pairs = Vec::new();
    let first_object: Vec<usize> = world
        .bodies()
        .iter()
        .scan(0usize, |next, b| {
            let at = *next;
            *next += b.pieces.len();
            Some(at)
        })
        .collect();
    for p in world.pairs() {
        let (a, b) = (&world.bodies()[p.a], &world.bodies()[p.b]);
        for i in 0..a.pieces.len() {
            for j in 0..b.pieces.len() {
                pairs.push([(first_object[p.a] + i) as u32, (first_object[p.b] + j) as u32]);
            }
        }
    }

    // joints in tree order: a joint after the joint of its parent link
    let joints = robot.joints();
    let mut order = Vec::with_capacity(joints.len());
    let mut placed = vec![false; robot.links().len()];
    placed[robot.root()] = true;
    while order.len() < joints.len() {
        let before = order.len();
        for (j, joint) in joints.iter().enumerate() {
            if !order.contains(&j) && placed[joint.parent] {
                order.push(j);
                placed[joint.child] = true;
            }
        }
        if order.len() == before {
            bail!("the joints of {} do not form a tree", urdf.display());
        }
    }
    let position_of = |j: usize| order.iter().position(|&o| o == j).unwrap_or(0) as u32;
    let actuated = robot.actuated_joints();
    let mut joint_data = Vec::with_capacity(order.len());
    let mut initial = Vec::with_capacity(order.len());
    for &j in &order {
        let joint = &joints[j];
        let (lower, upper) = match joint.limits {
            Some(l) if l.lower.is_finite() && l.upper.is_finite() => (l.lower, l.upper),
            _ => (-std::f64::consts::PI, std::f64::consts::PI),
        };
        let mimic = match joint.drive {
            JointDrive::Mimic { coordinate, multiplier, offset } => {
                Some((position_of(actuated[coordinate]), multiplier, offset))
            }
            _ => None,
        };
        initial.push(match joint.drive {
            JointDrive::Actuated { coordinate } => q0[coordinate],
            _ => 0.0,
        });
        joint_data.push(JointData {
            name: joint.name.clone(),
            coordinate: match joint.drive {
                JointDrive::Actuated { coordinate } => Some(coordinate as u32),
                _ => None,
            },
            kind: joint.kind.as_str().to_string(),
            parent: joint.parent as u32,
            child: joint.child as u32,
            origin: pose7(&joint.origin),
            axis: [joint.axis.x, joint.axis.y, joint.axis.z],
            lower,
            upper,
            mimic,
        });
    }

    // the library's certified answer at the first configuration
    let settings = RobotQuerySettings::default().with_limits(LimitPolicy::Clamp);
    settings.validate()?;
    let mut ws = world.workspace();
    let report = world.distances(&q0, &mut ws, &settings, DistanceMode::Minimum)?;
    let mut summary = vec![format!(
        "{}: {} links with collision geometry, {} convex pieces, {} monitored pairs, {} joints",
        robot.name(),
        world.bodies().len(),
        world.pieces().len(),
        world.pairs().len(),
        robot.dof()
    )];
    let min_distance = report.closest.map(|m| m.distance);
    match report.closest {
        Some(m) => {
            let (a, b) = world.pair_names(m.pair);
            summary.push(format!(
                "at the first configuration (every joint mid-range): minimum distance {} m ({a} – {b}), certified in [{}, {}]",
                m.distance, m.lower, m.upper
            ));
        }
        None => summary.push("no monitored pair".into()),
    }
    summary.push("moving a slider recomputes the poses (f64 forward kinematics) and every pair's distance (GJK on the exact hulls, with its bracket) in the page".into());

    let mut view = scene.into_view(robot.name().to_string(), ViewKind::Robot);
    view.pairs = pairs;
    view.margin = margin;
    view.summary = summary.clone();
    view.robot = Some(RobotData {
        root: robot.root() as u32,
        base: pose7(&Pose::identity()),
        joints: joint_data,
        attachments,
        links: robot.links().iter().map(|l| l.name.clone()).collect(),
        initial,
    });
    Ok(Page { title: format!("Proxima: {}", robot.name()), summary, min_distance, views: vec![view] })
}
