//! Convex quadratic programs (and LPs) solved through the LCP.
//!
//! CONTRACT FILE — the public API below is fixed; the implementation is being written.

use proxima_num::Field;

use crate::error::LcpError;
use crate::lemke::LemkeSettings;
use crate::solution::LcpSolution;

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

impl<T: Field> ConvexQp<T> {
    /// The objective ½xᵀAx + bᵀx + c with only x ≥ 0; A is n × n row-major.
    pub fn new(a: Vec<T>, b: Vec<T>, c: T) -> Result<Self, LcpError> {
        let _ = (a, b, c);
        todo!()
    }
    /// An LP: minimize bᵀx + c (A = 0).
    pub fn linear(b: Vec<T>, c: T) -> Result<Self, LcpError> {
        let _ = (b, c);
        todo!()
    }
    /// Adds D x ≥ e (D is m × n row-major).
    pub fn with_inequalities(self, d: Vec<T>, e: Vec<T>) -> Result<Self, LcpError> {
        let _ = (d, e);
        todo!()
    }
    /// Adds A_eq x = b_eq (A_eq is p × n row-major).
    pub fn with_equalities(self, aeq: Vec<T>, beq: Vec<T>) -> Result<Self, LcpError> {
        let _ = (aeq, beq);
        todo!()
    }
    /// Marks variables as free (no x_i ≥ 0 bound).
    pub fn with_free(self, free: Vec<usize>) -> Result<Self, LcpError> {
        let _ = free;
        todo!()
    }
}

/// Solves a convex QP through Lemke's method.
pub fn solve_qp<T: Field>(qp: &ConvexQp<T>, settings: &QpSettings) -> Result<QpSolution<T>, LcpError> {
    let _ = (qp, settings);
    todo!()
}
