//! Contact(K_c) (spec §7.2, \[H\]; num4lcp's `make_contact_matrix`): the synthetic
//! Stewart–Trinkle fill pattern with K = 4 friction directions, blocks of 6 per contact
//! (normal, 4 tangents, β_c), N = 6 K_c.
//!
//! R ~ U[0, 1]^{N×N}, A = (R + Rᵀ)/2; every 6×6 block (I, J) whose entry at the block centres
//! A[6I + 3, 6J + 3] exceeds 0.5 is zeroed (≈ 50 % fill); if λ_min(A) ≤ 0, A ← A + (0.5 −
//! λ_min) I. Then for every block pair with A[6I, 6J] ≠ 0: A[6I+5, 6J] = µ = 0.5,
//! A[6I+5, 6J+5] = 0, A[6I, 6J+5] = 0, A[6I+5, 6J+1..=6J+4] = −1 (−eᵀ),
//! A[6I+1..=6I+4, 6J+5] = 1 (e). The result is non-symmetric with a zero (β, β) diagonal entry
//! in every diagonal block (the diagonal blocks are never zero after the shift), so splitting
//! methods must refuse it.

use rand::Rng;

use super::eig::SymBand;
use crate::error::LcpError;
use crate::operator::{CsrMatrix, DenseMatrix};

/// Contact(K_c): the matrix and how it was made.
#[derive(Debug, Clone)]
pub struct ContactBlocks {
    /// The N × N matrix, N = 6 K_c.
    pub matrix: CsrMatrix,
    /// λ_min of the symmetric matrix before the shift (lower bound within ~1e-15 relative).
    pub lambda_min_before: f64,
    /// The diagonal shift (0 when λ_min was already positive).
    pub shift: f64,
}

/// The friction coefficient the generator writes (num4lcp's value).
pub const CONTACT_MU: f64 = 0.5;

/// Contact(K_c) of spec §7.2 with `k_c ≥ 1` contacts.
pub fn contact_blocks<R: Rng + ?Sized>(k_c: usize, rng: &mut R) -> Result<ContactBlocks, LcpError> {
    if k_c == 0 {
        return Err(LcpError::InvalidSettings { field: "k_c", reason: "need at least one contact" });
    }
    let n = k_c
        .checked_mul(6)
        .filter(|n| n.checked_mul(*n).is_some())
        .ok_or(LcpError::InvalidSettings { field: "k_c", reason: "too many contacts" })?;
    let mut r = vec![0.0; n * n];
    r.iter_mut().for_each(|v| *v = rng.random::<f64>());
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = 0.5 * (r[i * n + j] + r[j * n + i]);
        }
    }
    for bi in 0..k_c {
        for bj in 0..k_c {
            if a[(6 * bi + 3) * n + 6 * bj + 3] > 0.5 {
                for i in 6 * bi..6 * bi + 6 {
                    a[i * n + 6 * bj..i * n + 6 * bj + 6].fill(0.0);
                }
            }
        }
    }
    let mut band = SymBand::zeros(n, n - 1);
    for i in 0..n {
        for j in 0..=i {
            band.set(i, j, a[i * n + j]);
        }
    }
    let lambda_min_before = band.lambda_min_lower();
    let shift = if lambda_min_before <= 0.0 { 0.5 - lambda_min_before } else { 0.0 };
    for i in 0..n {
        a[i * n + i] += shift;
    }
    for bi in 0..k_c {
        for bj in 0..k_c {
            let (i, j) = (6 * bi, 6 * bj);
            if a[i * n + j] != 0.0 {
                a[(i + 5) * n + j] = CONTACT_MU;
                a[(i + 5) * n + j + 5] = 0.0;
                a[i * n + j + 5] = 0.0;
                for k in 1..=4 {
                    a[(i + 5) * n + j + k] = -1.0;
                    a[(i + k) * n + j + 5] = 1.0;
                }
            }
        }
    }
    let dense = DenseMatrix::from_row_major(n, a)?;
    Ok(ContactBlocks { matrix: CsrMatrix::from_dense(&dense), lambda_min_before, shift })
}
