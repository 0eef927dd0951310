//! The pivoting methods by name: Lemke (dense, certified fallbacks) and Baraff–Dantzig.

use super::{NamedSolver, PreparedSolve, SolveOutcome, SolverSettings, SolverStatus, operator_from_coo};
use crate::baraff::{BaraffSettings, solve_baraff};
use crate::error::LcpError;
use crate::io::CooMatrix;
use crate::operator::{DenseMatrix, LinearOperator};
use crate::{Lcp, LcpStatus, LemkeSettings, solve_lemke};

/// The outcome of a pivoting run: its status, pivots, z and path.
fn pivoting_outcome(status: LcpStatus, pivots: usize, z: Vec<f64>, path: String) -> SolveOutcome {
    SolveOutcome {
        status: SolverStatus::from_lcp(status),
        iterations: Some(pivots as u64),
        z,
        info: Some(status.as_str().to_string()),
        path: Some(path),
        error: None,
    }
}

/// Lemke's method on the dense M (default fallbacks; `max_iter` = pivot limit).
pub(super) struct Lemke;

struct PreparedLemke {
    lcp: Lcp<f64>,
    settings: LemkeSettings,
}

impl NamedSolver for Lemke {
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
        settings: &SolverSettings,
    ) -> Result<Box<dyn PreparedSolve>, LcpError> {
        settings.validate()?;
        if m.nrows() != m.ncols() {
            return Err(LcpError::NotSquare { rows: m.nrows(), cols: m.ncols() });
        }
        let dense =
            m.to_dense().ok_or_else(|| LcpError::InvalidProblem { reason: "M is too large".into() })?;
        let lcp = Lcp::new(dense, q.to_vec())?;
        let lemke = LemkeSettings { max_pivots: settings.max_iter, ..LemkeSettings::default() };
        lemke.validate(lcp.n())?;
        Ok(Box::new(PreparedLemke { lcp, settings: lemke }))
    }
}

impl PreparedSolve for PreparedLemke {
    fn solve(&mut self) -> SolveOutcome {
        match solve_lemke(&self.lcp, &self.settings) {
            Ok(sol) => pivoting_outcome(sol.status, sol.pivots, sol.z, sol.path.to_string()),
            Err(e) => SolveOutcome::refused(e),
        }
    }
}

/// Baraff–Dantzig incremental pivoting on the assembled matrix.
pub(super) struct Baraff;

struct PreparedBaraff {
    a: DenseMatrix,
    q: Vec<f64>,
    settings: BaraffSettings,
}

impl NamedSolver for Baraff {
    fn name(&self) -> &'static str {
        "baraff"
    }
    fn description(&self) -> &'static str {
        "Baraff/Dantzig incremental pivoting with an incrementally updated factorization (dense)"
    }
    fn prepare(
        &self,
        m: &CooMatrix<f64>,
        q: &[f64],
        settings: &SolverSettings,
    ) -> Result<Box<dyn PreparedSolve>, LcpError> {
        settings.validate()?;
        let a = operator_from_coo(m)?.to_dense();
        let baraff = BaraffSettings { max_pivots: settings.max_iter, ..BaraffSettings::default() };
        baraff.validate()?;
        Ok(Box::new(PreparedBaraff { a, q: q.to_vec(), settings: baraff }))
    }
}

impl PreparedSolve for PreparedBaraff {
    fn solve(&mut self) -> SolveOutcome {
        match solve_baraff(&self.a, &self.q, &self.settings) {
            Ok(sol) => {
                let path = format!("baraff(refactorizations={})", sol.refactorizations);
                pivoting_outcome(sol.status, sol.pivots, sol.z, path)
            }
            Err(e) => SolveOutcome::refused(e),
        }
    }
}
