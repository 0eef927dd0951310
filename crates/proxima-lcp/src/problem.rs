//! The dense linear complementarity problem LCP(M, q).
//!
//! # The mathematics
//!
//! Given M ∈ ℝⁿˣⁿ and q ∈ ℝⁿ, find z ∈ ℝⁿ with
//!
//! ```text
//! z ≥ 0,   w = M z + q ≥ 0,   zᵀ w = 0.
//! ```
//!
//! # Validation
//!
//! Constructors check, once, that n ≥ 1, that M is n × n (row-major, `n*n` entries) and
//! that every entry is finite. Solvers then trust the data.

use proxima_num::Field;

use crate::error::LcpError;
use crate::solution::LcpResidual;

/// An owned dense LCP: M stored row-major, n × n, and q of length n.
#[derive(Debug, Clone, PartialEq)]
pub struct Lcp<T> {
    n: usize,
    m: Vec<T>,
    q: Vec<T>,
}

/// A borrowed, validated view of a dense LCP (row-major M). Creating one allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LcpView<'a, T> {
    n: usize,
    m: &'a [T],
    q: &'a [T],
}

fn validate<T: Field>(m: &[T], q: &[T]) -> Result<usize, LcpError> {
    let n = q.len();
    if n == 0 {
        return Err(LcpError::Empty);
    }
    if m.len() != n * n {
        return Err(LcpError::DimensionMismatch {
            what: "M (n*n entries, row-major)",
            expected: n * n,
            found: m.len(),
        });
    }
    if let Some(index) = m.iter().position(|v| !v.is_finite()) {
        return Err(LcpError::NonFinite { what: "M", index });
    }
    if let Some(index) = q.iter().position(|v| !v.is_finite()) {
        return Err(LcpError::NonFinite { what: "q", index });
    }
    Ok(n)
}

impl<T: Field> Lcp<T> {
    /// Builds an LCP from M in row-major order (`n*n` entries) and q (`n` entries).
    pub fn new(m_row_major: Vec<T>, q: Vec<T>) -> Result<Self, LcpError> {
        let n = validate(&m_row_major, &q)?;
        Ok(Self { n, m: m_row_major, q })
    }

    /// Builds an LCP from the rows of M and q; rejects ragged or non-square M.
    pub fn from_rows(rows: Vec<Vec<T>>, q: Vec<T>) -> Result<Self, LcpError> {
        if rows.is_empty() && q.is_empty() {
            return Err(LcpError::Empty);
        }
        let nrows = rows.len();
        if let Some(bad) = rows.iter().find(|r| r.len() != nrows) {
            return Err(LcpError::NotSquare { rows: nrows, cols: bad.len() });
        }
        if q.len() != nrows {
            return Err(LcpError::DimensionMismatch { what: "q", expected: nrows, found: q.len() });
        }
        Self::new(rows.into_iter().flatten().collect(), q)
    }

    /// Number of variables n.
    pub fn n(&self) -> usize {
        self.n
    }
    /// M, row-major.
    pub fn m(&self) -> &[T] {
        &self.m
    }
    /// q.
    pub fn q(&self) -> &[T] {
        &self.q
    }
    /// A borrowed view for the allocation-free solver entry points.
    pub fn view(&self) -> LcpView<'_, T> {
        LcpView { n: self.n, m: &self.m, q: &self.q }
    }
    /// Converts every entry to another scalar type through `f64`
    /// (exact when converting f64/f32 data into an exact field).
    pub fn convert<U: Field>(&self) -> Lcp<U> {
        let conv = |v: &T| U::from_f64(v.to_f64()).unwrap_or_else(U::zero);
        Lcp { n: self.n, m: self.m.iter().map(conv).collect(), q: self.q.iter().map(conv).collect() }
    }
    /// Residuals of a candidate z (see [`LcpView::residual`]).
    pub fn residual(&self, z: &[T]) -> LcpResidual<T> {
        self.view().residual(z)
    }
}

impl<'a, T: Field> LcpView<'a, T> {
    /// Validates and wraps borrowed data (M row-major).
    pub fn new(m_row_major: &'a [T], q: &'a [T]) -> Result<Self, LcpError> {
        let n = validate(m_row_major, q)?;
        Ok(Self { n, m: m_row_major, q })
    }
    /// Number of variables n.
    pub fn n(&self) -> usize {
        self.n
    }
    /// M, row-major.
    pub fn m(&self) -> &'a [T] {
        self.m
    }
    /// q.
    pub fn q(&self) -> &'a [T] {
        self.q
    }
    /// Entry `M[i][j]`.
    #[inline]
    pub fn m_at(&self, i: usize, j: usize) -> &'a T {
        &self.m[i * self.n + j]
    }
    /// `max(1, max |Mᵢⱼ|, max |qᵢ|)` as f64: the magnitude relative tolerances refer to.
    pub fn scale(&self) -> f64 {
        self.m.iter().chain(self.q).fold(1.0f64, |acc, v| acc.max(v.to_f64().abs()))
    }
    /// Writes w = M z + q into `w` (lengths n). Allocation-free.
    pub fn compute_w(&self, z: &[T], w: &mut [T]) {
        for i in 0..self.n {
            let mut acc = self.q[i].clone();
            let row = &self.m[i * self.n..(i + 1) * self.n];
            for (mij, zj) in row.iter().zip(z) {
                if !zj.is_zero() {
                    acc.add_mul_assign(mij, zj);
                }
            }
            w[i] = acc;
        }
    }
    /// Residuals of a candidate z, computed from M and q (not from solver internals):
    /// ‖min(z, w)‖∞, |zᵀw|, min z and min w.
    pub fn residual(&self, z: &[T]) -> LcpResidual<T> {
        let mut min_map_inf = T::zero();
        let mut dot = T::zero();
        let mut min_z: Option<T> = None;
        let mut min_w: Option<T> = None;
        for i in 0..self.n {
            let mut w = self.q[i].clone();
            for j in 0..self.n {
                if !z[j].is_zero() {
                    w.add_mul_assign(self.m_at(i, j), &z[j]);
                }
            }
            let m = if z[i] < w { z[i].clone() } else { w.clone() };
            let am = m.abs();
            if am > min_map_inf {
                min_map_inf = am;
            }
            dot.add_mul_assign(&z[i], &w);
            if min_z.as_ref().is_none_or(|v| z[i] < *v) {
                min_z = Some(z[i].clone());
            }
            if min_w.as_ref().is_none_or(|v| w < *v) {
                min_w = Some(w);
            }
        }
        LcpResidual {
            min_map_inf,
            complementarity: dot.abs(),
            min_z: min_z.unwrap_or_else(T::zero),
            min_w: min_w.unwrap_or_else(T::zero),
        }
    }
}
