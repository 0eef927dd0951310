//! Boxed LCPs with a friction index (ODE/Bullet/DART style): the bounds of a friction variable
//! are proportional to the normal impulse it belongs to.
//!
//! # The maths
//!
//! For i with a friction index f(i) and coefficient µᵢ ≥ 0 the box is
//! −µᵢ x_f ≤ xᵢ ≤ µᵢ x_f (the given lo/hi of i are ignored); the other variables keep their
//! fixed boxes. Because the bounds depend on the solution, the problem is solved as a fixed
//! point \[X\] (the staggered scheme of spec §2.1, as ODE does per solve): round 0 uses the box
//! [0, 0] for friction variables (no normal impulse known yet); each following round sets the
//! boxes from the previous round's normal impulses and re-solves the boxed LCP, warm-started
//! from the previous clamped set. The run stops when no bound moves by more than
//! `residual_tolerance`·max(1, ‖b‖∞), with a solution whose boxes are consistent with its own
//! normal impulses, or after `max_rounds` with `MaxIterations` (the alternation has no
//! convergence guarantee in general).
//!
//! # Edge cases
//!
//! * A friction index pointing at itself, at another friction variable, or out of range, a
//!   negative / non-finite µ, or a normal variable whose lower bound is negative →
//!   `Err(LcpError::InvalidProblem)` / `InvalidBounds`.
//! * µ = 0 fixes the friction variable at 0.

use super::{BaraffSettings, BoxedBaraffSolution, solve_baraff_boxed};
use crate::error::LcpError;
use crate::operator::LinearOperator;
use crate::solution::LcpStatus;

/// The friction coupling of one variable: |xᵢ| ≤ µ·x_normal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrictionIndex {
    /// The normal-impulse variable the bounds follow.
    pub normal: usize,
    /// The friction coefficient µ ≥ 0.
    pub mu: f64,
}

/// The answer of [`solve_baraff_friction`].
#[derive(Debug, Clone, PartialEq)]
pub struct FrictionSolution {
    /// The last boxed solve, with bounds from the previous round; its status is
    /// `MaxIterations` when the rounds ran out before the bounds settled.
    pub solution: BoxedBaraffSolution,
    /// Boxed solves performed.
    pub rounds: usize,
    /// maxᵢ |hiᵢ − µᵢ x_f(i)| for the returned x (0 when the boxes match its normal impulses).
    pub bound_mismatch: f64,
    /// The boxes of the last solve.
    pub lo: Vec<f64>,
    /// The boxes of the last solve.
    pub hi: Vec<f64>,
}

fn validate(n: usize, lo: &[f64], friction: &[Option<FrictionIndex>]) -> Result<(), LcpError> {
    if friction.len() != n {
        return Err(LcpError::DimensionMismatch {
            what: "friction index",
            expected: n,
            found: friction.len(),
        });
    }
    for (i, f) in friction.iter().enumerate() {
        let Some(f) = f else { continue };
        let bad = |reason: String| Err(LcpError::InvalidProblem { reason });
        if f.normal >= n || f.normal == i {
            return bad(format!("friction index of variable {i} points at {} (n = {n})", f.normal));
        }
        if friction[f.normal].is_some() {
            return bad(format!("friction index of variable {i} points at friction variable {}", f.normal));
        }
        if !(f.mu.is_finite() && f.mu >= 0.0) {
            return bad(format!(
                "friction coefficient of variable {i} is {} (must be finite and >= 0)",
                f.mu
            ));
        }
        if lo.get(f.normal).is_some_and(|&l| l < 0.0) {
            return Err(LcpError::InvalidBounds { index: f.normal, lo: lo[f.normal], hi: f64::INFINITY });
        }
    }
    Ok(())
}

/// Solves the boxed LCP lo ≤ x ≤ hi, y = A x + b with friction-coupled boxes (see the module
/// docs). `max_rounds` ≥ 1 bounds the number of boxed solves (a typical value is 20).
pub fn solve_baraff_friction<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    lo: &[f64],
    hi: &[f64],
    friction: &[Option<FrictionIndex>],
    settings: &BaraffSettings,
    max_rounds: usize,
) -> Result<FrictionSolution, LcpError> {
    let n = a.dim();
    validate(n, lo, friction)?;
    if max_rounds == 0 {
        return Err(LcpError::InvalidSettings { field: "max_rounds", reason: "must be >= 1" });
    }
    if lo.len() != n || hi.len() != n {
        let found = if lo.len() != n { lo.len() } else { hi.len() };
        return Err(LcpError::DimensionMismatch { what: "bounds", expected: n, found });
    }
    let scale = b.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let tol = settings.residual_tolerance * scale;
    let (mut lo_k, mut hi_k) = (lo.to_vec(), hi.to_vec());
    let boxes = |x: Option<&[f64]>, lo_k: &mut [f64], hi_k: &mut [f64]| {
        let mut moved = 0.0f64;
        for (i, f) in friction.iter().enumerate() {
            if let Some(f) = f {
                let h = x.map_or(0.0, |x| f.mu * x[f.normal].max(0.0));
                moved = moved.max((h - hi_k[i]).abs());
                hi_k[i] = h;
                lo_k[i] = -h;
            }
        }
        moved
    };
    boxes(None, &mut lo_k, &mut hi_k);
    let mut clamped: Vec<usize> = Vec::new();
    let mut rounds = 0;
    loop {
        let mut sol = solve_baraff_boxed(a, b, &lo_k, &hi_k, &clamped, settings)?;
        rounds += 1;
        if !sol.status.is_solved() {
            return Ok(finish(sol, rounds, friction, lo_k, hi_k));
        }
        let (mut lo_next, mut hi_next) = (lo_k.clone(), hi_k.clone());
        let moved = boxes(Some(&sol.x), &mut lo_next, &mut hi_next);
        if moved <= tol {
            return Ok(finish(sol, rounds, friction, lo_k, hi_k));
        }
        if rounds >= max_rounds {
            sol.status = LcpStatus::MaxIterations;
            return Ok(finish(sol, rounds, friction, lo_k, hi_k));
        }
        clamped = (0..n).filter(|&i| sol.states[i] == super::IndexState::Clamped).collect();
        lo_k = lo_next;
        hi_k = hi_next;
    }
}

fn finish(
    solution: BoxedBaraffSolution,
    rounds: usize,
    friction: &[Option<FrictionIndex>],
    lo: Vec<f64>,
    hi: Vec<f64>,
) -> FrictionSolution {
    let bound_mismatch = friction
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.map(|f| (hi[i] - f.mu * solution.x[f.normal].max(0.0)).abs()))
        .fold(0.0, f64::max);
    FrictionSolution { solution, rounds, bound_mismatch, lo, hi }
}
