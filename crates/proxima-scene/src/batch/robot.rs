//! Robot batches: many configurations of one [`RobotWorld`], one row of answers each.

use std::ops::{ControlFlow, Range};

use proxima_geom::QuerySettings;

use crate::batch::runner::{RowFailure, run_chunks, thread_count};
use crate::batch::settings::{BatchMode, BatchSettings};
use crate::error::SceneError;
use crate::robot_query::{DistanceMode, PairDistance, RobotWorkspace};
use crate::robot_world::RobotWorld;

/// The `pair` of a row without one (no pair, beyond the margin, not in collision).
pub const NO_PAIR: u32 = u32::MAX;

/// How far a batch has come: configurations finished of the total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchProgress {
    /// Configurations finished (whole chunks).
    pub done: usize,
    /// Configurations in the batch.
    pub total: usize,
}

/// The answers of a robot batch, one row per configuration, column by column.
///
/// | field | [`BatchMode::Distance`] / [`BatchMode::AllPairs`] | [`BatchMode::Collision`] |
/// |---|---|---|
/// | `min_distance` | minimum signed distance; `+∞` beyond the margin or without pairs | NaN |
/// | `lower`, `upper` | its proven bracket; `[margin, +∞]` beyond the margin | NaN |
/// | `pair` | the closest pair (first in pair order among ties) | the first colliding pair |
/// | `in_collision` | minimum ≤ 0 | some pair collides (closer than the margin) or is undecided |
/// | `undecided` | false | no pair proven to collide, one without a verdict |
/// | `points` | witnesses on the pair's first and second body (world frame), NaN if none | NaN |
/// | `pair_distances` | all pairs: N × P, row-major; else empty | empty |
///
/// `pair` indexes [`RobotWorld::pairs`]; [`NO_PAIR`] when there is none.
#[derive(Debug, Clone, Default)]
pub struct BatchResult {
    /// What was computed.
    pub mode: BatchMode,
    /// The margin it was computed with.
    pub margin: Option<f64>,
    /// Number of monitored pairs P (the row length of `pair_distances`).
    pub pair_count: usize,
    /// Minimum signed distance per configuration.
    pub min_distance: Vec<f64>,
    /// Proven lower bound of the minimum.
    pub lower: Vec<f64>,
    /// Proven upper bound of the minimum.
    pub upper: Vec<f64>,
    /// The row's pair (see the table).
    pub pair: Vec<u32>,
    /// In collision (see the table).
    pub in_collision: Vec<bool>,
    /// Collision verdict not proven (collision mode).
    pub undecided: Vec<bool>,
    /// Witness points: first body's x, y, z, then the second body's.
    pub points: Vec<[f64; 6]>,
    /// Every pair's signed distance, N × P row-major (all-pairs mode).
    pub pair_distances: Vec<f64>,
    /// Piece pairs queried in all.
    pub queries: u64,
}

impl BatchResult {
    /// `rows` rows of `mode` holding placeholders (NaN, [`NO_PAIR`], false), to be filled by
    /// [`BatchResult::place`].
    pub fn filled(mode: BatchMode, margin: Option<f64>, pair_count: usize, rows: usize) -> Self {
        Self {
            mode,
            margin,
            pair_count,
            min_distance: vec![f64::NAN; rows],
            lower: vec![f64::NAN; rows],
            upper: vec![f64::NAN; rows],
            pair: vec![NO_PAIR; rows],
            in_collision: vec![false; rows],
            undecided: vec![false; rows],
            points: vec![[f64::NAN; 6]; rows],
            pair_distances: if mode == BatchMode::AllPairs {
                vec![f64::NAN; rows * pair_count]
            } else {
                Vec::new()
            },
            queries: 0,
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.min_distance.len()
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.min_distance.is_empty()
    }

    /// Copies the rows of `part` to rows `offset..` (the queries are added).
    pub fn place(&mut self, offset: usize, part: &BatchResult) {
        let rows = offset..offset + part.len();
        self.min_distance[rows.clone()].copy_from_slice(&part.min_distance);
        self.lower[rows.clone()].copy_from_slice(&part.lower);
        self.upper[rows.clone()].copy_from_slice(&part.upper);
        self.pair[rows.clone()].copy_from_slice(&part.pair);
        self.in_collision[rows.clone()].copy_from_slice(&part.in_collision);
        self.undecided[rows.clone()].copy_from_slice(&part.undecided);
        self.points[rows.clone()].copy_from_slice(&part.points);
        if !part.pair_distances.is_empty() {
            let p = self.pair_count;
            self.pair_distances[rows.start * p..rows.end * p].copy_from_slice(&part.pair_distances);
        }
        self.queries += part.queries;
    }

    /// The same rows bit for bit (NaN payloads included), mode and margin; `queries` is not
    /// compared.
    pub fn bit_identical(&self, other: &BatchResult) -> bool {
        fn same(a: &[f64], b: &[f64]) -> bool {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
        }
        self.mode == other.mode
            && self.margin.map(f64::to_bits) == other.margin.map(f64::to_bits)
            && self.pair_count == other.pair_count
            && same(&self.min_distance, &other.min_distance)
            && same(&self.lower, &other.lower)
            && same(&self.upper, &other.upper)
            && self.pair == other.pair
            && self.in_collision == other.in_collision
            && self.undecided == other.undecided
            && same(self.points.as_flattened(), other.points.as_flattened())
            && same(&self.pair_distances, &other.pair_distances)
    }

    fn set_distance(&mut self, r: usize, d: Option<&PairDistance>) {
        match d {
            Some(d) => {
                self.min_distance[r] = d.distance;
                self.lower[r] = d.lower;
                self.upper[r] = d.upper;
                self.pair[r] = d.pair as u32;
                self.in_collision[r] = d.distance <= 0.0;
                if let Some((a, b)) = d.points {
                    self.points[r] = [a.x, a.y, a.z, b.x, b.y, b.z];
                }
            }
            None => {
                self.min_distance[r] = f64::INFINITY;
                self.lower[r] = f64::INFINITY;
                self.upper[r] = f64::INFINITY;
            }
        }
    }
}

/// A checked batch of configurations of one world: the configurations are validated once
/// (length, finite values, joint limits under the settings' limit policy) before any query.
///
/// The rows are cut into chunks of `chunk_size` configurations ([`RobotBatch::chunk_rows`]);
/// [`RobotBatch::run`] computes all of them, [`RobotBatch::run_chunks`] any subset (resumable
/// runs), each chunk with the same bits as in a whole run.
#[derive(Debug, Clone)]
pub struct RobotBatch<'a> {
    world: &'a RobotWorld,
    configs: &'a [f64],
    rows: usize,
    settings: BatchSettings,
    unsigned: QuerySettings,
}

impl<'a> RobotBatch<'a> {
    /// A batch of the configurations in `configs` (row-major, N × [`RobotWorld::dof`]).
    /// Errors: invalid settings, a length that is not a multiple of the dof, a world without
    /// joints, the first configuration with a non-finite value or (under
    /// [`proxima_robot::LimitPolicy::Reject`]) a value outside its limits, as
    /// [`SceneError::Configuration`].
    pub fn new(
        world: &'a RobotWorld,
        configs: &'a [f64],
        settings: &BatchSettings,
    ) -> Result<Self, SceneError> {
        settings.validate()?;
        let dof = world.dof();
        if dof == 0 {
            return Err(SceneError::invalid("configs", "the world has no joints: there is nothing to vary"));
        }
        if !configs.len().is_multiple_of(dof) {
            return Err(SceneError::invalid(
                "configs",
                format!(
                    "{} values are not rows of {dof} joint values ({})",
                    configs.len(),
                    world.joint_names().join(", ")
                ),
            ));
        }
        let rows = configs.len() / dof;
        let mut scratch = vec![0.0; dof];
        for (i, q) in configs.chunks_exact(dof).enumerate() {
            world
                .check_configuration(q, settings.query.limits, &mut scratch)
                .map_err(|e| SceneError::Configuration { index: i, source: Box::new(e) })?;
        }
        let unsigned = settings.query.query.clone().with_penetration_depth(false);
        Ok(Self { world, configs, rows, settings: settings.clone(), unsigned })
    }

    /// Number of configurations.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// No configurations.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The settings.
    pub fn settings(&self) -> &BatchSettings {
        &self.settings
    }

    /// Number of chunks.
    pub fn chunk_count(&self) -> usize {
        self.rows.div_ceil(self.settings.chunk_size)
    }

    /// The configurations of chunk `c`.
    pub fn chunk_rows(&self, c: usize) -> Range<usize> {
        let size = self.settings.chunk_size;
        (c * size).min(self.rows)..((c + 1) * size).min(self.rows)
    }

    /// Computes every configuration; `progress` is called on this thread after each chunk.
    pub fn run(
        &self,
        mut progress: Option<&mut dyn FnMut(BatchProgress)>,
    ) -> Result<BatchResult, SceneError> {
        let s = &self.settings;
        let mut out = BatchResult::filled(s.mode, s.margin, self.world.pairs().len(), self.rows);
        let chunks: Vec<usize> = (0..self.chunk_count()).collect();
        let mut done = 0;
        self.run_chunks(&chunks, &mut |c, part| {
            out.place(self.chunk_rows(c).start, &part);
            done += part.len();
            if let Some(p) = progress.as_mut() {
                p(BatchProgress { done, total: self.rows });
            }
            ControlFlow::Continue(())
        })?;
        Ok(out)
    }

    /// Computes the chunks `chunks` (ascending indices), handing each result (its rows only)
    /// to `sink` on this thread in completion order. Returns false when the sink stopped the
    /// run. Errors: the failure of the lowest failing configuration (chunks before its chunk
    /// still reach the sink).
    pub fn run_chunks(
        &self,
        chunks: &[usize],
        sink: &mut dyn FnMut(usize, BatchResult) -> ControlFlow<()>,
    ) -> Result<bool, SceneError> {
        if let Some(&c) = chunks.iter().find(|&&c| c >= self.chunk_count()) {
            return Err(SceneError::invalid("chunks", format!("chunk {c} of {}", self.chunk_count())));
        }
        if chunks.windows(2).any(|w| w[0] >= w[1]) {
            return Err(SceneError::invalid("chunks", "must be ascending without repeats"));
        }
        let init = || self.world.workspace();
        let compute = |ws: &mut RobotWorkspace, c: usize| self.compute_chunk(ws, c);
        run_chunks(thread_count(self.settings.threads), chunks, &init, &compute, sink)
    }

    fn compute_chunk(&self, ws: &mut RobotWorkspace, c: usize) -> Result<BatchResult, RowFailure> {
        let rows = self.chunk_rows(c);
        let s = &self.settings;
        let mut out = BatchResult::filled(s.mode, s.margin, self.world.pairs().len(), rows.len());
        // warm starts carry over within a chunk only: its rows do not depend on other chunks
        ws.reset();
        let dof = self.world.dof();
        for (r, i) in rows.enumerate() {
            let q = &self.configs[i * dof..(i + 1) * dof];
            self.compute_row(q, ws, &mut out, r)
                .map_err(|e| (i, SceneError::Configuration { index: i, source: Box::new(e) }))?;
        }
        Ok(out)
    }

    fn compute_row(
        &self,
        q: &[f64],
        ws: &mut RobotWorkspace,
        out: &mut BatchResult,
        r: usize,
    ) -> Result<(), SceneError> {
        let world = self.world;
        let query = &self.settings.query;
        match (self.settings.mode, self.settings.margin) {
            (BatchMode::Distance, None) => {
                let report = world.distances(q, ws, query, DistanceMode::Minimum)?;
                out.queries += report.queries as u64;
                out.set_distance(r, report.closest.as_ref());
            }
            (BatchMode::Distance, Some(margin)) => {
                world.set_configuration(q, query.limits, ws)?;
                let (closest, queries) = world.minimum_below(ws, query, &self.unsigned, margin)?;
                out.queries += queries as u64;
                match closest.filter(|d| d.distance <= margin) {
                    Some(d) => out.set_distance(r, Some(&d)),
                    None => {
                        out.min_distance[r] = f64::INFINITY;
                        out.lower[r] = margin;
                        out.upper[r] = f64::INFINITY;
                    }
                }
            }
            (BatchMode::AllPairs, _) => {
                let report = world.distances(q, ws, query, DistanceMode::AllPairs)?;
                out.queries += report.queries as u64;
                out.set_distance(r, report.closest.as_ref());
                let p = out.pair_count;
                let row = &mut out.pair_distances[r * p..(r + 1) * p];
                for d in &report.pairs {
                    row[d.pair] = d.distance;
                }
            }
            (BatchMode::Collision, margin) => {
                let verdict = world.first_collision(q, ws, query, margin.unwrap_or(0.0))?;
                out.queries += verdict.queries() as u64;
                out.in_collision[r] = verdict.in_collision();
                out.undecided[r] = matches!(verdict, crate::robot_query::FirstCollision::Undecided { .. });
                out.pair[r] = verdict.pair().map_or(NO_PAIR, |p| p as u32);
            }
        }
        Ok(())
    }
}

/// Every configuration of `configs` (row-major, N × dof) on a thread pool, rows in input
/// order: [`RobotBatch::new`] then [`RobotBatch::run`].
pub fn distances_batch(
    world: &RobotWorld,
    configs: &[f64],
    settings: &BatchSettings,
    progress: Option<&mut dyn FnMut(BatchProgress)>,
) -> Result<BatchResult, SceneError> {
    RobotBatch::new(world, configs, settings)?.run(progress)
}
