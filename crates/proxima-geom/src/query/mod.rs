//! The query API: `distance` and `intersects` for every pair of shapes, with certificates.
//!
//! # Certificates
//!
//! A distance answer carries an interval `[lower, upper]` that provably contains the true
//! distance: `upper` = |p_b − p_a| for witness points p_a ∈ A, p_b ∈ B (so it is an upper
//! bound), `lower` = the separation of A and B along a unit direction n,
//! min_{b∈B} n·b − max_{a∈A} n·a, clamped at 0 (weak duality: any direction gives a lower
//! bound). `upper − lower` is the proven error. The lower bound is computed from the support
//! functions of the two whole shapes ([`Shape::support_value`](crate::Shape::support_value)),
//! independently of the algorithm that found the witnesses (see `certificate.rs`). Contact
//! answers carry `lower = upper = 0`. Both bounds are evaluated in `f64` (round-off of order
//! 1e-16 × scale is not accounted for; a lower bound above the upper one, which only rounding
//! can produce, is clamped to it).
//!
//! # Separated, touching, intersecting
//!
//! * `Separated`: distance > `touching_tolerance`.
//! * `Touching`: 0 < distance ≤ `touching_tolerance`, or exact contact that the algorithm
//!   *proves* to be boundary-only: two spheres/capsules at exactly the sum of their radii, a
//!   point on a box face, crossing segments (points, segments, lines and triangles have no
//!   interior in 3D).
//! * `Intersecting`: a common point exists and the algorithm cannot prove boundary-only
//!   contact. Closed forms give the exact penetration `depth` (sphere/capsule pairs, point or
//!   sphere in a box or a cylinder); the LCP kernels cannot tell interiors from boundary
//!   contact cheaply and report `Intersecting { point: Some(common point), depth: None }`.
//!
//! [`intersects`] is `distance ≤ touching_tolerance`; when separated it returns the
//! certificate's direction if that direction proves the separation (lower bound > 0).
//!
//! # Pairs
//!
//! The pair is computed in a canonical order and the answer mirrored, so
//! `distance(b, a)` is bit-for-bit the mirror of `distance(a, b)`.
//!
//! | pair (either order) | `Auto` | `Lcp` available |
//! |---|---|---|
//! | point/segment/line/sphere/capsule – point/segment/line/sphere/capsule | closed form (clamped 2-parameter least squares) | no |
//! | point/sphere – cuboid/aligned box | closed form (clamp in the box frame) | yes (point–box kernel) |
//! | point/sphere – cylinder | closed form (disk × interval projection) | no |
//! | cuboid/aligned box – cuboid/aligned box | LCP (box–box, specialized f64 solver first) | yes (12 × 12 Lemke) |
//! | triangle – cuboid | LCP (triangle–box) | yes |
//! | triangle – aligned box | LCP (triangle–aligned box, in the box frame) | yes |
//! | segment/capsule – triangle | GJK (LCP segment–triangle in exact arithmetic) | yes |
//! | line – triangle | LCP (line–triangle) | yes |
//! | point/sphere – triangle | GJK (LCP point–polytope in exact arithmetic) | yes |
//! | point/sphere – convex polytope/polyhedron | LCP (point–polytope on the vertices) | yes |
//! | triangle – cylinder | GJK; `intersects`: GJK early exit, LCP test-intersection when undecided or exact | test only |
//! | point/sphere – polytope with > 16 vertices | GJK (hill climbing) | yes |
//! | every other pair of bounded shapes (polytopes, ellipsoids, cylinders, cones, rounded shapes, Minkowski sums...) | GJK + EPA | no |
//! | a line with anything else | [`GeomError::Unsupported`] | — |
//!
//! [`Algorithm::Gjk`] forces GJK on any bounded pair. `intersects` uses GJK's early-exit
//! test for GJK-routed pairs (never reporting "separated" without a proving direction;
//! `Undecided` otherwise). [`signed_distance`] returns the penetration depth of overlapping
//! shapes: exact from the closed forms, an EPA bracket otherwise (pairs answered by an LCP
//! kernel are re-run through GJK/EPA when they overlap). The routing table lives in one
//! function (`dispatch.rs::route`), one arm per pair family.
//!
//! [`Algorithm::ClosedForm`] on an LCP-only pair, or [`Algorithm::Lcp`] on a closed-form-only
//! pair, is `Unsupported` with the algorithm's name. With [`Algorithm::Auto`] and
//! [`Arithmetic::Exact`], a pair with both uses the (exact) LCP kernel. Closed forms are `f64`
//! whatever the [`Arithmetic`]; `gap_tolerance` applies to the LCP kernels' certification.

use core::fmt;

use nalgebra::{Point3, Vector3};
use proxima_lcp::SolvePath;

use crate::error::GeomError;
use crate::gjk::{GjkCache, GjkSettings, GjkStatus};

mod certificate;
mod dispatch;
mod distance;
mod facet_tracking;
mod intersect;
mod prepared;
mod signed;
pub(crate) use signed::signed_from_unsigned;
pub mod toi;
mod verify;
use crate::pose::Pose;
use crate::shape::Shape;
pub use facet_tracking::{Dqp3ShapeTracker, FacetShape, distance_facet_shapes};
pub use prepared::{CELLS_MIN_ROWS_PER_VERTEX, CELLS_MIN_VERTICES, PreparedPair};

/// Which algorithm answers a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Algorithm {
    /// The dispatcher's choice for the pair.
    #[default]
    Auto,
    /// Closed-form formulas (sphere/point/segment pairs...).
    ClosedForm,
    /// The pair written as a convex QP and solved by Lemke's method (reference §3–4).
    Lcp,
    /// `intersects` only: the vertex-based LP collision test (simplex with Bland's rule) on
    /// shapes with finitely many vertices (points, segments, triangles, boxes, polytopes);
    /// see [`crate::lp_polytope`].
    Lp,
    /// `intersects` only: separating axes for cylinder pairs; see [`crate::sat_cylinder`].
    /// Also the label of a [`signed_distance`] result whose depth came from the separating
    /// axes of two overlapping boxes (not selectable for that).
    Sat,
    /// GJK on support maps (EPA for the penetration depth), for every pair of bounded
    /// shapes; see [`crate::gjk`].
    Gjk,
    /// The ellipsoid solvers of [`crate::ellipsoid`]: Newton on the support-function dual for
    /// ellipsoid pairs (cost flat near contact), the vertex/edge/facet active set for polytope
    /// or polyhedron – ellipsoid, the secular-equation projection for point/sphere – ellipsoid.
    Ellipsoid,
    /// DQP3 ([`crate::dqp3`]), the active-set distance between half-space polyhedra, for
    /// convex polytope / polyhedron / box pairs when asked for: each call converts both shapes
    /// to facet form (O(m²) clipping), so for repeated queries build
    /// [`crate::dqp3::FacetPolyhedron`]s once and use [`crate::dqp3::Dqp3Tracker`].
    Dqp3,
}

impl Algorithm {
    /// Lowercase name (`"auto"`, `"closed_form"`, `"lcp"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::ClosedForm => "closed_form",
            Algorithm::Lcp => "lcp",
            Algorithm::Lp => "lp",
            Algorithm::Sat => "sat",
            Algorithm::Gjk => "gjk",
            Algorithm::Ellipsoid => "ellipsoid",
            Algorithm::Dqp3 => "dqp3",
        }
    }
}

/// Arithmetic used by LCP-formulated queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Arithmetic {
    /// f64, with certification and an exact re-solve when the certificate gap is too large
    /// or a pivot sign was ambiguous.
    #[default]
    Certified,
    /// f64 only: no exact fallback (fastest; the result still reports its gap).
    Float,
    /// Exact rational arithmetic on the f64 inputs (the answer is rounded at the end).
    Exact,
}

/// Settings of a distance or intersection query.
///
/// Non-exhaustive (fields will be added): build from [`QuerySettings::default`] and the
/// `with_*` setters, or assign fields of a default value. Every query checks the settings with
/// [`QuerySettings::validate`]; front ends (CLI, Python) call it once after building them.
///
/// ```
/// use proxima_geom::{Algorithm, Arithmetic, QuerySettings};
///
/// let s = QuerySettings::default().with_algorithm(Algorithm::Lcp).with_arithmetic(Arithmetic::Exact);
/// assert!(s.validate().is_ok());
/// assert!(QuerySettings::default().with_gap_tolerance(f64::NAN).validate().is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct QuerySettings {
    /// Algorithm to use (`Auto` = dispatcher's choice).
    pub algorithm: Algorithm,
    /// Arithmetic for LCP-formulated queries.
    pub arithmetic: Arithmetic,
    /// Certified mode: accept an f64 answer when `upper − lower ≤ gap_tolerance × scale`,
    /// scale = max(1, size of the shapes, distance between their centres). Default 1e-9.
    pub gap_tolerance: f64,
    /// Distances ≤ this count as touching. Default 0 (exact contact only).
    pub touching_tolerance: f64,
    /// Settings of the GJK / EPA path (iteration cap, tolerance, acceleration).
    pub gjk: GjkSettings,
    /// Whether [`distance`] measures how far overlapping shapes penetrate. Default `true`
    /// (signed): GJK-routed pairs whose cores overlap run EPA and report
    /// `Intersecting { depth: Some(..) }` (or `Touching` when the proven depth is below
    /// round-off). `false` asks for an *unsigned* distance, like coal's
    /// `enable_signed_distance = false`: such pairs stop as soon as GJK proves contact and
    /// report `Intersecting { point: Some(common point), depth: None }` with the certificate
    /// [0, 0], without EPA (touching and overlapping are then not told apart). Separated pairs,
    /// the other algorithms (closed forms keep their free exact depth), [`intersects`] and
    /// [`signed_distance`] (which always measures the depth) are unaffected.
    pub penetration_depth: bool,
}

impl Default for QuerySettings {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::Auto,
            arithmetic: Arithmetic::Certified,
            gap_tolerance: 1e-9,
            touching_tolerance: 0.0,
            gjk: GjkSettings::default(),
            penetration_depth: true,
        }
    }
}

impl QuerySettings {
    /// Checks every field: `gap_tolerance` and `touching_tolerance` finite and ≥ 0, and the
    /// GJK settings ([`GjkSettings::validate`]).
    ///
    /// # Errors
    ///
    /// [`GeomError::InvalidSettings`] naming the first invalid field.
    pub fn validate(&self) -> Result<(), GeomError> {
        // Every query runs this: the common all-valid case by plain comparisons combined
        // without branches (NaN fails each), the GJK fields' conditions being those of
        // `GjkSettings::validate` (both iteration caps ≥ 1, tolerance finite and > 0); the
        // field-by-field errors below, in their order, only otherwise.
        let in_range = |x: f64| (0.0..f64::INFINITY).contains(&x);
        let gjk = &self.gjk;
        let gjk_ok = (gjk.max_iterations != 0)
            & (gjk.epa_max_iterations != 0)
            & (gjk.tolerance > 0.0)
            & (gjk.tolerance < f64::INFINITY);
        if in_range(self.gap_tolerance) & in_range(self.touching_tolerance) & gjk_ok {
            return Ok(());
        }
        if !self.gap_tolerance.is_finite() || self.gap_tolerance < 0.0 {
            return Err(GeomError::InvalidSettings {
                field: "gap_tolerance",
                reason: "must be finite and >= 0",
            });
        }
        if !self.touching_tolerance.is_finite() || self.touching_tolerance < 0.0 {
            return Err(GeomError::InvalidSettings {
                field: "touching_tolerance",
                reason: "must be finite and >= 0",
            });
        }
        self.gjk.validate()
    }

    /// With this [`QuerySettings::algorithm`].
    #[must_use]
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// With this [`QuerySettings::arithmetic`].
    #[must_use]
    pub fn with_arithmetic(mut self, arithmetic: Arithmetic) -> Self {
        self.arithmetic = arithmetic;
        self
    }

    /// With this [`QuerySettings::gap_tolerance`].
    #[must_use]
    pub fn with_gap_tolerance(mut self, gap_tolerance: f64) -> Self {
        self.gap_tolerance = gap_tolerance;
        self
    }

    /// With this [`QuerySettings::touching_tolerance`].
    #[must_use]
    pub fn with_touching_tolerance(mut self, touching_tolerance: f64) -> Self {
        self.touching_tolerance = touching_tolerance;
        self
    }

    /// With these [`QuerySettings::gjk`] settings.
    #[must_use]
    pub fn with_gjk(mut self, gjk: GjkSettings) -> Self {
        self.gjk = gjk;
        self
    }

    /// With this [`QuerySettings::penetration_depth`].
    #[must_use]
    pub fn with_penetration_depth(mut self, penetration_depth: bool) -> Self {
        self.penetration_depth = penetration_depth;
        self
    }
}

/// The geometric answer, one variant per case.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Proximity {
    /// Disjoint: distance > touching tolerance.
    Separated {
        /// The distance (= |point_b − point_a|).
        distance: f64,
        /// Closest point on A (world frame).
        point_a: Point3<f64>,
        /// Closest point on B (world frame).
        point_b: Point3<f64>,
        /// Unit vector from A towards B.
        normal: Vector3<f64>,
    },
    /// In contact: distance within the touching tolerance.
    Touching {
        /// A common (or closest) point, world frame.
        point: Point3<f64>,
    },
    /// Overlapping interiors.
    Intersecting {
        /// A common point, world frame, when the algorithm provides one.
        point: Option<Point3<f64>>,
        /// Penetration depth when computed.
        depth: Option<f64>,
    },
}

/// A proven bracket of the true distance.
///
/// What "proven" means in floating point: both bounds are computed from the user's shapes
/// (`lower` from their support functions along a separating direction or a solver's dual
/// value, `upper` from witness points verified to lie in the shapes), each with the
/// round-off of a handful of operations. The true distance lies in
/// `[lower − τ, upper + τ]` with τ = 4096 ulps × max(1, largest witness coordinate)
/// (≈ 9e-13 at unit size, see `query/verify.rs`): the tolerance of the witness containment
/// test. When the two bounds meet to within τ they are reported equal (`gap() == 0`): the
/// answer is then exact to τ, not to the last bit. Exact rational re-solves
/// ([`QueryPath::ExactResolve`]) make no round-off in the solve itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Certificate {
    /// Lower bound (from a separating direction; 0 when intersecting).
    pub lower: f64,
    /// Upper bound (from the witness points).
    pub upper: f64,
}

impl Certificate {
    /// `upper − lower`.
    pub fn gap(&self) -> f64 {
        self.upper - self.lower
    }
}

/// Which computation produced the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum QueryPath {
    /// Closed-form computation.
    ClosedForm,
    /// A specialized allocation-free f64 active-set solver for the pair's QP (box–box,
    /// triangle–box), certified by its gap; no LCP was needed.
    ActiveSet,
    /// f64 LCP, certified on the first try.
    Float {
        /// The LCP solver's path.
        lcp: SolvePath,
    },
    /// f64 LCP was not certified; re-solved exactly in Rational.
    ExactResolve,
    /// Exact arithmetic was requested.
    Exact,
    /// An ellipsoid solver ([`crate::ellipsoid`]).
    Ellipsoid {
        /// Newton steps (dual Newton), active-set steps (polytope–ellipsoid) or projection
        /// iterations (point/sphere–ellipsoid).
        iterations: u32,
    },
    /// DQP3 on half-space polyhedra.
    Dqp3 {
        /// Delta/lambda/alpha passes.
        passes: u32,
    },
    /// GJK (and EPA when the cores overlap) on support maps.
    Gjk {
        /// How the GJK loop ended.
        status: GjkStatus,
        /// GJK iterations.
        iterations: u32,
    },
}

impl QueryPath {
    /// The kind of computation, without its details: `"closed_form"`, `"active_set"`,
    /// `"float"`, `"exact_resolve"`, `"exact"`, `"ellipsoid"`, `"dqp3"` or `"gjk"`.
    pub fn as_str(&self) -> &'static str {
        match self {
            QueryPath::ClosedForm => "closed_form",
            QueryPath::ActiveSet => "active_set",
            QueryPath::Float { .. } => "float",
            QueryPath::ExactResolve => "exact_resolve",
            QueryPath::Exact => "exact",
            QueryPath::Ellipsoid { .. } => "ellipsoid",
            QueryPath::Dqp3 { .. } => "dqp3",
            QueryPath::Gjk { .. } => "gjk",
        }
    }
}

/// The stable name of a path with its details, `/`-separated after [`QueryPath::as_str`]:
/// `float/lemke` (the LCP solver's path), `gjk/converged/12` (status and iterations),
/// `ellipsoid/5` (iterations), `dqp3/3` (passes); the other kinds are their name alone.
impl fmt::Display for QueryPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.as_str();
        match self {
            QueryPath::Float { lcp } => write!(f, "{kind}/{}", lcp.as_str()),
            QueryPath::Ellipsoid { iterations } => write!(f, "{kind}/{iterations}"),
            QueryPath::Dqp3 { passes } => write!(f, "{kind}/{passes}"),
            QueryPath::Gjk { status, iterations } => write!(f, "{kind}/{}/{iterations}", status.as_str()),
            _ => f.write_str(kind),
        }
    }
}

/// The answer to `distance`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistanceResult {
    /// The case and its geometry.
    pub proximity: Proximity,
    /// The proven bracket.
    pub certificate: Certificate,
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// How it ran.
    pub path: QueryPath,
}

impl DistanceResult {
    /// The distance (0 when touching or intersecting).
    pub fn distance(&self) -> f64 {
        match self.proximity {
            Proximity::Separated { distance, .. } => distance,
            _ => 0.0,
        }
    }
    /// Witness points (p_a, p_b) in the world frame when available.
    pub fn witnesses(&self) -> Option<(Point3<f64>, Point3<f64>)> {
        match self.proximity {
            Proximity::Separated { point_a, point_b, .. } => Some((point_a, point_b)),
            Proximity::Touching { point } => Some((point, point)),
            Proximity::Intersecting { point: Some(p), .. } => Some((p, p)),
            Proximity::Intersecting { point: None, .. } => None,
        }
    }
}

/// The answer to `intersects` (touching counts as intersecting).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Intersection {
    /// The shapes share at least one point.
    Intersecting {
        /// A common point, world frame, when available.
        point: Option<Point3<f64>>,
    },
    /// The shapes are disjoint.
    Separated {
        /// A unit direction n with max_{a∈A} n·a < min_{b∈B} n·b, when available.
        direction: Option<Vector3<f64>>,
    },
    /// The algorithm reached no verdict (iteration limit or numerical failure with the exact
    /// fallback disabled). Never reported as separated.
    Undecided {
        /// Why.
        reason: &'static str,
    },
}

/// Distance between `a` placed by `pose_a` and `b` placed by `pose_b`.
pub fn distance(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    dispatch::distance(a, pose_a, b, pose_b, settings)
}

/// Whether `a` and `b` share a point (touching counts).
pub fn intersects(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    settings: &QuerySettings,
) -> Result<Intersection, GeomError> {
    dispatch::intersects(a, pose_a, b, pose_b, settings)
}

/// Distance for a pair tracked over time: like [`distance`], but a GJK-routed pair starts from
/// the state left in `cache` by the previous call (warm start) and updates it. Use one cache
/// per pair and reset it ([`GjkCache::reset`]) at the start of each trajectory. The answer is
/// certified exactly as a cold query's; only the iteration count changes.
pub fn distance_tracked(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    settings: &QuerySettings,
    cache: &mut GjkCache,
) -> Result<DistanceResult, GeomError> {
    dispatch::distance_tracked(a, pose_a, b, pose_b, settings, cache)
}

/// Signed distance: the distance when separated, minus the penetration depth when the
/// shapes overlap, 0 at touching contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignedDistance {
    /// The signed distance (negative = penetration depth).
    pub value: f64,
    /// A proven bracket of the signed distance: `lower ≤ true value ≤ upper` (see
    /// [`signed_distance`]). When it contains 0 the value is 0 (touching to within EPA's
    /// resolution); an overlap is reported only when `upper < 0`, then with `value = lower`
    /// (the deepest estimate: a translation that long separates the shapes).
    pub certificate: Certificate,
    /// The full distance answer it was derived from.
    pub result: DistanceResult,
}

/// Signed distance between two shapes (penetration depth as a negative value), with a proven
/// bracket. Proven separation keeps the distance answer; otherwise (overlap, contact, a
/// distance within the touching tolerance or not proven positive) the depth is computed by
/// GJK/EPA on the shapes, tightened by their separating axes, and — when the sign is still open
/// near exact contact — by EPA on the pair with B dilated by a small ball, which moves the
/// signed distance by exactly the ball's radius (`signed.rs`). Closed forms give the exact
/// depth; two overlapping boxes get theirs from the 15 separating axes with a proven bracket
/// (result algorithm [`Algorithm::Sat`]), GJK/EPA when that bracket is not proven tight. Errors: as [`distance`]; additionally [`GeomError::Unsupported`] for an overlapping
/// pair involving a line (no depth).
pub fn signed_distance(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    settings: &QuerySettings,
) -> Result<SignedDistance, GeomError> {
    signed::signed_distance(a, pose_a, b, pose_b, settings)
}
