//! Linear complementarity problems (LCP), convex quadratic programs and LPs.
//!
//! (Crate docs: to be completed.)
#![deny(missing_docs)]

mod error;
pub mod io;
pub mod lemke;
pub mod linalg;
mod problem;
pub mod qp;
mod solution;

pub use error::LcpError;
pub use lemke::{LemkeSettings, LemkeWorkspace, solve_lemke, solve_lemke_fixed};
pub use problem::{Lcp, LcpView};
pub use qp::{ConvexQp, QpSettings, QpSolution, QpStatus, solve_qp};
pub use proxima_num::{Field, QuadraticField, Rational};
pub use solution::{LcpResidual, LcpSolution, LcpStatus, SolvePath};
