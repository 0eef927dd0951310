//! Settings of the simplex method.

use crate::error::LcpError;

/// Settings for [`solve_simplex`](super::solve_simplex).
///
/// Every tolerance is *relative*: it is multiplied by the problem scale
/// s = max(1, max|A|, max|b|, max|c|) and converted with
/// [`Field::tolerance`](proxima_num::Field::tolerance), so it is exactly zero for exact
/// scalars (`Rational`, `QuadraticField`), whose decisions are then exact.
#[derive(Debug, Clone, PartialEq)]
pub struct SimplexSettings {
    /// Pivot limit over both phases (including the pivots that drive artificial variables out
    /// of the basis); `None` means max(1000, 50 (m + n)), see [`Self::max_iterations_for`].
    /// Bland's rule terminates in exact arithmetic; the limit guards float runs.
    pub max_iterations: Option<usize>,
    /// A pivot entry must exceed `pivot_tolerance × s`. Default 1e-9.
    pub pivot_tolerance: f64,
    /// A column enters only if its reduced cost is below `−optimality_tolerance × s`.
    /// Default 1e-12.
    pub optimality_tolerance: f64,
    /// Phase I declares the problem feasible when the sum of the artificial variables is at
    /// most `feasibility_tolerance × s`. Default 1e-9.
    pub feasibility_tolerance: f64,
    /// Relative width of a ratio-test tie (ratio ≤ q_min + tie (1 + |q_min|)), not scaled.
    /// Default 1e-12.
    pub tie_tolerance: f64,
}

impl Default for SimplexSettings {
    fn default() -> Self {
        Self {
            max_iterations: None,
            pivot_tolerance: 1e-9,
            optimality_tolerance: 1e-12,
            feasibility_tolerance: 1e-9,
            tie_tolerance: 1e-12,
        }
    }
}

impl SimplexSettings {
    /// The pivot limit for m constraints and n variables.
    pub fn max_iterations_for(&self, m: usize, n: usize) -> usize {
        self.max_iterations.unwrap_or_else(|| (50 * (m + n)).max(1000))
    }

    /// Checks every field against its documented range: tolerances finite and ≥ 0,
    /// `max_iterations` ≥ 1 when given.
    pub fn validate(&self) -> Result<(), LcpError> {
        let fields = [
            ("pivot_tolerance", self.pivot_tolerance),
            ("optimality_tolerance", self.optimality_tolerance),
            ("feasibility_tolerance", self.feasibility_tolerance),
            ("tie_tolerance", self.tie_tolerance),
        ];
        for (field, value) in fields {
            if !(value.is_finite() && value >= 0.0) {
                return Err(LcpError::InvalidSettings { field, reason: "must be finite and >= 0" });
            }
        }
        if self.max_iterations == Some(0) {
            return Err(LcpError::InvalidSettings { field: "max_iterations", reason: "must be >= 1" });
        }
        Ok(())
    }
}
