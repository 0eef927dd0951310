//! Right-hand sides (spec §7.2).
//!
//! * [`RhsKind::MakeLcp`] (num4lcp's `make_lcp`, kept literally): x*_i ~ U[0, 1), set to 0
//!   where x*_i < F; b_i = −(A x*)_i where x*_i > 0 and b_i = 0 where x*_i = 0. At the zeros
//!   y_i = (A x*)_i may be negative, so x* is in general **not** a solution.
//! * [`RhsKind::Planted`] (\[X\]): the same x*, and b_i = −(A x*)_i + w_i with w_i ~ U[0, 1)
//!   where x*_i = 0: x* is a strictly complementary solution (y = w).
//! * [`RhsKind::Native`]: a family's own physical b (only the grid fluid has one); handled by
//!   [`generate`](super::generate), rejected by [`make_rhs`].

use rand::Rng;

use crate::error::LcpError;
use crate::operator::LinearOperator;

/// Which right-hand side to draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RhsKind {
    /// num4lcp's `make_lcp` with zero fraction F (spec: F = 0.25). No known solution.
    MakeLcp {
        /// F ∈ [0, 1]: entries of x* below F are set to 0.
        zero_fraction: f64,
    },
    /// A planted strictly complementary solution with zero fraction F.
    Planted {
        /// F ∈ [0, 1]: entries of x* below F are set to 0.
        zero_fraction: f64,
    },
    /// The family's own b (grid fluid: b = ∇·u*).
    Native,
}

impl RhsKind {
    /// The spec's default: `MakeLcp { zero_fraction: 0.25 }`.
    pub const MAKE_LCP_QUARTER: RhsKind = RhsKind::MakeLcp { zero_fraction: 0.25 };
    /// `Planted { zero_fraction: 0.25 }`.
    pub const PLANTED_QUARTER: RhsKind = RhsKind::Planted { zero_fraction: 0.25 };

    pub(crate) fn zero_fraction(self) -> f64 {
        match self {
            RhsKind::MakeLcp { zero_fraction } | RhsKind::Planted { zero_fraction } => zero_fraction,
            RhsKind::Native => 0.0,
        }
    }

    /// `"make_lcp"`, `"planted"` or `"native"`.
    pub fn label(self) -> &'static str {
        match self {
            RhsKind::MakeLcp { .. } => "make_lcp",
            RhsKind::Planted { .. } => "planted",
            RhsKind::Native => "native",
        }
    }
}

/// A drawn right-hand side.
#[derive(Debug, Clone, PartialEq)]
pub struct Rhs {
    /// b.
    pub b: Vec<f64>,
    /// The x* used to build b.
    pub x_star: Vec<f64>,
    /// `true` when x* is a solution by construction ([`RhsKind::Planted`]).
    pub is_solution: bool,
}

/// Draws b for the matrix `a` (spec §7.2).
pub fn make_rhs<A: LinearOperator + ?Sized, R: Rng + ?Sized>(
    a: &A,
    kind: RhsKind,
    rng: &mut R,
) -> Result<Rhs, LcpError> {
    if kind == RhsKind::Native {
        return Err(LcpError::InvalidSettings {
            field: "rhs",
            reason: "a native b comes from the family's generator",
        });
    }
    let f = kind.zero_fraction();
    if !(0.0..=1.0).contains(&f) {
        return Err(LcpError::InvalidSettings { field: "zero_fraction", reason: "must be in [0, 1]" });
    }
    let n = a.dim();
    let mut x: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
    x.iter_mut().filter(|v| **v < f).for_each(|v| *v = 0.0);
    let mut s = vec![0.0; n];
    a.apply(&x, &mut s);
    let planted = matches!(kind, RhsKind::Planted { .. });
    let b = x
        .iter()
        .zip(&s)
        .map(|(&xi, &si)| {
            if xi > 0.0 {
                -si
            } else if planted {
                -si + rng.random::<f64>()
            } else {
                0.0
            }
        })
        .collect();
    Ok(Rhs { b, x_star: x, is_solution: planted })
}
