//! Solving an `f64` LCP by method name: one table of every solver with its settings, so the
//! command line (`proxima solve --method`, `proxima bench-lcp --solver`) and the Python
//! binding pick solvers the same way.
//!
//! | name | method | matrix |
//! |---|---|---|
//! | `lemke` | Lemke's complementary pivoting, lexicographic anti-cycling, certified fallbacks | dense |
//! | `baraff` | Baraff/Dantzig incremental pivoting, incrementally updated factorization | dense |
//! | `minmap-newton` | minimum-map Newton, projected Armijo search | direct (dense LU) or GMRES sub-solves |
//! | `fischer-newton` | Fischer–Newton, perturbation strategy | as above |
//! | `jacobi`, `pgs`, `psor` | projected Jacobi / Gauss–Seidel / SOR (ω = 1.4) | CSR, DIA (banded) or dense |
//!
//! A solve has two steps: [`NamedSolver::prepare`] builds the solver's input from M (as read,
//! in coordinate form) and q — validation, storage choice, settings — and the returned
//! [`PreparedSolve::solve`] runs the method (repeatable; what a benchmark times).
//!
//! One success rule for the iterative methods: ‖min(z, Mz + q)‖∞ ≤ tol · max(1, ‖q‖₂) (the
//! LCP benchmark's verification rule), as the absolute natural-residual test of
//! [`StoppingCriteria`](crate::iterative::StoppingCriteria). The pivoting methods certify their
//! own answers and ignore `tol`. Every outcome carries a coarse [`SolverStatus`] (the
//! benchmark's four outcomes) beside the solver's own status name and path.
//!
//! ```
//! use proxima_lcp::io::CooMatrix;
//! use proxima_lcp::registry::{self, SolverSettings, SolverStatus};
//!
//! let m = CooMatrix::new(2, 2, vec![(0, 0, 2.0), (0, 1, 1.0), (1, 0, 1.0), (1, 1, 2.0)]).unwrap();
//! let q = [-1.0, -1.0];
//! let settings = SolverSettings::default().with_tol(1e-10);
//! settings.validate()?;
//! let pgs = registry::find("pgs").expect("a registered name");
//! let outcome = pgs.prepare(&m, &q, &settings)?.solve();
//! assert_eq!(outcome.status, SolverStatus::Converged);
//! assert!((outcome.z[0] - 1.0 / 3.0).abs() < 1e-9);
//! # Ok::<(), proxima_lcp::LcpError>(())
//! ```

mod newton;
mod pivoting;
mod splitting;

use crate::LcpStatus;
use crate::error::LcpError;
use crate::generate::ProblemMatrix;
use crate::io::CooMatrix;
use crate::iterative::IterativeStatus;
use crate::operator::{CsrMatrix, LinearOperator};

pub use newton::{NEWTON_DIRECT_SPARSE_LIMIT, newton_settings};
pub use splitting::splitting_settings;

/// Settings every named solver reads.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct SolverSettings {
    /// Convergence tolerance of the iterative methods: success means
    /// ‖min(z, Mz + q)‖∞ ≤ tol · max(1, ‖q‖₂). Default 1e-9. Finite and > 0.
    pub tol: f64,
    /// Iteration / pivot limit; `None` (default) = the method's own. At least 1.
    pub max_iter: Option<usize>,
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self { tol: 1e-9, max_iter: None }
    }
}

impl SolverSettings {
    /// With this [`SolverSettings::tol`].
    #[must_use]
    pub fn with_tol(mut self, tol: f64) -> Self {
        self.tol = tol;
        self
    }

    /// With this [`SolverSettings::max_iter`].
    #[must_use]
    pub fn with_max_iter(mut self, max_iter: Option<usize>) -> Self {
        self.max_iter = max_iter;
        self
    }

    /// Checks every field.
    ///
    /// # Errors
    ///
    /// [`LcpError::InvalidSettings`] naming the field (`tol`, `max_iter`).
    pub fn validate(&self) -> Result<(), LcpError> {
        if !(self.tol.is_finite() && self.tol > 0.0) {
            return Err(LcpError::InvalidSettings { field: "tol", reason: "must be finite and > 0" });
        }
        if self.max_iter == Some(0) {
            return Err(LcpError::InvalidSettings { field: "max_iter", reason: "must be >= 1" });
        }
        Ok(())
    }
}

/// How a named solve ended, in the four outcomes of the LCP benchmark contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SolverStatus {
    /// The solver claims success.
    Converged,
    /// Stopped at its iteration limit.
    MaxIterations,
    /// Any other failure (breakdown, refused input).
    Failed,
    /// The solver proves or claims there is no solution.
    NoSolution,
}

impl SolverStatus {
    /// Every status, in the order of [`SolverStatus::as_str`]'s list.
    pub const ALL: [SolverStatus; 4] = [
        SolverStatus::Converged,
        SolverStatus::MaxIterations,
        SolverStatus::Failed,
        SolverStatus::NoSolution,
    ];

    /// The benchmark contract's name: `"converged"`, `"max_iter"`, `"failed"`, `"no_solution"`.
    pub fn as_str(self) -> &'static str {
        match self {
            SolverStatus::Converged => "converged",
            SolverStatus::MaxIterations => "max_iter",
            SolverStatus::Failed => "failed",
            SolverStatus::NoSolution => "no_solution",
        }
    }

    /// The mapping of LCP statuses: Solved/Trivial → converged, NoSolution → no_solution,
    /// MaxIterations → max_iter, anything else → failed.
    pub fn from_lcp(status: LcpStatus) -> Self {
        match status {
            LcpStatus::Solved | LcpStatus::Trivial => SolverStatus::Converged,
            LcpStatus::NoSolution => SolverStatus::NoSolution,
            LcpStatus::MaxIterations => SolverStatus::MaxIterations,
            _ => SolverStatus::Failed,
        }
    }

    /// The mapping of iterative statuses: only `ConvergedAbsolute` is `converged`;
    /// `MaxIterations` → max_iter; every other stop (relative, stagnation, non-descent, local
    /// minimum, numerical failure) → failed.
    pub fn from_iterative(status: IterativeStatus) -> Self {
        match status {
            IterativeStatus::ConvergedAbsolute => SolverStatus::Converged,
            IterativeStatus::MaxIterations => SolverStatus::MaxIterations,
            _ => SolverStatus::Failed,
        }
    }
}

/// What one solve returned.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveOutcome {
    /// The coarse status.
    pub status: SolverStatus,
    /// Iterations or pivots.
    pub iterations: Option<u64>,
    /// The returned z (empty when the solver refused the input).
    pub z: Vec<f64>,
    /// The solver's own status name (e.g. `"trivial"`, `"converged_absolute"`).
    pub info: Option<String>,
    /// The algorithmic path (e.g. `"lemke"`, `"baraff(refactorizations=2)"`).
    pub path: Option<String>,
    /// Why the solver refused the input, when it did (status [`SolverStatus::Failed`]).
    pub error: Option<String>,
}

impl SolveOutcome {
    /// The outcome of a solver that rejected its input.
    fn refused(e: LcpError) -> Self {
        SolveOutcome {
            status: SolverStatus::Failed,
            iterations: None,
            z: Vec::new(),
            info: None,
            path: None,
            error: Some(e.to_string()),
        }
    }
}

/// A solver ready to run: owns its input; `solve` may be called repeatedly.
pub trait PreparedSolve: Send {
    /// One solve.
    fn solve(&mut self) -> SolveOutcome;
}

/// A solver known by name.
pub trait NamedSolver: Sync {
    /// The name (`"lemke"`, `"pgs"`...).
    fn name(&self) -> &'static str;
    /// One line for listings.
    fn description(&self) -> &'static str;
    /// Builds the solver's input from M (coordinate form, as read) and q.
    ///
    /// # Errors
    ///
    /// [`LcpError`] for a non-square M, q of the wrong length, non-finite entries or invalid
    /// settings.
    fn prepare(
        &self,
        m: &CooMatrix<f64>,
        q: &[f64],
        settings: &SolverSettings,
    ) -> Result<Box<dyn PreparedSolve>, LcpError>;
}

/// Every named solver.
pub static REGISTRY: &[&dyn NamedSolver] = &[
    &pivoting::Lemke,
    &pivoting::Baraff,
    &newton::Newton { kind: newton::NewtonKind::MinMap },
    &newton::Newton { kind: newton::NewtonKind::Fischer },
    &splitting::Splitting { method: crate::iterative::SplittingMethod::Jacobi },
    &splitting::Splitting { method: crate::iterative::SplittingMethod::Pgs },
    &splitting::Splitting { method: crate::iterative::SplittingMethod::Psor { omega: 1.4 } },
];

/// The solver called `name`.
pub fn find(name: &str) -> Option<&'static dyn NamedSolver> {
    REGISTRY.iter().copied().find(|s| s.name() == name)
}

/// The known names with their descriptions, on one line: `lemke (...); baraff (...); ...`.
pub fn known_described() -> String {
    REGISTRY.iter().map(|s| format!("{} ({})", s.name(), s.description())).collect::<Vec<_>>().join("; ")
}

/// M as read, for the iterative methods: CSR when at most a quarter of the entries are
/// stored, dense otherwise.
///
/// # Errors
///
/// [`LcpError::NotSquare`], or what [`CsrMatrix::from_coo`] rejects (non-finite entries).
pub fn operator_from_coo(m: &CooMatrix<f64>) -> Result<ProblemMatrix, LcpError> {
    let n = m.nrows();
    let csr = CsrMatrix::from_coo(m)?;
    if csr.nnz().saturating_mul(4) <= n.saturating_mul(n) {
        Ok(ProblemMatrix::Sparse(csr))
    } else {
        Ok(ProblemMatrix::Dense(csr.to_dense()))
    }
}

/// The success rule ‖min(z, w)‖∞ ≤ tol·max(1, ‖q‖₂) as the absolute tolerance of a
/// natural-residual test ([`AbsoluteTest::NaturalResidual`](crate::iterative::AbsoluteTest)).
pub fn natural_tolerance(tol: f64, q: &[f64]) -> f64 {
    tol * q.iter().map(|v| v * v).sum::<f64>().sqrt().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_mapping() {
        assert_eq!(SolverStatus::from_lcp(LcpStatus::Solved).as_str(), "converged");
        assert_eq!(SolverStatus::from_lcp(LcpStatus::Trivial).as_str(), "converged");
        assert_eq!(SolverStatus::from_lcp(LcpStatus::NoSolution).as_str(), "no_solution");
        assert_eq!(SolverStatus::from_lcp(LcpStatus::MaxIterations).as_str(), "max_iter");
        assert_eq!(SolverStatus::from_lcp(LcpStatus::NumericalFailure).as_str(), "failed");
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

    #[test]
    fn settings_are_validated() {
        assert!(SolverSettings::default().validate().is_ok());
        for bad in [SolverSettings::default().with_tol(0.0), SolverSettings::default().with_tol(f64::NAN)] {
            assert!(matches!(bad.validate(), Err(LcpError::InvalidSettings { field: "tol", .. })));
        }
        let zero = SolverSettings::default().with_max_iter(Some(0));
        assert!(matches!(zero.validate(), Err(LcpError::InvalidSettings { field: "max_iter", .. })));
    }

    /// Every registered solver on one small symmetric PD LCP (truth by hand: z = (1/3, 1/3)
    /// solves 2z₁ + z₂ = 1, z₁ + 2z₂ = 1 with w = 0), and a non-square M refused in prepare.
    #[test]
    fn every_solver_solves_a_small_pd_problem() {
        let m = CooMatrix::new(2, 2, vec![(0, 0, 2.0), (0, 1, 1.0), (1, 0, 1.0), (1, 1, 2.0)]).unwrap();
        let settings = SolverSettings::default().with_tol(1e-12);
        for s in REGISTRY {
            let out = s.prepare(&m, &[-1.0, -1.0], &settings).unwrap().solve();
            assert_eq!(out.status, SolverStatus::Converged, "{}: {out:?}", s.name());
            assert!(out.z.iter().all(|z| (z - 1.0 / 3.0).abs() < 1e-9), "{}: {out:?}", s.name());
        }
        let wide = CooMatrix::new(2, 3, vec![(0, 0, 1.0)]).unwrap();
        for s in REGISTRY {
            assert!(s.prepare(&wide, &[1.0, 1.0], &settings).is_err(), "{}", s.name());
        }
    }
}
