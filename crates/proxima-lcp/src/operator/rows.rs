//! Row access for Gauss–Seidel-type sweeps.
//!
//! A projected Gauss–Seidel sweep needs, for i = 1..n in order, the row product A_{i*} x with
//! the partially updated x, and then changes x_i alone. Stored matrices read row i directly
//! (O(nnz of row i)). A matrix-free contact operator A = J M⁻¹ Jᵀ keeps the auxiliary vector
//! v = M⁻¹ Jᵀ x: then A_{i*} x = J_i v, and a change δ of x_i updates v ← v + δ · M⁻¹ J_iᵀ, so
//! a row costs O(nnz of J_i plus its M⁻¹ fill) instead of a product with all of A.
//!
//! Protocol: [`RowAccess::new_aux`] once, [`RowAccess::sync_aux`] whenever x was changed other
//! than through [`RowAccess::update_aux`] (start of a solve), then per component
//! `row_dot` → change x_i by δ → `update_aux(i, δ)`.

use super::{CsrMatrix, DenseMatrix, LinearOperator};

/// Row-wise access to A for splitting methods (see the module docs).
pub trait RowAccess: LinearOperator {
    /// Auxiliary state kept consistent with x (`()` for stored matrices).
    type Aux;

    /// A fresh auxiliary state (allocates; call once per solve).
    fn new_aux(&self) -> Self::Aux;

    /// Recomputes the auxiliary state from x.
    fn sync_aux(&self, x: &[f64], aux: &mut Self::Aux);

    /// A_{i*} x, given an auxiliary state consistent with x.
    fn row_dot(&self, i: usize, x: &[f64], aux: &Self::Aux) -> f64;

    /// Records that x_i changed by `delta` (after the change).
    fn update_aux(&self, i: usize, delta: f64, aux: &mut Self::Aux);

    /// `true` when A = Aᵀ (exactly for stored matrices; by construction for J M⁻¹ Jᵀ).
    fn is_symmetric(&self) -> bool;

    /// One projected Gauss–Seidel / SOR sweep, i = 0..n in order:
    /// x_i ← max(0, x_i − ω (A_{i*}x + b_i)/A_ii) with `inv_diag[i]` = 1/A_ii; returns
    /// max_i |Δx_i|. Allocation-free.
    ///
    /// The default uses [`RowAccess::row_dot`]; a storage type may override it with a faster
    /// kernel computing the same update in another rounding order (CSR does, to take the
    /// just-updated neighbour x_{i−1} off the sum's dependency chain).
    fn sweep(&self, b: &[f64], x: &mut [f64], aux: &mut Self::Aux, inv_diag: &[f64], omega: f64) -> f64 {
        let mut max_change = 0.0f64;
        for i in 0..x.len() {
            let r = self.row_dot(i, x, aux) + b[i];
            let old = x[i];
            let trial = old - omega * r * inv_diag[i];
            let new = if trial > 0.0 { trial } else { 0.0 };
            let step = new - old;
            if step != 0.0 {
                x[i] = new;
                self.update_aux(i, step, aux);
            }
            max_change = max_change.max(step.abs());
        }
        max_change
    }
}

impl RowAccess for DenseMatrix {
    type Aux = ();
    fn new_aux(&self) {}
    fn sync_aux(&self, _x: &[f64], _aux: &mut ()) {}
    #[inline]
    fn row_dot(&self, i: usize, x: &[f64], _aux: &()) -> f64 {
        super::dense::dot(self.row(i), x)
    }
    #[inline]
    fn update_aux(&self, _i: usize, _delta: f64, _aux: &mut ()) {}
    fn is_symmetric(&self) -> bool {
        DenseMatrix::is_symmetric(self)
    }
}

impl RowAccess for CsrMatrix {
    type Aux = ();
    fn new_aux(&self) {}
    fn sync_aux(&self, _x: &[f64], _aux: &mut ()) {}
    #[inline]
    fn row_dot(&self, i: usize, x: &[f64], _aux: &()) -> f64 {
        let (cols, vals) = self.row(i);
        cols.iter().zip(vals).map(|(&j, &a)| a * x[j as usize]).sum()
    }
    #[inline]
    fn update_aux(&self, _i: usize, _delta: f64, _aux: &mut ()) {}
    fn is_symmetric(&self) -> bool {
        CsrMatrix::is_symmetric(self)
    }

    /// The CSR kernel (`operator::csr_sweep`): per row, r = s + a_{i,i−1} x_{i−1} where s
    /// collects b_i and every other entry (all known before x_{i−1} is updated); the update
    /// is evaluated as max(0, (x_i − c s) − (c a_{i,i−1}) x_{i−1}) with c = ω/A_ii, so only
    /// one multiply and one subtraction wait for the previous row.
    fn sweep(&self, b: &[f64], x: &mut [f64], _aux: &mut (), inv_diag: &[f64], omega: f64) -> f64 {
        super::csr_sweep::sweep(self, b, x, inv_diag, omega)
    }
}

impl<A: RowAccess + ?Sized> RowAccess for &A {
    type Aux = A::Aux;
    fn new_aux(&self) -> A::Aux {
        (**self).new_aux()
    }
    fn sync_aux(&self, x: &[f64], aux: &mut A::Aux) {
        (**self).sync_aux(x, aux)
    }
    #[inline]
    fn row_dot(&self, i: usize, x: &[f64], aux: &A::Aux) -> f64 {
        (**self).row_dot(i, x, aux)
    }
    #[inline]
    fn update_aux(&self, i: usize, delta: f64, aux: &mut A::Aux) {
        (**self).update_aux(i, delta, aux)
    }
    fn is_symmetric(&self) -> bool {
        (**self).is_symmetric()
    }
    fn sweep(&self, b: &[f64], x: &mut [f64], aux: &mut A::Aux, inv_diag: &[f64], omega: f64) -> f64 {
        (**self).sweep(b, x, aux, inv_diag, omega)
    }
}
