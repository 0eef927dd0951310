//! The Newton methods by name: minimum-map Newton and Fischer–Newton, with the sub-solver
//! chosen by the matrix's structure.

use super::{
    NamedSolver, PreparedSolve, SolveOutcome, SolverSettings, SolverStatus, natural_tolerance,
    operator_from_coo,
};
use crate::error::LcpError;
use crate::generate::ProblemMatrix;
use crate::io::CooMatrix;
use crate::iterative::{
    AbsoluteTest, FischerSettings, IterativeSolution, NewtonSettings, SubSolver, solve_fischer_newton,
    solve_minmap_newton,
};
use crate::operator::RowAccess;

/// Which Newton method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NewtonKind {
    /// Minimum-map Newton.
    MinMap,
    /// Fischer–Newton (perturbation strategy).
    Fischer,
}

/// A Newton method with the sub-solver [`newton_settings`] picks for the problem.
pub(super) struct Newton {
    pub(super) kind: NewtonKind,
}

struct PreparedNewton {
    a: ProblemMatrix,
    q: Vec<f64>,
    kind: NewtonKind,
    settings: NewtonSettings,
}

/// Largest sparse non-symmetric problem the named Newton methods solve with direct (dense LU)
/// steps: beyond it the dense copy (8n² bytes) and the O(n³) factorisations outgrow GMRES.
pub const NEWTON_DIRECT_SPARSE_LIMIT: usize = 1000;

/// The Newton settings of the named methods for a problem: spec defaults, the success rule as
/// a natural-residual absolute test, and the sub-solver by structure — direct (reduced dense
/// LU) for dense A and for sparse non-symmetric A up to [`NEWTON_DIRECT_SPARSE_LIMIT`]
/// (contact matrices with their zero diagonal blocks, where restarted GMRES stalls), GMRES
/// otherwise (sparse symmetric A: well conditioned and matrix-free).
pub fn newton_settings(a: &ProblemMatrix, q: &[f64], tol: f64, max_iter: Option<usize>) -> NewtonSettings {
    let mut s = NewtonSettings { absolute_test: AbsoluteTest::NaturalResidual, ..NewtonSettings::default() };
    s.stopping.absolute = natural_tolerance(tol, q);
    if let Some(k) = max_iter {
        s.stopping.max_iterations = k;
    }
    s.assume_symmetric = a.is_symmetric();
    s.sub_solver = match a {
        ProblemMatrix::Dense(_) => SubSolver::Direct,
        ProblemMatrix::Sparse(m) if !s.assume_symmetric && m.n() <= NEWTON_DIRECT_SPARSE_LIMIT => {
            SubSolver::Direct
        }
        ProblemMatrix::Sparse(_) => SubSolver::Gmres { restart: None, max_iterations: None },
    };
    s
}

/// The outcome of an iterative solve, named `path`.
pub(super) fn iterative_outcome(sol: IterativeSolution, path: &str) -> SolveOutcome {
    SolveOutcome {
        status: SolverStatus::from_iterative(sol.status),
        iterations: Some(sol.iterations as u64),
        z: sol.z,
        info: Some(sol.status.as_str().to_string()),
        path: Some(path.to_string()),
        error: None,
    }
}

impl NamedSolver for Newton {
    fn name(&self) -> &'static str {
        match self.kind {
            NewtonKind::MinMap => "minmap-newton",
            NewtonKind::Fischer => "fischer-newton",
        }
    }
    fn description(&self) -> &'static str {
        match self.kind {
            NewtonKind::MinMap => "minimum-map Newton, projected Armijo search (direct or GMRES sub-solves)",
            NewtonKind::Fischer => "Fischer-Newton, perturbation strategy, projected Armijo search",
        }
    }
    fn prepare(
        &self,
        m: &CooMatrix<f64>,
        q: &[f64],
        settings: &SolverSettings,
    ) -> Result<Box<dyn PreparedSolve>, LcpError> {
        settings.validate()?;
        let a = operator_from_coo(m)?;
        let newton = newton_settings(&a, q, settings.tol, settings.max_iter);
        newton.validate()?;
        Ok(Box::new(PreparedNewton { a, q: q.to_vec(), kind: self.kind, settings: newton }))
    }
}

impl PreparedSolve for PreparedNewton {
    fn solve(&mut self) -> SolveOutcome {
        let a = &self.a;
        let r = match self.kind {
            NewtonKind::MinMap => solve_minmap_newton(a, &self.q, None, &self.settings),
            NewtonKind::Fischer => {
                let fs = FischerSettings { newton: self.settings, ..FischerSettings::default() };
                solve_fischer_newton(a, &self.q, None, &fs)
            }
        };
        match r {
            Ok(sol) => iterative_outcome(
                sol,
                if self.kind == NewtonKind::MinMap { "minmap-newton" } else { "fischer-newton" },
            ),
            Err(e) => SolveOutcome::refused(e),
        }
    }
}
