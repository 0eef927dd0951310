//! PLACEHOLDER — being written (QuadraticField x + y·√d).
/// Placeholder.
#[derive(Debug)]
pub struct QuadraticField;
/// Placeholder.
#[derive(Debug)]
pub struct QuadraticFieldError;
