//! DQP3: minimum distance between convex polyhedra given by facets (half-spaces), by a
//! geometric primal active-set QP (Fenger 2001; spec `dqp3-polyhedra-distance.md`).
//!
//! # The problem
//!
//! ```text
//! minimize |x2 − x1|²   subject to   A_iᵀ x_i ≥ b_i  (i = 1, 2; inward unit normals)
//! ```
//!
//! A convex QP with the PSD Hessian [I −I; −I I]. DQP3 keeps one active set (≤ 3 facets) per
//! object; its **delta step** is the closed-form closest-point problem between the two
//! affine flats (space / facet / edge / vertex, 10 cases up to symmetry, with the half-way
//! rule when the minimizer is not unique and parallel variants); the **lambda step** uses the
//! geometric multipliers and releases exactly one constraint (the most negative, ties to
//! object 1); the **alpha step** is a ratio test per object that can add one constraint per
//! object. A monotonicity guard undoes an alpha step that would increase the distance.
//!
//! # Frames and tracking
//!
//! Built-in transforms (the thesis's `dqpt`): facet data stay in the object frames; delta and
//! lambda work in the world frame with the active normals rotated once when they enter, the
//! ratio test runs on the untransformed data with δ_o = Rᵀδ. The warm state (object-frame
//! points + active sets) therefore stays consistent under any rigid motion
//! ([`Dqp3Tracker`]). With adjacency on, the ratio test of an object with at least one active
//! facet scans only that facet's neighbours (exact: see [`FacetPolyhedron`]).
//!
//! # Tolerances and anti-cycling (spec §4.8, with the "Ours" fixes)
//!
//! Plane–plane parallel when |u|² < 1e-20 with stable denominators u·u, w·w; line–plane
//! parallel when |m·l| < 1e-10|l|; line–line when |l2p|² < 1e-20|l2|²; the step is zero when
//! |δ| < [`Dqp3Settings::zero_step`]·(1 + D); a release needs λ < −[`Dqp3Settings::release_tolerance`]·D;
//! constraints nearly parallel to the motion (|a·δ̂| ≤ 1e-10) never block (this keeps
//! dependent normals out of the active set); iteration cap max(100, (m1+m2)/4) →
//! [`Dqp3Status::IterationLimit`], never a silent answer.
//!
//! # Certificate
//!
//! upper = |x2 − x1| (the witness points, feasible up to the tolerances above). lower: with
//! the final multipliers λ ≥ 0 and residuals r_i = v_i − Σλ_k a_k (v1 = −d, v2 = d), every y
//! of object 1 satisfies d·(y − x1) ≤ e1 = Σλ_k|s_k| + |r1|(ρ1 + |x1 − c1|) (s_k the active
//! slacks, ρ the circumradius about the centroid c), and likewise for object 2, so the
//! distance is at least (D² − e1 − e2)/D.
//!
//! # Example
//!
//! ```
//! use proxima_geom::Pose;
//! use proxima_geom::dqp3::{Dqp3Settings, Dqp3Status, Dqp3Tracker, distance_dqp3, genball};
//!
//! // Two order-6 facet-balls (46 facets each, inscribed unit spheres) 5 apart along x: the
//! // facets x = 1 and x = 4 face each other, so the distance is 3.
//! let ball = genball(6)?;
//! let far = Pose::from_translation([5.0, 0.0, 0.0])?;
//! let r = distance_dqp3(&ball, &Pose::identity(), &ball, &far, &Dqp3Settings::default())?;
//! assert_eq!(r.status, Dqp3Status::Optimal);
//! assert!((r.distance() - 3.0).abs() < 1e-12 && r.lower <= r.upper);
//!
//! // Tracking: the warm state follows the objects' poses.
//! let mut tracker = Dqp3Tracker::new(&ball, &ball);
//! for k in 0..10 {
//!     let pose_b = Pose::from_translation([5.0 - 0.1 * k as f64, 0.0, 0.0])?;
//!     let step = tracker.step(&Pose::identity(), &pose_b);
//!     assert!((step.distance() - (3.0 - 0.1 * k as f64)).abs() < 1e-12);
//! }
//! # Ok::<(), proxima_geom::GeomError>(())
//! ```
//!
//! # Edge cases
//! Intersecting objects end with x1 = x2, a common point ([`Dqp3Outcome::Intersecting`]); no
//! penetration depth is computed. Bad shapes are rejected by the [`FacetPolyhedron`]
//! constructors; bad poses by [`Pose`].

mod delta;
mod hull_facets;
mod objects;
mod polyhedron;
mod solver;

use nalgebra::{Point3, Vector3};

pub use hull_facets::FACET_MERGE_TOLERANCE;
pub(crate) use hull_facets::{HullFacets, TriangleFrame};
pub use objects::{ellipsoid_model, genball, genball_normals};
pub use polyhedron::{CLIP_EXTENT, FacetPolyhedron};

use crate::error::GeomError;
use crate::pose::Pose;
use crate::shape::Shape;

/// Settings of DQP3.
#[derive(Debug, Clone, PartialEq)]
pub struct Dqp3Settings {
    /// Pass limit; `None` (default) means max(100, (m1 + m2)/4) (spec §4.8 item 2).
    pub max_passes: Option<usize>,
    /// The step is zero when |δ| < this × (1 + D). Default 1e-10 (spec §4.8 fix 3).
    pub zero_step: f64,
    /// A constraint is released when λ < −this × D. Default 1e-9.
    pub release_tolerance: f64,
    /// Restrict the ratio test of an object with an active facet to that facet's neighbours
    /// (exact, see [`FacetPolyhedron`]). Default true; false gives the thesis's full O(N) scans.
    pub use_adjacency: bool,
}

impl Default for Dqp3Settings {
    fn default() -> Self {
        Self { max_passes: None, zero_step: 1e-10, release_tolerance: 1e-9, use_adjacency: true }
    }
}

impl Dqp3Settings {
    /// Checks the fields (tolerances finite in (0, 1), a positive pass limit).
    pub fn validate(&self) -> Result<(), GeomError> {
        for (field, v) in [("zero_step", self.zero_step), ("release_tolerance", self.release_tolerance)] {
            if !(v.is_finite() && v > 0.0 && v < 1.0) {
                return Err(GeomError::InvalidSettings { field, reason: "must be finite and in (0, 1)" });
            }
        }
        if self.max_passes == Some(0) {
            return Err(GeomError::InvalidSettings { field: "max_passes", reason: "must be positive" });
        }
        Ok(())
    }
}

/// How a DQP3 run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dqp3Status {
    /// All multipliers non-negative at a zero step: the answer.
    Optimal,
    /// The pass limit was reached (the best state is returned, but it is not an answer).
    IterationLimit,
    /// The distance would have increased without a new constraint (spec's "retreat").
    Retreat,
    /// A non-finite iterate.
    NumericalFailure,
}

impl Dqp3Status {
    /// Lowercase name: `"optimal"`, `"iteration_limit"`, `"retreat"` or `"numerical_failure"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dqp3Status::Optimal => "optimal",
            Dqp3Status::IterationLimit => "iteration_limit",
            Dqp3Status::Retreat => "retreat",
            Dqp3Status::NumericalFailure => "numerical_failure",
        }
    }
}

/// The geometric outcome.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Dqp3Outcome {
    /// Disjoint objects.
    Separated {
        /// |x2 − x1|.
        distance: f64,
        /// Witness on object a (world).
        point_a: Point3<f64>,
        /// Witness on object b (world).
        point_b: Point3<f64>,
        /// Unit vector from a to b.
        normal: Vector3<f64>,
    },
    /// Touching or overlapping (distance ≤ 1e-12 × scale): a common point.
    Intersecting {
        /// A point of both objects (world).
        point: Point3<f64>,
    },
}

/// The answer of DQP3.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dqp3Result {
    /// Distance, witnesses / common point.
    pub outcome: Dqp3Outcome,
    /// How the run ended (only [`Dqp3Status::Optimal`] is an answer).
    pub status: Dqp3Status,
    /// Certified lower bound on the distance.
    pub lower: f64,
    /// Upper bound (witness distance).
    pub upper: f64,
    /// Passes (delta + lambda or alpha) taken.
    pub passes: usize,
    /// Alpha steps taken.
    pub alpha_steps: usize,
}

impl Dqp3Result {
    /// The distance (0 when intersecting).
    pub fn distance(&self) -> f64 {
        match self.outcome {
            Dqp3Outcome::Separated { distance, .. } => distance,
            Dqp3Outcome::Intersecting { .. } => 0.0,
        }
    }
    /// The witness points (equal when intersecting).
    pub fn witnesses(&self) -> (Point3<f64>, Point3<f64>) {
        match self.outcome {
            Dqp3Outcome::Separated { point_a, point_b, .. } => (point_a, point_b),
            Dqp3Outcome::Intersecting { point } => (point, point),
        }
    }
}

/// Cold DQP3 distance (start at the centroids; adjacency-restricted ratio tests once a point
/// has an active facet, when [`Dqp3Settings::use_adjacency`] is on).
pub fn distance_dqp3(
    a: &FacetPolyhedron,
    pose_a: &Pose,
    b: &FacetPolyhedron,
    pose_b: &Pose,
    settings: &Dqp3Settings,
) -> Result<Dqp3Result, GeomError> {
    settings.validate()?;
    let mut warm = cold_state(a, b);
    Ok(solver::run([a, b], [pose_a, pose_b], &mut warm, settings, settings.use_adjacency))
}

/// The facet form of a shape in its local frame: a cuboid by its six planes, a half-space
/// polyhedron by its half-spaces, a vertex polytope by the grouped facets of its exact hull.
/// Other shapes: [`GeomError::Degenerate`]. Build it once per shape and reuse it. The query
/// API never trusts a facet form for a certificate (see [`crate::FacetShape`]).
pub fn facet_form(s: &Shape) -> Result<FacetPolyhedron, GeomError> {
    match s {
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            FacetPolyhedron::from_outward(&[
                ([1.0, 0.0, 0.0], h.x),
                ([-1.0, 0.0, 0.0], h.x),
                ([0.0, 1.0, 0.0], h.y),
                ([0.0, -1.0, 0.0], h.y),
                ([0.0, 0.0, 1.0], h.z),
                ([0.0, 0.0, -1.0], h.z),
            ])
        }
        Shape::Polyhedron(p) => FacetPolyhedron::from_polyhedron(p),
        Shape::ConvexPolytope(p) => {
            let v: Vec<[f64; 3]> = p.vertices().iter().map(|q| [q.x, q.y, q.z]).collect();
            FacetPolyhedron::from_vertices(&v)
        }
        _ => {
            Err(GeomError::Degenerate { what: "DQP3 needs a box, convex polytope or half-space polyhedron" })
        }
    }
}

/// The active facets of both objects after a run (insertion order) and the final points in
/// the object frames (the world witnesses are these placed by the poses).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ActiveSets {
    ids: [[u32; 3]; 2],
    count: [usize; 2],
    x: [Vector3<f64>; 2],
}

impl ActiveSets {
    fn of_state(w: &solver::Warm) -> Self {
        Self { ids: w.act, count: w.count, x: w.x }
    }
    /// The active facets of object `i` (0 = a, 1 = b).
    pub(crate) fn of(&self, i: usize) -> &[u32] {
        &self.ids[i][..self.count[i]]
    }
    /// Object `i`'s final point in its own frame.
    pub(crate) fn local_point(&self, i: usize) -> Point3<f64> {
        Point3::from(self.x[i])
    }
}

/// [`distance_dqp3`] with the final active sets.
pub(crate) fn distance_dqp3_active(
    a: &FacetPolyhedron,
    pose_a: &Pose,
    b: &FacetPolyhedron,
    pose_b: &Pose,
    settings: &Dqp3Settings,
) -> Result<(Dqp3Result, ActiveSets), GeomError> {
    settings.validate()?;
    let mut warm = cold_state(a, b);
    let r = solver::run([a, b], [pose_a, pose_b], &mut warm, settings, settings.use_adjacency);
    Ok((r, ActiveSets::of_state(&warm)))
}

fn cold_state(a: &FacetPolyhedron, b: &FacetPolyhedron) -> solver::Warm {
    // The centroids are strictly interior (checked by the constructors): no active facet.
    solver::Warm { x: [a.centroid, b.centroid], act: [[0; 3]; 2], count: [0, 0], ..Default::default() }
}

/// Warm-started DQP3 along a trajectory: keeps the object-frame points and active sets
/// between calls and takes each object's pose per step (no facet data re-transformed).
#[derive(Debug, Clone)]
pub struct Dqp3Tracker<'p> {
    a: &'p FacetPolyhedron,
    b: &'p FacetPolyhedron,
    warm: solver::Warm,
    settings: Dqp3Settings,
    /// The common point (world frame) of the last step when the objects overlapped: if it is
    /// still inside both at the next poses, that step is answered by two containment checks.
    last_common: Option<Point3<f64>>,
}

impl<'p> Dqp3Tracker<'p> {
    /// A tracker with default settings, starting cold at the centroids.
    pub fn new(a: &'p FacetPolyhedron, b: &'p FacetPolyhedron) -> Self {
        Self { a, b, warm: cold_state(a, b), settings: Dqp3Settings::default(), last_common: None }
    }
    /// A tracker with the given settings.
    pub fn with_settings(
        a: &'p FacetPolyhedron,
        b: &'p FacetPolyhedron,
        settings: Dqp3Settings,
    ) -> Result<Self, GeomError> {
        settings.validate()?;
        Ok(Self { a, b, warm: cold_state(a, b), settings, last_common: None })
    }
    /// Forget the warm state (the next step starts at the centroids).
    pub fn reset(&mut self) {
        self.warm = cold_state(self.a, self.b);
        self.last_common = None;
    }
    /// Distance at the given poses, warm-started from the previous step. A run that does
    /// not end `Optimal` resets the state so the next step starts cold.
    ///
    /// Overlapping objects stay overlapping over most steps of a trajectory: when the previous
    /// step's common point is still inside both objects (every facet slack ≥ 0, exactly as
    /// computed), the step returns it at once — distance 0 with a common point, a complete
    /// answer — and keeps the solver state for the next separated step.
    pub fn step(&mut self, pose_a: &Pose, pose_b: &Pose) -> Dqp3Result {
        if let Some(p) = self.last_common {
            let inside = |f: &FacetPolyhedron, pose: &Pose| {
                let x = pose.inverse_transform_point(&p);
                (0..f.num_facets()).all(|j| f.normal(j).dot(&x.coords) - f.b[j] >= 0.0)
            };
            if inside(self.a, pose_a) && inside(self.b, pose_b) {
                return Dqp3Result {
                    outcome: Dqp3Outcome::Intersecting { point: p },
                    status: Dqp3Status::Optimal,
                    lower: 0.0,
                    upper: 0.0,
                    passes: 0,
                    alpha_steps: 0,
                };
            }
        }
        let res = solver::run(
            [self.a, self.b],
            [pose_a, pose_b],
            &mut self.warm,
            &self.settings,
            self.settings.use_adjacency,
        );
        if res.status != Dqp3Status::Optimal {
            self.reset();
        }
        self.last_common = match res.outcome {
            Dqp3Outcome::Intersecting { point } if res.status == Dqp3Status::Optimal => Some(point),
            _ => None,
        };
        res
    }
    /// Whether the next step starts cold (at the centroids).
    pub(crate) fn is_cold(&self) -> bool {
        self.warm.count == [0, 0] && self.warm.x == [self.a.centroid, self.b.centroid]
    }

    /// Starts the next step from the world points `xa` on a and `xb` on b (e.g. another
    /// algorithm's witnesses at these poses) with the facets active there.
    pub(crate) fn seed(&mut self, pose_a: &Pose, pose_b: &Pose, xa: &Point3<f64>, xb: &Point3<f64>) {
        let (la, lb) = (pose_a.inverse_transform_point(xa).coords, pose_b.inverse_transform_point(xb).coords);
        let (act_a, na) = solver::detect(self.a, &la);
        let (act_b, nb) = solver::detect(self.b, &lb);
        self.warm = solver::Warm { x: [la, lb], act: [act_a, act_b], count: [na, nb], ..Default::default() };
        self.last_common = None;
    }

    /// The active sets and object-frame points after the last step.
    pub(crate) fn state(&self) -> ActiveSets {
        ActiveSets::of_state(&self.warm)
    }

    /// The active facet indices of (a, b) after the last step.
    pub fn active_sets(&self) -> (&[u32], &[u32]) {
        (&self.warm.act[0][..self.warm.count[0]], &self.warm.act[1][..self.warm.count[1]])
    }
}
