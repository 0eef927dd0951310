//! A square sparse matrix in compressed sparse row (CSR) form, stored in an [`sprs`] matrix.
//!
//! Row i holds the column indices `indices[indptr[i]..indptr[i + 1]]` (strictly increasing,
//! `u32`) and their values. Column indices are `u32` to cut the bytes a Gauss–Seidel sweep
//! streams (12 bytes per entry instead of 16); n is therefore limited to `u32::MAX`.
//!
//! Invariants checked once at construction: n ≥ 1, square, every value finite, indices
//! sorted without duplicates and inside the shape. Explicit zeros are allowed in storage (the
//! MatrixMarket writer drops them); the diagonal of a row without a stored diagonal entry is 0.

use sprs::CsMatI;

use super::{DenseMatrix, LinearOperator};
use crate::error::LcpError;
use crate::io::CooMatrix;

/// The `sprs` matrix type behind [`CsrMatrix`]: `f64` values, `u32` column indices, `usize`
/// row pointers, CSR storage.
pub type SprsCsr = CsMatI<f64, u32, usize>;

/// A validated square sparse matrix in CSR storage (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct CsrMatrix {
    inner: SprsCsr,
}

impl CsrMatrix {
    /// Builds from raw CSR arrays, validating shape, finiteness, sortedness and ranges.
    pub fn from_raw(
        n: usize,
        indptr: Vec<usize>,
        indices: Vec<u32>,
        values: Vec<f64>,
    ) -> Result<Self, LcpError> {
        check_n(n)?;
        if indptr.len() != n + 1 {
            return Err(LcpError::DimensionMismatch {
                what: "CSR row pointers",
                expected: n + 1,
                found: indptr.len(),
            });
        }
        if indices.len() != values.len() {
            return Err(LcpError::DimensionMismatch {
                what: "CSR values",
                expected: indices.len(),
                found: values.len(),
            });
        }
        if let Some(index) = values.iter().position(|v| !v.is_finite()) {
            return Err(LcpError::NonFinite { what: "matrix", index });
        }
        let inner = SprsCsr::try_new((n, n), indptr, indices, values).map_err(|(_, _, _, e)| {
            LcpError::InvalidProblem { reason: format!("invalid CSR structure: {e}") }
        })?;
        Ok(CsrMatrix { inner })
    }

    /// Wraps an `sprs` matrix (converted to CSR storage if it is CSC), validating it.
    pub fn from_sprs(m: SprsCsr) -> Result<Self, LcpError> {
        if m.rows() != m.cols() {
            return Err(LcpError::NotSquare { rows: m.rows(), cols: m.cols() });
        }
        let m = if m.is_csr() { m } else { m.to_csr() };
        let n = m.rows();
        let (indptr, indices, values) = m.into_raw_storage();
        // A view-derived matrix may have an offset row pointer; rebase it.
        let base = indptr.first().copied().unwrap_or(0);
        let indptr: Vec<usize> = indptr.iter().map(|p| p - base).collect();
        let end = indptr.last().copied().unwrap_or(0);
        Self::from_raw(n, indptr, indices[base..base + end].to_vec(), values[base..base + end].to_vec())
    }

    /// Builds from rows given as `(column, value)` lists (any order inside a row; duplicate
    /// columns are summed). Used by the generators.
    pub fn from_rows<I>(n: usize, rows: I) -> Result<Self, LcpError>
    where
        I: IntoIterator,
        I::Item: IntoIterator<Item = (usize, f64)>,
    {
        check_n(n)?;
        let mut indptr = Vec::with_capacity(n + 1);
        let mut indices: Vec<u32> = Vec::new();
        let mut values: Vec<f64> = Vec::new();
        let mut row_buf: Vec<(usize, f64)> = Vec::new();
        indptr.push(0);
        for (i, row) in rows.into_iter().enumerate() {
            if i >= n {
                return Err(LcpError::DimensionMismatch { what: "CSR rows", expected: n, found: i + 1 });
            }
            row_buf.clear();
            row_buf.extend(row);
            row_buf.sort_by_key(|e| e.0);
            for &(j, v) in &row_buf {
                if j >= n {
                    return Err(LcpError::DimensionMismatch {
                        what: "CSR column index",
                        expected: n,
                        found: j,
                    });
                }
                if indices.len() > *indptr.last().unwrap_or(&0) && indices.last() == Some(&(j as u32)) {
                    if let Some(last) = values.last_mut() {
                        *last += v;
                    }
                } else {
                    indices.push(j as u32);
                    values.push(v);
                }
            }
            indptr.push(indices.len());
        }
        if indptr.len() != n + 1 {
            return Err(LcpError::DimensionMismatch {
                what: "CSR rows",
                expected: n,
                found: indptr.len() - 1,
            });
        }
        Self::from_raw(n, indptr, indices, values)
    }

    /// The non-zero entries of a dense matrix (exact zeros dropped).
    pub fn from_dense(a: &DenseMatrix) -> Self {
        let n = a.n();
        let mut indptr = Vec::with_capacity(n + 1);
        let mut indices = Vec::new();
        let mut values = Vec::new();
        indptr.push(0);
        for i in 0..n {
            for (j, &v) in a.row(i).iter().enumerate() {
                if v != 0.0 {
                    indices.push(j as u32);
                    values.push(v);
                }
            }
            indptr.push(indices.len());
        }
        // A DenseMatrix is validated (finite, n ≥ 1); n ≤ u32::MAX since n² entries fit in memory.
        let inner = SprsCsr::try_new((n, n), indptr, indices, values)
            .unwrap_or_else(|_| unreachable!("rows built in column order from a dense matrix"));
        CsrMatrix { inner }
    }

    /// From a MatrixMarket coordinate matrix (must be square; n ≤ `u32::MAX`).
    pub fn from_coo(m: &CooMatrix<f64>) -> Result<Self, LcpError> {
        if m.nrows() != m.ncols() {
            return Err(LcpError::NotSquare { rows: m.nrows(), cols: m.ncols() });
        }
        let n = m.nrows();
        check_n(n)?;
        let mut indptr = vec![0usize; n + 1];
        let mut indices = Vec::with_capacity(m.nnz());
        let mut values = Vec::with_capacity(m.nnz());
        // Entries are sorted by (row, col) without duplicates (a CooMatrix invariant).
        for &(i, j, v) in m.entries() {
            indptr[i + 1] += 1;
            indices.push(j as u32);
            values.push(v);
        }
        for i in 0..n {
            indptr[i + 1] += indptr[i];
        }
        Self::from_raw(n, indptr, indices, values)
    }

    /// The stored non-zero entries as a coordinate matrix (explicit zeros dropped).
    pub fn to_coo(&self) -> CooMatrix<f64> {
        let mut entries = Vec::with_capacity(self.nnz());
        for i in 0..self.n() {
            let (cols, vals) = self.row(i);
            for (&j, &v) in cols.iter().zip(vals) {
                if v != 0.0 {
                    entries.push((i, j as usize, v));
                }
            }
        }
        CooMatrix::new(self.n(), self.n(), entries)
            .unwrap_or_else(|_| unreachable!("CSR entries are in range and unique"))
    }

    /// n.
    pub fn n(&self) -> usize {
        self.inner.rows()
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.inner.nnz()
    }

    /// Row pointers (n + 1 entries, starting at 0).
    pub fn indptr(&self) -> &[usize] {
        match self.inner.proper_indptr() {
            std::borrow::Cow::Borrowed(p) => p,
            // Every constructor stores a row pointer starting at 0 (checked by `try_new`).
            std::borrow::Cow::Owned(_) => unreachable!("CsrMatrix row pointers start at 0"),
        }
    }

    /// Column indices of all stored entries, row after row.
    pub fn indices(&self) -> &[u32] {
        self.inner.indices()
    }

    /// Values of all stored entries, row after row.
    pub fn values(&self) -> &[f64] {
        self.inner.data()
    }

    /// Row i: its column indices and values.
    pub fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let p = self.indptr();
        let (s, e) = (p[i], p[i + 1]);
        (&self.indices()[s..e], &self.values()[s..e])
    }

    /// Entry (i, j) (0 when not stored).
    pub fn get(&self, i: usize, j: usize) -> f64 {
        let (cols, vals) = self.row(i);
        match cols.binary_search(&(j as u32)) {
            Ok(k) => vals[k],
            Err(_) => 0.0,
        }
    }

    /// `true` when A = Aᵀ exactly (stored zeros count as zeros).
    pub fn is_symmetric(&self) -> bool {
        (0..self.n()).all(|i| {
            let (cols, vals) = self.row(i);
            cols.iter().zip(vals).all(|(&j, &v)| self.get(j as usize, i) == v)
        })
    }

    /// The underlying `sprs` matrix (for sparse algebra beyond this crate).
    pub fn as_sprs(&self) -> &SprsCsr {
        &self.inner
    }

    /// Consumes the wrapper, returning the `sprs` matrix.
    pub fn into_sprs(self) -> SprsCsr {
        self.inner
    }
}

fn check_n(n: usize) -> Result<(), LcpError> {
    if n == 0 {
        return Err(LcpError::Empty);
    }
    if u32::try_from(n).is_err() {
        return Err(LcpError::InvalidProblem {
            reason: format!("n = {n} exceeds the CSR index limit u32::MAX"),
        });
    }
    Ok(())
}

impl LinearOperator for CsrMatrix {
    fn dim(&self) -> usize {
        self.n()
    }

    fn apply(&self, x: &[f64], y: &mut [f64]) {
        let (indptr, indices, values) = (self.indptr(), self.indices(), self.values());
        for (yi, w) in y.iter_mut().zip(indptr.windows(2)) {
            let (cols, vals) = (&indices[w[0]..w[1]], &values[w[0]..w[1]]);
            *yi = cols.iter().zip(vals).map(|(&j, &a)| a * x[j as usize]).sum();
        }
    }

    fn diagonal(&self, out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.get(i, i);
        }
    }

    fn to_dense(&self) -> DenseMatrix {
        let n = self.n();
        let mut data = vec![0.0; n * n];
        for i in 0..n {
            let (cols, vals) = self.row(i);
            for (&j, &v) in cols.iter().zip(vals) {
                data[i * n + j as usize] = v;
            }
        }
        DenseMatrix::from_row_major_unchecked(n, data)
    }

    fn nnz_hint(&self) -> usize {
        self.nnz()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_sum_duplicates_and_apply() {
        let a = CsrMatrix::from_rows(2, vec![vec![(1, 1.0), (0, 2.0), (1, 0.5)], vec![(0, 1.0), (1, 2.0)]])
            .unwrap();
        assert_eq!(a.nnz(), 4);
        assert_eq!(a.get(0, 1), 1.5);
        let mut y = [0.0; 2];
        a.apply(&[1.0, 2.0], &mut y);
        assert_eq!(y, [5.0, 5.0]);
        assert!(!a.is_symmetric());
        let d = a.to_dense();
        assert_eq!(CsrMatrix::from_dense(&d), a);
        assert_eq!(CsrMatrix::from_coo(&a.to_coo()).unwrap(), a);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(CsrMatrix::from_raw(0, vec![0], vec![], vec![]), Err(LcpError::Empty));
        assert!(matches!(
            CsrMatrix::from_raw(1, vec![0, 1], vec![0], vec![f64::NAN]),
            Err(LcpError::NonFinite { .. })
        ));
        assert!(matches!(
            CsrMatrix::from_raw(2, vec![0, 2, 2], vec![1, 0], vec![1.0, 1.0]),
            Err(LcpError::InvalidProblem { .. })
        ));
        assert!(matches!(
            CsrMatrix::from_raw(2, vec![0, 1, 2], vec![0, 5], vec![1.0, 1.0]),
            Err(LcpError::InvalidProblem { .. })
        ));
        assert!(matches!(
            CsrMatrix::from_rows(2, vec![vec![(3, 1.0)], vec![]]),
            Err(LcpError::DimensionMismatch { .. })
        ));
    }
}
