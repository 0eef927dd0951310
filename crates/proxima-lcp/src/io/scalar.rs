//! Number tokens → scalars, exactly where the scalar is exact.
//!
//! # Accepted text
//!
//! `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`), or a fraction `a/b` of two
//! such decimals (`"11/30"`, `"-1/3"`, `"1.5/2"`). Surrounding whitespace is ignored.
//!
//! # Edge cases
//!
//! * `nan`, `inf`, `infinity` (any case, any sign) → [`IoErrorKind::NonFinite`].
//! * `f64`: decimals are rounded to nearest by the standard library (correctly rounded);
//!   fractions are computed exactly and then rounded once. A value beyond the `f64` range
//!   (`1e400`, `1/1e-400`) → [`IoErrorKind::NonFinite`]; underflow gives (signed) zero.
//! * [`Rational`]: the decimal text is read exactly (`0.1` is 1/10, not the double nearest to
//!   it). Exponents beyond ±[`MAX_EXACT_EXPONENT`] are rejected ([`IoErrorKind::Number`]) so
//!   that a short token cannot ask for a gigantic integer.
//! * Literals longer than [`MAX_NUMBER_LEN`] characters are rejected.
//! * A zero denominator is rejected.

use proxima_num::{Field, Rational};

use super::error::{IoError, IoErrorKind};

/// Longest number literal accepted, in bytes.
pub const MAX_NUMBER_LEN: usize = 10_000;

/// Largest decimal exponent magnitude accepted where the value is computed exactly
/// ([`Rational`] values and the parts of a fraction).
pub const MAX_EXACT_EXPONENT: i64 = 1_000;

/// A scalar the readers can produce from number text.
///
/// Implemented for `f64` (correctly rounded) and [`Rational`] (exact).
pub trait ParseScalar: Field {
    /// Parses one number token (see the [module docs](self) for the grammar). The error has
    /// no line number; readers add it.
    fn parse_scalar(text: &str) -> Result<Self, IoError>;
}

/// Shortens a token for an error message (keeps messages one short line).
pub(crate) fn show(token: &str) -> String {
    const MAX: usize = 40;
    if token.len() <= MAX {
        format!("{token:?}")
    } else {
        let mut end = MAX;
        while !token.is_char_boundary(end) {
            end -= 1;
        }
        format!("{:?}...", &token[..end])
    }
}

fn number_error(token: &str, why: &str) -> IoError {
    IoError::plain(IoErrorKind::Number, format!("not a number {}: {why}", show(token)))
}

/// Checks `[+-]digits[.digits][e[+-]digits]`; returns the exponent (saturated) on success.
fn check_decimal(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        digits += i - frac_start;
    }
    if digits == 0 {
        return None;
    }
    let mut exponent = 0i64;
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        let negative = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            exponent = exponent.saturating_mul(10).saturating_add(i64::from(b[i] - b'0'));
            i += 1;
        }
        if i == exp_start {
            return None;
        }
        if negative {
            exponent = -exponent;
        }
    }
    (i == b.len()).then_some(exponent)
}

enum Shape<'a> {
    Decimal(&'a str, i64),
    Fraction(&'a str, i64, &'a str, i64),
}

fn classify(text: &str) -> Result<Shape<'_>, IoError> {
    let s = text.trim();
    if s.is_empty() {
        return Err(IoError::plain(IoErrorKind::Number, "empty number"));
    }
    if s.len() > MAX_NUMBER_LEN {
        return Err(number_error(s, "literal too long"));
    }
    let unsigned = s.trim_start_matches(['+', '-']);
    if unsigned.eq_ignore_ascii_case("nan")
        || unsigned.eq_ignore_ascii_case("inf")
        || unsigned.eq_ignore_ascii_case("infinity")
    {
        return Err(IoError::plain(IoErrorKind::NonFinite, format!("{} is not a finite number", show(s))));
    }
    if let Some((num, den)) = s.split_once('/') {
        let (num, den) = (num.trim(), den.trim());
        let en = check_decimal(num).ok_or_else(|| number_error(s, "bad numerator"))?;
        let ed = check_decimal(den).ok_or_else(|| number_error(s, "bad denominator"))?;
        return Ok(Shape::Fraction(num, en, den, ed));
    }
    let e = check_decimal(s)
        .ok_or_else(|| number_error(s, "expected a decimal like -2.5e-3 or a fraction p/q"))?;
    Ok(Shape::Decimal(s, e))
}

fn exact(text: &str, exponent: i64) -> Result<Rational, IoError> {
    if exponent.abs() > MAX_EXACT_EXPONENT {
        return Err(number_error(text, "exponent out of range for exact reading"));
    }
    Rational::parse(text).map_err(|_| number_error(text, "not a decimal"))
}

fn exact_fraction(text: &str, num: &str, en: i64, den: &str, ed: i64) -> Result<Rational, IoError> {
    let n = exact(num, en)?;
    let d = exact(den, ed)?;
    if d.is_zero() {
        return Err(number_error(text.trim(), "zero denominator"));
    }
    Ok(Field::div(&n, &d))
}

fn non_finite(text: &str) -> IoError {
    IoError::plain(IoErrorKind::NonFinite, format!("{} is out of the f64 range", show(text.trim())))
}

impl ParseScalar for f64 {
    fn parse_scalar(text: &str) -> Result<Self, IoError> {
        let value = match classify(text)? {
            Shape::Decimal(s, _) => s.parse::<f64>().map_err(|_| number_error(s, "not a decimal"))?,
            Shape::Fraction(num, en, den, ed) => exact_fraction(text, num, en, den, ed)?.to_f64(),
        };
        if value.is_finite() { Ok(value) } else { Err(non_finite(text)) }
    }
}

impl ParseScalar for Rational {
    fn parse_scalar(text: &str) -> Result<Self, IoError> {
        match classify(text)? {
            Shape::Decimal(s, e) => exact(s, e),
            Shape::Fraction(num, en, den, ed) => exact_fraction(text, num, en, den, ed),
        }
    }
}

/// Parses a non-negative integer token (sizes, indices): digits only, optional leading `+`.
pub(crate) fn parse_count(token: &str) -> Option<u64> {
    let digits = token.strip_prefix('+').unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar() {
        for ok in ["1", "-1", "+1", "1.", ".5", "1e5", "1E-5", "-2.5e-3", "11/30", " 3 ", "1.5/2"] {
            assert!(f64::parse_scalar(ok).is_ok(), "{ok}");
            assert!(Rational::parse_scalar(ok).is_ok(), "{ok}");
        }
        for bad in ["", "-", ".", "e5", "1e", "1e+", "1..2", "0x10", "1/", "/2", "1/0", "abc", "1 2", "--1"] {
            assert!(f64::parse_scalar(bad).is_err(), "{bad}");
            assert!(Rational::parse_scalar(bad).is_err(), "{bad}");
        }
        for nf in ["nan", "NaN", "-inf", "Infinity", "+INF"] {
            assert_eq!(f64::parse_scalar(nf).unwrap_err().kind(), IoErrorKind::NonFinite);
            assert_eq!(Rational::parse_scalar(nf).unwrap_err().kind(), IoErrorKind::NonFinite);
        }
        assert_eq!(f64::parse_scalar("1e400").unwrap_err().kind(), IoErrorKind::NonFinite);
        assert_eq!(Rational::parse_scalar("1e4000").unwrap_err().kind(), IoErrorKind::Number);
        assert_eq!(f64::parse_scalar("1e-400").unwrap(), 0.0);
    }

    #[test]
    fn exactness() {
        assert_eq!(Rational::parse_scalar("0.1").unwrap(), Rational::new(1, 10));
        assert_eq!(Rational::parse_scalar("11/30").unwrap(), Rational::new(11, 30));
        assert_eq!(f64::parse_scalar("11/30").unwrap(), 11.0 / 30.0);
        assert_eq!(f64::parse_scalar("-1/3").unwrap(), -1.0 / 3.0);
        assert_eq!(f64::parse_scalar("0.1").unwrap(), 0.1);
    }
}
