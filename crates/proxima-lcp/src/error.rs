//! Input errors: what was wrong with the data handed to a solver.
//!
//! Algorithm outcomes (no solution, iteration limit, ...) are *not* errors: they are
//! [`LcpStatus`](crate::LcpStatus) values inside a solution.

use core::fmt;

/// Why an LCP/QP input was rejected. Carries the offending sizes or positions.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum LcpError {
    /// The problem has no variables (n = 0).
    Empty,
    /// The matrix is not square.
    NotSquare {
        /// Number of rows found.
        rows: usize,
        /// Number of columns found (of the first offending row for ragged input).
        cols: usize,
    },
    /// Two inputs that must agree in size do not.
    DimensionMismatch {
        /// Which input is wrong (e.g. `"q"`, `"M row 3"`, `"D"`).
        what: &'static str,
        /// The size required.
        expected: usize,
        /// The size given.
        found: usize,
    },
    /// A NaN or infinite entry.
    NonFinite {
        /// Which input holds it (e.g. `"M"`, `"q"`).
        what: &'static str,
        /// Flat (row-major) position of the entry.
        index: usize,
    },
    /// A settings field is out of its documented range.
    InvalidSettings {
        /// The field name.
        field: &'static str,
        /// Why it is invalid.
        reason: &'static str,
    },
    /// A splitting method (Jacobi, PGS, PSOR) needs a positive diagonal entry here.
    ZeroDiagonal {
        /// The row whose diagonal entry is zero (or negative / not usable).
        index: usize,
        /// The entry found.
        value: f64,
    },
    /// Box bounds with lo > hi (or a NaN bound) for a boxed LCP variable.
    InvalidBounds {
        /// The variable.
        index: usize,
        /// Its lower bound.
        lo: f64,
        /// Its upper bound.
        hi: f64,
    },
    /// A structural requirement of the problem is violated (e.g. the quadratic block of free
    /// variables in a QP is not positive definite).
    InvalidProblem {
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for LcpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LcpError::Empty => write!(f, "empty problem: no variables"),
            LcpError::NotSquare { rows, cols } => {
                write!(f, "matrix is not square: {rows} rows but a row of {cols} columns")
            }
            LcpError::DimensionMismatch { what, expected, found } => {
                write!(f, "dimension mismatch in {what}: expected {expected}, found {found}")
            }
            LcpError::NonFinite { what, index } => {
                write!(f, "non-finite value (NaN or infinity) in {what} at index {index}")
            }
            LcpError::InvalidSettings { field, reason } => {
                write!(f, "invalid setting {field}: {reason}")
            }
            LcpError::ZeroDiagonal { index, value } => write!(
                f,
                "diagonal entry {index} is {value}: splitting methods (Jacobi, PGS, PSOR) need a positive diagonal"
            ),
            LcpError::InvalidBounds { index, lo, hi } => {
                write!(f, "inconsistent bounds for variable {index}: lo = {lo} > hi = {hi} (or NaN)")
            }
            LcpError::InvalidProblem { reason } => write!(f, "invalid problem: {reason}"),
        }
    }
}

impl std::error::Error for LcpError {}
