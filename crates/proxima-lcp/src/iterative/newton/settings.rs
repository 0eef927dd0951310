//! Settings of the Newton methods: sub-solver, forcing term, Jacobian strategy.

use super::line_search::LineSearchSettings;
use crate::error::LcpError;
use crate::iterative::StoppingCriteria;

/// How the Newton equation is solved.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum SubSolver {
    /// Dense LU with partial pivoting: for min-map Newton on the reduced system (80)
    /// A_𝒜𝒜 Δx_𝒜 = A_𝒜ℱ H_ℱ − H_𝒜, for Fischer–Newton on J = D_p + D_q A. Assembles A once
    /// (O(n²) storage); a symmetric A whose reduced system is positive definite after row
    /// scaling goes through Cholesky instead (half the flops). A numerically singular system
    /// falls back to GMRES for that step.
    Direct,
    /// Restarted GMRES, matrix-free (products with A only), stopped by the forcing term.
    Gmres {
        /// Restart length; `None` = min(n, 20) for min-map, min(n, 10) for Fischer (spec \[H\]).
        restart: Option<usize>,
        /// Products per Newton step; `None` = 10 × restart.
        max_iterations: Option<usize>,
    },
    /// Jacobi-preconditioned CG on the reduced min-map system (A_𝒜𝒜 must be symmetric PD;
    /// a breakdown falls back to GMRES for that step). Min-map Newton only.
    Pcg {
        /// Products per Newton step; `None` = max(n, 50).
        max_iterations: Option<usize>,
    },
}

impl Default for SubSolver {
    fn default() -> Self {
        SubSolver::Gmres { restart: None, max_iterations: None }
    }
}

/// Settings shared by [`solve_minmap_newton`](super::solve_minmap_newton) and
/// [`solve_fischer_newton`](super::solve_fischer_newton).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewtonSettings {
    /// Stopping tests of spec §4 on the merit θ. Default: 100 iterations, ε_abs = 1e-12,
    /// ε_rel = 1e-14, ε_stg = machine epsilon.
    pub stopping: StoppingCriteria,
    /// The projected Armijo search. Default α = 1e-4, β = 0.5, δ = 1e-14.
    pub line_search: LineSearchSettings,
    /// How the Newton equation is solved. Default GMRES with the method's restart.
    pub sub_solver: SubSolver,
    /// γ ∈ (0, 1): an iterative sub-solve stops once ‖F + JΔx‖ ≤ γ‖F‖ (spec (71)/(105)).
    /// Default 1e-6 (the companion code's GMRES tolerance).
    pub forcing: f64,
    /// Treat A as symmetric, so gradients ∇θ = Jᵀ F use products with A instead of Aᵀ. When
    /// `false` (default) Aᵀ products use a dense copy of A assembled once (n ≤
    /// [`DENSE_TRANSPOSE_LIMIT`](super::DENSE_TRANSPOSE_LIMIT)); set it for symmetric (fluid,
    /// PD/PSD) operators to stay matrix-free.
    pub assume_symmetric: bool,
    /// What the absolute test compares with ε_abs: the merit θ (default, the spec's) or the
    /// natural residual ‖min(x, y)‖∞ (what benchmark harnesses verify).
    pub absolute_test: crate::iterative::AbsoluteTest,
    /// Min-map Newton: consecutive steps allowed whose equation could not be solved — the
    /// direct system was singular (or PCG broke down) and the GMRES fallback missed the forcing
    /// target — before the run ends `NumericalFailure`. A step whose line search accepts the
    /// full step τ = 1 resets the count (the inexact direction behaved as a Newton step). On
    /// singular Jacobians (contact problems, whose friction rows have zero diagonal blocks) the
    /// iteration otherwise spends its whole budget on unsolved systems. Default 5 (on the
    /// harness: every dense PSD problem min-map solves without the limit is still solved;
    /// contact runs end after 5–7 steps instead of 100); `usize::MAX` never stops for this.
    pub max_unsolved_steps: usize,
}

impl Default for NewtonSettings {
    fn default() -> Self {
        NewtonSettings {
            stopping: StoppingCriteria { max_iterations: 100, ..StoppingCriteria::default() },
            line_search: LineSearchSettings::default(),
            sub_solver: SubSolver::default(),
            forcing: 1e-6,
            assume_symmetric: false,
            absolute_test: crate::iterative::AbsoluteTest::Merit,
            max_unsolved_steps: 5,
        }
    }
}

impl NewtonSettings {
    /// Checks the stopping criteria, the line search, γ ∈ (0, 1) and the sub-solver limits.
    pub fn validate(&self) -> Result<(), LcpError> {
        self.stopping.validate()?;
        self.line_search.validate()?;
        if self.max_unsolved_steps == 0 {
            return Err(LcpError::InvalidSettings { field: "max_unsolved_steps", reason: "must be >= 1" });
        }
        if !(self.forcing > 0.0 && self.forcing < 1.0) {
            return Err(LcpError::InvalidSettings { field: "forcing", reason: "must be in (0, 1)" });
        }
        let positive = |v: Option<usize>, field| match v {
            Some(0) => Err(LcpError::InvalidSettings { field, reason: "must be >= 1" }),
            _ => Ok(()),
        };
        match self.sub_solver {
            SubSolver::Direct => Ok(()),
            SubSolver::Gmres { restart, max_iterations } => {
                positive(restart, "restart")?;
                positive(max_iterations, "max_iterations")
            }
            SubSolver::Pcg { max_iterations } => positive(max_iterations, "max_iterations"),
        }
    }
}

/// How Fischer–Newton picks (p_i, q_i) at a degenerate index x_i = y_i = 0 (spec §3.6).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum JacobianStrategy {
    /// (u_i − 1, v_i − 1) with u_i, v_i uniform in [0, 1/√2) (so ‖(u, v)‖ ≤ 1), from a
    /// deterministic generator seeded here.
    Random {
        /// Seed of the generator (SplitMix64).
        seed: u64,
    },
    /// u_i = v_i = 0: (p_i, q_i) = (−1, −1).
    Zero,
    /// Evaluate (97) with x_i replaced by ε: (0, −1) when y_i = 0.
    Perturbation {
        /// ε > 0. Default used by [`JacobianStrategy::default_perturbation`]: 1e-10.
        epsilon: f64,
    },
    /// Never form J: inside GMRES, J p ≈ [F(x + h p) − F(x)] / h with
    /// h = `step`·max(1, ‖x‖∞)/‖p‖∞ (one-sided, matrix-free). Needs an iterative sub-solver.
    Approximation {
        /// The relative difference step. Default 1e-7 (spec \[H\]).
        step: f64,
    },
}

impl JacobianStrategy {
    /// `Perturbation { epsilon: 1e-10 }`.
    pub fn default_perturbation() -> Self {
        JacobianStrategy::Perturbation { epsilon: 1e-10 }
    }
    /// `Approximation { step: 1e-7 }`.
    pub fn default_approximation() -> Self {
        JacobianStrategy::Approximation { step: 1e-7 }
    }
    /// A stable name (`"random"`, `"zero"`, `"perturbation"`, `"approximation"`).
    pub fn as_str(&self) -> &'static str {
        match self {
            JacobianStrategy::Random { .. } => "random",
            JacobianStrategy::Zero => "zero",
            JacobianStrategy::Perturbation { .. } => "perturbation",
            JacobianStrategy::Approximation { .. } => "approximation",
        }
    }
}

/// Settings of [`solve_fischer_newton`](super::solve_fischer_newton).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FischerSettings {
    /// The shared Newton settings (PCG is rejected: J is not symmetric).
    pub newton: NewtonSettings,
    /// Degenerate-index strategy. Default `Perturbation { epsilon: 1e-10 }` (the companion
    /// code's default).
    pub strategy: JacobianStrategy,
    /// An index is degenerate when |x_i| ≤ δ and |y_i| ≤ δ. Default 1e-28 (spec \[H\]).
    pub degeneracy_tolerance: f64,
}

impl Default for FischerSettings {
    fn default() -> Self {
        FischerSettings {
            newton: NewtonSettings::default(),
            strategy: JacobianStrategy::default_perturbation(),
            degeneracy_tolerance: 1e-28,
        }
    }
}

impl FischerSettings {
    /// Validates the Newton settings, the strategy parameters, and the strategy/sub-solver pair.
    pub fn validate(&self) -> Result<(), LcpError> {
        self.newton.validate()?;
        if !(self.degeneracy_tolerance.is_finite() && self.degeneracy_tolerance >= 0.0) {
            return Err(LcpError::InvalidSettings {
                field: "degeneracy_tolerance",
                reason: "must be finite and >= 0",
            });
        }
        match self.strategy {
            JacobianStrategy::Perturbation { epsilon } if !(epsilon > 0.0 && epsilon.is_finite()) => {
                return Err(LcpError::InvalidSettings { field: "epsilon", reason: "must be finite and > 0" });
            }
            JacobianStrategy::Approximation { step } if !(step > 0.0 && step < 1.0) => {
                return Err(LcpError::InvalidSettings { field: "step", reason: "must be in (0, 1)" });
            }
            _ => {}
        }
        if matches!(self.newton.sub_solver, SubSolver::Pcg { .. }) {
            return Err(LcpError::InvalidSettings {
                field: "sub_solver",
                reason: "PCG needs a symmetric system; the Fischer-Newton Jacobian is not symmetric",
            });
        }
        if matches!(self.strategy, JacobianStrategy::Approximation { .. })
            && self.newton.sub_solver == SubSolver::Direct
        {
            return Err(LcpError::InvalidSettings {
                field: "sub_solver",
                reason: "the approximation strategy never forms J: use an iterative sub-solver",
            });
        }
        Ok(())
    }
}
