//! Small dense linear algebra over any [`Field`], exact or float.
//!
//! Gaussian elimination with partial pivoting: for floats the pivot is the entry of largest
//! magnitude in its column (stable in practice); for exact types the first non-zero entry
//! (every non-zero pivot is exact, so the cheapest is chosen). A matrix is declared singular
//! when no pivot exceeds `tolerance` in magnitude (zero for exact types).
//!
//! [`lu_solve_f64`] is the same elimination for `f64` on column-major storage, vectorized and
//! with the same rounding (the same bits): the Newton methods' direct sub-solve;
//! [`cholesky_solve_f64`] is their sub-solve for symmetric positive definite systems (half
//! the flops, other rounding).

use proxima_num::Field;

mod cholesky_f64;
mod lu_f64;
mod simd_update;

pub use cholesky_f64::cholesky_solve_f64;
pub use lu_f64::lu_solve_f64;

/// Solves `A x = b` in place for a square row-major `a` (n × n, destroyed) and `b` (length n,
/// overwritten by x). Returns `false` (leaving garbage) when A is singular to `tolerance`.
/// Allocation-free.
pub fn solve_in_place<T: Field>(a: &mut [T], b: &mut [T], tolerance: &T) -> bool {
    let n = b.len();
    debug_assert_eq!(a.len(), n * n);
    for col in 0..n {
        let mut pivot_row = None;
        let mut best = T::zero();
        for row in col..n {
            let v = a[row * n + col].abs();
            if v > *tolerance && (pivot_row.is_none() || (!T::EXACT && v > best)) {
                best = v;
                pivot_row = Some(row);
                if T::EXACT {
                    break;
                }
            }
        }
        let Some(p) = pivot_row else { return false };
        if p != col {
            for k in 0..n {
                a.swap(p * n + k, col * n + k);
            }
            b.swap(p, col);
        }
        let inv = a[col * n + col].recip();
        for row in col + 1..n {
            let factor = a[row * n + col].mul(&inv);
            if factor.is_zero() {
                continue;
            }
            // Row slices split once per row (not per entry) so the update vectorizes for floats;
            // the same operations in the same order as entry by entry.
            let (upper, lower) = a.split_at_mut(row * n);
            for (t, p) in lower[col..n].iter_mut().zip(&upper[col * n + col..col * n + n]) {
                t.sub_mul_assign(&factor, p);
            }
            let (bu, bl) = b.split_at_mut(row);
            bl[0].sub_mul_assign(&factor, &bu[col]);
        }
    }
    for col in (0..n).rev() {
        let mut acc = b[col].clone();
        for k in col + 1..n {
            acc.sub_mul_assign(&a[col * n + k], &b[k]);
        }
        b[col] = acc.div(&a[col * n + col]);
    }
    true
}

/// Solves `A x = b` (A row-major n × n), returning `None` when singular to `tolerance`.
pub fn solve<T: Field>(a: &[T], b: &[T], tolerance: &T) -> Option<Vec<T>> {
    let mut a = a.to_vec();
    let mut x = b.to_vec();
    solve_in_place(&mut a, &mut x, tolerance).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_num::Rational;

    #[test]
    fn solves_exactly_and_detects_singular() {
        let r = |v: i64| Rational::from_integer(v);
        let a = vec![r(0), r(2), r(1), r(1)];
        let x = solve(&a, &[r(4), r(3)], &Rational::zero()).unwrap();
        assert_eq!(x, vec![r(1), r(2)]);
        let sing = vec![r(1), r(2), r(2), r(4)];
        assert!(solve(&sing, &[r(1), r(1)], &Rational::zero()).is_none());
        let xf = solve(&[0.0, 2.0, 1.0, 1.0], &[4.0, 3.0], &1e-14).unwrap();
        assert!((xf[0] - 1.0).abs() < 1e-15 && (xf[1] - 2.0).abs() < 1e-15);
    }
}
