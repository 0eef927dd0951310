//! The vector kernels the f64 factorisations share (`lu_f64.rs`, `cholesky_f64.rs`): an axpy
//! and a rank-M column update, over pulp's SIMD types.
//!
//! # Rounding
//!
//! Every product is rounded before its sum (`mul` then `add`, never a fused multiply-add),
//! and the M terms of an update are added in order i = 0, 1, …: the same bits as the scalar
//! loops `y[k] += f * x[k]` and `t[k] += f[i] * x[i][k]` for i in order, whatever the vector
//! width (the tails run the scalar loops themselves).

/// The most columns one update reads (the LU's panel width and the Cholesky's column group).
pub(super) const GROUP: usize = 4;

/// y ← y + f·x for slices of equal length (product rounded, then the sum: never fused).
#[inline(always)]
pub(super) fn axpy<S: pulp::Simd>(simd: S, f: f64, x: &[f64], y: &mut [f64]) {
    let (y_head, y_tail) = S::as_mut_simd_f64s(y);
    let (x_head, x_tail) = S::as_simd_f64s(x);
    let fs = simd.splat_f64s(f);
    for (yv, xv) in y_head.iter_mut().zip(x_head) {
        *yv = simd.add_f64s(*yv, simd.mul_f64s(fs, *xv));
    }
    for (yv, xv) in y_tail.iter_mut().zip(x_tail) {
        *yv += f * xv;
    }
}

/// t ← t + Σ_{i < M} f_i · x_i in order i, each product rounded before its sum, vector by
/// vector.
#[inline(always)]
pub(super) fn update_with<S: pulp::Simd, const M: usize>(
    simd: S,
    t: &mut [f64],
    f: &[f64; GROUP],
    x: &[&[f64]; GROUP],
) {
    let fs: [S::f64s; M] = core::array::from_fn(|i| simd.splat_f64s(f[i]));
    let heads: [&[S::f64s]; M] = core::array::from_fn(|i| S::as_simd_f64s(x[i]).0);
    let tails: [&[f64]; M] = core::array::from_fn(|i| S::as_simd_f64s(x[i]).1);
    let (t_head, t_tail) = S::as_mut_simd_f64s(t);
    for (k, tv) in t_head.iter_mut().enumerate() {
        let mut acc = *tv;
        for i in 0..M {
            acc = simd.add_f64s(acc, simd.mul_f64s(fs[i], heads[i][k]));
        }
        *tv = acc;
    }
    for (k, tv) in t_tail.iter_mut().enumerate() {
        for i in 0..M {
            *tv += f[i] * tails[i][k];
        }
    }
}
