//! Input checks of the QP builders: finiteness, symmetry of A, positive definiteness of A_uu.
//!
//! Exact scalars decide exactly (tolerance zero). Floats use the relative tolerance
//! τ = max(1e-12, 256 ε), ε the unit roundoff of the scalar (so `f32` data is not rejected for
//! rounding-level asymmetry), times the magnitude of the matrix concerned.

use proxima_num::Field;

use crate::error::LcpError;

/// The unit roundoff of a float scalar (the smallest power of two ε with 1 + ε ≠ 1);
/// zero for exact scalars.
pub(super) fn unit_roundoff<T: Field>() -> f64 {
    if T::EXACT {
        return 0.0;
    }
    let one = T::one();
    let two = T::from_i64(2);
    let mut eps = T::one();
    for _ in 0..2048 {
        let half = eps.div(&two);
        if one.add(&half) == one {
            break;
        }
        eps = half;
    }
    eps.to_f64()
}

/// The relative tolerance τ of the float checks (unused by exact scalars).
pub(super) fn relative_tolerance<T: Field>() -> f64 {
    (256.0 * unit_roundoff::<T>()).max(1e-12)
}

/// Rejects NaN / ±∞.
pub(super) fn finite<T: Field>(values: &[T], what: &'static str) -> Result<(), LcpError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(LcpError::NonFinite { what, index }),
        None => Ok(()),
    }
}

fn max_abs<'a, T: Field>(values: impl Iterator<Item = &'a T>) -> T {
    values.fold(T::zero(), |acc, v| {
        let a = v.abs();
        if a > acc { a } else { acc }
    })
}

/// A must equal Aᵀ (exactly, or to τ·max|Aᵢⱼ| for floats).
pub(super) fn symmetric<T: Field>(a: &[T], n: usize) -> Result<(), LcpError> {
    let scale = max_abs(a.iter()).to_f64();
    let tol = T::tolerance(relative_tolerance::<T>(), scale);
    for i in 0..n {
        for j in i + 1..n {
            let diff = a[i * n + j].sub(&a[j * n + i]).abs();
            if diff > tol {
                return Err(LcpError::InvalidProblem {
                    reason: format!(
                        "A is not symmetric: A[{i}][{j}] = {} but A[{j}][{i}] = {}",
                        a[i * n + j],
                        a[j * n + i]
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The principal block of A on `idx` must be positive definite: Gaussian elimination without
/// pivoting has only positive pivots (Sylvester's criterion for a symmetric matrix).
pub(super) fn positive_definite_block<T: Field>(a: &[T], n: usize, idx: &[usize]) -> Result<(), LcpError> {
    let k = idx.len();
    if k == 0 {
        return Ok(());
    }
    let mut w: Vec<T> = Vec::with_capacity(k * k);
    for &i in idx {
        for &j in idx {
            w.push(a[i * n + j].clone());
        }
    }
    let scale = max_abs(w.iter()).to_f64();
    let tol = T::tolerance(relative_tolerance::<T>(), scale);
    for col in 0..k {
        let pivot = w[col * k + col].clone();
        if pivot <= tol {
            return Err(LcpError::InvalidProblem {
                reason: format!(
                    "the block A_uu of the free variables {idx:?} is not positive definite \
                     (pivot {col} of its elimination is {pivot}); free variables need a strictly \
                     convex objective in them — split them as x = x⁺ − x⁻ otherwise"
                ),
            });
        }
        let inv = pivot.recip();
        for row in col + 1..k {
            let factor = w[row * k + col].mul(&inv);
            if factor.is_zero() {
                continue;
            }
            for j in col..k {
                let (upper, lower) = w.split_at_mut(row * k);
                lower[j].sub_mul_assign(&factor, &upper[col * k + j]);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_num::Rational;

    #[test]
    fn roundoff_of_scalars() {
        assert_eq!(unit_roundoff::<f64>(), f64::EPSILON);
        assert_eq!(unit_roundoff::<f32>(), f32::EPSILON as f64);
        assert_eq!(unit_roundoff::<Rational>(), 0.0);
        assert_eq!(relative_tolerance::<f64>(), 1e-12);
    }

    #[test]
    fn positive_definite_blocks() {
        let r = |v: i64| Rational::from_integer(v);
        // [[2, 1, 0], [1, 2, 0], [0, 0, 0]]
        let a = vec![r(2), r(1), r(0), r(1), r(2), r(0), r(0), r(0), r(0)];
        assert!(positive_definite_block(&a, 3, &[0, 1]).is_ok());
        assert!(positive_definite_block(&a, 3, &[2]).is_err());
        assert!(positive_definite_block(&a, 3, &[0, 2]).is_err());
        // [[1, 2], [2, 1]] is indefinite although its diagonal is positive.
        let b = vec![1.0, 2.0, 2.0, 1.0];
        assert!(positive_definite_block(&b, 2, &[0]).is_ok());
        assert!(positive_definite_block(&b, 2, &[0, 1]).is_err());
    }
}
