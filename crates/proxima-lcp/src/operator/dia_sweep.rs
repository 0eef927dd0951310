//! The DIA projected Gauss–Seidel / SOR sweep kernel: blocked, unit-diagonal, with a paired
//! recurrence.
//!
//! # The maths
//!
//! The sweep is the CSR kernel's update, for i = 0..n in order,
//! x_i ← max(0, x_i − ω (A_{i*}x + b_i)/A_ii), written with the row-scaled matrix
//! Ã = D⁻¹A − I (built once per matrix, so the kernel streams no diagonal) and
//! b̃_i = b_i/A_ii (b_i times the caller's 1/A_ii):
//!
//! x_i ← max(0, t_i + g_i x_{i−1}),  t_i = x_i − ω (b̃_i + x_i + Σ_{o ∉ {0,−1}} ã_{i,i+o} x_{i+o}),
//! g_i = −ω ã_{i,i−1}.
//!
//! Rows are taken in blocks of L consecutive rows, L ≤ min{|o| : o < −1} (and ≤ 128). Then
//! inside a block every x_{i+o} with o < −1 is already final and every one with o > 0 (and
//! x_i) still old, exactly as in the row-by-row sweep, so **phase 1** computes all t_i and
//! g_i of the block at once, one contiguous pass per diagonal (vectorised by the compiler).
//! **Phase 2** is the only serial part: x_i = max(0, t_i + g_i x_{i−1}). When every g_i ≥ 0
//! (ã_{i,i−1} ≤ 0, as in M-matrices such as the fluid grids, and ω > 0) it takes rows in
//! pairs: g ≥ 0 gives g·max(0, u) = max(0, g u), so
//!
//! x_{i+1} = max(0, t_{i+1} + g_{i+1} max(0, t_i + g_i x_{i−1}))
//!         = max(max(0, t_{i+1}), (t_{i+1} + g_{i+1} t_i) + (g_{i+1} g_i) x_{i−1}),
//!
//! and x_{i+1} waits for x_{i−1} through one multiply, one add and one max — half the chain
//! per row; x_i = max(0, t_i + g_i x_{i−1}) is computed beside it. **Phase 3** folds
//! max |Δx_i| over the block. Otherwise (some g_i < 0) phase 2 runs row by row.
//!
//! Same ordering, same iterate up to rounding: the sums are associated differently from the
//! CSR kernel (scaled entries, b̃ + x_i first, the pair composition), so iterates agree with
//! it to a few ulps per sweep (tests bound the difference), not bit for bit.
//!
//! # Speed
//!
//! Bytes per row: the m − 1 scaled off-diagonals, b, 1/A_ii, and x read and written — no
//! column indices, no row pointers, no diagonal. The benchmark's DIA bandwidth bound streams
//! exactly these bytes.
//!
//! # Edge cases
//!
//! Padding entries are 0 and are skipped by clipping each diagonal's pass to its valid rows,
//! so no x index leaves [0, n). Row 0 has g_0 = 0 (padding) and x_{−1} taken as 0. A matrix
//! with offsets −2 or −3 (Fluid(G)) gets blocks of 2 or 3 rows: correct, not fast. Without
//! a scaled copy (some A_ii ≤ 0 or NaN: the solvers refuse such matrices before sweeping) the
//! kernel falls back to the plain row loop. `b`, `inv_diag` and `x` must hold n entries
//! (checked by the solvers; shorter slices panic).

use super::dia::{DiaMatrix, valid_rows};
use super::{LinearOperator, RowAccess};

/// The most rows per block (stack buffers of this many entries).
const BLOCK_MAX: usize = 128;

/// Ã = D⁻¹A − I split for the kernel (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ScaledDiagonals {
    /// Offsets other than 0 and −1, ascending.
    others: Vec<isize>,
    /// ã on those diagonals, diagonal k at `[k n, (k + 1) n)`, indexed by row.
    values: Vec<f64>,
    /// ã_{i,i−1} (all 0 when A has no −1 diagonal), indexed by row.
    prev: Vec<f64>,
    /// Every ã_{i,i−1} ≤ 0: the paired recurrence applies (for ω > 0).
    monotone: bool,
    /// Rows per block, 1..=`BLOCK_MAX`.
    block: usize,
}

impl ScaledDiagonals {
    /// The scaled copy of the DIA values, or `None` unless every A_ii is positive and finite.
    pub(crate) fn new(n: usize, offsets: &[isize], values: &[f64], main: usize) -> Option<Self> {
        let diag = &values[main * n..(main + 1) * n];
        if !diag.iter().all(|d| d.is_finite() && *d > 0.0) {
            return None;
        }
        let inv: Vec<f64> = diag.iter().map(|d| 1.0 / d).collect();
        let scale = |k: usize| -> Vec<f64> {
            values[k * n..(k + 1) * n].iter().zip(&inv).map(|(a, s)| a * s).collect()
        };
        let mut others = Vec::new();
        let mut scaled = Vec::new();
        let mut prev = vec![0.0; n];
        for (k, &o) in offsets.iter().enumerate() {
            match o {
                0 => {}
                -1 => prev = scale(k),
                _ => {
                    others.push(o);
                    scaled.extend(scale(k));
                }
            }
        }
        let monotone = prev.iter().all(|&p| p <= 0.0);
        let reach = others.iter().filter(|&&o| o < -1).map(|o| o.unsigned_abs()).min().unwrap_or(usize::MAX);
        Some(ScaledDiagonals { others, values: scaled, prev, monotone, block: reach.min(BLOCK_MAX) })
    }
}

/// One projected sweep over the rows of `a` in natural order (see the module docs).
pub(crate) fn sweep(a: &DiaMatrix, b: &[f64], x: &mut [f64], inv_diag: &[f64], omega: f64) -> f64 {
    match a.scaled() {
        Some(s) => blocked_sweep(s, a.n(), b, x, inv_diag, omega),
        None => plain_sweep(a, b, x, inv_diag, omega),
    }
}

/// The row loop with `row_dot`: the fallback for matrices without a scaled copy.
fn plain_sweep(a: &DiaMatrix, b: &[f64], x: &mut [f64], inv_diag: &[f64], omega: f64) -> f64 {
    let mut max_change = 0.0f64;
    for i in 0..a.dim() {
        let r = a.row_dot(i, x, &()) + b[i];
        let old = x[i];
        let trial = old - omega * r * inv_diag[i];
        let new = if trial > 0.0 { trial } else { 0.0 };
        x[i] = new;
        max_change = max_change.max((new - old).abs());
    }
    max_change
}

fn blocked_sweep(
    s: &ScaledDiagonals,
    n: usize,
    b: &[f64],
    x: &mut [f64],
    inv_diag: &[f64],
    omega: f64,
) -> f64 {
    let (b, inv_diag) = (&b[..n], &inv_diag[..n]);
    let paired = s.monotone && omega > 0.0;
    let mut t_buf = [0.0f64; BLOCK_MAX];
    let mut g_buf = [0.0f64; BLOCK_MAX];
    let mut old_buf = [0.0f64; BLOCK_MAX];
    let mut max_change = 0.0f64;
    let mut x_prev = 0.0;
    let mut r = 0;
    while r < n {
        let len = s.block.min(n - r);
        let rows = r..r + len;
        let (t, g, old) = (&mut t_buf[..len], &mut g_buf[..len], &mut old_buf[..len]);
        // Phase 1: t and g of the whole block.
        old.copy_from_slice(&x[rows.clone()]);
        for ((tk, &xo), (&bi, &inv)) in
            t.iter_mut().zip(old.iter()).zip(b[rows.clone()].iter().zip(&inv_diag[rows.clone()]))
        {
            *tk = bi * inv + xo;
        }
        for (k, &o) in s.others.iter().enumerate() {
            let valid = valid_rows(n, o);
            let (lo, hi) = (r.max(valid.start), (r + len).min(valid.end));
            if lo >= hi {
                continue;
            }
            let d = &s.values[k * n + lo..k * n + hi];
            let xs = &x[(lo as isize + o) as usize..(hi as isize + o) as usize];
            for (tk, (&a, &xj)) in t[lo - r..hi - r].iter_mut().zip(d.iter().zip(xs)) {
                *tk += a * xj;
            }
        }
        for (tk, &xo) in t.iter_mut().zip(old.iter()) {
            *tk = xo - omega * *tk;
        }
        for (gk, &p) in g.iter_mut().zip(&s.prev[rows.clone()]) {
            *gk = -omega * p;
        }
        // Phase 2: the recurrence through x_{i−1}.
        let xs = &mut x[rows];
        x_prev = if paired { chain_paired(t, g, xs, x_prev) } else { chain_rows(t, g, xs, x_prev) };
        // Phase 3: max |Δx| of the block.
        for (&new, &o) in xs.iter().zip(old.iter()) {
            let change = (new - o).abs();
            max_change = if change > max_change { change } else { max_change };
        }
        r += len;
    }
    max_change
}

/// max(0, v) (v NaN gives 0, as in the CSR kernel).
#[inline(always)]
fn pos(v: f64) -> f64 {
    if v > 0.0 { v } else { 0.0 }
}

/// x_i = max(0, t_i + g_i x_{i−1}) row by row; returns the last x.
#[inline(always)]
fn chain_rows(t: &[f64], g: &[f64], xs: &mut [f64], mut x_prev: f64) -> f64 {
    for ((xi, &ti), &gi) in xs.iter_mut().zip(t).zip(g) {
        x_prev = pos(ti + gi * x_prev);
        *xi = x_prev;
    }
    x_prev
}

/// The paired recurrence (every g ≥ 0, see the module docs); returns the last x.
#[inline(always)]
fn chain_paired(t: &[f64], g: &[f64], xs: &mut [f64], mut x_prev: f64) -> f64 {
    let pairs = xs.len() / 2 * 2;
    let (xs_pairs, xs_rest) = xs.split_at_mut(pairs);
    for ((xo, tp), gp) in xs_pairs.chunks_exact_mut(2).zip(t.chunks_exact(2)).zip(g.chunks_exact(2)) {
        let (t0, t1, g0, g1) = (tp[0], tp[1], gp[0], gp[1]);
        let floor = pos(t1);
        let (t01, g01) = (t1 + g1 * t0, g1 * g0);
        xo[0] = pos(t0 + g0 * x_prev);
        let y = t01 + g01 * x_prev;
        x_prev = if y > floor { y } else { floor };
        xo[1] = x_prev;
    }
    chain_rows(&t[pairs..], &g[pairs..], xs_rest, x_prev)
}
