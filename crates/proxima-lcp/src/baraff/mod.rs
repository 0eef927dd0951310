//! Baraff-style incremental pivoting (a Dantzig method) for LCP(A, b) and for boxed LCPs.
//!
//! # The maths (spec §3.2, with its \[R\] corrections)
//!
//! Find x ≥ 0 with y = A x + b ≥ 0 and xᵀy = 0. Every index is in one of three sets: 𝒜
//! (active: x > 0 allowed, y = 0), ℱ (free: x = 0, y ≥ 0) or 𝒰 (unprocessed: x = 0). The
//! invariants y_𝒜 = 0, x_ℱ = 0, x_𝒜 ≥ 0, y_ℱ ≥ 0 hold after every pivot. An outer pass picks
//! the most violated j = argmin_{𝒰} y (ties: lowest index), stops when y_j ≥ −tol, and
//! otherwise drives x_j up along
//!
//! ```text
//! Δx_j = 1,  Δx_𝒜 = −A_𝒜𝒜⁻¹ A_𝒜j,  Δx_ℱ = 0,  Δy = A Δx   (Δy_𝒜 = 0)
//! ```
//!
//! until the first blocking event: y_j reaches 0 (only if Δy_j > 0; j joins 𝒜), some
//! x_q (q ∈ 𝒜, Δx_q < 0) reaches 0 (q moves to ℱ), or some y_r (r ∈ ℱ, Δy_r < 0) reaches 0
//! (r moves to 𝒜). Ties prefer j, then the lowest index. Nothing blocking is an unbounded ray
//! ([`LcpStatus::NoSolution`]) **only when the ray proves infeasibility** \[X\]: with
//! g = Aᵀd, every solution x̄ would satisfy ȳᵀd ≥ 0 (d moves only towards infinite bounds), while
//! ȳᵀd = x̄ᵀg + bᵀd ≤ bᵀd + Σᵢ sup_{loᵢ ≤ xᵢ ≤ hiᵢ} xᵢgᵢ; if that bound is negative there is no
//! solution (plain LCP: d ≥ 0, Aᵀd ≤ 0, bᵀd < 0 — Farkas). For symmetric PSD A every ray
//! passes (dᵀAd = Δy_j ≤ 0 forces A d = 0). A ray that is not a proof (A outside the method's
//! class, e.g. non-symmetric contact matrices) ends with `NumericalFailure`. Each index leaves 𝒰 once, so there are at most n outer
//! passes; for symmetric PD A the inner loop terminates (an active set never repeats).
//!
//! **Boxed LCP** lo ≤ x ≤ hi (lo may be −∞, hi +∞): for each i either x_i = lo_i and
//! y_i ≥ 0, or x_i = hi_i and y_i ≤ 0, or lo_i < x_i < hi_i and y_i = 0 (the plain LCP is
//! lo = 0, hi = ∞). The same pivoting runs with three processed sets — at lower bound,
//! at upper bound, clamped (y = 0) — see [`IndexState`]. An unprocessed variable sits at
//! clamp(0, lo, hi); it is violated when y < 0 and x < hi (drive up) or y > 0 and x > lo
//! (drive down); the driven variable also stops at its own bound.
//!
//! # Incremental factorization
//!
//! A_𝒞𝒞⁻¹ (𝒞 = the clamped/active set) is kept as an explicit inverse updated by bordering in
//! O(|𝒞|²) per pivot (not refactored per pivot), refactored from scratch every
//! [`BaraffSettings::refactor_interval`] updates (by default max(64, |𝒞|)); every direction is checked through
//! Δy_𝒞 ≈ 0 (one step of iterative refinement, then a refactorization, then
//! [`LcpStatus::NumericalFailure`] if the check still fails). A numerically singular A_𝒞𝒞 (for
//! PSD or indefinite A) also ends with `NumericalFailure`.
//!
//! # Certification
//!
//! At the end x_𝒞 is re-solved from A and b with a fresh factorization ("polish"), y = A x + b
//! is recomputed, and `Solved` / `Trivial` is reported only when the residual computed from A and b
//! meets [`BaraffSettings::residual_tolerance`]; otherwise `NumericalFailure`.
//!
//! # Edge cases
//!
//! * b ≥ 0 → x = 0 with [`LcpStatus::Trivial`] (no pivot).
//! * 1-D (a, b) = (−1, −1) or (0, −1): unbounded ray with certificate d = 1 → `NoSolution`.
//! * Friction index (ODE style, |xᵢ| ≤ µᵢ x_normal): [`solve_baraff_friction`], a fixed point
//!   over boxed solves.
//! * Warm start ([`solve_baraff_warm`]): an initial active set; indices whose re-solved x would
//!   leave its bounds are dropped one at a time until the invariants hold.

mod friction;
mod inverse;
mod pivot;

use crate::error::LcpError;
use crate::operator::{DenseMatrix, LinearOperator};
use crate::solution::{LcpResidual, LcpStatus};

pub use friction::{FrictionIndex, FrictionSolution, solve_baraff_friction};
pub use pivot::{IndexState, PivotEvent};

/// Settings of the pivoting solvers. All tolerances are relative; the scales are
/// s_A = max|A_ij| and s_b = max(1, ‖b‖∞).
#[derive(Debug, Clone, PartialEq)]
pub struct BaraffSettings {
    /// A direction component counts as blocking only beyond this: |Δx_q| > `pivot_tolerance`,
    /// |Δy_r| > `pivot_tolerance`·s_A. Default 1e-12.
    pub pivot_tolerance: f64,
    /// An unprocessed index is violated when its violation exceeds
    /// `feasibility_tolerance`·s_b. Default 1e-12.
    pub feasibility_tolerance: f64,
    /// A Schur complement (or removal pivot) of magnitude ≤ `singular_tolerance`·s_A means
    /// A_𝒞𝒞 is singular → `NumericalFailure`. Default 1e-13.
    pub singular_tolerance: f64,
    /// Certification: ‖min(x, y)‖∞ (plain) or the natural boxed residual must be
    /// ≤ `residual_tolerance`·max(s_b, s_A·‖x‖∞). Default 1e-9.
    pub residual_tolerance: f64,
    /// Pivot limit; `None` means n² + 10 n + 100. Reaching it gives `MaxIterations`.
    pub max_pivots: Option<usize>,
    /// Refactor A_𝒞𝒞⁻¹ from scratch after this many bordering updates. `None` (default):
    /// after max(64, |𝒞|) updates, so the O(|𝒞|³) refactorization amortizes to the O(|𝒞|²)
    /// of an update (a direction failing the Δy_𝒞 ≈ 0 check refactors at once anyway).
    pub refactor_interval: Option<usize>,
}

impl Default for BaraffSettings {
    fn default() -> Self {
        BaraffSettings {
            pivot_tolerance: 1e-12,
            feasibility_tolerance: 1e-12,
            singular_tolerance: 1e-13,
            residual_tolerance: 1e-9,
            max_pivots: None,
            refactor_interval: None,
        }
    }
}

impl BaraffSettings {
    /// Checks every field: tolerances finite and ≥ 0, `refactor_interval` ≥ 1 when set, a pivot limit
    /// (when given) ≥ 1.
    pub fn validate(&self) -> Result<(), LcpError> {
        for (v, field) in [
            (self.pivot_tolerance, "pivot_tolerance"),
            (self.feasibility_tolerance, "feasibility_tolerance"),
            (self.singular_tolerance, "singular_tolerance"),
            (self.residual_tolerance, "residual_tolerance"),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(LcpError::InvalidSettings { field, reason: "must be finite and >= 0" });
            }
        }
        if self.refactor_interval == Some(0) {
            return Err(LcpError::InvalidSettings { field: "refactor_interval", reason: "must be >= 1" });
        }
        if self.max_pivots == Some(0) {
            return Err(LcpError::InvalidSettings { field: "max_pivots", reason: "must be >= 1" });
        }
        Ok(())
    }

    /// The pivot limit for n variables.
    pub fn max_pivots_for(&self, n: usize) -> usize {
        self.max_pivots.unwrap_or(n * n + 10 * n + 100)
    }
}

/// The answer of [`solve_baraff`] / [`solve_baraff_warm`].
#[derive(Debug, Clone, PartialEq)]
pub struct BaraffSolution {
    /// `Trivial` / `Solved` (certified by the residual), `NoSolution` (an unbounded ray that
    /// proves infeasibility, see [`Self::infeasibility_certificate`]), `NumericalFailure`
    /// (singular A_𝒜𝒜, a ray that proves nothing, or a failed residual check),
    /// `MaxIterations`.
    pub status: LcpStatus,
    /// The final x (≥ 0).
    pub z: Vec<f64>,
    /// y = A x + b recomputed from the data.
    pub w: Vec<f64>,
    /// Inner pivots performed (set changes, including the driven index joining 𝒜).
    pub pivots: usize,
    /// Outer passes (driving indices selected); at most n.
    pub outer_passes: usize,
    /// Refactorizations of A_𝒜𝒜⁻¹ from scratch (periodic or by the accuracy guard).
    pub refactorizations: usize,
    /// The final active set 𝒜 (x may be > 0, y = 0), ascending.
    pub active: Vec<usize>,
    /// Residuals computed from A and b.
    pub residual: LcpResidual<f64>,
    /// With `NoSolution`: d ≥ 0 with Aᵀd ≤ 0 and bᵀd < 0 (to tolerance), which no solution
    /// can coexist with. `None` otherwise.
    pub infeasibility_certificate: Option<Vec<f64>>,
}

/// Residuals of a boxed-LCP iterate computed from A, b, lo, hi.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxedResidual {
    /// The natural residual maxᵢ |xᵢ − clamp(xᵢ − yᵢ, loᵢ, hiᵢ)|, zero exactly at a solution.
    pub natural_inf: f64,
    /// Largest bound violation maxᵢ max(loᵢ − xᵢ, xᵢ − hiᵢ, 0).
    pub bound_violation: f64,
}

/// The answer of [`solve_baraff_boxed`].
#[derive(Debug, Clone, PartialEq)]
pub struct BoxedBaraffSolution {
    /// Same vocabulary as [`BaraffSolution::status`].
    pub status: LcpStatus,
    /// The final x (within bounds).
    pub x: Vec<f64>,
    /// y = A x + b recomputed from the data.
    pub y: Vec<f64>,
    /// Final state of every variable (never `Unprocessed`).
    pub states: Vec<IndexState>,
    /// Inner pivots performed.
    pub pivots: usize,
    /// Outer passes (driving indices selected); at most n.
    pub outer_passes: usize,
    /// Refactorizations of A_𝒞𝒞⁻¹ from scratch.
    pub refactorizations: usize,
    /// Residuals computed from the data.
    pub residual: BoxedResidual,
    /// With `NoSolution`: the ray d that proves infeasibility (see the module docs).
    pub infeasibility_certificate: Option<Vec<f64>>,
}

/// The natural residual of a boxed LCP (see [`BoxedResidual`]); y = A x + b is given.
pub fn boxed_residual(lo: &[f64], hi: &[f64], x: &[f64], y: &[f64]) -> BoxedResidual {
    let mut r = BoxedResidual { natural_inf: 0.0, bound_violation: 0.0 };
    for i in 0..x.len() {
        let projected = (x[i] - y[i]).max(lo[i]).min(hi[i]);
        r.natural_inf = r.natural_inf.max((x[i] - projected).abs());
        r.bound_violation = r.bound_violation.max(lo[i] - x[i]).max(x[i] - hi[i]);
    }
    r
}

/// Does the ray d prove that the (boxed) LCP has no solution? Checks
/// bᵀd + Σᵢ sup_{xᵢ ∈ [loᵢ, hiᵢ]} xᵢ (Aᵀd)ᵢ < 0 with entries of Aᵀd below a relative tolerance
/// treated as zero and a relative margin on the sum.
fn ray_certifies(a: &DenseMatrix, b: &[f64], lo: &[f64], hi: &[f64], d: &[f64], scale_a: f64) -> bool {
    let n = a.n();
    let d1: f64 = d.iter().map(|v| v.abs()).sum();
    if d1 == 0.0 {
        return false;
    }
    let mut g = vec![0.0; n];
    for (i, &di) in d.iter().enumerate() {
        if di != 0.0 {
            for (gk, aik) in g.iter_mut().zip(a.row(i)) {
                *gk += di * aik;
            }
        }
    }
    let g_tol = 1e-9 * scale_a * d1;
    let mut bound = 0.0;
    let mut margin = 0.0;
    for i in 0..n {
        bound += b[i] * d[i];
        margin += (b[i] * d[i]).abs();
        let gi = g[i];
        if gi.abs() <= g_tol {
            // Treated as zero; with finite bounds the true contribution is at most |gᵢ|·|bound|.
            let reach = lo[i].abs().max(hi[i].abs());
            if reach.is_finite() {
                margin += g_tol * reach;
            }
            continue;
        }
        let sup = if gi > 0.0 { hi[i] * gi } else { lo[i] * gi };
        if !sup.is_finite() {
            return false;
        }
        bound += sup;
        margin += sup.abs();
    }
    bound < -1e-9 * margin.max(f64::MIN_POSITIVE)
}

fn settle(status: LcpStatus, ray_ok: impl FnOnce() -> bool) -> LcpStatus {
    if status == LcpStatus::NoSolution && !ray_ok() { LcpStatus::NumericalFailure } else { status }
}

fn check_vector(v: &[f64], n: usize, what: &'static str) -> Result<(), LcpError> {
    if v.len() != n {
        return Err(LcpError::DimensionMismatch { what, expected: n, found: v.len() });
    }
    if let Some(index) = v.iter().position(|a| !a.is_finite()) {
        return Err(LcpError::NonFinite { what, index });
    }
    Ok(())
}

fn assemble<A: LinearOperator + ?Sized>(a: &A) -> Result<DenseMatrix, LcpError> {
    if a.dim() == 0 {
        return Err(LcpError::Empty);
    }
    let dense = a.to_dense();
    if let Some(index) = dense.data().iter().position(|v| !v.is_finite()) {
        return Err(LcpError::NonFinite { what: "A", index });
    }
    Ok(dense)
}

fn check_active(active: &[usize], n: usize) -> Result<(), LcpError> {
    if let Some(&bad) = active.iter().find(|&&i| i >= n) {
        return Err(LcpError::DimensionMismatch {
            what: "initial active set index",
            expected: n,
            found: bad,
        });
    }
    Ok(())
}

/// Solves LCP(A, b) by Baraff's incremental pivoting from empty index sets.
pub fn solve_baraff<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    settings: &BaraffSettings,
) -> Result<BaraffSolution, LcpError> {
    solve_baraff_observed(a, b, &[], settings, &mut |_| {})
}

/// Solves LCP(A, b) by Baraff's pivoting, warm-started from an initial active set (e.g. the
/// previous frame's [`BaraffSolution::active`]).
pub fn solve_baraff_warm<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    initial_active: &[usize],
    settings: &BaraffSettings,
) -> Result<BaraffSolution, LcpError> {
    solve_baraff_observed(a, b, initial_active, settings, &mut |_| {})
}

/// [`solve_baraff_warm`] with an observer called after every pivot (and once after the warm
/// start) with the current x, y and index states — for invariant checks and visualisation.
pub fn solve_baraff_observed<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    initial_active: &[usize],
    settings: &BaraffSettings,
    observer: &mut dyn FnMut(&PivotEvent<'_>),
) -> Result<BaraffSolution, LcpError> {
    settings.validate()?;
    let dense = assemble(a)?;
    let n = dense.n();
    check_vector(b, n, "b")?;
    check_active(initial_active, n)?;
    let lo = vec![0.0; n];
    let hi = vec![f64::INFINITY; n];
    let run = pivot::run(&dense, b, &lo, &hi, initial_active, settings, observer);
    let ray = run.ray.as_deref().unwrap_or(&[]);
    let certified =
        run.status == LcpStatus::NoSolution && ray_certifies(&dense, b, &lo, &hi, ray, run.scale_a);
    let run_status = settle(run.status, || certified);
    let (w, residual) = crate::iterative::lcp_residual_f64(&dense, b, &run.x);
    let scale = run.scale_b.max(run.scale_a * run.x.iter().fold(0.0f64, |m, v| m.max(v.abs())));
    let status = match run_status {
        s if s.is_solved() && residual.min_map_inf > settings.residual_tolerance * scale => {
            LcpStatus::NumericalFailure
        }
        s => s,
    };
    let active = (0..n).filter(|&i| run.states[i] == IndexState::Clamped).collect();
    let infeasibility_certificate = if certified { run.ray } else { None };
    Ok(BaraffSolution {
        status,
        z: run.x,
        w,
        pivots: run.pivots,
        outer_passes: run.outer_passes,
        refactorizations: run.refactorizations,
        active,
        residual,
        infeasibility_certificate,
    })
}

/// Solves the boxed LCP lo ≤ x ≤ hi, y = A x + b (x = lo ⇒ y ≥ 0, x = hi ⇒ y ≤ 0, in between
/// ⇒ y = 0) by Dantzig-style pivoting over three index sets. Bounds may be infinite; lo > hi
/// or a NaN bound is [`LcpError::InvalidBounds`]. `initial_clamped` warm-starts the clamped
/// set (empty for a cold start).
pub fn solve_baraff_boxed<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    lo: &[f64],
    hi: &[f64],
    initial_clamped: &[usize],
    settings: &BaraffSettings,
) -> Result<BoxedBaraffSolution, LcpError> {
    settings.validate()?;
    let dense = assemble(a)?;
    let n = dense.n();
    check_vector(b, n, "b")?;
    for (what, v) in [("lo", lo), ("hi", hi)] {
        if v.len() != n {
            return Err(LcpError::DimensionMismatch { what, expected: n, found: v.len() });
        }
    }
    for i in 0..n {
        let bad = lo[i].is_nan()
            || hi[i].is_nan()
            || lo[i] > hi[i]
            || lo[i] == f64::INFINITY
            || hi[i] == f64::NEG_INFINITY;
        if bad {
            return Err(LcpError::InvalidBounds { index: i, lo: lo[i], hi: hi[i] });
        }
    }
    check_active(initial_clamped, n)?;
    let run = pivot::run(&dense, b, lo, hi, initial_clamped, settings, &mut |_| {});
    let ray = run.ray.as_deref().unwrap_or(&[]);
    let certified = run.status == LcpStatus::NoSolution && ray_certifies(&dense, b, lo, hi, ray, run.scale_a);
    let run_status = settle(run.status, || certified);
    let mut y = vec![0.0; n];
    dense.apply(&run.x, &mut y);
    y.iter_mut().zip(b).for_each(|(yi, bi)| *yi += bi);
    let residual = boxed_residual(lo, hi, &run.x, &y);
    let finite_max = |v: &[f64]| v.iter().filter(|a| a.is_finite()).fold(0.0f64, |m, a| m.max(a.abs()));
    let scale = run.scale_b.max(run.scale_a * finite_max(&run.x));
    let status = match run_status {
        s if s.is_solved()
            && (residual.natural_inf > settings.residual_tolerance * scale
                || residual.bound_violation > 0.0) =>
        {
            LcpStatus::NumericalFailure
        }
        s => s,
    };
    Ok(BoxedBaraffSolution {
        status,
        x: run.x,
        y,
        states: run.states,
        pivots: run.pivots,
        outer_passes: run.outer_passes,
        refactorizations: run.refactorizations,
        residual,
        infeasibility_certificate: if certified { run.ray } else { None },
    })
}
