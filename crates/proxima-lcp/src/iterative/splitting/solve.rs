//! Settings, input checks and the iteration driver shared by Jacobi, PGS, PSOR and QP-PGS.

use super::kernel::{infeasibility, inverse_diagonal, jacobi_step, merit_106, projected_sweep, qp_objective};
use crate::error::LcpError;
use crate::iterative::{IterativeSolution, IterativeStatus, StoppingCriteria, lcp_residual_f64};
use crate::operator::RowAccess;

/// Which splitting (spec §3.3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SplittingMethod {
    /// Projected Jacobi: every component from the previous iterate.
    Jacobi,
    /// Projected Gauss–Seidel (ω = 1).
    Pgs,
    /// Projected SOR with relaxation ω ∈ (0, 2] (the notes' λ; spec's best ≈ 1.4).
    Psor {
        /// ω.
        omega: f64,
    },
}

impl SplittingMethod {
    /// The method named `"jacobi"`, `"pgs"` or `"psor"` (the CLI / bench names); `omega` is
    /// used by `"psor"` only (validated when solving). Unknown names are `InvalidSettings`.
    pub fn from_name(name: &str, omega: f64) -> Result<Self, LcpError> {
        match name {
            "jacobi" => Ok(SplittingMethod::Jacobi),
            "pgs" => Ok(SplittingMethod::Pgs),
            "psor" => Ok(SplittingMethod::Psor { omega }),
            _ => Err(LcpError::InvalidSettings { field: "method", reason: "expected jacobi, pgs or psor" }),
        }
    }

    /// `"jacobi"`, `"pgs"` or `"psor"` (the CLI / bench names).
    pub fn name(self) -> &'static str {
        match self {
            SplittingMethod::Jacobi => "jacobi",
            SplittingMethod::Pgs => "pgs",
            SplittingMethod::Psor { .. } => "psor",
        }
    }
}

/// What the absolute test of [`solve_splitting`] (and of the Newton methods,
/// [`NewtonSettings::absolute_test`](crate::iterative::NewtonSettings::absolute_test)) measures
/// against ε_abs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AbsoluteTest {
    /// The spec's: merit (106) θ = xᵀ|y| < ε_abs, and (\[X\]) the infeasibility it cannot
    /// see, max over x_i = 0 of −y_i, < ε_abs. Default (used by the experiments).
    #[default]
    Merit,
    /// The natural residual ‖min(x, y)‖∞ < ε_abs — the measure benchmark harnesses verify,
    /// directly (merit (106) neither bounds it nor is bounded by it).
    NaturalResidual,
}

/// Settings of [`solve_splitting`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SplittingSettings {
    /// The method. Default [`SplittingMethod::Pgs`].
    pub method: SplittingMethod,
    /// Stopping criteria, tested after every sweep on merit (106). Default
    /// [`StoppingCriteria::default`] (1000 sweeps, ε_abs 1e-12, ε_rel 1e-14, ε_stg = machine ε).
    pub stopping: StoppingCriteria,
    /// What the absolute test measures. Default [`AbsoluteTest::Merit`] (the spec's).
    pub absolute_test: AbsoluteTest,
}

impl Default for SplittingSettings {
    fn default() -> Self {
        SplittingSettings {
            method: SplittingMethod::Pgs,
            stopping: StoppingCriteria::default(),
            absolute_test: AbsoluteTest::Merit,
        }
    }
}

impl SplittingSettings {
    /// Projected Jacobi with default stopping criteria.
    pub fn jacobi() -> Self {
        SplittingSettings { method: SplittingMethod::Jacobi, ..Self::default() }
    }

    /// PGS with default stopping criteria.
    pub fn pgs() -> Self {
        Self::default()
    }

    /// PSOR(ω) with default stopping criteria.
    pub fn psor(omega: f64) -> Self {
        SplittingSettings { method: SplittingMethod::Psor { omega }, ..Self::default() }
    }

    /// Returns the same settings with another absolute test.
    pub fn with_absolute_test(mut self, test: AbsoluteTest) -> Self {
        self.absolute_test = test;
        self
    }

    /// Returns the same settings with other stopping criteria.
    pub fn with_stopping(mut self, stopping: StoppingCriteria) -> Self {
        self.stopping = stopping;
        self
    }

    /// Checks ω ∈ (0, 2] and the stopping criteria.
    pub fn validate(&self) -> Result<(), LcpError> {
        if let SplittingMethod::Psor { omega } = self.method {
            check_omega(omega)?;
        }
        self.stopping.validate()
    }
}

/// Settings of [`solve_qp_pgs`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QpPgsSettings {
    /// Relaxation ω ∈ (0, 2] (every component step then decreases f). Default 1.0 (PGS).
    pub omega: f64,
    /// Stopping criteria: relative on f, absolute on (106) plus feasibility, stagnation.
    /// Default [`StoppingCriteria::default`].
    pub stopping: StoppingCriteria,
    /// Check A = Aᵀ before iterating (O(nnz log n)); `false` trusts the caller. Default `true`.
    pub check_symmetry: bool,
}

impl Default for QpPgsSettings {
    fn default() -> Self {
        QpPgsSettings { omega: 1.0, stopping: StoppingCriteria::default(), check_symmetry: true }
    }
}

impl QpPgsSettings {
    /// Checks ω ∈ (0, 2] and the stopping criteria.
    pub fn validate(&self) -> Result<(), LcpError> {
        check_omega(self.omega)?;
        self.stopping.validate()
    }
}

fn check_omega(omega: f64) -> Result<(), LcpError> {
    if omega.is_finite() && omega > 0.0 && omega <= 2.0 {
        Ok(())
    } else {
        Err(LcpError::InvalidSettings { field: "omega", reason: "relaxation must be in (0, 2]" })
    }
}

/// Checks sizes and finiteness; returns the start point max(0, x⁰) (x⁰ = 0 when `None`).
pub(crate) fn start_point(n: usize, b: &[f64], x0: Option<&[f64]>) -> Result<Vec<f64>, LcpError> {
    if n == 0 {
        return Err(LcpError::Empty);
    }
    if b.len() != n {
        return Err(LcpError::DimensionMismatch { what: "b", expected: n, found: b.len() });
    }
    if let Some(index) = b.iter().position(|v| !v.is_finite()) {
        return Err(LcpError::NonFinite { what: "b", index });
    }
    match x0 {
        None => Ok(vec![0.0; n]),
        Some(x0) => {
            if x0.len() != n {
                return Err(LcpError::DimensionMismatch { what: "x0", expected: n, found: x0.len() });
            }
            if let Some(index) = x0.iter().position(|v| !v.is_finite()) {
                return Err(LcpError::NonFinite { what: "x0", index });
            }
            Ok(x0.iter().map(|v| v.max(0.0)).collect())
        }
    }
}

#[derive(Clone, Copy)]
enum Kernel {
    Jacobi,
    Sweep(f64),
}

#[derive(Clone, Copy, PartialEq)]
enum Merit {
    Complementarity,
    QpObjective,
}

/// Solves LCP(A, b) with projected Jacobi, PGS or PSOR (spec §3.3), from x⁰ (projected onto
/// x ≥ 0; `None` = 0).
///
/// Each iteration is one full sweep, then y = A x + b and merit (106) θ = xᵀ|y|, then the
/// spec's tests in order: relative |θ − θ_prev| < ε_rel·θ_prev (skipped after the first sweep),
/// absolute, stagnation max |Δxᵢ| < ε_stg·max(1, ‖x‖∞), iteration limit. **\[X\]** Because (106)
/// ignores x_i = 0 with y_i < 0, `ConvergedAbsolute` also requires
/// max_{x_i = 0} (−y_i) < ε_abs; a NaN/∞ merit ends the run as `NumericalFailure`.
///
/// Errors: n = 0, size mismatches, NaN/∞ in b or x⁰, invalid settings, and a zero,
/// negative or non-finite diagonal entry ([`LcpError::ZeroDiagonal`]).
///
/// Cost per iteration: one sweep (or, for Jacobi, nothing more) plus one product A x.
pub fn solve_splitting<A: RowAccess + ?Sized>(
    a: &A,
    b: &[f64],
    x0: Option<&[f64]>,
    settings: &SplittingSettings,
) -> Result<IterativeSolution, LcpError> {
    settings.validate()?;
    let kernel = match settings.method {
        SplittingMethod::Jacobi => Kernel::Jacobi,
        SplittingMethod::Pgs => Kernel::Sweep(1.0),
        SplittingMethod::Psor { omega } => Kernel::Sweep(omega),
    };
    run(a, b, x0, kernel, Merit::Complementarity, settings.absolute_test, &settings.stopping)
}

/// QP-based PGS/PSOR for symmetric A (spec §3.4): the same component updates, read as exact
/// coordinate minimisation of f(x) = ½xᵀAx + bᵀx over x ≥ 0 (over-relaxed by ω), so f never
/// increases. The merit history records f after each sweep (not bounded below by 0); the
/// relative test applies to f, the absolute test to (106) plus feasibility as in
/// [`solve_splitting`].
///
/// Errors: as [`solve_splitting`], plus `InvalidProblem` when `check_symmetry` finds A ≠ Aᵀ.
pub fn solve_qp_pgs<A: RowAccess + ?Sized>(
    a: &A,
    b: &[f64],
    x0: Option<&[f64]>,
    settings: &QpPgsSettings,
) -> Result<IterativeSolution, LcpError> {
    settings.validate()?;
    if settings.check_symmetry && !a.is_symmetric() {
        return Err(LcpError::InvalidProblem { reason: "QP-based PGS needs a symmetric matrix".into() });
    }
    run(a, b, x0, Kernel::Sweep(settings.omega), Merit::QpObjective, AbsoluteTest::Merit, &settings.stopping)
}

fn compute_y<A: RowAccess + ?Sized>(a: &A, b: &[f64], x: &[f64], y: &mut [f64]) {
    a.apply(x, y);
    y.iter_mut().zip(b).for_each(|(yi, bi)| *yi += bi);
}

fn run<A: RowAccess + ?Sized>(
    a: &A,
    b: &[f64],
    x0: Option<&[f64]>,
    kernel: Kernel,
    merit: Merit,
    absolute_test: AbsoluteTest,
    stop: &StoppingCriteria,
) -> Result<IterativeSolution, LcpError> {
    let n = a.dim();
    let mut x = start_point(n, b, x0)?;
    let inv_diag = inverse_diagonal(a)?;
    let mut aux = a.new_aux();
    a.sync_aux(&x, &mut aux);
    let mut y = vec![0.0; n];
    if let Kernel::Jacobi = kernel {
        compute_y(a, b, &x, &mut y);
    }
    let mut history = Vec::with_capacity(stop.max_iterations.min(1 << 12));
    let mut prev = f64::INFINITY;
    let mut status = IterativeStatus::MaxIterations;
    let mut iterations = 0;
    for k in 1..=stop.max_iterations {
        let max_change = match kernel {
            Kernel::Jacobi => jacobi_step(&mut x, &y, &inv_diag),
            Kernel::Sweep(omega) => projected_sweep(a, b, &mut x, &mut aux, &inv_diag, omega),
        };
        compute_y(a, b, &x, &mut y);
        iterations = k;
        let theta106 = merit_106(&x, &y);
        let theta = match merit {
            Merit::Complementarity => theta106,
            Merit::QpObjective => qp_objective(&x, &y, b),
        };
        history.push(theta);
        if !theta.is_finite() || !theta106.is_finite() {
            status = IterativeStatus::NumericalFailure;
            break;
        }
        if prev.is_finite() && (theta - prev).abs() < stop.relative * prev.abs() {
            status = IterativeStatus::ConvergedRelative;
            break;
        }
        let converged = match absolute_test {
            AbsoluteTest::Merit => theta106 < stop.absolute && infeasibility(&x, &y) < stop.absolute,
            AbsoluteTest::NaturalResidual => {
                x.iter().zip(&y).all(|(xi, yi)| xi.min(*yi).abs() < stop.absolute)
            }
        };
        if converged {
            status = IterativeStatus::ConvergedAbsolute;
            break;
        }
        let scale = x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        if max_change < stop.stagnation * scale {
            status = IterativeStatus::Stagnated;
            break;
        }
        prev = theta;
    }
    let (w, residual) = lcp_residual_f64(a, b, &x);
    Ok(IterativeSolution { status, z: x, w, iterations, merit_history: history, residual })
}
