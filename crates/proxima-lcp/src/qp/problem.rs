//! Construction (validated builders), accessors and evaluation of [`ConvexQp`].

use proxima_num::Field;

use super::ConvexQp;
use super::validate;
use crate::error::LcpError;

impl<T: Field> ConvexQp<T> {
    /// The objective ½xᵀAx + bᵀx + c with only x ≥ 0; A is n × n row-major.
    ///
    /// Errors: [`LcpError::Empty`] when `b` is empty, [`LcpError::DimensionMismatch`] when `a`
    /// does not hold n² entries, [`LcpError::NonFinite`] for NaN/∞ in A, b or c, and
    /// [`LcpError::InvalidProblem`] when A is not symmetric (see the module docs for the float
    /// tolerance). Positive semidefiniteness of A is the caller's promise.
    pub fn new(a: Vec<T>, b: Vec<T>, c: T) -> Result<Self, LcpError> {
        let n = b.len();
        if n == 0 {
            return Err(LcpError::Empty);
        }
        if a.len() != n * n {
            return Err(LcpError::DimensionMismatch {
                what: "A (n*n entries, row-major, n = len(b))",
                expected: n * n,
                found: a.len(),
            });
        }
        validate::finite(&a, "A")?;
        validate::finite(&b, "b")?;
        validate::finite(core::slice::from_ref(&c), "c")?;
        validate::symmetric(&a, n)?;
        Ok(Self {
            n,
            a,
            b,
            c,
            d: Vec::new(),
            e: Vec::new(),
            free: Vec::new(),
            aeq: Vec::new(),
            beq: Vec::new(),
        })
    }

    /// An LP: minimize bᵀx + c (A = 0).
    pub fn linear(b: Vec<T>, c: T) -> Result<Self, LcpError> {
        let n = b.len();
        Self::new(vec![T::zero(); n * n], b, c)
    }

    /// Adds D x ≥ e (D is m × n row-major, m = `e.len()`). Rows are appended to those of
    /// earlier calls; m = 0 is allowed and adds nothing.
    pub fn with_inequalities(mut self, d: Vec<T>, e: Vec<T>) -> Result<Self, LcpError> {
        let m = e.len();
        if d.len() != m * self.n {
            return Err(LcpError::DimensionMismatch {
                what: "D (m*n entries, row-major, m = len(e))",
                expected: m * self.n,
                found: d.len(),
            });
        }
        validate::finite(&d, "D")?;
        validate::finite(&e, "e")?;
        self.d.extend(d);
        self.e.extend(e);
        Ok(self)
    }

    /// Adds A_eq x = b_eq (A_eq is p × n row-major, p = `beq.len()`). Rows are appended to
    /// those of earlier calls; p = 0 is allowed and adds nothing.
    pub fn with_equalities(mut self, aeq: Vec<T>, beq: Vec<T>) -> Result<Self, LcpError> {
        let p = beq.len();
        if aeq.len() != p * self.n {
            return Err(LcpError::DimensionMismatch {
                what: "A_eq (p*n entries, row-major, p = len(b_eq))",
                expected: p * self.n,
                found: aeq.len(),
            });
        }
        validate::finite(&aeq, "A_eq")?;
        validate::finite(&beq, "b_eq")?;
        self.aeq.extend(aeq);
        self.beq.extend(beq);
        Ok(self)
    }

    /// Marks variables as free (no x_i ≥ 0 bound). Adds to the free set of earlier calls.
    ///
    /// Errors ([`LcpError::InvalidProblem`]): an index ≥ n, an index given twice (or already
    /// free), or a block A_uu of the free variables that is not positive definite.
    pub fn with_free(mut self, free: Vec<usize>) -> Result<Self, LcpError> {
        let mut all = self.free.clone();
        for &i in &free {
            if i >= self.n {
                return Err(LcpError::InvalidProblem {
                    reason: format!("free variable index {i} is out of range (n = {})", self.n),
                });
            }
            if all.contains(&i) {
                return Err(LcpError::InvalidProblem {
                    reason: format!("free variable index {i} is given twice"),
                });
            }
            all.push(i);
        }
        all.sort_unstable();
        validate::positive_definite_block(&self.a, self.n, &all)?;
        self.free = all;
        Ok(self)
    }

    /// Number of variables n.
    pub fn n(&self) -> usize {
        self.n
    }
    /// A, row-major n × n.
    pub fn a(&self) -> &[T] {
        &self.a
    }
    /// b (length n).
    pub fn b(&self) -> &[T] {
        &self.b
    }
    /// The constant c.
    pub fn c(&self) -> &T {
        &self.c
    }
    /// D, row-major m × n (empty without inequalities).
    pub fn d(&self) -> &[T] {
        &self.d
    }
    /// e (length m).
    pub fn e(&self) -> &[T] {
        &self.e
    }
    /// A_eq, row-major p × n (empty without equalities).
    pub fn aeq(&self) -> &[T] {
        &self.aeq
    }
    /// b_eq (length p).
    pub fn beq(&self) -> &[T] {
        &self.beq
    }
    /// The free variable indices, sorted ascending.
    pub fn free(&self) -> &[usize] {
        &self.free
    }
    /// `true` when variable `i` has no x_i ≥ 0 bound.
    pub fn is_free(&self, i: usize) -> bool {
        self.free.binary_search(&i).is_ok()
    }
    /// Number m of inequality rows D x ≥ e.
    pub fn num_inequalities(&self) -> usize {
        self.e.len()
    }
    /// Number p of equality rows A_eq x = b_eq.
    pub fn num_equalities(&self) -> usize {
        self.beq.len()
    }

    /// f(x) = ½xᵀAx + bᵀx + c, from the original data.
    ///
    /// # Panics
    /// If `x` does not have length n.
    #[track_caller]
    pub fn objective(&self, x: &[T]) -> T {
        assert_eq!(x.len(), self.n, "x must have length n");
        let half = T::one().div(&T::from_i64(2));
        let mut quad = T::zero();
        for i in 0..self.n {
            if x[i].is_zero() {
                continue;
            }
            let mut row = T::zero();
            for j in 0..self.n {
                row.add_mul_assign(&self.a[i * self.n + j], &x[j]);
            }
            quad.add_mul_assign(&x[i], &row);
        }
        let mut f = half.mul(&quad);
        for i in 0..self.n {
            f.add_mul_assign(&self.b[i], &x[i]);
        }
        f.add(&self.c)
    }

    /// The gradient residual A x + b − Dᵀy − A_eqᵀλ (the bound multipliers μ at a KKT point;
    /// zero in the free components).
    ///
    /// # Panics
    /// If the lengths are not x: n, y: m, λ: p.
    #[track_caller]
    pub fn stationarity(&self, x: &[T], y: &[T], lambda: &[T]) -> Vec<T> {
        let n = self.n;
        assert_eq!(x.len(), n, "x must have length n");
        assert_eq!(y.len(), self.num_inequalities(), "y must have length m");
        assert_eq!(lambda.len(), self.num_equalities(), "lambda must have length p");
        let mut g = self.b.clone();
        for i in 0..n {
            for j in 0..n {
                g[i].add_mul_assign(&self.a[i * n + j], &x[j]);
            }
        }
        for (r, yr) in y.iter().enumerate() {
            if !yr.is_zero() {
                for i in 0..n {
                    g[i].sub_mul_assign(&self.d[r * n + i], yr);
                }
            }
        }
        for (r, lr) in lambda.iter().enumerate() {
            if !lr.is_zero() {
                for i in 0..n {
                    g[i].sub_mul_assign(&self.aeq[r * n + i], lr);
                }
            }
        }
        g
    }

    /// The constraint rows as one block G x ≥ h, G = [D; A_eq; −A_eq], h = [e; b_eq; −b_eq].
    pub(super) fn stacked_constraints(&self) -> (Vec<T>, Vec<T>) {
        let mut g = Vec::with_capacity(self.d.len() + 2 * self.aeq.len());
        g.extend(self.d.iter().cloned());
        g.extend(self.aeq.iter().cloned());
        g.extend(self.aeq.iter().map(T::neg));
        let mut h = Vec::with_capacity(self.e.len() + 2 * self.beq.len());
        h.extend(self.e.iter().cloned());
        h.extend(self.beq.iter().cloned());
        h.extend(self.beq.iter().map(T::neg));
        (g, h)
    }
}
