//! Dense kernels of the active-set method: orthonormal bases (modified Gram–Schmidt) and the
//! symmetric eigen-decomposition (cyclic Jacobi) used to solve the semidefinite reduced system.

use super::problem::dot;

/// Orthonormalizes `rows` (each of length n) in order by modified Gram–Schmidt with one
/// re-orthogonalization pass; a row whose remainder has norm ≤ `tol` × its norm is dependent
/// and dropped. Returns the orthonormal rows and, per input row, whether it was kept.
pub(super) fn orthonormalize(rows: &[&[f64]], tol: f64) -> (Vec<Vec<f64>>, Vec<bool>) {
    let mut q: Vec<Vec<f64>> = Vec::new();
    let mut kept = Vec::with_capacity(rows.len());
    for r in rows {
        let norm0 = dot(r, r).sqrt();
        let mut v = r.to_vec();
        for _ in 0..2 {
            for qk in &q {
                let p = dot(qk, &v);
                v.iter_mut().zip(qk).for_each(|(vi, qi)| *vi -= p * qi);
            }
        }
        let norm = dot(&v, &v).sqrt();
        if norm0 > 0.0 && norm > tol * norm0 {
            v.iter_mut().for_each(|vi| *vi /= norm);
            q.push(v);
            kept.push(true);
        } else {
            kept.push(false);
        }
    }
    (q, kept)
}

/// An orthonormal basis of the complement of span(`q`) (q orthonormal, vectors of length n).
pub(super) fn complement(q: &[Vec<f64>], n: usize) -> Vec<Vec<f64>> {
    let mut all: Vec<Vec<f64>> = q.to_vec();
    let mut z = Vec::new();
    for i in 0..n {
        if all.len() == n {
            break;
        }
        let mut e = vec![0.0; n];
        e[i] = 1.0;
        for _ in 0..2 {
            for qk in &all {
                let p = dot(qk, &e);
                e.iter_mut().zip(qk).for_each(|(vi, qi)| *vi -= p * qi);
            }
        }
        let norm = dot(&e, &e).sqrt();
        if norm > 1e-8 {
            e.iter_mut().for_each(|vi| *vi /= norm);
            all.push(e.clone());
            z.push(e);
        }
    }
    z
}

/// Eigen-decomposition of a symmetric k × k matrix (row-major) by cyclic Jacobi rotations:
/// returns (eigenvalues, eigenvectors as columns of a row-major k × k matrix).
pub(super) fn symmetric_eigen(mut a: Vec<f64>, k: usize) -> (Vec<f64>, Vec<f64>) {
    let mut v = vec![0.0; k * k];
    for i in 0..k {
        v[i * k + i] = 1.0;
    }
    for _sweep in 0..100 {
        let off: f64 = (0..k)
            .flat_map(|i| (0..k).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * k + j].powi(2))
            .sum();
        let total: f64 = a.iter().map(|x| x * x).sum();
        if off <= 1e-30 * total.max(f64::MIN_POSITIVE) {
            break;
        }
        for p in 0..k {
            for q in p + 1..k {
                let apq = a[p * k + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[q * k + q] - a[p * k + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for r in 0..k {
                    let (arp, arq) = (a[r * k + p], a[r * k + q]);
                    a[r * k + p] = c * arp - s * arq;
                    a[r * k + q] = s * arp + c * arq;
                }
                for r in 0..k {
                    let (apr, aqr) = (a[p * k + r], a[q * k + r]);
                    a[p * k + r] = c * apr - s * aqr;
                    a[q * k + r] = s * apr + c * aqr;
                }
                for r in 0..k {
                    let (vrp, vrq) = (v[r * k + p], v[r * k + q]);
                    v[r * k + p] = c * vrp - s * vrq;
                    v[r * k + q] = s * vrp + c * vrq;
                }
            }
        }
    }
    ((0..k).map(|i| a[i * k + i]).collect(), v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_reconstructs_a_symmetric_matrix() {
        let a = vec![4.0, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 1.0];
        let (w, v) = symmetric_eigen(a.clone(), 3);
        for i in 0..3 {
            for j in 0..3 {
                let r: f64 = (0..3).map(|l| v[i * 3 + l] * w[l] * v[j * 3 + l]).sum();
                assert!((r - a[i * 3 + j]).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn gram_schmidt_drops_dependent_rows_and_complements() {
        let r0 = [1.0, 1.0, 0.0];
        let r1 = [2.0, 2.0, 0.0];
        let r2 = [0.0, 1.0, 1.0];
        let (q, kept) = orthonormalize(&[&r0, &r1, &r2], 1e-10);
        assert_eq!(kept, vec![true, false, true]);
        let z = complement(&q, 3);
        assert_eq!(z.len(), 1);
        assert!(dot(&z[0], &r0).abs() < 1e-14 && dot(&z[0], &r2).abs() < 1e-14);
    }
}
