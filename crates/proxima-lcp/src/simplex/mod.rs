//! Linear programming by the two-phase simplex method on a dense tableau with Bland's rule,
//! generic over the scalar (exact in [`Rational`](crate::Rational)).
//!
//! # The problem
//!
//! ```text
//! minimize cᵀx   subject to   A x = b  (or A x ≤ b),   x ≥ 0,        A ∈ ℝ^{m×n}
//! ```
//!
//! ([`Lp::standard`], [`Lp::inequality`]). The inequality form gets one slack column per row.
//! Its dual is maximize bᵀy subject to Aᵀy ≤ c (y free for equalities, y ≤ 0 for ≤ rows); at
//! an optimum strong duality bᵀy = cᵀx holds and is reported ([`SimplexSolution::y`]).
//!
//! # The method
//!
//! 1. Rows with b_i < 0 are negated so that b ≥ 0; one artificial column per row gives the
//!    starting basis.
//! 2. **Phase I** minimizes the sum of the artificial variables with Bland's rule
//!    ([`Tableau::select_bland`]; smallest entering index, smallest leaving basic index among
//!    ratio ties). A positive optimum proves infeasibility; the phase-I multipliers are then
//!    a Farkas certificate y with Aᵀy ≤ 0 (and y ≤ 0 for ≤ rows) and bᵀy > 0
//!    ([`SimplexSolution::farkas`]). Once an artificial leaves the basis it never re-enters.
//! 3. Artificial variables still basic at level zero are pivoted out on any non-artificial
//!    entry above the pivot tolerance; if the row has none it is redundant and keeps its
//!    artificial (at zero, never pivoted again).
//! 4. **Phase II** minimizes cᵀx over the same tableau (artificial columns may not enter but
//!    are still updated: their reduced costs are −y, which gives the dual for free). An
//!    entering column without a positive entry proves unboundedness; the ray d ≥ 0 with
//!    A d = 0 (resp. ≤ 0) and cᵀd < 0 is reported ([`SimplexSolution::ray`]).
//!
//! # Termination and tolerances
//!
//! With an exact scalar every tolerance is zero and Bland's rule cannot cycle, so the method
//! terminates (Beale's classic cycling example included). Float runs use the relative
//! tolerances of [`SimplexSettings`] times the problem scale, plus a pivot limit; reaching it
//! gives [`SimplexStatus::MaxIterations`] and the returned point is not an answer.
//!
//! # Edge cases
//!
//! m = 0 is allowed (then the LP is unbounded as soon as some c_j < 0, else x = 0 is
//! optimal); redundant equality rows are fine; n = 0, ragged rows, a wrong `b` length or
//! NaN/∞ → `Err(`[`LcpError`]`)`; invalid settings → [`LcpError::InvalidSettings`].
//!
//! # Example
//!
//! ```
//! use proxima_lcp::simplex::{Lp, SimplexSettings, SimplexStatus, solve_simplex};
//! use proxima_lcp::Rational;
//!
//! // max 3x + 5y s.t. x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18  (optimum 36 at (2, 6)).
//! let r = |v: i64| Rational::from_integer(v);
//! let lp = Lp::inequality(
//!     vec![vec![r(1), r(0)], vec![r(0), r(2)], vec![r(3), r(2)]],
//!     vec![r(4), r(12), r(18)],
//!     vec![r(-3), r(-5)],
//! )?;
//! let sol = solve_simplex(&lp, &SimplexSettings::default())?;
//! assert_eq!(sol.status, SimplexStatus::Optimal);
//! assert_eq!(sol.x, vec![r(2), r(6)]);
//! assert_eq!(sol.objective, r(-36));
//! # Ok::<(), proxima_lcp::LcpError>(())
//! ```

mod problem;
mod settings;
mod tableau;

use proxima_num::Field;

use crate::error::LcpError;

pub use problem::{Lp, LpForm};
pub use settings::SimplexSettings;
pub use tableau::{PivotChoice, PivotTolerances, RunEnd, Tableau};

/// The outcome of a simplex solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SimplexStatus {
    /// An optimal basic solution was found.
    Optimal,
    /// The constraints admit no x ≥ 0 (a Farkas certificate is in `farkas`).
    Infeasible,
    /// Feasible, but cᵀx is unbounded below (a ray is in `ray`).
    Unbounded,
    /// The pivot limit was reached; the point is not an answer.
    MaxIterations,
}

impl SimplexStatus {
    /// A stable lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            SimplexStatus::Optimal => "optimal",
            SimplexStatus::Infeasible => "infeasible",
            SimplexStatus::Unbounded => "unbounded",
            SimplexStatus::MaxIterations => "max_iterations",
        }
    }
}

/// The answer of [`solve_simplex`].
#[derive(Debug, Clone, PartialEq)]
pub struct SimplexSolution<T> {
    /// What happened.
    pub status: SimplexStatus,
    /// The basic solution (user variables only, length n): optimal when `Optimal`, the last
    /// feasible vertex when `Unbounded`, meaningless otherwise.
    pub x: Vec<T>,
    /// cᵀx, computed from the original data.
    pub objective: T,
    /// The dual solution (length m): Aᵀy ≤ c and, at an optimum, bᵀy = cᵀx. Zero unless
    /// `Optimal`.
    pub y: Vec<T>,
    /// Farkas certificate of infeasibility (`Infeasible` only): Aᵀy ≤ 0 (up to the tolerances
    /// for floats), y ≤ 0 for inequality rows (their slack columns), and bᵀy > 0.
    pub farkas: Option<Vec<T>>,
    /// Unbounded ray (`Unbounded` only): d ≥ 0, A d = 0 (≤ 0 for inequality rows), cᵀd < 0.
    pub ray: Option<Vec<T>>,
    /// Total pivots (both phases and the artificial clean-up).
    pub iterations: usize,
    /// Pivots of phase I.
    pub phase1_iterations: usize,
    /// The final basis as column indices of the internal standard form (user variables
    /// 0..n, then slacks n..n+m for the inequality form, then artificials).
    pub basis: Vec<usize>,
}

/// Solves an LP with the two-phase simplex method and Bland's rule (see the module docs).
///
/// Errors: only invalid settings ([`LcpError::InvalidSettings`]); the problem was validated
/// by its constructor.
pub fn solve_simplex<T: Field>(
    lp: &Lp<T>,
    settings: &SimplexSettings,
) -> Result<SimplexSolution<T>, LcpError> {
    settings.validate()?;
    let (m, n) = (lp.m, lp.n);
    let slacks = if lp.form == LpForm::Inequality { m } else { 0 };
    let cols = n + slacks; // non-artificial columns
    let q = cols + m;
    let scale = lp.scale();
    let tol = PivotTolerances::<T>::from_relative(
        settings.optimality_tolerance,
        settings.pivot_tolerance,
        settings.tie_tolerance,
        scale,
    );
    let feas_tol = T::tolerance(settings.feasibility_tolerance, scale);
    let max_pivots = settings.max_iterations_for(m, n);

    // Phase I tableau: rows scaled by sign_i so that b ≥ 0.
    let signs: Vec<bool> = lp.b.iter().map(|v| v.is_negative()).collect();
    let mut rows: Vec<Vec<T>> = Vec::with_capacity(m + 1);
    let mut row0 = vec![T::zero(); q + 1];
    for i in 0..m {
        let mut row = vec![T::zero(); q + 1];
        row[..n].clone_from_slice(&lp.a[i * n..(i + 1) * n]);
        if slacks > 0 {
            row[n + i] = T::one();
        }
        row[q] = lp.b[i].clone();
        if signs[i] {
            for v in row.iter_mut() {
                if !v.is_zero() {
                    *v = v.neg();
                }
            }
        }
        row[cols + i] = T::one();
        for j in (0..cols).chain(core::iter::once(q)) {
            row0[j].sub_assign(&row[j]);
        }
        rows.push(row);
    }
    rows.insert(0, row0);
    let mut tab = Tableau::from_rows(rows, (cols..q).collect());

    let mut pivots = 0usize;
    let end1 = tab.run_bland(&tol, cols, max_pivots, &mut pivots, |t| t.objective() <= feas_tol);
    let phase1_iterations = pivots;
    let sign_back = |i: usize, v: T| if signs[i] { v.neg() } else { v };

    let mut out = SimplexSolution {
        status: SimplexStatus::MaxIterations,
        x: Vec::new(),
        objective: T::zero(),
        y: vec![T::zero(); m],
        farkas: None,
        ray: None,
        iterations: pivots,
        phase1_iterations,
        basis: Vec::new(),
    };
    let finish = |mut out: SimplexSolution<T>, tab: &Tableau<T>, pivots: usize| {
        let x: Vec<T> = tab.primal()[..n].to_vec();
        out.objective = lp.objective(&x);
        out.x = x;
        out.iterations = pivots;
        out.basis = tab.basis().to_vec();
        out
    };
    if end1 == RunEnd::MaxIterations {
        return Ok(finish(out, &tab, pivots));
    }
    if tab.objective() > feas_tol {
        // Phase-I multipliers: reduced cost of artificial i is 1 − y'_i.
        let farkas = (0..m).map(|i| sign_back(i, T::one().sub(tab.get(0, cols + i)))).collect();
        out.status = SimplexStatus::Infeasible;
        out.farkas = Some(farkas);
        return Ok(finish(out, &tab, pivots));
    }

    // Drive zero-level artificials out of the basis where possible.
    for r in 1..=m {
        if tab.basis()[r - 1] < cols {
            continue;
        }
        let entering = (0..cols).find(|&j| tab.get(r, j).abs() > tol.pivot && !tab.get(r, j).is_zero());
        if let Some(j) = entering {
            tab.pivot(r, j);
            pivots += 1;
        }
    }

    // Phase II objective row.
    for j in 0..=q {
        *tab.get_mut(0, j) = if j < n { lp.c[j].clone() } else { T::zero() };
    }
    for r in 1..=m {
        let b = tab.basis()[r - 1];
        if b < n && !lp.c[b].is_zero() {
            let cb = lp.c[b].clone();
            let pivot_row = tab.row(r).to_vec();
            for (j, p) in pivot_row.iter().enumerate() {
                if !p.is_zero() {
                    tab.get_mut(0, j).sub_mul_assign(&cb, p);
                }
            }
        }
    }
    let end2 = tab.run_bland(&tol, cols, max_pivots, &mut pivots, |_| false);
    match end2 {
        RunEnd::Optimal | RunEnd::Stopped => {
            out.status = SimplexStatus::Optimal;
            out.y = (0..m).map(|i| sign_back(i, tab.get(0, cols + i).neg())).collect();
        }
        RunEnd::Unbounded { column } => {
            let mut d = vec![T::zero(); q];
            d[column] = T::one();
            for r in 1..=m {
                d[tab.basis()[r - 1]] = tab.get(r, column).neg();
            }
            d.truncate(n);
            out.status = SimplexStatus::Unbounded;
            out.ray = Some(d);
        }
        RunEnd::MaxIterations => out.status = SimplexStatus::MaxIterations,
    }
    Ok(finish(out, &tab, pivots))
}
