//! Linear operators y = A x for the iterative and Newton solvers.
//!
//! The physics solvers never need more of A than a few primitives: the product A x
//! ([`LinearOperator::apply`]), the diagonal (splitting methods, preconditioners) and, for
//! direct sub-solves, an assembled copy. A contact problem A = J M⁻¹ Jᵀ can therefore be
//! solved from J and M⁻¹ without forming A, and a fluid problem from its stencil.
//!
//! | type | storage | row access ([`RowAccess`]) |
//! |---|---|---|
//! | [`DenseMatrix`] | dense row-major | direct |
//! | [`CsrMatrix`] | CSR (`sprs`, `u32` column indices) | direct |
//! | [`DiaMatrix`] | diagonals (banded / grid stencils) | direct |
//! | [`ContactOperator`] | J (CSR) and a [`BlockDiagonal`] M⁻¹ | via v = M⁻¹Jᵀx |
//!
//! Edge cases: `apply` is called with slices of length [`LinearOperator::dim`]; implementors
//! may panic on other lengths (a programming error, not an input error: solvers check sizes
//! once and return [`LcpError::DimensionMismatch`](crate::LcpError) before iterating).

mod contact;
mod csr;
mod csr_sweep;
mod dense;
mod dia;
mod dia_sweep;
mod rows;

pub use contact::{BlockDiagonal, ContactOperator};
pub use csr::{CsrMatrix, SprsCsr};
pub use dense::DenseMatrix;
pub(crate) use dense::dot;
pub use dia::DiaMatrix;
pub use rows::RowAccess;

/// A square linear operator x ↦ A x on ℝⁿ.
pub trait LinearOperator {
    /// n, the number of rows and columns.
    fn dim(&self) -> usize;

    /// y ← A x (`x.len() == y.len() == dim()`).
    fn apply(&self, x: &[f64], y: &mut [f64]);

    /// The diagonal of A written into `out` (`out.len() == dim()`).
    ///
    /// The default probes A with unit vectors (n products); storage-backed operators override
    /// it with a direct read.
    fn diagonal(&self, out: &mut [f64]) {
        let n = self.dim();
        let mut e = vec![0.0; n];
        let mut col = vec![0.0; n];
        for i in 0..n {
            e[i] = 1.0;
            self.apply(&e, &mut col);
            out[i] = col[i];
            e[i] = 0.0;
        }
    }

    /// A dense row-major copy of A (n² entries).
    ///
    /// The default probes A with unit vectors; storage-backed operators override it.
    fn to_dense(&self) -> DenseMatrix {
        let n = self.dim();
        let mut data = vec![0.0; n * n];
        let mut e = vec![0.0; n];
        let mut col = vec![0.0; n];
        for j in 0..n {
            e[j] = 1.0;
            self.apply(&e, &mut col);
            for i in 0..n {
                data[i * n + j] = col[i];
            }
            e[j] = 0.0;
        }
        DenseMatrix::from_row_major_unchecked(n, data)
    }

    /// An upper bound on the number of stored entries touched by one `apply` (n² for dense);
    /// used for cost reports, never for correctness.
    fn nnz_hint(&self) -> usize {
        self.dim() * self.dim()
    }
}

impl<A: LinearOperator + ?Sized> LinearOperator for &A {
    fn dim(&self) -> usize {
        (**self).dim()
    }
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        (**self).apply(x, y)
    }
    fn diagonal(&self, out: &mut [f64]) {
        (**self).diagonal(out)
    }
    fn to_dense(&self) -> DenseMatrix {
        (**self).to_dense()
    }
    fn nnz_hint(&self) -> usize {
        (**self).nnz_hint()
    }
}
