//! DQP3 on the user's shapes: [`FacetShape`] (a shape with its facet form, built once) and
//! [`Dqp3ShapeTracker`] (warm-started DQP3 along a trajectory whose every step is certified
//! against the shapes, not the facet forms; see `distance/dqp3.rs` for how).
//!
//! A step whose DQP3 answer is refused (it does not end `Optimal`, a witness cannot be placed
//! on its shape, or the bracket for the shapes is wider than `gap_tolerance × scale`) is
//! answered by warm-started GJK on the shapes instead, the DQP3 state is reset, and
//! [`Dqp3ShapeTracker::refused_steps`] counts it. Steps where DQP3 finds the facet forms in
//! contact are answered by GJK too (it proves contact on the shapes themselves), and so are the
//! following steps until GJK finds the shapes apart again. The first step after a reset is
//! GJK's as well (cold DQP3 starts at the centroids and scans every facet); its witnesses seed
//! DQP3's points and active facets.

use super::distance::dqp3::{Side, Verdict, certify, distance_sides, recompute};
use super::{DistanceResult, Proximity, QuerySettings};
use crate::dqp3::{Dqp3Tracker, FacetPolyhedron, facet_form};
use crate::error::GeomError;
use crate::gjk::GjkCache;
use crate::pose::Pose;
use crate::shape::Shape;

/// A shape prepared for DQP3: the user's shape and its facet form
/// ([`facet_form`](crate::dqp3::facet_form)), built once. DQP3's answers on the facet forms
/// are checked against the shape itself.
#[derive(Debug, Clone)]
pub struct FacetShape {
    shape: Shape,
    facets: FacetPolyhedron,
}

impl FacetShape {
    /// Builds the facet form of a cuboid, a convex polytope (its exact hull, verified) or a
    /// half-space polyhedron. Errors: [`GeomError::Degenerate`] for other shapes, flat
    /// polytopes or a facet form that fails its verification.
    pub fn new(shape: Shape) -> Result<Self, GeomError> {
        let facets = facet_form(&shape)?;
        Ok(Self { shape, facets })
    }
    /// A shape with a facet form built elsewhere (e.g. kept from an earlier run). The facet
    /// form is not checked here, and it need not be right: every answer is certified against
    /// `shape`, and a wrong facet form only makes DQP3's answers refused (recomputed by GJK).
    /// Errors: [`GeomError::Degenerate`] when `shape` has no facet form (not a cuboid, convex
    /// polytope or half-space polyhedron).
    pub fn with_facets(shape: Shape, facets: FacetPolyhedron) -> Result<Self, GeomError> {
        if !matches!(shape, Shape::Cuboid(_) | Shape::ConvexPolytope(_) | Shape::Polyhedron(_)) {
            return Err(GeomError::Degenerate {
                what: "DQP3 needs a box, convex polytope or half-space polyhedron",
            });
        }
        Ok(Self { shape, facets })
    }
    /// The shape as given.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
    /// The facet form DQP3 runs on.
    pub fn facets(&self) -> &FacetPolyhedron {
        &self.facets
    }
}

/// Cold DQP3 distance between two [`FacetShape`]s (facet forms built beforehand), certified
/// against the shapes, or GJK's answer when DQP3's is refused (see [`Dqp3ShapeTracker`]).
pub fn distance_facet_shapes(
    a: &FacetShape,
    pose_a: &Pose,
    b: &FacetShape,
    pose_b: &Pose,
    settings: &QuerySettings,
) -> Result<DistanceResult, GeomError> {
    settings.validate()?;
    let sa = Side { shape: &a.shape, facets: &a.facets, pose: pose_a };
    let sb = Side { shape: &b.shape, facets: &b.facets, pose: pose_b };
    distance_sides(sa, sb, settings)
}

/// Warm-started DQP3 between two [`FacetShape`]s, every step certified against the shapes.
///
/// ```
/// use proxima_geom::shape::ConvexPolytope;
/// use proxima_geom::{Algorithm, Dqp3ShapeTracker, FacetShape, Pose, QuerySettings, Shape};
///
/// let cube: Vec<[f64; 3]> =
///     (0..8).map(|i| [(i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64]).collect();
/// let a = FacetShape::new(Shape::ConvexPolytope(ConvexPolytope::hull_of(&cube)?))?;
/// let mut tracker = Dqp3ShapeTracker::new(&a, &a, &QuerySettings::default())?;
/// for k in 0..5 {
///     let pb = Pose::from_translation([3.0 - 0.2 * k as f64, 0.0, 0.0])?;
///     let r = tracker.step(&Pose::identity(), &pb)?;
///     // The cold first step is GJK's (it seeds DQP3's active sets); the rest are DQP3's.
///     assert_eq!(r.algorithm, if k == 0 { Algorithm::Gjk } else { Algorithm::Dqp3 });
///     assert!((r.distance() - (2.0 - 0.2 * k as f64)).abs() < 1e-12);
///     assert!(r.certificate.lower <= r.distance() && r.distance() <= r.certificate.upper);
/// }
/// # Ok::<(), proxima_geom::GeomError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Dqp3ShapeTracker<'s> {
    a: &'s FacetShape,
    b: &'s FacetShape,
    dqp3: Dqp3Tracker<'s>,
    gjk: GjkCache,
    settings: QuerySettings,
    refused: usize,
    /// The last step was contact, proven by GJK: the next one asks GJK first.
    in_contact: bool,
}

impl<'s> Dqp3ShapeTracker<'s> {
    /// A tracker for `a` (first) and `b`, starting cold. `settings`: the certification
    /// (`gap_tolerance`, `touching_tolerance`) and the GJK settings of refused steps.
    pub fn new(a: &'s FacetShape, b: &'s FacetShape, settings: &QuerySettings) -> Result<Self, GeomError> {
        settings.validate()?;
        Ok(Self {
            a,
            b,
            dqp3: Dqp3Tracker::new(&a.facets, &b.facets),
            gjk: GjkCache::new(),
            settings: settings.clone(),
            refused: 0,
            in_contact: false,
        })
    }

    /// Forget the warm state (start of a new trajectory).
    pub fn reset(&mut self) {
        self.dqp3.reset();
        self.gjk.reset();
        self.in_contact = false;
    }

    /// Steps whose DQP3 answer was refused and recomputed by GJK since the tracker was built.
    pub fn refused_steps(&self) -> usize {
        self.refused
    }

    /// The distance at the given poses: DQP3 warm-started from the previous step and certified
    /// against the shapes ([`Algorithm::Dqp3`](crate::Algorithm::Dqp3)), or GJK when that
    /// answer is refused or the shapes are in contact ([`Algorithm::Gjk`](crate::Algorithm::Gjk)).
    /// Errors: those of GJK (a run that proves nothing).
    pub fn step(&mut self, pose_a: &Pose, pose_b: &Pose) -> Result<DistanceResult, GeomError> {
        // A cold start (and a step after contact) is GJK's: its cold run on the shapes costs a
        // fraction of DQP3's from the centroids (full ratio-test scans), and its witnesses seed
        // DQP3's active sets for the next step.
        if self.in_contact || self.dqp3.is_cold() {
            let r = self.gjk_step(pose_a, pose_b)?;
            self.in_contact = !matches!(r.proximity, Proximity::Separated { .. });
            if let (false, Some((wa, wb))) = (self.in_contact, r.witnesses()) {
                self.dqp3.seed(pose_a, pose_b, &wa, &wb);
            }
            return Ok(r);
        }
        let r = self.dqp3.step(pose_a, pose_b);
        let state = self.dqp3.state();
        let a = Side { shape: &self.a.shape, facets: &self.a.facets, pose: pose_a };
        let b = Side { shape: &self.b.shape, facets: &self.b.facets, pose: pose_b };
        match certify(a, b, &r, &state, &self.settings) {
            Verdict::Certified(res) => Ok(res),
            Verdict::Contact => {
                let res = self.gjk_step(pose_a, pose_b)?;
                self.in_contact = !matches!(res.proximity, Proximity::Separated { .. });
                Ok(res)
            }
            Verdict::Refused => {
                self.refused += 1;
                self.dqp3.reset();
                self.gjk_step(pose_a, pose_b)
            }
        }
    }

    fn gjk_step(&mut self, pose_a: &Pose, pose_b: &Pose) -> Result<DistanceResult, GeomError> {
        recompute(&self.a.shape, pose_a, &self.b.shape, pose_b, &self.settings, Some(&mut self.gjk))
    }
}
