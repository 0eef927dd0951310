//! Dense LU with partial pivoting for the Newton systems, P K = L U, with reused storage.
//!
//! # The maths
//!
//! Gaussian elimination with partial pivoting: at step k the row with the largest |K_ik|
//! (i ≥ k) is swapped to the top, the multipliers l_ik = K_ik / K_kk fill L and the trailing
//! block is updated K_ij ← K_ij − l_ik K_kj. Then K x = b is L y = P b, U x = y. Partial
//! pivoting picks the largest candidate, so K is declared singular exactly when some pivot
//! |U_kk| ≤ `tolerance` (no candidate of that column exceeds it).
//!
//! Below [`BLOCKED_FROM`] unknowns the elimination runs row by row
//! ([`solve_in_place`](super::solve_in_place)); from there it is faer's blocked recursive LU,
//! whose trailing updates are matrix products running at cache speed (an n = 500 Newton
//! system factors several times faster than row by row).
//!
//! # Edge cases
//!
//! * n = 0 is solvable (nothing to do); a non-finite pivot counts as singular.
//! * The pivot indices and faer's scratch memory grow to the largest n seen and are then
//!   reused: repeated solves of at most that size allocate nothing.

use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::lu::partial_pivoting::{factor, solve};
use faer::{MatMut, Par};

/// Size from which [`BlockedLu`] uses the blocked factorisation.
pub const BLOCKED_FROM: usize = 32;

/// A reusable dense solver K x = b (see the module docs).
#[derive(Default)]
pub struct BlockedLu {
    perm: Vec<usize>,
    perm_inv: Vec<usize>,
    scratch: Option<MemBuffer>,
    /// Largest n the scratch memory was sized for.
    capacity: usize,
}

impl core::fmt::Debug for BlockedLu {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BlockedLu").field("capacity", &self.capacity).finish_non_exhaustive()
    }
}

impl BlockedLu {
    /// An empty solver; storage is sized on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Solves K x = b for a square row-major `k` (n × n with n = `b.len()`, destroyed); `b` is
    /// overwritten by x. Returns `false` (leaving garbage) when K is singular to `tolerance`.
    pub fn solve(&mut self, k: &mut [f64], b: &mut [f64], tolerance: f64) -> bool {
        let n = b.len();
        assert_eq!(k.len(), n * n, "BlockedLu::solve: matrix is not n x n");
        if n < BLOCKED_FROM {
            return super::solve_in_place(k, b, &tolerance);
        }
        self.reserve(n);
        let stack = MemStack::new(self.scratch.as_mut().expect("reserved above"));
        let (perm, perm_inv) = (&mut self.perm[..n], &mut self.perm_inv[..n]);
        let mut lu = MatMut::from_row_major_slice_mut(k, n, n);
        let (_, row_perm) =
            factor::lu_in_place(lu.as_mut(), perm, perm_inv, Par::Seq, stack, Default::default());
        let nonsingular = (0..n).all(|i| {
            let pivot = lu[(i, i)].abs();
            pivot > tolerance && pivot.is_finite()
        });
        if !nonsingular {
            return false;
        }
        let lu = lu.as_ref();
        let rhs = MatMut::from_column_major_slice_mut(b, n, 1);
        solve::solve_in_place(lu, lu, row_perm, rhs, Par::Seq, stack);
        true
    }

    fn reserve(&mut self, n: usize) {
        if n <= self.capacity && self.scratch.is_some() {
            return;
        }
        let req = StackReq::any_of(&[
            factor::lu_in_place_scratch::<usize, f64>(n, n, Par::Seq, Default::default()),
            solve::solve_in_place_scratch::<usize, f64>(n, 1, Par::Seq),
        ]);
        self.scratch = Some(MemBuffer::new(req));
        self.perm.resize(n, 0);
        self.perm_inv.resize(n, 0);
        self.capacity = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reproducible non-symmetric test matrix with a dominant but shuffled structure.
    fn matrix(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        (0..n * n).map(|_| next()).collect()
    }

    fn residual(k: &[f64], x: &[f64], b: &[f64]) -> f64 {
        let n = b.len();
        (0..n)
            .map(|i| (k[i * n..(i + 1) * n].iter().zip(x).map(|(a, v)| a * v).sum::<f64>() - b[i]).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn both_paths_solve_and_agree_with_row_elimination() {
        let mut lu = BlockedLu::new();
        for &n in &[1, 5, 31, 32, 33, 100, 257] {
            let k = matrix(n, n as u64);
            let b: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
            let mut x = b.clone();
            assert!(lu.solve(&mut k.clone(), &mut x, 1e-12), "n = {n}");
            assert!(residual(&k, &x, &b) < 1e-9, "n = {n}: residual {}", residual(&k, &x, &b));
            let reference = crate::linalg::solve(&k, &b, &1e-12).unwrap();
            let gap = x.iter().zip(&reference).map(|(a, r)| (a - r).abs()).fold(0.0, f64::max);
            assert!(gap < 1e-8, "n = {n}: gap {gap}");
        }
    }

    #[test]
    fn detects_singular_matrices_on_both_paths() {
        let mut lu = BlockedLu::new();
        for &n in &[4, 40] {
            let mut k = matrix(n, 7);
            // Row n−1 = row 0 + row 1: rank n − 1.
            for j in 0..n {
                k[(n - 1) * n + j] = k[j] + k[n + j];
            }
            let mut b = vec![1.0; n];
            assert!(!lu.solve(&mut k, &mut b, 1e-10), "n = {n}");
        }
    }

    #[test]
    fn reuses_storage_for_smaller_systems() {
        let mut lu = BlockedLu::new();
        let k = matrix(64, 3);
        let b = vec![1.0; 64];
        let mut x = b.clone();
        assert!(lu.solve(&mut k.clone(), &mut x, 1e-12));
        let small = matrix(40, 4);
        let mut y = vec![1.0; 40];
        assert!(lu.solve(&mut small.clone(), &mut y, 1e-12));
        assert_eq!(lu.capacity, 64);
        assert!(residual(&small, &y, &[1.0; 40]) < 1e-9);
    }
}
