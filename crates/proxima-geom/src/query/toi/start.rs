//! The start of a time-of-impact search: the distance query at t₀, answered on the spot when
//! it proves contact.
//!
//! # Maths
//!
//! The time of impact is the first t with d(t) ≤ margin. A distance answer at t₀ that proves
//! contact (GJK's simplex holds the origin, or a closed form found an overlap or a touching
//! contact: anything but `Separated`) gives d(t₀) = 0 ≤ margin whatever the margin and the
//! contact tolerance, so the outcome is an initial contact at t₀, and its signed distance
//! (penetration depth with its bracket) depends on the two poses at t₀ only. Nothing of the
//! motion enters: the motion bounds of the search (each shape's reach from its rotation centre
//! and axis, the isotropic rate, the round-off allowance and the contact tolerance derived from
//! them, `advance.rs`) are computed only after this query, and only when it finds the shapes
//! apart. The answer is the one the search gave when it computed those bounds first (same
//! query, same settings, same warm cache); an overlapping start no longer pays for the reach
//! of a hull's every vertex.
//!
//! # Edge cases
//!
//! * Motion bounds that overflow f64 ([`GeomError::NonFinite`]) are reported for a search
//!   that has to step; a pair already in contact at t₀ has its answer without them (they
//!   would not enter it).
//! * Under `Algorithm::Auto` (not in exact arithmetic), a point or sphere against a polytope
//!   runs GJK from the start (see `advance.rs`, where the search's later samples keep it).

use super::result::{ToiInitialContact, ToiOutcome, ToiResult, ToiStatus};
use super::settings::ToiSettings;
use crate::error::GeomError;
use crate::gjk::{ContactPolytope, GjkCache};
use crate::pose::Pose;
use crate::query::{
    Algorithm, Arithmetic, Certificate, DistanceResult, Proximity, QuerySettings, SignedDistance,
    distance_tracked, signed_from_unsigned,
};
use crate::shape::Shape;

/// Both poses at one time.
#[derive(Clone, Copy)]
pub(super) struct Sample {
    pub t: f64,
    pub pa: Pose,
    pub pb: Pose,
}

/// The distance queries of one search: the shapes, their settings and the warm GJK cache that
/// carries from one sample to the next, and how many were run.
pub(super) struct Queries<'s> {
    pub a: &'s Shape,
    pub b: &'s Shape,
    pub settings: &'s ToiSettings,
    pub query: QuerySettings,
    pub cache: GjkCache,
    pub count: u32,
}

impl<'s> Queries<'s> {
    /// The search's query settings (`touching_tolerance = 0`, no penetration depth; GJK for a
    /// ball against a polytope under `Auto`, see the module docs) and a cold cache.
    pub fn new(a: &'s Shape, b: &'s Shape, settings: &'s ToiSettings) -> Self {
        let mut query = settings.query.clone().with_touching_tolerance(0.0).with_penetration_depth(false);
        let auto =
            settings.query.algorithm == Algorithm::Auto && settings.query.arithmetic != Arithmetic::Exact;
        let ball = |s: &Shape| matches!(s, Shape::Point(_) | Shape::Sphere(_));
        let hull = |s: &Shape| matches!(s, Shape::ConvexPolytope(_) | Shape::Polyhedron(_));
        if auto && ((ball(a) && hull(b)) || (hull(a) && ball(b))) {
            query = query.with_algorithm(Algorithm::Gjk);
        }
        Self { a, b, settings, query, cache: GjkCache::new(), count: 0 }
    }

    /// The distance at sample `s`, warm from the previous one.
    pub fn distance(&mut self, s: &Sample) -> Result<DistanceResult, GeomError> {
        self.count += 1;
        distance_tracked(self.a, &s.pa, self.b, &s.pb, &self.query, &mut self.cache)
    }

    /// The result record with the queries run so far.
    pub fn result(&self, outcome: ToiOutcome, status: ToiStatus, iterations: u32) -> ToiResult {
        ToiResult { outcome, status, iterations, distance_queries: self.count }
    }

    /// Contact proven at the start sample `s` by its answer `r` (not `Separated`): the initial
    /// contact with the depth from the same answer ([`signed_from_unsigned`]: closed forms'
    /// exact depths, EPA otherwise) to the search's distance tolerance, unless
    /// [`ToiSettings::initial_depth`] is off (then [−∞, 0]).
    pub fn overlap(&mut self, s: &Sample, r: DistanceResult) -> Result<ToiResult, GeomError> {
        let sd = if self.settings.initial_depth {
            // The depth to the search's own tolerance (`ToiSettings::initial_depth`): its
            // bracket is proven either way, only as narrow as a hit's distance is.
            let mut query = self.query.clone().with_penetration_depth(true);
            query.gjk.tolerance = query.gjk.tolerance.max(self.settings.distance_tolerance);
            // The search ends here: the cache need not keep EPA's polytope for a next step.
            self.cache.polytope = Some(Box::new(ContactPolytope::one_shot()));
            signed_from_unsigned(self.a, &s.pa, self.b, &s.pb, &query, &r, Some(&mut self.cache), None)?
        } else {
            SignedDistance {
                value: 0.0,
                certificate: Certificate { lower: f64::NEG_INFINITY, upper: 0.0 },
                result: r,
            }
        };
        Ok(self.initial_contact(s, &sd))
    }

    /// Within the margin at the start: the signed distance (penetration depth) with its
    /// bracket.
    pub fn initial_contact(&self, s: &Sample, sd: &SignedDistance) -> ToiResult {
        let normal = match sd.result.proximity {
            Proximity::Separated { normal, .. } => Some(normal),
            _ => None,
        };
        let contact = ToiInitialContact {
            time: s.t,
            signed_distance: sd.value,
            bracket: sd.certificate,
            points: sd.result.witnesses(),
            normal,
        };
        self.result(ToiOutcome::InitialContact(contact), ToiStatus::Converged, 0)
    }
}

#[cfg(test)]
mod tests {
    use crate::query::toi::{RigidMotion, ToiOutcome, ToiSettings, time_of_impact};
    use crate::shape::{Cuboid, Sphere};
    use crate::{GeomError, Pose, Shape};

    /// Motions whose relative speed overflows f64 (each body travels 1e308 the other way).
    fn racing() -> (RigidMotion, RigidMotion) {
        let at = |x: f64| Pose::from_translation([x, 0.0, 0.0]).unwrap();
        (
            RigidMotion::from_poses(&at(0.0), &at(1e308)).unwrap(),
            RigidMotion::from_poses(&at(0.5), &at(-1e308)).unwrap(),
        )
    }

    #[test]
    fn contact_at_the_start_needs_no_motion_bound() {
        let ball = Shape::Sphere(Sphere::new(0.4).unwrap());
        let cube = Shape::Cuboid(Cuboid::new([0.3, 0.3, 0.3]).unwrap());
        let (ma, mb) = racing();
        // Overlapping by 0.2 at t = 0: the depth, whatever the motion bound would be.
        let r = time_of_impact(&ball, &ma, &cube, &mb, &ToiSettings::default()).unwrap();
        let ToiOutcome::InitialContact(c) = r.outcome else { panic!("{r:?}") };
        assert_eq!(c.time, 0.0);
        assert!(c.bracket.lower <= -0.2 + 1e-9 && -0.2 - 1e-9 <= c.bracket.upper, "{c:?}");
        assert!(c.bracket.lower <= c.signed_distance && c.signed_distance <= c.bracket.upper);
        assert_eq!(r.distance_queries, 1);
    }

    #[test]
    fn apart_at_the_start_reports_the_overflowing_bound() {
        let ball = Shape::Sphere(Sphere::new(0.1).unwrap());
        let (ma, mb) = racing();
        let r = time_of_impact(&ball, &ma, &ball, &mb, &ToiSettings::default());
        assert!(matches!(r, Err(GeomError::NonFinite { .. })), "{r:?}");
    }
}
