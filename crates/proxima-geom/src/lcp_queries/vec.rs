//! Small vector helpers over any [`Field`] (arrays and slices), used by the LCP kernels.
//!
//! All operations are the obvious component-wise formulas; for exact fields they are exact.
//! Sums are accumulated left to right so that, for floats, `dot(a, b)` and `dot(b, a)` give
//! bit-identical results (the Gram matrices built from them are exactly symmetric).

use proxima_num::Field;

/// a · b (slices of equal length; extra entries of the longer one are ignored).
pub fn dot<T: Field>(a: &[T], b: &[T]) -> T {
    let mut s = T::zero();
    for (x, y) in a.iter().zip(b) {
        s.add_mul_assign(x, y);
    }
    s
}

/// a − b.
pub fn sub<T: Field, const N: usize>(a: &[T; N], b: &[T; N]) -> [T; N] {
    core::array::from_fn(|i| a[i].sub(&b[i]))
}

/// a + b.
pub fn add<T: Field, const N: usize>(a: &[T; N], b: &[T; N]) -> [T; N] {
    core::array::from_fn(|i| a[i].add(&b[i]))
}

/// s · a.
pub fn scale<T: Field, const N: usize>(s: &T, a: &[T; N]) -> [T; N] {
    core::array::from_fn(|i| s.mul(&a[i]))
}

/// |a|².
pub fn norm_squared<T: Field>(a: &[T]) -> T {
    dot(a, a)
}

/// a × b (3D).
pub fn cross<T: Field>(a: &[T; 3], b: &[T; 3]) -> [T; 3] {
    [
        a[1].mul(&b[2]).sub(&a[2].mul(&b[1])),
        a[2].mul(&b[0]).sub(&a[0].mul(&b[2])),
        a[0].mul(&b[1]).sub(&a[1].mul(&b[0])),
    ]
}

/// Converts an `f64` array exactly into T (`None` when a value is not finite).
pub fn convert<T: Field, const N: usize>(a: &[f64; N]) -> Option<[T; N]> {
    let mut out: [T; N] = core::array::from_fn(|_| T::zero());
    for (o, v) in out.iter_mut().zip(a) {
        *o = T::from_f64(*v)?;
    }
    Some(out)
}

/// Rounds an array of T to `f64`.
pub fn to_f64<T: Field, const N: usize>(a: &[T; N]) -> [f64; N] {
    core::array::from_fn(|i| a[i].to_f64())
}

/// `true` when every entry is finite (always for exact fields).
pub fn all_finite<T: Field>(a: &[T]) -> bool {
    a.iter().all(Field::is_finite)
}
