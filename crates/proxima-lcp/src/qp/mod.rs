//! Convex quadratic programs (and LPs) solved through the LCP.
//!
//! # The problem
//!
//! Given A ∈ ℝⁿˣⁿ symmetric positive semidefinite, b ∈ ℝⁿ, c ∈ ℝ, D ∈ ℝᵐˣⁿ, e ∈ ℝᵐ,
//! A_eq ∈ ℝᵖˣⁿ, b_eq ∈ ℝᵖ and a set F of *free* indices,
//!
//! ```text
//! minimize   f(x) = ½ xᵀA x + bᵀx + c
//! subject to x_i ≥ 0 (i ∉ F),   D x ≥ e,   A_eq x = b_eq.
//! ```
//!
//! An LP is the case A = 0 ([`ConvexQp::linear`]).
//!
//! # KKT conditions and the LCP (Eberly, *Convex Quadratic Programming*, §1.1–1.4)
//!
//! Write all the general constraints as one block G x ≥ h with
//! G = [D; A_eq; −A_eq] and h = [e; b_eq; −b_eq] (m' = m + 2p rows): **an equality is two
//! inequalities**, and its multiplier is reported as λ = y⁺ − y⁻ (any sign). With c the
//! constrained indices and u the free ones, the KKT conditions are
//!
//! ```text
//! μ_c = A_cc x_c + A_cu x_u + b_c − G_cᵀ y ≥ 0,   x_c ≥ 0,   x_cᵀ μ_c = 0,
//!   0 = A_uc x_c + A_uu x_u + b_u − G_uᵀ y,                                   (stationarity in x_u)
//!   v = G_c x_c + G_u x_u − h ≥ 0,                y ≥ 0,     yᵀ v = 0.
//! ```
//!
//! Without free variables this is LCP(M, q) of equation (2) with z = [x; y]:
//! M = [[A, −Gᵀ], [G, 0]], q = [b; −h].
//!
//! ## Free-variable elimination (§1.4, extended to constraints that touch free variables)
//!
//! A_uu must be positive definite (checked; [`LcpError::InvalidProblem`] otherwise). The
//! stationarity row gives, with K = A_uu⁻¹,
//!
//! ```text
//! x_u = K (G_uᵀ y − A_uc x_c − b_u) = P x_c + Q y + r,   P = −K A_uc,  Q = K G_uᵀ,  r = −K b_u.
//! ```
//!
//! The reference's equation (8) is the case G_u = 0. Substituting into the other rows gives the
//! reduced LCP in z = [x_c; y]:
//!
//! ```text
//! M = [[Ã, −D̃ᵀ], [D̃, S]],   q = [b̃; −ẽ],
//! Ã = A_cc − A_cu K A_uc,  b̃ = b_c − A_cu K b_u,            (equation (10))
//! D̃ = G_c − G_u K A_uc,    ẽ = h + G_u K b_u,   S = G_u K G_uᵀ.
//! ```
//!
//! (−D̃ᵀ = −G_cᵀ + A_cu K G_uᵀ because K is symmetric.) S is positive semidefinite and Ã is the
//! Schur complement of A_uu in A, so M stays positive semidefinite and Lemke's method keeps its
//! guarantees. When no constraint involves a free variable, S = 0 and this is exactly the
//! reference's reduced CQP: minimize ½x_cᵀÃx_c + b̃ᵀx_c + c̃ with
//! c̃ = ½rᵀA_uu r + b_uᵀr + c (see [`QpLcp::reduced_constant`]). Solutions of the reduced
//! LCP and KKT points of the QP correspond one to one through the formula for x_u.
//!
//! # Outcomes
//!
//! * [`QpStatus::Solved`]: x (free variables recovered), the objective computed from the
//!   *original* data, and the multipliers μ = A x + b − Dᵀy − A_eqᵀλ (μ_i = 0 for free i).
//! * Lemke ray termination ([`LcpStatus::NoSolution`](crate::LcpStatus::NoSolution)) proves,
//!   for a convex QP, that there is no KKT point, i.e. the QP is infeasible or unbounded below.
//!   The feasibility LP "minimize 0 subject to the constraints" (free variables split as
//!   x = x⁺ − x⁻, since its quadratic block is zero) is then solved as an LCP: feasible ⇒
//!   [`QpStatus::Unbounded`] (x is that feasible point), otherwise [`QpStatus::Infeasible`]
//!   (x = 0). The multipliers are then zero vectors and `lcp` is the ray-terminated solve.
//!   If the auxiliary solve itself stops on its pivot limit or a numerical failure, that
//!   status is reported instead.
//! * [`QpStatus::MaxIterations`] and [`QpStatus::NumericalFailure`] are passed through from
//!   Lemke; x and the multipliers are then decoded from the last iterate and are not an answer.
//!
//! # Validation and edge cases
//!
//! Inputs are checked once, by the builders: n ≥ 1; A is n × n, b has n entries, D is m × n
//! for m = `e.len()`, A_eq is p × n for p = `b_eq.len()` (zero rows are allowed and add
//! nothing); every entry is finite; free indices are in range and distinct; A is symmetric
//! (exactly for exact scalars; for floats |Aᵢⱼ − Aⱼᵢ| ≤ τ·max|Aᵢⱼ| with τ = max(1e-12, 256 ε)
//! where ε is the unit roundoff of the scalar — A is used as given, not symmetrized); A_uu is
//! positive definite (elimination without pivoting: every pivot must be > 0, or > τ·max|A_uu|
//! for floats). In particular an LP cannot have free variables through [`ConvexQp::with_free`]:
//! split them yourself as x = x⁺ − x⁻.
//!
//! **Convexity of A (positive semidefiniteness) is the caller's promise** and is not checked
//! beyond A_uu. On a non-convex QP, `Solved` means a KKT point (maybe not the global minimum)
//! and a ray termination is still reported as `Unbounded`/`Infeasible` by the test above,
//! which is then no longer a proof.
//!
//! When every variable is free and there are no constraints, the reduced LCP is empty and the
//! answer is x = −A⁻¹b with no pivoting (the `lcp` field is then an empty trivial solution).
//! A [`Covering::Custom`](crate::lemke::Covering::Custom) covering vector in the settings must
//! have the size of the reduced LCP ([`QpLcp::lcp`]).

mod problem;
mod recover;
mod reduce;
mod validate;

use proxima_num::Field;

use crate::error::LcpError;
use crate::lemke::LemkeSettings;
use crate::solution::LcpSolution;

pub use reduce::QpLcp;

/// minimize ½xᵀAx + bᵀx + c subject to x_i ≥ 0 (i not free), D x ≥ e, A_eq x = b_eq.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexQp<T> {
    n: usize,
    a: Vec<T>,
    b: Vec<T>,
    c: T,
    d: Vec<T>,
    e: Vec<T>,
    free: Vec<usize>,
    aeq: Vec<T>,
    beq: Vec<T>,
}

/// Outcome of a QP solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum QpStatus {
    /// An optimal x was found.
    Solved,
    /// The constraints admit no point.
    Infeasible,
    /// Feasible, but the objective is unbounded below.
    Unbounded,
    /// The pivot limit was reached.
    MaxIterations,
    /// Float breakdown that no fallback could repair.
    NumericalFailure,
}

impl QpStatus {
    /// A stable lowercase name (`"solved"`, `"infeasible"`, `"unbounded"`, `"max_iterations"`,
    /// `"numerical_failure"`), used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            QpStatus::Solved => "solved",
            QpStatus::Infeasible => "infeasible",
            QpStatus::Unbounded => "unbounded",
            QpStatus::MaxIterations => "max_iterations",
            QpStatus::NumericalFailure => "numerical_failure",
        }
    }
}

/// Lagrange multipliers of an optimal QP solution (KKT: A x + b = Dᵀy + A_eqᵀλ + μ).
#[derive(Debug, Clone, PartialEq)]
pub struct QpMultipliers<T> {
    /// μ ≥ 0 for the bounds x ≥ 0 (zero for free variables), length n.
    pub bounds: Vec<T>,
    /// y ≥ 0 for D x ≥ e, length m.
    pub inequalities: Vec<T>,
    /// λ (any sign) for A_eq x = b_eq, length p.
    pub equalities: Vec<T>,
}

/// The answer to a QP.
#[derive(Debug, Clone, PartialEq)]
pub struct QpSolution<T> {
    /// What happened.
    pub status: QpStatus,
    /// The minimizer (meaningful when `status == Solved`).
    pub x: Vec<T>,
    /// ½xᵀAx + bᵀx + c at `x`.
    pub objective: T,
    /// KKT multipliers.
    pub multipliers: QpMultipliers<T>,
    /// The underlying LCP answer (after free-variable elimination).
    pub lcp: LcpSolution<T>,
}

/// Settings of the QP front end.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QpSettings {
    /// Settings of the Lemke solve.
    pub lemke: LemkeSettings,
}

/// Solves a convex QP through Lemke's method.
///
/// Builds the reduced LCP ([`ConvexQp::to_lcp`]), solves it with
/// [`solve_lemke`](crate::lemke::solve_lemke), recovers x and the multipliers, and on a ray
/// termination decides between [`QpStatus::Infeasible`] and [`QpStatus::Unbounded`] with a
/// feasibility LCP (see the module docs).
pub fn solve_qp<T: Field>(qp: &ConvexQp<T>, settings: &QpSettings) -> Result<QpSolution<T>, LcpError> {
    recover::solve(qp, settings)
}
