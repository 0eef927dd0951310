//! The LP data type [`Lp`] and its validated constructors.

use proxima_num::Field;

use crate::error::LcpError;

/// Which constraint form the user gave (the solver always works on the standard form).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LpForm {
    /// A x = b.
    Equality,
    /// A x ≤ b (one slack column per row is added internally).
    Inequality,
}

/// A linear program: minimize cᵀx subject to A x = b (or A x ≤ b), x ≥ 0.
///
/// A is m × n (m ≥ 0 rows, n ≥ 1 variables), stored row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Lp<T> {
    pub(super) m: usize,
    pub(super) n: usize,
    pub(super) a: Vec<T>,
    pub(super) b: Vec<T>,
    pub(super) c: Vec<T>,
    pub(super) form: LpForm,
}

fn flatten<T: Field>(rows: Vec<Vec<T>>, n: usize) -> Result<Vec<T>, LcpError> {
    let mut a = Vec::with_capacity(rows.len() * n);
    for row in rows {
        if row.len() != n {
            return Err(LcpError::DimensionMismatch {
                what: "A row (n = len(c))",
                expected: n,
                found: row.len(),
            });
        }
        a.extend(row);
    }
    Ok(a)
}

fn finite<T: Field>(values: &[T], what: &'static str) -> Result<(), LcpError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(LcpError::NonFinite { what, index }),
        None => Ok(()),
    }
}

impl<T: Field> Lp<T> {
    fn build(a_rows: Vec<Vec<T>>, b: Vec<T>, c: Vec<T>, form: LpForm) -> Result<Self, LcpError> {
        let n = c.len();
        if n == 0 {
            return Err(LcpError::Empty);
        }
        if a_rows.len() != b.len() {
            return Err(LcpError::DimensionMismatch {
                what: "b (one entry per row of A)",
                expected: a_rows.len(),
                found: b.len(),
            });
        }
        let m = b.len();
        let a = flatten(a_rows, n)?;
        finite(&a, "A")?;
        finite(&b, "b")?;
        finite(&c, "c")?;
        Ok(Self { m, n, a, b, c, form })
    }

    /// Standard form: minimize cᵀx subject to A x = b, x ≥ 0 (`a_rows` holds the m rows of A,
    /// each of length n = `c.len()`).
    ///
    /// Errors: [`LcpError::Empty`] for n = 0, [`LcpError::DimensionMismatch`] for a row of
    /// the wrong length or `b.len() ≠ m`, [`LcpError::NonFinite`] for NaN/∞.
    pub fn standard(a_rows: Vec<Vec<T>>, b: Vec<T>, c: Vec<T>) -> Result<Self, LcpError> {
        Self::build(a_rows, b, c, LpForm::Equality)
    }

    /// Inequality form: minimize cᵀx subject to A x ≤ b, x ≥ 0. Same errors as
    /// [`Lp::standard`]. The solver adds one slack per row; the dual y then satisfies y ≤ 0.
    pub fn inequality(a_rows: Vec<Vec<T>>, b: Vec<T>, c: Vec<T>) -> Result<Self, LcpError> {
        Self::build(a_rows, b, c, LpForm::Inequality)
    }

    /// Number m of constraint rows.
    pub fn num_constraints(&self) -> usize {
        self.m
    }
    /// Number n of (user) variables.
    pub fn num_variables(&self) -> usize {
        self.n
    }
    /// A, row-major m × n.
    pub fn a(&self) -> &[T] {
        &self.a
    }
    /// b (length m).
    pub fn b(&self) -> &[T] {
        &self.b
    }
    /// c (length n).
    pub fn c(&self) -> &[T] {
        &self.c
    }
    /// The constraint form.
    pub fn form(&self) -> LpForm {
        self.form
    }

    /// cᵀx.
    ///
    /// # Panics
    /// If `x.len() ≠ n`.
    #[track_caller]
    pub fn objective(&self, x: &[T]) -> T {
        assert_eq!(x.len(), self.n, "x must have length n");
        let mut f = T::zero();
        for (ci, xi) in self.c.iter().zip(x) {
            f.add_mul_assign(ci, xi);
        }
        f
    }

    /// A x (length m).
    ///
    /// # Panics
    /// If `x.len() ≠ n`.
    #[track_caller]
    pub fn a_times(&self, x: &[T]) -> Vec<T> {
        assert_eq!(x.len(), self.n, "x must have length n");
        (0..self.m)
            .map(|i| {
                let mut s = T::zero();
                for (aij, xj) in self.a[i * self.n..(i + 1) * self.n].iter().zip(x) {
                    s.add_mul_assign(aij, xj);
                }
                s
            })
            .collect()
    }

    /// Aᵀ y (length n).
    ///
    /// # Panics
    /// If `y.len() ≠ m`.
    #[track_caller]
    pub fn a_transpose_times(&self, y: &[T]) -> Vec<T> {
        assert_eq!(y.len(), self.m, "y must have length m");
        let mut out = vec![T::zero(); self.n];
        for (i, yi) in y.iter().enumerate() {
            if yi.is_zero() {
                continue;
            }
            for (o, aij) in out.iter_mut().zip(&self.a[i * self.n..(i + 1) * self.n]) {
                o.add_mul_assign(aij, yi);
            }
        }
        out
    }

    /// The problem scale s = max(1, max|A|, max|b|, max|c|) used by the relative tolerances.
    pub fn scale(&self) -> f64 {
        self.a.iter().chain(&self.b).chain(&self.c).map(|v| v.to_f64().abs()).fold(1.0, f64::max)
    }
}
