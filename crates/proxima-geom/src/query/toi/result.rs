//! The answer of a time-of-impact query: what was proven (one variant per case) and how the
//! search ended.

use nalgebra::{Point3, Vector3};

use crate::query::Certificate;

/// How the search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToiStatus {
    /// The outcome meets the requested tolerances.
    Converged,
    /// The step cap was reached: a [`ToiOutcome::Undecided`] (or a hit whose bracket is wider
    /// than the time tolerance).
    MaxIterations,
    /// The certificates reached their round-off floor near contact before a sample proved
    /// contact within the distance tolerance: the outcome is a [`ToiOutcome::Hit`] whose
    /// bracket (found by probing ahead) is wider than the time tolerance, or
    /// [`ToiOutcome::Undecided`] when no probe proved contact.
    Stalled,
}

impl ToiStatus {
    /// Lowercase name (`"converged"`, `"max_iterations"`, `"stalled"`).
    pub fn as_str(self) -> &'static str {
        match self {
            ToiStatus::Converged => "converged",
            ToiStatus::MaxIterations => "max_iterations",
            ToiStatus::Stalled => "stalled",
        }
    }
}

/// Contact at the start of the interval: the shapes are already within the margin (plus the
/// distance tolerance).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiInitialContact {
    /// The start time (= the time of impact).
    pub time: f64,
    /// Signed distance at the start: the distance when separated, minus the depth estimate
    /// when overlapping (0 when the depth was not asked for, see
    /// [`ToiSettings::initial_depth`](super::ToiSettings::initial_depth)).
    pub signed_distance: f64,
    /// A proven bracket of the signed distance at the start (lower end −∞ for an overlap
    /// whose depth was not asked for).
    pub bracket: Certificate,
    /// Witness points (world frame): the closest points when separated, a common point (twice)
    /// when overlapping; `None` when the algorithm gave none.
    pub points: Option<(Point3<f64>, Point3<f64>)>,
    /// Unit normal from A towards B when separated (`None` when overlapping).
    pub normal: Option<Vector3<f64>>,
}

impl ToiInitialContact {
    /// The penetration depth (−signed distance) when overlapping, 0 otherwise.
    pub fn depth(&self) -> f64 {
        (-self.signed_distance).max(0.0)
    }
}

/// A contact inside the interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiHit {
    /// The distance is proven > margin on [start, t_safe).
    pub t_safe: f64,
    /// The distance is proven ≤ margin + distance tolerance at t_hit (t_hit ≥ t_safe; equal
    /// when the last advancement sample proved the contact).
    pub t_hit: f64,
    /// Witness point on A at t_hit (world frame).
    pub point_a: Point3<f64>,
    /// Witness point on B at t_hit (world frame).
    pub point_b: Point3<f64>,
    /// Contact normal, unit, from A towards B: the separating direction that proved the last
    /// step before contact.
    pub normal: Vector3<f64>,
    /// The proven bracket of the distance at t_hit.
    pub distance: Certificate,
}

/// No contact on the whole interval, with the last link of the proof.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiMiss {
    /// Time of the last sample: from there a motion bound proved the distance > margin up
    /// to the end of the interval (the earlier samples did the same for their steps).
    pub last_time: f64,
    /// The certified lower bound of the distance at that sample.
    pub last_lower: f64,
}

/// The search stopped before deciding: no contact on [start, t_safe) is proven, nothing after.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiUndecided {
    /// The distance is proven > margin on [start, t_safe).
    pub t_safe: f64,
    /// The certified lower bound of the distance at the last sample (at t_safe).
    pub last_lower: f64,
}

/// What the search proved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ToiOutcome {
    /// Within the margin at the start time: the time of impact is the start.
    InitialContact(ToiInitialContact),
    /// First contact inside [t_safe, t_hit].
    Hit(ToiHit),
    /// No contact on the interval (proven).
    Miss(ToiMiss),
    /// Not decided (see the status): only [start, t_safe) is proven free.
    Undecided(ToiUndecided),
}

impl ToiOutcome {
    /// Lowercase name (`"initial_contact"`, `"hit"`, `"miss"`, `"undecided"`).
    pub fn as_str(&self) -> &'static str {
        match self {
            ToiOutcome::InitialContact(_) => "initial_contact",
            ToiOutcome::Hit(_) => "hit",
            ToiOutcome::Miss(_) => "miss",
            ToiOutcome::Undecided(_) => "undecided",
        }
    }
}

/// The answer to [`time_of_impact`](super::time_of_impact).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToiResult {
    /// What was proven.
    pub outcome: ToiOutcome,
    /// How the search ended.
    pub status: ToiStatus,
    /// Conservative-advancement steps taken.
    pub iterations: u32,
    /// Distance queries made (one per step, plus the start and any probes).
    pub distance_queries: u32,
}

impl ToiResult {
    /// The time of impact, conservatively: the start for an initial contact, t_safe for a
    /// hit, `None` for a proven miss — and t_safe for an undecided search, since contact right
    /// after it is not excluded (check [`ToiResult::status`] to tell the two apart).
    pub fn toi(&self) -> Option<f64> {
        match self.outcome {
            ToiOutcome::InitialContact(c) => Some(c.time),
            ToiOutcome::Hit(h) => Some(h.t_safe),
            ToiOutcome::Miss(_) => None,
            ToiOutcome::Undecided(u) => Some(u.t_safe),
        }
    }
}
