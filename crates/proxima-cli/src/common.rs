//! Helpers shared by the subcommands: scalar output, panic capture, file reading, durations.

use std::cell::RefCell;
use std::fmt;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use proxima_lcp::io::{ParseScalar, format_f64};
use proxima_lcp::{Field, Rational};
use serde_json::Value;

/// An internal error (a caught panic): exit code 3 instead of 2.
#[derive(Debug)]
pub struct Internal(pub String);

impl fmt::Display for Internal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Internal {}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default panic hook (multi-line, to stderr) by one that records the message
/// for the current thread; callers catch the unwind and report it on one line.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        let msg = match info.location() {
            Some(loc) => format!("panicked at {}:{}: {payload}", loc.file(), loc.line()),
            None => format!("panicked: {payload}"),
        };
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(msg));
    }));
}

/// The message of the last panic on this thread (taken).
pub fn take_panic_message() -> Option<String> {
    LAST_PANIC.with(|p| p.borrow_mut().take())
}

/// Runs `f`, turning a panic into `Err(message)`.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|_| take_panic_message().unwrap_or_else(|| "panic".to_string()))
}

/// Collapses a message onto one line.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads a whole text file; the error names the file.
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

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
