//! The allocation-free kernels: checked inverse diagonal, one projected relaxation, one sweep,
//! one Jacobi step, and the merits.

use crate::error::LcpError;
use crate::operator::RowAccess;

/// 1/A_ii for every i, refusing a zero, negative or non-finite diagonal entry with
/// [`LcpError::ZeroDiagonal`] (splitting methods divide by A_ii, spec §3.3).
pub fn inverse_diagonal<A: RowAccess + ?Sized>(a: &A) -> Result<Vec<f64>, LcpError> {
    let mut d = vec![0.0; a.dim()];
    a.diagonal(&mut d);
    for (index, v) in d.iter_mut().enumerate() {
        if !(v.is_finite() && *v > 0.0) {
            return Err(LcpError::ZeroDiagonal { index, value: *v });
        }
        *v = 1.0 / *v;
    }
    Ok(d)
}

/// One projected relaxation of component i (spec eq. 59): with r_i = A_{i*} x + b_i,
/// x_i ← max(0, x_i − ω r_i / A_ii); `aux` is kept consistent. Returns the step τ (new − old)
/// and r_i. For symmetric A the QP objective changes by exactly ½ τ² A_ii + τ r_i ≤ 0 for
/// ω ∈ [0, 2] (spec §3.4).
#[inline(always)]
pub fn relax_component<A: RowAccess + ?Sized>(
    a: &A,
    b: &[f64],
    x: &mut [f64],
    aux: &mut A::Aux,
    inv_diag: &[f64],
    omega: f64,
    i: usize,
) -> (f64, f64) {
    let r = a.row_dot(i, x, aux) + b[i];
    let old = x[i];
    let trial = old - omega * r * inv_diag[i];
    let new = if trial > 0.0 { trial } else { 0.0 };
    let step = new - old;
    if step != 0.0 {
        x[i] = new;
        a.update_aux(i, step, aux);
    }
    (step, r)
}

/// One projected Gauss–Seidel / SOR sweep over i = 0..n in order (spec §3.3 normative
/// reading: each component is projected as soon as it is computed). ω = 1 is PGS. Returns
/// max_i |Δx_i|. Allocation-free; dispatches to the operator's [`RowAccess::sweep`] kernel.
pub fn projected_sweep<A: RowAccess + ?Sized>(
    a: &A,
    b: &[f64],
    x: &mut [f64],
    aux: &mut A::Aux,
    inv_diag: &[f64],
    omega: f64,
) -> f64 {
    a.sweep(b, x, aux, inv_diag, omega)
}

/// One projected Jacobi step from y = A x + b of the current x (spec §3.3):
/// x_i ← max(0, x_i − y_i / A_ii) for all i at once. Returns max_i |Δx_i|.
pub fn jacobi_step(x: &mut [f64], y: &[f64], inv_diag: &[f64]) -> f64 {
    let mut max_change = 0.0f64;
    for ((xi, &yi), &inv) in x.iter_mut().zip(y).zip(inv_diag) {
        let trial = *xi - yi * inv;
        let new = if trial > 0.0 { trial } else { 0.0 };
        max_change = max_change.max((new - *xi).abs());
        *xi = new;
    }
    max_change
}

/// The splitting merit (spec eq. 106): θ(x) = xᵀ|y| with y = A x + b. Zero at x = 0 whatever
/// b is, and blind to x_i = 0 with y_i < 0 — see [`infeasibility`].
pub fn merit_106(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(xi, yi)| xi * yi.abs()).sum()
}

/// What (106) does not see: max over i with x_i = 0 of −y_i (0 when none is negative).
pub fn infeasibility(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).filter(|(xi, _)| **xi == 0.0).fold(0.0f64, |m, (_, yi)| m.max(-yi))
}

/// The QP objective f(x) = ½ xᵀ A x + bᵀ x = ½ xᵀ(y + b) from y = A x + b (spec eq. 53).
pub fn qp_objective(x: &[f64], y: &[f64], b: &[f64]) -> f64 {
    0.5 * x.iter().zip(y).zip(b).map(|((xi, yi), bi)| xi * (yi + bi)).sum::<f64>()
}
