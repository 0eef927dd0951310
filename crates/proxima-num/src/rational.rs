//! Exact arbitrary-precision rationals.
//!
//! # The mathematics
//!
//! A rational p/q is kept in lowest terms with q > 0 (num-rational's `BigRational`), so
//! equality is structural and every field operation is exact. Every finite `f64` is a dyadic
//! rational m·2ᵉ and converts *exactly* ([`Rational::from_f64_exact`]); decimal text such as
//! `"0.1"` parses to exactly 1/10 ([`Rational::parse`]), which is *not* the `f64` 0.1.
//!
//! # Edge cases
//!
//! * NaN and ±∞ have no rational value: conversion returns `None`.
//! * Division by zero panics (a caller bug; pivoting code tests for zero first).
//! * [`Rational::to_f64`] rounds to nearest; values beyond `f64::MAX` give ±∞.

use core::cmp::Ordering;
use core::fmt;
use core::ops::{Add, Div, Mul, Neg, Sub};
use core::str::FromStr;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::field::Field;

/// An exact rational number of unbounded size.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Rational(BigRational);

/// Why a string is not a rational number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseRationalError {
    input: String,
    reason: &'static str,
}

impl fmt::Display for ParseRationalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a rational number {:?}: {}", self.input, self.reason)
    }
}

impl std::error::Error for ParseRationalError {}

impl Rational {
    /// `numer / denom`; panics if `denom == 0`.
    pub fn new(numer: i64, denom: i64) -> Self {
        assert!(denom != 0, "Rational::new with zero denominator");
        Rational(BigRational::new(BigInt::from(numer), BigInt::from(denom)))
    }

    /// An integer.
    pub fn from_integer(value: i64) -> Self {
        Rational(BigRational::from_integer(BigInt::from(value)))
    }

    /// From big-integer numerator and denominator; `None` if `denom == 0`.
    pub fn from_bigints(numer: BigInt, denom: BigInt) -> Option<Self> {
        (!denom.is_zero()).then(|| Rational(BigRational::new(numer, denom)))
    }

    /// The exact value of a finite `f64`; `None` for NaN and ±∞.
    pub fn from_f64_exact(value: f64) -> Option<Self> {
        BigRational::from_float(value).map(Rational)
    }

    /// Parses an integer (`"-3"`), a fraction (`"11/30"`), or a decimal with optional exponent
    /// (`"0.1"`, `"-2.5e-3"`, `".5"`, `"1E6"`) — all exactly.
    pub fn parse(text: &str) -> Result<Self, ParseRationalError> {
        let err = |reason| ParseRationalError { input: text.to_string(), reason };
        let s = text.trim();
        if s.is_empty() {
            return Err(err("empty"));
        }
        if let Some((num, den)) = s.split_once('/') {
            let n = parse_decimal(num.trim()).ok_or_else(|| err("bad numerator"))?;
            let d = parse_decimal(den.trim()).ok_or_else(|| err("bad denominator"))?;
            if d.is_zero() {
                return Err(err("zero denominator"));
            }
            return Ok(Rational(n / d));
        }
        parse_decimal(s).map(Rational).ok_or_else(|| err("expected an integer, a decimal or p/q"))
    }

    /// The numerator (lowest terms; carries the sign).
    pub fn numer(&self) -> &BigInt {
        self.0.numer()
    }
    /// The denominator (lowest terms; always positive).
    pub fn denom(&self) -> &BigInt {
        self.0.denom()
    }
    /// `true` when the denominator is 1.
    pub fn is_integer(&self) -> bool {
        self.0.is_integer()
    }
    /// The nearest `f64` (±∞ beyond the range).
    pub fn to_f64(&self) -> f64 {
        self.0
            .to_f64()
            .unwrap_or_else(|| if self.0.is_negative() { f64::NEG_INFINITY } else { f64::INFINITY })
    }
    /// The underlying `num_rational::BigRational`.
    pub fn as_big_rational(&self) -> &BigRational {
        &self.0
    }
    /// Wraps a `num_rational::BigRational`.
    pub fn from_big_rational(value: BigRational) -> Self {
        Rational(value)
    }
    /// Total bits of numerator and denominator: a measure of the cost of arithmetic.
    pub fn bits(&self) -> u64 {
        self.0.numer().bits() + self.0.denom().bits()
    }

    /// The exact non-negative square root when `self` is the square of a rational, else `None`.
    ///
    /// In lowest terms p/q (q > 0, gcd(p, q) = 1), p/q is a rational square exactly when p ≥ 0
    /// and both p and q are perfect squares of integers, so the test is two integer square roots.
    /// `sqrt_exact(0) == Some(0)`; negative values give `None`.
    pub fn sqrt_exact(&self) -> Option<Rational> {
        let numer = self.0.numer();
        if numer.is_negative() {
            return None;
        }
        let root_n = numer.sqrt();
        if &(&root_n * &root_n) != numer {
            return None;
        }
        let denom = self.0.denom();
        let root_d = denom.sqrt();
        if &(&root_d * &root_d) != denom {
            return None;
        }
        Some(Rational(BigRational::new_raw(root_n, root_d)))
    }

    /// `true` when `self = r²` for some rational r (including 0); see [`Rational::sqrt_exact`].
    pub fn is_perfect_square(&self) -> bool {
        self.sqrt_exact().is_some()
    }
}

/// Parses `[+-]digits[.digits][e[+-]digits]` exactly.
fn parse_decimal(s: &str) -> Option<BigRational> {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(pos) => (&s[..pos], s[pos + 1..].parse::<i64>().ok()?),
        None => (s, 0),
    };
    let (negative, digits) = match mantissa.as_bytes().first()? {
        b'-' => (true, &mantissa[1..]),
        b'+' => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    let (int_part, frac_part) = digits.split_once('.').unwrap_or((digits, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    if !int_part.bytes().chain(frac_part.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    if exponent.unsigned_abs() > 100_000 {
        return None;
    }
    let all_digits = format!("{int_part}{frac_part}");
    let mut numer: BigInt = all_digits.parse().ok()?;
    if negative {
        numer = -numer;
    }
    let scale = exponent - frac_part.len() as i64;
    let ten = BigInt::from(10u32);
    let value = if scale >= 0 {
        BigRational::from_integer(numer * num_traits::pow(ten, scale as usize))
    } else {
        BigRational::new(numer, num_traits::pow(ten, (-scale) as usize))
    };
    Some(value)
}

impl FromStr for Rational {
    type Err = ParseRationalError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rational::parse(s)
    }
}

impl fmt::Display for Rational {
    /// `"3"` for integers, `"-11/30"` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_integer() {
            write!(f, "{}", self.0.numer())
        } else {
            write!(f, "{}/{}", self.0.numer(), self.0.denom())
        }
    }
}

impl fmt::Debug for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl From<i64> for Rational {
    fn from(value: i64) -> Self {
        Rational::from_integer(value)
    }
}

impl From<i32> for Rational {
    fn from(value: i32) -> Self {
        Rational::from_integer(value.into())
    }
}

macro_rules! forward_binop {
    ($tr:ident, $method:ident) => {
        impl $tr<&Rational> for &Rational {
            type Output = Rational;
            fn $method(self, rhs: &Rational) -> Rational {
                Rational((&self.0).$method(&rhs.0))
            }
        }
        impl $tr<Rational> for Rational {
            type Output = Rational;
            fn $method(self, rhs: Rational) -> Rational {
                Rational(self.0.$method(rhs.0))
            }
        }
        impl $tr<&Rational> for Rational {
            type Output = Rational;
            fn $method(self, rhs: &Rational) -> Rational {
                Rational(self.0.$method(&rhs.0))
            }
        }
        impl $tr<Rational> for &Rational {
            type Output = Rational;
            fn $method(self, rhs: Rational) -> Rational {
                Rational((&self.0).$method(rhs.0))
            }
        }
    };
}

forward_binop!(Add, add);
forward_binop!(Sub, sub);
forward_binop!(Mul, mul);
forward_binop!(Div, div);

impl Neg for Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        Rational(-self.0)
    }
}

impl Neg for &Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        Rational(-&self.0)
    }
}

impl Field for Rational {
    const EXACT: bool = true;
    const NAME: &'static str = "rational";

    fn zero() -> Self {
        Rational(BigRational::zero())
    }
    fn one() -> Self {
        Rational(BigRational::one())
    }
    fn from_i64(value: i64) -> Self {
        Rational::from_integer(value)
    }
    fn from_f64(value: f64) -> Option<Self> {
        Rational::from_f64_exact(value)
    }
    fn to_f64(&self) -> f64 {
        Rational::to_f64(self)
    }
    fn add(&self, rhs: &Self) -> Self {
        self + rhs
    }
    fn sub(&self, rhs: &Self) -> Self {
        self - rhs
    }
    fn mul(&self, rhs: &Self) -> Self {
        self * rhs
    }
    fn div(&self, rhs: &Self) -> Self {
        assert!(!rhs.0.is_zero(), "Rational division by zero");
        self / rhs
    }
    fn neg(&self) -> Self {
        -self
    }
    fn add_assign(&mut self, rhs: &Self) {
        self.0 += &rhs.0;
    }
    fn sub_assign(&mut self, rhs: &Self) {
        self.0 -= &rhs.0;
    }
    fn mul_assign(&mut self, rhs: &Self) {
        self.0 *= &rhs.0;
    }
    fn sub_mul_assign(&mut self, a: &Self, b: &Self) {
        if a.0.is_zero() || b.0.is_zero() {
            return;
        }
        self.0 -= &a.0 * &b.0;
    }
    fn add_mul_assign(&mut self, a: &Self, b: &Self) {
        if a.0.is_zero() || b.0.is_zero() {
            return;
        }
        self.0 += &a.0 * &b.0;
    }
    fn signum_ordering(&self) -> Ordering {
        if self.0.is_positive() {
            Ordering::Greater
        } else if self.0.is_negative() {
            Ordering::Less
        } else {
            Ordering::Equal
        }
    }
    fn is_zero(&self) -> bool {
        self.0.is_zero()
    }
    fn abs(&self) -> Self {
        Rational(self.0.abs())
    }
    fn cmp_total(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_exactly() {
        assert_eq!(Rational::parse("0.1").unwrap(), Rational::new(1, 10));
        assert_eq!(Rational::parse("11/30").unwrap(), Rational::new(11, 30));
        assert_eq!(Rational::parse("-2.5e-3").unwrap(), Rational::new(-1, 400));
        assert_eq!(Rational::parse(" 7 ").unwrap(), Rational::from_integer(7));
        assert_eq!(Rational::parse(".5").unwrap(), Rational::new(1, 2));
        assert_eq!(Rational::parse("1E3").unwrap(), Rational::from_integer(1000));
        assert_eq!(Rational::parse("1.5/0.5").unwrap(), Rational::from_integer(3));
        for bad in ["", "abc", "1/0", "1.2.3", "e5", "--1", "1/", "0x10", "nan", "inf", "1e999999"] {
            assert!(Rational::parse(bad).is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn f64_conversion_is_exact() {
        let r = Rational::from_f64_exact(0.1).unwrap();
        assert_ne!(r, Rational::new(1, 10));
        assert_eq!(r.denom(), &BigInt::from(1u64 << 55));
        assert_eq!(r.to_f64(), 0.1);
        assert!(Rational::from_f64_exact(f64::NAN).is_none());
        assert!(Rational::from_f64_exact(f64::INFINITY).is_none());
        assert_eq!(
            Rational::from_f64_exact(f64::MIN_POSITIVE / 4.0).unwrap().to_f64(),
            f64::MIN_POSITIVE / 4.0
        );
    }

    #[test]
    fn exact_square_roots() {
        assert_eq!(Rational::new(9, 4).sqrt_exact(), Some(Rational::new(3, 2)));
        assert_eq!(Rational::from_integer(0).sqrt_exact(), Some(Rational::from_integer(0)));
        assert_eq!(Rational::new(-9, 4).sqrt_exact(), None);
        assert_eq!(Rational::from_integer(2).sqrt_exact(), None);
        assert_eq!(Rational::new(4, 3).sqrt_exact(), None);
        assert!(Rational::new(49, 25).is_perfect_square());
        assert!(!Rational::new(7, 5).is_perfect_square());
    }

    #[test]
    fn displays_as_fraction() {
        assert_eq!(Rational::new(22, 60).to_string(), "11/30");
        assert_eq!(Rational::new(-4, 2).to_string(), "-2");
    }
}
