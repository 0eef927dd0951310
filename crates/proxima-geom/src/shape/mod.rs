//! Convex shapes in their local frame (3D, `f64`); a [`Pose`](crate::Pose) places them.
//!
//! Every constructor validates once: finite numbers, positive extents/radii/heights,
//! non-degenerate primitives. Axis-like inputs are *normalized* where a shape stores a direction
//! ([`Line`]); zero directions are rejected. Local-frame conventions follow the benchmark format
//! (`../shared/bench/geometry/FORMAT.md`): boxes, cylinders and capsules are centred at the
//! origin, with the cylinder and capsule axis along z.
//!
//! CONTRACT FILE: the type names, variants and constructor signatures are fixed; the
//! implementation may move to one file per shape.

use core::fmt;

use nalgebra::{Point3, Vector3};

use crate::error::GeomError;

mod adjacency;
mod cells_slot;
mod composite;
mod direction_table;
mod hull;
pub(crate) mod onto_placed;
mod polyhedron;
mod spec;
mod support;
mod vertex_lanes;

pub(crate) use adjacency::linear_support;
pub use adjacency::{HILL_CLIMB_MIN_VERTICES, VertexAdjacency};
pub use cells_slot::{HULL_CELLS_MAX_VERTICES, HULL_CELLS_MIN_VERTICES};
pub use composite::{Cone, MinkowskiSum, Rounded};
pub use direction_table::{DIRECTION_TABLE_MIN_VERTICES, DirectionTable};
pub use hull::{ConvexHull, HullFacet, convex_hull};
pub use spec::ShapeSpec;
pub(crate) use support::{cylinder_support, planar_len};
pub(crate) use vertex_lanes::{LANES_MIN_VERTICES, VertexLanes, lanes_available};

/// The kind of a shape (for errors, dispatch tables and reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ShapeKind {
    /// [`Shape::Point`].
    Point,
    /// [`Shape::Segment`].
    Segment,
    /// [`Shape::Line`].
    Line,
    /// [`Shape::Triangle`].
    Triangle,
    /// [`Shape::Cuboid`].
    Cuboid,
    /// [`Shape::AlignedBox`].
    AlignedBox,
    /// [`Shape::Sphere`].
    Sphere,
    /// [`Shape::Capsule`].
    Capsule,
    /// [`Shape::Cylinder`].
    Cylinder,
    /// [`Shape::Ellipsoid`].
    Ellipsoid,
    /// [`Shape::ConvexPolytope`].
    ConvexPolytope,
    /// [`Shape::Polyhedron`].
    Polyhedron,
    /// [`Shape::Cone`].
    Cone,
    /// [`Shape::Rounded`].
    Rounded,
    /// [`Shape::MinkowskiSum`].
    MinkowskiSum,
}

impl ShapeKind {
    /// Lowercase name (`"cuboid"`, `"convex_polytope"`...).
    pub fn as_str(self) -> &'static str {
        match self {
            ShapeKind::Point => "point",
            ShapeKind::Segment => "segment",
            ShapeKind::Line => "line",
            ShapeKind::Triangle => "triangle",
            ShapeKind::Cuboid => "cuboid",
            ShapeKind::AlignedBox => "aligned_box",
            ShapeKind::Sphere => "sphere",
            ShapeKind::Capsule => "capsule",
            ShapeKind::Cylinder => "cylinder",
            ShapeKind::Ellipsoid => "ellipsoid",
            ShapeKind::ConvexPolytope => "convex_polytope",
            ShapeKind::Polyhedron => "polyhedron",
            ShapeKind::Cone => "cone",
            ShapeKind::Rounded => "rounded",
            ShapeKind::MinkowskiSum => "minkowski_sum",
        }
    }
}

impl fmt::Display for ShapeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A single point (the local origin moved by `position`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    position: Point3<f64>,
}

/// The closed segment between two distinct points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    a: Point3<f64>,
    b: Point3<f64>,
}

/// An infinite line: origin + t·direction, direction normalized by the constructor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    origin: Point3<f64>,
    direction: Vector3<f64>,
}

/// A solid, non-degenerate triangle (vertices not collinear).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Triangle {
    vertices: [Point3<f64>; 3],
}

/// An oriented box centred at the local origin: |pᵢ| ≤ hᵢ. Orientation comes from the pose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cuboid {
    half_extents: Vector3<f64>,
}

/// An axis-aligned box in the local frame: min ≤ p ≤ max componentwise (min < max).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlignedBox {
    min: Point3<f64>,
    max: Point3<f64>,
}

/// A ball of positive radius centred at the local origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    radius: f64,
}

/// The segment (0,0,±half_height) swept by a ball of `radius`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule {
    radius: f64,
    half_height: f64,
}

/// The solid cylinder x² + y² ≤ r², |z| ≤ half_height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cylinder {
    radius: f64,
    half_height: f64,
}

/// The solid ellipsoid (x/a)² + (y/b)² + (z/c)² ≤ 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ellipsoid {
    radii: Vector3<f64>,
}

/// The convex hull of a finite point set (at least one point; may be flat or a point).
///
/// Built with [`ConvexPolytope::with_faces`] (or as a [`convex_hull`]), it also carries the
/// vertex adjacency of its hull surface, which lets support queries hill-climb instead of
/// scanning every vertex, and, from [`HULL_CELLS_MIN_VERTICES`] vertices, per-direction
/// support lists that cold queries read instead of scanning (built once by the constructor).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexPolytope {
    vertices: Vec<Point3<f64>>,
    /// The vertices again, in blocks for the support scan.
    lanes: VertexLanes,
    adjacency: Option<std::sync::Arc<VertexAdjacency>>,
    /// Start vertices of cold hill climbs by direction (hulls with an adjacency and at least
    /// [`DIRECTION_TABLE_MIN_VERTICES`] vertices).
    table: Option<std::sync::Arc<DirectionTable>>,
    /// max |v| over the vertices (local frame).
    extent: f64,
    /// The centre of the vertices' bounding box (local frame): cold GJK runs start from the
    /// direction between the two shapes' centres (a link mesh's origin is often at a joint,
    /// far from its middle).
    center: Point3<f64>,
    /// The support lists of cold runs, once asked for ([`ConvexPolytope::prepare_support_cells`]).
    cells: cells_slot::CellsSlot,
}

/// A bounded, non-empty polyhedron { p : nᵢ·p ≤ dᵢ } given by half-spaces (unit normals after
/// normalization by the constructor).
#[derive(Debug, Clone, PartialEq)]
pub struct Polyhedron {
    normals: Vec<Vector3<f64>>,
    offsets: Vec<f64>,
    /// The vertices, enumerated once by the constructor (used by support functions and by
    /// vertex-based kernels).
    vertices: Vec<Point3<f64>>,
}

/// Any supported convex shape.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Shape {
    /// A point.
    Point(Point),
    /// A segment.
    Segment(Segment),
    /// An infinite line.
    Line(Line),
    /// A triangle.
    Triangle(Triangle),
    /// An oriented box.
    Cuboid(Cuboid),
    /// An axis-aligned box (in its local frame).
    AlignedBox(AlignedBox),
    /// A ball.
    Sphere(Sphere),
    /// A capsule.
    Capsule(Capsule),
    /// A cylinder.
    Cylinder(Cylinder),
    /// An ellipsoid.
    Ellipsoid(Ellipsoid),
    /// A convex polytope given by vertices.
    ConvexPolytope(ConvexPolytope),
    /// A polyhedron given by half-spaces.
    Polyhedron(Polyhedron),
    /// A cone (apex up the z axis).
    Cone(Cone),
    /// A shape dilated by a ball (rounded corners and edges).
    Rounded(Rounded),
    /// The Minkowski sum of two placed shapes.
    MinkowskiSum(MinkowskiSum),
}

/// max |v| over points (0 for none).
pub(crate) fn max_norm(points: &[Point3<f64>]) -> f64 {
    points.iter().fold(0.0f64, |s, p| s.max(p.coords.norm()))
}

/// The centre of the bounding box of `points` (non-empty, finite), as (min + max)/2 per
/// coordinate.
pub(crate) fn box_center(points: &[Point3<f64>]) -> Point3<f64> {
    let first = points.first().map_or(Vector3::zeros(), |p| p.coords);
    let (lo, hi) = points.iter().fold((first, first), |(lo, hi), p| (lo.inf(&p.coords), hi.sup(&p.coords)));
    Point3::from(lo * 0.5 + hi * 0.5)
}

fn finite3(v: &[f64; 3], what: &'static str) -> Result<(), GeomError> {
    if v.iter().all(|x| x.is_finite()) { Ok(()) } else { Err(GeomError::NonFinite { what }) }
}

fn positive(v: f64, what: &'static str) -> Result<f64, GeomError> {
    if !v.is_finite() {
        Err(GeomError::NonFinite { what })
    } else if v <= 0.0 {
        Err(GeomError::NonPositive { what, value: v })
    } else {
        Ok(v)
    }
}

impl Point {
    /// A point at `position`.
    pub fn new(position: [f64; 3]) -> Result<Self, GeomError> {
        finite3(&position, "point position")?;
        Ok(Self { position: position.into() })
    }
    /// The position.
    pub fn position(&self) -> Point3<f64> {
        self.position
    }
}

impl Segment {
    /// The segment from `a` to `b` (`a != b`).
    pub fn new(a: [f64; 3], b: [f64; 3]) -> Result<Self, GeomError> {
        finite3(&a, "segment endpoint")?;
        finite3(&b, "segment endpoint")?;
        if a == b {
            return Err(GeomError::Degenerate { what: "segment endpoints coincide" });
        }
        Ok(Self { a: a.into(), b: b.into() })
    }
    /// The endpoints.
    pub fn endpoints(&self) -> [Point3<f64>; 2] {
        [self.a, self.b]
    }
}

impl Line {
    /// The line through `origin` along `direction` (non-zero; normalized).
    pub fn new(origin: [f64; 3], direction: [f64; 3]) -> Result<Self, GeomError> {
        finite3(&origin, "line origin")?;
        finite3(&direction, "line direction")?;
        let d = Vector3::from(direction);
        let len = d.norm();
        if len == 0.0 || !len.is_finite() {
            return Err(GeomError::ZeroAxis { what: "line direction" });
        }
        Ok(Self { origin: origin.into(), direction: d / len })
    }
    /// The origin.
    pub fn origin(&self) -> Point3<f64> {
        self.origin
    }
    /// The unit direction.
    pub fn direction(&self) -> Vector3<f64> {
        self.direction
    }
}

impl Triangle {
    /// The triangle (v0, v1, v2); rejects collinear vertices (|e1 × e2| = 0 exactly).
    pub fn new(v0: [f64; 3], v1: [f64; 3], v2: [f64; 3]) -> Result<Self, GeomError> {
        for v in [&v0, &v1, &v2] {
            finite3(v, "triangle vertex")?;
        }
        let (p0, p1, p2) = (Point3::from(v0), Point3::from(v1), Point3::from(v2));
        if (p1 - p0).cross(&(p2 - p0)).norm_squared() == 0.0 {
            return Err(GeomError::Degenerate { what: "triangle vertices are collinear" });
        }
        Ok(Self { vertices: [p0, p1, p2] })
    }
    /// The vertices.
    pub fn vertices(&self) -> [Point3<f64>; 3] {
        self.vertices
    }
}

impl Cuboid {
    /// A box with the given half extents (all > 0).
    pub fn new(half_extents: [f64; 3]) -> Result<Self, GeomError> {
        for h in half_extents {
            positive(h, "box half extent")?;
        }
        Ok(Self { half_extents: half_extents.into() })
    }
    /// The half extents.
    pub fn half_extents(&self) -> Vector3<f64> {
        self.half_extents
    }
}

impl AlignedBox {
    /// The box min ≤ p ≤ max (min < max in every coordinate).
    pub fn new(min: [f64; 3], max: [f64; 3]) -> Result<Self, GeomError> {
        finite3(&min, "aligned box min")?;
        finite3(&max, "aligned box max")?;
        for i in 0..3 {
            positive(max[i] - min[i], "aligned box max - min")?;
        }
        Ok(Self { min: min.into(), max: max.into() })
    }
    /// The minimum corner.
    pub fn min(&self) -> Point3<f64> {
        self.min
    }
    /// The maximum corner.
    pub fn max(&self) -> Point3<f64> {
        self.max
    }
}

impl Sphere {
    /// A ball of radius > 0.
    pub fn new(radius: f64) -> Result<Self, GeomError> {
        Ok(Self { radius: positive(radius, "sphere radius")? })
    }
    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl Capsule {
    /// A capsule (radius > 0, half_height > 0).
    pub fn new(radius: f64, half_height: f64) -> Result<Self, GeomError> {
        Ok(Self {
            radius: positive(radius, "capsule radius")?,
            half_height: positive(half_height, "capsule half height")?,
        })
    }
    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// Half the length of the core segment.
    pub fn half_height(&self) -> f64 {
        self.half_height
    }
}

impl Cylinder {
    /// A cylinder (radius > 0, half_height > 0).
    pub fn new(radius: f64, half_height: f64) -> Result<Self, GeomError> {
        Ok(Self {
            radius: positive(radius, "cylinder radius")?,
            half_height: positive(half_height, "cylinder half height")?,
        })
    }
    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// Half the height.
    pub fn half_height(&self) -> f64 {
        self.half_height
    }
}

impl Ellipsoid {
    /// An ellipsoid with radii (a, b, c), all > 0.
    pub fn new(radii: [f64; 3]) -> Result<Self, GeomError> {
        for r in radii {
            positive(r, "ellipsoid radius")?;
        }
        Ok(Self { radii: radii.into() })
    }
    /// The radii.
    pub fn radii(&self) -> Vector3<f64> {
        self.radii
    }
}

impl ConvexPolytope {
    /// The hull of `vertices` (non-empty, finite). Interior points are allowed.
    pub fn new(vertices: Vec<[f64; 3]>) -> Result<Self, GeomError> {
        if vertices.is_empty() {
            return Err(GeomError::Degenerate { what: "convex polytope has no vertices" });
        }
        for v in &vertices {
            finite3(v, "polytope vertex")?;
        }
        let vertices: Vec<Point3<f64>> = vertices.into_iter().map(Point3::from).collect();
        Ok(Self {
            lanes: VertexLanes::new(&vertices),
            extent: max_norm(&vertices),
            center: box_center(&vertices),
            vertices,
            adjacency: None,
            table: None,
            cells: Default::default(),
        })
    }
    /// The hull of `vertices` with its surface triangulation `faces` (0-based vertex indices,
    /// counter-clockwise seen from outside), as in the benchmark format. The faces are checked
    /// once — indices in range, non-degenerate triangles, a closed oriented surface (every
    /// directed edge used once, its reverse once), every vertex on the surface, and convexity
    /// (every vertex on or below every face plane, to 1e-9 × the polytope's size) — and turned
    /// into the vertex adjacency used by hill-climbing support queries. A hull of
    /// [`HULL_CELLS_MIN_VERTICES`]..=[`HULL_CELLS_MAX_VERTICES`] vertices also gets its support
    /// lists here (about 75,000 instructions per vertex, once; see
    /// [`ConvexPolytope::prepare_support_cells`]).
    ///
    /// Errors: as [`ConvexPolytope::new`], plus [`GeomError::Degenerate`] when the faces do
    /// not describe the convex hull's surface.
    pub fn with_faces(vertices: Vec<[f64; 3]>, faces: &[[usize; 3]]) -> Result<Self, GeomError> {
        Self::new(vertices)?.attach_faces(faces)
    }
    /// Adds the adjacency of the surface triangulation `faces` (see [`ConvexPolytope::with_faces`]).
    pub(crate) fn attach_faces(self, faces: &[[usize; 3]]) -> Result<Self, GeomError> {
        let adj = VertexAdjacency::from_faces(&self.vertices, faces)?;
        Ok(self.with_adjacency(adj))
    }
    /// Attaches a validated surface adjacency, and the support lists of a hull of
    /// [`HULL_CELLS_MIN_VERTICES`]..=[`HULL_CELLS_MAX_VERTICES`] vertices (`cells_slot.rs`) or,
    /// for a large hull without them, the direction table.
    pub(crate) fn with_adjacency(mut self, adj: VertexAdjacency) -> Self {
        let listed = self.cells.build_for_hull(&self.vertices);
        self.table = (!listed && self.vertices.len() >= DIRECTION_TABLE_MIN_VERTICES)
            .then(|| std::sync::Arc::new(DirectionTable::new(&self.vertices, &adj)));
        self.adjacency = Some(std::sync::Arc::new(adj));
        self
    }
    /// The vertices as given.
    pub fn vertices(&self) -> &[Point3<f64>] {
        &self.vertices
    }
    /// The hull-surface vertex adjacency, when the polytope was built with faces.
    pub fn adjacency(&self) -> Option<&VertexAdjacency> {
        self.adjacency.as_deref()
    }
    /// The start table of cold hill climbs, when the hull has one (hulls of at least
    /// [`DIRECTION_TABLE_MIN_VERTICES`] vertices with an adjacency).
    pub fn direction_table(&self) -> Option<&std::sync::Arc<DirectionTable>> {
        self.table.as_ref()
    }
    /// The vertices in blocks of four, for the vectorized support scan.
    pub(crate) fn lanes(&self) -> &VertexLanes {
        &self.lanes
    }
    /// max |v| over the vertices (local frame).
    pub(crate) fn extent(&self) -> f64 {
        self.extent
    }
    /// The centre of the vertices' bounding box (local frame).
    pub(crate) fn center(&self) -> Point3<f64> {
        self.center
    }
    /// Builds, once, the per-direction support lists that cold GJK runs on this polytope then
    /// read instead of scanning every vertex (same supports bit for bit, so the same answers);
    /// whether the polytope has them. For shapes queried many times: the build costs about
    /// 30·k²·n dot products (n vertices, k = ⌈√n⌉ clamped to 4..16), some 1500 supports' worth
    /// for 64 vertices. Polytopes of 192 vertices or more get none here (see `cells_slot.rs`);
    /// hulls with an adjacency of [`HULL_CELLS_MIN_VERTICES`]..=[`HULL_CELLS_MAX_VERTICES`]
    /// vertices have theirs from construction.
    pub fn prepare_support_cells(&self) -> bool {
        self.cells.build(&self.vertices)
    }
    /// The support lists, when [`ConvexPolytope::prepare_support_cells`] built them.
    #[inline(always)]
    pub(crate) fn support_cells(&self) -> Option<&crate::gjk::SupportCells> {
        self.cells.get()
    }
    /// The support lists this polytope holds (built with a hull of
    /// [`HULL_CELLS_MIN_VERTICES`]..=[`HULL_CELLS_MAX_VERTICES`] vertices, or by
    /// [`ConvexPolytope::prepare_support_cells`]), as a shared handle: a caller that keeps
    /// lists beside the shape reuses these instead of building the same table again.
    pub fn shared_support_cells(&self) -> Option<std::sync::Arc<crate::gjk::SupportCells>> {
        self.cells.shared()
    }
}

impl Polyhedron {
    /// { p : nᵢ·p ≤ dᵢ } from (normal, offset) pairs; normals must be non-zero (they are
    /// normalized and the offsets scaled alike). Boundedness and non-emptiness are checked.
    ///
    /// The constructor enumerates the vertices once (every triple of planes, O(m⁴) for m
    /// half-spaces: meant for the tens-to-hundreds of faces of collision shapes). A vertex
    /// satisfies every half-space to a relative tolerance of 1e-9 · max(1, |v|, the offsets of
    /// its three planes).
    /// The set may be flat (zero volume) but must be bounded and contain a point.
    ///
    /// Errors: [`GeomError::NonFinite`] for NaN/∞, [`GeomError::ZeroAxis`] for a zero
    /// normal, [`GeomError::Degenerate`] for no half-spaces, an unbounded set or an empty set.
    pub fn new(halfspaces: Vec<([f64; 3], f64)>) -> Result<Self, GeomError> {
        let (normals, offsets, vertices) = polyhedron::validate(&halfspaces)?;
        Ok(Self { normals, offsets, vertices })
    }
    /// The vertices (computed by the constructor, deduplicated).
    pub fn vertices(&self) -> &[Point3<f64>] {
        &self.vertices
    }
    /// Unit outward normals.
    pub fn normals(&self) -> &[Vector3<f64>] {
        &self.normals
    }
    /// Offsets dᵢ (for unit normals: signed distance of the plane from the local origin).
    pub fn offsets(&self) -> &[f64] {
        &self.offsets
    }
}

impl Shape {
    /// An upper bound of max |x| over the shape in its local frame (the distance from its local
    /// origin to its farthest point; +∞ for a line).
    pub(crate) fn local_extent(&self) -> f64 {
        let n = |p: Point3<f64>| p.coords.norm();
        match self {
            Shape::Point(x) => n(x.position()),
            Shape::Segment(x) => x.endpoints().into_iter().map(n).fold(0.0, f64::max),
            Shape::Line(_) => f64::INFINITY,
            Shape::Triangle(x) => x.vertices().into_iter().map(n).fold(0.0, f64::max),
            Shape::Cuboid(x) => x.half_extents().norm(),
            Shape::AlignedBox(x) => n(x.min()).max(n(x.max())) + (x.max() - x.min()).norm(),
            Shape::Sphere(x) => x.radius(),
            Shape::Capsule(x) => x.half_height() + x.radius(),
            Shape::Cylinder(x) => planar_len(x.radius(), x.half_height()),
            Shape::Ellipsoid(x) => x.radii().amax(),
            Shape::ConvexPolytope(x) => x.extent(),
            Shape::Polyhedron(x) => max_norm(x.vertices()),
            Shape::Cone(x) => planar_len(x.radius(), x.half_height()) + x.half_height(),
            Shape::Rounded(x) => x.inner().local_extent() + x.radius(),
            Shape::MinkowskiSum(x) => {
                let ((a, pa), (b, pb)) = (x.first(), x.second());
                let part = |s: &Shape, p: &crate::Pose| {
                    s.local_extent() * (1.0 + 3.0 * p.orthonormality_error()) + p.translation().norm()
                };
                part(a, pa) + part(b, pb)
            }
        }
    }

    /// The kind of this shape.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Point(_) => ShapeKind::Point,
            Shape::Segment(_) => ShapeKind::Segment,
            Shape::Line(_) => ShapeKind::Line,
            Shape::Triangle(_) => ShapeKind::Triangle,
            Shape::Cuboid(_) => ShapeKind::Cuboid,
            Shape::AlignedBox(_) => ShapeKind::AlignedBox,
            Shape::Sphere(_) => ShapeKind::Sphere,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Cylinder(_) => ShapeKind::Cylinder,
            Shape::Ellipsoid(_) => ShapeKind::Ellipsoid,
            Shape::ConvexPolytope(_) => ShapeKind::ConvexPolytope,
            Shape::Polyhedron(_) => ShapeKind::Polyhedron,
            Shape::Cone(_) => ShapeKind::Cone,
            Shape::Rounded(_) => ShapeKind::Rounded,
            Shape::MinkowskiSum(_) => ShapeKind::MinkowskiSum,
        }
    }
}
