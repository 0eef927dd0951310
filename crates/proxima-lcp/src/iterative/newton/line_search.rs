//! The projected Armijo back-tracking line search of spec §3.5.
//!
//! # The maths
//!
//! Given the merit ψ(τ) = θ(max(0, x + τΔx)) with ψ(0) = θ(x) and the directional derivative
//! ∇ψ(0) = ∇θ(x)ᵀΔx (computed with the direction actually used), return τ = β^h with the
//! smallest integer h ≥ 0 such that
//!
//! ```text
//! ψ(τ) ≤ ψ(0) + α τ ∇ψ(0)                                                      (83)
//! ```
//!
//! The trial point is projected before the merit is evaluated (the notes' remedy for
//! infeasible local minima). With the guard δ > 0 the search gives up and returns the current
//! (tiny) τ as soon as τ < δ and Armijo failed; without it (δ = 0) the search continues until
//! Armijo holds, which it does at the latest when τ underflows to 0 (ψ(0) ≤ ψ(0)).

use crate::error::LcpError;

/// Line-search parameters (spec §3.5; defaults are the Nocedal–Wright values the notes quote
/// and the companion code's guard).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineSearchSettings {
    /// α ∈ (0, 1): sufficient-decrease factor of (83). Default 1e-4.
    pub sufficient_decrease: f64,
    /// β ∈ (0, 1): step reduction per back-track. Default 0.5.
    pub reduction: f64,
    /// δ ≥ 0: give up once τ < δ (0 disables the guard). Default 1e-14 (the companion code's
    /// τ² < 1e-28).
    pub min_step: f64,
}

impl Default for LineSearchSettings {
    fn default() -> Self {
        LineSearchSettings { sufficient_decrease: 1e-4, reduction: 0.5, min_step: 1e-14 }
    }
}

impl LineSearchSettings {
    /// Checks α, β ∈ (0, 1) and δ ∈ [0, 1).
    pub fn validate(&self) -> Result<(), LcpError> {
        let open = |v: f64| v > 0.0 && v < 1.0;
        if !open(self.sufficient_decrease) {
            return Err(LcpError::InvalidSettings {
                field: "sufficient_decrease",
                reason: "must be in (0, 1)",
            });
        }
        if !open(self.reduction) {
            return Err(LcpError::InvalidSettings { field: "reduction", reason: "must be in (0, 1)" });
        }
        if !(self.min_step >= 0.0 && self.min_step < 1.0) {
            return Err(LcpError::InvalidSettings { field: "min_step", reason: "must be in [0, 1)" });
        }
        Ok(())
    }
}

/// The result of one line search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineSearchOutcome {
    /// The accepted step τ.
    pub step: f64,
    /// ψ(τ) = θ(max(0, x + τΔx)).
    pub merit: f64,
    /// Merit evaluations performed.
    pub evaluations: usize,
    /// `true` when (83) holds at τ; `false` when the guard stopped the search.
    pub armijo: bool,
}

/// Runs the projected back-tracking search. `merit(trial)` evaluates θ at a trial point;
/// `trial` (scratch, length n) receives max(0, x + τΔx) before each call and holds the point of
/// the returned τ afterwards.
pub fn projected_line_search(
    x: &[f64],
    dx: &[f64],
    merit0: f64,
    slope0: f64,
    settings: &LineSearchSettings,
    trial: &mut [f64],
    mut merit: impl FnMut(&[f64]) -> f64,
) -> LineSearchOutcome {
    let mut tau = 1.0;
    let mut evaluations = 0;
    loop {
        for ((t, xi), di) in trial.iter_mut().zip(x).zip(dx) {
            *t = (xi + tau * di).max(0.0);
        }
        let psi = merit(trial);
        evaluations += 1;
        if psi <= merit0 + settings.sufficient_decrease * tau * slope0 {
            return LineSearchOutcome { step: tau, merit: psi, evaluations, armijo: true };
        }
        if tau < settings.min_step || tau == 0.0 {
            return LineSearchOutcome { step: tau, merit: psi, evaluations, armijo: false };
        }
        tau *= settings.reduction;
    }
}
