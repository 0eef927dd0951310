//! The real quadratic field ℚ(√d): exact numbers `x + y·√d` with rational x, y.
//!
//! # The mathematics
//!
//! Fix a rational d > 0 that is not the square of a rational (the *radicand*). Then √d is
//! irrational and ℚ(√d) = { x + y√d : x, y ∈ ℚ } is an ordered field:
//!
//! * (x₁ + y₁√d) ± (x₂ + y₂√d) = (x₁ ± x₂) + (y₁ ± y₂)√d
//! * (x₁ + y₁√d)(x₂ + y₂√d) = (x₁x₂ + y₁y₂d) + (x₁y₂ + x₂y₁)√d
//! * 1 / (x + y√d) = (x − y√d) / N with the *norm* N = x² − d·y², which is non-zero for every
//!   non-zero element because d is not a square (x² = d·y² with y ≠ 0 would make d = (x/y)²).
//! * The representation is unique: x₁ + y₁√d = x₂ + y₂√d ⇔ x₁ = x₂ and y₁ = y₂, so equality
//!   is structural.
//! * **Exact sign.** If x and y have the same sign (or one is zero) the sign of x + y√d is that
//!   common sign. Otherwise the term of larger magnitude wins: compare x² with d·y² (never equal)
//!   and take the sign of x when x² > d·y², else the sign of y. Ordering is the sign of the
//!   difference. No rounding is involved anywhere.
//!
//! # Why Proxima needs it
//!
//! A query whose input contains a normalized direction U = V/|V| (e.g. a cylinder axis, see
//! *Dealing with Vector Normalization* in the convex-QP reference, §4.5) would need the
//! irrational |V| = √(|V|²). With d = |V|² (rational when V is), U has the exact components
//! `(vᵢ/d)·√d` ([`QuadraticField::normalized`]), and the whole LCP runs exactly in ℚ(√d): the
//! triangle–cylinder example returns exactly `11/30`, or `1 - (1/7)·√14`.
//!
//! # One radicand per computation
//!
//! d is part of the *computation*, not of the type: every element stores it (shared through an
//! `Arc`, so cloning an element clones two rationals and bumps a reference count). Elements with
//! y = 0 are plain rationals — they store **no** d ([`QuadraticField::d`] is `None`) and combine
//! with elements of *any* radicand. This is what [`Field::zero`], [`Field::one`],
//! [`Field::from_i64`] and [`Field::from_f64`] produce, and also what any operation produces when
//! its result has y = 0 (the radicand is dropped: `(1+√2)(−1+√2)` is the plain rational 1).
//!
//! **Combining two elements with y ≠ 0 and different radicands is a caller bug and panics** —
//! this applies to arithmetic *and* to comparison (`==`, `<`, `cmp`), since neither can be
//! answered in ℚ(√d). Radicands are compared by value, so two separately validated copies of the
//! same d mix freely; d = 8 and d = 2 are *different* radicands even though ℚ(√8) = ℚ(√2).
//!
//! # Edge cases
//!
//! * [`QuadraticField::new`] and [`Radicand::new`] reject d ≤ 0 and perfect squares
//!   ([`QuadraticFieldError`]); use [`QuadraticField::sqrt_of`] when d may be a square — it then
//!   returns the exact rational root.
//! * Division by zero (and [`Field::recip`] of zero) panics, as for [`Rational`].
//! * [`QuadraticField::to_f64`] is correctly rounded (round to nearest, ties to even; ±∞ beyond
//!   the `f64` range): see its documentation.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Add, Div, Mul, Neg, Sub};
use std::sync::Arc;

use num_bigint::BigInt;

use crate::field::Field;
use crate::rational::Rational;

/// Why a radicand, a square root or a normalization is not available in ℚ(√d).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum QuadraticFieldError {
    /// The radicand is negative: √d is not real.
    NegativeRadicand(Rational),
    /// The radicand is zero ([`QuadraticField::new`], [`Radicand::new`]) or the square root
    /// is needed as a divisor ([`QuadraticField::inv_sqrt_of`]).
    ZeroRadicand,
    /// The radicand is the square of a rational, so √d is rational and spans no new field;
    /// `root` is the exact non-negative square root (use [`QuadraticField::sqrt_of`]).
    PerfectSquareRadicand {
        /// The rejected radicand.
        d: Box<Rational>,
        /// Its exact square root.
        root: Box<Rational>,
    },
    /// [`QuadraticField::normalized`] was given a vector of length zero (or no components).
    ZeroVector,
}

impl fmt::Display for QuadraticFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuadraticFieldError::NegativeRadicand(d) => {
                write!(f, "negative radicand {d}: sqrt({d}) is not real")
            }
            QuadraticFieldError::ZeroRadicand => write!(f, "radicand must be positive, got 0"),
            QuadraticFieldError::PerfectSquareRadicand { d, root } => write!(
                f,
                "radicand {d} is a perfect square ({root}^2): sqrt({d}) is rational, \
                 use QuadraticField::sqrt_of"
            ),
            QuadraticFieldError::ZeroVector => write!(f, "cannot normalize a zero-length vector"),
        }
    }
}

impl std::error::Error for QuadraticFieldError {}

/// A validated radicand d (rational, d > 0, not a perfect square), cheap to clone (an `Arc`).
///
/// Validate d once, then build many elements of ℚ(√d) with [`Radicand::element`] without
/// re-testing d for squareness.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Radicand(Arc<Rational>);

impl Radicand {
    /// Validates d: positive and not the square of a rational.
    pub fn new(d: Rational) -> Result<Self, QuadraticFieldError> {
        match d.signum_ordering() {
            Ordering::Less => return Err(QuadraticFieldError::NegativeRadicand(d)),
            Ordering::Equal => return Err(QuadraticFieldError::ZeroRadicand),
            Ordering::Greater => {}
        }
        if let Some(root) = d.sqrt_exact() {
            return Err(QuadraticFieldError::PerfectSquareRadicand { d: Box::new(d), root: Box::new(root) });
        }
        Ok(Radicand(Arc::new(d)))
    }

    /// The value d.
    pub fn value(&self) -> &Rational {
        &self.0
    }

    /// The element `x + y·√d` (a plain rational, with no radicand, when y = 0).
    pub fn element(&self, x: Rational, y: Rational) -> QuadraticField {
        QuadraticField::from_parts(x, y, Some(self.0.clone()))
    }

    /// The element `√d` = 0 + 1·√d.
    pub fn sqrt(&self) -> QuadraticField {
        self.element(Rational::zero(), Rational::one())
    }
}

impl fmt::Debug for Radicand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Radicand({})", self.0)
    }
}

impl fmt::Display for Radicand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

/// An exact element `x + y·√d` of the real quadratic field ℚ(√d).
///
/// d is a rational > 0 that is not a rational square, so the representation is unique and
/// every operation is exact: products use (x₁x₂ + y₁y₂d) + (x₁y₂ + x₂y₁)√d, quotients multiply
/// by the conjugate and divide by the norm x² − d·y² (non-zero for non-zero elements). The sign
/// is exact: with x, y of opposite signs, compare x² with d·y²; ordering is the sign of the
/// difference.
///
/// # The radicand rule
///
/// * The radicand is stored exactly when y ≠ 0. Plain rationals (y = 0 — from
///   [`Field::zero`], [`Field::one`], [`Field::from_i64`], [`Field::from_f64`],
///   [`QuadraticField::from_rational`], or any result whose y cancels) carry none and combine
///   with elements of every radicand.
/// * **Combining (arithmetic or comparison) two elements with y ≠ 0 and different radicands is
///   a caller bug and panics.** Radicands are compared by value (d = 8 and d = 2 differ).
/// * Division by zero panics. [`QuadraticField::to_f64`] is correctly rounded.
///
/// ```
/// use proxima_num::{Field, QuadraticField, Rational};
/// let d = Rational::from_integer(2);
/// let a = QuadraticField::new(Rational::from_integer(1), Rational::from_integer(1), d.clone())?;
/// let b = QuadraticField::new(Rational::from_integer(-1), Rational::from_integer(1), d)?;
/// assert_eq!(&a * &b, QuadraticField::one()); // (1+√2)(−1+√2) = 1
/// assert_eq!(a.to_string(), "1 + sqrt(2)");
/// # Ok::<(), proxima_num::QuadraticFieldError>(())
/// ```
#[derive(Clone)]
pub struct QuadraticField {
    x: Rational,
    y: Rational,
    /// `Some` exactly when `y != 0`.
    d: Option<Arc<Rational>>,
}

impl QuadraticField {
    /// `x + y·√d`, validating d (positive, not a perfect square) even when y = 0.
    pub fn new(x: Rational, y: Rational, d: Rational) -> Result<Self, QuadraticFieldError> {
        Ok(Radicand::new(d)?.element(x, y))
    }

    /// The plain rational `x` (no radicand: combines with every d).
    pub fn from_rational(x: Rational) -> Self {
        QuadraticField { x, y: Rational::zero(), d: None }
    }

    /// The exact `√d` for any rational d ≥ 0: a plain rational when d is a perfect square
    /// (`sqrt_of(9/4) = 3/2`, `sqrt_of(0) = 0`), else the element 0 + 1·√d.
    pub fn sqrt_of(d: Rational) -> Result<Self, QuadraticFieldError> {
        if d.is_negative() {
            return Err(QuadraticFieldError::NegativeRadicand(d));
        }
        match d.sqrt_exact() {
            Some(root) => Ok(QuadraticField::from_rational(root)),
            None => Ok(Radicand(Arc::new(d)).sqrt()),
        }
    }

    /// The exact `1/√d` for a rational d > 0: `1/r` when d = r², else (1/d)·√d.
    pub fn inv_sqrt_of(d: Rational) -> Result<Self, QuadraticFieldError> {
        match d.signum_ordering() {
            Ordering::Less => Err(QuadraticFieldError::NegativeRadicand(d)),
            Ordering::Equal => Err(QuadraticFieldError::ZeroRadicand),
            Ordering::Greater => match d.sqrt_exact() {
                Some(root) => Ok(QuadraticField::from_rational(Rational::one() / root)),
                None => {
                    let y = Rational::one() / &d;
                    Ok(Radicand(Arc::new(d)).element(Rational::zero(), y))
                }
            },
        }
    }

    /// The exact unit vector v/|v| of a non-zero rational vector.
    ///
    /// With s = |v|² (rational): when s = r² is a perfect square the components are the
    /// rationals vᵢ/r; otherwise they are (vᵢ/s)·√s, all sharing the radicand d = s.
    pub fn normalized(v: &[Rational]) -> Result<Vec<Self>, QuadraticFieldError> {
        let mut s = Rational::zero();
        for vi in v {
            s.add_mul_assign(vi, vi);
        }
        if s.is_zero() {
            return Err(QuadraticFieldError::ZeroVector);
        }
        if let Some(root) = s.sqrt_exact() {
            return Ok(v.iter().map(|vi| QuadraticField::from_rational(vi / &root)).collect());
        }
        let inv_s = Rational::one() / &s;
        let radicand = Radicand(Arc::new(s));
        Ok(v.iter().map(|vi| radicand.element(Rational::zero(), vi * &inv_s)).collect())
    }

    /// `x + y·√d` with the radicand of `self` (no re-validation). Panics when y ≠ 0 and `self`
    /// is a plain rational (it has no radicand to lend).
    #[track_caller]
    pub fn with_same_radicand(&self, x: Rational, y: Rational) -> Self {
        if !y.is_zero() && self.d.is_none() {
            panic!("QuadraticField::with_same_radicand: {self} is a plain rational and has no radicand");
        }
        QuadraticField::from_parts(x, y, self.d.clone())
    }

    /// Builds an element, restoring the invariant "radicand stored iff y ≠ 0".
    fn from_parts(x: Rational, y: Rational, d: Option<Arc<Rational>>) -> Self {
        let d = if y.is_zero() { None } else { d };
        debug_assert!(y.is_zero() || d.is_some(), "QuadraticField: y != 0 without a radicand");
        QuadraticField { x, y, d }
    }

    /// The rational part x.
    pub fn x(&self) -> &Rational {
        &self.x
    }

    /// The coefficient y of √d.
    pub fn y(&self) -> &Rational {
        &self.y
    }

    /// The radicand d, or `None` for a plain rational (y = 0).
    pub fn d(&self) -> Option<&Rational> {
        self.d.as_deref()
    }

    /// The validated radicand (cheap `Arc` clone), or `None` for a plain rational.
    pub fn radicand(&self) -> Option<Radicand> {
        self.d.clone().map(Radicand)
    }

    /// `true` when y = 0, i.e. the value is rational.
    pub fn is_rational(&self) -> bool {
        self.y.is_zero()
    }

    /// The rational value when y = 0.
    pub fn to_rational(&self) -> Option<Rational> {
        self.is_rational().then(|| self.x.clone())
    }

    /// The conjugate `x − y·√d`.
    pub fn conjugate(&self) -> Self {
        QuadraticField { x: self.x.clone(), y: -&self.y, d: self.d.clone() }
    }

    /// The norm `(x + y√d)(x − y√d) = x² − d·y²`: zero only for the zero element.
    pub fn norm(&self) -> Rational {
        let xx = &self.x * &self.x;
        match &self.d {
            None => xx,
            Some(d) => xx - &self.y * &self.y * &**d,
        }
    }

    /// The `f64` nearest to the exact value, correctly rounded (ties to even; ±∞ beyond the
    /// `f64` range, ±0 below it).
    ///
    /// Rational elements round through [`Rational::to_f64`]. Otherwise r = |y|·√d = √(y²d) is
    /// enclosed in a rational interval from an integer square root carrying p bits (p = 64
    /// first), and the value in an interval that suffers no cancellation: `x ± r` when x and
    /// y·√d have the same sign, otherwise the conjugate form `(x² − d·y²) / (x − y·√d)`, whose
    /// denominator adds magnitudes. Both interval ends are rounded; if they agree that is the
    /// answer, else p doubles. This terminates because x + y√d (y ≠ 0) is irrational, so it is
    /// never exactly a rounding boundary; one 64-bit step is almost always enough.
    pub fn to_f64(&self) -> f64 {
        let Some(d) = &self.d else {
            return self.x.to_f64();
        };
        let y_positive = self.y.is_positive();
        // r = |y|·√d = √(p/q) = √(p·q)/q with t = y²·d = p/q in lowest terms.
        let t = &self.y * &self.y * &**d;
        let m: BigInt = t.numer() * t.denom();
        let q = t.denom();
        let cancel = !self.x.is_zero() && self.x.is_positive() != y_positive;
        let norm = cancel.then(|| self.norm());
        let half_bits = (m.bits() / 2) as i64;
        let mut precision: i64 = 64;
        loop {
            // √m ∈ [s, s + 1)·2^(-shift) with s = ⌊√(m·4^shift)⌋ (shift may be negative).
            let shift = precision - half_bits;
            let s = if shift >= 0 {
                (&m << (2 * shift) as usize).sqrt()
            } else {
                (&m >> (-2 * shift) as usize).sqrt()
            };
            let s1: BigInt = &s + 1;
            let (lo, hi) = if shift >= 0 {
                let den: BigInt = q << shift as usize;
                (Rational::from_bigints(s, den.clone()), Rational::from_bigints(s1, den))
            } else {
                let up = (-shift) as usize;
                (Rational::from_bigints(s << up, q.clone()), Rational::from_bigints(s1 << up, q.clone()))
            };
            let (lo, hi) = (lo.expect("positive denominator"), hi.expect("positive denominator"));
            // x + sign(y)·r with r ∈ [lo, hi]; in the conjugate form the denominator is
            // x − sign(y)·r, which has the sign of x.
            let (a, b) =
                if y_positive { (&self.x + &lo, &self.x + &hi) } else { (&self.x - &hi, &self.x - &lo) };
            let (a, b) = match &norm {
                None => (a, b),
                Some(n) => {
                    let (d1, d2) = if y_positive {
                        (&self.x - &hi, &self.x - &lo)
                    } else {
                        (&self.x + &lo, &self.x + &hi)
                    };
                    (n / &d1, n / &d2)
                }
            };
            let (fa, fb) = (a.to_f64(), b.to_f64());
            if fa.to_bits() == fb.to_bits() {
                return fa;
            }
            precision *= 2;
        }
    }

    /// The radicand shared by `self` and `other`; panics when both have one and they differ.
    #[track_caller]
    #[inline]
    fn common_d<'a>(&'a self, other: &'a Self) -> Option<&'a Arc<Rational>> {
        match (&self.d, &other.d) {
            (Some(a), Some(b)) => {
                if !Arc::ptr_eq(a, b) && **a != **b {
                    mismatch(a, b);
                }
                Some(a)
            }
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        }
    }
}

#[cold]
#[track_caller]
fn mismatch(a: &Rational, b: &Rational) -> ! {
    panic!(
        "QuadraticField: mixing elements of Q(sqrt({a})) and Q(sqrt({b})); all irrational elements of one \
         computation must share the same radicand d"
    )
}

/// The exact sign of x + y·√d (d may only be `None` when y = 0).
fn sign_of(x: &Rational, y: &Rational, d: Option<&Rational>) -> Ordering {
    let sy = y.signum_ordering();
    let sx = x.signum_ordering();
    if sy == Ordering::Equal {
        return sx;
    }
    if sx == Ordering::Equal || sx == sy {
        return sy;
    }
    let d = d.expect("QuadraticField invariant: y != 0 implies a radicand");
    // Opposite signs: the larger of x² and d·y² (never equal, d is not a square) decides.
    if x * x > y * y * d { sx } else { sy }
}

impl PartialEq for QuadraticField {
    /// Equal real values: x and y both equal (√d is irrational). Panics on mismatched radicands.
    #[track_caller]
    fn eq(&self, other: &Self) -> bool {
        self.common_d(other);
        self.x == other.x && self.y == other.y
    }
}

impl Eq for QuadraticField {}

impl Hash for QuadraticField {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.x.hash(state);
        self.y.hash(state);
    }
}

impl PartialOrd for QuadraticField {
    #[track_caller]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for QuadraticField {
    /// The exact order of the real values. Panics on mismatched radicands.
    #[track_caller]
    fn cmp(&self, other: &Self) -> Ordering {
        let d = self.common_d(other);
        if self.y == other.y {
            return self.x.cmp(&other.x);
        }
        sign_of(&(&self.x - &other.x), &(&self.y - &other.y), d.map(|d| &**d))
    }
}

impl fmt::Display for QuadraticField {
    /// `"1/2 + 3/4*sqrt(2)"`, `"-1 - sqrt(7/5)"`, `"sqrt(3)"`, or just `"11/30"` when y = 0.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(d) = &self.d else {
            return write!(f, "{}", self.x);
        };
        let magnitude = self.y.abs();
        let root = if magnitude == Rational::one() {
            format!("sqrt({d})")
        } else {
            format!("{magnitude}*sqrt({d})")
        };
        match (self.x.is_zero(), self.y.is_negative()) {
            (true, false) => write!(f, "{root}"),
            (true, true) => write!(f, "-{root}"),
            (false, false) => write!(f, "{} + {root}", self.x),
            (false, true) => write!(f, "{} - {root}", self.x),
        }
    }
}

impl fmt::Debug for QuadraticField {
    /// The Display form; plain rationals show as `"11/30"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl From<Rational> for QuadraticField {
    fn from(x: Rational) -> Self {
        QuadraticField::from_rational(x)
    }
}

impl From<i64> for QuadraticField {
    fn from(value: i64) -> Self {
        QuadraticField::from_rational(Rational::from_integer(value))
    }
}

impl Field for QuadraticField {
    const EXACT: bool = true;
    const NAME: &'static str = "quadratic_field";

    fn zero() -> Self {
        QuadraticField::from_rational(Rational::zero())
    }
    fn one() -> Self {
        QuadraticField::from_rational(Rational::one())
    }
    fn from_i64(value: i64) -> Self {
        QuadraticField::from(value)
    }
    /// Exact (no radicand); `None` for NaN and ±∞.
    fn from_f64(value: f64) -> Option<Self> {
        Rational::from_f64_exact(value).map(QuadraticField::from_rational)
    }
    fn to_f64(&self) -> f64 {
        QuadraticField::to_f64(self)
    }

    #[track_caller]
    fn add(&self, rhs: &Self) -> Self {
        let d = self.common_d(rhs).cloned();
        QuadraticField::from_parts(&self.x + &rhs.x, &self.y + &rhs.y, d)
    }
    #[track_caller]
    fn sub(&self, rhs: &Self) -> Self {
        let d = self.common_d(rhs).cloned();
        QuadraticField::from_parts(&self.x - &rhs.x, &self.y - &rhs.y, d)
    }
    #[track_caller]
    fn mul(&self, rhs: &Self) -> Self {
        let d = self.common_d(rhs).cloned();
        let (x, y) = match &d {
            None => (&self.x * &rhs.x, Rational::zero()),
            Some(_) if self.y.is_zero() => (&self.x * &rhs.x, &self.x * &rhs.y),
            Some(_) if rhs.y.is_zero() => (&self.x * &rhs.x, &self.y * &rhs.x),
            Some(dv) => {
                let mut x = &self.x * &rhs.x;
                x.add_mul_assign(&(&self.y * &rhs.y), dv);
                let mut y = &self.x * &rhs.y;
                y.add_mul_assign(&self.y, &rhs.x);
                (x, y)
            }
        };
        QuadraticField::from_parts(x, y, d)
    }
    /// Panics when `rhs` is zero (or on mismatched radicands).
    #[track_caller]
    fn div(&self, rhs: &Self) -> Self {
        if rhs.is_zero() {
            panic!("QuadraticField division by zero");
        }
        let d = self.common_d(rhs).cloned();
        let (x, y) = match &d {
            None => (&self.x / &rhs.x, Rational::zero()),
            Some(_) if rhs.y.is_zero() => (&self.x / &rhs.x, &self.y / &rhs.x),
            Some(dv) => {
                // (a + b√d)/(c + e√d) = ((ac − bed) + (bc − ae)√d) / (c² − d e²)
                let mut norm = &rhs.x * &rhs.x;
                norm.sub_mul_assign(&(&rhs.y * &rhs.y), dv);
                let mut x = &self.x * &rhs.x;
                x.sub_mul_assign(&(&self.y * &rhs.y), dv);
                let mut y = &self.y * &rhs.x;
                y.sub_mul_assign(&self.x, &rhs.y);
                (x / &norm, y / &norm)
            }
        };
        QuadraticField::from_parts(x, y, d)
    }
    fn neg(&self) -> Self {
        QuadraticField { x: -&self.x, y: -&self.y, d: self.d.clone() }
    }

    #[track_caller]
    fn add_assign(&mut self, rhs: &Self) {
        let d = self.common_d(rhs).cloned();
        self.x.add_assign(&rhs.x);
        if !rhs.y.is_zero() {
            self.y.add_assign(&rhs.y);
            self.d = if self.y.is_zero() { None } else { d };
        }
    }
    #[track_caller]
    fn sub_assign(&mut self, rhs: &Self) {
        let d = self.common_d(rhs).cloned();
        self.x.sub_assign(&rhs.x);
        if !rhs.y.is_zero() {
            self.y.sub_assign(&rhs.y);
            self.d = if self.y.is_zero() { None } else { d };
        }
    }
    #[track_caller]
    fn sub_mul_assign(&mut self, a: &Self, b: &Self) {
        if a.is_zero() || b.is_zero() {
            // Still a combination of radicands: keep the mismatch check.
            self.common_d(a);
            self.common_d(b);
            return;
        }
        let product = Field::mul(a, b);
        self.sub_assign(&product);
    }
    #[track_caller]
    fn add_mul_assign(&mut self, a: &Self, b: &Self) {
        if a.is_zero() || b.is_zero() {
            self.common_d(a);
            self.common_d(b);
            return;
        }
        let product = Field::mul(a, b);
        self.add_assign(&product);
    }

    fn signum_ordering(&self) -> Ordering {
        sign_of(&self.x, &self.y, self.d())
    }
    fn is_zero(&self) -> bool {
        self.x.is_zero() && self.y.is_zero()
    }
    fn abs(&self) -> Self {
        if self.is_negative() { Field::neg(self) } else { self.clone() }
    }
    #[track_caller]
    fn cmp_total(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
}

macro_rules! forward_binop {
    ($tr:ident, $method:ident) => {
        impl $tr<&QuadraticField> for &QuadraticField {
            type Output = QuadraticField;
            #[track_caller]
            fn $method(self, rhs: &QuadraticField) -> QuadraticField {
                Field::$method(self, rhs)
            }
        }
        impl $tr<QuadraticField> for QuadraticField {
            type Output = QuadraticField;
            #[track_caller]
            fn $method(self, rhs: QuadraticField) -> QuadraticField {
                Field::$method(&self, &rhs)
            }
        }
        impl $tr<&QuadraticField> for QuadraticField {
            type Output = QuadraticField;
            #[track_caller]
            fn $method(self, rhs: &QuadraticField) -> QuadraticField {
                Field::$method(&self, rhs)
            }
        }
        impl $tr<QuadraticField> for &QuadraticField {
            type Output = QuadraticField;
            #[track_caller]
            fn $method(self, rhs: QuadraticField) -> QuadraticField {
                Field::$method(self, &rhs)
            }
        }
    };
}

forward_binop!(Add, add);
forward_binop!(Sub, sub);
forward_binop!(Mul, mul);
forward_binop!(Div, div);

impl Neg for QuadraticField {
    type Output = QuadraticField;
    fn neg(self) -> QuadraticField {
        QuadraticField { x: -self.x, y: -self.y, d: self.d }
    }
}

impl Neg for &QuadraticField {
    type Output = QuadraticField;
    fn neg(self) -> QuadraticField {
        Field::neg(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    #[test]
    fn invariant_drops_radicand_when_y_vanishes() {
        let a = QuadraticField::new(r(1, 1), r(1, 1), r(2, 1)).unwrap();
        let b = QuadraticField::new(r(-1, 1), r(1, 1), r(2, 1)).unwrap();
        let one = Field::mul(&a, &b);
        assert!(one.d().is_none());
        // A rational from a d = 2 computation combines with d = 3 elements.
        let c = QuadraticField::sqrt_of(r(3, 1)).unwrap();
        assert_eq!(Field::add(&one, &c).to_string(), "1 + sqrt(3)");
        let mut acc = a.clone();
        acc.sub_assign(&a);
        assert!(acc.d().is_none() && acc.is_zero());
    }

    #[test]
    fn display_forms() {
        let d = Radicand::new(r(7, 5)).unwrap();
        assert_eq!(d.element(r(1, 2), r(3, 4)).to_string(), "1/2 + 3/4*sqrt(7/5)");
        assert_eq!(d.element(r(1, 2), r(-3, 4)).to_string(), "1/2 - 3/4*sqrt(7/5)");
        assert_eq!(d.element(r(0, 1), r(-1, 1)).to_string(), "-sqrt(7/5)");
        assert_eq!(d.element(r(0, 1), r(2, 1)).to_string(), "2*sqrt(7/5)");
        assert_eq!(d.element(r(-11, 30), r(0, 1)).to_string(), "-11/30");
    }

    #[test]
    fn to_f64_handles_cancellation() {
        // 1393² − 2·985² = −1, so 1393 − 985√2 = −1/(1393 + 985√2) ≈ −3.5894e-4.
        let v = QuadraticField::new(r(1393, 1), r(-985, 1), r(2, 1)).unwrap();
        let expected = -1.0 / (1393.0 + 985.0 * 2f64.sqrt());
        assert!((v.to_f64() - expected).abs() <= 4e-16 * expected.abs(), "{} vs {expected}", v.to_f64());
        assert_eq!(QuadraticField::sqrt_of(r(2, 1)).unwrap().to_f64(), 2f64.sqrt());
    }
}
