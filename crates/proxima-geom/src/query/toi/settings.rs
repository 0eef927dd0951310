//! Settings of a time-of-impact query.

use crate::error::GeomError;
use crate::query::QuerySettings;

/// Settings of [`time_of_impact`](super::time_of_impact). Plain data: build with
/// `ToiSettings { margin: 0.01, ..ToiSettings::default() }` and check with
/// [`ToiSettings::validate`] (the query calls it too).
#[derive(Debug, Clone, PartialEq)]
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
    /// Measure the penetration depth of an initial contact (the start is then a
    /// [`signed_distance`](crate::signed_distance) query: EPA for overlapping pairs without a
    /// closed form, the dominant cost of such a query). `false` reports an initial overlap with
    /// the bracket [−∞, 0] of its signed distance. Default `true`.
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
}
