//! The reusable storage of [`LemkeWorkspace`]: sizing and one Lemke attempt in place.
//!
//! Buffers are `Vec`s resized to exactly n per solve; shrinking never frees and growing within
//! the capacity never allocates, so after one solve of size n every solve of size ≤ n is
//! allocation-free for `Copy`-like scalars (exact scalars allocate inside their arithmetic).

use proxima_num::Field;

use super::LemkeWorkspace;
use super::covering::CoveringChoice;
use super::dictionary::{Dictionary, DictionaryStorage};
use super::enumeration::EnumerationScratch;
use super::numerics::Numerics;
use super::path::{self, Run, RunOutcome};
use crate::problem::LcpView;

/// Writes w = M z + q for the iterate of a finished run: read exactly off a terminal
/// fraction-free dictionary (exact arithmetic, so identical to M z + q; cross-checked in debug
/// builds), otherwise computed from M and q.
pub(super) fn finish_w<T: Field>(
    dict: &Dictionary<'_, T>,
    run: Run,
    view: &LcpView<'_, T>,
    z: &[T],
    w: &mut [T],
) {
    if run.outcome == RunOutcome::Solved && dict.extract_w(w) {
        // Debug builds cross-check against the data (small n only: exact products are costly).
        #[cfg(debug_assertions)]
        if z.len() <= 16 {
            let mut check = w.to_vec();
            view.compute_w(z, &mut check);
            debug_assert!(check == w, "dictionary w differs from M z + q");
        }
        return;
    }
    view.compute_w(z, w);
}

impl<T: Field> LemkeWorkspace<T> {
    pub(super) fn empty() -> Self {
        Self {
            row_denom: Vec::new(),
            row_scale: Vec::new(),
            block: Vec::new(),
            extra: Vec::new(),
            rhs: Vec::new(),
            basic: Vec::new(),
            nonbasic: Vec::new(),
            w_loc: Vec::new(),
            z_loc: Vec::new(),
            z: Vec::new(),
            w: Vec::new(),
            enumeration: EnumerationScratch::default(),
        }
    }

    pub(super) fn reserved(n: usize) -> Self {
        Self {
            row_denom: Vec::with_capacity(n),
            row_scale: Vec::with_capacity(n),
            block: Vec::with_capacity(n * n),
            extra: Vec::with_capacity(n),
            rhs: Vec::with_capacity(n),
            basic: Vec::with_capacity(n),
            nonbasic: Vec::with_capacity(n),
            w_loc: Vec::with_capacity(n),
            z_loc: Vec::with_capacity(n),
            z: Vec::with_capacity(n),
            w: Vec::with_capacity(n),
            enumeration: EnumerationScratch::default(),
        }
    }

    /// Sizes every buffer to exactly n (no allocation within the capacity).
    pub(super) fn resize(&mut self, n: usize) {
        self.block.resize(n * n, T::zero());
        for v in [
            &mut self.row_denom,
            &mut self.row_scale,
            &mut self.extra,
            &mut self.rhs,
            &mut self.z,
            &mut self.w,
        ] {
            v.resize(n, T::zero());
        }
        for v in [&mut self.basic, &mut self.nonbasic, &mut self.w_loc, &mut self.z_loc] {
            v.resize(n, 0);
        }
    }

    /// One Lemke run with the given covering vector; leaves the iterate in `z` and
    /// w = M z + q in `w`. The buffers must be sized to `view.n()`.
    pub(super) fn attempt(
        &mut self,
        view: &LcpView<'_, T>,
        choice: CoveringChoice<'_>,
        num: &Numerics<T>,
    ) -> Run {
        let Self { row_denom, row_scale, block, extra, rhs, basic, nonbasic, w_loc, z_loc, z, w, .. } = self;
        let storage =
            DictionaryStorage { row_denom, row_scale, block, extra, rhs, basic, nonbasic, w_loc, z_loc };
        let mut dict = Dictionary::load(storage, Some((view.m(), view.q())), choice);
        let run = path::run(&mut dict, num);
        dict.extract_z(z);
        finish_w(&dict, run, view, z, w);
        run
    }
}
