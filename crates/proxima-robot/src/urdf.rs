//! URDF reading: the `<robot>` element's links (with their `<collision>` elements) and joints,
//! as written, with the line of every element for later errors.
//!
//! # What is read
//!
//! * `<link name>` and its `<collision>` elements: `<origin xyz rpy>` (defaults 0) and one
//!   `<geometry>` holding `<box size>`, `<cylinder radius length>`, `<sphere radius>`,
//!   `<capsule radius length>` (not in the URDF standard but common) or
//!   `<mesh filename scale>` (scale default `1 1 1`). `<visual>`, `<inertial>`, `<gazebo>`,
//!   `<transmission>` and unknown elements are ignored.
//! * `<joint name type>` with `<parent link>`, `<child link>`, `<origin>`, `<axis xyz>`
//!   (default `1 0 0`, normalized; zero is an error), `<limit lower upper effort velocity>`
//!   (required for revolute and prismatic joints, `lower ≤ upper`) and
//!   `<mimic joint multiplier offset>` (defaults 1 and 0). Types revolute, continuous,
//!   prismatic and fixed; floating and planar joints are rejected as unsupported.
//!
//! Orientation: `rpy` are fixed-axis roll, pitch, yaw: R = Rz(yaw)·Ry(pitch)·Rx(roll).
//!
//! Every number must be finite; every error names the element (`<joint name="j2"> <limit>`)
//! and its line. The tree structure (one root, known parents, no cycles) is checked when the
//! description becomes a [`crate::Robot`].

use nalgebra::{Matrix3, Vector3};
use proxima_geom::Pose;
use roxmltree::Node;

use crate::error::RobotError;
use crate::xml::{XmlFile, children, single_child};

/// A URDF robot description as written.
#[derive(Debug, Clone, PartialEq)]
pub struct UrdfRobot {
    /// The `<robot name>`.
    pub name: String,
    /// The file name used in errors.
    pub file: String,
    /// Links in document order.
    pub links: Vec<UrdfLink>,
    /// Joints in document order.
    pub joints: Vec<UrdfJoint>,
}

/// A `<link>`.
#[derive(Debug, Clone, PartialEq)]
pub struct UrdfLink {
    /// Its name.
    pub name: String,
    /// Line of the element.
    pub line: u32,
    /// Its `<collision>` elements in document order.
    pub collisions: Vec<UrdfCollision>,
}

/// A `<collision>` element.
#[derive(Debug, Clone, PartialEq)]
pub struct UrdfCollision {
    /// Its `name` attribute, if any.
    pub name: Option<String>,
    /// Line of the element.
    pub line: u32,
    /// Pose of the geometry in the link frame.
    pub origin: Pose,
    /// The geometry.
    pub geometry: UrdfGeometry,
}

/// The geometry of a `<collision>` element (URDF sizes: full box sizes, full cylinder length).
#[derive(Debug, Clone, PartialEq)]
pub enum UrdfGeometry {
    /// `<box size="x y z">`: full side lengths, centred at the origin.
    Box {
        /// Side lengths.
        size: [f64; 3],
    },
    /// `<cylinder radius length>`: axis along z, centred.
    Cylinder {
        /// Radius.
        radius: f64,
        /// Full length.
        length: f64,
    },
    /// `<sphere radius>`.
    Sphere {
        /// Radius.
        radius: f64,
    },
    /// `<capsule radius length>`: the segment of `length` along z swept by the ball.
    Capsule {
        /// Radius.
        radius: f64,
        /// Length of the axis segment.
        length: f64,
    },
    /// `<mesh filename scale>`.
    Mesh {
        /// The URI as written.
        filename: String,
        /// Per-axis scale applied to the vertices.
        scale: [f64; 3],
    },
}

/// A joint type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JointKind {
    /// Rotation about the axis, within limits.
    Revolute,
    /// Rotation about the axis, unlimited.
    Continuous,
    /// Translation along the axis, within limits.
    Prismatic,
    /// No motion.
    Fixed,
}

impl JointKind {
    /// The URDF name.
    pub fn as_str(self) -> &'static str {
        match self {
            JointKind::Revolute => "revolute",
            JointKind::Continuous => "continuous",
            JointKind::Prismatic => "prismatic",
            JointKind::Fixed => "fixed",
        }
    }

    /// Whether the joint moves (revolute, continuous or prismatic).
    pub fn is_movable(self) -> bool {
        !matches!(self, JointKind::Fixed)
    }
}

/// A `<limit>` element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UrdfLimit {
    /// Lower position limit (rad or m).
    pub lower: f64,
    /// Upper position limit.
    pub upper: f64,
    /// Effort limit, when given.
    pub effort: Option<f64>,
    /// Velocity limit (rad/s or m/s), when given.
    pub velocity: Option<f64>,
}

/// A `<mimic>` element: value = multiplier · value(joint) + offset.
#[derive(Debug, Clone, PartialEq)]
pub struct UrdfMimic {
    /// The joint mimicked.
    pub joint: String,
    /// Multiplier.
    pub multiplier: f64,
    /// Offset.
    pub offset: f64,
}

/// A `<joint>`.
#[derive(Debug, Clone, PartialEq)]
pub struct UrdfJoint {
    /// Its name.
    pub name: String,
    /// Line of the element.
    pub line: u32,
    /// Its type.
    pub kind: JointKind,
    /// Parent link name.
    pub parent: String,
    /// Child link name.
    pub child: String,
    /// Pose of the joint frame in the parent link frame.
    pub origin: Pose,
    /// Unit axis in the joint frame.
    pub axis: Vector3<f64>,
    /// Limits, when given.
    pub limit: Option<UrdfLimit>,
    /// Mimic relation, when given.
    pub mimic: Option<UrdfMimic>,
}

/// R = Rz(yaw)·Ry(pitch)·Rx(roll) (URDF fixed-axis roll, pitch, yaw).
pub fn rpy_matrix(rpy: [f64; 3]) -> Matrix3<f64> {
    let (sr, cr) = rpy[0].sin_cos();
    let (sp, cp) = rpy[1].sin_cos();
    let (sy, cy) = rpy[2].sin_cos();
    Matrix3::new(
        cy * cp,
        cy * sp * sr - sy * cr,
        cy * sp * cr + sy * sr,
        sy * cp,
        sy * sp * sr + cy * cr,
        sy * sp * cr - cy * sr,
        -sp,
        cp * sr,
        cp * cr,
    )
}

/// The pose of URDF `xyz` / `rpy` values. Errors only for non-finite input.
pub fn pose_xyz_rpy(xyz: [f64; 3], rpy: [f64; 3]) -> Result<Pose, proxima_geom::GeomError> {
    Pose::from_matrix(rpy_matrix(rpy), Vector3::from(xyz))
}

/// Parses URDF text; `file` names it in errors.
pub fn parse_urdf(text: &str, file: &str) -> Result<UrdfRobot, RobotError> {
    let xml = XmlFile::parse(file, text)?;
    let root = xml.doc.root_element();
    if root.tag_name().name() != "robot" {
        return Err(xml.error(root, "the root element must be <robot>"));
    }
    let name = root.attribute("name").unwrap_or("").to_string();
    let mut links = Vec::new();
    for node in children(root, "link") {
        links.push(link(&xml, node)?);
    }
    let mut joints = Vec::new();
    for node in children(root, "joint") {
        joints.push(joint(&xml, node)?);
    }
    for (i, l) in links.iter().enumerate() {
        if links[..i].iter().any(|o| o.name == l.name) {
            let node = children(root, "link").nth(i).expect("the i-th link exists");
            return Err(xml.error(node, format!("duplicate link name {:?}", l.name)));
        }
    }
    for (i, j) in joints.iter().enumerate() {
        if joints[..i].iter().any(|o| o.name == j.name) {
            let node = children(root, "joint").nth(i).expect("the i-th joint exists");
            return Err(xml.error(node, format!("duplicate joint name {:?}", j.name)));
        }
    }
    if links.is_empty() {
        return Err(xml.error(root, "the robot has no <link>"));
    }
    Ok(UrdfRobot { name, file: file.to_string(), links, joints })
}

fn name_of(xml: &XmlFile, node: Node) -> Result<String, RobotError> {
    let name = xml.required(node, "name")?;
    if name.is_empty() {
        return Err(xml.error(node, "empty name"));
    }
    Ok(name.to_string())
}

fn origin(xml: &XmlFile, parent: Node) -> Result<Pose, RobotError> {
    match single_child(xml, parent, "origin")? {
        None => Ok(Pose::identity()),
        Some(o) => {
            let xyz = xml.vec3(o, "xyz", Some([0.0; 3]))?;
            let rpy = xml.vec3(o, "rpy", Some([0.0; 3]))?;
            pose_xyz_rpy(xyz, rpy).map_err(|e| xml.error(o, e.to_string()))
        }
    }
}

fn link(xml: &XmlFile, node: Node) -> Result<UrdfLink, RobotError> {
    let name = name_of(xml, node)?;
    let mut collisions = Vec::new();
    for c in children(node, "collision") {
        let geometry_node =
            single_child(xml, c, "geometry")?.ok_or_else(|| xml.error(c, "missing <geometry>"))?;
        collisions.push(UrdfCollision {
            name: c.attribute("name").map(str::to_string),
            line: xml.line(c),
            origin: origin(xml, c)?,
            geometry: geometry(xml, geometry_node)?,
        });
    }
    Ok(UrdfLink { name, line: xml.line(node), collisions })
}

fn positive(xml: &XmlFile, node: Node, attr: &str) -> Result<f64, RobotError> {
    let v = xml.number(node, attr, None)?;
    if v > 0.0 { Ok(v) } else { Err(xml.error(node, format!("attribute {attr:?} must be > 0, got {v}"))) }
}

fn geometry(xml: &XmlFile, node: Node) -> Result<UrdfGeometry, RobotError> {
    let mut shapes = node.children().filter(|c| c.is_element());
    let shape = shapes.next().ok_or_else(|| xml.error(node, "empty <geometry>"))?;
    if let Some(extra) = shapes.next() {
        return Err(xml.error(extra, "a <geometry> holds exactly one shape"));
    }
    Ok(match shape.tag_name().name() {
        "box" => {
            let size = xml.vec3(shape, "size", None)?;
            if size.iter().any(|&s| s <= 0.0) {
                return Err(xml.error(shape, format!("attribute \"size\" must be > 0, got {size:?}")));
            }
            UrdfGeometry::Box { size }
        }
        "cylinder" => UrdfGeometry::Cylinder {
            radius: positive(xml, shape, "radius")?,
            length: positive(xml, shape, "length")?,
        },
        "sphere" => UrdfGeometry::Sphere { radius: positive(xml, shape, "radius")? },
        "capsule" => {
            let radius = positive(xml, shape, "radius")?;
            let length = xml.number(shape, "length", None)?;
            if length < 0.0 {
                return Err(xml.error(shape, format!("attribute \"length\" must be >= 0, got {length}")));
            }
            UrdfGeometry::Capsule { radius, length }
        }
        "mesh" => {
            let filename = xml.required(shape, "filename")?;
            if filename.is_empty() {
                return Err(xml.error(shape, "empty filename"));
            }
            let scale = xml.vec3(shape, "scale", Some([1.0; 3]))?;
            if scale.contains(&0.0) {
                return Err(xml.error(shape, format!("attribute \"scale\" must be non-zero, got {scale:?}")));
            }
            UrdfGeometry::Mesh { filename: filename.to_string(), scale }
        }
        other => {
            return Err(xml.error(
                shape,
                format!("unknown geometry <{other}> (expected box, cylinder, sphere, capsule or mesh)"),
            ));
        }
    })
}

fn joint(xml: &XmlFile, node: Node) -> Result<UrdfJoint, RobotError> {
    let name = name_of(xml, node)?;
    let kind = match xml.required(node, "type")? {
        "revolute" => JointKind::Revolute,
        "continuous" => JointKind::Continuous,
        "prismatic" => JointKind::Prismatic,
        "fixed" => JointKind::Fixed,
        t @ ("floating" | "planar") => {
            return Err(xml.error(
                node,
                format!("joint type {t:?} is not supported (revolute, continuous, prismatic, fixed)"),
            ));
        }
        other => return Err(xml.error(node, format!("unknown joint type {other:?}"))),
    };
    let link_of = |tag: &str| -> Result<String, RobotError> {
        let n = single_child(xml, node, tag)?.ok_or_else(|| xml.error(node, format!("missing <{tag}>")))?;
        let l = xml.required(n, "link")?;
        if l.is_empty() {
            return Err(xml.error(n, "empty link name"));
        }
        Ok(l.to_string())
    };
    let parent = link_of("parent")?;
    let child = link_of("child")?;
    let axis = match single_child(xml, node, "axis")? {
        None => Vector3::x(),
        Some(a) => {
            let v = Vector3::from(xml.vec3(a, "xyz", Some([1.0, 0.0, 0.0]))?);
            let n = v.norm();
            if kind.is_movable() && n <= 1e-12 {
                return Err(xml.error(a, "the axis has zero length"));
            }
            if n > 0.0 { v / n } else { Vector3::x() }
        }
    };
    let limit = match single_child(xml, node, "limit")? {
        None => None,
        Some(l) => {
            let lower = xml.number(l, "lower", Some(0.0))?;
            let upper = xml.number(l, "upper", Some(0.0))?;
            let opt = |attr: &str| -> Result<Option<f64>, RobotError> {
                match l.attribute(attr) {
                    None => Ok(None),
                    Some(_) => {
                        let v = xml.number(l, attr, None)?;
                        if v < 0.0 {
                            return Err(xml.error(l, format!("attribute {attr:?} must be >= 0, got {v}")));
                        }
                        Ok(Some(v))
                    }
                }
            };
            let (effort, velocity) = (opt("effort")?, opt("velocity")?);
            if matches!(kind, JointKind::Revolute | JointKind::Prismatic) && lower > upper {
                return Err(xml.error(l, format!("lower limit {lower} is above the upper limit {upper}")));
            }
            Some(UrdfLimit { lower, upper, effort, velocity })
        }
    };
    if matches!(kind, JointKind::Revolute | JointKind::Prismatic) && limit.is_none() {
        return Err(xml.error(node, format!("a {} joint needs a <limit>", kind.as_str())));
    }
    let mimic = match single_child(xml, node, "mimic")? {
        None => None,
        Some(m) => Some(UrdfMimic {
            joint: xml.required(m, "joint")?.to_string(),
            multiplier: xml.number(m, "multiplier", Some(1.0))?,
            offset: xml.number(m, "offset", Some(0.0))?,
        }),
    };
    Ok(UrdfJoint {
        name,
        line: xml.line(node),
        kind,
        parent,
        child,
        origin: origin(xml, node)?,
        axis,
        limit,
        mimic,
    })
}
