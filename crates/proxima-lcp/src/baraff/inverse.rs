//! The explicit inverse of the principal submatrix A_𝒞𝒞, updated by bordering.
//!
//! # The maths
//!
//! With G = P⁻¹ for P = A_𝒞𝒞 and a new index j (column c = A_𝒞j, row r = A_j𝒞, d = A_jj):
//!
//! ```text
//! u = G c,  v = r G,  s = d − r u           (s: Schur complement of P in the bordered matrix)
//! [P c; r d]⁻¹ = [G + u v / s,  −u / s;  −v / s,  1 / s]
//! ```
//!
//! Removing the index at position p: permute it last, write the inverse of the bordered matrix
//! as [G₁₁ g₁₂; g₂₁ g₂₂]; then P⁻¹ = G₁₁ − g₁₂ g₂₁ / g₂₂. Both updates cost O(k²).
//!
//! # Accuracy guard
//!
//! Rank-one updates accumulate round-off, so the caller refactors from scratch (Gauss–Jordan
//! with partial pivoting, O(k³)) every `refactor_interval` updates or when a solve's residual
//! is too large. A Schur complement |s| ≤ tolerance (or a removal pivot |g₂₂| that small)
//! means A_𝒞𝒞 is numerically singular: [`Singular`].

use crate::operator::DenseMatrix;

/// A_𝒞𝒞 is (numerically) singular.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Singular;

/// G = A_𝒞𝒞⁻¹ for an ordered index list 𝒞, stored with row stride n.
#[derive(Debug, Clone)]
pub(crate) struct IncrementalInverse {
    n: usize,
    /// The ordered indices of 𝒞 (position in G ↔ index of A).
    pub(crate) indices: Vec<usize>,
    inv: Vec<f64>,
    u: Vec<f64>,
    v: Vec<f64>,
    /// Rank-one updates since the last refactorization.
    pub(crate) updates_since_refactor: usize,
    /// Refactorizations performed.
    pub(crate) refactorizations: usize,
}

impl IncrementalInverse {
    pub(crate) fn new(n: usize) -> Self {
        IncrementalInverse {
            n,
            indices: Vec::with_capacity(n),
            inv: vec![0.0; n * n],
            u: vec![0.0; n],
            v: vec![0.0; n],
            updates_since_refactor: 0,
            refactorizations: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.indices.len()
    }

    fn at(&self, r: usize, c: usize) -> f64 {
        self.inv[r * self.n + c]
    }

    /// out[p] = Σ_q G[p, q] rhs[q] for the k positions.
    pub(crate) fn apply(&self, rhs: &[f64], out: &mut [f64]) {
        let k = self.len();
        for (p, o) in out[..k].iter_mut().enumerate() {
            *o = crate::operator::dot(&self.inv[p * self.n..p * self.n + k], &rhs[..k]);
        }
    }

    /// Adds index j (bordering). `tolerance` is the absolute Schur-complement threshold.
    pub(crate) fn push(&mut self, a: &DenseMatrix, j: usize, tolerance: f64) -> Result<(), Singular> {
        let k = self.len();
        let n = self.n;
        // c = A_𝒞j and r = A_j𝒞 gathered once (c into v's buffer for now, r into a row of
        // scratch), then u = G c row by row and v = r G as a sum of rows of G (contiguous).
        let row_j = a.row(j);
        for (q, &cq) in self.indices.iter().enumerate() {
            self.v[q] = a.get(cq, j);
        }
        for p in 0..k {
            self.u[p] = crate::operator::dot(&self.inv[p * n..p * n + k], &self.v[..k]);
        }
        self.v[..k].iter_mut().for_each(|v| *v = 0.0);
        for (q, &cq) in self.indices.iter().enumerate() {
            let rq = row_j[cq];
            if rq != 0.0 {
                for (vp, g) in self.v[..k].iter_mut().zip(&self.inv[q * n..q * n + k]) {
                    *vp += rq * g;
                }
            }
        }
        let s =
            a.get(j, j) - self.indices.iter().zip(&self.u[..k]).map(|(&cq, u)| row_j[cq] * u).sum::<f64>();
        if s.abs() <= tolerance || s.is_nan() {
            return Err(Singular);
        }
        for p in 0..k {
            let up = self.u[p] / s;
            for (g, vq) in self.inv[p * n..p * n + k].iter_mut().zip(&self.v[..k]) {
                *g += up * vq;
            }
            self.inv[p * n + k] = -up;
            self.inv[k * n + p] = -self.v[p] / s;
        }
        self.inv[k * n + k] = 1.0 / s;
        self.indices.push(j);
        self.updates_since_refactor += 1;
        Ok(())
    }

    /// Removes the index at position `pos` (its order is replaced by the last index).
    pub(crate) fn remove(&mut self, pos: usize, tolerance: f64) -> Result<(), Singular> {
        let k = self.len();
        let n = self.n;
        let last = k - 1;
        if pos != last {
            for c in 0..k {
                self.inv.swap(pos * n + c, last * n + c);
            }
            for r in 0..k {
                self.inv.swap(r * n + pos, r * n + last);
            }
            self.indices.swap(pos, last);
        }
        let g22 = self.at(last, last);
        if g22.abs() <= tolerance || g22.is_nan() {
            return Err(Singular);
        }
        for p in 0..last {
            let gp = self.at(p, last) / g22;
            for q in 0..last {
                self.inv[p * n + q] -= gp * self.inv[last * n + q];
            }
        }
        self.indices.pop();
        self.updates_since_refactor += 1;
        Ok(())
    }

    /// Recomputes G from A_𝒞𝒞 by Gauss–Jordan elimination with partial pivoting. A pivot of
    /// magnitude ≤ `tolerance` means singular.
    pub(crate) fn refactor(&mut self, a: &DenseMatrix, tolerance: f64) -> Result<(), Singular> {
        let k = self.len();
        let n = self.n;
        self.refactorizations += 1;
        self.updates_since_refactor = 0;
        // Work on [A_𝒞𝒞 | I] in a k × 2k scratch.
        let w = 2 * k;
        let mut m = vec![0.0; k * w];
        for p in 0..k {
            for q in 0..k {
                m[p * w + q] = a.get(self.indices[p], self.indices[q]);
            }
            m[p * w + k + p] = 1.0;
        }
        for col in 0..k {
            let piv = (col..k)
                .max_by(|&x, &y| m[x * w + col].abs().total_cmp(&m[y * w + col].abs()))
                .unwrap_or(col);
            if m[piv * w + col].abs() <= tolerance || m[piv * w + col].is_nan() {
                return Err(Singular);
            }
            if piv != col {
                for c in 0..w {
                    m.swap(piv * w + c, col * w + c);
                }
            }
            let inv_p = 1.0 / m[col * w + col];
            for c in 0..w {
                m[col * w + c] *= inv_p;
            }
            for r in 0..k {
                if r == col {
                    continue;
                }
                let f = m[r * w + col];
                if f == 0.0 {
                    continue;
                }
                for c in 0..w {
                    m[r * w + c] -= f * m[col * w + c];
                }
            }
        }
        for p in 0..k {
            self.inv[p * n..p * n + k].copy_from_slice(&m[p * w + k..p * w + w]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(n: usize, seed: u64) -> DenseMatrix {
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        let mut d: Vec<f64> = (0..n * n).map(|_| next()).collect();
        for i in 0..n {
            d[i * n + i] += n as f64;
        }
        DenseMatrix::from_row_major(n, d).unwrap()
    }

    fn max_error(inv: &IncrementalInverse, a: &DenseMatrix) -> f64 {
        let k = inv.len();
        let mut worst: f64 = 0.0;
        for p in 0..k {
            for q in 0..k {
                let v: f64 = (0..k).map(|l| inv.at(p, l) * a.get(inv.indices[l], inv.indices[q])).sum();
                worst = worst.max((v - if p == q { 1.0 } else { 0.0 }).abs());
            }
        }
        worst
    }

    #[test]
    fn bordering_add_and_remove_match_a_fresh_inverse() {
        let a = matrix(8, 3);
        let mut g = IncrementalInverse::new(8);
        for j in [3, 0, 7, 5, 1] {
            g.push(&a, j, 1e-14).unwrap();
            assert!(max_error(&g, &a) < 1e-12);
        }
        g.remove(1, 1e-14).unwrap();
        assert!(!g.indices.contains(&0));
        assert!(max_error(&g, &a) < 1e-12);
        g.remove(0, 1e-14).unwrap();
        g.push(&a, 2, 1e-14).unwrap();
        assert!(max_error(&g, &a) < 1e-12);
        g.refactor(&a, 1e-14).unwrap();
        assert!(max_error(&g, &a) < 1e-13);
    }

    #[test]
    fn singular_border_is_reported() {
        let a = DenseMatrix::from_row_major(2, vec![1.0, 2.0, 2.0, 4.0]).unwrap();
        let mut g = IncrementalInverse::new(2);
        g.push(&a, 0, 1e-12).unwrap();
        assert_eq!(g.push(&a, 1, 1e-12), Err(Singular));
    }
}
