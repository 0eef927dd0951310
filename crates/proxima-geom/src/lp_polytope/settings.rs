//! Settings of the vertex-LP collision test.

use crate::error::GeomError;

/// Settings for [`collide`](super::collide) and friends.
///
/// Tolerances are converted with [`Field::tolerance`](proxima_num::Field::tolerance): they are
/// exactly zero for exact scalars, whose verdicts are then exact. For floats they act on the
/// *normalised* problem (every coordinate in [−1, 1] after subtracting the centroid and
/// dividing by the largest deviation σ) when `normalize` is set; without normalisation they
/// are absolute, as in the article (the objective then depends on the frame and the units).
#[derive(Debug, Clone, PartialEq)]
pub struct LpCollisionSettings {
    /// "Colliding" when the LP objective f (the ℓ1 residual of (P1)) drops to ≤ this.
    /// A colliding verdict then implies dist₁ ≤ n·σ·eps_decision in original units.
    /// Default 1e-9.
    pub eps_decision: f64,
    /// Reduced-cost threshold of Bland's entering rule. Default 1e-12.
    pub eps_reduced_cost: f64,
    /// Pivot entries must exceed this (never pivot on round-off residue). Default 1e-9.
    pub eps_pivot: f64,
    /// Relative width of ratio-test ties. Default 1e-12.
    pub tie_rel: f64,
    /// Float runs: a separated verdict with objective f < `boundary_band` (the sets are within
    /// n·σ·`boundary_band` of each other) is flagged `near_boundary`. Default 1e-6.
    pub boundary_band: f64,
    /// Pivot limit; `None` means rows × columns of the tableau, (n + 3)(m + n + 3).
    pub max_pivots: Option<usize>,
    /// Centroid / max-deviation normalisation (verdict-invariant, removes the origin and unit
    /// dependence of the article's objective). Default `true`.
    pub normalize: bool,
    /// `f64` entry points only: re-solve in exact rational arithmetic when the float verdict
    /// is `near_boundary` or undecided (the input `f64` values convert exactly), and report
    /// [`LpPath::ExactFallback`](super::LpPath::ExactFallback). Default `true`.
    pub exact_fallback: bool,
}

impl Default for LpCollisionSettings {
    fn default() -> Self {
        Self {
            eps_decision: 1e-9,
            eps_reduced_cost: 1e-12,
            eps_pivot: 1e-9,
            tie_rel: 1e-12,
            boundary_band: 1e-6,
            max_pivots: None,
            normalize: true,
            exact_fallback: true,
        }
    }
}

impl LpCollisionSettings {
    /// The article's tolerance semantics: one ε = 1e-4 for all four roles, raw coordinates,
    /// no exact fallback. For regression and comparison only: it reports objects up to about
    /// 1e-4 apart (in raw ℓ1 units of a frame-dependent objective) as colliding. (The
    /// article's pivot-rule defects are *not* reproduced.)
    pub fn article() -> Self {
        Self {
            eps_decision: 1e-4,
            eps_reduced_cost: 1e-4,
            eps_pivot: 0.0,
            tie_rel: 1e-4,
            boundary_band: 0.0,
            max_pivots: None,
            normalize: false,
            exact_fallback: false,
        }
    }

    /// Checks every field: tolerances finite and ≥ 0, `max_pivots` ≥ 1 when given.
    pub fn validate(&self) -> Result<(), GeomError> {
        let fields = [
            ("eps_decision", self.eps_decision),
            ("eps_reduced_cost", self.eps_reduced_cost),
            ("eps_pivot", self.eps_pivot),
            ("tie_rel", self.tie_rel),
            ("boundary_band", self.boundary_band),
        ];
        for (field, value) in fields {
            if !(value.is_finite() && value >= 0.0) {
                return Err(GeomError::InvalidSettings { field, reason: "must be finite and >= 0" });
            }
        }
        if self.max_pivots == Some(0) {
            return Err(GeomError::InvalidSettings { field: "max_pivots", reason: "must be >= 1" });
        }
        Ok(())
    }
}
