//! Dense `f64` solves by LU with partial pivoting on column-major storage, vectorized: the
//! Newton methods' direct sub-solve.
//!
//! # The maths
//!
//! Gaussian elimination with partial pivoting and one right-hand side b, the algorithm of
//! [`solve_in_place`](super::solve_in_place): at column c the row of largest |a_rc| (r ≥ c)
//! is exchanged with row c, the multipliers l_r = a_rc / a_cc (r > c) are stored below the
//! diagonal, b_r ← b_r − l_r·b_c, and every later column j is updated
//! a_rj ← a_rj − l_r·a_cj; back substitution with U ends the solve. Stored column by column,
//! the pivot search, the multipliers, b's update and each column's update are contiguous
//! `axpy`s: they run vectorized, compiled once per instruction set through `pulp` and run
//! with the widest one the processor has (4 lanes on x86-64-v3).
//!
//! Every entry sees the same operations in the same order as in the generic routine — each
//! update rounds the product and then the difference, t − (l·u), never fused; the back
//! substitution sums row by row from the diagonal out — so for the same input both return the
//! same bits (zero updates skipped by one and not the other change at most the sign of a
//! zero). Only the storage order and the vector width differ: the Newton iterates, and with
//! them every certified answer, are those of the generic elimination.
//!
//! Columns are factored in panels of four: inside a panel each column is updated at once;
//! the columns right of it receive the panel's four updates in one pass (after the panel's
//! small triangle of U), so each entry is loaded and stored once for up to four updates —
//! the same operations in the same order per entry as column by column.
//! Updates whose U entry a_cj is zero are skipped, so the zero blocks of contact Jacobians
//! cost nothing until fill-in reaches them.
//!
//! Why not a library LU: at the reduced sizes of the Newton systems (k ≈ 60–190) faer 0.24's
//! blocked `PartialPivLu` (from a column-major copy, as here) measured 23.7 / 158 / 424 µs at
//! k = 72 / 128 / 190 against 26.0 / 108 / 278 µs for this routine and 33 / 165 / 510 µs for
//! the generic one (one pinned core, the same run): about 10 % ahead at k = 72 only, behind
//! from k ≈ 100 on, and with other rounding — this routine keeps the Newton iterates of the
//! generic elimination bit for bit.

//! # Edge cases
//!
//! * Singular to `tolerance` — no |a_rc| > tolerance at some column — returns `false`
//!   (A and b then hold garbage). A NaN column has no pivot either (NaN > t is false).
//! * n = 0 solves trivially (`true`).
//! * Non-finite values elsewhere propagate into b; callers check the solution.
//! * Allocation-free.

use super::simd_update::{GROUP, axpy, update_with};

/// Solves `A x = b` in place for an n × n `a` stored **column by column** (`a[j * n + i]` is
/// A_ij; equivalently Aᵀ row by row) — destroyed — and `b` (length n, overwritten by x).
/// Returns `false` (leaving garbage) when no pivot of some column exceeds `tolerance` in
/// magnitude.
///
/// # Panics
///
/// When `a.len() != b.len()²`.
pub fn lu_solve_f64(a: &mut [f64], b: &mut [f64], tolerance: f64) -> bool {
    assert_eq!(a.len(), b.len() * b.len(), "lu_solve_f64: a must be n x n for b of length n");
    pulp::Arch::new().dispatch(Elimination { a, b, tolerance })
}

/// Columns factored per panel: the columns right of it are then updated with this many
/// multiplier columns in one pass (one load and one store per entry for up to four updates).
const PANEL: usize = GROUP;

/// The arguments of [`lu_solve_f64`], so that pulp compiles the solve once per instruction set.
struct Elimination<'a> {
    a: &'a mut [f64],
    b: &'a mut [f64],
    tolerance: f64,
}

impl pulp::WithSimd for Elimination<'_> {
    type Output = bool;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) -> bool {
        let Elimination { a, b, tolerance } = self;
        let n = b.len();
        let mut c0 = 0;
        while c0 < n {
            let c1 = (c0 + PANEL).min(n);
            if !factor_panel(simd, a, b, n, c0, c1, tolerance) {
                return false;
            }
            if c1 < n {
                let (panel, right) = a.split_at_mut(c1 * n);
                let panel = &panel[c0 * n..];
                for column in right.chunks_exact_mut(n) {
                    update_column(simd, column, panel, n, c0, c1);
                }
            }
            c0 = c1;
        }
        // Back substitution row by row, x_c = (b_c − Σ_{k > c} u_ck x_k) / u_cc, summed from
        // the diagonal out as the generic routine does (U's rows are strided here: O(n²)).
        for col in (0..n).rev() {
            let mut acc = b[col];
            for k in col + 1..n {
                acc -= a[k * n + col] * b[k];
            }
            b[col] = acc / a[col * n + col];
        }
        true
    }
}

/// Eliminates columns c0..c1 below their pivots (exchanging whole rows, b included) and
/// applies each to the rest of the panel; the multipliers are stored below the diagonal.
/// `false` when a column has no pivot.
#[inline(always)]
fn factor_panel<S: pulp::Simd>(
    simd: S,
    a: &mut [f64],
    b: &mut [f64],
    n: usize,
    c0: usize,
    c1: usize,
    tolerance: f64,
) -> bool {
    for col in c0..c1 {
        let mut pivot_row = None;
        let mut best = tolerance;
        for (r, v) in a[col * n + col..(col + 1) * n].iter().enumerate() {
            if v.abs() > best {
                best = v.abs();
                pivot_row = Some(col + r);
            }
        }
        let Some(p) = pivot_row else { return false };
        if p != col {
            for column in a.chunks_exact_mut(n) {
                column.swap(p, col);
            }
            b.swap(p, col);
        }
        let (left, right) = a.split_at_mut((col + 1) * n);
        let column = &mut left[col * n..];
        let inv = 1.0 / column[col];
        let multipliers = &mut column[col + 1..];
        multipliers.iter_mut().for_each(|l| *l *= inv);
        let multipliers = &*multipliers;
        let (b_done, b_below) = b.split_at_mut(col + 1);
        axpy(simd, -b_done[col], multipliers, b_below);
        for later in right[..(c1 - col - 1) * n].chunks_exact_mut(n) {
            let u = later[col];
            if u != 0.0 {
                axpy(simd, -u, multipliers, &mut later[col + 1..]);
            }
        }
    }
    true
}

/// One column right of the panel c0..c1: its rows c0..c1 become U's (the panel's unit lower
/// triangle applied by substitution), then rows c1.. take the panel's updates
/// t ← t − Σ_i u_i·l_i in pivot order, skipping zero u_i.
#[inline(always)]
fn update_column<S: pulp::Simd>(simd: S, column: &mut [f64], panel: &[f64], n: usize, c0: usize, c1: usize) {
    for j in c0 + 1..c1 {
        let mut t = column[j];
        for i in c0..j {
            t -= panel[(i - c0) * n + j] * column[i];
        }
        column[j] = t;
    }
    let mut u = [0.0; PANEL];
    let mut l: [&[f64]; PANEL] = [&[]; PANEL];
    let mut k = 0;
    for i in c0..c1 {
        if column[i] != 0.0 {
            u[k] = -column[i];
            l[k] = &panel[(i - c0) * n + c1..(i - c0 + 1) * n];
            k += 1;
        }
    }
    let target = &mut column[c1..];
    match k {
        0 => {}
        1 => update_with::<S, 1>(simd, target, &u, &l),
        2 => update_with::<S, 2>(simd, target, &u, &l),
        3 => update_with::<S, 3>(simd, target, &u, &l),
        _ => update_with::<S, 4>(simd, target, &u, &l),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_small_system_and_detects_singular() {
        // A = [[0, 2], [1, 1]] column by column.
        let mut a = vec![0.0, 1.0, 2.0, 1.0];
        let mut b = vec![4.0, 3.0];
        assert!(lu_solve_f64(&mut a, &mut b, 1e-14));
        assert!((b[0] - 1.0).abs() < 1e-15 && (b[1] - 2.0).abs() < 1e-15);
        let mut sing = vec![1.0, 2.0, 2.0, 4.0];
        assert!(!lu_solve_f64(&mut sing, &mut [1.0, 1.0], 1e-14));
        assert!(lu_solve_f64(&mut [], &mut [], 0.0));
    }
}
