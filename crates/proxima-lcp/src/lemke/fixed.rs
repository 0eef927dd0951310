//! The const-generic path: the dictionary lives in stack arrays, nothing touches the heap.
//!
//! Storage is `[[T; N]; N]` (flattened with `as_flattened_mut`) for the n × n block, `[T; N]`
//! for the covering column and the constants, and `[usize; N]` for the labels — the (N+1)-th
//! nonbasic slot is the separate `extra` column, so no `N + 1` array size is needed. The core
//! is the same slice-based [`Dictionary`] the workspace path uses.
//!
//! Only the happy path (trivial, or the first Lemke run certified) is allocation-free: the
//! fallbacks (restarts, enumeration, exact re-solve) run in a temporary [`LemkeWorkspace`].

use core::array;

use proxima_num::Field;

use super::covering::CoveringChoice;
use super::dictionary::{Dictionary, DictionaryStorage};
use super::driver::{finish, is_trivial, validate};
use super::numerics::Numerics;
use super::path::{self, RunOutcome};
use super::workspace::finish_w;
use super::{FixedLcpSolution, LemkeSettings, LemkeWorkspace};
use crate::error::LcpError;
use crate::problem::LcpView;
use crate::solution::{LcpStatus, SolvePath};

/// See [`solve_lemke_fixed`](super::solve_lemke_fixed).
pub(super) fn solve_fixed<T: Field, const N: usize>(
    m: &[[T; N]; N],
    q: &[T; N],
    settings: &LemkeSettings,
) -> Result<FixedLcpSolution<T, N>, LcpError> {
    let view = LcpView::new(m.as_flattened(), q)?;
    validate::<T>(settings, N)?;
    let mut z: [T; N] = array::from_fn(|_| T::zero());
    let mut w: [T; N] = q.clone();
    if is_trivial(&view) {
        let residual = view.residual(&z);
        return Ok(FixedLcpSolution {
            status: LcpStatus::Trivial,
            z,
            w,
            pivots: 0,
            residual,
            path: SolvePath::Trivial,
        });
    }
    let num = Numerics::new(&view, settings);

    let mut block: [[T; N]; N] = m.clone();
    let mut extra: [T; N] = array::from_fn(|_| T::zero());
    let mut rhs: [T; N] = q.clone();
    let mut row_denom: [T; N] = array::from_fn(|_| T::zero());
    let mut row_scale: [T; N] = array::from_fn(|_| T::zero());
    let (mut basic, mut nonbasic, mut w_loc, mut z_loc) =
        ([0usize; N], [0usize; N], [0usize; N], [0usize; N]);
    let storage = DictionaryStorage {
        row_denom: &mut row_denom,
        row_scale: &mut row_scale,
        block: block.as_flattened_mut(),
        extra: &mut extra,
        rhs: &mut rhs,
        basic: &mut basic,
        nonbasic: &mut nonbasic,
        w_loc: &mut w_loc,
        z_loc: &mut z_loc,
    };
    // `block` and `rhs` start as copies of M and q.
    let mut dict = Dictionary::load(storage, None, CoveringChoice::Given(&settings.covering));
    let run = path::run(&mut dict, &num);
    dict.extract_z(&mut z);
    finish_w(&dict, run, &view, &z, &mut w);
    if run.outcome == RunOutcome::Solved {
        let residual = view.residual(&z);
        if residual.min_map_inf <= num.certificate {
            return Ok(FixedLcpSolution {
                status: LcpStatus::Solved,
                z,
                w,
                pivots: run.pivots,
                residual,
                path: SolvePath::Lemke,
            });
        }
    }

    // Fallbacks: allocate a workspace seeded with this attempt's iterate.
    let mut ws = LemkeWorkspace::with_capacity(N);
    ws.resize(N);
    ws.z.clone_from_slice(&z);
    ws.w.clone_from_slice(&w);
    let report = finish(&mut ws, &view, settings, &num, run);
    z.clone_from_slice(&ws.z);
    w.clone_from_slice(&ws.w);
    Ok(FixedLcpSolution {
        status: report.status,
        z,
        w,
        pivots: report.pivots,
        residual: report.residual,
        path: report.path,
    })
}
