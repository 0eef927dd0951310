//! Diagonal (DIA) storage for banded and stencil matrices.
//!
//! # The maths
//!
//! A square n × n matrix whose entries lie on a few diagonals o₁ < … < o_m (a_ij ≠ 0 only
//! for j − i ∈ {o_k}) is stored as m arrays of length n: diagonal k holds a_{i, i+o_k} at
//! position i. Positions with i + o_k ∉ [0, n) are padding and hold 0. Grid stencils have
//! few diagonals (5 for a 2D 5-point, 7 for a 3D 7-point stencil) and almost no padding, so
//! a product or a sweep reads the values as a handful of contiguous streams with no column
//! indices: 8 bytes per stored entry instead of CSR's 12 plus row pointers.
//!
//! The main diagonal (offset 0) is always stored (zeros if absent), so splitting methods find
//! A_ii directly. Alongside the values, the matrix keeps the row-scaled copy the Gauss–Seidel
//! kernel streams (`operator::dia_sweep`): Ã = D⁻¹A − I, the off-diagonals divided by the
//! diagonal, built only when every A_ii is positive.
//!
//! # Edge cases
//!
//! * [`DiaMatrix::from_diagonals`] refuses n = 0, a diagonal of the wrong length, an offset
//!   with |o| ≥ n, a repeated offset, a NaN/∞ value, and a non-zero value in a padding
//!   position — with an [`LcpError`], never a panic.
//! * [`DiaMatrix::from_csr`] returns `None` when the matrix has more distinct diagonals
//!   (counting the main one) than the caller allows; explicit zeros stored in the CSR matrix
//!   are not kept (DIA cannot tell a stored zero from padding), so [`DiaMatrix::to_csr`]
//!   returns the same matrix without them.
//! * A zero, negative or NaN diagonal entry is accepted by the storage; the splitting
//!   solvers refuse it ([`LcpError::ZeroDiagonal`]) before sweeping.

use super::dia_sweep::ScaledDiagonals;
use super::{CsrMatrix, DenseMatrix, LinearOperator, RowAccess};
use crate::error::LcpError;

/// A square matrix in diagonal storage (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct DiaMatrix {
    n: usize,
    /// Sorted, unique, containing 0.
    offsets: Vec<isize>,
    /// Diagonal k at `values[k * n..(k + 1) * n]`, indexed by row.
    values: Vec<f64>,
    /// Position of offset 0 in `offsets`.
    main: usize,
    /// D⁻¹A − I for the sweep kernel; `None` unless every A_ii > 0.
    scaled: Option<ScaledDiagonals>,
}

/// The rows i for which i + o is a column: [max(0, −o), min(n, n − o)).
pub(crate) fn valid_rows(n: usize, o: isize) -> core::ops::Range<usize> {
    let lo = o.min(0).unsigned_abs().min(n);
    let hi = n.saturating_sub(o.max(0).unsigned_abs()).max(lo);
    lo..hi
}

impl DiaMatrix {
    /// Builds an n × n matrix from `(offset, diagonal)` pairs, any order; diagonal o holds
    /// a_{i, i+o} at position i (length n, 0 in the padding positions where i + o ∉ [0, n)).
    /// A missing main diagonal is stored as zeros. Errors: see the module docs.
    pub fn from_diagonals(n: usize, diagonals: Vec<(isize, Vec<f64>)>) -> Result<Self, LcpError> {
        if n == 0 {
            return Err(LcpError::Empty);
        }
        let mut diagonals = diagonals;
        diagonals.sort_by_key(|d| d.0);
        if diagonals.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(LcpError::InvalidProblem { reason: "DIA: repeated diagonal offset".into() });
        }
        if !diagonals.iter().any(|d| d.0 == 0) {
            let at = diagonals.partition_point(|d| d.0 < 0);
            diagonals.insert(at, (0, vec![0.0; n]));
        }
        let mut offsets = Vec::with_capacity(diagonals.len());
        let mut values = Vec::with_capacity(diagonals.len() * n);
        for (o, d) in diagonals {
            if o.unsigned_abs() >= n {
                return Err(LcpError::InvalidProblem {
                    reason: format!("DIA: offset {o} outside an {n} x {n} matrix"),
                });
            }
            if d.len() != n {
                return Err(LcpError::DimensionMismatch {
                    what: "DIA diagonal",
                    expected: n,
                    found: d.len(),
                });
            }
            if let Some(i) = d.iter().position(|v| !v.is_finite()) {
                return Err(LcpError::NonFinite { what: "matrix", index: values.len() + i });
            }
            let rows = valid_rows(n, o);
            if let Some(i) = (0..n).find(|i| !rows.contains(i) && d[*i] != 0.0) {
                return Err(LcpError::InvalidProblem {
                    reason: format!("DIA: non-zero padding at row {i} of diagonal {o}"),
                });
            }
            offsets.push(o);
            values.extend_from_slice(&d);
        }
        Ok(Self::assemble(n, offsets, values))
    }

    /// The matrix in DIA storage, or `None` when it has more than `max_offsets` distinct
    /// diagonals (the main one always counts). Stored zeros are dropped.
    pub fn from_csr(a: &CsrMatrix, max_offsets: usize) -> Option<DiaMatrix> {
        let n = a.n();
        let mut offsets: Vec<isize> = vec![0];
        for i in 0..n {
            let (cols, vals) = a.row(i);
            for (&j, &v) in cols.iter().zip(vals) {
                let o = j as isize - i as isize;
                if v != 0.0 && !offsets.contains(&o) {
                    if offsets.len() == max_offsets {
                        return None;
                    }
                    offsets.push(o);
                }
            }
        }
        offsets.sort_unstable();
        let mut values = vec![0.0; offsets.len() * n];
        for i in 0..n {
            let (cols, vals) = a.row(i);
            for (&j, &v) in cols.iter().zip(vals) {
                if v != 0.0 {
                    let o = j as isize - i as isize;
                    let k = offsets.binary_search(&o).ok()?;
                    values[k * n + i] = v;
                }
            }
        }
        Some(Self::assemble(n, offsets, values))
    }

    fn assemble(n: usize, offsets: Vec<isize>, values: Vec<f64>) -> DiaMatrix {
        let main = offsets.binary_search(&0).unwrap_or(0);
        let scaled = ScaledDiagonals::new(n, &offsets, &values, main);
        DiaMatrix { n, offsets, values, main, scaled }
    }

    /// The same matrix in CSR storage (zeros, padding included, are not stored).
    pub fn to_csr(&self) -> CsrMatrix {
        let rows = (0..self.n).map(|i| {
            self.offsets.iter().enumerate().filter_map(move |(k, &o)| {
                let v = self.values[k * self.n + i];
                (v != 0.0).then(|| ((i as isize + o) as usize, v))
            })
        });
        CsrMatrix::from_rows(self.n, rows).expect("DIA entries are finite and in range")
    }

    /// n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The stored diagonals' offsets j − i, ascending (0 always among them).
    pub fn offsets(&self) -> &[isize] {
        &self.offsets
    }

    /// Stored values including padding: n per diagonal.
    pub fn stored(&self) -> usize {
        self.values.len()
    }

    /// min{|o| : o < −1 a stored offset} (`usize::MAX` when there is none): how far back,
    /// apart from its predecessor, a row reads x. The DIA sweep's pair loop waits for the
    /// previous pair's result through these reads unless the reach is ≥ 4: on grids (reach =
    /// the grid width) it measured ~2× faster than the CSR sweep, on Fluid(G) (reach 2) ~1.3×
    /// slower.
    pub fn lower_reach(&self) -> usize {
        self.offsets.iter().filter(|&&o| o < -1).map(|o| o.unsigned_abs()).min().unwrap_or(usize::MAX)
    }

    /// Diagonal k (offset `offsets()[k]`), indexed by row.
    pub fn diagonal_values(&self, k: usize) -> &[f64] {
        &self.values[k * self.n..(k + 1) * self.n]
    }

    /// The row-scaled copy for the sweep kernel, when every A_ii > 0.
    pub(crate) fn scaled(&self) -> Option<&ScaledDiagonals> {
        self.scaled.as_ref()
    }
}

impl LinearOperator for DiaMatrix {
    fn dim(&self) -> usize {
        self.n
    }

    /// y_i = Σ_k a_{i,i+o_k} x_{i+o_k}, summed in ascending offset (= column) order, one
    /// contiguous pass per diagonal.
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        y.fill(0.0);
        for (k, &o) in self.offsets.iter().enumerate() {
            let rows = valid_rows(self.n, o);
            let d = &self.diagonal_values(k)[rows.clone()];
            let xs = &x[(rows.start as isize + o) as usize..(rows.end as isize + o) as usize];
            for ((yi, &a), &xj) in y[rows].iter_mut().zip(d).zip(xs) {
                *yi += a * xj;
            }
        }
    }

    fn diagonal(&self, out: &mut [f64]) {
        out.copy_from_slice(self.diagonal_values(self.main));
    }

    fn to_dense(&self) -> DenseMatrix {
        let n = self.n;
        let mut data = vec![0.0; n * n];
        for (k, &o) in self.offsets.iter().enumerate() {
            for i in valid_rows(n, o) {
                data[i * n + (i as isize + o) as usize] = self.values[k * n + i];
            }
        }
        DenseMatrix::from_row_major_unchecked(n, data)
    }

    fn nnz_hint(&self) -> usize {
        self.stored()
    }
}

impl RowAccess for DiaMatrix {
    type Aux = ();
    fn new_aux(&self) {}
    fn sync_aux(&self, _x: &[f64], _aux: &mut ()) {}

    #[inline]
    fn row_dot(&self, i: usize, x: &[f64], _aux: &()) -> f64 {
        let mut s = 0.0;
        for (k, &o) in self.offsets.iter().enumerate() {
            if valid_rows(self.n, o).contains(&i) {
                s += self.values[k * self.n + i] * x[(i as isize + o) as usize];
            }
        }
        s
    }

    #[inline]
    fn update_aux(&self, _i: usize, _delta: f64, _aux: &mut ()) {}

    fn is_symmetric(&self) -> bool {
        let n = self.n;
        self.offsets.iter().enumerate().all(|(k, &o)| {
            if o <= 0 {
                return true;
            }
            let Ok(t) = self.offsets.binary_search(&-o) else {
                return valid_rows(n, o).all(|i| self.values[k * n + i] == 0.0);
            };
            // a_{i,i+o} == a_{i+o,i}: diagonal −o at row i + o.
            valid_rows(n, o).all(|i| self.values[k * n + i] == self.values[t * n + i + o as usize])
        }) && self.offsets.iter().enumerate().all(|(k, &o)| {
            o >= 0
                || self.offsets.binary_search(&-o).is_ok()
                || valid_rows(n, o).all(|i| self.values[k * n + i] == 0.0)
        })
    }

    /// The blocked kernel of `operator::dia_sweep` (same update as the CSR kernel, rows in
    /// natural order, rounded differently: see there).
    fn sweep(&self, b: &[f64], x: &mut [f64], _aux: &mut (), inv_diag: &[f64], omega: f64) -> f64 {
        super::dia_sweep::sweep(self, b, x, inv_diag, omega)
    }
}
