//! Settings of robot batches.

use crate::error::SceneError;
use crate::robot_query::RobotQuerySettings;

/// What a robot batch computes per configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BatchMode {
    /// The minimum certified signed distance, its pair, bracket and witnesses, by branch and
    /// bound over the piece pairs (default). With a margin: exact below the margin only.
    #[default]
    Distance,
    /// Every pair's certified signed distance (an N × P matrix), and the minimum as in
    /// `Distance`.
    AllPairs,
    /// In collision or not, stopping at the first colliding pair in pair order (early exit).
    /// With a margin: closer than the margin or not.
    Collision,
}

impl BatchMode {
    /// Lowercase name: `"distance"`, `"all_pairs"`, `"collision"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BatchMode::Distance => "distance",
            BatchMode::AllPairs => "all_pairs",
            BatchMode::Collision => "collision",
        }
    }
}

/// Configurations per chunk by default: a chunk is the unit of scheduling, of progress and of
/// the CLI's checkpoints; 64 Panda configurations take about 1–4 ms on one core, so the
/// per-chunk costs (a channel message, a copy of the rows) stay far below 1 %.
pub const DEFAULT_CHUNK_SIZE: usize = 64;

/// Checks the settings every batch shares: threads ≥ 1 (or `None`), chunk size ≥ 1.
pub(crate) fn validate_parallel(threads: Option<usize>, chunk_size: usize) -> Result<(), SceneError> {
    if threads == Some(0) {
        return Err(SceneError::invalid("threads", "must be at least 1 (or None for one per core)"));
    }
    if chunk_size == 0 {
        return Err(SceneError::invalid("chunk_size", "must be at least 1"));
    }
    Ok(())
}

/// Settings of [`crate::batch::RobotBatch`]. Build with `BatchSettings::default()` and the
/// `with_*` setters (the struct may grow).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BatchSettings {
    /// Worker threads; `None` (default) is one per core. Results do not depend on it.
    pub threads: Option<usize>,
    /// Configurations per chunk (default [`DEFAULT_CHUNK_SIZE`]). Results do not depend on it
    /// unless warm starts are on (they carry over within a chunk only).
    pub chunk_size: usize,
    /// What is computed.
    pub mode: BatchMode,
    /// Safety margin (metres, finite, ≥ 0) of [`BatchMode::Distance`] and
    /// [`BatchMode::Collision`]; `None` (default) for none.
    pub margin: Option<f64>,
    /// Per-configuration query settings. Default: [`RobotQuerySettings::default`] with warm
    /// starts off (configurations of a batch are usually independent samples, for which a
    /// cold start is faster); warm starts, when on, are reset at the start of every chunk.
    pub query: RobotQuerySettings,
}

impl Default for BatchSettings {
    fn default() -> Self {
        Self {
            threads: None,
            chunk_size: DEFAULT_CHUNK_SIZE,
            mode: BatchMode::Distance,
            margin: None,
            query: RobotQuerySettings::default().with_warm_start(false),
        }
    }
}

impl BatchSettings {
    /// Checks every field: threads ≥ 1, chunk size ≥ 1, margin finite and ≥ 0 and not with
    /// [`BatchMode::AllPairs`], the query settings.
    pub fn validate(&self) -> Result<(), SceneError> {
        validate_parallel(self.threads, self.chunk_size)?;
        if let Some(m) = self.margin {
            if !(m.is_finite() && m >= 0.0) {
                return Err(SceneError::invalid("margin", format!("must be finite and >= 0, got {m}")));
            }
            if self.mode == BatchMode::AllPairs {
                return Err(SceneError::invalid(
                    "margin",
                    "every pair's distance is computed in all-pairs mode",
                ));
            }
        }
        self.query.validate()
    }

    /// With `threads` (`None`: one per core).
    pub fn with_threads(mut self, threads: Option<usize>) -> Self {
        self.threads = threads;
        self
    }

    /// With `chunk_size` configurations per chunk.
    pub fn with_chunk_size(mut self, chunk_size: usize) -> Self {
        self.chunk_size = chunk_size;
        self
    }

    /// With `mode`.
    pub fn with_mode(mut self, mode: BatchMode) -> Self {
        self.mode = mode;
        self
    }

    /// With a safety margin (or none).
    pub fn with_margin(mut self, margin: Option<f64>) -> Self {
        self.margin = margin;
        self
    }

    /// With per-configuration query settings.
    pub fn with_query(mut self, query: RobotQuerySettings) -> Self {
        self.query = query;
        self
    }
}
