//! Dense PD(N) and Dense PSD(N, ratio) (spec §7.2; num4lcp's `make_pd_matrix` /
//! `make_psd_matrix`).
//!
//! A = O diag(d) Oᵀ, symmetrised, with O the orthonormal Q factor of a matrix with U[0, 1)
//! entries (modified Gram–Schmidt, applied twice for orthogonality to round-off) and
//! d = (1/N, 2/N, …, 1); PSD sets the first ⌊N·ratio⌋ entries of d to 0. PD(N) has
//! λ ∈ [1/N, 1] (condition number N); PSD(N, r) has exactly ⌊N r⌋ zero eigenvalues up to
//! round-off.

use rand::Rng;

use crate::error::LcpError;
use crate::operator::DenseMatrix;

/// Dense PD(N): symmetric positive definite with eigenvalues 1/N, 2/N, …, 1. `n ≥ 1`.
pub fn dense_pd<R: Rng + ?Sized>(n: usize, rng: &mut R) -> Result<DenseMatrix, LcpError> {
    dense_psd(n, 0.0, rng)
}

/// Dense PSD(N, ratio): as [`dense_pd`] with the ⌊N·ratio⌋ smallest eigenvalues set to 0.
/// `ratio ∈ [0, 1]`.
pub fn dense_psd<R: Rng + ?Sized>(n: usize, ratio: f64, rng: &mut R) -> Result<DenseMatrix, LcpError> {
    if n == 0 {
        return Err(LcpError::Empty);
    }
    if !(0.0..=1.0).contains(&ratio) {
        return Err(LcpError::InvalidSettings { field: "ratio", reason: "must be in [0, 1]" });
    }
    if n.checked_mul(n).is_none() {
        return Err(LcpError::InvalidSettings { field: "n", reason: "n² overflows" });
    }
    let zeros = (n as f64 * ratio).floor() as usize;
    let d: Vec<f64> = (0..n).map(|k| if k < zeros { 0.0 } else { (k + 1) as f64 / n as f64 }).collect();
    let q = random_orthonormal(n, rng);
    // A = Q diag(d) Qᵀ; q is stored column-major (column k at q[k·n..]).
    let mut a = vec![0.0; n * n];
    for (k, &dk) in d.iter().enumerate() {
        if dk == 0.0 {
            continue;
        }
        let col = &q[k * n..(k + 1) * n];
        for i in 0..n {
            let s = dk * col[i];
            let row = &mut a[i * n..(i + 1) * n];
            for (aij, &qj) in row.iter_mut().zip(col) {
                *aij += s * qj;
            }
        }
    }
    for i in 0..n {
        for j in 0..i {
            let s = 0.5 * (a[i * n + j] + a[j * n + i]);
            a[i * n + j] = s;
            a[j * n + i] = s;
        }
    }
    DenseMatrix::from_row_major(n, a)
}

/// An orthonormal basis (column-major n × n) from the QR factorisation of a uniform random
/// matrix, by twice-applied modified Gram–Schmidt. A column that collapses (probability 0)
/// is redrawn.
fn random_orthonormal<R: Rng + ?Sized>(n: usize, rng: &mut R) -> Vec<f64> {
    let mut q = vec![0.0; n * n];
    for v in q.iter_mut() {
        *v = rng.random::<f64>();
    }
    let mut k = 0;
    while k < n {
        let (done, rest) = q.split_at_mut(k * n);
        let col = &mut rest[..n];
        let norm0 = col.iter().map(|v| v * v).sum::<f64>().sqrt();
        for _pass in 0..2 {
            for prev in done.chunks_exact(n) {
                let dot: f64 = prev.iter().zip(col.iter()).map(|(a, b)| a * b).sum();
                col.iter_mut().zip(prev).for_each(|(c, p)| *c -= dot * p);
            }
        }
        let norm = col.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm <= 1e-8 * norm0 || norm == 0.0 {
            col.iter_mut().for_each(|v| *v = rng.random::<f64>());
            continue;
        }
        col.iter_mut().for_each(|v| *v /= norm);
        k += 1;
    }
    q
}
