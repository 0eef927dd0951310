//! Workcells: robots driven along trajectories plus static or scripted obstacles, with their
//! pair list; the spec's W25 arm (`multi-object-workcell.md` §7) and the scaled scenes (§7.8).
//!
//! # The W25 arm
//!
//! A 6R arm with 14 convex links (96 facets, ≤ 10 each) over a floor slab and one box
//! obstacle, 25 pairs (P1…P14 × O, then P4…P14 × F). The four prism links (P2 base column, P4
//! shoulder, P7 elbow and P10 wrist housings) are exact regular prisms (half-space polyhedra,
//! queried by GJK) in [`PrismModel::Exact`], the model `proxima demo` runs.
//! [`PrismModel::BoundingBox`] replaces each prism by its tightest box in the prism's frame:
//! it contains the prism, so every distance is a lower bound of the exact model's (safe), and
//! the whole arm then runs on the box–box kernels.

use std::f64::consts::PI;
use std::sync::Arc;

use nalgebra::{Matrix3, Vector3};
use proxima_geom::shape::{Cuboid, Polyhedron};
use proxima_geom::{Pose, Shape};
use proxima_robot::{LimitPolicy, Robot, Srdf};

use crate::error::SceneError;
use crate::pairs::{Pair, PairRules, Selector};
use crate::robot::{Axis, Joint, JointSinusoid, Link, RobotModel, Trajectory};
use crate::robot_world::{SelfCollision, self_link_pairs};
use crate::world::{ObjectId, World};

/// How the prism links of the W25 arm are modelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PrismModel {
    /// Tightest enclosing box in the prism's frame (works with today's box–box queries).
    #[default]
    BoundingBox,
    /// The exact regular prism as a [`Polyhedron`] (needs a polyhedron–box query).
    Exact,
}

fn geom<T>(at: &str, r: Result<T, proxima_geom::GeomError>) -> Result<T, SceneError> {
    r.map_err(|source| SceneError::Geometry { at: at.to_string(), source })
}

fn translation(c: [f64; 3]) -> Pose {
    Pose::from_matrix(Matrix3::identity(), Vector3::from(c)).expect("identity rotation, finite translation")
}

/// In-plane basis (u, v) of a prism with this axis (spec §7.2).
fn prism_basis(axis: Axis) -> ([f64; 3], [f64; 3], [f64; 3]) {
    match axis {
        Axis::Z => ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
        Axis::Y => ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        Axis::X => ([0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
    }
}

/// A regular k-gonal prism centred at the local origin: side normals at φ_j = 2πj/k in the
/// basis (u, v) of `axis`, then the two caps. `Exact` gives the polyhedron, `BoundingBox` its
/// tightest axis-aligned box.
pub fn prism(k: usize, axis: Axis, apothem: f64, half: f64, model: PrismModel) -> Result<Shape, SceneError> {
    if k < 3 {
        return Err(SceneError::invalid("prism.sides", "a prism needs at least 3 sides"));
    }
    let (u, v, w) = prism_basis(axis);
    match model {
        PrismModel::Exact => {
            let mut hs = Vec::with_capacity(k + 2);
            for j in 0..k {
                let phi = 2.0 * PI * j as f64 / k as f64;
                let (s, c) = phi.sin_cos();
                hs.push(([c * u[0] + s * v[0], c * u[1] + s * v[1], c * u[2] + s * v[2]], apothem));
            }
            hs.push((w, half));
            hs.push(([-w[0], -w[1], -w[2]], half));
            Ok(Shape::Polyhedron(geom("prism", Polyhedron::new(hs))?))
        }
        PrismModel::BoundingBox => {
            // vertices at φ_j + π/k, radius apothem / cos(π/k)
            let r = apothem / (PI / k as f64).cos();
            let (mut eu, mut ev) = (0.0_f64, 0.0_f64);
            for j in 0..k {
                let a = 2.0 * PI * j as f64 / k as f64 + PI / k as f64;
                eu = eu.max(r * a.cos().abs());
                ev = ev.max(r * a.sin().abs());
            }
            let mut h = [0.0; 3];
            for i in 0..3 {
                h[i] = eu * u[i].abs() + ev * v[i].abs() + half * w[i].abs();
            }
            Ok(Shape::Cuboid(geom("prism", Cuboid::new(h))?))
        }
    }
}

fn cuboid(h: [f64; 3]) -> Result<Shape, SceneError> {
    Ok(Shape::Cuboid(geom("box", Cuboid::new(h))?))
}

/// The spec's 6R arm (§7.1–7.2) with its base at `base`.
pub fn w25_arm(base: Pose, prisms: PrismModel) -> Result<RobotModel, SceneError> {
    let joints = vec![
        Joint { offset: [0.0, 0.0, 0.0], axis: Axis::Z },
        Joint { offset: [0.35, 0.0, 0.75], axis: Axis::Y },
        Joint { offset: [0.0, 0.0, 0.90], axis: Axis::Y },
        Joint { offset: [0.0, 0.0, 0.15], axis: Axis::X },
        Joint { offset: [0.70, 0.0, 0.0], axis: Axis::Y },
        Joint { offset: [0.12, 0.0, 0.0], axis: Axis::X },
    ];
    let link = |name: &str, frame: usize, c: [f64; 3], shape: Shape| Link {
        name: name.to_string(),
        frame,
        local: translation(c),
        shape,
    };
    let links = vec![
        link("P1", 0, [0.0, 0.0, 0.10], cuboid([0.40, 0.40, 0.10])?),
        link("P2", 0, [0.0, 0.0, 0.325], prism(8, Axis::Z, 0.28, 0.125, prisms)?),
        link("P3", 1, [0.10, 0.0, 0.60], cuboid([0.35, 0.30, 0.15])?),
        link("P4", 1, [0.35, 0.0, 0.75], prism(6, Axis::Y, 0.18, 0.25, prisms)?),
        link("P5", 2, [0.0, 0.0, 0.45], cuboid([0.10, 0.12, 0.45])?),
        link("P6", 2, [-0.18, 0.0, 0.10], cuboid([0.10, 0.15, 0.15])?),
        link("P7", 3, [0.0, 0.0, 0.0], prism(6, Axis::Y, 0.15, 0.18, prisms)?),
        link("P8", 3, [-0.20, 0.0, 0.15], cuboid([0.15, 0.12, 0.12])?),
        link("P9", 4, [0.31, 0.0, 0.0], cuboid([0.31, 0.09, 0.09])?),
        link("P10", 4, [0.66, 0.0, 0.0], prism(8, Axis::X, 0.09, 0.06, prisms)?),
        link("P11", 5, [0.04, 0.0, 0.0], cuboid([0.08, 0.08, 0.08])?),
        link("P12", 6, [0.02, 0.0, 0.0], cuboid([0.02, 0.07, 0.07])?),
        link("P13", 6, [0.09, 0.0, 0.0], cuboid([0.05, 0.06, 0.09])?),
        link("P14", 6, [0.18, 0.0, 0.0], cuboid([0.04, 0.05, 0.02])?),
    ];
    Ok(RobotModel { base, joints, links })
}

/// The spec's §7.5 trajectory (period 4 s), in radians.
pub fn w25_trajectory() -> Trajectory {
    let d = PI / 180.0;
    let s = |offset: f64, terms: &[(f64, f64, f64)]| JointSinusoid {
        offset: offset * d,
        terms: terms.iter().map(|&(a, h, p)| (a * d, h, p)).collect(),
    };
    Trajectory::Sinusoids {
        period: 4.0,
        joints: vec![
            s(0.0, &[(110.0, 1.0, 0.0)]),
            s(40.0, &[(30.0, 1.0, PI / 3.0)]),
            s(10.0, &[(35.0, 1.0, PI / 2.0)]),
            s(0.0, &[(60.0, 1.0, 0.0)]),
            s(30.0, &[(40.0, 2.0, 0.0)]),
            s(0.0, &[(90.0, 1.0, 0.0)]),
        ],
    }
}

/// A robot placed in a workcell: its model, trajectory and the world objects of its links.
#[derive(Debug, Clone)]
pub struct RobotInstance {
    /// The arm.
    pub model: RobotModel,
    /// Its joint trajectory.
    pub trajectory: Trajectory,
    /// The world object of each link, in the model's link order.
    pub links: Vec<ObjectId>,
}

/// A robot from a description (URDF) placed in a workcell: every convex piece of its links is
/// a world object named `{prefix}{link}` (`{prefix}{link}#{k}` for links of several pieces) in
/// the robot's group.
#[derive(Debug, Clone)]
pub struct DescribedRobot {
    /// The model.
    pub robot: Arc<Robot>,
    /// Pose of its root link.
    pub base: Pose,
    /// Its group name.
    pub name: String,
    /// Its joint trajectory (one value per configuration coordinate).
    pub trajectory: Trajectory,
    /// Joint values outside the limits: an error (default) or clamped.
    pub limits: LimitPolicy,
    /// World object of each geometry piece, in [`Robot::geometries`] order.
    pub objects: Vec<ObjectId>,
    /// Its self pairs (from the self-collision rule and its SRDF), as object pairs.
    pub self_pairs: Vec<Pair>,
}

/// An object moved by a script of per-cycle poses (cycles past the end hold the last pose).
#[derive(Debug, Clone)]
pub struct ScriptedObject {
    /// The world object.
    pub object: ObjectId,
    /// One pose per cycle.
    pub poses: Vec<Pose>,
}

/// A world, the robots and scripted objects that move in it, and the monitored pairs.
#[derive(Debug, Clone)]
pub struct Workcell {
    /// Name (for reports).
    pub name: String,
    /// The objects.
    pub world: World,
    /// The hand-written serial arms.
    pub robots: Vec<RobotInstance>,
    /// The robots from descriptions (URDF).
    pub described: Vec<DescribedRobot>,
    /// Objects moved by per-cycle poses.
    pub scripted: Vec<ScriptedObject>,
    /// Monitored pairs.
    pub pairs: Vec<Pair>,
    /// Cycle period in seconds.
    pub dt: f64,
    /// Cycles in one run.
    pub cycles: usize,
    q: Vec<f64>,
    frames: Vec<Pose>,
    scratch: Vec<f64>,
}

impl Workcell {
    /// An empty workcell.
    pub fn new(name: impl Into<String>, dt: f64, cycles: usize) -> Result<Self, SceneError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(SceneError::invalid("dt", "must be finite and > 0"));
        }
        Ok(Self {
            name: name.into(),
            world: World::new(),
            robots: Vec::new(),
            described: Vec::new(),
            scripted: Vec::new(),
            pairs: Vec::new(),
            dt,
            cycles,
            q: Vec::new(),
            frames: Vec::new(),
            scratch: Vec::new(),
        })
    }

    /// Adds a robot from a description with its root at `base`: its pieces become objects of
    /// group `name`, placed at the trajectory's cycle-0 configuration, and its self pairs are
    /// computed (see [`DescribedRobot`]). Errors: a trajectory of the wrong joint count or with
    /// invalid values, joint values outside the limits (unless `limits` clamps), an SRDF naming
    /// an unknown link, duplicate object names.
    #[allow(clippy::too_many_arguments)]
    pub fn add_described_robot(
        &mut self,
        name: &str,
        prefix: &str,
        robot: Arc<Robot>,
        base: Pose,
        trajectory: Trajectory,
        srdf: Option<&Srdf>,
        self_collision: SelfCollision,
        limits: LimitPolicy,
    ) -> Result<(), SceneError> {
        let at = |f: &str| format!("robots.{name}.{f}");
        trajectory.validate().map_err(|e| SceneError::robot(&at("trajectory"), e))?;
        if trajectory.joint_count() != robot.dof() {
            return Err(SceneError::invalid(
                at("trajectory"),
                format!(
                    "drives {} joints, the robot has {} ({})",
                    trajectory.joint_count(),
                    robot.dof(),
                    robot.joint_names().join(", ")
                ),
            ));
        }
        if let Some(s) = srdf {
            s.check_links(|l| robot.link_index(l).is_some())
                .map_err(|e| SceneError::robot(&at("srdf"), e))?;
        }
        trajectory.at(0, self.dt, &mut self.q);
        robot
            .link_poses(&base, &self.q, limits, &mut self.scratch, &mut self.frames)
            .map_err(|e| SceneError::robot(&format!("robots.{name}"), e))?;
        let mut objects = Vec::with_capacity(robot.geometries().len());
        for g in robot.geometries() {
            let link = &robot.links()[g.link];
            let object = if link.geometry.len() == 1 {
                format!("{prefix}{}", link.name)
            } else {
                format!("{prefix}{}#{}", link.name, objects.len() - link.geometry.start)
            };
            let pose = self.frames[g.link].compose(&g.origin);
            objects.push(self.world.add(object, name, g.shape.clone(), pose)?);
        }
        // joint velocity limits bound every link's motion per cycle: the scheduler's look-ahead
        let speeds = proxima_robot::MotionBounds::new(&robot).link_speed_limits(&robot.velocity_limits());
        for (g, &id) in robot.geometries().iter().zip(&objects) {
            if let Some(v) = speeds[g.link] {
                self.world.set_motion_limit(id, v * self.dt);
            }
        }
        let mut self_pairs = Vec::new();
        for (la, lb) in self_link_pairs(&robot, srdf, self_collision) {
            for i in robot.links()[la].geometry.clone() {
                for j in robot.links()[lb].geometry.clone() {
                    let (a, b) = (objects[i], objects[j]);
                    self_pairs.push(Pair { a: a.min(b), b: a.max(b) });
                }
            }
        }
        self.described.push(DescribedRobot {
            robot,
            base,
            name: name.to_string(),
            trajectory,
            limits,
            objects,
            self_pairs,
        });
        Ok(())
    }

    /// Sets the monitored pairs: those of `rules`, then the self pairs of the described
    /// robots that no exclude rule matches (without duplicates).
    pub fn set_pairs(&mut self, rules: &PairRules) -> Result<(), SceneError> {
        let mut pairs = rules.build(&self.world)?;
        let mut seen: std::collections::HashSet<Pair> = pairs.iter().copied().collect();
        for r in &self.described {
            for &p in &r.self_pairs {
                let excluded = rules.exclude.iter().any(|(sa, sb)| {
                    (sa.matches(&self.world, p.a) && sb.matches(&self.world, p.b))
                        || (sa.matches(&self.world, p.b) && sb.matches(&self.world, p.a))
                });
                if !excluded && seen.insert(p) {
                    pairs.push(p);
                }
            }
        }
        self.pairs = pairs;
        Ok(())
    }

    /// Adds a robot: its links become objects `{prefix}{link name}` of group `group`, placed at
    /// the trajectory's cycle-0 configuration.
    pub fn add_robot(
        &mut self,
        prefix: &str,
        group: &str,
        model: RobotModel,
        trajectory: Trajectory,
    ) -> Result<(), SceneError> {
        model.validate().map_err(|e| SceneError::robot("", e))?;
        if trajectory.joint_count() != model.joints.len() {
            return Err(SceneError::invalid(
                format!("robots.{group}.trajectory"),
                format!("drives {} joints, the arm has {}", trajectory.joint_count(), model.joints.len()),
            ));
        }
        trajectory.at(0, self.dt, &mut self.q);
        model.frames(&self.q, &mut self.frames).map_err(|e| SceneError::robot("", e))?;
        let poses: Vec<Pose> = model.link_poses(&self.frames).collect();
        let mut links = Vec::with_capacity(model.links.len());
        for (l, pose) in model.links.iter().zip(poses) {
            let id = self.world.add(format!("{prefix}{}", l.name), group, l.shape.clone(), pose)?;
            self.world.set_chain_frame(id, l.frame);
            links.push(id);
        }
        self.robots.push(RobotInstance { model, trajectory, links });
        Ok(())
    }

    /// Moves every robot and scripted object to cycle `cycle`.
    pub fn set_cycle(&mut self, cycle: usize) -> Result<(), SceneError> {
        for r in &self.robots {
            r.trajectory.at(cycle, self.dt, &mut self.q);
            r.model.frames(&self.q, &mut self.frames).map_err(|e| SceneError::robot("", e))?;
            for (l, &id) in r.model.links.iter().zip(&r.links) {
                self.world.set_pose(id, self.frames[l.frame].compose(&l.local));
            }
        }
        for r in &self.described {
            r.trajectory.at(cycle, self.dt, &mut self.q);
            r.robot
                .link_poses(&r.base, &self.q, r.limits, &mut self.scratch, &mut self.frames)
                .map_err(|e| SceneError::robot(&format!("robots.{} at cycle {cycle}", r.name), e))?;
            for (g, &id) in r.robot.geometries().iter().zip(&r.objects) {
                self.world.set_pose(id, self.frames[g.link].compose(&g.origin));
            }
        }
        for s in &self.scripted {
            if let Some(p) = s.poses.get(cycle.min(s.poses.len().saturating_sub(1))) {
                self.world.set_pose(s.object, *p);
            }
        }
        Ok(())
    }
}

/// The spec's default workcell W25 (or W22 with `literal_22`): the arm, obstacle O, floor F;
/// 4000 cycles at 1 kHz.
pub fn w25(prisms: PrismModel, literal_22: bool) -> Result<Workcell, SceneError> {
    let mut cell = Workcell::new(if literal_22 { "W22" } else { "W25" }, 1e-3, 4000)?;
    cell.add_robot("", "arm", w25_arm(Pose::identity(), prisms)?, w25_trajectory())?;
    add_fixtures(&mut cell.world)?;
    let first_floor = if literal_22 { 7 } else { 4 };
    let mut rules = PairRules::default();
    rules.include.push((Selector::Group("arm".into()), Selector::Object("O".into())));
    rules.include.push((Selector::Group("arm".into()), Selector::Object("F".into())));
    for p in 1..first_floor {
        rules.exclude.push((Selector::Object(format!("P{p}")), Selector::Object("F".into())));
    }
    cell.pairs = rules.build(&cell.world)?;
    Ok(cell)
}

fn add_fixtures(world: &mut World) -> Result<(), SceneError> {
    let rz = Axis::Z.rotation(30.0_f64.to_radians());
    let o_pose = geom("O", Pose::from_matrix(rz, Vector3::new(1.60, 0.40, 0.25)))?;
    world.add("O", "obstacles", cuboid([0.30, 0.50, 0.25])?, o_pose)?;
    world.add("F", "floor", cuboid([5.0, 5.0, 0.10])?, translation([0.0, 0.0, -0.10]))?;
    Ok(())
}

/// Spec §7.8's deterministic obstacle k of S(N) around `centre` (boxes, 6- and 8-prisms).
pub fn scatter_obstacle(k: usize, centre: [f64; 3], prisms: PrismModel) -> Result<(Shape, Pose), SceneError> {
    let frac = |x: f64| x - x.floor();
    let k1 = (k + 1) as f64;
    let theta = (k as f64 * 137.507_764_05).to_radians();
    let r = 2.9 + 1.2 * frac(0.618_033_988_7 * k1);
    let z = 0.3 + 1.5 * frac(0.414_213_562_4 * k1);
    let psi = (47.0 * k as f64).to_radians();
    let (f1, f2, f3) = (frac(0.732_050_807_6 * k1), frac(0.236_067_977_5 * k1), frac(0.645_751_311_1 * k1));
    let shape = match k % 3 {
        0 => cuboid([0.15 + 0.15 * f1, 0.15 + 0.15 * f2, 0.15 + 0.2 * f3])?,
        1 => prism(6, Axis::Z, 0.15 + 0.15 * f1, 0.15 + 0.2 * f3, prisms)?,
        _ => prism(8, Axis::Z, 0.15 + 0.15 * f1, 0.15 + 0.2 * f3, prisms)?,
    };
    let t = Vector3::new(centre[0] + r * theta.cos(), centre[1] + r * theta.sin(), centre[2] + z);
    Ok((shape, geom("obstacle", Pose::from_matrix(Axis::Z.rotation(psi), t))?))
}

/// The scaled scene: `robots` W25 arms on a row of bases 8.5 m apart (each with the W25
/// trajectory, phase-shifted by a quarter period per robot), the obstacle O and floor of each,
/// and `obstacles` extra obstacles of §7.8 scattered around the arms. Pairs: every link against
/// every obstacle and the floor (minus P1–P3 × floor), and links of different robots against
/// each other. 2000 cycles at 1 kHz.
pub fn scaled(robots: usize, obstacles: usize, prisms: PrismModel) -> Result<Workcell, SceneError> {
    let mut cell = Workcell::new(format!("scale-{robots}x14+{obstacles}"), 1e-3, 2000)?;
    // rings of radius ≤ 4.1 (+ obstacle size) stay out of the other arms' 2.3 m reach
    let spacing = 8.5;
    for r in 0..robots {
        let x0 = r as f64 * spacing;
        let base = translation([x0, 0.0, 0.0]);
        let mut traj = w25_trajectory();
        if let Trajectory::Sinusoids { joints, .. } = &mut traj {
            for j in joints {
                for t in &mut j.terms {
                    t.2 += r as f64 * PI / 2.0;
                }
            }
        }
        cell.add_robot(&format!("r{r}."), &format!("robot{r}"), w25_arm(base, prisms)?, traj)?;
    }
    let rz = Axis::Z.rotation(30.0_f64.to_radians());
    for r in 0..robots {
        let x0 = r as f64 * spacing;
        let o_pose = geom("O", Pose::from_matrix(rz, Vector3::new(x0 + 1.60, 0.40, 0.25)))?;
        cell.world.add(format!("O{r}"), "obstacles", cuboid([0.30, 0.50, 0.25])?, o_pose)?;
    }
    let span = (robots.max(1) - 1) as f64 * spacing;
    for k in 0..obstacles {
        // spread the §7.8 ring along the row of robots
        let cx = if robots > 1 { span * (k % robots) as f64 / (robots - 1) as f64 } else { 0.0 };
        let (shape, pose) = scatter_obstacle(k, [cx, 0.0, 0.0], prisms)?;
        cell.world.add(format!("S{k}"), "obstacles", shape, pose)?;
    }
    cell.world.add(
        "F",
        "floor",
        cuboid([5.0 + span / 2.0, 5.0, 0.10])?,
        translation([span / 2.0, 0.0, -0.10]),
    )?;
    let mut rules = PairRules { exclude_same_group: true, ..PairRules::default() };
    for r in 0..robots {
        let g = Selector::Group(format!("robot{r}"));
        rules.include.push((g.clone(), Selector::Group("obstacles".into())));
        rules.include.push((g.clone(), Selector::Group("floor".into())));
        for r2 in r + 1..robots {
            rules.include.push((g.clone(), Selector::Group(format!("robot{r2}"))));
        }
        for p in 1..4 {
            rules.exclude.push((Selector::Object(format!("r{r}.P{p}")), Selector::Object("F".into())));
        }
    }
    cell.pairs = rules.build(&cell.world)?;
    Ok(cell)
}

/// The real-robot cell of `proxima demo`: two Franka Panda arms (the description at `urdf`,
/// its meshes as exact hulls) on one table, 1.1 m apart and facing each other, with a parts
/// bin between them and a post beside it, 4000 cycles at 1 kHz. Each arm follows sinusoids
/// around its ready pose (period 4 s, joint speeds below the URDF limits), the second a
/// quarter period behind, so the hands pass over the bin and near each other.
///
/// Pairs: each arm's self pairs (all but adjacent links), every link of one arm against every
/// link of the other, and every link against the bin, the post and the table, except the two
/// bases against the table they stand on.
pub fn panda_cell(urdf: &std::path::Path) -> Result<Workcell, SceneError> {
    let robot = Arc::new(
        Robot::from_urdf_file(urdf, &proxima_robot::LoadOptions::default())
            .map_err(|e| SceneError::robot("panda_cell", e))?,
    );
    let mut cell = Workcell::new("two Pandas", 1e-3, 4000)?;
    // ready pose and per-joint swing (rad; the finger in m)
    let ready = [0.0, 0.2, 0.0, -1.8, 0.0, 1.9, 0.785, 0.03];
    let swing = [0.55, 0.38, 0.3, 0.45, 0.6, 0.35, 0.8, 0.008];
    let harmonic = [1.0, 1.0, 2.0, 1.0, 2.0, 1.0, 1.0, 2.0];
    let trajectory = |phase: f64| Trajectory::Sinusoids {
        period: 4.0,
        joints: (0..8)
            .map(|j| JointSinusoid {
                offset: ready[j],
                terms: vec![(swing[j], harmonic[j], phase + j as f64 * 0.7)],
            })
            .collect(),
    };
    let facing = geom("base", Pose::from_matrix(Axis::Z.rotation(PI), Vector3::new(1.1, 0.0, 0.0)))?;
    cell.add_described_robot(
        "left",
        "left/",
        robot.clone(),
        Pose::identity(),
        trajectory(0.0),
        None,
        SelfCollision::AllButAdjacent,
        LimitPolicy::Reject,
    )?;
    cell.add_described_robot(
        "right",
        "right/",
        robot,
        facing,
        trajectory(PI / 2.0),
        None,
        SelfCollision::AllButAdjacent,
        LimitPolicy::Reject,
    )?;
    cell.world.add("table", "fixtures", cuboid([0.95, 0.6, 0.02])?, translation([0.55, 0.0, -0.02]))?;
    cell.world.add("bin", "fixtures", cuboid([0.12, 0.18, 0.04])?, translation([0.55, 0.0, 0.04]))?;
    let post = Shape::Cylinder(geom("post", proxima_geom::shape::Cylinder::new(0.04, 0.2))?);
    cell.world.add("post", "fixtures", post, translation([0.55, 0.5, 0.2]))?;
    let mut rules = PairRules::default();
    rules.include.push((Selector::Group("left".into()), Selector::Group("right".into())));
    for arm in ["left", "right"] {
        rules.include.push((Selector::Group(arm.into()), Selector::Group("fixtures".into())));
        rules
            .exclude
            .push((Selector::Object(format!("{arm}/panda_link0")), Selector::Object("table".into())));
    }
    cell.set_pairs(&rules)?;
    Ok(cell)
}
