//! Splitting methods for LCP(A, b): projected Jacobi, projected Gauss–Seidel (PGS), projected
//! SOR (PSOR) and QP-based PGS (spec §3.3–3.4, §4).
//!
//! # The maths
//!
//! Split A = M − N and solve LCP(M, b − N x^k) for x^{k+1}; for diagonal or triangular M this
//! is x^{k+1} = max(0, M⁻¹(N x^k − b)) evaluated component by component (eq. 51–52). With
//! r = A x + b of the current x:
//!
//! * projected Jacobi: x_i ← max(0, x_i − r_i(x^k)/A_ii) for all i from the old iterate;
//! * PGS: for i = 1..n in order, x_i ← max(0, x_i − r_i/A_ii) with the partially updated x;
//! * PSOR(ω): the same sweep with x_i ← max(0, x_i − ω r_i/A_ii), ω ∈ (0, 2].
//!
//! For symmetric A, step i minimises f(x) = ½xᵀAx + bᵀx along e_i over x_i ≥ 0 (eq. 54–56);
//! with relaxation f changes by ½τ²A_ii + τ r_i = (r_i²/A_ii)·ω(ω/2 − 1) ≤ 0 before the
//! projection (eq. 57–58), and the projected step lies between 0 and that step, so f never
//! increases ([`solve_qp_pgs`]). For symmetric PSD A with A_ii > 0 the iterates converge; for
//! non-symmetric A they may diverge (no guarantee, spec §3.3).
//!
//! # Edge cases
//!
//! * A zero, negative or NaN diagonal entry is refused with `Err(`[`LcpError::ZeroDiagonal`]`)`
//!   (e.g. the contact model's (β, β) entry) — never a division by zero.
//! * Merit (106) θ = xᵀ|A x + b| is 0 at x = 0 whatever b is: it is evaluated only after a
//!   sweep, so a run never converges on its start point (spec §4, §8 B8).
//! * Statuses: `ConvergedAbsolute` (θ < ε_abs and no x_i = 0 with y_i ≤ −ε_abs),
//!   `ConvergedRelative`, `Stagnated`, `MaxIterations`, `NumericalFailure` (θ not finite).
//!
//! # Operators
//!
//! Everything works on any [`RowAccess`](crate::operator::RowAccess) operator: dense, CSR and
//! the matrix-free contact operator J M⁻¹ Jᵀ. Sweeps allocate nothing; a solve allocates its
//! vectors (x, y, 1/diag, the merit history) once.
//!
//! # Example
//!
//! ```
//! use proxima_lcp::iterative::{IterativeStatus, SplittingSettings, StoppingCriteria, solve_splitting};
//! use proxima_lcp::operator::CsrMatrix;
//!
//! // A = [[2, 1], [1, 2]], b = (−3, −3): the solution is x = (1, 1) (spec §8 A3).
//! let a = CsrMatrix::from_rows(2, vec![vec![(0, 2.0), (1, 1.0)], vec![(0, 1.0), (1, 2.0)]])?;
//! let settings = SplittingSettings::psor(1.4)
//!     .with_stopping(StoppingCriteria { absolute: 1e-12, ..StoppingCriteria::default() });
//! let sol = solve_splitting(&a, &[-3.0, -3.0], None, &settings)?;
//! assert_eq!(sol.status, IterativeStatus::ConvergedAbsolute);
//! assert!((sol.z[0] - 1.0).abs() < 1e-6 && sol.residual.min_map_inf < 1e-6);
//! # Ok::<(), proxima_lcp::LcpError>(())
//! ```
//!
//! [`LcpError::ZeroDiagonal`]: crate::LcpError::ZeroDiagonal

mod kernel;
mod solve;

pub use kernel::{
    infeasibility, inverse_diagonal, jacobi_step, merit_106, projected_sweep, qp_objective, relax_component,
};
pub(crate) use solve::start_point;
pub use solve::{
    AbsoluteTest, QpPgsSettings, SplittingMethod, SplittingSettings, solve_qp_pgs, solve_splitting,
};
