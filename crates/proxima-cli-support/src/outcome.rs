//! One query's outcome and the result fields written for it, shared by `proxima query` and
//! `proxima bench-geometry` (`../shared/bench/geometry/FORMAT.md` result records).
//!
//! A pair the library cannot handle yet ([`GeomError::Unsupported`], or a body that is still
//! `todo!()`) is [`Outcome::Unsupported`]; any other failure, a rejected input or a caught
//! panic, is [`Outcome::Error`]. Neither is an answer, and neither stops a run.

use nalgebra::Point3;
use proxima_geom::{
    Algorithm, DistanceResult, GeomError, Intersection, Pose, Proximity, QuerySettings, Shape, distance,
    intersects,
};
use serde::Serialize;

use crate::exit;

/// How one library call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<T> {
    /// An answer.
    Ok(T),
    /// The pair / algorithm is not implemented (yet).
    Unsupported(String),
    /// Any other failure (rejected input, internal error).
    Error(String),
}

impl<T> Outcome<T> {
    /// `"ok"`, `"unsupported"` or `"error"`.
    pub fn status(&self) -> &'static str {
        match self {
            Outcome::Ok(_) => "ok",
            Outcome::Unsupported(_) => "unsupported",
            Outcome::Error(_) => "error",
        }
    }
    /// The message of a failure.
    pub fn error(&self) -> Option<&str> {
        match self {
            Outcome::Ok(_) => None,
            Outcome::Unsupported(m) | Outcome::Error(m) => Some(m),
        }
    }
}

/// Counts of per-query outcomes by status (`ok`, `unsupported`, anything else an error) and the
/// one-line summary a command prints on stderr at the end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Answered queries.
    pub ok: usize,
    /// Unsupported pairs or algorithms.
    pub unsupported: usize,
    /// Other failures.
    pub error: usize,
}

impl Tally {
    /// Counts one query of this status.
    pub fn add(&mut self, status: &str) {
        match status {
            "ok" => self.ok += 1,
            "unsupported" => self.unsupported += 1,
            _ => self.error += 1,
        }
    }

    /// `{what}: N queries, a ok, b unsupported, c error`.
    pub fn summary(&self, what: &str) -> String {
        let n = self.ok + self.unsupported + self.error;
        format!("{what}: {n} queries, {} ok, {} unsupported, {} error", self.ok, self.unsupported, self.error)
    }
}

/// Runs a library call, classifying errors and caught panics (`todo!()` bodies count as
/// unsupported).
pub fn classify<T>(f: impl FnOnce() -> Result<T, GeomError>) -> Outcome<T> {
    match exit::catch(f) {
        Ok(Ok(v)) => Outcome::Ok(v),
        Ok(Err(e @ GeomError::Unsupported { .. })) => Outcome::Unsupported(e.to_string()),
        Ok(Err(e)) => Outcome::Error(e.to_string()),
        Err(panic) if panic.contains("not yet implemented") || panic.contains("not implemented") => {
            Outcome::Unsupported(exit::one_line(&panic))
        }
        Err(panic) => Outcome::Error(format!("internal error: {}", exit::one_line(&panic))),
    }
}

/// `distance` with the outcome classified.
pub fn run_distance(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Outcome<DistanceResult> {
    classify(|| distance(a, pa, b, pb, settings))
}

/// `intersects` with the outcome classified.
pub fn run_intersects(
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    settings: &QuerySettings,
) -> Outcome<Intersection> {
    classify(|| intersects(a, pa, b, pb, settings))
}

/// The signed distance a distance answer implies: the distance, 0 at touching, minus the
/// depth when it was computed (`None` otherwise).
pub fn signed_of(r: &DistanceResult) -> Option<f64> {
    match r.proximity {
        Proximity::Separated { distance, .. } => Some(distance),
        Proximity::Touching { .. } => Some(0.0),
        Proximity::Intersecting { depth, .. } => depth.map(|d| -d),
    }
}

/// `[x, y, z]` of a world-frame point.
pub fn xyz(p: &Point3<f64>) -> [f64; 3] {
    [p.x, p.y, p.z]
}

/// The result fields of one query shared by `query` and `bench-geometry`, in output order
/// (all `null` when the query was not answered). Non-finite numbers are written as `null`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ResultFields {
    /// Separation distance, 0 when touching or intersecting.
    pub distance: Option<f64>,
    /// Signed distance (negative = penetration depth) when known.
    pub signed_distance: Option<f64>,
    /// Whether the shapes share a point.
    pub intersects: Option<bool>,
    /// Witness on a (world frame).
    pub p_a: Option<[f64; 3]>,
    /// Witness on b (world frame).
    pub p_b: Option<[f64; 3]>,
    /// Certificate lower bound.
    pub lower: Option<f64>,
    /// Certificate upper bound.
    pub upper: Option<f64>,
    /// The algorithm that ran.
    pub algorithm: Option<&'static str>,
}

impl ResultFields {
    /// Fields of a distance outcome, and its path.
    pub fn of_distance(out: &Outcome<DistanceResult>) -> (Self, Option<String>) {
        let Outcome::Ok(r) = out else { return (Self::default(), None) };
        let (p_a, p_b) = r.witnesses().map_or((None, None), |(a, b)| (Some(xyz(&a)), Some(xyz(&b))));
        let fields = Self {
            distance: Some(r.distance()),
            signed_distance: signed_of(r),
            intersects: Some(!matches!(r.proximity, Proximity::Separated { .. })),
            p_a,
            p_b,
            lower: Some(r.certificate.lower),
            upper: Some(r.certificate.upper),
            algorithm: Some(r.algorithm.as_str()),
        };
        (fields, Some(r.path.to_string()))
    }

    /// Fields of an intersection outcome (a common point as both witnesses when known).
    pub fn of_intersects(out: &Outcome<Intersection>, algorithm: Algorithm) -> Self {
        match out {
            Outcome::Ok(Intersection::Intersecting { point }) => {
                let p = point.as_ref().map(xyz);
                Self {
                    intersects: Some(true),
                    p_a: p,
                    p_b: p,
                    algorithm: Some(algorithm.as_str()),
                    ..Self::default()
                }
            }
            Outcome::Ok(Intersection::Separated { .. }) => {
                Self { intersects: Some(false), algorithm: Some(algorithm.as_str()), ..Self::default() }
            }
            _ => Self::default(),
        }
    }
}
