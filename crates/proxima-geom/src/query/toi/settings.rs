//! Settings of a time-of-impact query.

use crate::error::GeomError;
use crate::query::QuerySettings;

/// Settings of [`time_of_impact`](super::time_of_impact): public fields with documented defaults,
/// built with `ToiSettings::default().with_margin(0.01)` (the struct is `#[non_exhaustive]`,
/// like [`QuerySettings`], so it can grow), checked by [`ToiSettings::validate`] (the query
/// calls it too).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToiSettings {
    /// Target distance: the time of impact is the first time the distance drops to `margin`
    /// (touching counts). Finite, ≥ 0. Default 0.
    pub margin: f64,
    /// Start of the searched time interval. Default 0.
    pub start_time: f64,
    /// End of the searched time interval (≥ `start_time`). Default 1.
    pub end_time: f64,
    /// Contact "within tolerance": a sample whose distance is proven ≤ margin +
    /// `distance_tolerance` × size ends the search with a hit (size = the sum of the two
    /// shapes' radii about their rotation centres; never below 16 × the round-off allowance).
    /// Finite, > 0. Default 1e-9.
    pub distance_tolerance: f64,
    /// Width of [t_safe, t_hit] accepted when the hit is found by probing ahead (a loose
    /// distance certificate near contact), relative to the interval length. Finite, > 0.
    /// Default 1e-9.
    pub time_tolerance: f64,
    /// Cap on conservative-advancement steps (one distance query each). Reaching it is the
    /// status [`ToiStatus::MaxIterations`](super::ToiStatus::MaxIterations). ≥ 1. Default 500.
    pub max_iterations: u32,
    /// Measure the penetration depth of an initial overlap (as
    /// [`signed_distance`](crate::signed_distance) does from the start's distance answer: EPA
    /// for overlapping pairs without a closed form, the dominant cost of such a query), with a
    /// proven bracket as narrow as the search's own tolerance: at most
    /// max(`distance_tolerance`, `query.gjk.tolerance`) × the problem's scale wide (the
    /// standalone signed distance asks `query.gjk.tolerance`, 1e-10 by default; a hit is only
    /// certified to `distance_tolerance` either). Closed forms' depths stay exact.
    /// `false` reports an initial overlap with the bracket [−∞, 0] of its signed distance.
    /// Shapes apart by at most the margin plus the tolerance get their bracket from the
    /// distance answer either way. Default `true`.
    pub initial_depth: bool,
    /// The distance queries' settings (algorithm, arithmetic, GJK). The search always runs
    /// them with `touching_tolerance = 0` (and `penetration_depth = false` except for the depth
    /// of an initial contact, see `initial_depth`).
    pub query: QuerySettings,
}

impl Default for ToiSettings {
    fn default() -> Self {
        Self {
            margin: 0.0,
            start_time: 0.0,
            end_time: 1.0,
            distance_tolerance: 1e-9,
            time_tolerance: 1e-9,
            max_iterations: 500,
            initial_depth: true,
            query: QuerySettings::default(),
        }
    }
}

impl ToiSettings {
    /// Checks every field (and the query settings).
    pub fn validate(&self) -> Result<(), GeomError> {
        let bad = |field, reason| Err(GeomError::InvalidSettings { field, reason });
        if !self.margin.is_finite() || self.margin < 0.0 {
            return bad("margin", "must be finite and >= 0");
        }
        if !self.start_time.is_finite() || !self.end_time.is_finite() {
            return bad("start_time/end_time", "must be finite");
        }
        if self.end_time < self.start_time {
            return bad("end_time", "must be >= start_time");
        }
        if !self.distance_tolerance.is_finite() || self.distance_tolerance <= 0.0 {
            return bad("distance_tolerance", "must be finite and > 0");
        }
        if !self.time_tolerance.is_finite() || self.time_tolerance <= 0.0 {
            return bad("time_tolerance", "must be finite and > 0");
        }
        if self.max_iterations == 0 {
            return bad("max_iterations", "must be >= 1");
        }
        self.query.validate()
    }

    /// With this [`ToiSettings::margin`].
    #[must_use]
    pub fn with_margin(mut self, margin: f64) -> Self {
        self.margin = margin;
        self
    }

    /// With the interval [`ToiSettings::start_time`], [`ToiSettings::end_time`].
    #[must_use]
    pub fn with_interval(mut self, start_time: f64, end_time: f64) -> Self {
        (self.start_time, self.end_time) = (start_time, end_time);
        self
    }

    /// With this [`ToiSettings::distance_tolerance`].
    #[must_use]
    pub fn with_distance_tolerance(mut self, distance_tolerance: f64) -> Self {
        self.distance_tolerance = distance_tolerance;
        self
    }

    /// With this [`ToiSettings::time_tolerance`].
    #[must_use]
    pub fn with_time_tolerance(mut self, time_tolerance: f64) -> Self {
        self.time_tolerance = time_tolerance;
        self
    }

    /// With this [`ToiSettings::max_iterations`].
    #[must_use]
    pub fn with_max_iterations(mut self, max_iterations: u32) -> Self {
        self.max_iterations = max_iterations;
        self
    }

    /// With this [`ToiSettings::initial_depth`].
    #[must_use]
    pub fn with_initial_depth(mut self, initial_depth: bool) -> Self {
        self.initial_depth = initial_depth;
        self
    }

    /// With these [`ToiSettings::query`] settings.
    #[must_use]
    pub fn with_query(mut self, query: QuerySettings) -> Self {
        self.query = query;
        self
    }
}
