//! Exhaustive enumeration of complementary bases (small n): finds a solution or proves there
//! is none.
//!
//! # The mathematics
//!
//! For every support α ⊆ {0..n} solve M_αα z_α = -q_α, set z_ᾱ = 0 and check z ≥ 0 and
//! w = M z + q ≥ 0 (w_α = 0 by construction, so zᵀw = 0). Every solution whose complementary
//! basis is non-singular is found this way. A solution may however lie only in complementary
//! cones whose matrix is singular, so singular principal submatrices are skipped and counted:
//! when none is skipped, finding nothing *proves* the LCP has no solution.
//!
//! # Cost and tolerances
//!
//! 2ⁿ linear solves of size |α| ([`crate::linalg::solve_in_place`]): meant for n ≤ 12 or so
//! (hard limit n ≤ 30). Exact scalars decide exactly; floats declare a submatrix singular
//! below the pivot threshold, accept entries ≥ -certificate and then certify the candidate
//! by its residual from M and q.

use proxima_num::Field;

use super::numerics::Numerics;
use crate::linalg::solve_in_place;
use crate::problem::LcpView;

/// The largest n enumeration ever runs on, whatever the settings say.
pub(crate) const ENUMERATION_HARD_LIMIT: usize = 30;

/// What the enumeration found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Enumerated {
    /// A certified solution, written to the output z and w.
    Found {
        /// Singular principal submatrices skipped before it was found.
        singular_skipped: usize,
    },
    /// No complementary basis gives a solution.
    NotFound {
        /// Singular principal submatrices skipped (0 makes this a proof of no solution).
        singular_skipped: usize,
    },
}

/// Scratch memory of the enumeration (allocated on first use).
#[derive(Debug, Clone)]
pub(crate) struct EnumerationScratch<T> {
    a: Vec<T>,
    b: Vec<T>,
    support: Vec<usize>,
    z: Vec<T>,
    w: Vec<T>,
}

impl<T> Default for EnumerationScratch<T> {
    fn default() -> Self {
        Self { a: Vec::new(), b: Vec::new(), support: Vec::new(), z: Vec::new(), w: Vec::new() }
    }
}

/// Enumerates the supports of `view` (n ≤ [`ENUMERATION_HARD_LIMIT`]); on success writes the
/// solution to `z` and `w`.
pub(crate) fn enumerate<T: Field>(
    view: &LcpView<'_, T>,
    num: &Numerics<T>,
    scratch: &mut EnumerationScratch<T>,
    z: &mut [T],
    w: &mut [T],
) -> Enumerated {
    let n = view.n();
    assert!(n <= ENUMERATION_HARD_LIMIT, "enumeration called with n = {n}");
    let EnumerationScratch { a, b, support, z: zc, w: wc } = scratch;
    zc.clear();
    zc.resize(n, T::zero());
    wc.clear();
    wc.resize(n, T::zero());
    let feasibility = num.certificate.neg();
    let mut singular_skipped = 0;
    for mask in 0u64..(1u64 << n) {
        support.clear();
        support.extend((0..n).filter(|&i| mask >> i & 1 == 1));
        let k = support.len();
        a.clear();
        b.clear();
        for &i in support.iter() {
            a.extend(support.iter().map(|&j| view.m_at(i, j).clone()));
            b.push(view.q()[i].neg());
        }
        if k > 0 && !solve_in_place(a, b, &num.pivot) {
            singular_skipped += 1;
            continue;
        }
        if b.iter().any(|v| *v < feasibility) {
            continue;
        }
        zc.iter_mut().for_each(|v| *v = T::zero());
        for (&i, v) in support.iter().zip(b.iter()) {
            if v.is_positive() {
                zc[i] = v.clone();
            }
        }
        view.compute_w(zc, wc);
        if wc.iter().enumerate().any(|(i, v)| mask >> i & 1 == 0 && *v < feasibility) {
            continue;
        }
        if view.residual(zc).min_map_inf <= num.certificate {
            z.clone_from_slice(zc);
            w.clone_from_slice(wc);
            return Enumerated::Found { singular_skipped };
        }
    }
    Enumerated::NotFound { singular_skipped }
}
