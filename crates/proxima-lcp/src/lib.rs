//! Linear complementarity problems (LCP), convex quadratic programs and LPs — solved with
//! certified answers, in floating point or exactly.
//!
//! # The problems
//!
//! * **LCP(M, q)** ([`Lcp`]): find z ≥ 0 with w = M z + q ≥ 0 and zᵀw = 0.
//! * **Convex QP** ([`ConvexQp`]): minimize ½xᵀAx + bᵀx + c subject to x ≥ 0 (except free
//!   variables), D x ≥ e and A_eq x = b_eq, with A symmetric positive semidefinite. Its KKT
//!   conditions are an LCP (q = [b; −e], M = [[A, −Dᵀ], [D, 0]]); free variables are
//!   eliminated first. An LP is the case A = 0.
//!
//! # Contents
//!
//! | module | what |
//! |---|---|
//! | [`lemke`] | Lemke's method, lexicographic anti-cycling, fallbacks, fixed-size and workspace paths |
//! | [`baraff`] | Baraff/Dantzig incremental pivoting with an incrementally updated factorization (plain and boxed) |
//! | [`iterative`] | physics solvers: projected Jacobi / PGS / PSOR / QP-PGS, boxed PGS with friction index, minimum-map Newton, Fischer–Newton (four Jacobian strategies), GMRES / PCG; one status vocabulary ([`iterative::IterativeStatus`]) |
//! | [`operator`] | `LinearOperator` / `RowAccess`: dense, CSR (sprs) and the matrix-free contact operator J M⁻¹ Jᵀ |
//! | [`generate`] | seedable problem families of the physics spec (fluid, contact, dense PD/PSD) and the harness file writer |
//! | [`active_set`] | primal active-set solver for convex QPs with inequality constraints |
//! | [`qp`] | the convex QP / LP front end: status (solved / infeasible / unbounded), multipliers |
//! | [`io`] | JSON problem files (exact fractions), MatrixMarket, Siconos `.dat`, bench manifests |
//! | [`registry`] | every `f64` LCP solver by name (`lemke`, `baraff`, `pgs`, `fischer-newton`...) with one settings type |
//! | [`linalg`] | small dense Gaussian elimination over any [`Field`] |
//!
//! # Should I use this crate?
//!
//! Use it when you need an LCP or small convex QP solved *with a certificate* (every solution
//! carries ‖min(z, w)‖∞ and |zᵀw| computed from the input), exactly when you ask
//! ([`Rational`], [`QuadraticField`]), or allocation-free in a tight loop
//! ([`solve_lemke_fixed`], [`LemkeWorkspace`]). Pivoting methods are dense and cost O(n²) per
//! pivot: for large sparse physics problems use [`iterative`] (PGS/PSOR sweeps cost O(nnz),
//! Newton methods run matrix-free with GMRES) or [`baraff`] for exact answers on symmetric PD
//! problems.
//!
//! # Three kinds of outcome
//!
//! * Bad input (empty, mismatched sizes, NaN/∞, invalid settings) → `Err(`[`LcpError`]`)`.
//! * An algorithm outcome → [`LcpStatus`] / [`QpStatus`] inside the solution, with pivots,
//!   residuals and the [`SolvePath`] that produced the answer.
//! * A float run whose residual check fails is never reported as solved.
//!
//! # Example
//!
//! ```
//! use proxima_lcp::{Lcp, LcpStatus, LemkeSettings, Rational, solve_lemke};
//!
//! // Eberly's Example 5, exactly.
//! let r = |s: &str| Rational::parse(s).unwrap();
//! let lcp = Lcp::from_rows(
//!     vec![vec![r("1"), r("0"), r("-2")], vec![r("0"), r("2"), r("-1")], vec![r("2"), r("1"), r("0")]],
//!     vec![r("-1"), r("-1"), r("-1")],
//! )?;
//! let sol = solve_lemke(&lcp, &LemkeSettings::default())?;
//! assert_eq!(sol.status, LcpStatus::Solved);
//! assert_eq!(sol.z, vec![r("1"), r("1/2"), r("0")]);
//! assert_eq!(sol.residual.min_map_inf, r("0"));
//! # Ok::<(), proxima_lcp::LcpError>(())
//! ```
#![deny(missing_docs)]

pub mod active_set;
pub mod baraff;
mod error;
pub mod generate;
pub mod io;
pub mod iterative;
pub mod lemke;
pub mod linalg;
pub mod operator;
mod problem;
pub mod qp;
pub mod registry;
pub mod simplex;
mod solution;

pub use error::LcpError;
pub use lemke::{LemkeSettings, LemkeWorkspace, solve_lemke, solve_lemke_fixed};
pub use problem::{Lcp, LcpView};
pub use proxima_num::{Field, QuadraticField, Rational};
pub use qp::{ConvexQp, QpSettings, QpSolution, QpStatus, solve_qp};
pub use simplex::{Lp, SimplexSettings, SimplexSolution, SimplexStatus, solve_simplex};
pub use solution::{LcpResidual, LcpSolution, LcpStatus, SolvePath};
