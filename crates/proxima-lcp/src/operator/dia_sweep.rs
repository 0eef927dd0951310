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
//! Rows are taken in blocks of L consecutive rows, L ≤ min{|o| : o < −1} (and ≤ 64). Then
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
//! On the interior rows (every diagonal valid: all but the first and last |o| rows of a
//! grid) with the pairing applicable, the three phases are fused into one loop over groups
//! of G = 4 consecutive rows (G = 2 when some lower offset is −2 or −3) instead: phase 1 of
//! the group (G lanes wide), then its two pair steps. Phase 1 of a group reads x at rows
//! < i (final: written by earlier groups) or ≥ i (old); with G ≤ min{|o| : o < −1} no row
//! of the group needs another's new value except through the −1 chain, so the loop is
//! exact. On grids it reads nothing the last group wrote, never waits for the recurrence,
//! and the processor runs it for later groups while the chain of earlier ones completes;
//! with blocks the chain of one block and the passes of the next do not fit in the reorder
//! window together. Both paths perform the same operations in the same order for a pair.
//!
//! The kernel is bound by instruction throughput, not by the chain or by memory: on the
//! 2D 256² grid, cutting the chain (x_{i−1} replaced by a constant) left the sweep at
//! 124 µs, and a 64² grid that fits in L2 ran at the same 1.9 ns per row. So the fused
//! loop is compiled once per instruction set through `pulp` and runs the widest one the
//! processor has (AVX2 on x86-64: three-operand forms, 4-lane max |Δx|), plain multiplies
//! and adds on every one (fused multiply–adds were tried: same 2D time, 3D 12 % slower, as
//! they serialise the sum over diagonals). Measured (one sweep, 2D 256², 3D 40³, pinned to
//! one core): blocks everywhere 184 / 211 µs; fused pairs 138 / 181 µs; pairs read as
//! 2-row chunks 122 / 152 µs; 4-row groups with AVX2 112 / 135 µs (8-row groups 116 /
//! 137 µs; storing the scaled diagonals row-interleaved, one stream instead of K, 146 µs
//! on 2D). The blocks' length (16, 32, 128) changed nothing measurable.
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
//! with offsets −2 or −3 (Fluid(G)) gets blocks of 2 or 3 rows near its ends (the fused
//! pair loop does the interior). Without a scaled copy (some A_ii ≤ 0 or NaN: the solvers
//! refuse such matrices before sweeping) the kernel falls back to the plain row loop. `b`,
//! `inv_diag` and `x` must hold n entries (checked by the solvers; shorter slices panic).

use core::cell::Cell;

use super::dia::{DiaMatrix, valid_rows};
use super::{LinearOperator, RowAccess};

/// The most rows per block (stack buffers of this many entries).
const BLOCK_MAX: usize = 64;

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
        Some(s) => pulp::Arch::new().dispatch(BlockedSweep { s, n: a.n(), b, x, inv_diag, omega }),
        None => plain_sweep(a, b, x, inv_diag, omega),
    }
}

/// [`blocked_sweep`]'s arguments, so that pulp compiles it once per instruction set and runs
/// the best one the processor has (wider vectors for phase 1; the same operations in the
/// same order, so every version computes the same iterate).
struct BlockedSweep<'a> {
    s: &'a ScaledDiagonals,
    n: usize,
    b: &'a [f64],
    x: &'a mut [f64],
    inv_diag: &'a [f64],
    omega: f64,
}

impl pulp::WithSimd for BlockedSweep<'_> {
    type Output = f64;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> f64 {
        blocked_sweep(self.s, self.n, self.b, self.x, self.inv_diag, self.omega)
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

#[inline(always)]
fn blocked_sweep(
    s: &ScaledDiagonals,
    n: usize,
    b: &[f64],
    x: &mut [f64],
    inv_diag: &[f64],
    omega: f64,
) -> f64 {
    let (b, inv_diag, x) = (&b[..n], &inv_diag[..n], &mut x[..n]);
    let paired = s.monotone && omega > 0.0;
    // Rows on which every diagonal is valid (a multiple of the group size) take the fused
    // group loop; the rest, and every row when the pairing does not apply, the block loop.
    let (lo, hi) = s.others.iter().fold((0, n), |(lo, hi), &o| {
        let valid = valid_rows(n, o);
        (lo.max(valid.start), hi.min(valid.end))
    });
    // Four rows at a time need every x_{i+o} (o < −1) of the four final before them: |o| ≥ 4.
    let group = if s.block >= 4 { 4 } else { 2 };
    let hi =
        if paired && hi > lo && s.others.len() <= 8 { lo + (hi - lo) / group * group } else { lo.min(n) };
    let lo = lo.min(hi);
    let mut state = SweepState { x_prev: 0.0, max_change: 0.0 };
    blocks(s, n, 0..lo, b, x, inv_diag, omega, paired, &mut state);
    if hi > lo {
        let rows = lo..hi;
        let state = &mut state;
        if group == 4 {
            groups::<4>(s, n, rows, b, x, inv_diag, omega, state);
        } else {
            groups::<2>(s, n, rows, b, x, inv_diag, omega, state);
        }
    }
    blocks(s, n, hi..n, b, x, inv_diag, omega, paired, &mut state);
    state.max_change
}

/// [`pairs`] with the number of diagonals as a constant (0..=8; the caller checks ≤ 8).
#[inline(always)]
fn groups<const G: usize>(
    s: &ScaledDiagonals,
    n: usize,
    rows: core::ops::Range<usize>,
    b: &[f64],
    x: &mut [f64],
    inv_diag: &[f64],
    omega: f64,
    state: &mut SweepState,
) {
    match s.others.len() {
        0 => pairs::<0, G>(s, n, rows, b, x, inv_diag, omega, state),
        1 => pairs::<1, G>(s, n, rows, b, x, inv_diag, omega, state),
        2 => pairs::<2, G>(s, n, rows, b, x, inv_diag, omega, state),
        3 => pairs::<3, G>(s, n, rows, b, x, inv_diag, omega, state),
        4 => pairs::<4, G>(s, n, rows, b, x, inv_diag, omega, state),
        5 => pairs::<5, G>(s, n, rows, b, x, inv_diag, omega, state),
        6 => pairs::<6, G>(s, n, rows, b, x, inv_diag, omega, state),
        7 => pairs::<7, G>(s, n, rows, b, x, inv_diag, omega, state),
        _ => pairs::<8, G>(s, n, rows, b, x, inv_diag, omega, state),
    }
}

/// What one stretch of rows hands to the next: the last x and the running max |Δx|.
struct SweepState {
    x_prev: f64,
    max_change: f64,
}

/// The rows `rows` in blocks (phase 1, phase 2, phase 3 per block; see the module docs).
#[inline(always)]
fn blocks(
    s: &ScaledDiagonals,
    n: usize,
    rows: core::ops::Range<usize>,
    b: &[f64],
    x: &mut [f64],
    inv_diag: &[f64],
    omega: f64,
    paired: bool,
    state: &mut SweepState,
) {
    let mut t_buf = [0.0f64; BLOCK_MAX];
    let mut g_buf = [0.0f64; BLOCK_MAX];
    let mut old_buf = [0.0f64; BLOCK_MAX];
    let mut r = rows.start;
    while r < rows.end {
        let len = s.block.min(rows.end - r);
        let block = r..r + len;
        let (t, g, old) = (&mut t_buf[..len], &mut g_buf[..len], &mut old_buf[..len]);
        // Phase 1: t and g of the whole block.
        let (b, inv, prev) = (&b[block.clone()], &inv_diag[block.clone()], &s.prev[block.clone()]);
        phase1_passes(s, n, r, x, b, inv, prev, omega, t, g, old);
        // Phase 2: the recurrence through x_{i−1}.
        let xs = &mut x[block];
        state.x_prev =
            if paired { chain_paired(t, g, xs, state.x_prev) } else { chain_rows(t, g, xs, state.x_prev) };
        // Phase 3: max |Δx| of the block.
        state.max_change = max_abs_difference(xs, old, state.max_change);
        r += len;
    }
}

/// The rows `rows` (a multiple of G ∈ {2, 4}, every diagonal valid on them, the paired
/// recurrence applicable, G ≤ the block length) G at a time in one fused loop: phase 1 of
/// the G rows (the same operations in the same order as [`phase1_passes`]; G lanes wide),
/// then the pair steps of [`chain_paired`], one pair after the other. The work of later
/// groups does not wait for the recurrence on grids, so the processor overlaps it with the
/// chain (blocks serialise the two).
#[inline(always)]
fn pairs<const K: usize, const G: usize>(
    s: &ScaledDiagonals,
    n: usize,
    rows: core::ops::Range<usize>,
    b: &[f64],
    x: &mut [f64],
    inv_diag: &[f64],
    omega: f64,
    state: &mut SweepState,
) {
    let (lo, len) = (rows.start, rows.len());
    // x is read at i + o and written at i in the same loop: shared cells, no aliasing rules
    // broken and no copy.
    let cells = Cell::from_mut(x).as_slice_of_cells();
    let diagonals: [&[f64]; K] = core::array::from_fn(|k| &s.values[k * n + lo..k * n + lo + len]);
    let columns: [&[Cell<f64>]; K] = core::array::from_fn(|k| {
        let start = (lo as isize + s.others[k]) as usize;
        &cells[start..start + len]
    });
    let own = &cells[rows.clone()];
    let (b, inv, prev) = (&b[rows.clone()], &inv_diag[rows.clone()], &s.prev[rows]);
    let mut x_prev = state.x_prev;
    let mut maxima = [state.max_change; G];
    let groups =
        b.chunks_exact(G).zip(inv.chunks_exact(G)).zip(prev.chunks_exact(G)).zip(own.chunks_exact(G));
    for (p, (((bg, invg), prevg), owng)) in groups.enumerate() {
        let i0 = G * p;
        let old: [f64; G] = core::array::from_fn(|j| owng[j].get());
        let mut acc: [f64; G] = core::array::from_fn(|j| bg[j] * invg[j] + old[j]);
        for k in 0..K {
            let (d, c) = (&diagonals[k][i0..i0 + G], &columns[k][i0..i0 + G]);
            for j in 0..G {
                acc[j] += d[j] * c[j].get();
            }
        }
        let t: [f64; G] = core::array::from_fn(|j| old[j] - omega * acc[j]);
        let g: [f64; G] = core::array::from_fn(|j| -omega * prevg[j]);
        let mut new = [0.0; G];
        for q in (0..G).step_by(2) {
            let (t01, g01) = (t[q + 1] + g[q + 1] * t[q], g[q + 1] * g[q]);
            let floor = pos(t[q + 1]);
            new[q] = pos(t[q] + g[q] * x_prev);
            let y = t01 + g01 * x_prev;
            x_prev = if y > floor { y } else { floor };
            new[q + 1] = x_prev;
        }
        for j in 0..G {
            owng[j].set(new[j]);
            let change = (new[j] - old[j]).abs();
            maxima[j] = if change > maxima[j] { change } else { maxima[j] };
        }
    }
    state.x_prev = x_prev;
    state.max_change = maxima.iter().fold(state.max_change, |m, &c| m.max(c));
}

/// Phase 1 for any block: one pass per diagonal, each clipped to its valid rows.
#[inline(always)]
fn phase1_passes(
    s: &ScaledDiagonals,
    n: usize,
    r: usize,
    x: &[f64],
    b: &[f64],
    inv: &[f64],
    prev: &[f64],
    omega: f64,
    t: &mut [f64],
    g: &mut [f64],
    old: &mut [f64],
) {
    let len = t.len();
    old.copy_from_slice(&x[r..r + len]);
    for ((tk, &xo), (&bi, &inv)) in t.iter_mut().zip(old.iter()).zip(b.iter().zip(inv)) {
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
    for (gk, &p) in g.iter_mut().zip(prev) {
        *gk = -omega * p;
    }
}

/// max(m, max_i |new_i − old_i|) with four independent running maxima (a single one would
/// make the fold a serial chain).
#[inline(always)]
fn max_abs_difference(new: &[f64], old: &[f64], m: f64) -> f64 {
    let mut lanes = [m; 4];
    let (new4, old4) = (new.chunks_exact(4), old.chunks_exact(4));
    let (new_rest, old_rest) = (new4.remainder(), old4.remainder());
    for (nc, oc) in new4.zip(old4) {
        for k in 0..4 {
            let change = (nc[k] - oc[k]).abs();
            lanes[k] = if change > lanes[k] { change } else { lanes[k] };
        }
    }
    for (&nv, &ov) in new_rest.iter().zip(old_rest) {
        let change = (nv - ov).abs();
        lanes[0] = if change > lanes[0] { change } else { lanes[0] };
    }
    let (a, b) = (lanes[0].max(lanes[1]), lanes[2].max(lanes[3]));
    a.max(b)
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
