//! The CSR projected Gauss–Seidel / SOR sweep kernel.
//!
//! # The maths
//!
//! For i = 0..n in order, with c = ω/A_ii, s = b_i + Σ_{j ≠ i−1} a_ij x_j (all entries of the
//! row but a_{i,i−1}, in column order, left to right) and the current x:
//!
//! x_i ← max(0, (x_i − c s) − (c a_{i,i−1}) x_{i−1}),
//!
//! which is x_i − ω (A_{i*}x + b_i)/A_ii up to rounding order. Every quantity but the last
//! product is known before x_{i−1} is updated, so only one multiply, one subtraction and the
//! projection wait for the previous row. The kernel returns max_i |Δx_i|.
//!
//! # Speed
//!
//! The sweep is bound by instruction throughput, not by the x_{i−1} → x_i recurrence
//! (measured: cutting the recurrence does not speed it up), so the kernel keeps the work per
//! row small: rows are walked with running slices (no per-row index checks on the row
//! pointers, b and 1/A_ii), the common stencil shapes — a_{i,i−1} at position 0 of 3 (1D),
//! 1 of 5 (2D 5-point) or 2 of 7 (3D 7-point) — are gathered by unrolled code (columns are
//! sorted and unique, so one comparison finds a_{i,i−1}), and |Δx| is folded with a plain
//! comparison (the running maximum is never NaN, so this equals `f64::max`). Other rows use
//! the generic loop. Every shape computes the same operations in the same order, so the
//! iterates do not depend on which path a row takes (tests check bit identity against a
//! straightforward reference on grids and random sparse matrices).
//!
//! A two-chain schedule (rows of grid row r and r + 1 interleaved with a lag, exact for any
//! pattern after a per-matrix validity check) was measured and dropped: since the kernel is
//! not latency-bound, a second recurrence has no latency to hide and its bookkeeping made the
//! sweep 20–40 % slower on the 2D grids.
//!
//! # Edge cases
//!
//! Row 0 has no x_{−1} (i − 1 wraps to `u32::MAX`, which no column reaches since
//! n ≤ `u32::MAX`). Rows without a stored a_{i,i−1} use a_{i,i−1} = 0. `b` and `inv_diag`
//! must hold n entries and `x` n entries (checked by the solvers; a shorter slice panics).

use super::CsrMatrix;

/// One projected sweep over the rows of `a` in natural order (see the module docs).
pub(crate) fn sweep(a: &CsrMatrix, b: &[f64], x: &mut [f64], inv_diag: &[f64], omega: f64) -> f64 {
    let n = a.n();
    let (indptr, mut cols_rest, mut vals_rest) = (a.indptr(), a.indices(), a.values());
    let mut max_change = 0.0f64;
    let mut x_prev = 0.0;
    for (i, (w, (&b_i, &inv_i))) in indptr.windows(2).zip(b[..n].iter().zip(&inv_diag[..n])).enumerate() {
        let len = w[1] - w[0];
        let (cols, cols_next) = cols_rest.split_at(len);
        let (vals, vals_next) = vals_rest.split_at(len);
        cols_rest = cols_next;
        vals_rest = vals_next;
        let (s, a_prev) = gather(cols, vals, x, b_i, i);
        let c = omega * inv_i;
        let old = x[i];
        let trial = (old - c * s) - (c * a_prev) * x_prev;
        let new = if trial > 0.0 { trial } else { 0.0 };
        x[i] = new;
        x_prev = new;
        let change = (new - old).abs();
        max_change = if change > max_change { change } else { max_change };
    }
    max_change
}

/// (s, a_{i,i−1}) for row i: s = b_i + Σ a_ij x_j over the row's other entries in column
/// order, left to right.
#[inline(always)]
fn gather(cols: &[u32], vals: &[f64], x: &[f64], b_i: f64, i: usize) -> (f64, f64) {
    // i − 1 as a column index; for i = 0 it wraps to u32::MAX, which no column reaches.
    let prev = (i as u32).wrapping_sub(1);
    match cols.len() {
        5 if cols[1] == prev => gather_fixed::<5, 1>(cols, vals, x, b_i),
        7 if cols[2] == prev => gather_fixed::<7, 2>(cols, vals, x, b_i),
        3 if cols[0] == prev => gather_fixed::<3, 0>(cols, vals, x, b_i),
        _ => gather_loop(cols, vals, x, b_i, prev),
    }
}

/// [`gather`] for a row of `K` entries whose a_{i,i−1} sits at position `Q` (unrolled).
#[inline(always)]
fn gather_fixed<const K: usize, const Q: usize>(
    cols: &[u32],
    vals: &[f64],
    x: &[f64],
    b_i: f64,
) -> (f64, f64) {
    let (Ok(cols), Ok(vals)) = (<&[u32; K]>::try_from(cols), <&[f64; K]>::try_from(vals)) else {
        unreachable!("the caller matched the row length")
    };
    let mut s = b_i;
    let mut a_prev = 0.0;
    for p in 0..K {
        if p == Q {
            a_prev = vals[p];
        } else {
            s += vals[p] * x[cols[p] as usize];
        }
    }
    (s, a_prev)
}

/// [`gather`] for any row (compares every column with `prev` = i − 1).
#[inline(never)]
fn gather_loop(cols: &[u32], vals: &[f64], x: &[f64], b_i: f64, prev: u32) -> (f64, f64) {
    let mut s = b_i;
    let mut a_prev = 0.0;
    for (&j, &a) in cols.iter().zip(vals) {
        if j == prev {
            a_prev = a;
        } else {
            s += a * x[j as usize];
        }
    }
    (s, a_prev)
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::super::CsrMatrix;
    use super::sweep;
    use crate::generate::{FluidGridSettings, fluid_banded, fluid_grid};
    use crate::iterative::splitting::inverse_diagonal;

    /// The reference: the CSR update row by row with a column comparison and `f64::max`
    /// (the kernel before the unrolled gathers), independent of the kernel's code paths.
    fn reference_sweep(a: &CsrMatrix, b: &[f64], x: &mut [f64], inv_diag: &[f64], omega: f64) -> f64 {
        let (indptr, indices, values) = (a.indptr(), a.indices(), a.values());
        let mut max_change = 0.0f64;
        let mut x_prev = 0.0;
        for (i, (w, (&bi, &inv))) in indptr.windows(2).zip(b.iter().zip(inv_diag)).enumerate() {
            let (cols, vals) = (&indices[w[0]..w[1]], &values[w[0]..w[1]]);
            let prev = (i as u32).wrapping_sub(1);
            let mut s = bi;
            let mut a_prev = 0.0;
            for (&j, &a) in cols.iter().zip(vals) {
                if j == prev {
                    a_prev = a;
                } else {
                    s += a * x[j as usize];
                }
            }
            let c = omega * inv;
            let old = x[i];
            let trial = (old - c * s) - (c * a_prev) * x_prev;
            let new = if trial > 0.0 { trial } else { 0.0 };
            x[i] = new;
            x_prev = new;
            max_change = max_change.max((new - old).abs());
        }
        max_change
    }

    /// `sweeps` kernel sweeps equal reference sweeps bit for bit (x and max |Δx|), for
    /// several ω.
    fn assert_bit_identical(a: &CsrMatrix, b: &[f64], x0: &[f64], sweeps: usize) {
        let inv = inverse_diagonal(a).unwrap();
        for omega in [1.0, 1.4, 0.6] {
            let (mut x, mut x_ref) = (x0.to_vec(), x0.to_vec());
            for k in 0..sweeps {
                let d = sweep(a, b, &mut x, &inv, omega);
                let d_ref = reference_sweep(a, b, &mut x_ref, &inv, omega);
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

    /// How many rows take each unrolled shape (3, 5, 7 entries) — the tests must reach them.
    fn shape_counts(a: &CsrMatrix) -> [usize; 3] {
        let mut counts = [0; 3];
        for i in 0..a.n() {
            let cols = a.row(i).0;
            let prev = (i as u32).wrapping_sub(1);
            match cols.len() {
                3 if cols[0] == prev => counts[0] += 1,
                5 if cols[1] == prev => counts[1] += 1,
                7 if cols[2] == prev => counts[2] += 1,
                _ => {}
            }
        }
        counts
    }

    #[test]
    fn grids_match_the_reference_bit_for_bit() {
        let mut rng = SmallRng::seed_from_u64(7);
        let settings = [
            FluidGridSettings::grid_2d(20, 15),
            FluidGridSettings::grid_2d(2, 9),
            FluidGridSettings::grid_3d(16, 5, 4),
            FluidGridSettings::grid_3d(3, 2, 7),
        ];
        let mut seen = [0; 3];
        for s in &settings {
            let g = fluid_grid(s, &mut rng).unwrap();
            let n = g.matrix.n();
            for (t, c) in seen.iter_mut().zip(shape_counts(&g.matrix)) {
                *t += c;
            }
            assert_bit_identical(&g.matrix, &g.b, &vec![0.0; n], 5);
            // From a random start (some components negative: the projection acts at once).
            let x0 = random_vec(&mut rng, n, -0.5, 1.0);
            assert_bit_identical(&g.matrix, &g.b, &x0, 5);
        }
        assert!(seen[1] > 100 && seen[2] > 50, "grid interiors take the 5- and 7-point paths: {seen:?}");
        // Fluid(G): bands at ±1, ±2, ±3 (7 entries with a_{i,i−1} at position 2 in the
        // interior, so the 7-point path on a non-grid matrix).
        let f = fluid_banded(4, &mut rng).unwrap();
        assert!(shape_counts(&f.matrix)[2] > 0);
        let b = random_vec(&mut rng, 64, -1.0, 1.0);
        assert_bit_identical(&f.matrix, &b, &vec![0.0; 64], 5);
    }

    /// A random sparse, diagonally dominant, non-symmetric matrix with rows of 0–8 random
    /// off-diagonal entries near the diagonal (so every shape, with and without a_{i,i−1},
    /// occurs), or a tridiagonal one.
    fn random_sparse(rng: &mut SmallRng, n: usize, tridiagonal: bool) -> CsrMatrix {
        let rows: Vec<Vec<(usize, f64)>> = (0..n)
            .map(|i| {
                let mut row: Vec<(usize, f64)> = Vec::new();
                let mut off_sum = 0.0;
                let cols: Vec<usize> = if tridiagonal {
                    [i.wrapping_sub(1), i + 1].into_iter().filter(|&j| j < n).collect()
                } else {
                    let k = rng.random_range(0..=8);
                    (0..k).map(|_| (i + rng.random_range(0..=8)).saturating_sub(4).min(n - 1)).collect()
                };
                for j in cols {
                    if j != i && !row.iter().any(|e| e.0 == j) {
                        let v = rng.random_range(-1.0..1.0);
                        off_sum += f64::abs(v);
                        row.push((j, v));
                    }
                }
                row.push((i, off_sum + rng.random_range(0.5..2.0)));
                row
            })
            .collect();
        CsrMatrix::from_rows(n, rows).unwrap()
    }

    #[test]
    fn random_sparse_matrices_match_the_reference_bit_for_bit() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut seen = [0; 3];
        for case in 0..80 {
            let n = rng.random_range(1..300);
            let a = random_sparse(&mut rng, n, case % 4 == 0);
            for (t, c) in seen.iter_mut().zip(shape_counts(&a)) {
                *t += c;
            }
            let b = random_vec(&mut rng, n, -1.0, 1.0);
            let x0 = random_vec(&mut rng, n, -0.5, 1.0);
            assert_bit_identical(&a, &b, &x0, 3);
        }
        assert!(seen.iter().all(|&c| c > 50), "every unrolled shape is exercised: {seen:?}");
    }

    #[test]
    fn one_by_one() {
        let one = CsrMatrix::from_rows(1, vec![vec![(0, 2.0)]]).unwrap();
        assert_bit_identical(&one, &[-1.0], &[0.0], 2);
        let mut x = [0.0];
        let d = sweep(&one, &[-1.0], &mut x, &[0.5], 1.0);
        assert_eq!((x[0], d), (0.5, 0.5));
    }
}
