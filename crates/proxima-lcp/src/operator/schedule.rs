//! A two-chain schedule for the CSR Gauss–Seidel sweep: the same updates, two recurrences at
//! once.
//!
//! # The maths
//!
//! A Gauss–Seidel sweep computes x_i from x_k new for k < i and old for k > i (only columns
//! with a stored entry matter). Any processing order gives the same iterates, bit for bit,
//! as long as every row reads each of its columns k in that state: k < i done before i, k > i
//! not yet done. The natural order is latency-bound: row i waits for x_{i−1}.
//!
//! A *segment* (s, L) with lag d covers rows [s, s + 2L): chain 1 runs rows s, s+1, …, m − 1
//! (m = s + L), chain 2 runs rows m, m+1, …, s + 2L − 1, d steps behind. At step t chain 1
//! computes row i = s + t and then chain 2 row j = m + t − d (when 0 ≤ t − d < L). Rows before
//! s are done before the segment, rows from s + 2L on after it. The segment is exact iff
//!
//! * every row i of chain 1 reads no column k with m ≤ k < i + L − d (chain 2 has done rows
//!   [m, m + t − d) when row i reads x), and
//! * every row j of chain 2 reads no column k with s ≤ k < m and k > j − L + d (chain 1 has done
//!   rows [s, s + t] when row j reads x).
//!
//! In particular row m reads no x_{m−1}: chain 2 starts with x_prev = 0 and a zero a_{m,m−1},
//! whose product term is ±0 and leaves the update unchanged (for finite iterates).
//! For a grid ordered with the first axis fastest (n_x cells per grid row, no coupling between
//! the end of one grid row and the start of the next), L = n_x pairs grid rows r and r + 1.
//!
//! # Construction
//!
//! L is the most frequent distance from a row to its nearest lower neighbour at distance ≥ 2
//! (n_x for 2D and 3D grids). Segments are placed greedily from row 0: a valid segment is
//! taken whole; at a conflict the start moves past it. Rows outside segments run in natural
//! order. When no useful L exists (L < [`MIN_CHAIN`]), the schedule is empty and the sweep is
//! the natural one. Building costs O(n log(row length)) plus a bounded amount of retrying.

use std::collections::HashMap;

/// Steps chain 2 trails chain 1 (enough for a freshly written x_k to reach the other chain).
pub(crate) const LAG: usize = 4;

/// The shortest chain worth pairing.
pub(crate) const MIN_CHAIN: usize = 4 * LAG;

/// Segments of paired rows (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ChainSchedule {
    /// (s, L): rows [s, s + 2L), sorted and disjoint.
    pub(crate) segments: Vec<(usize, usize)>,
}

impl ChainSchedule {
    /// The schedule for a square CSR pattern (`indptr` n + 1 entries, sorted columns).
    pub(crate) fn build(indptr: &[usize], indices: &[u32]) -> Self {
        let n = indptr.len() - 1;
        let row = |i: usize| &indices[indptr[i]..indptr[i + 1]];
        let Some(l) = chain_length(n, &row) else { return Self::default() };
        let mut segments = Vec::new();
        let mut s = 0;
        // Work budget for retries (rows examined), so that building stays O(n) on patterns
        // where segments rarely fit.
        let mut budget = 8 * n + 4 * l;
        while s + 2 * l <= n {
            match first_conflict(&row, s, l, &mut budget) {
                Conflict::None => {
                    segments.push((s, l));
                    s += 2 * l;
                }
                Conflict::At(next) => s = next.max(s + 1),
                Conflict::OutOfBudget => break,
            }
        }
        ChainSchedule { segments }
    }
}

enum Conflict {
    None,
    /// The next start worth trying.
    At(usize),
    OutOfBudget,
}

/// The most frequent distance to the nearest lower neighbour at distance ≥ 2, if ≥ MIN_CHAIN.
fn chain_length<'a>(n: usize, row: &impl Fn(usize) -> &'a [u32]) -> Option<usize> {
    let mut counts: HashMap<usize, usize> = HashMap::new();
    for i in 2..n {
        let cols = row(i);
        let p = cols.partition_point(|&k| (k as usize) + 1 < i);
        if p > 0 {
            *counts.entry(i - cols[p - 1] as usize).or_insert(0) += 1;
        }
    }
    // Ties go to the smaller distance (deterministic).
    let (l, _) = counts.into_iter().max_by_key(|&(d, c)| (c, std::cmp::Reverse(d)))?;
    (l >= MIN_CHAIN && 2 * l <= n).then_some(l)
}

fn first_conflict<'a>(
    row: &impl Fn(usize) -> &'a [u32],
    s: usize,
    l: usize,
    budget: &mut usize,
) -> Conflict {
    let m = s + l;
    for i in s..m {
        if *budget == 0 {
            return Conflict::OutOfBudget;
        }
        *budget -= 1;
        let cols = row(i);
        let p = cols.partition_point(|&k| (k as usize) < m);
        if p < cols.len() && (cols[p] as usize) + LAG < i + l {
            // Row i reads a chain-2 row too early; a segment starting at i may fit.
            return Conflict::At(i);
        }
    }
    for j in m..m + l {
        if *budget == 0 {
            return Conflict::OutOfBudget;
        }
        *budget -= 1;
        let cols = row(j);
        let p = cols.partition_point(|&k| (k as usize) < m);
        if p > 0 {
            let k = cols[p - 1] as usize;
            if k >= s && k + l > j + LAG {
                // Row j needs x_k before chain 1 reaches it; start after k.
                return Conflict::At(k + 1);
            }
        }
    }
    Conflict::None
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::generate::{FluidGridSettings, fluid_grid};
    use crate::iterative::splitting::inverse_diagonal;
    use crate::operator::CsrMatrix;
    use crate::operator::RowAccess;
    use crate::operator::rows::csr_sweep_natural;

    /// The rows in the order the scheduled sweep processes them (program order).
    fn processing_order(n: usize, segments: &[(usize, usize)]) -> Vec<usize> {
        let mut order = Vec::with_capacity(n);
        let mut next = 0;
        for &(s, l) in segments {
            order.extend(next..s);
            let m = s + l;
            order.extend(s..s + LAG);
            for t in LAG..l {
                order.push(s + t);
                order.push(m + t - LAG);
            }
            order.extend(m + l - LAG..m + l);
            next = s + 2 * l;
        }
        order.extend(next..n);
        order
    }

    /// Independent check of the schedule: a permutation of 0..n in which every row reads each
    /// of its columns in the Gauss–Seidel state (k < i already done, k > i not yet), and row
    /// m of each segment does not read x_{m−1} (chain 2 starts without it).
    fn assert_valid(a: &CsrMatrix) {
        let n = a.n();
        let segs = a.chain_segments();
        let order = processing_order(n, segs);
        let mut pos = vec![usize::MAX; n];
        for (p, &i) in order.iter().enumerate() {
            assert_eq!(pos[i], usize::MAX, "row {i} scheduled twice");
            pos[i] = p;
        }
        assert!(pos.iter().all(|&p| p != usize::MAX), "a row is missing");
        for i in 0..n {
            for &k in a.row(i).0 {
                let k = k as usize;
                if k != i {
                    assert_eq!(pos[k] < pos[i], k < i, "row {i} reads x_{k} in the wrong state");
                }
            }
        }
        for &(s, l) in segs {
            assert!(l > LAG && s + 2 * l <= n);
            assert!(a.row(s + l).0.iter().all(|&k| k as usize != s + l - 1));
        }
    }

    /// `sweeps` scheduled sweeps equal natural-order sweeps bit for bit (x and max |Δx|).
    fn assert_bit_identical(a: &CsrMatrix, b: &[f64], x0: &[f64], sweeps: usize) {
        let inv = inverse_diagonal(a).unwrap();
        for omega in [1.0, 1.4, 0.6] {
            let (mut x, mut x_ref) = (x0.to_vec(), x0.to_vec());
            for k in 0..sweeps {
                let d = a.sweep(b, &mut x, &mut (), &inv, omega);
                let d_ref = csr_sweep_natural(a, b, &mut x_ref, &inv, omega);
                assert_eq!(d.to_bits(), d_ref.to_bits(), "max change, omega {omega}, sweep {k}");
                for (i, (u, v)) in x.iter().zip(&x_ref).enumerate() {
                    assert_eq!(u.to_bits(), v.to_bits(), "x_{i}, omega {omega}, sweep {k}");
                }
            }
        }
    }

    fn random_vec(rng: &mut SmallRng, n: usize, lo: f64, hi: f64) -> Vec<f64> {
        (0..n).map(|_| rng.random_range(lo..hi)).collect()
    }

    #[test]
    fn grids_are_paired_and_bit_identical() {
        let mut rng = SmallRng::seed_from_u64(7);
        let settings = [
            FluidGridSettings::grid_2d(20, 15),
            FluidGridSettings::grid_2d(33, 10),
            FluidGridSettings::grid_2d(64, 41),
            FluidGridSettings::grid_3d(16, 5, 4),
            FluidGridSettings::grid_3d(17, 9, 3),
        ];
        for s in &settings {
            let g = fluid_grid(s, &mut rng).unwrap();
            let n = g.matrix.n();
            let segs = g.matrix.chain_segments();
            // Grid rows are paired: L = n_x and nearly all rows are in segments.
            let nx = s.dims[0];
            assert!(segs.iter().all(|&(_, l)| l == nx), "{:?}: {segs:?}", s.dims);
            let paired: usize = segs.iter().map(|&(_, l)| 2 * l).sum();
            assert!(paired + 2 * nx > n, "{:?}: only {paired} of {n} rows paired", s.dims);
            assert_valid(&g.matrix);
            assert_bit_identical(&g.matrix, &g.b, &vec![0.0; n], 5);
            let x0 = random_vec(&mut rng, n, -0.5, 1.0);
            assert_bit_identical(&g.matrix, &g.b, &x0, 5);
        }
    }

    /// A random sparse matrix: a stencil-like band pattern (offsets ±1, ±w) with random gaps,
    /// plus `extra` random entries per row at most `reach` away, diagonally dominant
    /// (non-symmetric values and pattern).
    fn random_banded(rng: &mut SmallRng, n: usize, w: usize, extra: usize, reach: usize) -> CsrMatrix {
        let rows = (0..n).map(|i| {
            let mut row = Vec::new();
            let mut off_sum = 0.0;
            let mut push = |row: &mut Vec<(usize, f64)>, j: usize, rng: &mut SmallRng| {
                let v = rng.random_range(-1.0..1.0);
                off_sum += f64::abs(v);
                row.push((j, v));
            };
            for j in [i.wrapping_sub(w), i.wrapping_sub(1), i + 1, i + w] {
                if j < n && (i / w == j / w || j.abs_diff(i) == w) && rng.random_bool(0.9) {
                    push(&mut row, j, rng);
                }
            }
            for _ in 0..extra {
                let j = (i + rng.random_range(0..=2 * reach)).saturating_sub(reach).min(n - 1);
                if j != i {
                    push(&mut row, j, rng);
                }
            }
            row.push((i, off_sum + rng.random_range(0.5..2.0)));
            row
        });
        CsrMatrix::from_rows(n, rows.collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn random_sparse_matrices_are_bit_identical() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut any_paired = 0;
        for case in 0..60 {
            let n = rng.random_range(1..600);
            let w = rng.random_range(2..40);
            let extra = if case % 3 == 0 { 0 } else { rng.random_range(0..3) };
            let reach = rng.random_range(1..(2 * w).min(n).max(2));
            let a = random_banded(&mut rng, n, w, extra, reach);
            if !a.chain_segments().is_empty() {
                any_paired += 1;
            }
            assert_valid(&a);
            let b = random_vec(&mut rng, n, -1.0, 1.0);
            let x0 = random_vec(&mut rng, n, -0.5, 1.0);
            assert_bit_identical(&a, &b, &x0, 3);
        }
        // The cases must exercise the paired kernel, not only the natural fallback.
        assert!(any_paired >= 15, "only {any_paired} of 60 random matrices were paired");
    }

    #[test]
    fn unstructured_patterns_fall_back_to_natural_order() {
        // Fluid(G)-like bands at offsets 1, 2, 3: no chain length ≥ MIN_CHAIN.
        let mut rng = SmallRng::seed_from_u64(3);
        let a = random_banded(&mut rng, 300, 2, 2, 3);
        assert!(a.chain_segments().is_empty());
        let b = random_vec(&mut rng, 300, -1.0, 1.0);
        assert_bit_identical(&a, &b, &vec![0.0; 300], 3);
        // n = 1.
        let one = CsrMatrix::from_rows(1, vec![vec![(0, 2.0)]]).unwrap();
        assert!(one.chain_segments().is_empty());
        assert_bit_identical(&one, &[-1.0], &[0.0], 2);
    }
}
