//! Direct Newton steps: dense LU on the reduced generalized Jacobian.
//!
//! # The maths
//!
//! Both Newton matrices are J = D_p + D_q A with diagonal D_p = diag(p), D_q = diag(q):
//! min-map Newton has (p_i, q_i) = (0, 1) on 𝒜 = {i | y_i < x_i} and (1, 0) on ℱ;
//! Fischer–Newton has p_i = x_i/‖(x_i, y_i)‖ − 1, q_i = y_i/‖(x_i, y_i)‖ − 1.
//!
//! A row with q_i = 0 is p_i e_iᵀ, so its unknown is known at once: Δx_i = −F_i / p_i (the
//! set 𝒵: min-map's ℱ, and for Fischer the indices with x_i = 0 < y_i, which the projected
//! update x ← max(0, x + τΔx) produces exactly). The remaining rows ℛ keep
//!
//! (D_p + D_q A)_ℛℛ Δx_ℛ = −F_ℛ − D_q,ℛ A_ℛ𝒵 Δx_𝒵,
//!
//! an |ℛ| × |ℛ| system solved by LU with partial pivoting ([`lu_solve_f64`]): the
//! factorisation costs at most |ℛ|³/3 instead of n³/3 (less on contact matrices, whose zero
//! blocks leave zero multipliers that the elimination skips), and the step is the same as the
//! full solve's. For min-map this is spec (80), A_𝒜𝒜 Δx_𝒜 = A_𝒜ℱ H_ℱ − H_𝒜, with the same
//! arithmetic as before the reduction was shared.
//!
//! **Symmetric A.** Row i ∈ ℛ divided by q_i ≠ 0 reads (A_ℛℛ + diag(d)) Δx_ℛ = rhs_ℛ / q_ℛ
//! with shifts d_i = p_i/q_i. When every d_i ≥ 0 (Fischer: p_i ≤ 0 and q_i < 0 on ℛ;
//! min-map: d = 0) and A is positive semidefinite, K = A_ℛℛ + diag(d) is symmetric positive
//! semidefinite, and Cholesky ([`cholesky_solve_f64`]) solves it in half the LU's flops,
//! stably without pivoting. The step is the same Newton step up to rounding (not bit for bit
//! the LU's). A pivot not above |ℛ|·ε·max|K_ij| (K singular or indefinite: A need not be
//! semidefinite) hands the step to the LU; after [`CHOLESKY_FAILURE_LIMIT`] such failures a
//! run goes to the LU directly. Either way the answer is certified by the caller from A and b.
//!
//! # Edge cases
//!
//! * ℛ = ∅: the step is the diagonal part alone.
//! * p_i = q_i = 0 (a zero row) or a pivot below |ℛ|·ε·max|K_ij| (with K the reduced
//!   matrix): singular, `false` — the caller falls back to GMRES for that step.
//! * Storage (index list, reduced matrix, right-hand side) grows to the largest system seen
//!   and is then reused: a Newton run allocates only while its reduced systems grow.
//! * The reduced matrix is assembled column by column from A's columns: A's rows when A = Aᵀ
//!   bit for bit (−0 ≠ +0 here, so no zero changes sign), otherwise a transposed copy made once
//!   per run (n² values). Each entry is the same product q_i·A_ij as row by row.

use crate::linalg::{cholesky_solve_f64, lu_solve_f64};
use crate::operator::DenseMatrix;

/// Reusable storage for direct Newton steps on one matrix A.
#[derive(Debug)]
pub(super) struct DirectStep {
    /// A column by column (Aᵀ row by row) when A is not bitwise symmetric; `None` when it is
    /// (then A's rows are its columns, to the bit).
    columns: Option<Vec<f64>>,
    /// ℛ, in increasing order.
    rows: Vec<usize>,
    /// q_i for i ∈ ℛ, in the order of ℛ.
    row_scales: Vec<f64>,
    /// 𝒵, in increasing order.
    eliminated: Vec<usize>,
    /// (D_p + D_q A)_ℛℛ, or A_ℛℛ + diag(p/q)_ℛ for Cholesky, column by column.
    system: Vec<f64>,
    /// −F_ℛ − D_q,ℛ A_ℛ𝒵 Δx_𝒵, then the LU's solution.
    rhs: Vec<f64>,
    /// p_i/q_i for i ∈ ℛ (the Cholesky path).
    shifts: Vec<f64>,
    /// The right-hand side divided row by row by q_i, then the Cholesky solution.
    scaled_rhs: Vec<f64>,
    /// Cholesky factorisations that met a pivot not above the tolerance in this run.
    cholesky_failures: usize,
}

/// Failed Cholesky attempts after which a run goes straight to LU: a reduced matrix that is
/// singular or indefinite tends to stay so from step to step (min-map on a positive
/// semidefinite A with zero eigenvalues), and each attempt costs half an LU.
const CHOLESKY_FAILURE_LIMIT: usize = 2;

impl DirectStep {
    /// Storage for the steps on `a` (every [`solve`](Self::solve) must pass this `a`): A's
    /// columns are copied once (n² values) unless A equals Aᵀ bit for bit, so that each
    /// reduced system is assembled column by column from contiguous reads.
    pub(super) fn new(a: &DenseMatrix) -> Self {
        let n = a.n();
        let data = a.data();
        let symmetric =
            (0..n).all(|i| (0..i).all(|j| data[i * n + j].to_bits() == data[j * n + i].to_bits()));
        let columns = (!symmetric).then(|| {
            let mut t = vec![0.0; n * n];
            for (i, row) in data.chunks_exact(n).enumerate() {
                for (j, v) in row.iter().enumerate() {
                    t[j * n + i] = *v;
                }
            }
            t
        });
        DirectStep {
            columns,
            rows: Vec::new(),
            row_scales: Vec::new(),
            eliminated: Vec::new(),
            system: Vec::new(),
            rhs: Vec::new(),
            shifts: Vec::new(),
            scaled_rhs: Vec::new(),
            cholesky_failures: 0,
        }
    }

    /// Writes into `dx` the solution of (D_p + D_q A) Δx = −F; `false` when the reduced
    /// system is singular (then `dx` holds garbage). `a` is the matrix of [`new`](Self::new).
    pub(super) fn solve(&mut self, a: &DenseMatrix, p: &[f64], q: &[f64], f: &[f64], dx: &mut [f64]) -> bool {
        let n = a.n();
        debug_assert!(self.columns.as_ref().is_none_or(|c| c.len() == n * n));
        self.rows.clear();
        self.eliminated.clear();
        for i in 0..f.len() {
            if q[i] == 0.0 {
                if p[i] == 0.0 {
                    return false;
                }
                dx[i] = -f[i] / p[i];
                self.eliminated.push(i);
            } else {
                dx[i] = 0.0;
                self.rows.push(i);
            }
        }
        let k = self.rows.len();
        if k == 0 {
            return true;
        }
        self.rhs.clear();
        for &i in &self.rows {
            let row = a.row(i);
            // A_i𝒵 Δx_𝒵 summed over 𝒵 in increasing order: the full row · dx term by term
            // without its zero terms (dx = 0 on ℛ), so the same value as the full sum.
            let coupling: f64 = self.eliminated.iter().map(|&j| row[j] * dx[j]).sum();
            self.rhs.push(-f[i] - q[i] * coupling);
        }
        if self.columns.is_none() && self.cholesky_step(a.data(), n, p, q, dx) {
            return true;
        }
        // Column by column (what the LU wants): entry (r, c) at c·k + r is q_i·A_ij for
        // i = ℛ_r, j = ℛ_c, read from A's column j (contiguous), then p_i on the diagonal —
        // the same products and sums as row by row, so the same bits.
        let columns = self.columns.as_deref().unwrap_or(a.data());
        self.row_scales.clear();
        self.row_scales.extend(self.rows.iter().map(|&i| q[i]));
        // Every entry is written below: resizing keeps the old values instead of zeroing k².
        self.system.resize(k * k, 0.0);
        for (out, &j) in self.system.chunks_exact_mut(k).zip(&self.rows) {
            let column = &columns[j * n..(j + 1) * n];
            if k == n {
                for ((o, s), v) in out.iter_mut().zip(&self.row_scales).zip(column) {
                    *o = s * v;
                }
            } else {
                for ((o, s), &i) in out.iter_mut().zip(&self.row_scales).zip(&self.rows) {
                    *o = s * column[i];
                }
            }
        }
        for (r, &i) in self.rows.iter().enumerate() {
            self.system[r * k + r] += p[i];
        }
        let scale = max_abs(&self.system);
        let tolerance = scale * f64::EPSILON * k as f64;
        if !lu_solve_f64(&mut self.system, &mut self.rhs, tolerance)
            || self.rhs.iter().any(|v| !v.is_finite())
        {
            return false;
        }
        for (&i, v) in self.rows.iter().zip(&self.rhs) {
            dx[i] = *v;
        }
        true
    }
}

impl DirectStep {
    /// The step on ℛ through Cholesky when A is symmetric (`columns` are A's rows) and every
    /// shift d_i = p_i/q_i (i ∈ ℛ) is ≥ 0: row i of the reduced system divided by q_i ≠ 0 is
    /// row i of K = A_ℛℛ + diag(d), symmetric, and positive semidefinite when A is (Fischer's
    /// p, q ≤ 0; min-map's p = 0, q = 1). `false` when it does not apply or K is not
    /// numerically positive definite (then the LU decides; `dx` on ℛ is untouched).
    fn cholesky_step(&mut self, columns: &[f64], n: usize, p: &[f64], q: &[f64], dx: &mut [f64]) -> bool {
        if self.cholesky_failures >= CHOLESKY_FAILURE_LIMIT {
            return false;
        }
        let k = self.rows.len();
        self.shifts.clear();
        for &i in &self.rows {
            let d = p[i] / q[i];
            if !d.is_finite() || d < 0.0 {
                return false;
            }
            self.shifts.push(d);
        }
        self.system.resize(k * k, 0.0);
        for (out, &j) in self.system.chunks_exact_mut(k).zip(&self.rows) {
            let column = &columns[j * n..(j + 1) * n];
            if k == n {
                out.copy_from_slice(column);
            } else {
                for (o, &i) in out.iter_mut().zip(&self.rows) {
                    *o = column[i];
                }
            }
        }
        for (r, d) in self.shifts.iter().enumerate() {
            self.system[r * k + r] += d;
        }
        self.scaled_rhs.clear();
        self.scaled_rhs.extend(self.rows.iter().zip(&self.rhs).map(|(&i, v)| v / q[i]));
        let tolerance = max_abs(&self.system) * f64::EPSILON * k as f64;
        if !cholesky_solve_f64(&mut self.system, &mut self.scaled_rhs, tolerance)
            || self.scaled_rhs.iter().any(|v| !v.is_finite())
        {
            self.cholesky_failures += 1;
            return false;
        }
        for (&i, v) in self.rows.iter().zip(&self.scaled_rhs) {
            dx[i] = *v;
        }
        true
    }
}

/// max |v_i| with four running maxima (so the loop vectorizes); 0 for an empty slice, NaN
/// entries ignored (`f64::max`).
pub(super) fn max_abs(v: &[f64]) -> f64 {
    let chunks = v.chunks_exact(4);
    let tail = chunks.remainder().iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let mut m = [0.0f64; 4];
    for c in chunks {
        for l in 0..4 {
            m[l] = m[l].max(c[l].abs());
        }
    }
    m[0].max(m[1]).max(m[2].max(m[3])).max(tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// J Δx + F for J = D_p + D_q A.
    fn newton_residual(a: &DenseMatrix, p: &[f64], q: &[f64], f: &[f64], dx: &[f64]) -> f64 {
        (0..f.len())
            .map(|i| {
                let adx: f64 = a.row(i).iter().zip(dx).map(|(x, y)| x * y).sum();
                (p[i] * dx[i] + q[i] * adx + f[i]).abs()
            })
            .fold(0.0, f64::max)
    }

    fn problem(n: usize) -> DenseMatrix {
        let data = (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                if i == j { 4.0 + i as f64 * 0.01 } else { ((i * 7 + j * 13) % 11) as f64 / 11.0 - 0.5 }
            })
            .collect();
        DenseMatrix::from_row_major(n, data).unwrap()
    }

    #[test]
    fn reduced_step_solves_the_full_newton_equation() {
        for &n in &[6, 40, 90] {
            let a = problem(n);
            // A Fischer-like pattern: a third of the rows eliminated (q = 0, p = −1), others mixed.
            let p: Vec<f64> =
                (0..n).map(|i| if i % 3 == 0 { -1.0 } else { -0.3 - 0.01 * i as f64 }).collect();
            let q: Vec<f64> = (0..n).map(|i| if i % 3 == 0 { 0.0 } else { -0.6 }).collect();
            let f: Vec<f64> = (0..n).map(|i| (i as f64 * 0.7).cos()).collect();
            let mut dx = vec![0.0; n];
            let mut step = DirectStep::new(&a);
            assert!(step.solve(&a, &p, &q, &f, &mut dx));
            assert!(newton_residual(&a, &p, &q, &f, &dx) < 1e-10, "n = {n}");
            // Reuse with a different split gives the full solution again.
            let q2: Vec<f64> = (0..n).map(|i| if i % 2 == 0 { 0.0 } else { 1.0 }).collect();
            let p2: Vec<f64> = q2.iter().map(|v| 1.0 - v).collect();
            assert!(step.solve(&a, &p2, &q2, &f, &mut dx));
            assert!(newton_residual(&a, &p2, &q2, &f, &dx) < 1e-10, "n = {n} (min-map split)");
        }
    }

    /// The step as before the vectorized LU: the reduced system row-major, the coupling summed
    /// over the whole row, the generic elimination.
    fn generic_step(a: &DenseMatrix, p: &[f64], q: &[f64], f: &[f64]) -> Option<Vec<f64>> {
        let n = f.len();
        let mut dx = vec![0.0; n];
        let rows: Vec<usize> = (0..n).filter(|&i| q[i] != 0.0).collect();
        for i in (0..n).filter(|&i| q[i] == 0.0) {
            dx[i] = -f[i] / p[i];
        }
        let k = rows.len();
        let mut system = vec![0.0; k * k];
        let mut rhs = Vec::new();
        for (r, &i) in rows.iter().enumerate() {
            let coupling: f64 = a.row(i).iter().zip(&dx).map(|(aij, dj)| aij * dj).sum();
            rhs.push(-f[i] - q[i] * coupling);
            for (c, &j) in rows.iter().enumerate() {
                system[r * k + c] = q[i] * a.row(i)[j];
            }
            system[r * k + r] += p[i];
        }
        let scale = system.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let tolerance = scale * f64::EPSILON * k as f64;
        crate::linalg::solve_in_place(&mut system, &mut rhs, &tolerance).then_some(())?;
        for (&i, v) in rows.iter().zip(&rhs) {
            dx[i] = *v;
        }
        Some(dx)
    }

    /// `problem(n)` made symmetric, (A + Aᵀ)/2: the path that reads A's rows as its columns.
    fn symmetric_problem(n: usize) -> DenseMatrix {
        let a = problem(n);
        let data = (0..n * n).map(|k| 0.5 * (a.get(k / n, k % n) + a.get(k % n, k / n))).collect();
        DenseMatrix::from_row_major(n, data).unwrap()
    }

    #[test]
    fn the_step_is_the_generic_eliminations_to_the_bit() {
        for (&n, symmetric) in [5, 40, 90].iter().flat_map(|n| [(n, false), (n, true)]) {
            let a = if symmetric { symmetric_problem(n) } else { problem(n) };
            assert_eq!(DirectStep::new(&a).columns.is_none(), symmetric);
            let p: Vec<f64> =
                (0..n).map(|i| if i % 4 == 1 { -1.0 } else { -0.2 - 0.003 * i as f64 }).collect();
            // q > 0 > p makes every shift p/q negative: the Cholesky path does not apply and
            // symmetric A takes the LU path (reading A's rows as its columns).
            let sign = if symmetric { -1.0 } else { 1.0 };
            let q: Vec<f64> =
                (0..n).map(|i| if i % 4 == 1 { 0.0 } else { sign * (-0.7 + 0.001 * i as f64) }).collect();
            let f: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
            let mut dx = vec![0.0; n];
            assert!(DirectStep::new(&a).solve(&a, &p, &q, &f, &mut dx));
            assert_eq!(Some(dx), generic_step(&a, &p, &q, &f), "n = {n}");
            // No row eliminated (k = n): the contiguous assembly.
            let q_all: Vec<f64> = (0..n).map(|i| sign * (-0.7 + 0.001 * i as f64)).collect();
            let mut dx = vec![0.0; n];
            assert!(DirectStep::new(&a).solve(&a, &p, &q_all, &f, &mut dx));
            assert_eq!(Some(dx), generic_step(&a, &p, &q_all, &f), "n = {n}, k = n");
        }
    }

    /// A symmetric positive semidefinite n × n matrix of rank n − 3: B Bᵀ with B n × (n − 3).
    fn psd_problem(n: usize) -> DenseMatrix {
        let m = n - 3;
        let b: Vec<f64> = (0..n * m).map(|k| (((k * 37 + 11) % 23) as f64 - 11.0) / 7.0).collect();
        let data = (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                (0..m).map(|c| b[i * m + c] * b[j * m + c]).sum()
            })
            .collect();
        DenseMatrix::from_row_major(n, data).unwrap()
    }

    #[test]
    fn symmetric_steps_go_through_cholesky_and_solve_the_newton_equation() {
        for &n in &[6, 40, 90] {
            let a = psd_problem(n);
            let mut step = DirectStep::new(&a);
            assert!(step.columns.is_none());
            // Fischer-like signs (p, q ≤ 0, every fifth row eliminated): K = A_ℛℛ + diag(p/q)
            // with p/q > 0 is positive definite although A is singular.
            let p: Vec<f64> =
                (0..n).map(|i| if i % 5 == 0 { -1.0 } else { -0.1 - 0.004 * i as f64 }).collect();
            let q: Vec<f64> =
                (0..n).map(|i| if i % 5 == 0 { 0.0 } else { -0.5 - 0.002 * i as f64 }).collect();
            let f: Vec<f64> = (0..n).map(|i| (i as f64 * 0.61).sin()).collect();
            let mut dx = vec![0.0; n];
            assert!(step.solve(&a, &p, &q, &f, &mut dx));
            assert_eq!(step.cholesky_failures, 0, "n = {n}");
            assert!(newton_residual(&a, &p, &q, &f, &dx) < 1e-9, "n = {n}");
            // The LU's step (the generic elimination) agrees to rounding.
            let lu = generic_step(&a, &p, &q, &f).unwrap();
            let scale = lu.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            assert!(dx.iter().zip(&lu).all(|(x, y)| (x - y).abs() <= 1e-9 * scale), "n = {n}");
        }
    }

    #[test]
    fn indefinite_symmetric_steps_fall_back_to_lu() {
        let n = 30;
        // Symmetric, indefinite (diagonal ±3): Cholesky meets a negative pivot, LU solves.
        let data = (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                if i == j { if i % 2 == 0 { 3.0 } else { -3.0 } } else { 0.1 / (1.0 + (i + j) as f64) }
            })
            .collect();
        let a = DenseMatrix::from_row_major(n, data).unwrap();
        let (p, q) = (vec![0.0; n], vec![1.0; n]);
        let f: Vec<f64> = (0..n).map(|i| 1.0 + i as f64).collect();
        let mut step = DirectStep::new(&a);
        for attempt in 1..=3 {
            let mut dx = vec![0.0; n];
            assert!(step.solve(&a, &p, &q, &f, &mut dx));
            assert!(newton_residual(&a, &p, &q, &f, &dx) < 1e-10);
            // The LU path is the generic elimination to the bit.
            assert_eq!(Some(dx), generic_step(&a, &p, &q, &f));
            assert_eq!(step.cholesky_failures, attempt.min(CHOLESKY_FAILURE_LIMIT));
        }
    }

    #[test]
    fn zero_rows_are_singular() {
        let a = problem(4);
        let mut dx = vec![0.0; 4];
        assert!(!DirectStep::new(&a).solve(&a, &[0.0; 4], &[0.0; 4], &[1.0; 4], &mut dx));
    }
}
