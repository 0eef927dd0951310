//! Iterative LCP solvers for large physics problems: splitting methods (projected Jacobi,
//! PGS, PSOR, QP-based PGS, boxed LCPs) and Newton methods (minimum map, Fischer–Burmeister),
//! sharing one outcome vocabulary.
//!
//! # The problem and the merits
//!
//! LCP(A, b): find x ≥ 0 with y = A x + b ≥ 0 and xᵀy = 0 (the spec's notation; the textbook
//! (M, q, z, w) is the same thing). Progress is measured by a merit θ(x) ≥ 0, zero exactly at a
//! solution: ½‖min(x, y)‖² (minimum map), ½‖φ(x, y)‖² (Fischer–Burmeister) or xᵀ|y| (splitting
//! methods, spec eq. 106 — zero at x = 0 whatever b is, so it is never tested on the start).
//!
//! # Outcomes
//!
//! Every run ends with an [`IterativeStatus`] from the spec's list (absolute, relative,
//! stagnation, local minimum, non-descent, max iterations, numerical failure) and an
//! [`IterativeSolution`] that carries the iterate, y, the merit history and residuals computed
//! from A and b (never from solver internals). Only
//! [`IterativeStatus::ConvergedAbsolute`] certifies a solution.

pub mod boxed;
pub mod krylov;
pub mod newton;
mod outcome;
pub mod splitting;

pub use boxed::{BoxBounds, BoxedResidual, BoxedSettings, BoxedSolution, FrictionBound, solve_boxed_pgs};
pub use krylov::{
    KrylovInfo, KrylovSettings, KrylovStatus, KrylovWorkspace, gmres, gmres_with, pcg, pcg_with,
};
pub use newton::{
    FischerSettings, JacobianStrategy, NewtonReport, NewtonSettings, NewtonStats, SubSolver,
    solve_fischer_newton, solve_fischer_newton_report, solve_minmap_newton, solve_minmap_newton_report,
};
pub use outcome::{IterativeSolution, IterativeStatus, StoppingCriteria, lcp_residual_f64};
pub use splitting::{
    AbsoluteTest, QpPgsSettings, SplittingMethod, SplittingSettings, solve_qp_pgs, solve_splitting,
};
