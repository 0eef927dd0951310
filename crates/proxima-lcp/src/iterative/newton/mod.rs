//! Newton methods for LCP(A, b): minimum-map Newton (spec §3.5) and Fischer–Newton (§3.6).
//!
//! # The maths
//!
//! Both rewrite the LCP x ≥ 0, y = A x + b ≥ 0, xᵀy = 0 as a nonsmooth root problem
//! G(x) = [g(x_i, y_i)]_i = 0 and apply a generalized Newton method globalised by the
//! projected Armijo line search on θ(x) = ½ G(x)ᵀG(x):
//!
//! * **min-map**: g = h(x, y) = min(x, y). With 𝒜 = {i | y_i < x_i} (ties go to ℱ) the
//!   B-derivative has rows A_{i*} (i ∈ 𝒜) and e_iᵀ (i ∈ ℱ); the Newton equation reduces to
//!   Δx_ℱ = −H_ℱ and A_𝒜𝒜 Δx_𝒜 = A_𝒜ℱ H_ℱ − H_𝒜 (spec (80)).
//! * **Fischer–Newton**: g = φ(x, y) = √(x² + y²) − x − y, J = D_p + D_q A with
//!   p_i = x_i/‖(x_i, y_i)‖ − 1, q_i = y_i/‖(x_i, y_i)‖ − 1, and a [`JacobianStrategy`] at
//!   degenerate indices x_i = y_i = 0.
//!
//! Every iteration (spec §4, order \[H\]): evaluate θ at the current iterate; absolute test
//! θ < ε_abs, relative test |θ − θ_prev| < ε_rel θ_prev (skipped on the first pass), iteration
//! limit (\[X\] absolute first: same pass, same count, but a merit below ε_abs is reported as
//! the certificate it is); solve for Δx (direct, or GMRES/PCG to the forcing term ‖F + JΔx‖ ≤ γ‖F‖ (105));
//! stagnation max|Δx_i| < ε_stg·max(1, ‖x‖∞); local minimum ‖∇θ‖ = ‖JᵀG‖ < ε_abs;
//! non-descent ∇θᵀΔx = Gᵀ(JΔx) > −ε_mach‖Δx‖²; then the projected line search and the
//! projected update x ← max(0, x + τΔx). \[X\] When the line search ends at its guard
//! without sufficient decrease the step is not taken and the run ends `Stagnated` (the
//! projected step makes no progress; spec §8 A5).
//!
//! # Edge cases
//!
//! * Iterations are counted as the companion code does (spec §4 \[H\]): loop passes, the pass
//!   whose test stops the run included — updates + 1, capped at the iteration limit (a start
//!   that already solves the problem reports 1). `merit_history[k]` is θ at the top of pass
//!   k + 1 (θ after k updates).
//! * Only [`IterativeStatus::ConvergedAbsolute`] certifies a solution; every other status
//!   (including `ConvergedRelative`) is a non-answer, and the residuals computed from A and b
//!   are returned with it.
//! * A problem without solution (1-D (a, b) = (−1, −1)) cannot converge: θ ≥ ½ everywhere.
//! * A NaN/∞ merit (overflow) ends with `NumericalFailure`; so does a run of
//!   [`NewtonSettings::max_unsolved_steps`] consecutive min-map steps whose Newton equation could
//!   not be solved (singular direct system or PCG breakdown, then a GMRES fallback that missed the
//!   forcing target) and whose line search did not accept the full step: such a direction is
//!   not a Newton direction.
//! * The starting point is projected: x ← max(0, x₀).
//! * The local-minimum test needs Aᵀ: A itself when
//!   [`NewtonSettings::assume_symmetric`], otherwise a dense copy of A made once when
//!   n ≤ [`DENSE_TRANSPOSE_LIMIT`]; beyond that (non-symmetric, large, matrix-free) the test is
//!   skipped and such runs end through the other tests.
//! * Sizes / NaN in b or x₀ / invalid settings are `Err(LcpError)`.

mod direct;
mod functions;
mod line_search;
mod settings;

use crate::error::LcpError;
use crate::iterative::krylov::{KrylovSettings, KrylovStatus, KrylovWorkspace, gmres_with, pcg_with};
use crate::iterative::{AbsoluteTest, IterativeSolution, IterativeStatus, lcp_residual_f64};
use crate::operator::{DenseMatrix, LinearOperator};

pub use functions::{fb_jacobian_coefficients, fischer_burmeister, min_map, minmap_jacobian_dense};
pub use line_search::{LineSearchOutcome, LineSearchSettings, projected_line_search};
pub use settings::{FischerSettings, JacobianStrategy, NewtonSettings, SubSolver};

use direct::{DirectStep, max_abs};
use functions::{SplitMix64, fb_partials};

/// Work counters of a Newton run (iteration statistics and cost reports).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewtonStats {
    /// Newton equations solved by dense LU.
    pub direct_solves: usize,
    /// Newton equations solved by GMRES or PCG.
    pub krylov_solves: usize,
    /// Krylov iterations (products with the Newton matrix) over all solves.
    pub krylov_iterations: usize,
    /// Krylov solves that stopped before meeting the forcing term.
    pub krylov_unconverged: usize,
    /// Sub-solver fallbacks to GMRES (singular dense system, PCG breakdown).
    pub fallbacks: usize,
    /// Merit evaluations inside line searches.
    pub line_search_evaluations: usize,
    /// The accepted step τ of every update.
    pub steps: Vec<f64>,
}

/// A Newton solution with its work counters.
#[derive(Debug, Clone, PartialEq)]
pub struct NewtonReport {
    /// The answer (status, iterate, merit history, residuals).
    pub solution: IterativeSolution,
    /// What it cost.
    pub stats: NewtonStats,
}

/// Solves LCP(A, b) by minimum-map Newton from x₀ (default 0).
pub fn solve_minmap_newton<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    x0: Option<&[f64]>,
    settings: &NewtonSettings,
) -> Result<IterativeSolution, LcpError> {
    Ok(solve_minmap_newton_report(a, b, x0, settings)?.solution)
}

/// [`solve_minmap_newton`] with work counters.
pub fn solve_minmap_newton_report<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    x0: Option<&[f64]>,
    settings: &NewtonSettings,
) -> Result<NewtonReport, LcpError> {
    settings.validate()?;
    run(a, b, x0, settings, Kind::MinMap)
}

/// Solves LCP(A, b) by Fischer–Newton from x₀ (default 0).
pub fn solve_fischer_newton<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    x0: Option<&[f64]>,
    settings: &FischerSettings,
) -> Result<IterativeSolution, LcpError> {
    Ok(solve_fischer_newton_report(a, b, x0, settings)?.solution)
}

/// [`solve_fischer_newton`] with work counters.
pub fn solve_fischer_newton_report<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    x0: Option<&[f64]>,
    settings: &FischerSettings,
) -> Result<NewtonReport, LcpError> {
    settings.validate()?;
    let kind = Kind::Fischer { strategy: settings.strategy, degeneracy: settings.degeneracy_tolerance };
    run(a, b, x0, &settings.newton, kind)
}

/// The min-map Newton direction at x by a dense solve of the reduced system (80):
/// Δx_ℱ = −H_ℱ, A_𝒜𝒜 Δx_𝒜 = A_𝒜ℱ H_ℱ − H_𝒜. `None` when A_𝒜𝒜 is numerically singular.
pub fn minmap_reduced_direction(a: &DenseMatrix, b: &[f64], x: &[f64]) -> Option<Vec<f64>> {
    let n = a.n();
    let mut y = vec![0.0; n];
    a.apply(x, &mut y);
    y.iter_mut().zip(b).for_each(|(yi, bi)| *yi += bi);
    let h: Vec<f64> = x.iter().zip(&y).map(|(&xi, &yi)| min_map(xi, yi)).collect();
    let (p, q) = minmap_coefficients(x, &y);
    let mut dx = vec![0.0; n];
    DirectStep::new(a).solve(a, &p, &q, &h, &mut dx).then_some(dx)
}

/// Largest n for which a non-symmetric operator is copied densely to form Aᵀ products.
pub const DENSE_TRANSPOSE_LIMIT: usize = 4096;

#[derive(Debug, Clone, Copy)]
enum Kind {
    MinMap,
    Fischer { strategy: JacobianStrategy, degeneracy: f64 },
}

/// A, b and what the loop derives from them once.
struct Problem<'a, A: ?Sized> {
    a: &'a A,
    b: &'a [f64],
    n: usize,
    /// Assembled copy: for direct solves and for Aᵀ products of non-symmetric operators.
    dense: Option<DenseMatrix>,
    symmetric: bool,
}

impl<A: LinearOperator + ?Sized> Problem<'_, A> {
    fn apply(&self, v: &[f64], out: &mut [f64]) {
        self.a.apply(v, out)
    }

    /// out = Aᵀ v; `false` when Aᵀ is unavailable (non-symmetric operator too large to copy).
    fn apply_transpose(&self, v: &[f64], out: &mut [f64]) -> bool {
        match (&self.dense, self.symmetric) {
            (_, true) => {
                self.apply(v, out);
                true
            }
            (None, false) => false,
            (Some(d), false) => {
                out.iter_mut().for_each(|o| *o = 0.0);
                for (i, vi) in v.iter().enumerate() {
                    if *vi != 0.0 {
                        for (o, aij) in out.iter_mut().zip(d.row(i)) {
                            *o += vi * aij;
                        }
                    }
                }
                true
            }
        }
    }

    fn y_of(&self, x: &[f64], y: &mut [f64]) {
        self.apply(x, y);
        y.iter_mut().zip(self.b).for_each(|(yi, bi)| *yi += bi);
    }
}

fn value(kind: &Kind, x: f64, y: f64) -> f64 {
    match kind {
        Kind::MinMap => min_map(x, y),
        Kind::Fischer { .. } => fischer_burmeister(x, y),
    }
}

fn merit_of(kind: &Kind, x: &[f64], y: &[f64], f: &mut [f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        f[i] = value(kind, x[i], y[i]);
        s += f[i] * f[i];
    }
    0.5 * s
}

fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

/// Min-map Newton as J = D_p + D_q A: (p_i, q_i) = (0, 1) on 𝒜 = {y_i < x_i}, (1, 0) on ℱ.
fn minmap_coefficients(x: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>) {
    x.iter().zip(y).map(|(xi, yi)| if yi < xi { (0.0, 1.0) } else { (1.0, 0.0) }).unzip()
}

/// Per-iteration Jacobian data.
struct Jacobian {
    /// Min-map: i ∈ 𝒜.
    active: Vec<bool>,
    /// J = D_p + D_q A (Fischer always; min-map for direct steps).
    p: Vec<f64>,
    q: Vec<f64>,
}

struct Loop<'a, 'p, A: ?Sized> {
    prob: &'p Problem<'a, A>,
    kind: Kind,
    settings: &'p NewtonSettings,
    rng: SplitMix64,
    jac: Jacobian,
    scratch: Vec<f64>,
    scratch2: Vec<f64>,
    /// Storage of the direct steps (`None` unless the sub-solver is direct).
    direct: Option<DirectStep>,
    krylov: KrylovBuffers,
    stats: NewtonStats,
    /// The current step had to fall back to GMRES (singular direct system, PCG breakdown).
    fell_back: bool,
    /// Consecutive steps whose Newton equation was not solved: a fallback GMRES that missed
    /// the forcing target (see `NewtonSettings::max_unsolved_steps`).
    unsolved_steps: usize,
}

/// Reused storage of the iterative sub-solves (no allocation per Newton step once sized).
#[derive(Debug, Default)]
struct KrylovBuffers {
    /// Min-map: 𝒜, in increasing order.
    rows: Vec<usize>,
    rhs: Vec<f64>,
    solution: Vec<f64>,
    /// A's diagonal (PCG), then the reduced inverse diagonal.
    diagonal: Vec<f64>,
    inverse_diagonal: Vec<f64>,
    workspace: KrylovWorkspace,
}

impl<A: LinearOperator + ?Sized> Loop<'_, '_, A> {
    fn n(&self) -> usize {
        self.prob.n
    }

    fn prepare(&mut self, x: &[f64], y: &[f64]) {
        match self.kind {
            Kind::MinMap => {
                for i in 0..self.n() {
                    let active = y[i] < x[i];
                    self.jac.active[i] = active;
                    self.jac.p[i] = if active { 0.0 } else { 1.0 };
                    self.jac.q[i] = if active { 1.0 } else { 0.0 };
                }
            }
            Kind::Fischer { strategy, degeneracy } => {
                for i in 0..self.n() {
                    let degenerate = x[i].abs() <= degeneracy && y[i].abs() <= degeneracy;
                    let (p, q) = fb_partials(x[i], y[i], degenerate, &strategy, &mut self.rng);
                    self.jac.p[i] = p;
                    self.jac.q[i] = q;
                }
            }
        }
    }

    /// out = J v (finite differences for the approximation strategy).
    fn jacobian_times(&mut self, x: &[f64], y: &[f64], f: &[f64], v: &[f64], out: &mut [f64]) {
        jacobian_product(self.prob, &self.kind, &self.jac, x, y, f, v, out, &mut self.scratch);
    }

    /// out = Jᵀ f; `false` when Aᵀ is unavailable.
    fn gradient(&mut self, f: &[f64], out: &mut [f64]) -> bool {
        let n = self.n();
        match self.kind {
            Kind::MinMap => {
                for i in 0..n {
                    self.scratch[i] = if self.jac.active[i] { f[i] } else { 0.0 };
                }
                if !self.prob.apply_transpose(&self.scratch, out) {
                    return false;
                }
                for i in 0..n {
                    if !self.jac.active[i] {
                        out[i] += f[i];
                    }
                }
            }
            Kind::Fischer { .. } => {
                for i in 0..n {
                    self.scratch[i] = self.jac.q[i] * f[i];
                }
                if !self.prob.apply_transpose(&self.scratch, out) {
                    return false;
                }
                for i in 0..n {
                    out[i] += self.jac.p[i] * f[i];
                }
            }
        }
        true
    }

    fn krylov_settings(&self, dim: usize, rhs_target: f64) -> KrylovSettings {
        /// GMRES restart cycles of a min-map fallback from a singular direct system.
        const MINMAP_FALLBACK_CYCLES: usize = 3;
        let default_restart = match self.kind {
            Kind::MinMap => 20,
            Kind::Fischer { .. } => 10,
        };
        let (restart, max_iterations) = match self.settings.sub_solver {
            SubSolver::Gmres { restart, max_iterations } => {
                let r = restart.unwrap_or(default_restart).min(dim).max(1);
                (r, max_iterations.unwrap_or(10 * r))
            }
            SubSolver::Pcg { max_iterations } => (dim.max(1), max_iterations.unwrap_or(dim.max(50))),
            SubSolver::Direct => {
                let r = default_restart.min(dim).max(1);
                // Only a fallback (singular reduced system) gets here. For min-map the singular
                // Newton equation has in general no solution, and Krylov work beyond a few
                // restart cycles buys nothing: on the harness, 3 cycles solve every dense PSD
                // problem 10 cycles did (20/20 vs 19/20) and fail the contact family 3× sooner.
                let cycles = match self.kind {
                    Kind::MinMap => MINMAP_FALLBACK_CYCLES,
                    Kind::Fischer { .. } => 10,
                };
                (r, cycles * r)
            }
        };
        KrylovSettings { max_iterations, restart, relative_tolerance: 0.0, absolute_tolerance: rhs_target }
    }

    /// Solves the Newton equation into dx; false when it produced non-finite values.
    fn direction(&mut self, x: &[f64], y: &[f64], f: &[f64], dx: &mut [f64]) -> Result<bool, LcpError> {
        let target = self.settings.forcing * norm2(f);
        self.fell_back = false;
        match self.kind {
            Kind::MinMap => self.minmap_direction(f, target, dx)?,
            Kind::Fischer { .. } => self.fischer_direction(x, y, f, target, dx)?,
        }
        if !self.fell_back {
            // Solved by the sub-solver of choice: the run of unsolved steps is broken.
            self.unsolved_steps = 0;
        }
        Ok(dx.iter().all(|v| v.is_finite()))
    }

    /// The direct step on the reduced system (module `direct`) when the settings ask for it;
    /// `false` when they do not or the system is singular (counted as a fallback).
    fn direct_step(&mut self, f: &[f64], dx: &mut [f64]) -> bool {
        let (Some(direct), Some(d)) = (&mut self.direct, &self.prob.dense) else {
            return false;
        };
        if direct.solve(d, &self.jac.p, &self.jac.q, f, dx) {
            self.stats.direct_solves += 1;
            true
        } else {
            self.stats.fallbacks += 1;
            self.fell_back = true;
            false
        }
    }

    /// Books one GMRES sub-solve; for min-map, a fallback that misses the forcing target leaves
    /// the Newton equation unsolved and extends the run of consecutive unsolved steps (Fischer's
    /// J = D_p + D_q A is regular away from degenerate indices: its fallbacks are not counted).
    fn record_gmres(&mut self, status: KrylovStatus, iterations: usize) {
        self.stats.krylov_solves += 1;
        self.stats.krylov_iterations += iterations;
        let converged = status == KrylovStatus::Converged;
        self.stats.krylov_unconverged += usize::from(!converged);
        if self.fell_back && matches!(self.kind, Kind::MinMap) {
            self.unsolved_steps = if converged { 0 } else { self.unsolved_steps + 1 };
        }
    }

    fn minmap_direction(&mut self, h: &[f64], target: f64, dx: &mut [f64]) -> Result<(), LcpError> {
        let n = self.n();
        if self.direct_step(h, dx) {
            return Ok(());
        }
        let bufs = &mut self.krylov;
        bufs.rows.clear();
        bufs.rows.extend((0..n).filter(|&i| self.jac.active[i]));
        for i in 0..n {
            dx[i] = if self.jac.active[i] { 0.0 } else { -h[i] };
        }
        if bufs.rows.is_empty() {
            return Ok(());
        }
        // rhs = A_𝒜ℱ H_ℱ − H_𝒜.
        self.prob.apply(dx, &mut self.scratch);
        bufs.rhs.clear();
        bufs.rhs.extend(bufs.rows.iter().map(|&i| -self.scratch[i] - h[i]));
        let ks = self.krylov_settings(self.krylov.rows.len(), target);
        let prob = self.prob;
        let KrylovBuffers { rows: idx, rhs, solution: sol, diagonal, inverse_diagonal, workspace } =
            &mut self.krylov;
        let (full, image) = (&mut self.scratch, &mut self.scratch2);
        let mut reduced = |u: &[f64], out: &mut [f64]| {
            full.iter_mut().for_each(|v| *v = 0.0);
            for (p, &i) in idx.iter().enumerate() {
                full[i] = u[p];
            }
            prob.apply(full, image);
            for (p, &i) in idx.iter().enumerate() {
                out[p] = image[i];
            }
        };
        sol.clear();
        sol.resize(idx.len(), 0.0);
        let mut use_gmres = true;
        if let SubSolver::Pcg { .. } = self.settings.sub_solver {
            diagonal.resize(n, 0.0);
            prob.a.diagonal(diagonal);
            let usable = idx.iter().all(|&i| diagonal[i] > 0.0 && diagonal[i].is_finite());
            inverse_diagonal.clear();
            inverse_diagonal.extend(idx.iter().map(|&i| 1.0 / diagonal[i]));
            let inv = usable.then_some(&inverse_diagonal[..]);
            let info = pcg_with(workspace, &mut reduced, inv, rhs, sol, &ks)?;
            self.stats.krylov_iterations += info.iterations;
            use_gmres = info.status == KrylovStatus::Breakdown;
            if use_gmres {
                self.stats.fallbacks += 1;
                self.fell_back = true;
                sol.iter_mut().for_each(|v| *v = 0.0);
            } else {
                self.stats.krylov_solves += 1;
                self.stats.krylov_unconverged += usize::from(info.status != KrylovStatus::Converged);
            }
        }
        let mut gmres = None;
        if use_gmres {
            let ks = KrylovSettings { restart: ks.restart.clamp(1, 20), ..ks };
            let info = gmres_with(workspace, &mut reduced, rhs, sol, &ks)?;
            gmres = Some((info.status, info.iterations));
        }
        for (p, &i) in idx.iter().enumerate() {
            dx[i] = sol[p];
        }
        if let Some((status, iterations)) = gmres {
            self.record_gmres(status, iterations);
        }
        Ok(())
    }

    fn fischer_direction(
        &mut self,
        x: &[f64],
        y: &[f64],
        f: &[f64],
        target: f64,
        dx: &mut [f64],
    ) -> Result<(), LcpError> {
        let n = self.n();
        if self.direct_step(f, dx) {
            return Ok(());
        }
        let rhs = &mut self.krylov.rhs;
        rhs.clear();
        rhs.extend(f.iter().map(|v| -v));
        dx.iter_mut().for_each(|v| *v = 0.0);
        let ks = self.krylov_settings(n, target);
        let (prob, kind, jac, scratch) = (self.prob, &self.kind, &self.jac, &mut self.scratch);
        let op = |v: &[f64], out: &mut [f64]| jacobian_product(prob, kind, jac, x, y, f, v, out, scratch);
        let info = gmres_with(&mut self.krylov.workspace, op, &self.krylov.rhs, dx, &ks)?;
        self.record_gmres(info.status, info.iterations);
        Ok(())
    }
}

/// J v for either method (finite differences for the approximation strategy).
fn jacobian_product<A: LinearOperator + ?Sized>(
    prob: &Problem<'_, A>,
    kind: &Kind,
    jac: &Jacobian,
    x: &[f64],
    y: &[f64],
    f: &[f64],
    v: &[f64],
    out: &mut [f64],
    av: &mut [f64],
) {
    prob.apply(v, av);
    match kind {
        Kind::MinMap => {
            for i in 0..v.len() {
                out[i] = if jac.active[i] { av[i] } else { v[i] };
            }
        }
        Kind::Fischer { strategy: JacobianStrategy::Approximation { step }, .. } => {
            let vmax = max_abs(v);
            if vmax == 0.0 {
                out.iter_mut().for_each(|o| *o = 0.0);
                return;
            }
            let h = step * max_abs(x).max(1.0) / vmax;
            for i in 0..v.len() {
                out[i] = (fischer_burmeister(x[i] + h * v[i], y[i] + h * av[i]) - f[i]) / h;
            }
        }
        Kind::Fischer { .. } => {
            for i in 0..v.len() {
                out[i] = jac.p[i] * v[i] + jac.q[i] * av[i];
            }
        }
    }
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

fn run<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    x0: Option<&[f64]>,
    settings: &NewtonSettings,
    kind: Kind,
) -> Result<NewtonReport, LcpError> {
    let n = a.dim();
    if n == 0 {
        return Err(LcpError::Empty);
    }
    check_vector(b, n, "b")?;
    if let Some(x0) = x0 {
        check_vector(x0, n, "x0")?;
    }
    let need_dense = settings.sub_solver == SubSolver::Direct
        || (!settings.assume_symmetric && n <= DENSE_TRANSPOSE_LIMIT);
    let dense = if need_dense {
        let d = a.to_dense();
        if let Some(index) = d.data().iter().position(|v| !v.is_finite()) {
            return Err(LcpError::NonFinite { what: "A", index });
        }
        Some(d)
    } else {
        None
    };
    let prob = Problem { a, b, n, dense, symmetric: settings.assume_symmetric };
    let seed = match kind {
        Kind::Fischer { strategy: JacobianStrategy::Random { seed }, .. } => seed,
        _ => 0,
    };
    let mut lp = Loop {
        prob: &prob,
        kind,
        settings,
        rng: SplitMix64::new(seed),
        jac: Jacobian { active: vec![false; n], p: vec![0.0; n], q: vec![0.0; n] },
        scratch: vec![0.0; n],
        scratch2: vec![0.0; n],
        direct: prob.dense.as_ref().filter(|_| settings.sub_solver == SubSolver::Direct).map(DirectStep::new),
        krylov: KrylovBuffers::default(),
        stats: NewtonStats::default(),
        fell_back: false,
        unsolved_steps: 0,
    };
    let stop = &settings.stopping;
    let mut x: Vec<f64> = match x0 {
        Some(x0) => x0.iter().map(|v| v.max(0.0)).collect(),
        None => vec![0.0; n],
    };
    let mut y = vec![0.0; n];
    prob.y_of(&x, &mut y);
    let mut f = vec![0.0; n];
    let mut dx = vec![0.0; n];
    let mut jdx = vec![0.0; n];
    let mut grad = vec![0.0; n];
    let mut trial = vec![0.0; n];
    let mut y_trial = vec![0.0; n];
    let mut f_trial = vec![0.0; n];
    let mut history = Vec::new();
    let mut previous = f64::INFINITY;
    // Newton updates performed so far.
    let mut updates = 0;
    let status = loop {
        let theta = merit_of(&kind, &x, &y, &mut f);
        history.push(theta);
        if !theta.is_finite() {
            break IterativeStatus::NumericalFailure;
        }
        // Absolute before relative: both are tested in the same pass, so the iteration count is
        // that of the companion's order; a merit below ε_abs is reported as the certificate it is.
        let converged = match settings.absolute_test {
            AbsoluteTest::Merit => theta < stop.absolute,
            AbsoluteTest::NaturalResidual => {
                x.iter().zip(&y).all(|(xi, yi)| xi.min(*yi).abs() < stop.absolute)
            }
        };
        if converged {
            break IterativeStatus::ConvergedAbsolute;
        }
        if updates > 0 && (theta - previous).abs() < stop.relative * previous {
            break IterativeStatus::ConvergedRelative;
        }
        if updates >= stop.max_iterations {
            break IterativeStatus::MaxIterations;
        }
        lp.prepare(&x, &y);
        if !lp.direction(&x, &y, &f, &mut dx)? {
            break IterativeStatus::NumericalFailure;
        }
        if lp.unsolved_steps >= settings.max_unsolved_steps {
            break IterativeStatus::NumericalFailure;
        }
        if max_abs(&dx) < stop.stagnation * max_abs(&x).max(1.0) {
            break IterativeStatus::Stagnated;
        }
        if lp.gradient(&f, &mut grad) && norm2(&grad) < stop.absolute {
            break IterativeStatus::LocalMinimum;
        }
        lp.jacobian_times(&x, &y, &f, &dx, &mut jdx);
        let slope: f64 = f.iter().zip(&jdx).map(|(a, b)| a * b).sum();
        let dx2: f64 = dx.iter().map(|v| v * v).sum();
        if slope > -f64::EPSILON * dx2 || slope.is_nan() {
            break IterativeStatus::NonDescent;
        }
        let outcome = projected_line_search(&x, &dx, theta, slope, &settings.line_search, &mut trial, |t| {
            prob.y_of(t, &mut y_trial);
            merit_of(&kind, t, &y_trial, &mut f_trial)
        });
        lp.stats.line_search_evaluations += outcome.evaluations;
        if !outcome.armijo {
            // The guard stopped the search: the projected step makes no progress (spec A5).
            break IterativeStatus::Stagnated;
        }
        lp.stats.steps.push(outcome.step);
        if outcome.step == 1.0 {
            // The full step was accepted: the inexact direction behaved as a Newton step.
            lp.unsolved_steps = 0;
        }
        x.copy_from_slice(&trial);
        y.copy_from_slice(&y_trial);
        previous = theta;
        updates += 1;
    };
    // The companion code's counting (spec §4 [H]): the pass that stops the run counts, and a
    // run that exhausts the limit reports the limit.
    let iterations = (updates + 1).min(stop.max_iterations);
    let (w, residual) = lcp_residual_f64(a, b, &x);
    let solution = IterativeSolution { status, z: x, w, iterations, merit_history: history, residual };
    Ok(NewtonReport { solution, stats: lp.stats })
}
