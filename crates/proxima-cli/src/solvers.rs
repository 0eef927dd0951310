//! The solvers `bench-lcp` can run, by name.
//!
//! A solver plugs in by implementing [`BenchSolver`] and adding itself to [`REGISTRY`]:
//! `prepare` builds its input from the matrix as read (outside the timed region), and the
//! returned [`PreparedSolve::solve`] is the timed call.

use proxima_lcp::baraff::{BaraffSettings, solve_baraff};
use proxima_lcp::generate::ProblemMatrix;
use proxima_lcp::io::{CooMatrix, ReadLimits, lcp_from_coo};
use proxima_lcp::iterative::{
    AbsoluteTest, FischerSettings, IterativeSolution, IterativeStatus, NewtonSettings, SplittingMethod,
    SplittingSettings, StoppingCriteria, SubSolver, solve_fischer_newton, solve_minmap_newton,
    solve_splitting,
};
use proxima_lcp::operator::{CsrMatrix, DenseMatrix, LinearOperator, RowAccess};
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

    /// The mapping of iterative statuses: only `ConvergedAbsolute` is `converged`;
    /// `MaxIterations` → max_iter; every other stop (relative, stagnation, non-descent, local
    /// minimum, numerical failure) → failed.
    pub fn from_iterative(status: IterativeStatus) -> Self {
        match status {
            IterativeStatus::ConvergedAbsolute => BenchStatus::Converged,
            IterativeStatus::MaxIterations => BenchStatus::MaxIter,
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
pub static REGISTRY: &[&dyn BenchSolver] = &[
    &Lemke,
    &Baraff,
    &Newton { kind: NewtonKind::MinMap },
    &Newton { kind: NewtonKind::Fischer },
    &Splitting { method: SplittingMethod::Jacobi },
    &Splitting { method: SplittingMethod::Pgs },
    &Splitting { method: SplittingMethod::Psor { omega: 1.4 } },
];

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
            Err(e) => refused(e),
        }
    }
}

fn refused(e: impl ToString) -> SolveOutcome {
    SolveOutcome {
        status: BenchStatus::Failed,
        iterations: None,
        z: Vec::new(),
        info: None,
        path: None,
        error: Some(e.to_string()),
    }
}

/// The matrix as read: CSR when at most a quarter of the entries are stored, dense otherwise.
pub type Operator = ProblemMatrix;

/// Converts the matrix as read (validation: square, finite) to an [`Operator`].
pub fn operator_from_coo(m: &CooMatrix<f64>) -> Result<Operator, String> {
    if m.nrows() != m.ncols() {
        return Err(format!("matrix is not square: {} x {}", m.nrows(), m.ncols()));
    }
    let n = m.nrows();
    let csr = CsrMatrix::from_coo(m).map_err(|e| e.to_string())?;
    if csr.nnz().saturating_mul(4) <= n.saturating_mul(n) {
        Ok(ProblemMatrix::Sparse(csr))
    } else {
        Ok(ProblemMatrix::Dense(csr.to_dense()))
    }
}

/// The harness's success rule ‖min(z, w)‖∞ ≤ tol·max(1, ‖q‖₂) as the absolute tolerance of
/// a natural-residual test ([`AbsoluteTest::NaturalResidual`]).
pub fn natural_tolerance(tol: f64, q: &[f64]) -> f64 {
    tol * q.iter().map(|v| v * v).sum::<f64>().sqrt().max(1.0)
}

fn iterative_outcome(sol: IterativeSolution, path: &str) -> SolveOutcome {
    SolveOutcome {
        status: BenchStatus::from_iterative(sol.status),
        iterations: Some(sol.iterations as u64),
        z: sol.z,
        info: Some(sol.status.as_str().to_string()),
        path: Some(path.to_string()),
        error: None,
    }
}

/// Baraff–Dantzig incremental pivoting on the assembled matrix.
struct Baraff;

struct PreparedBaraff {
    a: DenseMatrix,
    q: Vec<f64>,
    settings: BaraffSettings,
}

impl BenchSolver for Baraff {
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
        opts: &BenchOptions,
    ) -> Result<Box<dyn PreparedSolve>, String> {
        let a = operator_from_coo(m)?.to_dense();
        let settings = BaraffSettings { max_pivots: opts.max_iter, ..BaraffSettings::default() };
        settings.validate().map_err(|e| e.to_string())?;
        Ok(Box::new(PreparedBaraff { a, q: q.to_vec(), settings }))
    }
}

impl PreparedSolve for PreparedBaraff {
    fn solve(&mut self) -> SolveOutcome {
        match solve_baraff(&self.a, &self.q, &self.settings) {
            Ok(sol) => SolveOutcome {
                status: BenchStatus::from_lcp(sol.status),
                iterations: Some(sol.pivots as u64),
                z: sol.z,
                info: Some(sol.status.as_str().to_string()),
                path: Some(format!("baraff(refactorizations={})", sol.refactorizations)),
                error: None,
            },
            Err(e) => refused(e),
        }
    }
}

/// Which Newton method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewtonKind {
    /// Minimum-map Newton.
    MinMap,
    /// Fischer–Newton (perturbation strategy).
    Fischer,
}

/// A Newton method with the sub-solver [`newton_settings`] picks for the problem.
struct Newton {
    kind: NewtonKind,
}

struct PreparedNewton {
    a: Operator,
    q: Vec<f64>,
    kind: NewtonKind,
    settings: NewtonSettings,
}

/// Largest sparse non-symmetric problem the CLI's Newton methods solve with direct (dense LU)
/// steps: beyond it the dense copy (8n² bytes) and the O(n³) factorisations outgrow GMRES.
pub const NEWTON_DIRECT_SPARSE_LIMIT: usize = 1000;

/// The Newton settings the CLI uses for a problem: spec defaults, the harness rule as a
/// natural-residual absolute test, and the sub-solver by structure — direct (reduced dense LU)
/// for dense A and for sparse non-symmetric A up to [`NEWTON_DIRECT_SPARSE_LIMIT`] (contact
/// matrices with their zero diagonal blocks, where restarted GMRES stalls), GMRES otherwise
/// (sparse symmetric A: well conditioned and matrix-free).
pub fn newton_settings(a: &Operator, q: &[f64], tol: f64, max_iter: Option<usize>) -> NewtonSettings {
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

impl BenchSolver for Newton {
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
        opts: &BenchOptions,
    ) -> Result<Box<dyn PreparedSolve>, String> {
        let a = operator_from_coo(m)?;
        let settings = newton_settings(&a, q, opts.tol, opts.max_iter);
        settings.validate().map_err(|e| e.to_string())?;
        Ok(Box::new(PreparedNewton { a, q: q.to_vec(), kind: self.kind, settings }))
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
            Err(e) => refused(e),
        }
    }
}

/// Projected Jacobi, PGS or PSOR(ω = 1.4) on the matrix as read (CSR or dense), or on its
/// diagonal storage when it is banded (see [`SplitOp::prepare`]).
struct Splitting {
    method: SplittingMethod,
}

struct PreparedSplitting {
    a: SplitOp,
    q: Vec<f64>,
    settings: SplittingSettings,
}

/// The matrix a splitting method sweeps: as read, or in DIA storage.
enum SplitOp {
    Matrix(Operator),
    Dia(proxima_lcp::operator::DiaMatrix),
}

impl SplitOp {
    /// At most this many diagonals (a 3D 7-point stencil has 7) for the DIA route.
    const MAX_DIAGONALS: usize = 9;

    /// The least [`DiaMatrix::lower_reach`](proxima_lcp::operator::DiaMatrix::lower_reach)
    /// for the DIA route: grids (reach = grid width) sweep 2× faster in DIA, the banded
    /// Fluid(G) (offsets ±1, ±2, ±3: reach 2) 1.3× slower, so it stays CSR.
    const MIN_LOWER_REACH: usize = 8;

    /// DIA storage when the sparse matrix has at most [`Self::MAX_DIAGONALS`] diagonals,
    /// their padding is small — stored ≤ nnz + nnz/4 + 32 per diagonal, so the sweep streams
    /// fewer bytes than CSR (8 per stored value against 12 per entry plus row pointers) — and
    /// the rows read no near predecessor but x_{i−1} ([`Self::MIN_LOWER_REACH`]); the matrix as
    /// read otherwise. Same iteration, iterates equal up to rounding.
    fn prepare(a: Operator) -> SplitOp {
        if let ProblemMatrix::Sparse(csr) = &a
            && let Some(d) = proxima_lcp::operator::DiaMatrix::from_csr(csr, Self::MAX_DIAGONALS)
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

    fn solve(
        &self,
        q: &[f64],
        settings: &SplittingSettings,
    ) -> Result<IterativeSolution, proxima_lcp::LcpError> {
        match self {
            SplitOp::Matrix(a) => solve_splitting(a, q, None, settings),
            SplitOp::Dia(d) => solve_splitting(d, q, None, settings),
        }
    }
}

/// The splitting settings the CLI uses: the absolute test on the natural residual
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

impl BenchSolver for Splitting {
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
        opts: &BenchOptions,
    ) -> Result<Box<dyn PreparedSolve>, String> {
        let a = SplitOp::prepare(operator_from_coo(m)?);
        let settings = splitting_settings(self.method, q, opts.tol, opts.max_iter);
        settings.validate().map_err(|e| e.to_string())?;
        Ok(Box::new(PreparedSplitting { a, q: q.to_vec(), settings }))
    }
}

impl PreparedSolve for PreparedSplitting {
    fn solve(&mut self) -> SolveOutcome {
        match self.a.solve(&self.q, &self.settings) {
            Ok(sol) => iterative_outcome(sol, self.settings.method.name()),
            Err(e) => refused(e),
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
