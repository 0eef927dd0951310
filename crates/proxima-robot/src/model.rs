//! The robot model: a kinematic tree of links and joints from a URDF description, with convex
//! collision geometry per link.
//!
//! # Structure
//!
//! Links and joints keep URDF document order. The tree must have exactly one root link (no
//! parent joint), every joint's parent and child must be links, a link has at most one parent
//! joint, and every link is reachable from the root (no cycles).
//!
//! # Configuration
//!
//! The configuration vector `q` has one value per **actuated** joint: revolute, continuous or
//! prismatic joints without `<mimic>`, in URDF document order of `<joint>` elements (the robot
//! benchmark's order). A mimic joint's value is multiplier · value(source) + offset, resolved
//! through chains of mimics at load time (a mimic cycle, or a mimic of a fixed joint, is an
//! error). Values are radians (revolute, continuous) or metres (prismatic).
//!
//! # Geometry
//!
//! Each `<collision>` element becomes one or more convex [`Geometry`] pieces placed by its
//! origin in the link frame: boxes, cylinders, spheres and capsules as themselves, meshes as
//! the exact convex hull of each part (see [`crate::mesh`] and [`crate::hull`]). The distance
//! between two links is the minimum over their pieces.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use nalgebra::Vector3;
use proxima_geom::shape::{Capsule, Cuboid, Cylinder, Sphere};
use proxima_geom::{Pose, Shape};

use crate::error::RobotError;
use crate::hull::{DegenerateMeshes, MeshCache};
use crate::mesh::MeshParts;
use crate::resolve::resolve_uri;
use crate::support::HullSupport;
use crate::urdf::{JointKind, UrdfGeometry, UrdfRobot, parse_urdf};

/// How a robot description is loaded.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LoadOptions {
    /// Directories searched for `package://` URIs (and relative mesh paths), in order.
    pub package_dirs: Vec<PathBuf>,
    /// How mesh files are split into convex parts. Default [`MeshParts::Objects`].
    pub mesh_parts: MeshParts,
    /// What to do with flat meshes. Default [`DegenerateMeshes::Flag`].
    pub degenerate_meshes: DegenerateMeshes,
}

/// Joint values outside the limits by at most this much (radians or metres) count as inside:
/// limits and sampled values written as decimals round differently.
pub const LIMIT_TOLERANCE: f64 = 1e-9;

/// What to do with joint values outside their limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LimitPolicy {
    /// An error ([`RobotError::OutOfLimits`]) — the default.
    #[default]
    Reject,
    /// Clamp each value into its limits.
    Clamp,
}

/// Position and velocity limits of a joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointLimits {
    /// Lower position limit (−∞ for continuous joints).
    pub lower: f64,
    /// Upper position limit (+∞ for continuous joints).
    pub upper: f64,
    /// Velocity limit (rad/s or m/s), when the description gives one.
    pub velocity: Option<f64>,
}

/// How a joint gets its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointDrive {
    /// A fixed joint.
    Fixed,
    /// `q[coordinate]`.
    Actuated {
        /// Index into the configuration.
        coordinate: usize,
    },
    /// `multiplier · q[coordinate] + offset` (a mimic joint, chains resolved).
    Mimic {
        /// Index into the configuration of the actuated joint it follows.
        coordinate: usize,
        /// Multiplier.
        multiplier: f64,
        /// Offset.
        offset: f64,
    },
}

/// A joint of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Name.
    pub name: String,
    /// Type.
    pub kind: JointKind,
    /// Parent link index.
    pub parent: usize,
    /// Child link index.
    pub child: usize,
    /// Pose of the joint frame in the parent link frame.
    pub origin: Pose,
    /// Unit axis in the joint frame.
    pub axis: Vector3<f64>,
    /// Limits (continuous joints: infinite position limits).
    pub limits: Option<JointLimits>,
    /// Where its value comes from.
    pub drive: JointDrive,
}

/// A link of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// Name.
    pub name: String,
    /// The joint whose child it is (`None` for the root).
    pub parent_joint: Option<usize>,
    /// Its collision pieces: indices into [`Robot::geometries`].
    pub geometry: std::ops::Range<usize>,
    /// Links connected through fixed joints share a rigid group (the index of one of them).
    pub rigid_group: usize,
}

/// Where a collision piece comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum GeometrySource {
    /// A URDF primitive (box, cylinder, sphere, capsule).
    Primitive,
    /// A part of a mesh file.
    Mesh {
        /// The URI as written.
        uri: String,
        /// The file it resolved to.
        path: PathBuf,
        /// The scale applied.
        scale: [f64; 3],
        /// Index of the part within the file, and the part's object name.
        part: (usize, String),
        /// Vertices of the part (scaled mesh vertices).
        mesh_vertices: usize,
        /// Whether the part was flat (lower-dimensional, see [`crate::hull`]).
        flat: bool,
    },
}

/// One convex collision piece of a link.
#[derive(Debug, Clone, PartialEq)]
pub struct Geometry {
    /// The link it belongs to.
    pub link: usize,
    /// Index of its `<collision>` element within the link.
    pub collision: usize,
    /// The `<collision name>`, if any.
    pub name: Option<String>,
    /// Pose of the shape in the link frame.
    pub origin: Pose,
    /// The convex shape in its own frame.
    pub shape: Shape,
    /// Where it came from.
    pub source: GeometrySource,
    /// A ball containing the shape, in the shape's frame: (centre, radius).
    pub bounding_sphere: ([f64; 3], f64),
    /// The hill-climbing support function of a mesh hull (shared by the pieces of one mesh).
    pub support: Option<Arc<HullSupport>>,
}

/// A robot: kinematic tree, limits and convex collision geometry (immutable; share it with
/// `Arc` across threads and keep per-thread scratch space in the caller).
#[derive(Debug, Clone, PartialEq)]
pub struct Robot {
    name: String,
    links: Vec<Link>,
    joints: Vec<Joint>,
    root: usize,
    /// Joints in an order where each joint's parent link is placed before it.
    order: Vec<usize>,
    /// The actuated joints, in configuration order.
    actuated: Vec<usize>,
    geometries: Vec<Geometry>,
}

fn describe(file: &str, line: u32, element: String, reason: impl Into<String>) -> RobotError {
    RobotError::Description { file: file.to_string(), line, element, reason: reason.into() }
}

impl Robot {
    /// Loads the URDF file at `path`; meshes resolve against its directory and
    /// `options.package_dirs`.
    pub fn from_urdf_file(path: impl AsRef<Path>, options: &LoadOptions) -> Result<Robot, RobotError> {
        Self::from_urdf_file_cached(path, options, &mut MeshCache::new())
    }

    /// [`Robot::from_urdf_file`] sharing mesh hulls through `cache`.
    pub fn from_urdf_file_cached(
        path: impl AsRef<Path>,
        options: &LoadOptions,
        cache: &mut MeshCache,
    ) -> Result<Robot, RobotError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| RobotError::Io { path: path.to_path_buf(), message: e.to_string() })?;
        let desc = parse_urdf(&text, &path.display().to_string())?;
        Self::from_description(&desc, path.parent(), options, cache)
    }

    /// Builds the model of a parsed description; relative mesh paths resolve against
    /// `description_dir` (the current directory when `None`).
    pub fn from_description(
        desc: &UrdfRobot,
        description_dir: Option<&Path>,
        options: &LoadOptions,
        cache: &mut MeshCache,
    ) -> Result<Robot, RobotError> {
        let file = desc.file.as_str();
        let link_index = |name: &str| desc.links.iter().position(|l| l.name == name);
        let mut links: Vec<Link> = desc
            .links
            .iter()
            .enumerate()
            .map(|(i, l)| Link { name: l.name.clone(), parent_joint: None, geometry: 0..0, rigid_group: i })
            .collect();
        // tree structure
        let mut joints = Vec::with_capacity(desc.joints.len());
        for (j, uj) in desc.joints.iter().enumerate() {
            let el = || format!("<joint name={:?}>", uj.name);
            let parent = link_index(&uj.parent).ok_or_else(|| {
                describe(file, uj.line, el(), format!("parent link {:?} does not exist", uj.parent))
            })?;
            let child = link_index(&uj.child).ok_or_else(|| {
                describe(file, uj.line, el(), format!("child link {:?} does not exist", uj.child))
            })?;
            if parent == child {
                return Err(describe(file, uj.line, el(), "a joint cannot connect a link to itself"));
            }
            if let Some(other) = links[child].parent_joint {
                return Err(describe(
                    file,
                    uj.line,
                    el(),
                    format!("link {:?} already has the parent joint {:?}", uj.child, desc.joints[other].name),
                ));
            }
            links[child].parent_joint = Some(j);
            let limits = match (uj.kind, uj.limit) {
                (JointKind::Continuous, l) => Some(JointLimits {
                    lower: f64::NEG_INFINITY,
                    upper: f64::INFINITY,
                    velocity: l.and_then(|l| l.velocity),
                }),
                (JointKind::Fixed, _) => None,
                (_, l) => l.map(|l| JointLimits { lower: l.lower, upper: l.upper, velocity: l.velocity }),
            };
            joints.push(Joint {
                name: uj.name.clone(),
                kind: uj.kind,
                parent,
                child,
                origin: uj.origin,
                axis: uj.axis,
                limits,
                drive: JointDrive::Fixed,
            });
        }
        let roots: Vec<usize> = (0..links.len()).filter(|&i| links[i].parent_joint.is_none()).collect();
        if roots.len() != 1 {
            let names: Vec<&str> = roots.iter().map(|&i| links[i].name.as_str()).collect();
            let line = desc.links.first().map_or(1, |l| l.line);
            return Err(describe(
                file,
                line,
                "<robot>".into(),
                if roots.is_empty() {
                    "the links form a cycle (no root link)".to_string()
                } else {
                    format!(
                        "the robot has {} root links (exactly one expected): {}",
                        roots.len(),
                        names.join(", ")
                    )
                },
            ));
        }
        let root = roots[0];
        // topological order from the root (children in joint document order)
        let mut order = Vec::with_capacity(joints.len());
        let mut frontier = vec![root];
        let mut placed = vec![false; links.len()];
        placed[root] = true;
        while let Some(l) = frontier.pop() {
            for (j, joint) in joints.iter().enumerate() {
                if joint.parent == l && !placed[joint.child] {
                    placed[joint.child] = true;
                    order.push(j);
                    frontier.push(joint.child);
                }
            }
        }
        if let Some(l) = (0..links.len()).find(|&l| !placed[l]) {
            return Err(describe(
                file,
                desc.links[l].line,
                format!("<link name={:?}>", links[l].name),
                "the link is not connected to the root link (its joints form a cycle)",
            ));
        }
        // configuration coordinates and mimics
        let mut actuated = Vec::new();
        for (j, uj) in desc.joints.iter().enumerate() {
            if uj.kind.is_movable() && uj.mimic.is_none() {
                joints[j].drive = JointDrive::Actuated { coordinate: actuated.len() };
                actuated.push(j);
            }
        }
        for (j, uj) in desc.joints.iter().enumerate() {
            let Some(m) = &uj.mimic else { continue };
            let el = || format!("<joint name={:?}> <mimic>", uj.name);
            if !uj.kind.is_movable() {
                return Err(describe(file, uj.line, el(), "a fixed joint cannot mimic another joint"));
            }
            let (mut multiplier, mut offset) = (m.multiplier, m.offset);
            let mut source = m.joint.as_str();
            let mut steps = 0;
            let coordinate = loop {
                let s = desc.joints.iter().position(|o| o.name == source).ok_or_else(|| {
                    describe(file, uj.line, el(), format!("mimicked joint {source:?} does not exist"))
                })?;
                if !desc.joints[s].kind.is_movable() {
                    return Err(describe(file, uj.line, el(), format!("mimicked joint {source:?} is fixed")));
                }
                match &desc.joints[s].mimic {
                    None => match joints[s].drive {
                        JointDrive::Actuated { coordinate } => break coordinate,
                        _ => unreachable!("a movable joint without mimic is actuated"),
                    },
                    Some(next) => {
                        // value(s) = next.multiplier · value(next.joint) + next.offset
                        offset += multiplier * next.offset;
                        multiplier *= next.multiplier;
                        source = next.joint.as_str();
                    }
                }
                steps += 1;
                if steps > desc.joints.len() {
                    return Err(describe(file, uj.line, el(), "the mimic relations form a cycle"));
                }
            };
            joints[j].drive = JointDrive::Mimic { coordinate, multiplier, offset };
        }
        // rigid groups: union-find over fixed joints
        let mut parent: Vec<usize> = (0..links.len()).collect();
        fn find(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        for joint in &joints {
            if joint.kind == JointKind::Fixed {
                let (a, b) = (find(&mut parent, joint.parent), find(&mut parent, joint.child));
                if a != b {
                    parent[b] = a;
                }
            }
        }
        for l in 0..links.len() {
            links[l].rigid_group = find(&mut parent, l);
        }
        // geometry
        let mut geometries = Vec::new();
        for (li, ul) in desc.links.iter().enumerate() {
            let start = geometries.len();
            for (ci, c) in ul.collisions.iter().enumerate() {
                let at = || format!("{file}:{}: <link name={:?}> <collision> #{ci}", c.line, ul.name);
                let geom =
                    |r: Result<Shape, proxima_geom::GeomError>| r.map_err(|e| RobotError::geometry(at(), e));
                let piece =
                    |shape: Shape, source: GeometrySource, support: Option<Arc<HullSupport>>| Geometry {
                        link: li,
                        collision: ci,
                        name: c.name.clone(),
                        origin: c.origin,
                        bounding_sphere: bounding_sphere(&shape),
                        shape,
                        source,
                        support,
                    };
                let primitive = |shape: Shape| piece(shape, GeometrySource::Primitive, None);
                match &c.geometry {
                    UrdfGeometry::Box { size } => geometries.push(primitive(geom(
                        Cuboid::new([size[0] / 2.0, size[1] / 2.0, size[2] / 2.0]).map(Shape::Cuboid),
                    )?)),
                    UrdfGeometry::Cylinder { radius, length } => geometries
                        .push(primitive(geom(Cylinder::new(*radius, length / 2.0).map(Shape::Cylinder))?)),
                    UrdfGeometry::Sphere { radius } => {
                        geometries.push(primitive(geom(Sphere::new(*radius).map(Shape::Sphere))?))
                    }
                    UrdfGeometry::Capsule { radius, length } => {
                        let shape = if *length > 0.0 {
                            Capsule::new(*radius, length / 2.0).map(Shape::Capsule)
                        } else {
                            Sphere::new(*radius).map(Shape::Sphere)
                        };
                        geometries.push(primitive(geom(shape)?))
                    }
                    UrdfGeometry::Mesh { filename, scale } => {
                        let path = resolve_uri(filename, description_dir, &options.package_dirs)?;
                        let pieces =
                            cache.pieces(&path, *scale, options.mesh_parts, options.degenerate_meshes)?;
                        for (k, p) in pieces.iter().enumerate() {
                            let source = GeometrySource::Mesh {
                                uri: filename.clone(),
                                path: path.clone(),
                                scale: *scale,
                                part: (k, p.part_name.clone()),
                                mesh_vertices: p.mesh_vertices,
                                flat: p.flat,
                            };
                            geometries.push(piece(
                                Shape::ConvexPolytope(p.polytope.clone()),
                                source,
                                p.support.clone(),
                            ));
                        }
                    }
                }
            }
            links[li].geometry = start..geometries.len();
        }
        Ok(Robot { name: desc.name.clone(), links, joints, root, order, actuated, geometries })
    }

    /// The `<robot name>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of configuration values (actuated joints).
    pub fn dof(&self) -> usize {
        self.actuated.len()
    }

    /// Links in URDF order.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// Joints in URDF order.
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// Every collision piece, grouped by link in link order.
    pub fn geometries(&self) -> &[Geometry] {
        &self.geometries
    }

    /// The root link's index.
    pub fn root(&self) -> usize {
        self.root
    }

    /// Joint indices of the configuration coordinates, in order.
    pub fn actuated_joints(&self) -> &[usize] {
        &self.actuated
    }

    /// Names of the configuration coordinates, in order.
    pub fn joint_names(&self) -> Vec<&str> {
        self.actuated.iter().map(|&j| self.joints[j].name.as_str()).collect()
    }

    /// Link names in URDF order.
    pub fn link_names(&self) -> Vec<&str> {
        self.links.iter().map(|l| l.name.as_str()).collect()
    }

    /// The link named `name`.
    pub fn link_index(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l.name == name)
    }

    /// The joint named `name`.
    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// The configuration coordinate of the actuated joint `name` (`None` for fixed, mimic or
    /// unknown joints).
    pub fn coordinate(&self, name: &str) -> Option<usize> {
        self.actuated.iter().position(|&j| self.joints[j].name == name)
    }

    /// Position limits per coordinate (±∞ for continuous joints).
    pub fn position_limits(&self) -> Vec<(f64, f64)> {
        self.actuated
            .iter()
            .map(|&j| {
                self.joints[j].limits.map_or((f64::NEG_INFINITY, f64::INFINITY), |l| (l.lower, l.upper))
            })
            .collect()
    }

    /// Velocity limits per coordinate, when the description gives them.
    pub fn velocity_limits(&self) -> Vec<Option<f64>> {
        self.actuated.iter().map(|&j| self.joints[j].limits.and_then(|l| l.velocity)).collect()
    }

    /// Whether two links can never move relative to each other (same rigid group).
    pub fn same_rigid_group(&self, a: usize, b: usize) -> bool {
        self.links[a].rigid_group == self.links[b].rigid_group
    }

    /// Whether the rigid groups of links `a` and `b` differ and are joined by one movable
    /// joint (parent–child bodies).
    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        let (ga, gb) = (self.links[a].rigid_group, self.links[b].rigid_group);
        ga != gb
            && self.joints.iter().any(|j| {
                j.kind.is_movable() && {
                    let (p, c) = (self.links[j.parent].rigid_group, self.links[j.child].rigid_group);
                    (p == ga && c == gb) || (p == gb && c == ga)
                }
            })
    }

    /// Validates `q` (length, finite values, limits under `policy`) and writes the values to
    /// use into `out` (clamped under [`LimitPolicy::Clamp`]). `out` must have [`Robot::dof`]
    /// entries.
    pub fn check_configuration(
        &self,
        q: &[f64],
        policy: LimitPolicy,
        out: &mut [f64],
    ) -> Result<(), RobotError> {
        if q.len() != self.dof() {
            return Err(RobotError::invalid(
                "q",
                format!(
                    "{} values for {} actuated joints ({})",
                    q.len(),
                    self.dof(),
                    self.joint_names().join(", ")
                ),
            ));
        }
        assert_eq!(out.len(), q.len(), "out must have dof entries");
        for (c, (&v, o)) in q.iter().zip(out.iter_mut()).enumerate() {
            let joint = &self.joints[self.actuated[c]];
            if !v.is_finite() {
                return Err(RobotError::invalid(
                    format!("q[{c}] ({})", joint.name),
                    format!("{v} is not finite"),
                ));
            }
            let (lo, hi) = joint.limits.map_or((f64::NEG_INFINITY, f64::INFINITY), |l| (l.lower, l.upper));
            *o = v;
            if v < lo - LIMIT_TOLERANCE || v > hi + LIMIT_TOLERANCE {
                match policy {
                    LimitPolicy::Reject => {
                        return Err(RobotError::OutOfLimits {
                            joint: joint.name.clone(),
                            value: v,
                            lower: lo,
                            upper: hi,
                        });
                    }
                    LimitPolicy::Clamp => *o = v.clamp(lo, hi),
                }
            }
        }
        Ok(())
    }

    /// The configuration of `names[i] = values[i]` (every actuated joint exactly once, in any
    /// order). Errors: an unknown or non-actuated joint name, a repeated or missing joint.
    pub fn configuration_from_names(&self, names: &[&str], values: &[f64]) -> Result<Vec<f64>, RobotError> {
        if names.len() != values.len() {
            return Err(RobotError::invalid(
                "values",
                format!("{} values for {} names", values.len(), names.len()),
            ));
        }
        let mut q = vec![f64::NAN; self.dof()];
        let mut seen = vec![false; self.dof()];
        for (i, (n, &v)) in names.iter().zip(values).enumerate() {
            let c = self.coordinate(n).ok_or_else(|| {
                let why = if self.joint_index(n).is_some() {
                    "is fixed or a mimic joint, not a configuration coordinate".to_string()
                } else {
                    format!("is not a joint of robot {:?}", self.name)
                };
                RobotError::invalid(format!("joint_names[{i}]"), format!("{n:?} {why}"))
            })?;
            if seen[c] {
                return Err(RobotError::invalid(format!("joint_names[{i}]"), format!("{n:?} appears twice")));
            }
            seen[c] = true;
            q[c] = v;
        }
        if let Some(c) = seen.iter().position(|s| !s) {
            return Err(RobotError::invalid(
                "joint_names",
                format!("no value for joint {:?}", self.joints[self.actuated[c]].name),
            ));
        }
        Ok(q)
    }

    /// The value of joint `j` for a checked configuration `q`.
    #[inline]
    pub fn joint_value(&self, j: usize, q: &[f64]) -> f64 {
        match self.joints[j].drive {
            JointDrive::Fixed => 0.0,
            JointDrive::Actuated { coordinate } => q[coordinate],
            JointDrive::Mimic { coordinate, multiplier, offset } => multiplier * q[coordinate] + offset,
        }
    }

    /// World poses of every link for a configuration already checked by
    /// [`Robot::check_configuration`], with the root link at `base`. `poses` must have one
    /// entry per link.
    pub fn link_poses_unchecked(&self, base: &Pose, q: &[f64], poses: &mut [Pose]) {
        poses[self.root] = *base;
        for &j in &self.order {
            let joint = &self.joints[j];
            let parent = &poses[joint.parent];
            poses[joint.child] = match joint.kind {
                JointKind::Fixed => parent.compose(&joint.origin),
                // parent ∘ origin ∘ rotation, the same bits as the two compositions
                // (`Pose::compose_rotated`)
                JointKind::Revolute | JointKind::Continuous => parent
                    .compose_rotated(&joint.origin, &rotation_about(&joint.axis, self.joint_value(j, q))),
                JointKind::Prismatic => {
                    let t = joint.axis * self.joint_value(j, q);
                    parent
                        .compose(&joint.origin)
                        .compose(&Pose::from(nalgebra::Isometry3::translation(t.x, t.y, t.z)))
                }
            };
        }
    }

    /// World poses of every link: checks `q` under `policy`, then forward kinematics with the
    /// root at `base`. `scratch` receives the values used (dof entries); `poses` one per link.
    pub fn link_poses(
        &self,
        base: &Pose,
        q: &[f64],
        policy: LimitPolicy,
        scratch: &mut Vec<f64>,
        poses: &mut Vec<Pose>,
    ) -> Result<(), RobotError> {
        scratch.resize(self.dof(), 0.0);
        self.check_configuration(q, policy, scratch)?;
        poses.resize(self.links.len(), Pose::identity());
        self.link_poses_unchecked(base, scratch, poses);
        Ok(())
    }

    /// World pose of each geometry piece from the link poses.
    pub fn geometry_poses(&self, link_poses: &[Pose], out: &mut Vec<Pose>) {
        out.clear();
        out.extend(self.geometries.iter().map(|g| link_poses[g.link].compose(&g.origin)));
    }

    /// Indices of the links that carry collision geometry, in URDF order.
    pub fn links_with_geometry(&self) -> Vec<usize> {
        (0..self.links.len()).filter(|&l| !self.links[l].geometry.is_empty()).collect()
    }

    /// Shares the model (convenience for `Arc::new`).
    pub fn into_shared(self) -> Arc<Robot> {
        Arc::new(self)
    }
}

/// The rotation by `angle` about the unit `axis`.
#[inline]
fn rotation_about(axis: &Vector3<f64>, angle: f64) -> nalgebra::UnitQuaternion<f64> {
    nalgebra::UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_unchecked(*axis), angle)
}

/// A ball containing `shape` in its own frame: (centre, radius), radius rounded up.
pub fn bounding_sphere(shape: &Shape) -> ([f64; 3], f64) {
    let up = |r: f64| r * (1.0 + 1e-12) + 1e-300;
    match shape {
        Shape::Cuboid(c) => ([0.0; 3], up(c.half_extents().norm())),
        Shape::Sphere(s) => ([0.0; 3], up(s.radius())),
        Shape::Capsule(c) => ([0.0; 3], up(c.radius() + c.half_height())),
        Shape::Cylinder(c) => ([0.0; 3], up(c.radius().hypot(c.half_height()))),
        Shape::Ellipsoid(e) => ([0.0; 3], up(e.radii().max())),
        Shape::ConvexPolytope(p) => {
            let vs = p.vertices();
            let mut lo = vs[0].coords;
            let mut hi = vs[0].coords;
            for v in vs {
                lo = lo.inf(&v.coords);
                hi = hi.sup(&v.coords);
            }
            let c = (lo + hi) / 2.0;
            let r = vs.iter().map(|v| (v.coords - c).norm()).fold(0.0, f64::max);
            ([c.x, c.y, c.z], up(r))
        }
        other => {
            // every other bounded shape: the support function along ±axes bounds a box
            let pose = Pose::identity();
            let mut r2 = 0.0;
            for k in 0..3 {
                let mut e = Vector3::zeros();
                e[k] = 1.0;
                let m = other.support_value(&pose, &e).abs().max(other.support_value(&pose, &(-e)).abs());
                r2 += m * m;
            }
            ([0.0; 3], up(f64::sqrt(r2)))
        }
    }
}
