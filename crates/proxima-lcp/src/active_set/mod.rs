//! A general primal active-set solver for convex QPs with inequality constraints
//! (Fletcher's method: delta, lambda and alpha steps).
//!
//! # The problem
//!
//! ```text
//! minimize ½xᵀHx + cᵀx   subject to   A x ≥ b,      H ∈ ℝ^{n×n} symmetric PSD, A ∈ ℝ^{m×n}
//! ```
//!
//! ([`InequalityQp`]). This is the reference point that DQP3 (in `proxima-geom`) specializes
//! to the 3D distance problem; it is independent of the Lemke route in [`crate::qp`].
//!
//! # The method
//!
//! A working set 𝒲 of constraints held as equalities is kept, with x feasible throughout.
//!
//! 1. **Start.** A feasible x⁰ is taken from the caller or found by the simplex method
//!    (phase I of `A x ≥ b` with x split into x⁺ − x⁻). Constraints with slack below the
//!    feasibility tolerance enter 𝒲 while their normals stay linearly independent.
//! 2. **Delta step.** With g = Hx + c and Z an orthonormal basis of null(A_𝒲) (modified
//!    Gram–Schmidt), the subproblem min ½δᵀHδ + gᵀδ, A_𝒲 δ = 0 becomes
//!    (ZᵀHZ) y = −Zᵀg, δ = Z y. ZᵀHZ is only semidefinite in general (the distance QP's
//!    H has a 3-dimensional kernel), so it is diagonalized (cyclic Jacobi): on its positive
//!    eigenvalues y is the minimum-norm solution; if −Zᵀg has a component p along the kernel,
//!    the objective decreases linearly along Z p without bound inside the working set, and the
//!    step is that ray (the alpha step then finds the blocking constraint, or the problem is
//!    [`ActiveSetStatus::Unbounded`]). A negative eigenvalue beyond the tolerance means H is
//!    not PSD ([`ActiveSetStatus::NonConvex`]).
//! 3. **Lambda step** (when δ = 0). The multipliers solve A_𝒲ᵀ λ = g in least squares. If
//!    min λ ≥ −tol the point is optimal; otherwise the constraint with the most negative λ
//!    leaves 𝒲 (one per step, the conventional rule).
//! 4. **Alpha step.** α = min(1, min over j ∉ 𝒲 with a_jᵀδ < 0 of (b_j − a_jᵀx)/(a_jᵀδ));
//!    x ← x + αδ and the blocking constraint (smallest index among ties) joins 𝒲 if α < 1.
//!
//! # Edge cases and outcomes
//!
//! * m = 0 is allowed (an unconstrained convex QP: solved or unbounded).
//! * Infeasible constraints → [`ActiveSetStatus::Infeasible`] (decided by the simplex).
//! * Degenerate vertices (more than n constraints through x, or dependent normals): dependent
//!   constraints never enter 𝒲; zero-length steps are allowed, and the iteration limit turns
//!   a (theoretically possible) cycle into [`ActiveSetStatus::MaxIterations`], never an answer.
//! * Bad input (sizes, NaN/∞, non-symmetric H, invalid settings, a wrong-length or infeasible
//!   start point) → `Err(`[`LcpError`]`)`.
//!
//! Every solution carries the stationarity, primal-feasibility and complementarity residuals
//! computed from the input data, and the multipliers of all m constraints (zero off 𝒲).
//!
//! # Example
//!
//! ```
//! use proxima_lcp::active_set::{ActiveSetSettings, ActiveSetStatus, InequalityQp, solve_active_set};
//!
//! // min ½|x − (2, 2)|² s.t. x₁ + x₂ ≤ 2  (i.e. −x₁ − x₂ ≥ −2): optimum (1, 1), λ = 1.
//! let qp = InequalityQp::new(2, vec![1.0, 0.0, 0.0, 1.0], vec![-2.0, -2.0], vec![-1.0, -1.0], vec![-2.0])?;
//! let sol = solve_active_set(&qp, None, &ActiveSetSettings::default())?;
//! assert_eq!(sol.status, ActiveSetStatus::Solved);
//! assert!((sol.x[0] - 1.0).abs() < 1e-12 && (sol.multipliers[0] - 1.0).abs() < 1e-12);
//! # Ok::<(), proxima_lcp::LcpError>(())
//! ```

mod dense;
mod problem;
mod solve;

pub use problem::InequalityQp;
pub use solve::solve_active_set;

use crate::error::LcpError;

/// What the active-set run ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ActiveSetStatus {
    /// A KKT point (optimal for a convex problem) was found.
    Solved,
    /// The constraints admit no point.
    Infeasible,
    /// The objective decreases without bound along a feasible ray.
    Unbounded,
    /// H has a negative eigenvalue on the working set's null space (not convex).
    NonConvex,
    /// The iteration limit was reached; `x` is feasible but not an answer.
    MaxIterations,
    /// A float breakdown (non-finite iterate, failed phase I).
    NumericalFailure,
}

impl ActiveSetStatus {
    /// A stable lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            ActiveSetStatus::Solved => "solved",
            ActiveSetStatus::Infeasible => "infeasible",
            ActiveSetStatus::Unbounded => "unbounded",
            ActiveSetStatus::NonConvex => "non_convex",
            ActiveSetStatus::MaxIterations => "max_iterations",
            ActiveSetStatus::NumericalFailure => "numerical_failure",
        }
    }
}

/// Settings of [`solve_active_set`]. All tolerances are relative to the problem scale
/// (1 + the largest |entry| of the data involved).
#[derive(Debug, Clone, PartialEq)]
pub struct ActiveSetSettings {
    /// Iteration limit; `None` (default) means 10·(n + m) + 50.
    pub max_iterations: Option<usize>,
    /// A constraint with slack ≤ this × scale counts as active at the start, and a start point
    /// violating a constraint by more than 100× this is rejected. Default 1e-10.
    pub feasibility_tolerance: f64,
    /// The step δ is zero when |δ|∞ ≤ this × (1 + |x|∞). Default 1e-12.
    pub step_tolerance: f64,
    /// A constraint is released only when λ < −this × scale. Default 1e-10.
    pub multiplier_tolerance: f64,
    /// Eigenvalues of ZᵀHZ at most this × (1 + max |H|) count as zero. Default 1e-12.
    pub curvature_tolerance: f64,
}

impl Default for ActiveSetSettings {
    fn default() -> Self {
        Self {
            max_iterations: None,
            feasibility_tolerance: 1e-10,
            step_tolerance: 1e-12,
            multiplier_tolerance: 1e-10,
            curvature_tolerance: 1e-12,
        }
    }
}

impl ActiveSetSettings {
    /// Checks every field (tolerances finite and in (0, 1)).
    pub fn validate(&self) -> Result<(), LcpError> {
        let fields = [
            ("feasibility_tolerance", self.feasibility_tolerance),
            ("step_tolerance", self.step_tolerance),
            ("multiplier_tolerance", self.multiplier_tolerance),
            ("curvature_tolerance", self.curvature_tolerance),
        ];
        for (field, v) in fields {
            if !(v.is_finite() && v > 0.0 && v < 1.0) {
                return Err(LcpError::InvalidSettings { field, reason: "must be finite and in (0, 1)" });
            }
        }
        if self.max_iterations == Some(0) {
            return Err(LcpError::InvalidSettings { field: "max_iterations", reason: "must be positive" });
        }
        Ok(())
    }
}

/// Residuals of an active-set answer, computed from the input data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ActiveSetResidual {
    /// ‖Hx + c − Aᵀλ‖∞.
    pub stationarity: f64,
    /// max_j max(0, b_j − a_jᵀx).
    pub primal_infeasibility: f64,
    /// max_j |λ_j (a_jᵀx − b_j)|.
    pub complementarity: f64,
    /// max(0, −min_j λ_j).
    pub dual_infeasibility: f64,
}

/// The answer of [`solve_active_set`].
#[derive(Debug, Clone, PartialEq)]
pub struct ActiveSetSolution {
    /// What happened.
    pub status: ActiveSetStatus,
    /// The final iterate (the minimizer when `Solved`; feasible unless `Infeasible`).
    pub x: Vec<f64>,
    /// Multipliers λ ≥ 0 of all m constraints (zero outside the working set).
    pub multipliers: Vec<f64>,
    /// ½xᵀHx + cᵀx at `x`.
    pub objective: f64,
    /// The final working set (constraint indices, insertion order).
    pub working_set: Vec<usize>,
    /// Delta/lambda/alpha passes taken.
    pub iterations: usize,
    /// Residuals from the input data.
    pub residual: ActiveSetResidual,
}
