//! The matrix-free contact operator A = J M⁻¹ Jᵀ.
//!
//! J (m × d, sparse) is the contact Jacobian (one row per constraint: normals, friction
//! directions), M⁻¹ (d × d) the block-diagonal inverse mass matrix (one symmetric PSD block per
//! body, e.g. diag(m⁻¹ I₃, I_world⁻¹)). A is symmetric PSD and usually much denser than J.
//!
//! Storage: J, and W = M⁻¹ Jᵀ kept as the rows W_i = (M⁻¹ J_iᵀ)ᵀ (same block fill as J). Then
//! * A x = J (Σ_i x_i W_iᵀ) — two sparse passes;
//! * A_ii = J_i · W_i (precomputed);
//! * Gauss–Seidel row access keeps v = M⁻¹ Jᵀ x = Σ_i x_i W_iᵀ: A_{i*} x = J_i v and a change
//!   δ of x_i is v += δ W_iᵀ — O(nnz(J_i) + nnz(W_i)) per row.
//!
//! Edge cases: a zero row of J gives a zero row, column and diagonal entry of A (splitting
//! methods then refuse it with `ZeroDiagonal`); `apply` uses a scratch vector behind a mutex
//! (allocation-free when not shared between threads at the same moment).

use std::sync::Mutex;

use super::{CsrMatrix, DenseMatrix, LinearOperator, RowAccess, SprsCsr};
use crate::error::LcpError;

/// A block-diagonal symmetric matrix (the inverse mass matrix M⁻¹).
#[derive(Debug, Clone, PartialEq)]
pub struct BlockDiagonal {
    /// Block start offsets, `blocks + 1` entries from 0 to d.
    offsets: Vec<usize>,
    /// Start of each block's row-major values in `values`.
    value_offsets: Vec<usize>,
    values: Vec<f64>,
    /// Block index of every row.
    block_of: Vec<u32>,
}

impl BlockDiagonal {
    /// Blocks of the given sizes; `values` holds each block row-major, one after the other.
    /// Every block must be finite and symmetric (to 1e-12 relative to its largest entry).
    pub fn new(block_sizes: &[usize], values: Vec<f64>) -> Result<Self, LcpError> {
        if block_sizes.is_empty() || block_sizes.contains(&0) {
            return Err(LcpError::InvalidProblem {
                reason: "M^-1 needs at least one block, none empty".into(),
            });
        }
        let expected: usize = block_sizes.iter().map(|s| s * s).sum();
        if values.len() != expected {
            return Err(LcpError::DimensionMismatch {
                what: "M^-1 block values",
                expected,
                found: values.len(),
            });
        }
        if let Some(index) = values.iter().position(|v| !v.is_finite()) {
            return Err(LcpError::NonFinite { what: "M^-1", index });
        }
        let mut offsets = vec![0];
        let mut value_offsets = vec![0];
        let mut block_of = Vec::new();
        for (k, &s) in block_sizes.iter().enumerate() {
            let vo = *value_offsets.last().unwrap_or(&0);
            let block = &values[vo..vo + s * s];
            let scale = block.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for r in 0..s {
                for c in 0..r {
                    if (block[r * s + c] - block[c * s + r]).abs() > 1e-12 * scale {
                        return Err(LcpError::InvalidProblem {
                            reason: format!("M^-1 block {k} is not symmetric"),
                        });
                    }
                }
            }
            block_of.extend(std::iter::repeat_n(k as u32, s));
            offsets.push(offsets[k] + s);
            value_offsets.push(vo + s * s);
        }
        if u32::try_from(offsets[block_sizes.len()]).is_err() {
            return Err(LcpError::InvalidProblem { reason: "M^-1 is larger than u32::MAX".into() });
        }
        Ok(BlockDiagonal { offsets, value_offsets, values, block_of })
    }

    /// A diagonal M⁻¹ (blocks of size 1).
    pub fn diagonal(d: Vec<f64>) -> Result<Self, LcpError> {
        let sizes = vec![1; d.len()];
        Self::new(&sizes, d)
    }

    /// d, the number of rows.
    pub fn dim(&self) -> usize {
        self.block_of.len()
    }

    fn block(&self, k: usize) -> (usize, usize, &[f64]) {
        let (o, s) = (self.offsets[k], self.offsets[k + 1] - self.offsets[k]);
        (o, s, &self.values[self.value_offsets[k]..self.value_offsets[k] + s * s])
    }
}

/// A = J M⁻¹ Jᵀ without forming A (see the module docs).
#[derive(Debug)]
pub struct ContactOperator {
    j: SprsCsr,
    w: SprsCsr,
    diag: Vec<f64>,
    scratch: Mutex<Vec<f64>>,
}

impl Clone for ContactOperator {
    fn clone(&self) -> Self {
        ContactOperator {
            j: self.j.clone(),
            w: self.w.clone(),
            diag: self.diag.clone(),
            scratch: Mutex::new(vec![0.0; self.w.cols()]),
        }
    }
}

impl ContactOperator {
    /// Builds the operator from J (m × d, CSR) and M⁻¹ (d × d). Errors: m = 0, column count
    /// ≠ d, NaN/∞ in J.
    pub fn new(j: SprsCsr, minv: &BlockDiagonal) -> Result<Self, LcpError> {
        let (m, d) = (j.rows(), j.cols());
        if m == 0 {
            return Err(LcpError::Empty);
        }
        if d != minv.dim() {
            return Err(LcpError::DimensionMismatch {
                what: "J columns vs M^-1",
                expected: minv.dim(),
                found: d,
            });
        }
        let j = if j.is_csr() { j } else { j.to_csr() };
        if let Some(index) = j.data().iter().position(|v| !v.is_finite()) {
            return Err(LcpError::NonFinite { what: "J", index });
        }
        let mut indptr = Vec::with_capacity(m + 1);
        let mut indices: Vec<u32> = Vec::new();
        let mut values = Vec::new();
        let mut diag = Vec::with_capacity(m);
        let mut blocks: Vec<u32> = Vec::new();
        indptr.push(0);
        for row in j.outer_iterator() {
            blocks.clear();
            blocks.extend(row.indices().iter().map(|&c| minv.block_of[c as usize]));
            blocks.sort_unstable();
            blocks.dedup();
            for &k in &blocks {
                let (o, s, block) = minv.block(k as usize);
                for r in 0..s {
                    let mut acc = 0.0;
                    for (&c, &v) in row.indices().iter().zip(row.data()) {
                        let c = c as usize;
                        if (o..o + s).contains(&c) {
                            acc += block[r * s + (c - o)] * v;
                        }
                    }
                    if acc != 0.0 {
                        indices.push((o + r) as u32);
                        values.push(acc);
                    }
                }
            }
            let start = *indptr.last().unwrap_or(&0);
            let wi = (&indices[start..], &values[start..]);
            diag.push(sparse_dot(row.indices(), row.data(), wi.0, wi.1));
            indptr.push(indices.len());
        }
        let w = SprsCsr::try_new((m, d), indptr, indices, values).map_err(|(_, _, _, e)| {
            LcpError::InvalidProblem { reason: format!("M^-1 J^T structure: {e}") }
        })?;
        Ok(ContactOperator { j, w, diag, scratch: Mutex::new(vec![0.0; d]) })
    }

    /// The Jacobian J.
    pub fn jacobian(&self) -> &SprsCsr {
        &self.j
    }

    /// A = J M⁻¹ Jᵀ assembled in CSR (exact zeros dropped). Costs O(m · nnz(J)) time with a
    /// dense accumulator of d entries: meant for direct sub-solves and checks on problems of up
    /// to a few thousand rows, not for the iteration itself.
    pub fn assemble(&self) -> CsrMatrix {
        let m = self.j.rows();
        let mut rows = Vec::with_capacity(m);
        let mut v = vec![0.0; self.j.cols()];
        for i in 0..m {
            let wi = self.w.outer_view(i).unwrap_or_else(|| unreachable!("row in range"));
            for (&c, &x) in wi.indices().iter().zip(wi.data()) {
                v[c as usize] = x;
            }
            let mut row = Vec::new();
            for k in 0..m {
                let jk = self.j.outer_view(k).unwrap_or_else(|| unreachable!("row in range"));
                let s: f64 = jk.indices().iter().zip(jk.data()).map(|(&c, &a)| a * v[c as usize]).sum();
                if s != 0.0 {
                    row.push((k, s));
                }
            }
            for &c in wi.indices() {
                v[c as usize] = 0.0;
            }
            rows.push(row);
        }
        CsrMatrix::from_rows(m, rows).unwrap_or_else(|_| unreachable!("finite, in range"))
    }

    fn accumulate_v(&self, x: &[f64], v: &mut [f64]) {
        v.fill(0.0);
        for (row, &xi) in self.w.outer_iterator().zip(x) {
            if xi != 0.0 {
                for (&c, &a) in row.indices().iter().zip(row.data()) {
                    v[c as usize] += xi * a;
                }
            }
        }
    }

    fn apply_with(&self, x: &[f64], y: &mut [f64], v: &mut [f64]) {
        self.accumulate_v(x, v);
        for (yi, row) in y.iter_mut().zip(self.j.outer_iterator()) {
            *yi = row.indices().iter().zip(row.data()).map(|(&c, &a)| a * v[c as usize]).sum();
        }
    }
}

fn sparse_dot(ia: &[u32], va: &[f64], ib: &[u32], vb: &[f64]) -> f64 {
    let (mut p, mut q, mut s) = (0, 0, 0.0);
    while p < ia.len() && q < ib.len() {
        match ia[p].cmp(&ib[q]) {
            std::cmp::Ordering::Less => p += 1,
            std::cmp::Ordering::Greater => q += 1,
            std::cmp::Ordering::Equal => {
                s += va[p] * vb[q];
                p += 1;
                q += 1;
            }
        }
    }
    s
}

impl LinearOperator for ContactOperator {
    fn dim(&self) -> usize {
        self.j.rows()
    }

    fn apply(&self, x: &[f64], y: &mut [f64]) {
        match self.scratch.try_lock() {
            Ok(mut v) => self.apply_with(x, y, &mut v),
            Err(_) => self.apply_with(x, y, &mut vec![0.0; self.j.cols()]),
        }
    }

    fn diagonal(&self, out: &mut [f64]) {
        out.copy_from_slice(&self.diag);
    }

    fn to_dense(&self) -> DenseMatrix {
        self.assemble().to_dense()
    }

    fn nnz_hint(&self) -> usize {
        self.j.nnz() + self.w.nnz()
    }
}

impl RowAccess for ContactOperator {
    type Aux = Vec<f64>;

    fn new_aux(&self) -> Vec<f64> {
        vec![0.0; self.j.cols()]
    }

    fn sync_aux(&self, x: &[f64], aux: &mut Vec<f64>) {
        self.accumulate_v(x, aux);
    }

    #[inline]
    fn row_dot(&self, i: usize, _x: &[f64], v: &Vec<f64>) -> f64 {
        let row = self.j.outer_view(i).unwrap_or_else(|| unreachable!("row in range"));
        row.indices().iter().zip(row.data()).map(|(&c, &a)| a * v[c as usize]).sum()
    }

    #[inline]
    fn update_aux(&self, i: usize, delta: f64, v: &mut Vec<f64>) {
        let row = self.w.outer_view(i).unwrap_or_else(|| unreachable!("row in range"));
        for (&c, &a) in row.indices().iter().zip(row.data()) {
            v[c as usize] += delta * a;
        }
    }

    fn is_symmetric(&self) -> bool {
        true
    }
}
