//! Settings for Lemke's method.

use crate::error::LcpError;

/// The covering vector d > 0 of the auxiliary column (w = q + M z + z₀ d).
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub enum Covering {
    /// d = (1, …, 1), the textbook choice.
    #[default]
    Ones,
    /// A user-given positive vector (must have length n, all entries > 0 and finite).
    Custom(Vec<f64>),
}

/// What to do when plain Lemke ray-terminates (or, in floats, is not certified).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LemkeFallback {
    /// Restarts with other covering vectors after a ray termination (0 disables); the
    /// deterministic sequence is documented in the `covering` module of `lemke`. Default 4.
    pub covering_restarts: usize,
    /// Exhaustive enumeration of complementary bases when n ≤ this (0 disables; never above
    /// 30): finds a solution, or proves there is none when no principal submatrix is
    /// singular. Default 12 (4096 bases).
    pub enumeration_max_n: usize,
    /// For float scalars: re-solve in exact rational arithmetic when the float answer fails
    /// its residual check, or when a float "no solution" / pivot-limit verdict rests on
    /// numerically close decisions, for n ≤ this (0 disables). Default 64.
    pub exact_resolve_max_n: usize,
}

impl Default for LemkeFallback {
    fn default() -> Self {
        Self { covering_restarts: 4, enumeration_max_n: 12, exact_resolve_max_n: 64 }
    }
}

impl LemkeFallback {
    /// No fallback at all: textbook Lemke.
    pub fn none() -> Self {
        Self { covering_restarts: 0, enumeration_max_n: 0, exact_resolve_max_n: 0 }
    }
}

/// Settings for [`solve_lemke`](super::solve_lemke) and friends.
#[derive(Debug, Clone, PartialEq)]
pub struct LemkeSettings {
    /// Pivot limit per attempt (each restart gets its own); `None` means
    /// max(n², 2n + 2, 2^min(n+1, 16)), see [`Self::max_pivots_for`].
    pub max_pivots: Option<usize>,
    /// Relative pivot tolerance for float scalars: a column entry counts as a pivot candidate
    /// only if its magnitude exceeds `pivot_tolerance × scale`, scale = max(1, |M|∞, |q|∞);
    /// floored at 64 ε of the scalar type (so `f32` uses ≈ 7.6e-6). Ignored (zero) for exact
    /// scalars. Default 1e-12.
    pub pivot_tolerance: f64,
    /// Relative residual tolerance used to certify a float answer:
    /// ‖min(z, w)‖∞ ≤ `residual_tolerance × scale × n`; floored at 1000 ε of the scalar type
    /// (≈ 1.2e-4 for `f32`). Exact answers must have a zero residual. Default 1e-9.
    pub residual_tolerance: f64,
    /// Covering vector. Default all ones.
    pub covering: Covering,
    /// Fallbacks after ray termination or an uncertified float answer.
    pub fallback: LemkeFallback,
}

impl Default for LemkeSettings {
    fn default() -> Self {
        Self {
            max_pivots: None,
            pivot_tolerance: 1e-12,
            residual_tolerance: 1e-9,
            covering: Covering::Ones,
            fallback: LemkeFallback::default(),
        }
    }
}

impl LemkeSettings {
    /// Textbook Lemke: covering vector of ones, no fallbacks.
    pub fn textbook() -> Self {
        Self { fallback: LemkeFallback::none(), ..Self::default() }
    }

    /// The pivot limit for a problem of size n.
    ///
    /// The default max(n², 2n + 2, 2^min(n+1, 16)) lets Lemke finish Murty's exponential
    /// examples (exactly 2ⁿ pivots) up to n = 15. With the lexicographic rule Lemke always
    /// terminates in exact arithmetic; the limit guards float runs and huge problems.
    pub fn max_pivots_for(&self, n: usize) -> usize {
        self.max_pivots.unwrap_or_else(|| (n * n).max(2 * n + 2).max(1 << (n + 1).min(16)))
    }

    /// Checks every field against its documented range (n is the problem size).
    pub fn validate(&self, n: usize) -> Result<(), LcpError> {
        if !(self.pivot_tolerance.is_finite() && self.pivot_tolerance >= 0.0) {
            return Err(LcpError::InvalidSettings {
                field: "pivot_tolerance",
                reason: "must be finite and >= 0",
            });
        }
        if !(self.residual_tolerance.is_finite() && self.residual_tolerance > 0.0) {
            return Err(LcpError::InvalidSettings {
                field: "residual_tolerance",
                reason: "must be finite and > 0",
            });
        }
        if self.max_pivots == Some(0) {
            return Err(LcpError::InvalidSettings { field: "max_pivots", reason: "must be >= 1" });
        }
        if let Covering::Custom(d) = &self.covering {
            if d.len() != n {
                return Err(LcpError::DimensionMismatch {
                    what: "covering vector",
                    expected: n,
                    found: d.len(),
                });
            }
            if d.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
                return Err(LcpError::InvalidSettings {
                    field: "covering",
                    reason: "entries must be finite and > 0",
                });
            }
        }
        Ok(())
    }
}
