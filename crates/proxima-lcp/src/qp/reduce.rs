//! QP → LCP with free-variable elimination (see the [module docs](super) for the derivation).
//!
//! With G = [D; A_eq; −A_eq], h = [e; b_eq; −b_eq], c the constrained and u the free indices,
//! and K = A_uu⁻¹:
//!
//! ```text
//! x_u = P x_c + Q y + r,   P = −K A_uc,   Q = K G_uᵀ,   r = −K b_u
//! M = [[A_cc + A_cu P, −(G_c + G_u P)ᵀ], [G_c + G_u P, G_u Q]],
//! q = [b_c + A_cu r; −(h − G_u r)].
//! ```
//!
//! Without free variables the products are empty and every entry of M and q is a copy (or an
//! exact negation) of the input, so M = [[A, −Gᵀ], [G, 0]], q = [b; −h] bit for bit.

use proxima_num::Field;

use super::ConvexQp;
use super::validate;
use crate::error::LcpError;
use crate::problem::Lcp;

/// The LCP of a [`ConvexQp`] after free-variable elimination, with what is needed to map an
/// LCP vector z = [x_c; y_D; y_eq⁺; y_eq⁻] back to the QP's x and multipliers.
#[derive(Debug, Clone, PartialEq)]
pub struct QpLcp<T> {
    lcp: Option<Lcp<T>>,
    n: usize,
    m: usize,
    p: usize,
    constrained: Vec<usize>,
    free: Vec<usize>,
    /// P, |u| × |c| row-major.
    p_mat: Vec<T>,
    /// Q, |u| × m' row-major.
    q_mat: Vec<T>,
    /// r, length |u|.
    r: Vec<T>,
    reduced_constant: T,
}

impl<T: Field> QpLcp<T> {
    /// The LCP(M, q) to solve, or `None` when it has no variables (every variable free and no
    /// constraints: the minimizer is then [`Self::recover_x`] of an empty z, i.e. −A⁻¹b).
    pub fn lcp(&self) -> Option<&Lcp<T>> {
        self.lcp.as_ref()
    }
    /// Size of the LCP: |c| + m + 2p.
    pub fn size(&self) -> usize {
        self.constrained.len() + self.m + 2 * self.p
    }
    /// Number of QP variables n.
    pub fn n(&self) -> usize {
        self.n
    }
    /// The constrained (x_i ≥ 0) variable indices, ascending: `z[k]` is `x[constrained[k]]` for
    /// k < |c|.
    pub fn constrained(&self) -> &[usize] {
        &self.constrained
    }
    /// The eliminated free variable indices, ascending.
    pub fn free(&self) -> &[usize] {
        &self.free
    }
    /// Position in z of the multiplier of inequality row `r` (y_r); the equality row `r` has
    /// y⁺ at [`Self::equality_offsets`]`.0 + r` and y⁻ at `.1 + r`.
    pub fn inequality_offset(&self) -> usize {
        self.constrained.len()
    }
    /// Positions in z of the first y⁺ and the first y⁻ of the equality rows.
    pub fn equality_offsets(&self) -> (usize, usize) {
        let base = self.constrained.len() + self.m;
        (base, base + self.p)
    }
    /// The constant c̃ = ½rᵀA_uu r + b_uᵀr + c of equation (10), r = −A_uu⁻¹b_u. When no
    /// constraint involves a free variable, f(x_c, x_u(x_c)) = ½x_cᵀÃx_c + b̃ᵀx_c + c̃ with Ã, b̃
    /// the top-left block of M and the top of q.
    pub fn reduced_constant(&self) -> &T {
        &self.reduced_constant
    }

    /// x from an LCP vector z (length [`Self::size`]): x_c = `z[..|c|]` and
    /// x_u = P x_c + Q y + r.
    ///
    /// # Panics
    /// If `z` does not have length [`Self::size`].
    #[track_caller]
    pub fn recover_x(&self, z: &[T]) -> Vec<T> {
        assert_eq!(z.len(), self.size(), "z must have the size of the reduced LCP");
        let nc = self.constrained.len();
        let ny = self.m + 2 * self.p;
        let (xc, y) = z.split_at(nc);
        let mut x = vec![T::zero(); self.n];
        for (k, &i) in self.constrained.iter().enumerate() {
            x[i] = xc[k].clone();
        }
        for (k, &i) in self.free.iter().enumerate() {
            let mut v = self.r[k].clone();
            for j in 0..nc {
                if !xc[j].is_zero() {
                    v.add_mul_assign(&self.p_mat[k * nc + j], &xc[j]);
                }
            }
            for j in 0..ny {
                if !y[j].is_zero() {
                    v.add_mul_assign(&self.q_mat[k * ny + j], &y[j]);
                }
            }
            x[i] = v;
        }
        x
    }

    /// The inequality multipliers y (length m) and the equality multipliers λ = y⁺ − y⁻
    /// (length p) from an LCP vector z.
    ///
    /// # Panics
    /// If `z` does not have length [`Self::size`].
    #[track_caller]
    pub fn recover_multipliers(&self, z: &[T]) -> (Vec<T>, Vec<T>) {
        assert_eq!(z.len(), self.size(), "z must have the size of the reduced LCP");
        let off = self.inequality_offset();
        let y = z[off..off + self.m].to_vec();
        let (plus, minus) = self.equality_offsets();
        let lambda = (0..self.p).map(|r| z[plus + r].sub(&z[minus + r])).collect();
        (y, lambda)
    }
}

/// Solves A X = B in place for a k × k row-major `a` and a k × cols row-major `rhs`
/// (overwritten by X), with the pivoting rule of [`crate::linalg`]. `false` when singular.
fn solve_multi<T: Field>(a: &mut [T], k: usize, rhs: &mut [T], cols: usize, tol: &T) -> bool {
    for col in 0..k {
        let mut pivot_row = None;
        let mut best = T::zero();
        for row in col..k {
            let v = a[row * k + col].abs();
            if v > *tol && (pivot_row.is_none() || (!T::EXACT && v > best)) {
                best = v;
                pivot_row = Some(row);
                if T::EXACT {
                    break;
                }
            }
        }
        let Some(pr) = pivot_row else { return false };
        if pr != col {
            for j in 0..k {
                a.swap(pr * k + j, col * k + j);
            }
            for j in 0..cols {
                rhs.swap(pr * cols + j, col * cols + j);
            }
        }
        let inv = a[col * k + col].recip();
        for row in col + 1..k {
            let factor = a[row * k + col].mul(&inv);
            if factor.is_zero() {
                continue;
            }
            let (upper, lower) = a.split_at_mut(row * k);
            for j in col..k {
                lower[j].sub_mul_assign(&factor, &upper[col * k + j]);
            }
            let (upper, lower) = rhs.split_at_mut(row * cols);
            for j in 0..cols {
                lower[j].sub_mul_assign(&factor, &upper[col * cols + j]);
            }
        }
    }
    for col in (0..k).rev() {
        let diag = a[col * k + col].clone();
        for j in 0..cols {
            let mut acc = rhs[col * cols + j].clone();
            for t in col + 1..k {
                acc.sub_mul_assign(&a[col * k + t], &rhs[t * cols + j]);
            }
            rhs[col * cols + j] = acc.div(&diag);
        }
    }
    true
}

impl<T: Field> ConvexQp<T> {
    /// The LCP of this QP after free-variable elimination, with the mapping back to x.
    ///
    /// Without free variables this is equation (2) of the reference with the equalities as
    /// two inequality rows: M = [[A, −Gᵀ], [G, 0]], q = [b; −h], G = [D; A_eq; −A_eq],
    /// h = [e; b_eq; −b_eq], each entry an exact copy or negation of the input.
    ///
    /// Errors: [`LcpError::InvalidProblem`] if A_uu turns out numerically singular (cannot
    /// happen for exact scalars, whose A_uu was checked positive definite by
    /// [`ConvexQp::with_free`]).
    pub fn to_lcp(&self) -> Result<QpLcp<T>, LcpError> {
        let n = self.n;
        let (g, h) = self.stacked_constraints();
        let mg = h.len();
        let free = self.free.clone();
        let constrained: Vec<usize> = (0..n).filter(|i| !self.is_free(*i)).collect();
        let (nc, nu) = (constrained.len(), free.len());
        let a = |i: usize, j: usize| &self.a[i * n + j];
        let gat = |r: usize, j: usize| &g[r * n + j];

        // K [A_uc | G_uᵀ | b_u] by one elimination of A_uu.
        let cols = nc + mg + 1;
        let mut kk: Vec<T> = Vec::with_capacity(nu * nu);
        let mut rhs: Vec<T> = Vec::with_capacity(nu * cols);
        for &i in &free {
            kk.extend(free.iter().map(|&j| a(i, j).clone()));
            rhs.extend(constrained.iter().map(|&j| a(i, j).clone()));
            rhs.extend((0..mg).map(|r| gat(r, i).clone()));
            rhs.push(self.b[i].clone());
        }
        if nu > 0 {
            let scale = kk.iter().fold(0.0f64, |acc, v| acc.max(v.to_f64().abs()));
            let tol = T::tolerance(validate::relative_tolerance::<T>(), scale);
            if !solve_multi(&mut kk, nu, &mut rhs, cols, &tol) {
                return Err(LcpError::InvalidProblem {
                    reason: "the block A_uu of the free variables is numerically singular".into(),
                });
            }
        }
        let mut p_mat = Vec::with_capacity(nu * nc);
        let mut q_mat = Vec::with_capacity(nu * mg);
        let mut r = Vec::with_capacity(nu);
        for k in 0..nu {
            let row = &rhs[k * cols..(k + 1) * cols];
            p_mat.extend(row[..nc].iter().map(T::neg));
            q_mat.extend(row[nc..nc + mg].iter().cloned());
            r.push(row[nc + mg].neg());
        }

        // Reduced blocks.
        let size = nc + mg;
        let mut mm = vec![T::zero(); size * size];
        let mut qq = Vec::with_capacity(size);
        // Ã = A_cc + A_cu P and b̃ = b_c + A_cu r.
        for (ci, &i) in constrained.iter().enumerate() {
            for (cj, &j) in constrained.iter().enumerate() {
                let mut v = a(i, j).clone();
                for (k, &u) in free.iter().enumerate() {
                    v.add_mul_assign(a(i, u), &p_mat[k * nc + cj]);
                }
                mm[ci * size + cj] = v;
            }
            let mut v = self.b[i].clone();
            for (k, &u) in free.iter().enumerate() {
                v.add_mul_assign(a(i, u), &r[k]);
            }
            qq.push(v);
        }
        // D̃ = G_c + G_u P (and −D̃ᵀ), S = G_u Q, ẽ = h − G_u r.
        for row in 0..mg {
            for (cj, &j) in constrained.iter().enumerate() {
                let mut v = gat(row, j).clone();
                for (k, &u) in free.iter().enumerate() {
                    v.add_mul_assign(gat(row, u), &p_mat[k * nc + cj]);
                }
                mm[cj * size + nc + row] = v.neg();
                mm[(nc + row) * size + cj] = v;
            }
            for col in 0..mg {
                let mut v = T::zero();
                for (k, &u) in free.iter().enumerate() {
                    v.add_mul_assign(gat(row, u), &q_mat[k * mg + col]);
                }
                mm[(nc + row) * size + nc + col] = v;
            }
            let mut v = h[row].clone();
            for (k, &u) in free.iter().enumerate() {
                v.sub_mul_assign(gat(row, u), &r[k]);
            }
            qq.push(v.neg());
        }

        // c̃ = ½ rᵀ A_uu r + b_uᵀ r + c.
        let mut quad = T::zero();
        for (k, &u) in free.iter().enumerate() {
            let mut row = T::zero();
            for (l, &w) in free.iter().enumerate() {
                row.add_mul_assign(a(u, w), &r[l]);
            }
            quad.add_mul_assign(&r[k], &row);
        }
        let mut reduced_constant = quad.div(&T::from_i64(2)).add(&self.c);
        for (k, &u) in free.iter().enumerate() {
            reduced_constant.add_mul_assign(&self.b[u], &r[k]);
        }

        let lcp = if size == 0 { None } else { Some(Lcp::new(mm, qq)?) };
        Ok(QpLcp {
            lcp,
            n,
            m: self.num_inequalities(),
            p: self.num_equalities(),
            constrained,
            free,
            p_mat,
            q_mat,
            r,
            reduced_constant,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_num::Rational;

    fn r(v: i64) -> Rational {
        Rational::from_integer(v)
    }
    fn rv(v: &[i64]) -> Vec<Rational> {
        v.iter().map(|&x| r(x)).collect()
    }

    /// Example 1 of the reference: the LCP is equation (11) (whose q₃ = −2 says the second
    /// constraint is x0 + 2x1 ≥ 2).
    #[test]
    fn example_1_lcp_matches_reference() {
        let qp = ConvexQp::linear(rv(&[2, -1]), r(0))
            .unwrap()
            .with_inequalities(rv(&[-1, -1, 1, 2]), rv(&[-3, 2]));
        let red = qp.unwrap().to_lcp().unwrap();
        let lcp = red.lcp().unwrap();
        assert_eq!(lcp.q(), rv(&[2, -1, 3, -2]).as_slice());
        assert_eq!(lcp.m(), rv(&[0, 0, 1, -1, 0, 0, 1, -2, -1, -1, 0, 0, 1, 2, 0, 0]).as_slice());
        assert_eq!(red.constrained(), &[0, 1]);
        assert_eq!(red.recover_x(&rv(&[0, 3, 1, 0])), rv(&[0, 3]));
    }

    /// Equalities become two rows with opposite signs; λ = y⁺ − y⁻.
    #[test]
    fn equalities_are_two_rows() {
        let qp = ConvexQp::linear(rv(&[1, 1]), r(0)).unwrap().with_equalities(rv(&[1, 2]), rv(&[4])).unwrap();
        let red = qp.to_lcp().unwrap();
        let lcp = red.lcp().unwrap();
        assert_eq!(lcp.q(), rv(&[1, 1, -4, 4]).as_slice());
        assert_eq!(lcp.m(), rv(&[0, 0, -1, 1, 0, 0, -2, 2, 1, 2, 0, 0, -1, -2, 0, 0]).as_slice());
        let (y, lambda) = red.recover_multipliers(&rv(&[0, 4, 2, 7]));
        assert!(y.is_empty());
        assert_eq!(lambda, rv(&[-5]));
    }

    /// A small deterministic generator (no external RNG in unit tests).
    struct Lcg(u64);
    impl Lcg {
        fn int(&mut self, lo: i64, hi: i64) -> i64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lo + ((self.0 >> 33) % ((hi - lo + 1) as u64)) as i64
        }
    }

    /// A random symmetric positive definite A = BᵀB + I (integers) and a random QP around it.
    fn random_qp(rng: &mut Lcg, n: usize, m: usize, p: usize, free: Vec<usize>) -> ConvexQp<Rational> {
        let bm: Vec<i64> = (0..n * n).map(|_| rng.int(-3, 3)).collect();
        let mut a = vec![r(0); n * n];
        for i in 0..n {
            for j in 0..n {
                let s: i64 = (0..n).map(|k| bm[k * n + i] * bm[k * n + j]).sum();
                a[i * n + j] = r(s + i64::from(i == j));
            }
        }
        let b = (0..n).map(|_| r(rng.int(-5, 5))).collect();
        let d = (0..m * n).map(|_| r(rng.int(-3, 3))).collect();
        let e = (0..m).map(|_| r(rng.int(-4, 4))).collect();
        let aeq = (0..p * n).map(|_| r(rng.int(-3, 3))).collect();
        let beq = (0..p).map(|_| r(rng.int(-4, 4))).collect();
        ConvexQp::new(a, b, r(rng.int(-2, 2)))
            .unwrap()
            .with_inequalities(d, e)
            .unwrap()
            .with_equalities(aeq, beq)
            .unwrap()
            .with_free(free)
            .unwrap()
    }

    /// For any (x_c, y), w = M z + q equals the KKT residuals of the original QP at the
    /// recovered x, and the free stationarity rows vanish: the elimination is exact algebra.
    #[test]
    fn reduced_lcp_reproduces_kkt_residuals() {
        let mut rng = Lcg(7);
        for trial in 0..30 {
            let n = 2 + trial % 4;
            let (m, p) = (trial % 3, trial % 2);
            let free: Vec<usize> = (0..n).filter(|i| (i + trial) % 3 == 0).collect();
            let qp = random_qp(&mut rng, n, m, p, free);
            let red = qp.to_lcp().unwrap();
            let k = red.size();
            let z: Vec<Rational> = (0..k).map(|_| r(rng.int(0, 4))).collect();
            let x = red.recover_x(&z);
            let (y, lambda) = red.recover_multipliers(&z);
            let mu = qp.stationarity(&x, &y, &lambda);
            let w = match red.lcp() {
                Some(lcp) => {
                    let mut w = vec![r(0); k];
                    lcp.view().compute_w(&z, &mut w);
                    w
                }
                None => Vec::new(),
            };
            for (ci, &i) in red.constrained().iter().enumerate() {
                assert_eq!(w[ci], mu[i], "trial {trial}: bound row {i}");
            }
            for &u in red.free() {
                assert_eq!(mu[u], r(0), "trial {trial}: free stationarity {u}");
            }
            // Constraint rows: v = G x − h.
            let (g, h) = qp.stacked_constraints();
            for row in 0..h.len() {
                let mut v = h[row].neg();
                for j in 0..n {
                    v.add_mul_assign(&g[row * n + j], &x[j]);
                }
                assert_eq!(w[red.inequality_offset() + row], v, "trial {trial}: constraint row {row}");
            }
        }
    }

    /// Section 1.4 without constraints on free variables: g(x_c) = f(x_c, x_u(x_c)) is the
    /// reduced quadratic ½x_cᵀÃx_c + b̃ᵀx_c + c̃.
    #[test]
    fn reduced_objective_matches_equation_10() {
        let mut rng = Lcg(11);
        for trial in 0..20 {
            let n = 2 + trial % 4;
            let free: Vec<usize> = (0..n).filter(|i| (i + trial) % 2 == 0).collect();
            let qp = random_qp(&mut rng, n, 0, 0, free);
            let red = qp.to_lcp().unwrap();
            let nc = red.size();
            let xc: Vec<Rational> = (0..nc).map(|_| r(rng.int(-3, 3))).collect();
            let x = red.recover_x(&xc);
            let g = match red.lcp() {
                Some(lcp) => {
                    let mut quad = r(0);
                    for i in 0..nc {
                        for j in 0..nc {
                            quad = quad + &lcp.m()[i * nc + j] * &xc[i] * &xc[j];
                        }
                    }
                    let lin: Rational = (0..nc).fold(r(0), |acc, i| acc + &lcp.q()[i] * &xc[i]);
                    quad / r(2) + lin + red.reduced_constant()
                }
                None => red.reduced_constant().clone(),
            };
            assert_eq!(g, qp.objective(&x), "trial {trial}");
        }
    }
}
