//! [`InequalityQp`]: validated data of min ½xᵀHx + cᵀx s.t. A x ≥ b.

use crate::error::LcpError;

/// minimize ½xᵀHx + cᵀx subject to A x ≥ b (dense, row-major, f64).
#[derive(Debug, Clone, PartialEq)]
pub struct InequalityQp {
    pub(super) n: usize,
    pub(super) h: Vec<f64>,
    pub(super) c: Vec<f64>,
    pub(super) a: Vec<f64>,
    pub(super) b: Vec<f64>,
}

fn finite(v: &[f64], what: &'static str) -> Result<(), LcpError> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(LcpError::NonFinite { what, index }),
        None => Ok(()),
    }
}

impl InequalityQp {
    /// From n, H (n × n row-major), c (length n), A (m × n row-major, m = `b.len()`) and b.
    ///
    /// Errors: [`LcpError::Empty`] for n = 0, [`LcpError::DimensionMismatch`] for wrong sizes,
    /// [`LcpError::NonFinite`] for NaN/∞, [`LcpError::InvalidProblem`] when H is not symmetric
    /// to 1e-12 × (1 + max |H|). Positive semidefiniteness is checked during the solve
    /// ([`ActiveSetStatus::NonConvex`](super::ActiveSetStatus::NonConvex)).
    pub fn new(n: usize, h: Vec<f64>, c: Vec<f64>, a: Vec<f64>, b: Vec<f64>) -> Result<Self, LcpError> {
        if n == 0 {
            return Err(LcpError::Empty);
        }
        if h.len() != n * n {
            return Err(LcpError::DimensionMismatch {
                what: "H (n*n entries)",
                expected: n * n,
                found: h.len(),
            });
        }
        if c.len() != n {
            return Err(LcpError::DimensionMismatch { what: "c", expected: n, found: c.len() });
        }
        let m = b.len();
        if a.len() != m * n {
            return Err(LcpError::DimensionMismatch {
                what: "A (m*n entries, m = len(b))",
                expected: m * n,
                found: a.len(),
            });
        }
        finite(&h, "H")?;
        finite(&c, "c")?;
        finite(&a, "A")?;
        finite(&b, "b")?;
        let scale = 1.0 + h.iter().fold(0.0f64, |s, v| s.max(v.abs()));
        for i in 0..n {
            for j in i + 1..n {
                if (h[i * n + j] - h[j * n + i]).abs() > 1e-12 * scale {
                    return Err(LcpError::InvalidProblem {
                        reason: format!("H is not symmetric at ({i}, {j})"),
                    });
                }
            }
        }
        Ok(Self { n, h, c, a, b })
    }
    /// Number of variables.
    pub fn n(&self) -> usize {
        self.n
    }
    /// Number of constraints.
    pub fn m(&self) -> usize {
        self.b.len()
    }
    /// Row j of A.
    pub fn row(&self, j: usize) -> &[f64] {
        &self.a[j * self.n..(j + 1) * self.n]
    }
    /// b.
    pub fn b(&self) -> &[f64] {
        &self.b
    }
    /// ½xᵀHx + cᵀx.
    pub fn objective(&self, x: &[f64]) -> f64 {
        let hx = self.h_times(x);
        0.5 * dot(x, &hx) + dot(&self.c, x)
    }
    /// H x.
    pub fn h_times(&self, x: &[f64]) -> Vec<f64> {
        (0..self.n).map(|i| dot(&self.h[i * self.n..(i + 1) * self.n], x)).collect()
    }
    /// Slack a_jᵀx − b_j of constraint j.
    pub fn slack(&self, j: usize, x: &[f64]) -> f64 {
        dot(self.row(j), x) - self.b[j]
    }
    /// 1 + the largest |entry| of A and b (the scale of feasibility tests).
    pub(super) fn constraint_scale(&self) -> f64 {
        1.0 + self.a.iter().chain(&self.b).fold(0.0f64, |s, v| s.max(v.abs()))
    }
    /// 1 + the largest |entry| of H, c, A and b.
    pub(super) fn scale(&self) -> f64 {
        self.h.iter().chain(&self.c).fold(self.constraint_scale(), |s, v| s.max(1.0 + v.abs()))
    }
    /// H (row-major).
    pub(super) fn h(&self) -> &[f64] {
        &self.h
    }
    /// c.
    pub(super) fn c(&self) -> &[f64] {
        &self.c
    }
}

/// Dot product.
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
