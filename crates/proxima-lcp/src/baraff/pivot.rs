//! The pivoting loop shared by the plain and the boxed solver (see the parent module's maths).

use super::BaraffSettings;
use super::inverse::IncrementalInverse;
use crate::operator::{DenseMatrix, LinearOperator};
use crate::solution::LcpStatus;

/// The smallest number of bordering updates between refactorizations under the default
/// (adaptive) schedule of [`BaraffSettings::refactor_interval`].
const DEFAULT_REFACTOR_INTERVAL: usize = 64;

/// Where a variable is in the pivoting (for the plain LCP: `AtLower` is ℱ, `Clamped` is 𝒜).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexState {
    /// Not processed yet: x at clamp(0, lo, hi), y unconstrained.
    Unprocessed,
    /// x = lo, y ≥ 0 (plain LCP: the free set ℱ, x = 0).
    AtLower,
    /// x = hi, y ≤ 0 (boxed LCPs only).
    AtUpper,
    /// y = 0, lo ≤ x ≤ hi (plain LCP: the active set 𝒜).
    Clamped,
}

/// What an observer sees after a pivot.
#[derive(Debug, Clone, Copy)]
pub struct PivotEvent<'a> {
    /// Pivots so far (0 for the event after the warm start).
    pub pivot: usize,
    /// The index being driven (`None` for the warm-start event).
    pub driving: Option<usize>,
    /// The current x.
    pub x: &'a [f64],
    /// The current y (updated incrementally; y of clamped indices is exactly 0).
    pub y: &'a [f64],
    /// The state of every index (the driven index is `Unprocessed` until it settles).
    pub states: &'a [IndexState],
}

/// Raw result of a run (the caller certifies it from the data).
pub(crate) struct Run {
    pub(crate) status: LcpStatus,
    pub(crate) x: Vec<f64>,
    pub(crate) states: Vec<IndexState>,
    pub(crate) pivots: usize,
    pub(crate) outer_passes: usize,
    pub(crate) refactorizations: usize,
    pub(crate) scale_a: f64,
    pub(crate) scale_b: f64,
    /// The unbounded direction d when the run ended on a ray (status `NoSolution` pending the
    /// caller's certificate check); components below the pivot tolerance are zeroed.
    pub(crate) ray: Option<Vec<f64>>,
}

#[derive(Debug, Clone, Copy)]
enum Block {
    /// y_j reaches 0: j becomes clamped.
    Drive,
    /// x_j reaches its own bound.
    OwnBound,
    /// A clamped x_i reaches lo_i.
    ToLower(usize),
    /// A clamped x_i reaches hi_i.
    ToUpper(usize),
    /// y_i of a bound index reaches 0: i becomes clamped.
    ToClamped(usize),
}

struct Tolerances {
    x: f64,
    y: f64,
    feasibility: f64,
    singular: f64,
}

fn compute_y(a: &DenseMatrix, b: &[f64], x: &[f64], y: &mut [f64]) {
    // Unprocessed variables may sit at 0 with infinite bounds; x itself is always finite.
    a.apply(x, y);
    y.iter_mut().zip(b).for_each(|(yi, bi)| *yi += bi);
}

/// Violation of an unprocessed index: how far y is from satisfying its box condition in the
/// direction x can move.
fn violation(x: f64, y: f64, lo: f64, hi: f64) -> f64 {
    if y < 0.0 && x < hi {
        -y
    } else if y > 0.0 && x > lo {
        y
    } else {
        0.0
    }
}

/// Warm start: clamp the given set, dropping indices whose solved x leaves its box.
fn warm_start(
    a: &DenseMatrix,
    b: &[f64],
    lo: &[f64],
    hi: &[f64],
    initial: &[usize],
    tol: &Tolerances,
    x: &mut [f64],
    states: &mut [IndexState],
    inv: &mut IncrementalInverse,
) {
    let mut set: Vec<usize> = Vec::new();
    for &i in initial {
        if !set.contains(&i) {
            set.push(i);
        }
    }
    let mut rhs = vec![0.0; a.n()];
    let mut xc = vec![0.0; a.n()];
    while !set.is_empty() {
        inv.indices.clear();
        inv.indices.extend_from_slice(&set);
        if inv.refactor(a, tol.singular).is_err() {
            set.clear();
            break;
        }
        for (p, &ci) in set.iter().enumerate() {
            let row = a.row(ci);
            let outside: f64 = (0..a.n()).filter(|i| !set.contains(i)).map(|i| row[i] * x[i]).sum();
            rhs[p] = -(b[ci] + outside);
        }
        inv.apply(&rhs, &mut xc);
        let (worst, excess) = set
            .iter()
            .enumerate()
            .map(|(p, &ci)| (p, (lo[ci] - xc[p]).max(xc[p] - hi[ci])))
            .fold((0, f64::NEG_INFINITY), |acc, v| if v.1 > acc.1 { v } else { acc });
        if excess <= tol.x * xc[..set.len()].iter().fold(1.0f64, |m, v| m.max(v.abs())) {
            for (p, &ci) in set.iter().enumerate() {
                x[ci] = xc[p].max(lo[ci]).min(hi[ci]);
                states[ci] = IndexState::Clamped;
            }
            return;
        }
        set.remove(worst);
    }
    inv.indices.clear();
}

/// Re-solves the clamped variables from the data with a fresh factorization and keeps the
/// result when it does not increase the natural residual.
fn polish(a: &DenseMatrix, b: &[f64], lo: &[f64], hi: &[f64], x: &mut [f64], states: &[IndexState]) {
    let n = a.n();
    let clamped: Vec<usize> = (0..n).filter(|&i| states[i] == IndexState::Clamped).collect();
    if clamped.is_empty() {
        return;
    }
    let k = clamped.len();
    let mut m = vec![0.0; k * k];
    let mut rhs = vec![0.0; k];
    for (p, &ci) in clamped.iter().enumerate() {
        let row = a.row(ci);
        for (q, &cj) in clamped.iter().enumerate() {
            m[p * k + q] = row[cj];
        }
        let outside: f64 = (0..n).filter(|&i| states[i] != IndexState::Clamped).map(|i| row[i] * x[i]).sum();
        rhs[p] = -(b[ci] + outside);
    }
    let Some(sol) = crate::linalg::solve(&m, &rhs, &0.0) else { return };
    let mut candidate = x.to_vec();
    for (p, &ci) in clamped.iter().enumerate() {
        if !sol[p].is_finite() {
            return;
        }
        candidate[ci] = sol[p].max(lo[ci]).min(hi[ci]);
    }
    let mut y = vec![0.0; n];
    let natural = |x: &[f64], y: &mut [f64]| {
        compute_y(a, b, x, y);
        super::boxed_residual(lo, hi, x, y).natural_inf
    };
    let before = natural(x, &mut y);
    let after = natural(&candidate, &mut y);
    if after <= before {
        x.copy_from_slice(&candidate);
    }
}

pub(crate) fn run(
    a: &DenseMatrix,
    b: &[f64],
    lo: &[f64],
    hi: &[f64],
    initial: &[usize],
    settings: &BaraffSettings,
    observer: &mut dyn FnMut(&PivotEvent<'_>),
) -> Run {
    let n = a.n();
    let max_a = a.data().iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let scale_a = if max_a > 0.0 { max_a } else { 1.0 };
    let scale_b = b.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let tol = Tolerances {
        x: settings.pivot_tolerance,
        y: settings.pivot_tolerance * scale_a,
        feasibility: settings.feasibility_tolerance * scale_b,
        singular: settings.singular_tolerance * scale_a,
    };
    let max_pivots = settings.max_pivots_for(n);
    // Aᵀ once (O(n²)): its rows are A's columns, so Δy = A Δx becomes contiguous axpys.
    let at = {
        let mut t = vec![0.0; n * n];
        for i in 0..n {
            for (j, v) in a.row(i).iter().enumerate() {
                t[j * n + i] = *v;
            }
        }
        DenseMatrix::from_row_major_unchecked(n, t)
    };
    let mut x: Vec<f64> = (0..n).map(|i| 0.0f64.max(lo[i]).min(hi[i])).collect();
    let mut states = vec![IndexState::Unprocessed; n];
    let mut inv = IncrementalInverse::new(n);
    if !initial.is_empty() {
        warm_start(a, b, lo, hi, initial, &tol, &mut x, &mut states, &mut inv);
    }
    let mut y = vec![0.0; n];
    compute_y(a, b, &x, &mut y);
    for &ci in &inv.indices {
        y[ci] = 0.0;
    }
    observer(&PivotEvent { pivot: 0, driving: None, x: &x, y: &y, states: &states });
    let mut pivots = 0;
    let mut outer_passes = 0;
    let mut dx = vec![0.0; n];
    let mut dy = vec![0.0; n];
    let mut rhs = vec![0.0; n];
    let mut dxc = vec![0.0; n];
    let mut status = LcpStatus::Solved;
    let mut ray = None;
    'outer: loop {
        // Select the most violated unprocessed index (ties: lowest index).
        let mut j = None;
        let mut worst = tol.feasibility;
        for i in 0..n {
            if states[i] == IndexState::Unprocessed {
                let v = violation(x[i], y[i], lo[i], hi[i]);
                if v > worst {
                    worst = v;
                    j = Some(i);
                }
            }
        }
        let Some(j) = j else { break 'outer };
        outer_passes += 1;
        let sigma = if y[j] < 0.0 { 1.0 } else { -1.0 };
        loop {
            if pivots >= max_pivots {
                status = LcpStatus::MaxIterations;
                break 'outer;
            }
            // By default the interval grows with k, so the O(k³) refactorization amortizes to
            // the O(k²) of an update; the Δy_𝒞 ≈ 0 check below refactors early when
            // accumulated round-off demands it.
            let interval = settings.refactor_interval.unwrap_or(inv.len().max(DEFAULT_REFACTOR_INTERVAL));
            if inv.updates_since_refactor >= interval {
                if inv.refactor(a, tol.singular).is_err() {
                    status = LcpStatus::NumericalFailure;
                    break 'outer;
                }
                compute_y(a, b, &x, &mut y);
            }
            // Direction: Δx_j = σ, Δx_𝒞 = −σ A_𝒞𝒞⁻¹ A_𝒞j, Δy = A Δx.
            let mut attempt = 0;
            loop {
                let k = inv.len();
                let col_j = at.row(j);
                for (p, &ci) in inv.indices.iter().enumerate() {
                    rhs[p] = -sigma * col_j[ci];
                }
                inv.apply(&rhs, &mut dxc);
                dx.iter_mut().for_each(|v| *v = 0.0);
                dx[j] = sigma;
                for (p, &ci) in inv.indices.iter().enumerate() {
                    dx[ci] = dxc[p];
                }
                // Δy = σ A_{*j} + Σ_c Δx_c A_{*c}: contiguous axpys over rows of Aᵀ.
                for (dyi, aij) in dy.iter_mut().zip(col_j) {
                    *dyi = sigma * aij;
                }
                for (&c, &d) in inv.indices.iter().zip(&dxc[..k]) {
                    if d != 0.0 {
                        for (dyi, aic) in dy.iter_mut().zip(at.row(c)) {
                            *dyi += d * aic;
                        }
                    }
                }
                let size = dx.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                let err = inv.indices.iter().fold(0.0f64, |m, &c| m.max(dy[c].abs()));
                if err <= 1e-11 * scale_a * size * (k as f64).max(1.0) {
                    break;
                }
                if attempt == 0 && inv.updates_since_refactor > 0 {
                    if inv.refactor(a, tol.singular).is_err() {
                        status = LcpStatus::NumericalFailure;
                        break 'outer;
                    }
                    attempt += 1;
                    continue;
                }
                if err > 1e-8 * scale_a * size * (k as f64).max(1.0) {
                    status = LcpStatus::NumericalFailure;
                    break 'outer;
                }
                break;
            }
            for &c in &inv.indices {
                dy[c] = 0.0;
            }
            // Ratio test: prefer j, then the lowest index.
            let mut step = f64::INFINITY;
            let mut who = None;
            let mut consider = |s: f64, block: Block| {
                let s = s.max(0.0);
                if s < step {
                    step = s;
                    who = Some(block);
                }
            };
            if sigma * dy[j] > tol.y {
                consider(-y[j] / dy[j], Block::Drive);
            }
            let own = if sigma > 0.0 { hi[j] - x[j] } else { x[j] - lo[j] };
            if own.is_finite() {
                consider(own, Block::OwnBound);
            }
            for i in 0..n {
                if i == j {
                    continue;
                }
                match states[i] {
                    IndexState::Clamped => {
                        if dx[i] < -tol.x && lo[i].is_finite() {
                            consider((lo[i] - x[i]) / dx[i], Block::ToLower(i));
                        } else if dx[i] > tol.x && hi[i].is_finite() {
                            consider((hi[i] - x[i]) / dx[i], Block::ToUpper(i));
                        }
                    }
                    IndexState::AtLower if dy[i] < -tol.y => consider(-y[i] / dy[i], Block::ToClamped(i)),
                    IndexState::AtUpper if dy[i] > tol.y => consider(-y[i] / dy[i], Block::ToClamped(i)),
                    _ => {}
                }
            }
            let Some(block) = who else {
                status = LcpStatus::NoSolution;
                ray = Some(dx.iter().map(|&d| if d.abs() > tol.x { d } else { 0.0 }).collect());
                break 'outer;
            };
            for i in 0..n {
                y[i] += step * dy[i];
                if dx[i] != 0.0 {
                    x[i] += step * dx[i];
                }
            }
            pivots += 1;
            let mut settled = false;
            let failed = match block {
                Block::Drive => {
                    y[j] = 0.0;
                    x[j] = x[j].max(lo[j]).min(hi[j]);
                    states[j] = IndexState::Clamped;
                    settled = true;
                    inv.push(a, j, tol.singular).is_err()
                }
                Block::OwnBound => {
                    let upper = sigma > 0.0;
                    x[j] = if upper { hi[j] } else { lo[j] };
                    states[j] = if upper { IndexState::AtUpper } else { IndexState::AtLower };
                    settled = true;
                    false
                }
                Block::ToLower(i) | Block::ToUpper(i) => {
                    let upper = matches!(block, Block::ToUpper(_));
                    x[i] = if upper { hi[i] } else { lo[i] };
                    states[i] = if upper { IndexState::AtUpper } else { IndexState::AtLower };
                    let pos = inv.indices.iter().position(|&c| c == i).unwrap_or(0);
                    if inv.remove(pos, tol.singular * f64::EPSILON).is_err() {
                        inv.indices.retain(|&c| c != i);
                        inv.refactor(a, tol.singular).is_err()
                    } else {
                        false
                    }
                }
                Block::ToClamped(i) => {
                    y[i] = 0.0;
                    states[i] = IndexState::Clamped;
                    inv.push(a, i, tol.singular).is_err()
                }
            };
            // Clamp round-off of the other clamped variables into their boxes.
            for &c in &inv.indices {
                x[c] = x[c].max(lo[c]).min(hi[c]);
            }
            observer(&PivotEvent { pivot: pivots, driving: Some(j), x: &x, y: &y, states: &states });
            if failed {
                status = LcpStatus::NumericalFailure;
                break 'outer;
            }
            if settled {
                break;
            }
        }
    }
    if status == LcpStatus::Solved {
        for i in 0..n {
            if states[i] == IndexState::Unprocessed {
                states[i] = if x[i] == lo[i] {
                    IndexState::AtLower
                } else if x[i] == hi[i] {
                    IndexState::AtUpper
                } else {
                    IndexState::Clamped
                };
            }
        }
        polish(a, b, lo, hi, &mut x, &states);
        if pivots == 0 && initial.is_empty() {
            status = LcpStatus::Trivial;
        }
    }
    Run {
        status,
        x,
        states,
        pivots,
        outer_passes,
        refactorizations: inv.refactorizations,
        scale_a,
        scale_b,
        ray,
    }
}
