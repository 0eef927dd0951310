//! The dense simplex tableau and Bland's pivot rule, generic over the scalar.
//!
//! # Layout
//!
//! A tableau for m constraints and q columns has (m + 1) rows and (q + 1) columns, stored
//! row-major:
//!
//! ```text
//! row 0      : d_0 … d_{q−1} | −z        reduced costs, minus the current objective value z
//! row r ≥ 1  : B⁻¹A (row r)  | x_B[r]    the constraint rows, right-hand side last
//! ```
//!
//! `basis[r − 1]` is the index of the basic variable of row r (its column is the unit vector
//! e_r in rows 1..=m and has a zero reduced cost). This is the layout of the polytope-collision
//! spec (§4), so row and column numbers in its acceptance checks can be compared one to one.
//!
//! # Bland's rule (with the tolerances of the spec's normative algorithm, §7)
//!
//! * Entering column: the **smallest** index j below the entering limit with d_j < −τ_d.
//! * Leaving row: among rows with a pivot entry a_rj > τ_p (never a round-off residue), the
//!   ratios max(x_B[r], 0) / a_rj (right-hand sides that drifted below zero are clamped) are
//!   computed; their exact minimum q_min is found first, then every row with
//!   ratio ≤ q_min + τ_t (1 + |q_min|) is a tie, and the tie whose basic variable has the
//!   **smallest** index leaves. All candidates are considered (the article's code skipped the
//!   first one, losing the anti-cycling guarantee).
//!
//! With an exact scalar every tolerance is zero and Bland's theorem applies: no basis repeats,
//! so the method terminates. For floats the caller's pivot limit is the guard.

use proxima_num::Field;

/// The thresholds of Bland's rule, already converted into the scalar type (all zero for exact
/// scalars, see [`Field::tolerance`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PivotTolerances<T> {
    /// τ_d: a reduced cost must be below −τ_d for its column to enter.
    pub reduced_cost: T,
    /// τ_p: a pivot entry must exceed τ_p.
    pub pivot: T,
    /// τ_t: relative width of a ratio tie.
    pub tie: T,
}

impl<T: Field> PivotTolerances<T> {
    /// All thresholds zero: exact decisions (the right choice for exact scalars).
    pub fn exact() -> Self {
        Self { reduced_cost: T::zero(), pivot: T::zero(), tie: T::zero() }
    }

    /// Thresholds from relative tolerances at magnitude `scale` (zero for exact scalars).
    pub fn from_relative(reduced_cost: f64, pivot: f64, tie: f64, scale: f64) -> Self {
        Self {
            reduced_cost: T::tolerance(reduced_cost, scale),
            pivot: T::tolerance(pivot, scale),
            tie: T::tolerance(tie, 1.0),
        }
    }
}

/// What Bland's rule selects on a tableau.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PivotChoice {
    /// Pivot on (row, column); row is 1-based (row 0 is the objective row).
    Pivot {
        /// The leaving row (1..=m).
        row: usize,
        /// The entering column.
        column: usize,
    },
    /// No reduced cost below −τ_d: the basis is optimal (up to τ_d).
    Optimal,
    /// Column `column` may enter but no entry of it exceeds τ_p: the objective decreases
    /// without bound along the ray of that column.
    Unbounded {
        /// The entering column without a leaving row.
        column: usize,
    },
}

/// How a run of [`Tableau::run_bland`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEnd {
    /// No entering column: optimal.
    Optimal,
    /// An entering column without a leaving row.
    Unbounded {
        /// The column.
        column: usize,
    },
    /// The caller's stop predicate returned `true`.
    Stopped,
    /// The pivot budget was exhausted.
    MaxIterations,
}

/// A dense simplex tableau (see the module docs for the layout).
#[derive(Debug, Clone, PartialEq)]
pub struct Tableau<T> {
    m: usize,
    q: usize,
    data: Vec<T>,
    basis: Vec<usize>,
}

impl<T: Field> Tableau<T> {
    /// A tableau from its rows (row 0 = objective row) and the basis (`basis[r − 1]` is basic
    /// in row r).
    ///
    /// # Panics
    /// If there is no row, the rows are ragged or have fewer than 2 entries, the basis does
    /// not have one entry per constraint row, or a basis index is not a column index.
    #[track_caller]
    pub fn from_rows(rows: Vec<Vec<T>>, basis: Vec<usize>) -> Self {
        assert!(!rows.is_empty(), "a tableau needs an objective row");
        let width = rows[0].len();
        assert!(width >= 2, "a tableau needs at least one column and the right-hand side");
        assert!(rows.iter().all(|r| r.len() == width), "tableau rows must have equal lengths");
        let m = rows.len() - 1;
        assert_eq!(basis.len(), m, "one basic variable per constraint row");
        let q = width - 1;
        assert!(basis.iter().all(|&b| b < q), "basis indices must be column indices");
        let data = rows.into_iter().flatten().collect();
        Self { m, q, data, basis }
    }

    /// Number m of constraint rows.
    pub fn num_constraints(&self) -> usize {
        self.m
    }
    /// Number q of variable columns (the right-hand side not counted).
    pub fn num_columns(&self) -> usize {
        self.q
    }
    /// Entry (row, column); column q is the right-hand side.
    #[track_caller]
    pub fn get(&self, row: usize, column: usize) -> &T {
        assert!(row <= self.m && column <= self.q, "tableau index out of range");
        &self.data[row * (self.q + 1) + column]
    }
    /// Mutable entry (row, column).
    #[track_caller]
    pub fn get_mut(&mut self, row: usize, column: usize) -> &mut T {
        assert!(row <= self.m && column <= self.q, "tableau index out of range");
        &mut self.data[row * (self.q + 1) + column]
    }
    /// A full row (q + 1 entries).
    pub fn row(&self, row: usize) -> &[T] {
        let w = self.q + 1;
        &self.data[row * w..(row + 1) * w]
    }
    /// All rows as vectors (for inspection and tests).
    pub fn to_rows(&self) -> Vec<Vec<T>> {
        (0..=self.m).map(|r| self.row(r).to_vec()).collect()
    }
    /// The basis: `basis()[r − 1]` is basic in row r.
    pub fn basis(&self) -> &[usize] {
        &self.basis
    }
    /// The current objective value z = −(row 0, right-hand side).
    pub fn objective(&self) -> T {
        self.get(0, self.q).neg()
    }
    /// The basic solution: value of every column variable (non-basic ones are zero).
    pub fn primal(&self) -> Vec<T> {
        let mut x = vec![T::zero(); self.q];
        for (r, &b) in self.basis.iter().enumerate() {
            x[b] = self.get(r + 1, self.q).clone();
        }
        x
    }

    /// Bland's rule (see the module docs); only columns `< entering_limit` may enter.
    pub fn select_bland(&self, tol: &PivotTolerances<T>, entering_limit: usize) -> PivotChoice {
        let limit = entering_limit.min(self.q);
        let minus_tau = tol.reduced_cost.neg();
        let Some(column) = (0..limit).find(|&j| *self.get(0, j) < minus_tau) else {
            return PivotChoice::Optimal;
        };
        match self.ratio_test(column, tol) {
            Some(row) => PivotChoice::Pivot { row, column },
            None => PivotChoice::Unbounded { column },
        }
    }

    /// The leaving row for an entering `column` under Bland's rule (1-based), or `None` when
    /// no entry of the column exceeds τ_p.
    pub fn ratio_test(&self, column: usize, tol: &PivotTolerances<T>) -> Option<usize> {
        let zero = T::zero();
        let mut ratios: Vec<(usize, T)> = Vec::new();
        for r in 1..=self.m {
            let a = self.get(r, column);
            if *a > tol.pivot && a.is_positive() {
                let rhs = self.get(r, self.q);
                let rhs = if rhs.is_negative() { &zero } else { rhs };
                ratios.push((r, rhs.div(a)));
            }
        }
        let q_min = ratios.iter().map(|(_, q)| q).fold(None::<&T>, |acc, q| match acc {
            Some(best) if best <= q => Some(best),
            _ => Some(q),
        })?;
        let bound = if tol.tie.is_zero() {
            q_min.clone()
        } else {
            q_min.add(&tol.tie.mul(&T::one().add(&q_min.abs())))
        };
        ratios.iter().filter(|(_, q)| *q <= bound).map(|(r, _)| *r).min_by_key(|&r| self.basis[r - 1])
    }

    /// Pivots on (row, column): the pivot row is divided by the pivot, the column is
    /// eliminated from every other row (including row 0) and set to exactly 1 / 0, and the
    /// column becomes basic in `row`.
    ///
    /// # Panics
    /// If `row` is 0 or out of range, `column` is out of range, or the pivot is zero for an
    /// exact scalar.
    #[track_caller]
    pub fn pivot(&mut self, row: usize, column: usize) {
        assert!(row >= 1 && row <= self.m && column < self.q, "pivot position out of range");
        let w = self.q + 1;
        let inv = self.data[row * w + column].recip();
        for i in 0..w {
            if i == column {
                self.data[row * w + i] = T::one();
            } else if !self.data[row * w + i].is_zero() {
                self.data[row * w + i].mul_assign(&inv);
            }
        }
        let pivot_row: Vec<T> = self.data[row * w..(row + 1) * w].to_vec();
        for k in 0..=self.m {
            if k == row {
                continue;
            }
            let factor = self.data[k * w + column].clone();
            if factor.is_zero() {
                continue;
            }
            for (i, p) in pivot_row.iter().enumerate() {
                if i == column {
                    self.data[k * w + i] = T::zero();
                } else if !p.is_zero() {
                    self.data[k * w + i].sub_mul_assign(&factor, p);
                }
            }
        }
        self.basis[row - 1] = column;
    }

    /// Runs Bland's rule until optimality, unboundedness, `stop(self)` (checked before every
    /// pivot) or `max_pivots` pivots; `pivots` is incremented per pivot.
    pub fn run_bland(
        &mut self,
        tol: &PivotTolerances<T>,
        entering_limit: usize,
        max_pivots: usize,
        pivots: &mut usize,
        mut stop: impl FnMut(&Self) -> bool,
    ) -> RunEnd {
        loop {
            if stop(self) {
                return RunEnd::Stopped;
            }
            match self.select_bland(tol, entering_limit) {
                PivotChoice::Optimal => return RunEnd::Optimal,
                PivotChoice::Unbounded { column } => return RunEnd::Unbounded { column },
                PivotChoice::Pivot { row, column } => {
                    if *pivots >= max_pivots {
                        return RunEnd::MaxIterations;
                    }
                    self.pivot(row, column);
                    *pivots += 1;
                }
            }
        }
    }
}
