//! The page's data model: what the Rust side hands to the page as one JSON document.
//!
//! A [`Page`] has a summary and one or more [`View`]s (tabs). A view is a set of objects —
//! each a drawable shared through the view's mesh table and a pose — plus what moves them
//! and what is marked on them:
//!
//! * [`Timeline`]: recorded frames (poses of the moving objects, the closest pair with its
//!   witness points and distance, the pairs under the safety margin) and per-cycle series for
//!   the plots (workcell replays, tracks, swept motions);
//! * [`Annotation`]: one query's answer (witness points, normal, certificate bracket);
//! * [`RobotData`]: a kinematic tree the page moves with joint sliders.
//!
//! Poses are `[tx, ty, tz, qx, qy, qz, qw]` (translation, unit quaternion of the rotation).
//! Large arrays are [`Encoded`] typed arrays.

use std::collections::HashMap;

use nalgebra::{Rotation3, UnitQuaternion};
use proxima_geom::shape::ShapeSpec;
use proxima_geom::{Pose, Shape};
use serde::Serialize;

use crate::encode::{self, Encoded};
use crate::error::ViewerError;
use crate::mesh::{self, Drawable};

/// One self-contained page.
#[derive(Debug, Clone, Serialize)]
pub struct Page {
    /// Title (the `<title>` and the header).
    pub title: String,
    /// Summary lines, shown in the element with id `summary`.
    pub summary: Vec<String>,
    /// The run's minimum distance, written in full (shortest round-trip digits) into the
    /// summary element's `data-min-distance` attribute.
    pub min_distance: Option<f64>,
    /// The views (one tab each).
    pub views: Vec<View>,
}

/// What a view shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewKind {
    /// A recorded run of a workcell: timeline, plots, closest pair per frame.
    Replay,
    /// One distance query: two shapes, witness points, normal, bracket.
    Query,
    /// A continuous-collision query: the swept motion over t ∈ [0, 1] and the impact pose.
    Sweep,
    /// A robot with joint sliders.
    Robot,
}

/// One tab of the page.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// Name (the tab's label).
    pub name: String,
    /// What it shows.
    pub kind: ViewKind,
    /// Lines shown beside the 3D view.
    pub summary: Vec<String>,
    /// Distinct drawables, referenced by [`ObjectData::mesh`].
    pub meshes: Vec<MeshData>,
    /// The objects.
    pub objects: Vec<ObjectData>,
    /// Monitored pairs (object indices).
    pub pairs: Vec<[u32; 2]>,
    /// Safety margin (same length unit as the scene): the witness segment is red at or below
    /// it, pairs under it are highlighted.
    pub margin: f64,
    /// Length unit label.
    pub unit: String,
    /// Recorded frames and plots.
    pub timeline: Option<Timeline>,
    /// A single query's answer.
    pub annotation: Option<Annotation>,
    /// A kinematic tree for joint sliders.
    pub robot: Option<RobotData>,
    /// Translucent copies of objects at other poses (a sweep's start, end and impact poses).
    pub ghosts: Vec<Ghost>,
}

/// An object drawn again, translucent, at another pose.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ghost {
    /// The object (index into [`View::objects`]).
    pub object: u32,
    /// Its pose for this copy.
    pub pose: [f64; 7],
    /// Opacity in (0, 1].
    pub alpha: f64,
    /// What the copy shows (`start`, `end`, `impact`).
    pub label: String,
}

/// A drawable as the page receives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MeshData {
    /// Triangles (`f32` positions, `u32` index triples).
    Mesh {
        /// x, y, z per vertex (`f32`, or `f64` in a [`SceneBuilder::precise`] scene).
        positions: Encoded,
        /// Three indices per triangle.
        triangles: Encoded,
        /// `"exact"` or `"inscribed"` ([`mesh::Fidelity`]).
        fidelity: &'static str,
        /// The curved shape's exact support function, when the mesh is inscribed in a
        /// primitive; the page's distances then use it instead of the mesh vertices.
        support: Option<ShapeSpec>,
    },
    /// A segment.
    Segment {
        /// Its end points.
        points: [[f64; 3]; 2],
    },
    /// A point.
    Point {
        /// Its position.
        point: [f64; 3],
    },
}

/// A curved primitive as its [`ShapeSpec`] (the workspace's one shape description), for an
/// exact support function in the page; `None` for other shapes (their mesh is exact, or
/// inscribed in a composite).
pub fn primitive_spec(shape: &Shape) -> Option<ShapeSpec> {
    Some(match shape {
        Shape::Sphere(s) => ShapeSpec::Sphere { radius: s.radius() },
        Shape::Capsule(c) => ShapeSpec::Capsule { radius: c.radius(), half_height: c.half_height() },
        Shape::Cylinder(c) => ShapeSpec::Cylinder { radius: c.radius(), half_height: c.half_height() },
        Shape::Cone(c) => ShapeSpec::Cone { radius: c.radius(), half_height: c.half_height() },
        Shape::Ellipsoid(e) => ShapeSpec::Ellipsoid { radii: [e.radii().x, e.radii().y, e.radii().z] },
        _ => return None,
    })
}

impl MeshData {
    fn of(d: &Drawable, shape: &Shape, precise: bool) -> Self {
        match d {
            Drawable::Mesh(m) => MeshData::Mesh {
                positions: if precise {
                    encode::f64s(&m.positions.concat())
                } else {
                    encode::f32s(&m.positions.concat())
                },
                triangles: encode::u32s(&m.triangles.concat()),
                fidelity: m.fidelity.as_str(),
                support: primitive_spec(shape),
            },
            Drawable::Segment(points) => MeshData::Segment { points: *points },
            Drawable::Point(point) => MeshData::Point { point: *point },
        }
    }
}

/// One object of a view.
#[derive(Debug, Clone, Serialize)]
pub struct ObjectData {
    /// Name.
    pub name: String,
    /// Group (colours and legends are by group).
    pub group: String,
    /// Index into [`View::meshes`].
    pub mesh: u32,
    /// Pose (the first frame's for moving objects).
    pub pose: [f64; 7],
}

/// Recorded frames of a run and its per-cycle series.
#[derive(Debug, Clone, Serialize)]
pub struct Timeline {
    /// Seconds per cycle (or per step of a sweep: 1 / steps).
    pub dt: f64,
    /// `"cycle"`, `"step"` or `"t"`: what the frame numbers count.
    pub unit: String,
    /// Number of cycles recorded in the series (frames are a subset).
    pub cycles: usize,
    /// Frames keep every `stride`-th cycle (plus the minimum's cycle).
    pub stride: usize,
    /// The cycle of each frame (ascending).
    pub frame_cycle: Encoded,
    /// Objects whose pose changes during the run (indices into [`View::objects`]).
    pub moving: Vec<u32>,
    /// Per frame, per moving object: 7 `f32` (pose).
    pub poses: Encoded,
    /// Per frame: the closest pair (index into [`View::pairs`]) or −1.
    pub closest: Encoded,
    /// Per frame: its distance (`f64`, NaN when none).
    pub distance: Encoded,
    /// Per frame: its witness points on a and b (6 `f32`, NaN when none).
    pub witness: Encoded,
    /// Frame f's pairs under the margin are `under_pairs[under_offsets[f]..under_offsets[f+1]]`.
    pub under_offsets: Encoded,
    /// Pair indices (see `under_offsets`).
    pub under_pairs: Encoded,
    /// Per cycle: the minimum distance (`f32`, for the plot).
    pub series_distance: Encoded,
    /// Per cycle: the cycle's wall time in µs (`f32`), when measured.
    pub series_cycle_us: Option<Encoded>,
    /// The run's minimum: cycle, distance, pair index.
    pub minimum: Option<Minimum>,
    /// Extra marks on the time axis (an impact time...).
    pub markers: Vec<Marker>,
}

/// The smallest distance of a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Minimum {
    /// Its cycle.
    pub cycle: usize,
    /// The distance.
    pub distance: f64,
    /// Index into [`View::pairs`].
    pub pair: u32,
}

/// A labelled time on the timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Marker {
    /// The cycle (frame number) it marks.
    pub cycle: usize,
    /// Its label.
    pub label: String,
}

/// One query's answer, drawn over its two shapes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Annotation {
    /// The pair (object indices).
    pub pair: [u32; 2],
    /// Witness point on a (world frame), when the answer has one.
    pub point_a: Option<[f64; 3]>,
    /// Witness point on b.
    pub point_b: Option<[f64; 3]>,
    /// Unit normal from a towards b, when known.
    pub normal: Option<[f64; 3]>,
    /// The distance (negative: penetration depth), when answered.
    pub distance: Option<f64>,
    /// Certified lower bound.
    pub lower: Option<f64>,
    /// Certified upper bound.
    pub upper: Option<f64>,
}

/// A kinematic tree for joint sliders: the page computes each link frame as
/// parent frame · origin · motion(q), with motion a rotation about (revolute, continuous) or
/// a translation along (prismatic) the joint axis; fixed joints have no slider.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobotData {
    /// Index of the root link in `links`.
    pub root: u32,
    /// Pose of the root link.
    pub base: [f64; 7],
    /// Joints in an order where every parent link comes before its children.
    pub joints: Vec<JointData>,
    /// For each object, the link it is attached to (index into `links`) and its local pose.
    pub attachments: Vec<Attachment>,
    /// Link names.
    pub links: Vec<String>,
    /// Configuration shown first (one value per joint, in `joints` order).
    pub initial: Vec<f64>,
}

/// One joint of [`RobotData`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JointData {
    /// Name.
    pub name: String,
    /// For an actuated joint, its index in the robot's configuration vector.
    pub coordinate: Option<u32>,
    /// `revolute`, `continuous`, `prismatic` or `fixed`.
    pub kind: String,
    /// Parent link index.
    pub parent: u32,
    /// Child link index.
    pub child: u32,
    /// Joint origin in the parent link frame.
    pub origin: [f64; 7],
    /// Unit axis in the joint frame.
    pub axis: [f64; 3],
    /// Slider range.
    pub lower: f64,
    /// Slider range.
    pub upper: f64,
    /// Mimic: (index of the driving joint, multiplier, offset).
    pub mimic: Option<(u32, f64, f64)>,
}

/// Where an object sits on a robot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attachment {
    /// The object (index into [`View::objects`]).
    pub object: u32,
    /// The link (index into [`RobotData::links`]).
    pub link: u32,
    /// Pose of the object in the link frame.
    pub local: [f64; 7],
}

/// `[tx, ty, tz, qx, qy, qz, qw]` of a pose. The rotation is used as a rotation matrix (poses
/// check it to 1e-6); the quaternion is Shepperd's extraction, exact for an exact rotation.
pub fn pose7(p: &Pose) -> [f64; 7] {
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(*p.rotation()));
    let t = p.translation();
    [t.x, t.y, t.z, q.i, q.j, q.k, q.w]
}

/// Builds a view's object list, sharing identical drawables through the mesh table.
#[derive(Debug, Clone, Default)]
pub struct SceneBuilder {
    meshes: Vec<MeshData>,
    objects: Vec<ObjectData>,
    index: HashMap<String, u32>,
    precise: bool,
}

impl SceneBuilder {
    /// An empty scene.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty scene whose mesh positions are stored as `f64` (for views where the page
    /// computes distances from them, e.g. a robot's hulls), not `f32`.
    pub fn precise() -> Self {
        Self { precise: true, ..Self::default() }
    }

    /// Adds an object; returns its index. Errors: a non-finite pose, a shape the hull
    /// rejects.
    pub fn add(&mut self, name: &str, group: &str, shape: &Shape, pose: &Pose) -> Result<u32, ViewerError> {
        let pose = pose7(pose);
        if pose.iter().any(|x| !x.is_finite()) {
            return Err(ViewerError::NonFinite { at: format!("object {name:?} pose") });
        }
        let drawable = mesh::drawable(shape).map_err(|e| match e {
            ViewerError::Geometry { source, .. } => {
                ViewerError::Geometry { at: format!("object {name:?}"), source }
            }
            other => other,
        })?;
        let data = MeshData::of(&drawable, shape, self.precise);
        // identical drawables (the same link in several arms) share one entry
        let key = serde_json::to_string(&data).unwrap_or_default();
        let next = self.meshes.len() as u32;
        let mesh = *self.index.entry(key).or_insert(next);
        if mesh == next {
            self.meshes.push(data);
        }
        self.objects.push(ObjectData { name: name.to_string(), group: group.to_string(), mesh, pose });
        Ok(self.objects.len() as u32 - 1)
    }

    /// Number of objects so far.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// Whether no object was added.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// A view of these objects with nothing else set (margin 0, unit `m`).
    pub fn into_view(self, name: impl Into<String>, kind: ViewKind) -> View {
        View {
            name: name.into(),
            kind,
            summary: Vec::new(),
            meshes: self.meshes,
            objects: self.objects,
            pairs: Vec::new(),
            margin: 0.0,
            unit: "m".into(),
            timeline: None,
            annotation: None,
            robot: None,
            ghosts: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use proxima_geom::shape::Cuboid;

    use super::*;

    #[test]
    fn quaternion_of_a_quarter_turn_about_z() {
        let p = Pose::new([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], [1.0, 2.0, 3.0]).unwrap();
        let q = pose7(&p);
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let want = [1.0, 2.0, 3.0, 0.0, 0.0, h, h];
        for (a, b) in q.iter().zip(want) {
            assert!((a - b).abs() <= 1e-15, "{q:?}");
        }
    }

    #[test]
    fn primitive_specs_rebuild_the_same_shapes() {
        use proxima_geom::shape::{Capsule, Cone, Cylinder, Ellipsoid, Sphere};
        let shapes = [
            Shape::Sphere(Sphere::new(0.5).unwrap()),
            Shape::Capsule(Capsule::new(0.25, 1.5).unwrap()),
            Shape::Cylinder(Cylinder::new(0.125, 2.0).unwrap()),
            Shape::Cone(Cone::new(1.0, 0.75).unwrap()),
            Shape::Ellipsoid(Ellipsoid::new([1.0, 2.0, 3.0]).unwrap()),
        ];
        for s in shapes {
            assert_eq!(primitive_spec(&s).unwrap().to_shape().unwrap(), s);
        }
        assert_eq!(primitive_spec(&Shape::Cuboid(Cuboid::new([1.0; 3]).unwrap())), None);
    }

    #[test]
    fn identical_shapes_share_one_mesh() {
        let mut s = SceneBuilder::new();
        let c = Shape::Cuboid(Cuboid::new([1.0; 3]).unwrap());
        let d = Shape::Cuboid(Cuboid::new([1.0, 1.0, 2.0]).unwrap());
        s.add("a", "g", &c, &Pose::identity()).unwrap();
        s.add("b", "g", &c, &Pose::from_translation([1.0, 0.0, 0.0]).unwrap()).unwrap();
        s.add("c", "g", &d, &Pose::identity()).unwrap();
        let v = s.into_view("v", ViewKind::Query);
        assert_eq!(v.meshes.len(), 2);
        assert_eq!(v.objects.iter().map(|o| o.mesh).collect::<Vec<_>>(), [0, 0, 1]);
    }
}
