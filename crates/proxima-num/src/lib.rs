//! Scalars for Proxima's pivoting algorithms.
//!
//! * [`Field`] — the ordered-field trait every pivoting solver (Lemke, simplex, enumeration) is
//!   generic over, implemented for `f64`, `f32`, [`Rational`] and [`QuadraticField`].
//! * [`Rational`] — exact arbitrary-precision rationals: exact conversion from any finite `f64`,
//!   exact parsing of `"0.1"`, `"11/30"`, `"-2.5e-3"`.
//! * [`QuadraticField`] — exact numbers `x + y·√d` (x, y, d rational, d shared by a
//!   computation) with exact sign and ordering, for geometry whose inputs contain normalized
//!   vectors.
//!
//! # Should I use this crate directly?
//!
//! Usually not: `proxima-lcp` and `proxima-geom` re-export what they take. Use it when you
//! want to feed exact inputs (`Rational::parse("11/30")`) or read exact answers.
#![deny(missing_docs)]

mod field;
mod quadratic_field;
mod rational;

pub use field::Field;
pub use quadratic_field::{QuadraticField, QuadraticFieldError, Radicand};
pub use rational::{ParseRationalError, Rational};
