//! The shared outcome types of the iterative solvers: statuses, stopping criteria, solutions.

use core::fmt;

use crate::error::LcpError;
use crate::operator::LinearOperator;
use crate::solution::LcpResidual;

/// How an iterative solver stopped (spec §4). Only `ConvergedAbsolute` certifies a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IterativeStatus {
    /// θ(x) < ε_abs: the iterate is a solution to the requested accuracy.
    ConvergedAbsolute,
    /// |θ(x⁺) − θ(x)| < ε_rel·θ(x): progress stalled relative to the merit (not a certificate).
    ConvergedRelative,
    /// The iterate stopped moving (max |Δxᵢ| below the stagnation tolerance).
    Stagnated,
    /// ‖∇θ‖ ≈ 0 at a non-zero merit: a stationary point that is not a solution.
    LocalMinimum,
    /// The Newton direction is not a descent direction of the merit.
    NonDescent,
    /// The iteration limit was reached first.
    MaxIterations,
    /// A sub-solve failed (singular system, NaN produced).
    NumericalFailure,
}

impl IterativeStatus {
    /// `true` only for [`IterativeStatus::ConvergedAbsolute`].
    pub fn is_solved(self) -> bool {
        self == IterativeStatus::ConvergedAbsolute
    }

    /// snake_case name used in reports (`"converged_absolute"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            IterativeStatus::ConvergedAbsolute => "converged_absolute",
            IterativeStatus::ConvergedRelative => "converged_relative",
            IterativeStatus::Stagnated => "stagnated",
            IterativeStatus::LocalMinimum => "local_minimum",
            IterativeStatus::NonDescent => "non_descent",
            IterativeStatus::MaxIterations => "max_iterations",
            IterativeStatus::NumericalFailure => "numerical_failure",
        }
    }
}

impl fmt::Display for IterativeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The spec's stopping criteria (§4), shared by every iterative method. A tolerance of 0
/// disables its test (used to run a fixed number of iterations in experiments).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StoppingCriteria {
    /// Iteration limit (sweeps for splitting methods, Newton steps for Newton methods).
    pub max_iterations: usize,
    /// ε_abs: stop with `ConvergedAbsolute` when θ < ε_abs. Default 1e-12.
    pub absolute: f64,
    /// ε_rel: stop with `ConvergedRelative` when |Δθ| < ε_rel·θ. Default 1e-14.
    pub relative: f64,
    /// ε_stg: stop with `Stagnated` when max |Δxᵢ| < ε_stg·max(1, ‖x‖∞). Default f64::EPSILON.
    pub stagnation: f64,
}

impl Default for StoppingCriteria {
    fn default() -> Self {
        StoppingCriteria { max_iterations: 1000, absolute: 1e-12, relative: 1e-14, stagnation: f64::EPSILON }
    }
}

impl StoppingCriteria {
    /// Checks every field (finite, ≥ 0, at least one iteration).
    pub fn validate(&self) -> Result<(), LcpError> {
        let check = |v: f64, field: &'static str| {
            if v.is_finite() && v >= 0.0 {
                Ok(())
            } else {
                Err(LcpError::InvalidSettings { field, reason: "must be finite and >= 0" })
            }
        };
        check(self.absolute, "absolute")?;
        check(self.relative, "relative")?;
        check(self.stagnation, "stagnation")?;
        if self.max_iterations == 0 {
            return Err(LcpError::InvalidSettings { field: "max_iterations", reason: "must be >= 1" });
        }
        Ok(())
    }
}

/// The answer of an iterative solver.
#[derive(Debug, Clone, PartialEq)]
pub struct IterativeSolution {
    /// How the run ended.
    pub status: IterativeStatus,
    /// The final iterate x (≥ 0 for plain LCPs; within bounds for boxed LCPs).
    pub z: Vec<f64>,
    /// y = A x + b at the final iterate.
    pub w: Vec<f64>,
    /// Iterations performed, spec §4 counting: sweeps for splitting methods; for Newton
    /// methods the passes of the loop including the one that stopped the run (k Newton steps
    /// then convergence = k + 1), or the limit for `MaxIterations`.
    pub iterations: usize,
    /// The method's merit after each iteration (index 0 = first iteration for splitting
    /// methods; for Newton methods index k is θ at the top of iteration k).
    pub merit_history: Vec<f64>,
    /// Residuals of `z` computed from A and b.
    pub residual: LcpResidual<f64>,
}

/// w = A z + b and the residuals ‖min(z, w)‖∞, |zᵀw|, min z, min w — computed from the data.
pub fn lcp_residual_f64<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    z: &[f64],
) -> (Vec<f64>, LcpResidual<f64>) {
    let mut w = vec![0.0; b.len()];
    a.apply(z, &mut w);
    for (wi, bi) in w.iter_mut().zip(b) {
        *wi += bi;
    }
    let mut r =
        LcpResidual { min_map_inf: 0.0, complementarity: 0.0, min_z: f64::INFINITY, min_w: f64::INFINITY };
    let mut dot = 0.0;
    for (&zi, &wi) in z.iter().zip(&w) {
        r.min_map_inf = r.min_map_inf.max(zi.min(wi).abs());
        dot += zi * wi;
        r.min_z = r.min_z.min(zi);
        r.min_w = r.min_w.min(wi);
    }
    r.complementarity = dot.abs();
    (w, r)
}
