//! The smallest eigenvalue of a symmetric banded matrix, by bisection on Cholesky success.
//!
//! For symmetric A, A − σI is positive definite iff σ < λ_min(A), and a Cholesky
//! factorisation succeeds (all pivots > 0) exactly then, up to round-off of order
//! ε·‖A‖ near the boundary. Bisection between a Gershgorin lower bound (Cholesky succeeds) and
//! min A_ii (Cholesky fails: λ_min ≤ min A_ii) brackets λ_min; the returned value is the last
//! σ for which the factorisation succeeded, so shifting by `0.5 − σ` gives λ_min ≥ 0.5 up to
//! that round-off. Cost per probe: O(n p²) for bandwidth p (p = n − 1 for dense matrices).

/// A symmetric matrix stored as its lower band: row i holds A[i, i−p ..= i] (entries left of
/// column 0 are ignored).
#[derive(Debug, Clone)]
pub(crate) struct SymBand {
    n: usize,
    p: usize,
    band: Vec<f64>,
}

impl SymBand {
    pub(crate) fn zeros(n: usize, p: usize) -> Self {
        SymBand { n, p, band: vec![0.0; n * (p + 1)] }
    }

    /// Sets A[i, j] (and by symmetry A[j, i]); requires |i − j| ≤ p.
    pub(crate) fn set(&mut self, i: usize, j: usize, v: f64) {
        let (i, j) = if i >= j { (i, j) } else { (j, i) };
        debug_assert!(i - j <= self.p);
        self.band[i * (self.p + 1) + (j + self.p - i)] = v;
    }

    fn get(&self, i: usize, j: usize) -> f64 {
        self.band[i * (self.p + 1) + (j + self.p - i)]
    }

    /// `true` when the Cholesky factorisation of A − σI has only positive pivots.
    fn cholesky_succeeds(&self, sigma: f64, l: &mut [f64]) -> bool {
        let (n, p) = (self.n, self.p);
        let w = p + 1;
        for i in 0..n {
            let j0 = i.saturating_sub(p);
            for j in j0..=i {
                let mut s = self.get(i, j) - if i == j { sigma } else { 0.0 };
                let k0 = j0.max(j.saturating_sub(p));
                for k in k0..j {
                    s -= l[i * w + (k + p - i)] * l[j * w + (k + p - j)];
                }
                if i == j {
                    if s <= 0.0 || !s.is_finite() {
                        return false;
                    }
                    l[i * w + p] = s.sqrt();
                } else {
                    l[i * w + (j + p - i)] = s / l[j * w + p];
                }
            }
        }
        true
    }

    /// A lower bound σ on λ_min with A − σI numerically positive definite, within
    /// ~8ε·max(1, ‖A‖∞) of λ_min.
    pub(crate) fn lambda_min_lower(&self) -> f64 {
        let (n, p) = (self.n, self.p);
        let mut gersh_lo = f64::INFINITY;
        let mut min_diag = f64::INFINITY;
        let mut norm = 0.0f64;
        for i in 0..n {
            let mut off = 0.0;
            for j in i.saturating_sub(p)..(i + p + 1).min(n) {
                if j != i {
                    off += self.get(i.max(j), i.min(j)).abs();
                }
            }
            let d = self.get(i, i);
            gersh_lo = gersh_lo.min(d - off);
            min_diag = min_diag.min(d);
            norm = norm.max(d.abs() + off);
        }
        let scale = norm.max(1.0);
        let mut l = vec![0.0; n * (p + 1)];
        let mut lo = gersh_lo - 1e-6 * scale;
        while !self.cholesky_succeeds(lo, &mut l) {
            lo -= scale;
        }
        let mut hi = min_diag + 1e-12 * scale;
        while self.cholesky_succeeds(hi, &mut l) {
            hi += 1e-6 * scale;
        }
        while hi - lo > 8.0 * f64::EPSILON * scale {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if self.cholesky_succeeds(mid, &mut l) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tridiagonal_laplacian_lambda_min() {
        // tridiag(−1, 2, −1) of size n: λ_min = 2 − 2 cos(π/(n+1)).
        let n = 20;
        let mut a = SymBand::zeros(n, 1);
        for i in 0..n {
            a.set(i, i, 2.0);
            if i > 0 {
                a.set(i, i - 1, -1.0);
            }
        }
        let exact = 2.0 - 2.0 * (std::f64::consts::PI / (n as f64 + 1.0)).cos();
        let got = a.lambda_min_lower();
        assert!(got <= exact + 1e-13 && got > exact - 1e-12, "{got} vs {exact}");
    }

    #[test]
    fn indefinite_dense_lambda_min() {
        // [[0, 1], [1, 0]] has eigenvalues ±1.
        let mut a = SymBand::zeros(2, 1);
        a.set(1, 0, 1.0);
        let got = a.lambda_min_lower();
        assert!((got + 1.0).abs() < 1e-13, "{got}");
    }
}
