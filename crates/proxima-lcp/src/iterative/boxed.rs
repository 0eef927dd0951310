//! Boxed LCPs (mixed complementarity with bounds, the form ODE, Bullet and DART hand over),
//! solved by projected Gauss–Seidel / SOR.
//!
//! # The problem
//!
//! Given A, b and bounds lo ≤ hi (±∞ allowed), find x with y = A x + b and, for every i,
//!
//! * lo_i < x_i < hi_i ⇒ y_i = 0,
//! * x_i = lo_i ⇒ y_i ≥ 0,
//! * x_i = hi_i ⇒ y_i ≤ 0.
//!
//! Equivalently x = clamp(x − y, lo, hi): the natural residual φ(x) = x − clamp(x − y, lo, hi)
//! vanishes exactly at solutions. lo = 0, hi = +∞ is the plain LCP; lo = −∞, hi = +∞ a linear
//! equation.
//!
//! **Friction index** (ODE's `findex`): variable i may take its bounds from another variable
//! j, lo_i = −µ_i |x_j|, hi_i = +µ_i |x_j| (a box approximation of the Coulomb cone, x_j being
//! the normal impulse). These bounds move with x_j, so they are re-read before every component
//! update and the residual uses the bounds at the final x.
//!
//! # The method
//!
//! Each sweep visits i = 0..n in order: r_i = A_{i*}x + b_i, x_i ← clamp(x_i − ω r_i/A_ii,
//! lo_i, hi_i) with the current bounds. For symmetric PSD A and fixed bounds this is exact
//! coordinate minimisation of ½xᵀAx + bᵀx over the box (ω = 1), so it converges; with friction
//! indices it is the usual physics-engine fixed-point iteration, without a guarantee.
//!
//! Merit and stopping: θ(x) = ‖φ(x)‖∞ after every sweep, the spec's tests in order (relative,
//! absolute θ < ε_abs, stagnation), then the iteration limit; a non-finite θ is
//! `NumericalFailure`. Only `ConvergedAbsolute` certifies a solution.
//!
//! # Edge cases and errors
//!
//! lo_i > hi_i, a NaN bound, lo_i = +∞ or hi_i = −∞ → [`LcpError::InvalidBounds`]; a friction
//! index out of range, pointing at itself or at another friction variable, or µ < 0 / NaN →
//! an error as well; zero, negative or NaN diagonal → [`LcpError::ZeroDiagonal`]; NaN in b or
//! x⁰, size mismatches → errors. A start point is clamped into the box.

use super::splitting::{inverse_diagonal, start_point};
use super::{IterativeStatus, StoppingCriteria};
use crate::error::LcpError;
use crate::operator::RowAccess;

/// A friction bound: lo_i = −µ|x_normal|, hi_i = µ|x_normal|.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrictionBound {
    /// Index of the variable whose magnitude scales the bound (the normal impulse).
    pub normal: usize,
    /// µ ≥ 0.
    pub mu: f64,
}

/// Validated bounds of a boxed LCP (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct BoxBounds {
    lo: Vec<f64>,
    hi: Vec<f64>,
    friction: Vec<Option<FrictionBound>>,
}

impl BoxBounds {
    /// Fixed bounds per variable (±∞ allowed). Errors: n = 0, length mismatch, lo_i > hi_i,
    /// NaN, lo_i = +∞ or hi_i = −∞ ([`LcpError::InvalidBounds`]).
    pub fn new(lo: Vec<f64>, hi: Vec<f64>) -> Result<Self, LcpError> {
        if lo.is_empty() {
            return Err(LcpError::Empty);
        }
        if hi.len() != lo.len() {
            return Err(LcpError::DimensionMismatch { what: "hi", expected: lo.len(), found: hi.len() });
        }
        for (index, (&l, &h)) in lo.iter().zip(&hi).enumerate() {
            if l.is_nan() || h.is_nan() || l > h || l == f64::INFINITY || h == f64::NEG_INFINITY {
                return Err(LcpError::InvalidBounds { index, lo: l, hi: h });
            }
        }
        let n = lo.len();
        Ok(BoxBounds { lo, hi, friction: vec![None; n] })
    }

    /// The plain LCP: 0 ≤ x < ∞.
    pub fn nonnegative(n: usize) -> Result<Self, LcpError> {
        Self::new(vec![0.0; n], vec![f64::INFINITY; n])
    }

    /// Makes variable `i` a friction variable bounded by ±µ|x_normal| (replacing its fixed
    /// bounds). Errors: an index out of range, `normal == i`, a chain (the normal is itself a
    /// friction variable, or `i` already bounds another one), µ < 0 or not finite.
    pub fn with_friction(mut self, i: usize, normal: usize, mu: f64) -> Result<Self, LcpError> {
        let n = self.n();
        if i >= n {
            return Err(LcpError::DimensionMismatch {
                what: "friction variable index",
                expected: n,
                found: i,
            });
        }
        if normal >= n {
            return Err(LcpError::DimensionMismatch {
                what: "friction normal index",
                expected: n,
                found: normal,
            });
        }
        if !(mu.is_finite() && mu >= 0.0) {
            return Err(LcpError::InvalidBounds { index: i, lo: -mu, hi: mu });
        }
        if normal == i
            || self.friction[normal].is_some()
            || self.friction.iter().any(|f| f.is_some_and(|f| f.normal == i))
        {
            return Err(LcpError::InvalidProblem {
                reason: format!("friction index {i} -> {normal}: no self-reference or chains allowed"),
            });
        }
        self.friction[i] = Some(FrictionBound { normal, mu });
        self.lo[i] = f64::NEG_INFINITY;
        self.hi[i] = f64::INFINITY;
        Ok(self)
    }

    /// ODE's convention: `findex[i] = Some(j)` makes i a friction variable with µ_i = `hi[i]`
    /// (its `lo[i]` is ignored); other variables keep `[lo[i], hi[i]]`.
    pub fn from_findex(lo: Vec<f64>, hi: Vec<f64>, findex: &[Option<usize>]) -> Result<Self, LcpError> {
        if findex.len() != lo.len() {
            return Err(LcpError::DimensionMismatch {
                what: "findex",
                expected: lo.len(),
                found: findex.len(),
            });
        }
        let mu: Vec<f64> = hi.clone();
        let mut lo = lo;
        for (i, f) in findex.iter().enumerate() {
            if f.is_some() {
                // Validated by `with_friction`; keep `new` from rejecting the ignored lo.
                lo[i] = f64::NEG_INFINITY;
            }
        }
        let mut bounds = Self::new(lo, hi)?;
        for (i, f) in findex.iter().enumerate() {
            if let Some(j) = *f {
                bounds = bounds.with_friction(i, j, mu[i])?;
            }
        }
        Ok(bounds)
    }

    /// n.
    pub fn n(&self) -> usize {
        self.lo.len()
    }

    /// The friction bound of variable i, if any.
    pub fn friction(&self, i: usize) -> Option<FrictionBound> {
        self.friction[i]
    }

    /// The bounds of variable i at the point x.
    #[inline]
    pub fn at(&self, i: usize, x: &[f64]) -> (f64, f64) {
        match self.friction[i] {
            Some(f) => {
                let h = f.mu * x[f.normal].abs();
                (-h, h)
            }
            None => (self.lo[i], self.hi[i]),
        }
    }
}

#[inline]
fn clamp(v: f64, lo: f64, hi: f64) -> f64 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

/// Settings of [`solve_boxed_pgs`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxedSettings {
    /// Relaxation ω ∈ (0, 2]. Default 1.0 (PGS).
    pub omega: f64,
    /// Stopping criteria on θ = ‖φ(x)‖∞. Default [`StoppingCriteria::default`].
    pub stopping: StoppingCriteria,
}

impl Default for BoxedSettings {
    fn default() -> Self {
        BoxedSettings { omega: 1.0, stopping: StoppingCriteria::default() }
    }
}

impl BoxedSettings {
    /// Checks ω ∈ (0, 2] and the stopping criteria.
    pub fn validate(&self) -> Result<(), LcpError> {
        if !(self.omega.is_finite() && self.omega > 0.0 && self.omega <= 2.0) {
            return Err(LcpError::InvalidSettings { field: "omega", reason: "relaxation must be in (0, 2]" });
        }
        self.stopping.validate()
    }
}

/// Residuals of a boxed LCP answer, computed from A, b and the bounds at x.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxedResidual {
    /// ‖x − clamp(x − y, lo, hi)‖∞ — zero exactly at a solution.
    pub natural_inf: f64,
    /// max_i max(lo_i − x_i, x_i − hi_i, 0): how far x is outside its box.
    pub bound_violation: f64,
}

/// The answer of [`solve_boxed_pgs`].
#[derive(Debug, Clone, PartialEq)]
pub struct BoxedSolution {
    /// How the run ended; only `ConvergedAbsolute` certifies a solution.
    pub status: IterativeStatus,
    /// The final x (inside its bounds).
    pub x: Vec<f64>,
    /// y = A x + b.
    pub y: Vec<f64>,
    /// Sweeps performed.
    pub iterations: usize,
    /// θ = ‖φ(x)‖∞ after each sweep.
    pub merit_history: Vec<f64>,
    /// Residuals from A and b.
    pub residual: BoxedResidual,
}

/// y = A x + b and the boxed residuals of x.
pub fn boxed_residual<A: RowAccess + ?Sized>(
    a: &A,
    b: &[f64],
    bounds: &BoxBounds,
    x: &[f64],
) -> (Vec<f64>, BoxedResidual) {
    let mut y = vec![0.0; b.len()];
    a.apply(x, &mut y);
    y.iter_mut().zip(b).for_each(|(yi, bi)| *yi += bi);
    let r = residual_from_y(bounds, x, &y);
    (y, r)
}

fn residual_from_y(bounds: &BoxBounds, x: &[f64], y: &[f64]) -> BoxedResidual {
    let mut r = BoxedResidual { natural_inf: 0.0, bound_violation: 0.0 };
    for i in 0..x.len() {
        let (lo, hi) = bounds.at(i, x);
        let phi = x[i] - clamp(x[i] - y[i], lo, hi);
        // NaN propagates into the maximum (f64::max would drop it).
        r.natural_inf = if phi.is_nan() { f64::NAN } else { r.natural_inf.max(phi.abs()) };
        r.bound_violation = r.bound_violation.max(lo - x[i]).max(x[i] - hi);
    }
    r
}

/// One boxed projected sweep (ω = 1: PGS): allocation-free. Returns max_i |Δx_i|.
pub fn boxed_sweep<A: RowAccess + ?Sized>(
    a: &A,
    b: &[f64],
    bounds: &BoxBounds,
    x: &mut [f64],
    aux: &mut A::Aux,
    inv_diag: &[f64],
    omega: f64,
) -> f64 {
    let mut max_change = 0.0f64;
    for i in 0..x.len() {
        let r = a.row_dot(i, x, aux) + b[i];
        let (lo, hi) = bounds.at(i, x);
        let old = x[i];
        let new = clamp(old - omega * r * inv_diag[i], lo, hi);
        let step = new - old;
        if step != 0.0 {
            x[i] = new;
            a.update_aux(i, step, aux);
        }
        max_change = max_change.max(step.abs());
    }
    max_change
}

/// Solves the boxed LCP (A, b, bounds) by projected Gauss–Seidel / SOR from x⁰ (clamped into
/// the box; `None` = 0 clamped). See the module docs for the method, merit and errors.
pub fn solve_boxed_pgs<A: RowAccess + ?Sized>(
    a: &A,
    b: &[f64],
    bounds: &BoxBounds,
    x0: Option<&[f64]>,
    settings: &BoxedSettings,
) -> Result<BoxedSolution, LcpError> {
    settings.validate()?;
    let n = a.dim();
    if bounds.n() != n {
        return Err(LcpError::DimensionMismatch { what: "bounds", expected: n, found: bounds.n() });
    }
    // `start_point` checks sizes/finiteness; the start is then taken as given and clamped.
    start_point(n, b, x0)?;
    let mut x = x0.map_or_else(|| vec![0.0; n], <[f64]>::to_vec);
    for pass in [false, true] {
        for i in 0..n {
            if bounds.friction(i).is_some() == pass {
                let (lo, hi) = bounds.at(i, &x);
                x[i] = clamp(x[i], lo, hi);
            }
        }
    }
    let inv_diag = inverse_diagonal(a)?;
    let mut aux = a.new_aux();
    a.sync_aux(&x, &mut aux);
    let mut y = vec![0.0; n];
    let stop = &settings.stopping;
    let mut history = Vec::with_capacity(stop.max_iterations.min(1 << 12));
    let mut prev = f64::INFINITY;
    let mut status = IterativeStatus::MaxIterations;
    let mut iterations = 0;
    for k in 1..=stop.max_iterations {
        let max_change = boxed_sweep(a, b, bounds, &mut x, &mut aux, &inv_diag, settings.omega);
        a.apply(&x, &mut y);
        y.iter_mut().zip(b).for_each(|(yi, bi)| *yi += bi);
        let theta = residual_from_y(bounds, &x, &y).natural_inf;
        history.push(theta);
        iterations = k;
        if !theta.is_finite() {
            status = IterativeStatus::NumericalFailure;
            break;
        }
        if prev.is_finite() && (theta - prev).abs() < stop.relative * prev {
            status = IterativeStatus::ConvergedRelative;
            break;
        }
        if theta < stop.absolute {
            status = IterativeStatus::ConvergedAbsolute;
            break;
        }
        let scale = x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        if max_change < stop.stagnation * scale {
            status = IterativeStatus::Stagnated;
            break;
        }
        prev = theta;
    }
    let (y, residual) = boxed_residual(a, b, bounds, &x);
    Ok(BoxedSolution { status, x, y, iterations, merit_history: history, residual })
}
