//! Lemke's complementary pivoting method with lexicographic (symbolic ε) anti-cycling.
//!
//! # The mathematics
//!
//! LCP(M, q): find z ≥ 0 with w = M z + q ≥ 0 and zᵀw = 0. Lemke adds an auxiliary variable
//! z₀ ≥ 0 and a covering vector d > 0 (all ones by default) and works on the *dictionary*
//!
//! ```text
//! w = q + M z + z₀ d          (basic: w;  nonbasic: z, z₀)
//! ```
//!
//! 1. If q ≥ 0, z = 0 solves the problem ([`LcpStatus::Trivial`], no pivot).
//! 2. z₀ enters; the row with the lexicographically smallest (qᵢ, eᵢ)/dᵢ among qᵢ < 0 leaves,
//!    which makes every basic variable non-negative (ties → the larger index).
//! 3. The complement of the variable that just left enters (wⱼ ↔ zⱼ); the leaving row is the
//!    lexicographic minimum of (rhsᵢ, (B⁻¹)ᵢ·)/(-aᵢₛ) over rows whose coefficient aᵢₛ of the
//!    entering variable is negative; z₀ is preferred when it ties.
//! 4. Stop when z₀ leaves: the dictionary is complementary and feasible, z solves the LCP.
//!    If no row limits the entering variable the path ends in a *secondary ray*.
//!
//! The lexicographic rule is the ε-perturbation q + (ε, ε², …, εⁿ) of Eberly's §2.6 done
//! symbolically: it never repeats a basis, so the method terminates in exact arithmetic.
//!
//! # Outcomes and fallbacks
//!
//! A secondary ray proves infeasibility for some classes (M copositive-plus, e.g. the LCPs of
//! convex QPs) but not in general: bimatrix-game LCPs, for instance, can ray-terminate although
//! solutions exist. After a ray the solver (see [`LemkeFallback`]) restarts with other covering
//! vectors ([`SolvePath::LemkeRestart`]), then for small n enumerates all complementary bases
//! ([`SolvePath::Enumeration`]: a solution, or a proof that none exists when no principal
//! submatrix was singular). Float answers are *certified* from M and q:
//! ‖min(z, w)‖∞ ≤ `residual_tolerance · scale · n`; an uncertified float answer is never
//! reported [`LcpStatus::Solved`] — it is re-solved in exact rational arithmetic
//! ([`SolvePath::ExactResolve`]) or reported [`LcpStatus::NumericalFailure`].
//!
//! # Arithmetic
//!
//! * Floats: a column entry is a pivot candidate only below `-pivot_tolerance · scale`
//!   (scale = max(1, |M|∞, |q|∞)); ratios within a relative tie tolerance go to the
//!   lexicographic tie-break; tolerances are floored at multiples of the scalar's machine
//!   epsilon so `f32` gets thresholds it can resolve. A ray declared while an excluded entry was
//!   clearly above round-off, or a tiny chosen pivot, marks the run *dubious*: a "no solution"
//!   or pivot-limit verdict from a dubious float run is re-checked exactly.
//! * `Rational`: fraction-free integer pivoting (integer rows over positive denominators,
//!   exact divisions, no gcd per operation), with the same decisions as the field pivot;
//!   w is read off the terminal dictionary (exactly M z + q).
//! * Other exact fields (`QuadraticField`): the field pivot with exact comparisons.
//!
//! # Edge cases
//!
//! * q ≥ 0 (including q = 0): trivial, z = 0, zero pivots.
//! * Zeros in q, repeated rows or columns, all-equal q: degenerate, handled by the
//!   lexicographic rule (no cycling).
//! * The pivot limit ([`LemkeSettings::max_pivots_for`]) is per attempt:
//!   [`LcpStatus::MaxIterations`]. The default covers Murty's exponential examples (2ⁿ pivots)
//!   up to n = 15.
//! * No positive covering vector rescues an LCP with q < 0, M ≥ 0 and a zero diagonal (a
//!   bimatrix game such as Siconos' `CPS_3`): the ray comes at the second pivot whatever d is.
//!   Enumeration solves such problems for small n.
//! * Bad settings (NaN tolerance, `max_pivots = Some(0)`, covering vector of the wrong length or
//!   not positive) and bad data (n = 0, NaN/∞) are `Err`, never a panic.
//! * Exact scalars ([`Rational`](proxima_num::Rational), `QuadraticField`) make every decision
//!   exactly (all tolerances are zero) and their residuals are exactly zero.
//!
//! # Entry points and memory
//!
//! * [`solve_lemke`]: allocating convenience function.
//! * [`LemkeWorkspace`]: reusable buffers; for `f64`/`f32` a solve of size ≤ the largest size
//!   seen so far allocates nothing.
//! * [`solve_lemke_fixed`]: sizes known at compile time, storage on the stack; the happy path
//!   (trivial or first run certified) allocates nothing.
//!
//! All three share one slice-based core (`dictionary`, `lexico`, `path`).
//!
//! Reference: D. Eberly, *Convex Quadratic Programming* (Geometric Tools, 2017), §2 and §4.1.

mod covering;
mod dictionary;
mod driver;
mod enumeration;
mod exact_resolve;
mod fixed;
mod fraction_free;
mod lexico;
mod numerics;
mod path;
mod settings;
mod workspace;

pub use settings::{Covering, LemkeFallback, LemkeSettings};

use proxima_num::Field;

use crate::error::LcpError;
use crate::problem::{Lcp, LcpView};
use crate::solution::{LcpResidual, LcpSolution, LcpStatus, SolvePath};

/// Summary of one workspace solve; z and w stay in the workspace ([`LemkeWorkspace::z`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LemkeReport<T> {
    /// What happened.
    pub status: LcpStatus,
    /// Pivots performed over all attempts.
    pub pivots: usize,
    /// Residuals of z against the input.
    pub residual: LcpResidual<T>,
    /// Which path produced z.
    pub path: SolvePath,
}

/// The answer of the fixed-size (const-generic, allocation-free) path.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedLcpSolution<T, const N: usize> {
    /// What happened.
    pub status: LcpStatus,
    /// The iterate.
    pub z: [T; N],
    /// w = M z + q.
    pub w: [T; N],
    /// Pivots performed.
    pub pivots: usize,
    /// Residuals of z against the input.
    pub residual: LcpResidual<T>,
    /// Which path produced z.
    pub path: SolvePath,
}

/// Reusable scratch memory for Lemke: after the first solve of a given size, further solves of
/// that size or smaller allocate nothing (for `f64`/`f32`).
#[derive(Debug, Clone, Default)]
pub struct LemkeWorkspace<T> {
    /// Row denominators of the fraction-free (Rational) dictionary.
    row_denom: Vec<T>,
    /// Row scale factors of the fraction-free (Rational) dictionary.
    row_scale: Vec<T>,
    /// n × n coefficients of the nonbasic slots 0..n (row-major).
    block: Vec<T>,
    /// Coefficients of nonbasic slot n (initially the covering vector).
    extra: Vec<T>,
    /// Values of the basic variables.
    rhs: Vec<T>,
    /// Variable code of each row's basic variable.
    basic: Vec<usize>,
    /// Variable code of the nonbasic variable of slots 0..n.
    nonbasic: Vec<usize>,
    /// Location code of each wⱼ.
    w_loc: Vec<usize>,
    /// Location code of each zⱼ.
    z_loc: Vec<usize>,
    /// z of the last solve.
    z: Vec<T>,
    /// w = M z + q of the last solve.
    w: Vec<T>,
    /// Scratch of the enumeration fallback (allocated only if it runs).
    enumeration: enumeration::EnumerationScratch<T>,
}

impl<T: Field> LemkeWorkspace<T> {
    /// An empty workspace; grows on first use.
    pub fn new() -> Self {
        Self::empty()
    }
    /// A workspace pre-sized for problems up to `n` variables.
    pub fn with_capacity(n: usize) -> Self {
        Self::reserved(n)
    }
    /// Solves LCP(M, q); z and w are then available from [`Self::z`] and [`Self::w`].
    pub fn solve(
        &mut self,
        lcp: LcpView<'_, T>,
        settings: &LemkeSettings,
    ) -> Result<LemkeReport<T>, LcpError> {
        driver::solve_in_workspace(self, lcp, settings)
    }
    /// z of the last solve (empty before the first one).
    pub fn z(&self) -> &[T] {
        &self.z
    }
    /// w = M z + q of the last solve (empty before the first one).
    pub fn w(&self) -> &[T] {
        &self.w
    }
}

/// Solves LCP(M, q) with Lemke's method (allocating convenience entry point).
pub fn solve_lemke<T: Field>(lcp: &Lcp<T>, settings: &LemkeSettings) -> Result<LcpSolution<T>, LcpError> {
    let mut workspace = LemkeWorkspace::new();
    let report = workspace.solve(lcp.view(), settings)?;
    Ok(LcpSolution {
        status: report.status,
        z: workspace.z,
        w: workspace.w,
        pivots: report.pivots,
        residual: report.residual,
        path: report.path,
    })
}

/// Solves a small LCP whose size is known at compile time, without touching the heap
/// (the path geometry queries use, e.g. N = 12 for box–box distance).
pub fn solve_lemke_fixed<T: Field, const N: usize>(
    m: &[[T; N]; N],
    q: &[T; N],
    settings: &LemkeSettings,
) -> Result<FixedLcpSolution<T, N>, LcpError> {
    fixed::solve_fixed(m, q, settings)
}
