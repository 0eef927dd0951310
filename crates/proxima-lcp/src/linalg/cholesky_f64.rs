//! Dense `f64` solves by Cholesky factorisation on column-major storage, vectorized: the
//! Newton methods' direct sub-solve when the reduced system is symmetric.
//!
//! # The maths
//!
//! A symmetric positive definite K factors as K = L Lᵀ with L lower triangular and a positive
//! diagonal. Column by column (left-looking): for j = 0, 1, …
//!
//! ```text
//! v = K_{j.., j} − Σ_{c < j} L_{j c} · L_{j.., c}      (contiguous axpys, four columns a pass)
//! L_{j j} = √v_0,   L_{j+1.., j} = v_{1..} / L_{j j}
//! ```
//!
//! then L z = b forward (column by column, contiguous axpys) and Lᵀ x = z backward (contiguous
//! dots). Half the flops of LU with partial pivoting (k³/3 against 2k³/3) and no row
//! exchanges; only the lower triangle of K is read.
//!
//! Cholesky needs no pivoting for stability: when it runs to completion in floating point the
//! computed L is the exact factor of K + ΔK with |ΔK| ≤ γ_{k+1} |L||Lᵀ| entry by entry, and
//! for positive (semi)definite K, ‖|L||Lᵀ|‖₂ ≤ k‖K‖₂ (Higham, *Accuracy and Stability*, §10.1).
//! A matrix that is not positive definite shows it as a pivot v_0 that is not above the
//! tolerance (in exact arithmetic v_0 ≤ 0 at the first such column); the routine then stops.
//!
//! # Edge cases
//!
//! * A pivot v_0 ≤ `tolerance` (or NaN) returns `false`: K is not (numerically) positive
//!   definite; the caller falls back to LU. K and b then hold garbage.
//! * k = 0 solves trivially (`true`).
//! * Only entries on and below the diagonal are read; those above are left as they were.
//! * Allocation-free.

use super::simd_update::{GROUP, axpy, update_with};

/// Solves `K x = b` in place for a symmetric positive definite k × k `k_matrix` stored
/// **column by column** (`k_matrix[j * k + i]` is K_ij; only i ≥ j is read) — its lower
/// triangle is overwritten by L — and `b` (length k, overwritten by x). Returns `false`
/// (leaving garbage) when some pivot is not above `tolerance`.
///
/// # Panics
///
/// When `k_matrix.len() != b.len()²`.
pub fn cholesky_solve_f64(k_matrix: &mut [f64], b: &mut [f64], tolerance: f64) -> bool {
    assert_eq!(k_matrix.len(), b.len() * b.len(), "cholesky_solve_f64: K must be k x k for b of length k");
    pulp::Arch::new().dispatch(Factorisation { k_matrix, b, tolerance })
}

/// The arguments of [`cholesky_solve_f64`], so that pulp compiles the solve once per
/// instruction set.
struct Factorisation<'a> {
    k_matrix: &'a mut [f64],
    b: &'a mut [f64],
    tolerance: f64,
}

impl pulp::WithSimd for Factorisation<'_> {
    type Output = bool;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) -> bool {
        let Factorisation { k_matrix: a, b, tolerance } = self;
        let k = b.len();
        for j in 0..k {
            let (done, rest) = a.split_at_mut(j * k);
            let column = &mut rest[j..k];
            let mut c = 0;
            while c < j {
                let m = (j - c).min(GROUP);
                let mut f = [0.0; GROUP];
                let mut x: [&[f64]; GROUP] = [&[]; GROUP];
                let mut used = 0;
                for i in c..c + m {
                    let l_ji = done[i * k + j];
                    if l_ji != 0.0 {
                        f[used] = -l_ji;
                        x[used] = &done[i * k + j..(i + 1) * k];
                        used += 1;
                    }
                }
                match used {
                    0 => {}
                    1 => update_with::<S, 1>(simd, column, &f, &x),
                    2 => update_with::<S, 2>(simd, column, &f, &x),
                    3 => update_with::<S, 3>(simd, column, &f, &x),
                    _ => update_with::<S, 4>(simd, column, &f, &x),
                }
                c += m;
            }
            let pivot = column[0];
            if pivot.is_nan() || pivot <= tolerance {
                return false;
            }
            let diagonal = pivot.sqrt();
            column[0] = diagonal;
            let inverse = 1.0 / diagonal;
            column[1..].iter_mut().for_each(|l| *l *= inverse);
        }
        // L z = b: z_j = b_j / L_jj, then b_{j+1..} −= z_j L_{j+1.., j}.
        for j in 0..k {
            let column = &a[j * k + j..(j + 1) * k];
            let (head, below) = b.split_at_mut(j + 1);
            let z = head[j] / column[0];
            head[j] = z;
            axpy(simd, -z, &column[1..], below);
        }
        // Lᵀ x = z: x_j = (z_j − L_{j+1.., j} · x_{j+1..}) / L_jj.
        for j in (0..k).rev() {
            let column = &a[j * k + j..(j + 1) * k];
            let (head, below) = b.split_at_mut(j + 1);
            let s: f64 = column[1..].iter().zip(below.iter()).map(|(l, x)| l * x).sum();
            head[j] = (head[j] - s) / column[0];
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::solve;
    use proxima_num::{Field, Rational};

    /// A symmetric positive definite k × k matrix with integer entries (R Rᵀ + I, R small
    /// integers), row-major (equal to column-major: symmetric).
    fn spd(k: usize, seed: u64) -> Vec<i64> {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) % 7) as i64 - 3
        };
        let r: Vec<i64> = (0..k * k).map(|_| next()).collect();
        let mut a = vec![0; k * k];
        for i in 0..k {
            for j in 0..k {
                a[i * k + j] = (0..k).map(|c| r[i * k + c] * r[j * k + c]).sum::<i64>() + i64::from(i == j);
            }
        }
        a
    }

    #[test]
    fn matches_an_exact_rational_solve() {
        for &(k, seed) in &[(1, 1), (2, 2), (5, 3), (9, 4), (23, 5), (40, 6)] {
            let a = spd(k, seed);
            let b: Vec<i64> = (0..k as i64).map(|i| (i * 5) % 11 - 5).collect();
            let exact = solve(
                &a.iter().map(|&v| Rational::from_integer(v)).collect::<Vec<_>>(),
                &b.iter().map(|&v| Rational::from_integer(v)).collect::<Vec<_>>(),
                &Rational::zero(),
            )
            .unwrap();
            let mut m: Vec<f64> = a.iter().map(|&v| v as f64).collect();
            let mut x: Vec<f64> = b.iter().map(|&v| v as f64).collect();
            assert!(cholesky_solve_f64(&mut m, &mut x, 1e-12), "k = {k}");
            let scale = exact.iter().map(|v| v.to_f64().abs()).fold(1.0, f64::max);
            for (xi, ei) in x.iter().zip(&exact) {
                assert!((xi - ei.to_f64()).abs() <= 1e-9 * scale, "k = {k}: {xi} vs {}", ei.to_f64());
            }
        }
    }

    #[test]
    fn refuses_indefinite_singular_and_nan() {
        // [[1, 2], [2, 1]] is indefinite: the second pivot is 1 − 4 < 0.
        assert!(!cholesky_solve_f64(&mut [1.0, 2.0, 2.0, 1.0], &mut [1.0, 1.0], 1e-14));
        // [[1, 1], [1, 1]] is singular: the second pivot is 0.
        assert!(!cholesky_solve_f64(&mut [1.0, 1.0, 1.0, 1.0], &mut [1.0, 1.0], 1e-14));
        assert!(!cholesky_solve_f64(&mut [f64::NAN], &mut [1.0], 0.0));
        assert!(!cholesky_solve_f64(&mut [-1.0], &mut [1.0], 0.0));
        assert!(cholesky_solve_f64(&mut [], &mut [], 0.0));
    }

    #[test]
    fn reads_only_the_lower_triangle() {
        // K = [[4, 2], [2, 3]]; the entry above the diagonal holds garbage.
        let mut m = vec![4.0, 2.0, f64::NAN, 3.0];
        let mut b = vec![2.0, 1.0];
        assert!(cholesky_solve_f64(&mut m, &mut b, 1e-14));
        // x = K⁻¹ b = (0.5, 0).
        assert!((b[0] - 0.5).abs() < 1e-15 && b[1].abs() < 1e-15, "{b:?}");
    }
}
