//! The splitting methods by name: projected Jacobi, PGS and PSOR (ω = 1.4), sweeping M as read
//! (CSR or dense) or in diagonal storage when it is banded.

use super::newton::iterative_outcome;
use super::{NamedSolver, PreparedSolve, SolveOutcome, SolverSettings, natural_tolerance, operator_from_coo};
use crate::error::LcpError;
use crate::generate::ProblemMatrix;
use crate::io::CooMatrix;
use crate::iterative::{
    AbsoluteTest, IterativeSolution, SplittingMethod, SplittingSettings, StoppingCriteria, solve_splitting,
};
use crate::operator::DiaMatrix;

/// Projected Jacobi, PGS or PSOR(ω = 1.4) on the matrix as read (CSR or dense), or on its
/// diagonal storage when it is banded (see [`SplitOp::prepare`]).
pub(super) struct Splitting {
    pub(super) method: SplittingMethod,
}

struct PreparedSplitting {
    a: SplitOp,
    q: Vec<f64>,
    settings: SplittingSettings,
}

/// The matrix a splitting method sweeps: as read, or in DIA storage.
enum SplitOp {
    Matrix(ProblemMatrix),
    Dia(DiaMatrix),
}

impl SplitOp {
    /// At most this many diagonals (a 3D 7-point stencil has 7) for the DIA route.
    const MAX_DIAGONALS: usize = 9;

    /// The least [`DiaMatrix::lower_reach`](DiaMatrix::lower_reach)
    /// for the DIA route: grids (reach = grid width) sweep 2× faster in DIA, the banded
    /// Fluid(G) (offsets ±1, ±2, ±3: reach 2) 1.3× slower, so it stays CSR.
    const MIN_LOWER_REACH: usize = 8;

    /// DIA storage when the sparse matrix has at most [`Self::MAX_DIAGONALS`] diagonals,
    /// their padding is small — stored ≤ nnz + nnz/4 + 32 per diagonal, so the sweep streams
    /// fewer bytes than CSR (8 per stored value against 12 per entry plus row pointers) — and
    /// the rows read no near predecessor but x_{i−1} ([`Self::MIN_LOWER_REACH`]); the matrix as
    /// read otherwise. Same iteration, iterates equal up to rounding.
    fn prepare(a: ProblemMatrix) -> SplitOp {
        if let ProblemMatrix::Sparse(csr) = &a
            && let Some(d) = DiaMatrix::from_csr(csr, Self::MAX_DIAGONALS)
        {
            let nnz = csr.nnz();
            if d.stored() <= nnz + nnz / 4 + 32 * d.offsets().len()
                && d.lower_reach() >= Self::MIN_LOWER_REACH
            {
                return SplitOp::Dia(d);
            }
        }
        SplitOp::Matrix(a)
    }

    fn solve(&self, q: &[f64], settings: &SplittingSettings) -> Result<IterativeSolution, LcpError> {
        match self {
            SplitOp::Matrix(a) => solve_splitting(a, q, None, settings),
            SplitOp::Dia(d) => solve_splitting(d, q, None, settings),
        }
    }
}

/// The splitting settings of the named methods: the absolute test on the natural residual
/// ‖min(x, y)‖∞ < tol·max(1, ‖q‖₂) — exactly the harness's verification rule.
pub fn splitting_settings(
    method: SplittingMethod,
    q: &[f64],
    tol: f64,
    max_iter: Option<usize>,
) -> SplittingSettings {
    let mut stopping =
        StoppingCriteria { absolute: natural_tolerance(tol, q), ..StoppingCriteria::default() };
    if let Some(k) = max_iter {
        stopping.max_iterations = k;
    }
    SplittingSettings { method, stopping, absolute_test: AbsoluteTest::NaturalResidual }
}

impl NamedSolver for Splitting {
    fn name(&self) -> &'static str {
        self.method.name()
    }
    fn description(&self) -> &'static str {
        match self.method {
            SplittingMethod::Jacobi => "projected Jacobi (CSR, DIA or dense)",
            SplittingMethod::Pgs => "projected Gauss-Seidel (CSR, DIA or dense)",
            _ => "projected SOR, relaxation 1.4 (CSR, DIA or dense)",
        }
    }
    fn prepare(
        &self,
        m: &CooMatrix<f64>,
        q: &[f64],
        settings: &SolverSettings,
    ) -> Result<Box<dyn PreparedSolve>, LcpError> {
        settings.validate()?;
        let a = SplitOp::prepare(operator_from_coo(m)?);
        let splitting = splitting_settings(self.method, q, settings.tol, settings.max_iter);
        splitting.validate()?;
        Ok(Box::new(PreparedSplitting { a, q: q.to_vec(), settings: splitting }))
    }
}

impl PreparedSolve for PreparedSplitting {
    fn solve(&mut self) -> SolveOutcome {
        match self.a.solve(&self.q, &self.settings) {
            Ok(sol) => iterative_outcome(sol, self.settings.method.name()),
            Err(e) => SolveOutcome::refused(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operator::CsrMatrix;

    /// The splitting route: banded sparse matrices sweep in DIA storage, other matrices as
    /// read, and both routes take the same iterations to the same answer (up to rounding).
    #[test]
    fn splitting_routes_banded_matrices_to_dia() {
        // A 24 × 24 grid Poisson matrix (5-point, Dirichlet) and a right-hand side of both signs.
        let m = 24;
        let grid = CsrMatrix::from_rows(
            m * m,
            (0..m * m).map(|i| {
                let (c, r) = (i % m, i / m);
                let mut row = vec![(i, 4.0)];
                row.extend((c > 0).then(|| (i - 1, -1.0)));
                row.extend((c + 1 < m).then(|| (i + 1, -1.0)));
                row.extend((r > 0).then(|| (i - m, -1.0)));
                row.extend((r + 1 < m).then(|| (i + m, -1.0)));
                row
            }),
        )
        .unwrap();
        let b: Vec<f64> = (0..m * m).map(|i| (i as f64 * 0.37).sin()).collect();
        let a = operator_from_coo(&grid.to_coo()).unwrap();
        let routed = SplitOp::prepare(a.clone());
        assert!(matches!(routed, SplitOp::Dia(_)));
        let as_read = SplitOp::Matrix(a);
        for method in [SplittingMethod::Pgs, SplittingMethod::Psor { omega: 1.4 }, SplittingMethod::Jacobi] {
            let settings = splitting_settings(method, &b, 1e-9, Some(20_000));
            let (dia, csr) = (routed.solve(&b, &settings).unwrap(), as_read.solve(&b, &settings).unwrap());
            assert_eq!((dia.status, dia.iterations), (csr.status, csr.iterations), "{method:?}");
            assert!(dia.z.iter().zip(&csr.z).all(|(u, v)| (u - v).abs() < 1e-9));
        }
        // Fluid(G)'s bands ±1, ±2, ±3 (reach 2) stay CSR.
        let banded = CsrMatrix::from_rows(
            64,
            (0..64usize).map(|i| {
                (i.saturating_sub(3)..(i + 4).min(64)).map(move |j| (j, if i == j { 4.0 } else { -0.5 }))
            }),
        )
        .unwrap();
        assert!(matches!(SplitOp::prepare(operator_from_coo(&banded.to_coo()).unwrap()), SplitOp::Matrix(_)));
        // Many diagonals (an arrow matrix: row 0 and column 0 full) stay CSR; dense stays dense.
        let n = 40;
        let arrow = CsrMatrix::from_rows(
            n,
            (0..n).map(|i| {
                let mut row = vec![(i, 4.0)];
                if i > 0 {
                    row.extend([(0, -0.05), (i - 1, -1.0)]);
                } else {
                    row.extend((1..n).map(|j| (j, -0.05)));
                }
                row
            }),
        )
        .unwrap();
        assert!(matches!(SplitOp::prepare(operator_from_coo(&arrow.to_coo()).unwrap()), SplitOp::Matrix(_)));
        let dense =
            CsrMatrix::from_rows(2, vec![vec![(0, 2.0), (1, 1.0)], vec![(0, 1.0), (1, 2.0)]]).unwrap();
        assert!(matches!(
            SplitOp::prepare(operator_from_coo(&dense.to_coo()).unwrap()),
            SplitOp::Matrix(ProblemMatrix::Dense(_))
        ));
    }
}
