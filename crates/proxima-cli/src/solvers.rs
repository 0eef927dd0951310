//! The solvers `bench-lcp` can run, by name.
//!
//! A solver plugs in by implementing [`BenchSolver`] and adding itself to [`REGISTRY`]:
//! `prepare` builds its input from the matrix as read (outside the timed region), and the
//! returned [`PreparedSolve::solve`] is the timed call.

use proxima_lcp::io::{CooMatrix, ReadLimits, lcp_from_coo};
use proxima_lcp::{Lcp, LcpStatus, LemkeSettings, solve_lemke};

/// Harness options a solver may use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchOptions {
    /// Convergence tolerance (`--tol`) for iterative methods.
    pub tol: f64,
    /// Iteration / pivot limit (`--max-iter`); `None` = the solver's default.
    pub max_iter: Option<usize>,
}

/// Result statuses of the harness contract (FORMAT.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchStatus {
    /// The solver claims success.
    Converged,
    /// Stopped at its iteration limit.
    MaxIter,
    /// Any other failure (breakdown, crash, timeout).
    Failed,
    /// The solver proves or claims there is no solution.
    NoSolution,
}

impl BenchStatus {
    /// The contract's string.
    pub fn as_str(self) -> &'static str {
        match self {
            BenchStatus::Converged => "converged",
            BenchStatus::MaxIter => "max_iter",
            BenchStatus::Failed => "failed",
            BenchStatus::NoSolution => "no_solution",
        }
    }

    /// The mapping of LCP statuses: Solved/Trivial → converged, NoSolution → no_solution,
    /// MaxIterations → max_iter, anything else → failed.
    pub fn from_lcp(status: LcpStatus) -> Self {
        match status {
            LcpStatus::Solved | LcpStatus::Trivial => BenchStatus::Converged,
            LcpStatus::NoSolution => BenchStatus::NoSolution,
            LcpStatus::MaxIterations => BenchStatus::MaxIter,
            _ => BenchStatus::Failed,
        }
    }
}

/// What one timed solve returned.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveOutcome {
    /// Contract status.
    pub status: BenchStatus,
    /// Iterations or pivots.
    pub iterations: Option<u64>,
    /// The returned z (residuals are computed from it by the harness).
    pub z: Vec<f64>,
    /// The solver's own status name (e.g. `"trivial"`).
    pub info: Option<String>,
    /// The algorithmic path (e.g. `"lemke"`, `"enumeration(...)"`).
    pub path: Option<String>,
    /// An error message when the solver refused the input.
    pub error: Option<String>,
}

/// A solver ready to run: owns its input, `solve` is the timed call (repeatable).
pub trait PreparedSolve: Send {
    /// One solve.
    fn solve(&mut self) -> SolveOutcome;
}

/// A named benchmark solver.
pub trait BenchSolver: Sync {
    /// The `--solver` name (the record's `solver` is `ours.<name>`).
    fn name(&self) -> &'static str;
    /// One line for listings.
    fn description(&self) -> &'static str;
    /// Builds the solver input from M and q as read; `Err` is recorded as `failed`.
    fn prepare(
        &self,
        m: &CooMatrix<f64>,
        q: &[f64],
        opts: &BenchOptions,
    ) -> Result<Box<dyn PreparedSolve>, String>;
}

/// Every solver `bench-lcp` knows.
pub static REGISTRY: &[&dyn BenchSolver] = &[&Lemke];

/// The solver called `name`.
pub fn find(name: &str) -> Option<&'static dyn BenchSolver> {
    REGISTRY.iter().copied().find(|s| s.name() == name)
}

/// The known names with their descriptions, on one line.
pub fn known_described() -> String {
    REGISTRY.iter().map(|s| format!("{} ({})", s.name(), s.description())).collect::<Vec<_>>().join("; ")
}

/// Lemke's method on the dense M (default fallbacks; `--max-iter` = pivot limit).
struct Lemke;

struct PreparedLemke {
    lcp: Lcp<f64>,
    settings: LemkeSettings,
}

impl BenchSolver for Lemke {
    fn name(&self) -> &'static str {
        "lemke"
    }
    fn description(&self) -> &'static str {
        "Lemke's complementary pivoting, lexicographic anti-cycling, certified fallbacks (dense)"
    }
    fn prepare(
        &self,
        m: &CooMatrix<f64>,
        q: &[f64],
        opts: &BenchOptions,
    ) -> Result<Box<dyn PreparedSolve>, String> {
        let lcp = lcp_from_coo(m, q.to_vec(), &ReadLimits::new(m.nrows())).map_err(|e| e.to_string())?;
        let settings = LemkeSettings { max_pivots: opts.max_iter, ..LemkeSettings::default() };
        settings.validate(lcp.n()).map_err(|e| e.to_string())?;
        Ok(Box::new(PreparedLemke { lcp, settings }))
    }
}

impl PreparedSolve for PreparedLemke {
    fn solve(&mut self) -> SolveOutcome {
        match solve_lemke(&self.lcp, &self.settings) {
            Ok(sol) => SolveOutcome {
                status: BenchStatus::from_lcp(sol.status),
                iterations: Some(sol.pivots as u64),
                z: sol.z,
                info: Some(sol.status.as_str().to_string()),
                path: Some(sol.path.to_string()),
                error: None,
            },
            Err(e) => SolveOutcome {
                status: BenchStatus::Failed,
                iterations: None,
                z: Vec::new(),
                info: None,
                path: None,
                error: Some(e.to_string()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_mapping() {
        assert_eq!(BenchStatus::from_lcp(LcpStatus::Solved).as_str(), "converged");
        assert_eq!(BenchStatus::from_lcp(LcpStatus::Trivial).as_str(), "converged");
        assert_eq!(BenchStatus::from_lcp(LcpStatus::NoSolution).as_str(), "no_solution");
        assert_eq!(BenchStatus::from_lcp(LcpStatus::MaxIterations).as_str(), "max_iter");
        assert_eq!(BenchStatus::from_lcp(LcpStatus::NumericalFailure).as_str(), "failed");
    }

    #[test]
    fn registry_lookup() {
        assert!(find("lemke").is_some());
        assert!(find("nope").is_none());
        assert!(known_described().starts_with("lemke ("));
        for s in REGISTRY {
            assert!(!s.description().is_empty());
        }
    }
}
