//! Scalars in the user commands' output (`solve`, `demo`): f64 or exact rationals as JSON and
//! text, residual and duration formatting, and the float certification rule of the listings.

use std::time::Duration;

use proxima_lcp::io::{ParseScalar, format_f64};
use proxima_lcp::{Field, Rational};
use serde_json::Value;

/// A scalar the CLI can read, solve with and print.
pub trait Scalar: ParseScalar {
    /// `"f64"` or `"rational"`.
    const LABEL: &'static str;
    /// JSON: a number for f64 (`null` when not finite), an exact string for rationals.
    fn to_json(&self) -> Value;
    /// Text: shortest round-trip decimal for f64, `p/q` for rationals.
    fn to_text(&self) -> String;
}

impl Scalar for f64 {
    const LABEL: &'static str = "f64";
    fn to_json(&self) -> Value {
        serde_json::Number::from_f64(*self).map_or(Value::Null, Value::Number)
    }
    fn to_text(&self) -> String {
        format_f64(*self)
    }
}

impl Scalar for Rational {
    const LABEL: &'static str = "rational";
    fn to_json(&self) -> Value {
        Value::String(self.to_string())
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
}

/// A JSON array of scalars.
pub fn json_vec<T: Scalar>(v: &[T]) -> Value {
    Value::Array(v.iter().map(Scalar::to_json).collect())
}

/// `[a, b, c]` for text output; long vectors are elided in the middle.
pub fn text_vec<T: Scalar>(v: &[T]) -> String {
    const MAX: usize = 12;
    let items: Vec<String> = if v.len() <= MAX {
        v.iter().map(Scalar::to_text).collect()
    } else {
        let mut items: Vec<String> = v[..MAX / 2].iter().map(Scalar::to_text).collect();
        items.push(format!("... ({} more) ...", v.len() - MAX));
        items.extend(v[v.len() - MAX / 2..].iter().map(Scalar::to_text));
        items
    };
    format!("[{}]", items.join(", "))
}

/// A short human duration: `850 ns`, `12.3 µs`, `4.56 ms`, `1.23 s`.
pub fn fmt_duration(d: Duration) -> String {
    let ns = d.as_nanos();
    if ns < 1_000 {
        format!("{ns} ns")
    } else if ns < 1_000_000 {
        format!("{:.1} µs", ns as f64 / 1e3)
    } else if ns < 1_000_000_000 {
        format!("{:.2} ms", ns as f64 / 1e6)
    } else {
        format!("{:.2} s", ns as f64 / 1e9)
    }
}

/// A residual magnitude for tables: `0` when exactly zero, else 2 significant digits.
pub fn fmt_residual(x: f64) -> String {
    if x == 0.0 { "0".to_string() } else { format!("{x:.1e}") }
}

/// Whether a residual certifies a solution: exactly zero for exact scalars, at most
/// `1e-9 · scale · n` for floats (the float certification rule of `LemkeSettings`).
pub fn residual_ok<T: Field>(min_map_inf: &T, scale: f64, n: usize) -> bool {
    if T::EXACT {
        min_map_inf.is_zero()
    } else {
        let r = min_map_inf.to_f64();
        r.is_finite() && r <= 1e-9 * scale * n.max(1) as f64
    }
}
