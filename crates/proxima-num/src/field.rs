//! The [`Field`] trait: the one scalar abstraction every pivoting algorithm is written against.
//!
//! # The mathematics
//!
//! Pivoting methods (Lemke, simplex, enumeration of complementary bases) only ever add,
//! subtract, multiply, divide and compare. Any *ordered field* therefore works: IEEE floats
//! (an approximation of ℝ), the rationals ℚ (exact), and the real quadratic field
//! ℚ(√d) = { x + y√d : x, y ∈ ℚ } for a fixed non-square rational d > 0 (exact, and closed
//! under the operations a normalized vector needs).
//!
//! # Exact versus approximate
//!
//! [`Field::EXACT`] tells generic code whether comparisons are exact. Algorithms use
//! [`Field::tolerance`] to turn a *relative* tolerance (an `f64` chosen by the user) into a
//! threshold in the scalar type: for exact fields it is always zero, so the same generic code
//! makes exact decisions in `Rational` and tolerant ones in `f64`.
//!
//! # Edge cases
//!
//! * Division by zero is a caller bug: float types return ±∞/NaN as IEEE does, exact types
//!   panic. Pivoting code never divides by a value it has not compared with zero first.
//! * [`Field::from_f64`] returns `None` for NaN and ±∞; exact types convert every finite
//!   `f64` *exactly* (0.1 becomes 3602879701896397/36028797018963968, not 1/10).

use core::cmp::Ordering;
use core::fmt::{Debug, Display};

/// An ordered field with the operations pivoting algorithms need.
///
/// All arithmetic goes through `&self` methods so exact (heap-backed) types never clone
/// needlessly; the in-place kernel [`Field::sub_mul_assign`] is the inner loop of every pivot.
pub trait Field: Clone + Debug + Display + PartialEq + PartialOrd + Send + Sync + 'static {
    /// `true` when arithmetic and comparison are exact (no rounding).
    const EXACT: bool;

    /// A short name for reports (`"f64"`, `"rational"`, ...).
    const NAME: &'static str;

    /// The additive identity.
    fn zero() -> Self;
    /// The multiplicative identity.
    fn one() -> Self;
    /// Converts a small integer exactly.
    fn from_i64(value: i64) -> Self;
    /// Converts a finite `f64` (exactly for exact fields, by rounding for `f32`);
    /// `None` for NaN or ±∞.
    fn from_f64(value: f64) -> Option<Self>;
    /// The nearest `f64` (rounded for exact types; may be ±∞ when out of range).
    fn to_f64(&self) -> f64;

    /// `self + rhs`.
    fn add(&self, rhs: &Self) -> Self;
    /// `self - rhs`.
    fn sub(&self, rhs: &Self) -> Self;
    /// `self * rhs`.
    fn mul(&self, rhs: &Self) -> Self;
    /// `self / rhs`; `rhs` must be non-zero for exact types (panics otherwise).
    fn div(&self, rhs: &Self) -> Self;
    /// `-self`.
    fn neg(&self) -> Self;
    /// `1 / self`; `self` must be non-zero for exact types (panics otherwise).
    fn recip(&self) -> Self {
        Self::one().div(self)
    }

    /// `self += rhs`.
    fn add_assign(&mut self, rhs: &Self) {
        *self = Field::add(self, rhs);
    }
    /// `self -= rhs`.
    fn sub_assign(&mut self, rhs: &Self) {
        *self = Field::sub(self, rhs);
    }
    /// `self *= rhs`.
    fn mul_assign(&mut self, rhs: &Self) {
        *self = Field::mul(self, rhs);
    }
    /// `self -= a * b`: the pivot kernel.
    fn sub_mul_assign(&mut self, a: &Self, b: &Self) {
        let product = a.mul(b);
        self.sub_assign(&product);
    }
    /// `self += a * b`.
    fn add_mul_assign(&mut self, a: &Self, b: &Self) {
        let product = a.mul(b);
        self.add_assign(&product);
    }

    /// The sign of `self`: `Less` (negative), `Equal` (zero) or `Greater` (positive).
    /// NaN compares as `Equal` (callers validate inputs so NaN never reaches pivoting).
    fn signum_ordering(&self) -> Ordering;
    /// `true` when `self == 0` exactly.
    fn is_zero(&self) -> bool {
        self.signum_ordering() == Ordering::Equal
    }
    /// `true` when `self > 0` exactly.
    fn is_positive(&self) -> bool {
        self.signum_ordering() == Ordering::Greater
    }
    /// `true` when `self < 0` exactly.
    fn is_negative(&self) -> bool {
        self.signum_ordering() == Ordering::Less
    }
    /// `|self|`.
    fn abs(&self) -> Self {
        if self.is_negative() { self.neg() } else { self.clone() }
    }
    /// Total comparison (NaN-free inputs assumed; NaN compares as equal).
    fn cmp_total(&self, other: &Self) -> Ordering {
        self.partial_cmp(other).unwrap_or(Ordering::Equal)
    }
    /// `true` for every value of an exact type and for finite floats.
    fn is_finite(&self) -> bool {
        true
    }

    /// A threshold in this type for a relative tolerance `relative` at magnitude `scale`:
    /// `relative * scale` for floats, exactly zero for exact types.
    fn tolerance(relative: f64, scale: f64) -> Self {
        if Self::EXACT { Self::zero() } else { Self::from_f64(relative * scale).unwrap_or_else(Self::zero) }
    }
}

macro_rules! impl_field_for_float {
    ($t:ty, $name:literal) => {
        impl Field for $t {
            const EXACT: bool = false;
            const NAME: &'static str = $name;

            #[inline]
            fn zero() -> Self {
                0.0
            }
            #[inline]
            fn one() -> Self {
                1.0
            }
            #[inline]
            fn from_i64(value: i64) -> Self {
                value as $t
            }
            #[inline]
            fn from_f64(value: f64) -> Option<Self> {
                value.is_finite().then_some(value as $t)
            }
            #[inline]
            fn to_f64(&self) -> f64 {
                *self as f64
            }
            #[inline]
            fn add(&self, rhs: &Self) -> Self {
                self + rhs
            }
            #[inline]
            fn sub(&self, rhs: &Self) -> Self {
                self - rhs
            }
            #[inline]
            fn mul(&self, rhs: &Self) -> Self {
                self * rhs
            }
            #[inline]
            fn div(&self, rhs: &Self) -> Self {
                self / rhs
            }
            #[inline]
            fn neg(&self) -> Self {
                -self
            }
            #[inline]
            fn recip(&self) -> Self {
                1.0 / self
            }
            #[inline]
            fn add_assign(&mut self, rhs: &Self) {
                *self += rhs;
            }
            #[inline]
            fn sub_assign(&mut self, rhs: &Self) {
                *self -= rhs;
            }
            #[inline]
            fn mul_assign(&mut self, rhs: &Self) {
                *self *= rhs;
            }
            #[inline]
            fn sub_mul_assign(&mut self, a: &Self, b: &Self) {
                *self -= a * b;
            }
            #[inline]
            fn add_mul_assign(&mut self, a: &Self, b: &Self) {
                *self += a * b;
            }
            #[inline]
            fn signum_ordering(&self) -> Ordering {
                if *self > 0.0 {
                    Ordering::Greater
                } else if *self < 0.0 {
                    Ordering::Less
                } else {
                    Ordering::Equal
                }
            }
            #[inline]
            fn abs(&self) -> Self {
                <$t>::abs(*self)
            }
            #[inline]
            fn is_finite(&self) -> bool {
                <$t>::is_finite(*self)
            }
        }
    };
}

impl_field_for_float!(f64, "f64");
impl_field_for_float!(f32, "f32");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_conversions_reject_non_finite() {
        assert_eq!(<f64 as Field>::from_f64(f64::NAN), None);
        assert_eq!(<f64 as Field>::from_f64(f64::INFINITY), None);
        assert_eq!(<f32 as Field>::from_f64(-f64::INFINITY), None);
        assert_eq!(<f64 as Field>::from_f64(0.5), Some(0.5));
    }

    #[test]
    fn float_tolerance_scales_and_exact_is_zero() {
        assert_eq!(<f64 as Field>::tolerance(1e-12, 100.0), 1e-10);
        assert!(<f64 as Field>::is_negative(&-1.0));
        let mut x = 1.0f64;
        x.sub_mul_assign(&2.0, &3.0);
        assert_eq!(x, -5.0);
    }
}
