//! Ellipsoid distances: point–ellipsoid (any dimension), ellipsoid–ellipsoid and
//! polytope–ellipsoid, with witness points and a certificate `[lower, upper]`.
//!
//! # The maths
//!
//! An ellipsoid E = { c + R·D·u : |u| ≤ 1 } (D = diag(radii), R the pose rotation, c its
//! centre) has the support function h(n) = n·c + |D Rᵀ n| and, for a unit n, the support
//! point s(n) = c + S n/|D Rᵀ n| with S = R D² Rᵀ. For two ellipsoids A, B and a unit
//! direction n, weak duality gives the lower bound
//!
//! ```text
//! g(n) = n·(c_b − c_a) − h_a(n) + n·c_a − h_b(−n) − n·c_b = n·(c_b − c_a) − |D_a R_aᵀn| − |D_b R_bᵀn|
//! ```
//!
//! ≤ dist(A, B), and the maximum of g over unit n *equals* the distance when A and B are
//! disjoint (the support-function dual is exact for ellipsoids, spec §9). The witnesses
//! x_a = s_a(n), x_b = s_b(−n) give the upper bound |x_b − x_a|; both bounds meet at the
//! optimum. Every method here reports this certificate, evaluated at its final direction.
//!
//! # Methods ([`EllipsoidMethod`])
//!
//! | method | what | cost near contact |
//! |---|---|---|
//! | [`DualNewton`](EllipsoidMethod::DualNewton) (ours, default) | Riemannian Newton on the dual over the unit sphere, duality-gap stop; a scaled-contact phase decides intersection first when the centre direction does not separate | constant: the dual's curvature on the sphere does not vanish at contact |
//! | [`AlternatingProjection`](EllipsoidMethod::AlternatingProjection) | the thesis baseline (§3): project back and forth | grows like 1/gap |
//! | [`PolyhedralApproximation`](EllipsoidMethod::PolyhedralApproximation) | circumscribed `genball` models and a polytope QP (§4) | constant, but only a model answer (lower bound) |
//! | [`IterativeRefinement`](EllipsoidMethod::IterativeRefinement) | the thesis's facet refinement (§5) with a polytope QP | roughly constant, stalls near 1e-7 |
//!
//! # Edge cases
//!
//! * Coincident centres, or any intersecting pair: `Proximity::Intersecting` with a common
//!   point and certificate `[0, ε]` where ε is the witnesses' round-off gap.
//! * Tiny radii (1e-12) are valid ellipsoids (flat discs/needles); a radius of 0 is rejected
//!   by [`Ellipsoid::new`](crate::shape::Ellipsoid::new). Non-finite poses are rejected by
//!   [`Pose`].
//! * A method that does not reach its tolerance reports [`EllipsoidStatus::MaxIterations`] or
//!   [`EllipsoidStatus::Stagnated`]; its certificate still brackets the distance.
//!
//! # Submodules
//!
//! * [`point_ellipsoid`]: n-dimensional closest point (safeguarded Newton on the secular
//!   equation, all cases).
//! * [`pptes`](mod@pptes): the thesis's point iteration with its ratio accelerator.
//! * [`dual_newton`](mod@dual_newton), [`alternating`], [`polyhedral`], [`refinement`]: the four
//!   ellipsoid–ellipsoid methods.
//! * [`polyhedron_ellipsoid`]: polytope (vertices) or polyhedron (half-spaces) vs ellipsoid.
//! * [`oracle`]: the certificate and an independent double-double oracle.

use nalgebra::{Matrix3, Point3, Vector3};

use crate::error::GeomError;
use crate::pose::Pose;
use crate::query::{Certificate, Proximity};
use crate::shape::Ellipsoid;

pub mod alternating;
pub mod dual_newton;
pub mod oracle;
mod packed;
pub mod point_ellipsoid;
pub mod polyhedral;
pub mod polyhedron_ellipsoid;
pub mod pptes;
pub mod refinement;
pub(crate) mod segment_ellipsoid;

pub use alternating::{AlternatingForm, AlternatingSettings, Projector, alternating_projection};
pub use dual_newton::dual_newton;
use oracle::certify;
pub use oracle::{OracleResult, certify_ellipsoids, oracle_distance};
pub use point_ellipsoid::{
    PointEllipsoidDistance, PointEllipsoidInfo, PointEllipsoidNd, PointLocation, closest_point_ellipsoid_nd,
    distance_point_ellipsoid, distance_point_ellipsoid_nd,
};
pub use polyhedral::{genball, polyhedral_approximation};
pub use polyhedron_ellipsoid::{distance_polyhedron_ellipsoid, distance_polytope_ellipsoid};
pub use pptes::{PptesResult, PptesSettings, pptes};
pub use refinement::{FacetRule, RefinementSettings, iterative_refinement};

/// Which ellipsoid–ellipsoid method to run.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum EllipsoidMethod {
    /// Ours: Newton on the support-function dual (default).
    DualNewton,
    /// The thesis's alternating point projection (baseline).
    AlternatingProjection(AlternatingSettings),
    /// Circumscribed polyhedral models of the given `genball` order, solved as a polytope QP.
    PolyhedralApproximation {
        /// `genball` order (≥ 2); 15 gives 288 facets per ellipsoid.
        order: usize,
    },
    /// The thesis's iterative polyhedral refinement.
    IterativeRefinement(RefinementSettings),
}

impl EllipsoidMethod {
    /// Short name (`"dual_newton"`, `"alternating_projection"`, ...).
    pub fn as_str(&self) -> &'static str {
        match self {
            EllipsoidMethod::DualNewton => "dual_newton",
            EllipsoidMethod::AlternatingProjection(_) => "alternating_projection",
            EllipsoidMethod::PolyhedralApproximation { .. } => "polyhedral_approximation",
            EllipsoidMethod::IterativeRefinement(_) => "iterative_refinement",
        }
    }
}

/// Settings of [`distance_ellipsoid_ellipsoid`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EllipsoidSettings {
    /// The method. Default [`EllipsoidMethod::DualNewton`].
    pub method: EllipsoidMethod,
    /// Convergence: certificate gap `upper − lower ≤ tolerance × scale`, scale =
    /// max(1, |c_b − c_a|, largest radius). Default 1e-12.
    pub tolerance: f64,
    /// Iteration cap of the dual Newton method (the other methods carry their own caps).
    /// Default 60.
    pub max_iterations: usize,
}

impl Default for EllipsoidSettings {
    fn default() -> Self {
        Self { method: EllipsoidMethod::DualNewton, tolerance: 1e-12, max_iterations: 60 }
    }
}

impl EllipsoidSettings {
    /// Checks the fields (and those of the method).
    pub fn validate(&self) -> Result<(), GeomError> {
        if !self.tolerance.is_finite() || self.tolerance <= 0.0 {
            return Err(GeomError::InvalidSettings { field: "tolerance", reason: "must be finite and > 0" });
        }
        if self.max_iterations == 0 {
            return Err(GeomError::InvalidSettings { field: "max_iterations", reason: "must be ≥ 1" });
        }
        match &self.method {
            EllipsoidMethod::DualNewton => Ok(()),
            EllipsoidMethod::AlternatingProjection(s) => s.validate(),
            EllipsoidMethod::PolyhedralApproximation { order } => {
                if *order < 2 || *order > 200 {
                    Err(GeomError::InvalidSettings {
                        field: "order",
                        reason: "genball order must be in 2..=200",
                    })
                } else {
                    Ok(())
                }
            }
            EllipsoidMethod::IterativeRefinement(s) => s.validate(),
        }
    }
}

/// How a method ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EllipsoidStatus {
    /// The certificate gap is within the tolerance (or intersection was proven by a common
    /// point).
    Converged,
    /// The iteration cap was reached first.
    MaxIterations,
    /// No further progress was possible in f64 before the tolerance was met.
    Stagnated,
    /// A polyhedral-model answer: the bracket is valid but no convergence is claimed.
    ModelOnly,
}

/// The answer of an ellipsoid distance query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EllipsoidDistance {
    /// Separated (distance, witnesses, unit normal from A to B), touching or intersecting
    /// (with a common point).
    pub proximity: Proximity,
    /// The proven bracket `[lower, upper]` of the distance.
    pub certificate: Certificate,
    /// Iterations (outer iterations of the method; Newton steps for ours).
    pub iterations: usize,
    /// How the method ended.
    pub status: EllipsoidStatus,
}

impl EllipsoidDistance {
    /// The distance (0 when touching or intersecting).
    pub fn distance(&self) -> f64 {
        match self.proximity {
            Proximity::Separated { distance, .. } => distance,
            _ => 0.0,
        }
    }
    /// Whether the shapes share a point.
    pub fn is_intersecting(&self) -> bool {
        !matches!(self.proximity, Proximity::Separated { .. })
    }
    /// Witness points (on A, on B); the common point twice when intersecting.
    pub fn witnesses(&self) -> Option<(Point3<f64>, Point3<f64>)> {
        match self.proximity {
            Proximity::Separated { point_a, point_b, .. } => Some((point_a, point_b)),
            Proximity::Touching { point } => Some((point, point)),
            Proximity::Intersecting { point: Some(p), .. } => Some((p, p)),
            Proximity::Intersecting { point: None, .. } => None,
        }
    }
}

/// An ellipsoid placed in the world: centre, rotation, radii and S = R D² Rᵀ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Placed {
    pub center: Vector3<f64>,
    pub rotation: Matrix3<f64>,
    pub radii: Vector3<f64>,
    pub shape: Matrix3<f64>,
}

impl Placed {
    pub fn new(e: &Ellipsoid, pose: &Pose) -> Self {
        let r = *pose.rotation();
        let d2 = e.radii().component_mul(&e.radii());
        // S = Σₖ dₖ² rₖ rₖᵀ over the columns rₖ of R: the six entries on and above the
        // diagonal, mirrored (S is symmetric; 18 products against the 54 of two general 3×3
        // products, on every ellipsoid query).
        let rd = Matrix3::from_fn(|i, k| r[(i, k)] * d2[k]);
        let entry =
            |i: usize, j: usize| rd[(i, 0)] * r[(j, 0)] + rd[(i, 1)] * r[(j, 1)] + rd[(i, 2)] * r[(j, 2)];
        let (s01, s02, s12) = (entry(0, 1), entry(0, 2), entry(1, 2));
        let shape = Matrix3::new(entry(0, 0), s01, s02, s01, entry(1, 1), s12, s02, s12, entry(2, 2));
        Self { center: *pose.translation(), rotation: r, radii: e.radii(), shape }
    }
    /// |D Rᵀ n| (the support function without the centre term).
    #[inline]
    pub fn support_radius(&self, n: &Vector3<f64>) -> f64 {
        self.support_radius_squared(n).sqrt()
    }
    /// |D Rᵀ n|², whose root is [`Self::support_radius`] (`norm` is the root of
    /// `norm_squared`).
    #[inline]
    pub(crate) fn support_radius_squared(&self, n: &Vector3<f64>) -> f64 {
        (self.rotation.tr_mul(n)).component_mul(&self.radii).norm_squared()
    }
    /// The support point in direction n (n ≠ 0).
    #[inline]
    pub fn support_point(&self, n: &Vector3<f64>) -> Vector3<f64> {
        let sn = self.shape * n;
        let r = n.dot(&sn).max(0.0).sqrt();
        if r > 0.0 { self.center + sn / r } else { self.center }
    }
    /// Closest point of the *solid* ellipsoid to `p` (p itself when inside), world frame.
    pub fn project_solid(&self, p: &Vector3<f64>) -> Vector3<f64> {
        let local = self.rotation.tr_mul(&(p - self.center));
        let (x, info) = point_ellipsoid::project3(
            &[self.radii.x, self.radii.y, self.radii.z],
            &[local.x, local.y, local.z],
        );
        if info.location != PointLocation::Outside {
            return *p;
        }
        self.center + self.rotation * Vector3::new(x[0], x[1], x[2])
    }
    /// Closest *surface* point to `p`, world frame.
    pub fn project_surface(&self, p: &Vector3<f64>) -> Vector3<f64> {
        let local = self.rotation.tr_mul(&(p - self.center));
        let (x, _) = point_ellipsoid::project3(
            &[self.radii.x, self.radii.y, self.radii.z],
            &[local.x, local.y, local.z],
        );
        self.center + self.rotation * Vector3::new(x[0], x[1], x[2])
    }
    /// Outward unit normal at a surface point x (world frame).
    pub fn normal_at(&self, x: &Vector3<f64>) -> Vector3<f64> {
        let local = self.rotation.tr_mul(&(x - self.center));
        let g = local.component_div(&self.radii.component_mul(&self.radii));
        let n = self.rotation * g;
        let len = n.norm();
        if len > 0.0 { n / len } else { Vector3::x() }
    }
    /// (x − c)ᵀ S⁻¹ (x − c): ≤ 1 inside.
    pub fn level(&self, x: &Vector3<f64>) -> f64 {
        let local = self.rotation.tr_mul(&(x - self.center));
        local.component_div(&self.radii).norm_squared()
    }
    pub fn max_radius(&self) -> f64 {
        self.radii.max()
    }
}

/// The scale of a pair: max(1, |c_b − c_a|, largest radius).
pub(crate) fn pair_scale(a: &Placed, b: &Placed) -> f64 {
    1f64.max((b.center - a.center).norm()).max(a.max_radius()).max(b.max_radius())
}

/// Builds the answer from witnesses and a direction: separated when the direction proves a
/// positive lower bound, otherwise intersecting at the midpoint of the witnesses.
pub(crate) fn finish(
    a: &Placed,
    b: &Placed,
    xa: Vector3<f64>,
    xb: Vector3<f64>,
    n: Option<Vector3<f64>>,
    iterations: usize,
    status: EllipsoidStatus,
) -> EllipsoidDistance {
    finish_at(a, b, xa, xb, n, iterations, status, (b.center - a.center).norm())
}

/// [`finish`] with the centres' distance |c_b − c_a| (computed as there) given by a caller
/// that has it already.
#[allow(clippy::too_many_arguments)]
pub(crate) fn finish_at(
    a: &Placed,
    b: &Placed,
    xa: Vector3<f64>,
    xb: Vector3<f64>,
    n: Option<Vector3<f64>>,
    iterations: usize,
    status: EllipsoidStatus,
    centre_distance: f64,
) -> EllipsoidDistance {
    let certificate = oracle::certify_at(a, b, &xa, &xb, n.as_ref(), centre_distance);
    let diff = xb - xa;
    // |x_b − x_a| as `certify` computed it for the upper end (the same operations).
    let distance = certificate.upper;
    let proximity = if certificate.lower > 0.0 {
        Proximity::Separated {
            distance,
            point_a: Point3::from(xa),
            point_b: Point3::from(xb),
            normal: diff * (1.0 / distance),
        }
    } else {
        // A common point without a proof of boundary-only contact: `Intersecting` (the
        // query module's convention).
        Proximity::Intersecting { point: Some(Point3::from((xa + xb) * 0.5)), depth: None }
    };
    EllipsoidDistance { proximity, certificate, iterations, status }
}

/// Distance between two ellipsoids with witnesses and a certificate, by the method of
/// `settings` (default: ours, [`EllipsoidMethod::DualNewton`]).
///
/// ```
/// use proxima_geom::ellipsoid::{EllipsoidSettings, distance_ellipsoid_ellipsoid};
/// use proxima_geom::shape::Ellipsoid;
/// use proxima_geom::Pose;
/// // The standard crossed test (spec §3.3).
/// let a = Ellipsoid::new([1.0, 2.0, 5.0])?;
/// let b = Ellipsoid::new([5.0, 2.0, 1.0])?;
/// let pb = Pose::from_translation([4.0, 4.0, 4.0])?;
/// let r = distance_ellipsoid_ellipsoid(&a, &Pose::identity(), &b, &pb, &EllipsoidSettings::default())?;
/// assert!((r.distance() - 1.295494819938741).abs() < 1e-12);
/// assert!(r.certificate.lower <= 1.295494819938741 && 1.295494819938741 <= r.certificate.upper);
/// # Ok::<(), proxima_geom::GeomError>(())
/// ```
pub fn distance_ellipsoid_ellipsoid(
    a: &Ellipsoid,
    pa: &Pose,
    b: &Ellipsoid,
    pb: &Pose,
    settings: &EllipsoidSettings,
) -> Result<EllipsoidDistance, GeomError> {
    settings.validate()?;
    let (ea, eb) = (Placed::new(a, pa), Placed::new(b, pb));
    Ok(match &settings.method {
        EllipsoidMethod::DualNewton => {
            dual_newton::run(&ea, &eb, settings.tolerance, settings.max_iterations, None)
        }
        EllipsoidMethod::AlternatingProjection(s) => alternating::run(&ea, &eb, s, settings.tolerance, None),
        EllipsoidMethod::PolyhedralApproximation { order } => polyhedral::run(&ea, &eb, *order)?,
        EllipsoidMethod::IterativeRefinement(s) => refinement::run(&ea, &eb, s, settings.tolerance, None)?,
    })
}
