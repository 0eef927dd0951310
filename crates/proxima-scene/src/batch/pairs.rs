//! Batches of independent shape pairs: query k measures shapes `a_k` and `b_k` (indices into
//! one shape list, so many queries share shapes) at poses `pose_a_k`, `pose_b_k`.

use std::ops::ControlFlow;

use proxima_geom::{Intersection, Pose, QuerySettings, Shape, distance, intersects, signed_distance};

use crate::batch::runner::{RowFailure, run_chunks, thread_count};
use crate::batch::settings::{DEFAULT_CHUNK_SIZE, validate_parallel};
use crate::error::SceneError;

/// One query of a shape-pair batch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapePairQuery {
    /// Index of the first shape.
    pub a: usize,
    /// Pose of the first shape.
    pub pose_a: Pose,
    /// Index of the second shape.
    pub b: usize,
    /// Pose of the second shape.
    pub pose_b: Pose,
}

/// What a shape-pair batch computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PairOp {
    /// Certified distance, 0 for touching or overlapping shapes ([`proxima_geom::distance`]).
    #[default]
    Distance,
    /// Certified signed distance, minus the depth for overlapping shapes
    /// ([`proxima_geom::signed_distance`]).
    SignedDistance,
    /// Intersection verdict only ([`proxima_geom::intersects`]).
    Intersects,
}

/// Settings of [`shape_pairs_batch`]. Build with `PairBatchSettings::default()` and the
/// `with_*` setters.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PairBatchSettings {
    /// Worker threads; `None` (default) is one per core. Results do not depend on it.
    pub threads: Option<usize>,
    /// Queries per chunk (default 64).
    pub chunk_size: usize,
    /// What is computed.
    pub op: PairOp,
    /// Geometry query settings.
    pub query: QuerySettings,
}

impl Default for PairBatchSettings {
    fn default() -> Self {
        Self {
            threads: None,
            chunk_size: DEFAULT_CHUNK_SIZE,
            op: PairOp::Distance,
            query: QuerySettings::default(),
        }
    }
}

impl PairBatchSettings {
    /// Checks every field.
    pub fn validate(&self) -> Result<(), SceneError> {
        validate_parallel(self.threads, self.chunk_size)?;
        self.query.validate().map_err(|source| SceneError::Geometry { at: "settings.query".into(), source })
    }

    /// With `threads`.
    pub fn with_threads(mut self, threads: Option<usize>) -> Self {
        self.threads = threads;
        self
    }

    /// With `chunk_size` queries per chunk.
    pub fn with_chunk_size(mut self, chunk_size: usize) -> Self {
        self.chunk_size = chunk_size;
        self
    }

    /// With `op`.
    pub fn with_op(mut self, op: PairOp) -> Self {
        self.op = op;
        self
    }

    /// With geometry settings `query`.
    pub fn with_query(mut self, query: QuerySettings) -> Self {
        self.query = query;
        self
    }
}

/// The answers of a shape-pair batch, one row per query. Distances are NaN under
/// [`PairOp::Intersects`]; `intersecting` is "touching or overlapping" (for the distance ops:
/// the answer is not [`proxima_geom::Proximity::Separated`]); `undecided` is only set under
/// [`PairOp::Intersects`].
#[derive(Debug, Clone, Default)]
pub struct PairBatchResult {
    /// (Signed) distance.
    pub distance: Vec<f64>,
    /// Proven lower bound.
    pub lower: Vec<f64>,
    /// Proven upper bound.
    pub upper: Vec<f64>,
    /// Witness points on a and b (world frame), NaN when unavailable.
    pub points: Vec<[f64; 6]>,
    /// The shapes touch or overlap.
    pub intersecting: Vec<bool>,
    /// No verdict (intersection op; counted in `intersecting`).
    pub undecided: Vec<bool>,
}

impl PairBatchResult {
    fn with_rows(rows: usize) -> Self {
        Self {
            distance: vec![f64::NAN; rows],
            lower: vec![f64::NAN; rows],
            upper: vec![f64::NAN; rows],
            points: vec![[f64::NAN; 6]; rows],
            intersecting: vec![false; rows],
            undecided: vec![false; rows],
        }
    }

    fn place(&mut self, offset: usize, part: &PairBatchResult) {
        let rows = offset..offset + part.distance.len();
        self.distance[rows.clone()].copy_from_slice(&part.distance);
        self.lower[rows.clone()].copy_from_slice(&part.lower);
        self.upper[rows.clone()].copy_from_slice(&part.upper);
        self.points[rows.clone()].copy_from_slice(&part.points);
        self.intersecting[rows.clone()].copy_from_slice(&part.intersecting);
        self.undecided[rows].copy_from_slice(&part.undecided);
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.distance.len()
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.distance.is_empty()
    }
}

fn witnesses(p: Option<(nalgebra::Point3<f64>, nalgebra::Point3<f64>)>) -> [f64; 6] {
    p.map_or([f64::NAN; 6], |(a, b)| [a.x, a.y, a.z, b.x, b.y, b.z])
}

/// Every query of `queries` on a thread pool, rows in input order (each a cold query: the
/// same bits for any thread count). Errors: invalid settings, a shape index out of range
/// (checked before any query), the lowest failing query (as [`SceneError::Configuration`]
/// with its index).
pub fn shape_pairs_batch(
    shapes: &[Shape],
    queries: &[ShapePairQuery],
    settings: &PairBatchSettings,
) -> Result<PairBatchResult, SceneError> {
    settings.validate()?;
    for (k, q) in queries.iter().enumerate() {
        for (name, i) in [("a", q.a), ("b", q.b)] {
            if i >= shapes.len() {
                return Err(SceneError::invalid(
                    format!("queries[{k}].{name}"),
                    format!("shape {i} of {}", shapes.len()),
                ));
            }
        }
    }
    let size = settings.chunk_size;
    let chunks: Vec<usize> = (0..queries.len().div_ceil(size)).collect();
    let rows = |c: usize| c * size..((c + 1) * size).min(queries.len());
    let compute = |_: &mut (), c: usize| -> Result<PairBatchResult, RowFailure> {
        let range = rows(c);
        let mut out = PairBatchResult::with_rows(range.len());
        for (r, k) in range.enumerate() {
            let q = &queries[k];
            let (a, b) = (&shapes[q.a], &shapes[q.b]);
            let fail = |source| {
                (
                    k,
                    SceneError::Configuration {
                        index: k,
                        source: Box::new(SceneError::Geometry { at: format!("queries[{k}]"), source }),
                    },
                )
            };
            match settings.op {
                PairOp::Distance => {
                    let d = distance(a, &q.pose_a, b, &q.pose_b, &settings.query).map_err(fail)?;
                    out.distance[r] = d.distance();
                    out.lower[r] = d.certificate.lower;
                    out.upper[r] = d.certificate.upper;
                    out.points[r] = witnesses(d.witnesses());
                    out.intersecting[r] = !matches!(d.proximity, proxima_geom::Proximity::Separated { .. });
                }
                PairOp::SignedDistance => {
                    let d = signed_distance(a, &q.pose_a, b, &q.pose_b, &settings.query).map_err(fail)?;
                    out.distance[r] = d.value;
                    out.lower[r] = d.certificate.lower;
                    out.upper[r] = d.certificate.upper;
                    out.points[r] = witnesses(d.result.witnesses());
                    out.intersecting[r] =
                        !matches!(d.result.proximity, proxima_geom::Proximity::Separated { .. });
                }
                PairOp::Intersects => {
                    match intersects(a, &q.pose_a, b, &q.pose_b, &settings.query).map_err(fail)? {
                        Intersection::Intersecting { .. } => out.intersecting[r] = true,
                        Intersection::Separated { .. } => {}
                        Intersection::Undecided { .. } => {
                            out.intersecting[r] = true;
                            out.undecided[r] = true;
                        }
                    }
                }
            }
        }
        Ok(out)
    };
    let mut result = PairBatchResult::with_rows(queries.len());
    run_chunks(thread_count(settings.threads), &chunks, &|| (), &compute, &mut |c, part| {
        result.place(rows(c).start, &part);
        ControlFlow::Continue(())
    })?;
    Ok(result)
}
