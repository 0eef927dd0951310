//! What a solver returns: a status, the iterate, counts, and residuals computed from the data.

use core::fmt;

/// The outcome of an LCP solve. Never an error: input errors are [`LcpError`](crate::LcpError).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LcpStatus {
    /// q ≥ 0, so z = 0, w = q solves the problem without pivoting.
    Trivial,
    /// A solution was found (and checked by its residuals).
    Solved,
    /// The method proved there is no solution (e.g. Lemke's secondary ray on a problem class
    /// where that is a proof, or exhaustive enumeration of complementary bases).
    NoSolution,
    /// The iteration (pivot) limit was reached before a solution.
    MaxIterations,
    /// Floating-point breakdown: the method claims success but the residual check fails, or a
    /// pivot was numerically ambiguous and no exact fallback was allowed.
    NumericalFailure,
}

impl LcpStatus {
    /// `true` for [`LcpStatus::Trivial`] and [`LcpStatus::Solved`].
    pub fn is_solved(self) -> bool {
        matches!(self, LcpStatus::Trivial | LcpStatus::Solved)
    }
    /// A stable lowercase name (`"solved"`, `"no_solution"`, ...), used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            LcpStatus::Trivial => "trivial",
            LcpStatus::Solved => "solved",
            LcpStatus::NoSolution => "no_solution",
            LcpStatus::MaxIterations => "max_iterations",
            LcpStatus::NumericalFailure => "numerical_failure",
        }
    }
}

impl fmt::Display for LcpStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which algorithmic path produced the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SolvePath {
    /// No pivoting was needed (q ≥ 0).
    Trivial,
    /// Lemke's method with the covering vector of the settings (all ones by default).
    Lemke,
    /// Lemke's method restarted with another covering vector after a ray termination;
    /// `attempt` counts restarts from 1.
    LemkeRestart {
        /// 1-based restart number.
        attempt: usize,
    },
    /// Exhaustive enumeration of complementary bases (small n only): a certified answer.
    Enumeration {
        /// Principal submatrices skipped because singular.
        singular_skipped: usize,
    },
    /// A float run was not certified and the problem was re-solved in exact rational
    /// arithmetic; the answer was rounded back.
    ExactResolve,
}

impl SolvePath {
    /// A stable lowercase name for reports and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            SolvePath::Trivial => "trivial",
            SolvePath::Lemke => "lemke",
            SolvePath::LemkeRestart { .. } => "lemke_restart",
            SolvePath::Enumeration { .. } => "enumeration",
            SolvePath::ExactResolve => "exact_resolve",
        }
    }
}

impl fmt::Display for SolvePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolvePath::LemkeRestart { attempt } => write!(f, "lemke_restart({attempt})"),
            SolvePath::Enumeration { singular_skipped } => {
                write!(f, "enumeration(singular skipped: {singular_skipped})")
            }
            other => f.write_str(other.as_str()),
        }
    }
}

/// Residuals of an LCP iterate, computed from M and q: exact zeros in exact arithmetic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LcpResidual<T> {
    /// ‖min(z, w)‖∞ — zero exactly at a solution.
    pub min_map_inf: T,
    /// |zᵀ w|.
    pub complementarity: T,
    /// minᵢ zᵢ (negative means infeasible).
    pub min_z: T,
    /// minᵢ wᵢ (negative means infeasible).
    pub min_w: T,
}

/// A complete LCP answer: status, z, w = Mz + q, pivot count, residuals and the path taken.
#[derive(Debug, Clone, PartialEq)]
pub struct LcpSolution<T> {
    /// What happened.
    pub status: LcpStatus,
    /// The iterate (a solution when `status.is_solved()`).
    pub z: Vec<T>,
    /// w = M z + q.
    pub w: Vec<T>,
    /// Pivots performed (over all attempts, including restarts).
    pub pivots: usize,
    /// Residuals of `z` against the input data.
    pub residual: LcpResidual<T>,
    /// Which algorithmic path produced `z`.
    pub path: SolvePath,
}
