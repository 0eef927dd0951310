//! A dense row-major n×n matrix of `f64`, validated once.

use super::LinearOperator;
use crate::error::LcpError;
use crate::problem::Lcp;

/// A dense square matrix stored row-major (entry (i, j) at `i·n + j`).
#[derive(Debug, Clone, PartialEq)]
pub struct DenseMatrix {
    n: usize,
    data: Vec<f64>,
}

impl DenseMatrix {
    /// Validates size (n² entries, n ≥ 1) and finiteness.
    pub fn from_row_major(n: usize, data: Vec<f64>) -> Result<Self, LcpError> {
        if n == 0 {
            return Err(LcpError::Empty);
        }
        if data.len() != n * n {
            return Err(LcpError::DimensionMismatch {
                what: "matrix entries",
                expected: n * n,
                found: data.len(),
            });
        }
        if let Some(index) = data.iter().position(|v| !v.is_finite()) {
            return Err(LcpError::NonFinite { what: "matrix", index });
        }
        Ok(DenseMatrix { n, data })
    }

    /// Builds without validation (callers guarantee n² finite entries).
    pub(crate) fn from_row_major_unchecked(n: usize, data: Vec<f64>) -> Self {
        debug_assert_eq!(data.len(), n * n);
        DenseMatrix { n, data }
    }

    /// The matrix of an `f64` LCP.
    pub fn from_lcp(lcp: &Lcp<f64>) -> Self {
        DenseMatrix { n: lcp.n(), data: lcp.m().to_vec() }
    }

    /// n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Row-major entries.
    pub fn data(&self) -> &[f64] {
        &self.data
    }

    /// Mutable row-major entries.
    pub fn data_mut(&mut self) -> &mut [f64] {
        &mut self.data
    }

    /// Entry (i, j).
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.data[i * self.n + j]
    }

    /// Row i.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.n..(i + 1) * self.n]
    }

    /// `true` when A = Aᵀ exactly.
    pub fn is_symmetric(&self) -> bool {
        (0..self.n).all(|i| (0..i).all(|j| self.get(i, j) == self.get(j, i)))
    }
}

impl LinearOperator for DenseMatrix {
    fn dim(&self) -> usize {
        self.n
    }

    fn apply(&self, x: &[f64], y: &mut [f64]) {
        for (yi, row) in y.iter_mut().zip(self.data.chunks_exact(self.n)) {
            *yi = dot(row, x);
        }
    }

    fn diagonal(&self, out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.get(i, i);
        }
    }

    fn to_dense(&self) -> DenseMatrix {
        self.clone()
    }
}

/// aᵀb with four independent partial sums (so the loop vectorizes), then the remainder.
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (a4.remainder(), b4.remainder());
    let mut acc = [0.0f64; 4];
    for (x, y) in a4.zip(b4) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

#[cfg(test)]
mod tests {
    use super::dot;

    #[test]
    fn dot_matches_the_plain_sum_on_exact_data() {
        for n in 0..13 {
            let a: Vec<f64> = (0..n).map(|i| i as f64 - 3.0).collect();
            let b: Vec<f64> = (0..n).map(|i| 2.0 * i as f64 + 1.0).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert_eq!(dot(&a, &b), plain, "n = {n}");
        }
    }
}
