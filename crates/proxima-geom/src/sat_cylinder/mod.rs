//! Test-intersection of two bounded cylinders by separating axes (spec
//! `shared/spec/cylinder-separation.md`, after D. Eberly's note), with certificates.
//!
//! # The maths
//!
//! A cylinder is (C, W, r, h) — centre, unit axis, radius, **half** height (the spec's h/2):
//! the points X with |P(X − C)| ≤ r and |W·(X − C)| ≤ h, P = I − WWᵀ. Its projection onto a
//! direction D is `D·C ± (r|D × W| + h|D·W|)` (closed form, spec (4)). With Δ = C₁ − C₀ the
//! two projections are disjoint (or touch) iff the separation function
//!
//! ```text
//! f(D) = r₀|D × W₀| + r₁|D × W₁| + h₀|D·W₀| + h₁|D·W₁| − |D·Δ|
//! ```
//!
//! is < 0 (or = 0). f is positively homogeneous and even, so only directions on a hemisphere
//! matter; −f(D)/|D| is the gap between the projection intervals, and
//! distance = max(0, −min_{|D|=1} f). The search follows the spec:
//!
//! 1. **Axis directions** W₀, W₁ and **their cross product** W₀ × W₁ (spec §5). When
//!    |W₀ × W₁| ≤ `eps_parallel` the axes are treated as parallel: the height test f(W₀) and the
//!    radial test f(Δ − (W₀·Δ)W₀) are complete for exactly parallel axes.
//! 2. **Directions perpendicular to an axis** (spec §6): f restricted to the circle ⊥ W₀ is
//!    swept as two quarter circles D(t) = (1 − t)(±U₀) + tV₀; F(t) = f(D(t)) is convex unless
//!    the kink of |D·Δ| lies inside, in which case the endpoint tests already decide (the spec's
//!    Lemma 6.2). Bisection on the sign of F′ with the spec's fixes (no early `return` after
//!    the first quarter; F′(1) guard for perpendicular axes). Then the same with the roles
//!    exchanged.
//! 3. **All other directions** (spec §7.4): on the hemisphere D·Δ ≥ 0, split into four
//!    octants each mapped to the triangle s, t ≥ 0, s + t ≤ 1 by D = sU + tV + (1 − s − t)Ŵ
//!    (Ŵ = Δ/|Δ|), G(s, t) = f(D(s, t)) is convex (a sum of seminorms minus a linear term), so
//!    φ(s) = min_t G(s, t) is convex and a nested golden-section search (outer on s, inner on t)
//!    keeps a minimiser bracketed; no derivatives, so creases and cone points do not matter.
//!
//! **Accuracy.** Every *separated* answer is certified: the witness direction D is re-checked
//! with the general f before it is returned (and the tests re-check it against the closed-form
//! projections). A *not separated* answer can be wrong only when the true distance is below the
//! search's resolution: G is Lipschitz with κ ≤ √3(r₀ + r₁ + h₀ + h₁ + |Δ|) on the triangle,
//! so with final brackets `tol_param` the miss is at most ≈ 2√3·κ·`tol_param` (≈ 1e-9 × the
//! problem size with the defaults), or O(size·`eps_parallel`) for nearly parallel axes.
//!
//! # The common point (intersecting answers)
//!
//! When no separating direction is found, a common point is computed as a minimiser of the
//! convex, 1-Lipschitz function Φ(x) = max(ρ₀ − r₀, |z₀| − h₀, ρ₁ − r₁, |z₁| − h₁) (ρᵢ, zᵢ the
//! radial and axial coordinates of x in cylinder i; Φ(x) ≤ 0 ⇔ x lies in both) by the
//! **ellipsoid method** in ℝ³, started from a ball containing cylinder `a`. It stops at the
//! first centre with Φ ≤ 0 (a point of a positive-volume overlap, found in a few steps), or
//! when its certified lower bound on min Φ is within 1e-13·size of the best value (touching
//! pairs, where min Φ = 0 and the point is the contact), or after `max_point_iterations`
//! (default 600; the volume shrinks by e^(−1/8) per step, so 600 steps resolve the contact to
//! ≈ 1e-10·size). For (nearly) parallel axes the closed-form point — on the centres' offset
//! ⊥ W₀ at the ratio r₀ : r₁, in the middle of the axial overlap — is tried first.
//! The point comes with `residual` = max of its Euclidean distances to the two cylinders
//! (closed form): 0 for a positive-volume overlap, ≈ 1e-10·size or less at exact contact
//! (the tests check ≤ 1e-9·size on random and near-contact pairs).
//!
//! Because a point strictly inside both cylinders (Φ ≤ −8ε·size) proves the intersection,
//! two bounded attempts run *before* the expensive searches: a few alternating projections onto
//! cylinders shrunk by 50 % and 10 % (the closest point of a solid cylinder clamps the radial
//! and axial coordinates) right after the axis tests, and 120 ellipsoid steps right before the
//! other-directions search. On the shared `cylinders` workload this brings the intersecting
//! queries from ≈ 56 µs (full octant search) to ≈ 1 µs.
//!
//! # Cost
//!
//! Separated by an axis: ≈ 70–100 ns; by a perpendicular direction: ≈ 0.5–1 µs; by another
//! direction: ≈ 5 µs; intersecting: ≈ 0.2–5 µs; the worst case (touching or near-touching
//! pairs: every search runs to its tolerance) ≈ 10⁴ evaluations of G plus ≤ 600 ellipsoid steps
//! (≈ 0.1–0.3 ms). Workload `cylinders`: ≈ 0.24 µs/query (release build).
//!
//! # Example
//!
//! ```
//! use proxima_geom::sat_cylinder::{CylinderGeom, CylinderSat, CylinderSatSettings, intersects_cylinder_cylinder_raw};
//!
//! // Two crossed cylinders (axes x and y, radius 1, half height 2), 2.5 apart along z.
//! let a = CylinderGeom::new([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 1.0, 2.0)?;
//! let b = CylinderGeom::new([0.0, 0.0, 2.5], [0.0, 1.0, 0.0], 1.0, 2.0)?;
//! let r = intersects_cylinder_cylinder_raw(&a, &b, &CylinderSatSettings::default())?;
//! let CylinderSat::Separated { direction, margin, .. } = r else { panic!("0.5 apart") };
//! assert!((direction.z - 1.0).abs() < 1e-12 && (margin - 0.5).abs() < 1e-12);
//!
//! // 1.5 apart: they overlap, and the common point lies in both.
//! let b = CylinderGeom::new([0.0, 0.0, 1.5], [0.0, 1.0, 0.0], 1.0, 2.0)?;
//! let r = intersects_cylinder_cylinder_raw(&a, &b, &CylinderSatSettings::default())?;
//! let CylinderSat::Intersecting { point, residual } = r else { panic!("overlapping") };
//! assert_eq!(residual, 0.0);
//! assert_eq!(a.distance_to_point(&point), 0.0);
//! assert_eq!(b.distance_to_point(&point), 0.0);
//! # Ok::<(), proxima_geom::GeomError>(())
//! ```
//!
//! # Conventions and edge cases
//!
//! * **Touching.** Library-wide convention (default, `touching_is_separated = false`): touching
//!   counts as intersecting — D separates only when f(D) + tolerance·|D| < 0 (the gap exceeds
//!   the tolerance; the searches minimise this convex function). The spec's convention
//!   (`touching_is_separated = true`): f(D) ≤ 0 separates (touching counts as separated);
//!   `tolerance` must then be 0. `tolerance` is absolute (a length), default 0.
//! * **Concentric** (Δ = 0): never separated; no basis is built from Δ.
//! * **Parallel / anti-parallel / coaxial / coincident** axes: branch 1 decides completely.
//! * **Perpendicular axes**: the F′(1) guard (−r₁ instead of 0/0).
//! * **Inputs**: non-finite numbers, a zero axis, a non-positive radius or a negative half
//!   height are [`GeomError`]s. Axes are normalised. The raw API ([`CylinderGeom::new`]) accepts
//!   half height 0 (a disk; the spec's formulas hold for it, spec §1); [`Cylinder`] itself
//!   rejects it. Radius 0 (a segment) is rejected.
//! * Result orientation: a separating `direction` n is a unit vector from cylinder `a` towards
//!   `b`: max over `a` of n·x + margin ≤ min over `b` of n·x, `margin` = −f(n) (the gap of the
//!   projections, a lower bound on the distance).

use nalgebra::{Point3, Vector3};

use crate::error::GeomError;
use crate::pose::Pose;
use crate::query::Intersection;
use crate::shape::Cylinder;

pub mod internals;

use internals::{
    OtherDirections, certify, other_directions_search, separated_by_perpendiculars, separation_f,
};

type V3 = Vector3<f64>;

/// Settings of [`intersects_cylinder_cylinder`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CylinderSatSettings {
    /// `false` (default, library convention): touching counts as intersecting. `true` (the
    /// spec's convention): touching counts as separated.
    pub touching_is_separated: bool,
    /// Absolute contact tolerance (a length ≥ 0, default 0): with the default convention, a
    /// direction separates only when the gap of the projections exceeds `tolerance` (so gaps
    /// ≤ `tolerance` count as touching, i.e. intersecting). The searches minimise
    /// f(D) + tolerance·|D|, still convex, so the accuracy statement is unchanged. Must be 0
    /// when `touching_is_separated` (f − tolerance·|D| would not be convex).
    pub tolerance: f64,
    /// Axes with |W₀ × W₁| ≤ this are handled as parallel (default 1e-12, in [0, 1e-3]).
    pub eps_parallel: f64,
    /// Bracket length at which the golden-section searches stop (default 1e-10, in (0, 0.1]).
    pub tol_param: f64,
    /// Maximum steps of each golden-section search (default 60, ≥ 1).
    pub max_golden: u32,
    /// Maximum bisection steps of the perpendicular-direction search (default 64, ≥ 1).
    pub max_bisections: u32,
    /// Run the other-directions search (spec §7; default `true`). Switching it off is only
    /// meant for experiments: some separated pairs are then reported as intersecting.
    pub search_other_directions: bool,
    /// Maximum steps of the final common-point search (ellipsoid method; default 600).
    pub max_point_iterations: u32,
}

impl Default for CylinderSatSettings {
    fn default() -> Self {
        Self {
            touching_is_separated: false,
            tolerance: 0.0,
            eps_parallel: 1e-12,
            tol_param: 1e-10,
            max_golden: 60,
            max_bisections: 64,
            search_other_directions: true,
            max_point_iterations: 600,
        }
    }
}

impl CylinderSatSettings {
    /// Checks every field (see the field docs for the accepted ranges).
    pub fn validate(&self) -> Result<(), GeomError> {
        let bad = |field, reason| Err(GeomError::InvalidSettings { field, reason });
        if !(self.tolerance.is_finite() && self.tolerance >= 0.0) {
            return bad("tolerance", "must be finite and >= 0");
        }
        if !(self.eps_parallel.is_finite() && (0.0..=1e-3).contains(&self.eps_parallel)) {
            return bad("eps_parallel", "must be in [0, 1e-3]");
        }
        if !(self.tol_param.is_finite() && self.tol_param > 0.0 && self.tol_param <= 0.1) {
            return bad("tol_param", "must be in (0, 0.1]");
        }
        if self.touching_is_separated && self.tolerance != 0.0 {
            return bad("tolerance", "must be 0 when touching_is_separated (the spec's convention is exact)");
        }
        if self.max_golden == 0 {
            return bad("max_golden", "must be >= 1");
        }
        if self.max_bisections == 0 {
            return bad("max_bisections", "must be >= 1");
        }
        Ok(())
    }

    /// Whether the value `v` of f at a direction of length `norm` separates:
    /// `v + tolerance·norm < 0` (default), `v ≤ 0` (`touching_is_separated`).
    #[inline]
    pub fn separates(&self, v: f64, norm: f64) -> bool {
        if self.touching_is_separated { v <= 0.0 } else { v + self.tolerance * norm < 0.0 }
    }
}

/// A cylinder in the world frame: centre, unit axis, radius, half height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CylinderGeom {
    /// Centre C.
    pub center: Point3<f64>,
    /// Unit axis W.
    pub axis: Vector3<f64>,
    /// Radius r > 0.
    pub radius: f64,
    /// Half height h ≥ 0 (0: a disk).
    pub half_height: f64,
}

impl CylinderGeom {
    /// Validated: finite numbers, non-zero axis (normalised), radius > 0, half height ≥ 0.
    pub fn new(center: [f64; 3], axis: [f64; 3], radius: f64, half_height: f64) -> Result<Self, GeomError> {
        if center.iter().any(|v| !v.is_finite()) {
            return Err(GeomError::NonFinite { what: "cylinder center" });
        }
        if axis.iter().any(|v| !v.is_finite()) {
            return Err(GeomError::NonFinite { what: "cylinder axis" });
        }
        if !radius.is_finite() {
            return Err(GeomError::NonFinite { what: "cylinder radius" });
        }
        if !half_height.is_finite() {
            return Err(GeomError::NonFinite { what: "cylinder half height" });
        }
        if radius <= 0.0 {
            return Err(GeomError::NonPositive { what: "cylinder radius", value: radius });
        }
        if half_height < 0.0 {
            return Err(GeomError::NonPositive { what: "cylinder half height", value: half_height });
        }
        let w = V3::from(axis);
        let n = w.norm();
        if n == 0.0 || !n.is_finite() {
            return Err(GeomError::ZeroAxis { what: "cylinder axis" });
        }
        Ok(Self { center: center.into(), axis: w / n, radius, half_height })
    }

    /// The cylinder `shape` placed by `pose` (axis = R·e_z, normalised).
    pub fn from_shape(shape: &Cylinder, pose: &Pose) -> Self {
        let w = pose.rotation().column(2).into_owned();
        Self {
            center: Point3::from(*pose.translation()),
            axis: w / w.norm(),
            radius: shape.radius(),
            half_height: shape.half_height(),
        }
    }

    /// Half the width of the projection onto D: r|D × W| + h|D·W| (|D × W| from the cross
    /// product: √(|D|² − (D·W)²) loses half the digits when D ∥ W).
    #[inline]
    pub fn half_extent(&self, d: &V3) -> f64 {
        self.radius * d.cross(&self.axis).norm() + self.half_height * d.dot(&self.axis).abs()
    }

    /// The projection interval [min, max] of the solid cylinder onto D (closed form).
    pub fn projection(&self, d: &V3) -> (f64, f64) {
        let c = d.dot(&self.center.coords);
        let e = self.half_extent(d);
        (c - e, c + e)
    }

    /// A support point: a point of the cylinder maximising D·x (the cap centre or the axis
    /// point when not unique).
    pub fn support(&self, d: &V3) -> Point3<f64> {
        let dw = d.dot(&self.axis);
        let radial = d - self.axis * dw;
        let n = radial.norm();
        let mut p = self.center + self.axis * (self.half_height * dw.signum());
        if dw == 0.0 {
            p = self.center;
        }
        if n > 0.0 { p + radial * (self.radius / n) } else { p }
    }

    /// The closest point of the solid cylinder to `p`.
    #[inline]
    pub fn closest_point(&self, p: &Point3<f64>) -> Point3<f64> {
        self.closest_point_scaled(p, 1.0)
    }

    /// Closest point of the cylinder with radius and half height scaled by `k` ∈ (0, 1].
    #[inline]
    fn closest_point_scaled(&self, p: &Point3<f64>, k: f64) -> Point3<f64> {
        let v = p - self.center;
        let z = v.dot(&self.axis);
        let mut radial = v - self.axis * z;
        let rho = radial.norm();
        let r = self.radius * k;
        if rho > r {
            radial *= r / rho;
        }
        let h = self.half_height * k;
        self.center + self.axis * z.clamp(-h, h) + radial
    }

    /// Euclidean distance from `p` to the solid cylinder (0 inside).
    pub fn distance_to_point(&self, p: &Point3<f64>) -> f64 {
        let v = p - self.center;
        let z = v.dot(&self.axis);
        let rho = (v - self.axis * z).norm();
        let dr = (rho - self.radius).max(0.0);
        let dz = (z.abs() - self.half_height).max(0.0);
        (dr * dr + dz * dz).sqrt()
    }

    /// Whether `p` lies inside with room `margin` to spare (radially and axially).
    #[inline]
    fn contains_with_margin(&self, p: &Point3<f64>, margin: f64) -> bool {
        let v = p - self.center;
        let z = v.dot(&self.axis);
        let rho = (v - self.axis * z).norm();
        rho <= self.radius - margin && z.abs() <= self.half_height - margin
    }

    fn size(&self) -> f64 {
        self.radius.max(self.half_height)
    }
}

/// Which test found the separating direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SatStage {
    /// The axis of cylinder `a` (for parallel axes: the spec's height test).
    AxisA,
    /// The axis of cylinder `b`.
    AxisB,
    /// The cross product of the axes.
    AxisCross,
    /// Parallel axes: the radial direction Δ − (W·Δ)W.
    ParallelRadial,
    /// A direction perpendicular to the axis of `a` (spec §6).
    PerpendicularA,
    /// A direction perpendicular to the axis of `b`.
    PerpendicularB,
    /// The other-directions search (spec §7.4).
    OtherDirections,
}

/// The answer of [`intersects_cylinder_cylinder`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CylinderSat {
    /// A certified separating direction was found.
    Separated {
        /// Unit n from `a` towards `b`: max_a n·x + margin ≤ min_b n·x.
        direction: Vector3<f64>,
        /// −f(n): the gap between the projections (≥ 0, or ≥ −tolerance when
        /// `touching_is_separated`); a lower bound on the distance.
        margin: f64,
        /// The test that found it.
        stage: SatStage,
    },
    /// No separating direction: the cylinders intersect (or touch).
    Intersecting {
        /// A common point (world frame).
        point: Point3<f64>,
        /// max of the distances of `point` to the two cylinders (0: exactly common).
        residual: f64,
    },
}

impl CylinderSat {
    /// Whether the answer is `Separated`.
    pub fn is_separated(&self) -> bool {
        matches!(self, CylinderSat::Separated { .. })
    }

    /// As the library-wide [`Intersection`].
    pub fn to_intersection(&self) -> Intersection {
        match *self {
            CylinderSat::Separated { direction, .. } => {
                Intersection::Separated { direction: Some(direction) }
            }
            CylinderSat::Intersecting { point, .. } => Intersection::Intersecting { point: Some(point) },
        }
    }
}

/// Whether the cylinder `a` placed by `pose_a` and `b` placed by `pose_b` intersect, by
/// separating axes (see the module docs for the method, conventions and accuracy).
pub fn intersects_cylinder_cylinder(
    a: &Cylinder,
    pose_a: &Pose,
    b: &Cylinder,
    pose_b: &Pose,
    settings: &CylinderSatSettings,
) -> Result<CylinderSat, GeomError> {
    settings.validate()?;
    Ok(solve(&CylinderGeom::from_shape(a, pose_a), &CylinderGeom::from_shape(b, pose_b), settings))
}

/// [`intersects_cylinder_cylinder`] on world-frame cylinders (built by [`CylinderGeom::new`]).
pub fn intersects_cylinder_cylinder_raw(
    a: &CylinderGeom,
    b: &CylinderGeom,
    settings: &CylinderSatSettings,
) -> Result<CylinderSat, GeomError> {
    settings.validate()?;
    for c in [a, b] {
        // Fields are public: re-check what `CylinderGeom::new` guarantees.
        CylinderGeom::new(c.center.into(), c.axis.into(), c.radius, c.half_height)?;
        if (c.axis.norm() - 1.0).abs() > 1e-9 {
            return Err(GeomError::Degenerate {
                what: "cylinder axis is not a unit vector (use CylinderGeom::new)",
            });
        }
    }
    Ok(solve(a, b, settings))
}

/// The answer for a certified unit direction `n` (oriented from `a` to `b`; f(−n) = f(n)
/// exactly, so the margin is the certified value).
fn separated(a: &CylinderGeom, b: &CylinderGeom, n: V3, stage: SatStage) -> CylinderSat {
    let delta = b.center - a.center;
    let n = if n.dot(&delta) < 0.0 { -n } else { n };
    CylinderSat::Separated { direction: n, margin: -separation_f(a, b, &n), stage }
}

/// The whole test on validated inputs.
fn solve(a: &CylinderGeom, b: &CylinderGeom, s: &CylinderSatSettings) -> CylinderSat {
    if let Some((d, stage)) = axis_tests(a, b, s) {
        return separated(a, b, d, stage);
    }
    let parallel = a.axis.cross(&b.axis).norm() <= s.eps_parallel;
    if !parallel {
        // Early exit: a point strictly inside both proves the intersection.
        if let Some(p) = quick_common_point(a, b) {
            return CylinderSat::Intersecting { point: p, residual: 0.0 };
        }
        if let Some(d) = separated_by_perpendiculars(a, b, s) {
            return separated(a, b, d, SatStage::PerpendicularA);
        }
        if let Some(d) = separated_by_perpendiculars(b, a, s) {
            return separated(a, b, d, SatStage::PerpendicularB);
        }
        // A bounded run of the common-point search before the expensive octant search: a
        // point with room to spare inside both proves the intersection.
        let margin = 8.0 * f64::EPSILON * (a.size() + b.size() + (b.center - a.center).norm());
        let (p, _) = common_point(a, b, axis_midpoint(a, b), PRE_PASS_STEPS, margin);
        if phi(a, b, &p).0 <= -margin {
            return CylinderSat::Intersecting { point: p, residual: 0.0 };
        }
        if s.search_other_directions
            && let OtherDirections::Separated(d) = other_directions_search(a, b, s)
        {
            return separated(a, b, d, SatStage::OtherDirections);
        }
        let start = axis_midpoint(a, b);
        let (point, residual) = common_point(a, b, start, s.max_point_iterations, 0.0);
        return CylinderSat::Intersecting { point, residual };
    }
    let (point, residual) = common_point(a, b, parallel_point(a, b), s.max_point_iterations, 0.0);
    CylinderSat::Intersecting { point, residual }
}

/// (Nearly) parallel axes: the point on the line of the centres' offset ⊥ W₀ at the ratio
/// r₀ : r₁, at the middle of the overlap of the axial intervals — a common point whenever the
/// height and radial tests fail (exactly, for exactly parallel axes).
fn parallel_point(a: &CylinderGeom, b: &CylinderGeom) -> Point3<f64> {
    let delta = b.center - a.center;
    let z = a.axis.dot(&delta);
    let radial = delta - a.axis * z;
    let lo = (-a.half_height).max(z - b.half_height);
    let hi = a.half_height.min(z + b.half_height);
    a.center + radial * (a.radius / (a.radius + b.radius)) + a.axis * (0.5 * (lo + hi))
}

fn axis_midpoint(a: &CylinderGeom, b: &CylinderGeom) -> Point3<f64> {
    let (pa, pb) = axis_closest_points(a, b);
    Point3::from((pa.coords + pb.coords) * 0.5)
}

/// Spec §5: the axes, their cross product, and the parallel case. Every candidate is checked
/// with the general f.
pub(crate) fn axis_tests(
    a: &CylinderGeom,
    b: &CylinderGeom,
    s: &CylinderSatSettings,
) -> Option<(V3, SatStage)> {
    let try_dir = |d: V3| certify(a, b, s, &d);
    let x = a.axis.cross(&b.axis);
    if let Some(n) = try_dir(a.axis) {
        return Some((n, SatStage::AxisA));
    }
    if x.norm() > s.eps_parallel {
        if let Some(n) = try_dir(b.axis) {
            return Some((n, SatStage::AxisB));
        }
        if let Some(n) = try_dir(x) {
            return Some((n, SatStage::AxisCross));
        }
    } else {
        let delta = b.center - a.center;
        let radial = delta - a.axis * a.axis.dot(&delta);
        if let Some(n) = try_dir(radial) {
            return Some((n, SatStage::ParallelRadial));
        }
    }
    None
}

/// Closest points of the two axis segments (clamped segment–segment).
fn axis_closest_points(a: &CylinderGeom, b: &CylinderGeom) -> (Point3<f64>, Point3<f64>) {
    let (p, q) = (a.center, b.center);
    let (u, v) = (a.axis, b.axis);
    let (ha, hb) = (a.half_height, b.half_height);
    let w = p - q;
    let uv = u.dot(&v);
    let (uw, vw) = (u.dot(&w), v.dot(&w));
    let den = 1.0 - uv * uv;
    // Parameters s on a (|s| ≤ ha), t on b (|t| ≤ hb) minimising |p + su − q − tv|.
    let mut sa = if den > 1e-14 { ((uv * vw - uw) / den).clamp(-ha, ha) } else { 0.0 };
    let tb = (vw + uv * sa).clamp(-hb, hb);
    sa = (uv * tb - uw).clamp(-ha, ha);
    (p + u * sa, q + v * tb)
}

/// A few alternating projections onto shrunk cylinders; a point with room to spare inside
/// both, if found.
fn quick_common_point(a: &CylinderGeom, b: &CylinderGeom) -> Option<Point3<f64>> {
    let margin = 8.0 * f64::EPSILON * (a.size() + b.size() + (b.center - a.center).norm());
    let mut x = axis_midpoint(a, b);
    for k in [0.5, 0.9] {
        for _ in 0..4 {
            if a.contains_with_margin(&x, margin) && b.contains_with_margin(&x, margin) {
                return Some(x);
            }
            x = a.closest_point_scaled(&b.closest_point_scaled(&x, k), k);
        }
    }
    (a.contains_with_margin(&x, margin) && b.contains_with_margin(&x, margin)).then_some(x)
}

/// Steps of the bounded common-point run before the other-directions search.
const PRE_PASS_STEPS: u32 = 120;

/// Φ(x) = max(ρ₀ − r₀, |z₀| − h₀, ρ₁ − r₁, |z₁| − h₁) (cylindrical coordinates of x in each
/// cylinder) and a subgradient; Φ is convex, 1-Lipschitz, and Φ(x) ≤ 0 ⇔ x is in both.
fn phi(a: &CylinderGeom, b: &CylinderGeom, x: &Point3<f64>) -> (f64, V3) {
    let mut best = (f64::NEG_INFINITY, V3::zeros());
    for c in [a, b] {
        let v = x - c.center;
        let z = v.dot(&c.axis);
        let radial = v - c.axis * z;
        let rho = radial.norm();
        if rho - c.radius > best.0 {
            best = (rho - c.radius, if rho > 0.0 { radial / rho } else { V3::zeros() });
        }
        if z.abs() - c.half_height > best.0 {
            best = (z.abs() - c.half_height, c.axis * z.signum());
        }
    }
    best
}

/// A common point by the ellipsoid method on Φ (see [`phi`]), started from `start` (returned
/// at once if it is common) and a ball around cylinder `a`. The method keeps the minimiser of
/// Φ inside its ellipsoid and shrinks the volume by e^(−1/8) per step, so Φ(best) converges
/// linearly to min Φ (0 for touching pairs) — unlike alternating projections, which crawl at
/// tangent contacts. Stops at a point of Φ ≤ 0, when the certified lower bound on min Φ is
/// within 1e-13·size of Φ(best), or after `max_iter` steps; returns the best point and its
/// residual (closed-form distances to the two cylinders). `margin` ≥ 0: stop only at Φ ≤ −margin.
fn common_point(
    a: &CylinderGeom,
    b: &CylinderGeom,
    start: Point3<f64>,
    max_iter: u32,
    margin: f64,
) -> (Point3<f64>, f64) {
    let residual = |p: &Point3<f64>| a.distance_to_point(p).max(b.distance_to_point(p));
    let (f0, _) = phi(a, b, &start);
    if f0 <= -margin {
        return (start, residual(&start));
    }
    let size = a.size() + b.size() + (b.center - a.center).norm();
    let radius = (a.radius * a.radius + a.half_height * a.half_height).sqrt() * (1.0 + 1e-9) + 1e-12 * size;
    let mut c = a.center;
    let mut m = nalgebra::Matrix3::<f64>::identity() * (radius * radius);
    let mut best = (start, f0);
    let mut lower = f64::NEG_INFINITY;
    let n = 3.0;
    for _ in 0..max_iter {
        let (fc, g) = phi(a, b, &c);
        if fc < best.1 {
            best = (c, fc);
        }
        if fc <= -margin {
            break;
        }
        let mg = m * g;
        let width = g.dot(&mg);
        if width.is_nan() || width <= 0.0 {
            break;
        }
        let width = width.sqrt();
        lower = lower.max(fc - width);
        if best.1 - lower <= 1e-13 * size {
            break;
        }
        let gt = mg / width;
        c -= gt / (n + 1.0);
        m = (m - gt * gt.transpose() * (2.0 / (n + 1.0))) * (n * n / (n * n - 1.0));
        m = (m + m.transpose()) * 0.5;
    }
    (best.0, residual(&best.0))
}
