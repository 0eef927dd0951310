//! Dense `f64` solves by LU with partial pivoting, the elimination vectorized with fused
//! multiply-adds: the Newton methods' direct sub-solve.
//!
//! # The maths
//!
//! Gaussian elimination with partial pivoting on a row-major n × n matrix A and one right-hand
//! side b, the same algorithm as [`solve_in_place`](super::solve_in_place): at column c the row
//! of largest |a_rc| (r ≥ c) becomes the pivot row; every row r > c with a non-zero multiplier
//! l = a_rc / a_cc is updated a_r,c+1.. ← a_r,c+1.. − l·a_c,c+1.., b_r ← b_r − l·b_c; back
//! substitution ends the solve. Only the elimination's rank-one updates (n³/3 of the n³/3 +
//! O(n²) operations) differ from the generic routine: each is one `axpy` on contiguous row
//! tails, compiled once per instruction set through `pulp` and run with the widest one the
//! processor has (4 lanes and fused multiply-add on x86-64-v3, which rounds once where the
//! generic routine rounds twice; plain `a − l·b` on the portable fallback). Rows with a zero
//! multiplier are skipped, so the zero blocks of contact Jacobians cost nothing until fill-in
//! reaches them. The multipliers are not stored (the right-hand side is eliminated alongside),
//! and the entries below the diagonal are left as they are: A is destroyed.
//!
//! # Edge cases
//!
//! * Singular to `tolerance` — no |a_rc| > tolerance at some column — returns `false`
//!   (A and b then hold garbage). A NaN column has no pivot either (NaN > t is false).
//! * n = 0 solves trivially (`true`).
//! * Non-finite values elsewhere propagate into b; callers check the solution.
//! * Allocation-free.

/// Solves `A x = b` in place for a row-major n × n `a` (destroyed) and `b` (length n,
/// overwritten by x). Returns `false` (leaving garbage) when no pivot of some column exceeds
/// `tolerance` in magnitude.
///
/// # Panics
///
/// When `a.len() != b.len()²`.
pub fn lu_solve_f64(a: &mut [f64], b: &mut [f64], tolerance: f64) -> bool {
    assert_eq!(a.len(), b.len() * b.len(), "lu_solve_f64: a must be n x n for b of length n");
    pulp::Arch::new().dispatch(Elimination { a, b, tolerance })
}

/// Columns factored per panel: the rows below are then updated with this many pivot rows in
/// one pass (one load and one store per entry for up to four fused multiply-adds).
const PANEL: usize = 4;

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
            if !factor_panel(a, b, n, c0, c1, tolerance) {
                return false;
            }
            if c1 < n {
                let (pivots, below) = a.split_at_mut(c1 * n);
                let pivots = &mut pivots[c0 * n..];
                // The panel's own rows first: row j takes the updates of the pivot rows above it.
                for j in 1..c1 - c0 {
                    let (done, rest) = pivots.split_at_mut(j * n);
                    let row = &mut rest[..n];
                    update_row(simd, row, done, c0, c1, n, j);
                }
                let pivots = &pivots[..];
                for row in below.chunks_exact_mut(n) {
                    update_row(simd, row, pivots, c0, c1, n, c1 - c0);
                }
            }
            c0 = c1;
        }
        for col in (0..n).rev() {
            let row = &a[col * n..(col + 1) * n];
            let mut acc = b[col];
            for k in col + 1..n {
                acc -= row[k] * b[k];
            }
            b[col] = acc / row[col];
        }
        true
    }
}

/// Eliminates columns c0..c1 below their pivots, updating only those columns (and b); the
/// multipliers are stored below the diagonal. `false` when a column has no pivot.
#[inline(always)]
fn factor_panel(a: &mut [f64], b: &mut [f64], n: usize, c0: usize, c1: usize, tolerance: f64) -> bool {
    for col in c0..c1 {
        let mut pivot_row = None;
        let mut best = tolerance;
        for row in col..n {
            let v = a[row * n + col].abs();
            if v > best {
                best = v;
                pivot_row = Some(row);
            }
        }
        let Some(p) = pivot_row else { return false };
        if p != col {
            let (upper, lower) = a.split_at_mut(p * n);
            upper[col * n..(col + 1) * n].swap_with_slice(&mut lower[..n]);
            b.swap(p, col);
        }
        let inv = 1.0 / a[col * n + col];
        let (upper, lower) = a.split_at_mut((col + 1) * n);
        let pivot_part = &upper[col * n + col + 1..col * n + c1];
        let b_col = b[col];
        for (r, row) in lower.chunks_exact_mut(n).enumerate() {
            let factor = row[col] * inv;
            row[col] = factor;
            if factor == 0.0 {
                continue;
            }
            for (t, u) in row[col + 1..c1].iter_mut().zip(pivot_part) {
                *t -= factor * u;
            }
            b[col + 1 + r] -= factor * b_col;
        }
    }
    true
}

/// row[c1..] ← row[c1..] − Σ_i l_i · pivots[i][c1..] over the first `m` panel rows i (in
/// order), with l_i = row[c0 + i] the stored multipliers; zero multipliers are skipped.
#[inline(always)]
fn update_row<S: pulp::Simd>(
    simd: S,
    row: &mut [f64],
    pivots: &[f64],
    c0: usize,
    c1: usize,
    n: usize,
    m: usize,
) {
    let mut l = [0.0; PANEL];
    let mut u: [&[f64]; PANEL] = [&[]; PANEL];
    let mut k = 0;
    for i in 0..m {
        let li = row[c0 + i];
        if li != 0.0 {
            l[k] = -li;
            u[k] = &pivots[i * n + c1..(i + 1) * n];
            k += 1;
        }
    }
    let target = &mut row[c1..];
    match k {
        0 => {}
        1 => update_with::<S, 1>(simd, target, &l, &u),
        2 => update_with::<S, 2>(simd, target, &l, &u),
        3 => update_with::<S, 3>(simd, target, &l, &u),
        _ => update_with::<S, 4>(simd, target, &l, &u),
    }
}

/// t ← t + Σ_{i < M} l_i · u_i (fused where the instruction set has it), vector by vector.
#[inline(always)]
fn update_with<S: pulp::Simd, const M: usize>(simd: S, t: &mut [f64], l: &[f64; PANEL], u: &[&[f64]; PANEL]) {
    let ls: [S::f64s; M] = core::array::from_fn(|i| simd.splat_f64s(l[i]));
    let heads: [&[S::f64s]; M] = core::array::from_fn(|i| S::as_simd_f64s(u[i]).0);
    let tails: [&[f64]; M] = core::array::from_fn(|i| S::as_simd_f64s(u[i]).1);
    let (t_head, t_tail) = S::as_mut_simd_f64s(t);
    for (k, tv) in t_head.iter_mut().enumerate() {
        let mut acc = *tv;
        for i in 0..M {
            acc = simd.mul_add_e_f64s(ls[i], heads[i][k], acc);
        }
        *tv = acc;
    }
    for (k, t) in t_tail.iter_mut().enumerate() {
        for i in 0..M {
            *t += l[i] * tails[i][k];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_small_system_and_detects_singular() {
        let mut a = vec![0.0, 2.0, 1.0, 1.0];
        let mut b = vec![4.0, 3.0];
        assert!(lu_solve_f64(&mut a, &mut b, 1e-14));
        assert!((b[0] - 1.0).abs() < 1e-15 && (b[1] - 2.0).abs() < 1e-15);
        let mut sing = vec![1.0, 2.0, 2.0, 4.0];
        assert!(!lu_solve_f64(&mut sing, &mut [1.0, 1.0], 1e-14));
        assert!(lu_solve_f64(&mut [], &mut [], 0.0));
    }
}
